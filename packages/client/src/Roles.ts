/**
 * Roles: the Postgres roles of a branch: list, create, read, delete, reveal and reset a role's
 * password (`docs/contract.md` §15.2). Passwords are `Redacted` from the wire on: no log, span,
 * error or `JSON.stringify` shows them; read one with `Redacted.value` where a driver needs it.
 *
 * @since 0.3.0
 */
import * as Api from "@dbplatform/core/Api"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { DbPlatformClient } from "./DbPlatformClient.js"
import { finished } from "./internal/wait.js"
import * as Operations from "./Operations.js"
import * as Resource from "./Resource.js"

/**
 * The `Roles` service: one method per entry of core's `Api.Roles` group, each called with one input
 * object whose keys are the wire's path, query and body names, answering the wire's shape, and
 * failing with exactly the errors its entry declares (`docs/design.md` §1.3). `list` streams the
 * branch's roles; `listPage` answers them as `{ roles }`. A method that starts operations takes `{
 * wait: true }` (or how to wait) to answer only once they have finished, with the operations as
 * they ended and the role read again, its password shown once kept (`Resource.MutationOptions`)
 * (failing with
 * `OperationFailed` or `OperationStillPending` otherwise); by default it answers at once, and
 * `Operations.awaitAll(answer)` waits later.
 *
 * @since 0.3.0
 */
export interface Service extends Resource.Methods<typeof Api.Roles, Operations.ReadError> {}

/**
 * The tag of the {@link Service}; `yield* Roles.Roles` in a program, provided by {@link layer}
 * or `DbPlatform.layer`.
 *
 * @since 0.3.0
 * @category tags
 */
export class Roles extends Context.Tag("@dbplatform/client/Roles")<Roles, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` and `Operations` in context (a call
 * with `{ wait }` waits with that `Operations`: one rate limit per client).
 *
 * @since 0.3.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient | Operations.Operations> = Effect.gen(function* () {
  const client = yield* DbPlatformClient
  const operations = yield* Operations.Operations
  return Roles.of(Resource.methods(client, Api.Roles, finished(operations)))
})

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` and `Operations` (`DbPlatform.layer`
 * provides them).
 *
 * @since 0.3.0
 * @category layers
 */
export const layer: Layer.Layer<Roles, never, DbPlatformClient | Operations.Operations> = Layer.effect(Roles, make)
