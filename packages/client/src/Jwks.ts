/**
 * Jwks: the JSON Web Key Sets of a project's own identity provider: list, add (it starts
 * operations: `{ wait: true }` answers once they have finished), delete (`docs/contract.md` §27).
 *
 * @since 0.5.0
 */
import { Api } from "@dbplatform/core"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { DbPlatformClient } from "./DbPlatformClient.js"
import { finished } from "./internal/wait.js"
import * as Operations from "./Operations.js"
import * as Resource from "./Resource.js"

/**
 * The `Jwks` service: one method per entry of core's `Api.Jwks` group (`list`, `add`, `delete`),
 * each called with one input object whose keys are the wire's path and body names, answering the
 * wire's shape, and failing with exactly the errors its entry declares (`docs/design.md` §1.3).
 * `list` streams the project's JWKS; `listPage` answers them as `{ jwks }`. `add` starts
 * operations and takes `{ wait: true }` (or how to wait) to answer only once they have finished
 * (failing with `OperationFailed` or `OperationStillPending` otherwise); by default it answers at
 * once, and `Operations.awaitAll(answer)` waits later.
 *
 * @since 0.5.0
 */
export interface Service extends Resource.Methods<typeof Api.Jwks, Operations.ReadError> {}

/**
 * The tag of the {@link Service}; `yield* Jwks.Jwks` in a program, provided by {@link layer} or
 * `DbPlatform.layer`.
 *
 * @since 0.5.0
 * @category tags
 */
export class Jwks extends Context.Tag("@dbplatform/client/Jwks")<Jwks, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` and `Operations` in context (a call
 * with `{ wait }` waits with that `Operations`: one rate limit per client).
 *
 * @since 0.5.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient | Operations.Operations> = Effect.gen(function* () {
  const client = yield* DbPlatformClient
  const operations = yield* Operations.Operations
  return Jwks.of(Resource.methods(client, Api.Jwks, finished(operations)))
})

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` and `Operations` (`DbPlatform.layer`
 * provides them).
 *
 * @since 0.5.0
 * @category layers
 */
export const layer: Layer.Layer<Jwks, never, DbPlatformClient | Operations.Operations> = Layer.effect(Jwks, make)
