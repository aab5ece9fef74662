/**
 * Branded identifiers of the control API v2 (`control-api-v2.md` §2, `wire-facts.md`).
 *
 * A brand keeps a project id from being passed where an operation id is expected. Each
 * schema decodes the wire value (and validates its pattern); `make` brands a literal.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

/**
 * Identifier of an API key: a positive integer (int64 on the wire; §2.1).
 *
 * @since 0.1.0
 */
export const ApiKeyId = Schema.Int.pipe(Schema.positive(), Schema.brand("@dbplatform/ApiKeyId")).annotations({
  identifier: "ApiKeyId"
})
/** @since 0.1.0 */
export type ApiKeyId = typeof ApiKeyId.Type

/**
 * Identifier of a project, matching `^[a-z0-9-]{1,60}$`, e.g. `spring-example-302709`
 * (§2.4; wire-facts "Projects").
 *
 * @since 0.1.0
 */
export const ProjectId = Schema.String.pipe(
  Schema.pattern(/^[a-z0-9-]{1,60}$/, { message: () => "a project id is 1 to 60 of a-z, 0-9 and -" }),
  Schema.brand("@dbplatform/ProjectId")
).annotations({ identifier: "ProjectId" })
/** @since 0.1.0 */
export type ProjectId = typeof ProjectId.Type

/**
 * Identifier of an operation: a UUID (§2.5).
 *
 * @since 0.1.0
 */
export const OperationId = Schema.UUID.pipe(Schema.brand("@dbplatform/OperationId")).annotations({
  identifier: "OperationId"
})
/** @since 0.1.0 */
export type OperationId = typeof OperationId.Type

/**
 * Identifier of a branch, e.g. `br-wispy-meadow-118737` (§2.5).
 *
 * @since 0.1.0
 */
export const BranchId = Schema.String.pipe(Schema.brand("@dbplatform/BranchId")).annotations({
  identifier: "BranchId"
})
/** @since 0.1.0 */
export type BranchId = typeof BranchId.Type

/**
 * Identifier of a compute endpoint, e.g. `ep-proud-mud-a5x8dq2u` (§2.5).
 *
 * @since 0.1.0
 */
export const EndpointId = Schema.String.pipe(Schema.brand("@dbplatform/EndpointId")).annotations({
  identifier: "EndpointId"
})
/** @since 0.1.0 */
export type EndpointId = typeof EndpointId.Type
