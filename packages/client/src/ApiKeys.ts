/**
 * API keys: create (the value shown once, `Redacted`), list and revoke the account's keys
 * (`docs/contract.md` §2.1 to §2.3). `create` is never sent twice for one call unless the server
 * answered 423, 429 or 503 (it did not act): after a 5xx or no response the call fails, and a key
 * may have been created (list the keys to find out).
 *
 * @since 0.1.0
 */
import * as Api from "@dbplatform/core/Api"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { DbPlatformClient } from "./DbPlatformClient.js"
import * as Resource from "./Resource.js"

/**
 * The `ApiKeys` service: one method per entry of core's `Api.ApiKeys` group, each called with one
 * input object whose keys are the wire's path, query and body names, answering the wire's shape,
 * and failing with exactly the errors its entry declares (`docs/design.md` §1.3). A list is a
 * `Stream` of its items (`list`), and its one request `listPage`.
 *
 * @since 0.1.0
 */
export interface Service extends Resource.Methods<typeof Api.ApiKeys> {}

/**
 * The tag of the {@link Service}; `yield* ApiKeys.ApiKeys` in a program, provided by {@link layer}
 * or `DbPlatform.layer`.
 *
 * @since 0.1.0
 * @category tags
 */
export class ApiKeys extends Context.Tag("@dbplatform/client/ApiKeys")<ApiKeys, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.1.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.map(DbPlatformClient, (client) =>
  ApiKeys.of(Resource.methods(client, Api.ApiKeys))
)

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<ApiKeys, never, DbPlatformClient> = Layer.effect(ApiKeys, make)
