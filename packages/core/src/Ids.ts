/**
 * Branded identifiers of the control API v2 (`docs/contract.md` §2, §10).
 *
 * A brand keeps a project id from being passed where an operation id is expected. Each
 * schema decodes the wire value (and validates its pattern); `make` brands a literal.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

/**
 * Identifier of an API key: an integer (int64 on the wire, with no minimum; any safe integer
 * decodes, §2.1, §10.3).
 *
 * @since 0.1.0
 * @category ids
 */
export const ApiKeyId = Schema.Int.pipe(Schema.brand("@dbplatform/ApiKeyId")).annotations({
  identifier: "ApiKeyId"
})
/**
 * A decoded {@link ApiKeyId}: a `number` (safe integer) branded `@dbplatform/ApiKeyId`.
 *
 * @since 0.1.0
 * @category ids
 */
export type ApiKeyId = typeof ApiKeyId.Type

/**
 * Identifier of a project, matching `^[a-z0-9-]{1,60}$`, e.g. `spring-example-302709`
 * (§2.4, §10.4).
 *
 * @example
 * ```ts
 * import { ProjectId } from "@dbplatform/core"
 * import { Schema } from "effect"
 *
 * const id = ProjectId.make("spring-example-302709") // branded: not assignable from a plain string
 * console.log(Schema.is(ProjectId)(id), Schema.is(ProjectId)("Not An Id")) // true false
 * ```
 *
 * @since 0.1.0
 * @category ids
 */
export const ProjectId = Schema.String.pipe(
  Schema.pattern(/^[a-z0-9-]{1,60}$/, { message: () => "a project id is 1 to 60 of a-z, 0-9 and -" }),
  Schema.brand("@dbplatform/ProjectId")
).annotations({ identifier: "ProjectId" })
/**
 * A decoded {@link ProjectId}: a `string` matching `^[a-z0-9-]{1,60}$` branded `@dbplatform/ProjectId`.
 *
 * @since 0.1.0
 * @category ids
 */
export type ProjectId = typeof ProjectId.Type

/**
 * Identifier of an operation: a UUID (§2.5).
 *
 * @since 0.1.0
 * @category ids
 */
export const OperationId = Schema.UUID.pipe(Schema.brand("@dbplatform/OperationId")).annotations({
  identifier: "OperationId"
})
/**
 * A decoded {@link OperationId}: a UUID `string` branded `@dbplatform/OperationId`.
 *
 * @since 0.1.0
 * @category ids
 */
export type OperationId = typeof OperationId.Type

/**
 * Identifier of a branch, e.g. `br-wispy-meadow-118737` (§2.5).
 *
 * @since 0.1.0
 * @category ids
 */
export const BranchId = Schema.String.pipe(Schema.brand("@dbplatform/BranchId")).annotations({
  identifier: "BranchId"
})
/**
 * A decoded {@link BranchId}: a `string` branded `@dbplatform/BranchId`.
 *
 * @since 0.1.0
 * @category ids
 */
export type BranchId = typeof BranchId.Type

/**
 * Identifier of a compute endpoint, e.g. `ep-proud-mud-a5x8dq2u` (§2.5).
 *
 * @since 0.1.0
 * @category ids
 */
export const EndpointId = Schema.String.pipe(Schema.brand("@dbplatform/EndpointId")).annotations({
  identifier: "EndpointId"
})
/**
 * A decoded {@link EndpointId}: a `string` branded `@dbplatform/EndpointId`.
 *
 * @since 0.1.0
 * @category ids
 */
export type EndpointId = typeof EndpointId.Type
