/**
 * Client services derived from core's endpoint table: a resource's methods are its table
 * entries, each with the input, answer and exact error union its entry declares
 * (`docs/design.md` §1.2).
 *
 * @since 0.3.0
 */
import type { Endpoint } from "@dbplatform/core"
import type * as Effect from "effect/Effect"
import type { ExecuteError, Service as Client } from "./DbPlatformClient.js"

/**
 * The method of one endpoint `E`: takes its path parameters, query and body
 * (`Endpoint.Input<E>`; the argument may be left out when every part is optional), answers its
 * decoded answer (`Endpoint.Success<E>`), and fails with exactly the errors a call to `E` can
 * fail with (`ExecuteError<E>`).
 *
 * @since 0.3.0
 * @category models
 */
export type Method<E extends Endpoint.Endpoint> =
  {} extends Endpoint.Input<E>
    ? (input?: Endpoint.Input<E>) => Effect.Effect<Endpoint.Success<E>, ExecuteError<E>>
    : (input: Endpoint.Input<E>) => Effect.Effect<Endpoint.Success<E>, ExecuteError<E>>

/**
 * The methods of a record of table entries, by the same keys.
 *
 * @since 0.3.0
 * @category models
 */
export type Methods<T extends Readonly<Record<string, Endpoint.Endpoint>>> = {
  readonly [K in keyof T]: Method<T[K]>
}

/**
 * Checks of answers, by method: given the input sent and the decoded answer, what is wrong with
 * it (the call then fails with `MalformedResponse`), or `undefined` when it may be right (e.g.
 * the answer is about another branch than the one asked for).
 *
 * @since 0.3.0
 * @category models
 */
export type Checks<T extends Readonly<Record<string, Endpoint.Endpoint>>> = {
  readonly [K in keyof T]?: (input: Endpoint.Input<T[K]>, answer: Endpoint.Success<T[K]>) => string | undefined
}

/**
 * The methods of `entries` over `client`: each sends one request to its entry with
 * `DbPlatformClient.execute` (encoding, retries, typed errors and span as every call), its
 * answer checked by `checks[key]` when given.
 *
 * @example
 * ```ts
 * import { DbPlatformClient, Resource } from "@dbplatform/client"
 * import { BranchId, Endpoint, ProjectId } from "@dbplatform/core"
 * import { Effect } from "effect"
 *
 * const program = Effect.gen(function* () {
 *   const client = yield* DbPlatformClient.DbPlatformClient
 *   const branches = Resource.methods(client, { get: Endpoint.getBranch })
 *   const { branch } = yield* branches.get({
 *     params: { project_id: ProjectId.make("spring-example-302709"), branch_id: BranchId.make("br-wispy-meadow-118737") }
 *   })
 *   return branch.name
 * })
 * ```
 *
 * @since 0.3.0
 * @category constructors
 */
export const methods = <const T extends Readonly<Record<string, Endpoint.Endpoint>>>(
  client: Client,
  entries: T,
  checks: Checks<T> = {}
): Methods<T> => {
  const made: Record<string, (input?: any) => Effect.Effect<unknown, unknown>> = {}
  for (const key of Object.keys(entries)) {
    const endpoint: Endpoint.Endpoint = entries[key]!
    const check: ((input: any, answer: any) => string | undefined) | undefined = checks[key]
    made[key] =
      check === undefined
        ? (input = {}) => client.execute(endpoint, input)
        : (input = {}) => client.execute(endpoint, input, (answer) => check(input, answer))
  }
  return made as Methods<T>
}
