/**
 * Snapshots: take a snapshot of a branch (`create`), list a project's (`list`, a `Stream`, or
 * `listPage`, `{ snapshots }`), rename (`update`), delete, restore one to a new branch
 * (`restore`) and finalize that restore (`finalizeRestore`), and read or set a branch's backup
 * schedule (`getBackupSchedule`, `setBackupSchedule`) (`docs/contract.md` §19).
 *
 * @since 0.5.0
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
 * The `Snapshots` service: one method per entry of core's `Api.Snapshots` group, each called with
 * one input object whose keys are the wire's path, query and body names, answering the wire's
 * shape, and failing with exactly the errors its entry declares (`docs/design.md` §1.3). `list`
 * streams the project's snapshots; `listPage` answers them as `{ snapshots }`. A method that starts
 * operations takes `{ wait: true }` (or how to wait) to answer only once they have finished, with
 * the operations as they ended (a `restore` with its branch read again: `ready`;
 * `Resource.MutationOptions`) (failing with `OperationFailed` or `OperationStillPending` otherwise); by default it answers at
 * once, and `Operations.awaitAll(answer)` waits later.
 *
 * @since 0.5.0
 */
export interface Service extends Resource.Methods<typeof Api.Snapshots, Operations.ReadError> {}

/**
 * The tag of the {@link Service}; `yield* Snapshots.Snapshots` in a program, provided by {@link layer}
 * or `DbPlatform.layer`.
 *
 * @since 0.5.0
 * @category tags
 */
export class Snapshots extends Context.Tag("@dbplatform/client/Snapshots")<Snapshots, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` and `Operations` in context (a call
 * with `{ wait }` waits with that `Operations`: one rate limit per client).
 *
 * @since 0.5.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient | Operations.Operations> = Effect.gen(function* () {
  const client = yield* DbPlatformClient
  const operations = yield* Operations.Operations
  return Snapshots.of(Resource.methods(client, Api.Snapshots, finished(operations)))
})

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` and `Operations` (`DbPlatform.layer`
 * provides them).
 *
 * @since 0.5.0
 * @category layers
 */
export const layer: Layer.Layer<Snapshots, never, DbPlatformClient | Operations.Operations> = Layer.effect(
  Snapshots,
  make
)
