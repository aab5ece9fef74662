/**
 * Regions: the regions a project can be created in, as `Stream` (`list`) or one request
 * (`listPage`, `{ regions }`) (`docs/contract.md` §17).
 *
 * @since 0.4.0
 */
import * as Api from "@dbplatform/core/Api"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { DbPlatformClient } from "./DbPlatformClient.js"
import * as Resource from "./Resource.js"

/**
 * The `Regions` service: one method per entry of core's `Api.Regions` group, each called with one
 * input object whose keys are the wire's path, query and body names, answering the wire's shape,
 * and failing with exactly the errors its entry declares (`docs/design.md` §1.3). A list is a
 * `Stream` of its items (`list`), and its one request `listPage`.
 *
 * @since 0.4.0
 */
export interface Service extends Resource.Methods<typeof Api.Regions> {}

/**
 * The tag of the {@link Service}; `yield* Regions.Regions` in a program, provided by {@link layer}
 * or `DbPlatform.layer`.
 *
 * @since 0.4.0
 * @category tags
 */
export class Regions extends Context.Tag("@dbplatform/client/Regions")<Regions, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.4.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.map(DbPlatformClient, (client) =>
  Regions.of(Resource.methods(client, Api.Regions))
)

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.4.0
 * @category layers
 */
export const layer: Layer.Layer<Regions, never, DbPlatformClient> = Layer.effect(Regions, make)
