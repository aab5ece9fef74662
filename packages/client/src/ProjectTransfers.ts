/**
 * ProjectTransfers: projects moved between organizations at once (`transfer`), or by a request
 * (`createRequest`) its recipient accepts (`acceptRequest`) (`docs/contract.md` §22.4).
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
 * The `ProjectTransfers` service: one method per entry of core's `Api.ProjectTransfers` group, each called with
 * one input object whose keys are the wire's path, query and body names, answering the wire's
 * shape, and failing with exactly the errors its entry declares (`docs/design.md` §1.3). A list
 * is a `Stream` of its items, and its one request `<key>Page`.
 *
 * @since 0.5.0
 */
export interface Service extends Resource.Methods<typeof Api.ProjectTransfers> {}

/**
 * The tag of the {@link Service}; `yield* ProjectTransfers.ProjectTransfers` in a program, provided by
 * {@link layer} or `DbPlatform.layer`.
 *
 * @since 0.5.0
 * @category tags
 */
export class ProjectTransfers extends Context.Tag("@dbplatform/client/ProjectTransfers")<ProjectTransfers, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.5.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.map(DbPlatformClient, (client) =>
  ProjectTransfers.of(Resource.methods(client, Api.ProjectTransfers))
)

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.5.0
 * @category layers
 */
export const layer: Layer.Layer<ProjectTransfers, never, DbPlatformClient> = Layer.effect(ProjectTransfers, make)
