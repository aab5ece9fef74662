/**
 * Connection strings: the connection URI of a branch's database for a role, `Redacted` (it holds
 * the role's password) (`docs/contract.md` §13.1).
 *
 * @since 0.3.0
 */
import * as Api from "@dbplatform/core/Api"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { DbPlatformClient } from "./DbPlatformClient.js"
import * as Resource from "./Resource.js"

/**
 * The `Connections` service: one method per entry of core's `Api.Connections` group, called with
 * one input object whose keys are the wire's path and query names (`uri({ project_id,
 * database_name, role_name, branch_id?, endpoint_id?, pooled? })`), answering the wire's shape
 * (`{ uri }`, `Redacted`), and failing with exactly the errors its entry declares
 * (`docs/design.md` §1.3).
 *
 * @since 0.3.0
 */
export interface Service extends Resource.Methods<typeof Api.Connections> {}

/**
 * The tag of the {@link Service}; `yield* Connections.Connections` in a program, provided by {@link layer}
 * or `DbPlatform.layer`.
 *
 * @since 0.3.0
 * @category tags
 */
export class Connections extends Context.Tag("@dbplatform/client/Connections")<Connections, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.3.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.map(DbPlatformClient, (client) =>
  Connections.of(Resource.methods(client, Api.Connections))
)

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.3.0
 * @category layers
 */
export const layer: Layer.Layer<Connections, never, DbPlatformClient> = Layer.effect(Connections, make)
