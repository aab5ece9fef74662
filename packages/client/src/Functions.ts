/**
 * Functions (beta): a branch's functions and their deployments (`docs/contract.md` §29).
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
 * The `Functions` service: one method per entry of core's `Api.Functions` group, each called
 * with one input object whose keys are the wire's path, query and body names
 * (`docs/design.md` §1.3). `list` streams a branch's functions (its own and those it inherits), following the
 * cursor as the consumer pulls; `listPage` answers one page `{ functions, pagination }`. `get`,
 * `update` (`{ name }`: the display name, `null` back to the slug) and `delete` (a 204:
 * `undefined`) act on one function by its `slug`. `createDeployment({ project_id, branch_id,
 * slug, zip, runtime, environment })` sends `multipart/form-data`: `zip` the code's bytes
 * (`Uint8Array`; the first deployment of a slug needs one and creates the function),
 * `environment` names to `Redacted` values (write-only: the answer names them only), and answers
 * 201 `{ deployment }`, `pending`; its build finishes on its own (`get` reads `status`).
 *
 * @since 0.6.0
 */
export interface Service extends Resource.Methods<typeof Api.Functions> {}

/**
 * The tag of the {@link Service}; `yield* Functions.Functions` in a program, provided by
 * {@link layer} or `DbPlatform.layer`.
 *
 * @since 0.6.0
 * @category tags
 */
export class Functions extends Context.Tag("@dbplatform/client/Functions")<Functions, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.6.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.map(DbPlatformClient, (client) =>
  Functions.of(Resource.methods(client, Api.Functions))
)

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides it).
 *
 * @since 0.6.0
 * @category layers
 */
export const layer: Layer.Layer<Functions, never, DbPlatformClient> = Layer.effect(Functions, make)
