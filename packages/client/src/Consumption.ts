/**
 * Consumption: an organization's consumption history per project (`listProjects`) and per
 * branch (`listBranches`), and the legacy plans' per project (`listProjectsLegacy`), each a
 * `Stream` of its projects or branches following the cursor, and its one request
 * (`listProjectsPage`, `listBranchesPage`, `listProjectsLegacyPage`) (`docs/contract.md` §23).
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
 * The `Consumption` service: one method per entry of core's `Api.Consumption` group, each called
 * with one input object whose keys are the wire's query names (`from` and `to` as `DateTime.Utc`,
 * `metrics` and `project_ids` as arrays, sent comma-separated), answering the wire's shape, and
 * failing with exactly the errors its entry declares (`NotAcceptable` for a range longer than the
 * granularity allows, `Forbidden` where the plan does not offer it) (`docs/design.md` §1.3). Each
 * list is a `Stream` of its items, and its one request `<key>Page`. Reading consumption wakes no
 * compute endpoint.
 *
 * @since 0.5.0
 */
export interface Service extends Resource.Methods<typeof Api.Consumption> {}

/**
 * The tag of the {@link Service}; `yield* Consumption.Consumption` in a program, provided by
 * {@link layer} or `DbPlatform.layer`.
 *
 * @since 0.5.0
 * @category tags
 */
export class Consumption extends Context.Tag("@dbplatform/client/Consumption")<Consumption, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.5.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.map(DbPlatformClient, (client) =>
  Consumption.of(Resource.methods(client, Api.Consumption))
)

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.5.0
 * @category layers
 */
export const layer: Layer.Layer<Consumption, never, DbPlatformClient> = Layer.effect(Consumption, make)
