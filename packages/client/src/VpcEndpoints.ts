/**
 * VpcEndpoints: an organization's VPC endpoints, by region (`list`, `listAll`, `get`, `assign`,
 * `delete`), and a project's restrictions to them (`listRestrictions`, `setRestriction`,
 * `deleteRestriction`) (`docs/contract.md` §22.3).
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
 * The `VpcEndpoints` service: one method per entry of core's `Api.VpcEndpoints` group, each called with
 * one input object whose keys are the wire's path, query and body names, answering the wire's
 * shape, and failing with exactly the errors its entry declares (`docs/design.md` §1.3). A list
 * is a `Stream` of its items, and its one request `<key>Page`.
 *
 * @since 0.5.0
 */
export interface Service extends Resource.Methods<typeof Api.VpcEndpoints> {}

/**
 * The tag of the {@link Service}; `yield* VpcEndpoints.VpcEndpoints` in a program, provided by
 * {@link layer} or `DbPlatform.layer`.
 *
 * @since 0.5.0
 * @category tags
 */
export class VpcEndpoints extends Context.Tag("@dbplatform/client/VpcEndpoints")<VpcEndpoints, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.5.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.map(DbPlatformClient, (client) =>
  VpcEndpoints.of(Resource.methods(client, Api.VpcEndpoints))
)

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.5.0
 * @category layers
 */
export const layer: Layer.Layer<VpcEndpoints, never, DbPlatformClient> = Layer.effect(VpcEndpoints, make)
