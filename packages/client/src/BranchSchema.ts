/**
 * BranchSchema: a database's schema on a branch, as SQL or JSON, now or at a point in its history
 * (`get`), and the unified diff against another branch or point in time (`compare`): what a
 * migration review reads (`docs/contract.md` §24).
 *
 * @since 0.5.0
 */
import * as Api from "@dbplatform/core/Api"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { DbPlatformClient } from "./DbPlatformClient.js"
import * as Resource from "./Resource.js"

/**
 * The `BranchSchema` service: one method per entry of core's `Api.BranchSchema` group, each called
 * with one input object whose keys are the wire's path and query names
 * (`{ project_id, branch_id, db_name, format: "json" }`), answering the wire's shape (`{ sql }`,
 * `{ json }`, `{ diff }`), and failing with exactly the errors its entry declares
 * (`docs/design.md` §1.3).
 *
 * @since 0.5.0
 */
export interface Service extends Resource.Methods<typeof Api.BranchSchema> {}

/**
 * The tag of the {@link Service}; `yield* BranchSchema.BranchSchema` in a program, provided by
 * {@link layer} or `DbPlatform.layer`.
 *
 * @since 0.5.0
 * @category tags
 */
export class BranchSchema extends Context.Tag("@dbplatform/client/BranchSchema")<BranchSchema, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.5.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.map(DbPlatformClient, (client) =>
  BranchSchema.of(Resource.methods(client, Api.BranchSchema))
)

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.5.0
 * @category layers
 */
export const layer: Layer.Layer<BranchSchema, never, DbPlatformClient> = Layer.effect(BranchSchema, make)
