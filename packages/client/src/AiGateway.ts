/**
 * AiGateway: a branch's AI gateway endpoint (`get`) (`docs/contract.md` §28.5).
 *
 * @since 0.6.0
 */
import * as Api from "@dbplatform/core/Api"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { DbPlatformClient } from "./DbPlatformClient.js"
import * as Resource from "./Resource.js"

/**
 * The `AiGateway` service: one method per entry of core's `Api.AiGateway` group, each called with one
 * input object whose keys are the wire's path names (`get({ project_id, branch_id })`), answering
 * the wire's shape, and failing with exactly the errors its entry declares (`docs/design.md` §1.3):
 * `NotFound` when the branch has no AI gateway (§28.5).
 *
 * @since 0.6.0
 */
export interface Service extends Resource.Methods<typeof Api.AiGateway> {}

/**
 * The tag of the {@link Service}; `yield* AiGateway.AiGateway` in a program, provided by {@link layer} or
 * `DbPlatform.layer`.
 *
 * @since 0.6.0
 * @category tags
 */
export class AiGateway extends Context.Tag("@dbplatform/client/AiGateway")<AiGateway, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.6.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.map(DbPlatformClient, (client) =>
  AiGateway.of(Resource.methods(client, Api.AiGateway))
)

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.6.0
 * @category layers
 */
export const layer: Layer.Layer<AiGateway, never, DbPlatformClient> = Layer.effect(AiGateway, make)
