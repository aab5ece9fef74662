/**
 * DataApi: the HTTP (REST) interface a branch serves over one of its databases: read, create,
 * update its settings, delete (`docs/contract.md` §25).
 *
 * @since 0.5.0
 */
import { Api } from "@dbplatform/core"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { DbPlatformClient } from "./DbPlatformClient.js"
import * as Resource from "./Resource.js"

/**
 * The `DataApi` service: one method per entry of core's `Api.DataApi` group (`get`, `create`,
 * `update`, `delete`), each called with one input object whose keys are the wire's path and body
 * names (`{ project_id, branch_id, database_name, settings }`), answering the wire's shape, and
 * failing with exactly the errors its entry declares (`docs/design.md` §1.3).
 *
 * @since 0.5.0
 */
export interface Service extends Resource.Methods<typeof Api.DataApi> {}

/**
 * The tag of the {@link Service}; `yield* DataApi.DataApi` in a program, provided by {@link layer}
 * or `DbPlatform.layer`.
 *
 * @since 0.5.0
 * @category tags
 */
export class DataApi extends Context.Tag("@dbplatform/client/DataApi")<DataApi, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.5.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.map(DbPlatformClient, (client) =>
  DataApi.of(Resource.methods(client, Api.DataApi))
)

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.5.0
 * @category layers
 */
export const layer: Layer.Layer<DataApi, never, DbPlatformClient> = Layer.effect(DataApi, make)
