/**
 * Client services derived from core's endpoint groups: a resource's methods are its group's
 * entries, each called the one way every method is (`docs/design.md` §1.3): one input object,
 * its keys the wire's path, query and body names; an optional second object for how the SDK
 * runs the call (`wait`, `pageSize`). Each answers its entry's decoded answer and fails with the
 * exact error union its entry declares.
 *
 * @since 0.3.0
 */
import type { Endpoint, Operation, OperationFailed, OperationStillPending } from "@dbplatform/core"
import type * as Api from "@dbplatform/core/Api"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { ExecuteError, Input, Service as Client } from "./DbPlatformClient.js"
import { paginate } from "./internal/pagination.js"
import { settled } from "./internal/wait.js"
import type { WaitOptions } from "./Operations.js"

/**
 * How a method that starts operations runs: `wait` (`true`, or how to wait) answers only once
 * the operations its answer carries have finished, with what is true then: the operations as the
 * wait last read them (`finished` or `skipped`), and, where the entry names a GET that reads what
 * it created or changed (core's `readBack`: a branch, a compute endpoint, a project, a role, a
 * database), that resource as the GET reads it after the wait (a branch `ready`, a compute
 * endpoint `active`); the default, `false`, answers at once, and the caller waits with
 * `Operations.awaitAll(answer)` when it needs to (`docs/design.md` §1.3).
 *
 * @since 0.4.0
 * @category models
 */
export interface MutationOptions {
  readonly wait?: boolean | WaitOptions | undefined
}

/**
 * How a list's `Stream` pages: `pageSize`, the items fetched per request (1 to the endpoint's
 * largest page; 100 by default).
 *
 * @since 0.4.0
 * @category models
 */
export interface ListOptions {
  readonly pageSize?: number | undefined
}

/**
 * What waiting can fail with beyond the call itself: an operation ended badly
 * (`OperationFailed`), or had not ended when the wait stopped (`OperationStillPending`), or a read
 * of the operations failed (`E`). A method whose entry reads its resource back after the wait
 * can also fail as that read does ({@link ReadBackError}).
 *
 * @since 0.4.0
 * @category models
 */
export type WaitError<E> = OperationFailed | OperationStillPending | E

/**
 * Waits for the operations an answer carries (`Operations.awaitAll` as it is in a service):
 * succeeds once they all ended well, with each one's last state read (since 0.5.0; before, with
 * nothing).
 *
 * @since 0.4.0
 * @category models
 */
export type Waiter<E> = (
  answer: Endpoint.CarriesOperations,
  options: WaitOptions
) => Effect.Effect<ReadonlyArray<Operation>, WaitError<E>>

/** The entry of `Api.groups` named `N` (`"Branches.get"`), `never` for none. */
type EntryNamed<N> = N extends `${infer G}.${infer K}`
  ? G extends keyof typeof Api.groups
    ? K extends keyof (typeof Api.groups)[G]
      ? (typeof Api.groups)[G][K]
      : never
    : never
  : never

/**
 * The GET entry `E` reads its resource back with after a wait (its `readBack`, e.g.
 * `Api.Branches.get` for `Api.Branches.create`); `never` when it declares none.
 *
 * @since 0.5.0
 * @category models
 */
export type ReadBackOf<E extends Endpoint.Endpoint> = E extends {
  readonly readBack: Endpoint.ReadBack<any, any, infer N>
}
  ? EntryNamed<N>
  : never

/**
 * What the read after a wait can fail with: the errors of a call to {@link ReadBackOf} `E`
 * (`never` when `E` reads nothing back). In a method's type only when it is asked to wait.
 *
 * @since 0.5.0
 * @category models
 */
export type ReadBackError<E extends Endpoint.Endpoint> = [ReadBackOf<E>] extends [never]
  ? never
  : ReadBackOf<E> extends Endpoint.Endpoint
    ? ExecuteError<ReadBackOf<E>>
    : never

/** Options given none: no wait. */
type NoWait = { readonly wait?: false | undefined }

/**
 * Whether options `O` may ask to wait: all but those whose `wait` is surely absent or `false`
 * (options typed `MutationOptions`, or `{ wait: boolean }`, may).
 */
type Waits<O> = O extends { readonly wait?: false | undefined } ? false : true

/**
 * Whether `E` starts operations, read from its type: an entry that is not a list and whose answer
 * carries operations (`Endpoint.CarriesOperations`; a page of operations carries them too, and
 * starts none). An entry's `startsOperations` is a `boolean` to the type checker, not `true` or
 * `false`; `Endpoint.make` takes `true` only for an answer that carries operations, and the
 * client's tests check over `Api.endpoints` that every entry read here as starting operations
 * sets it, and no other.
 */
type StartsOperations<E extends Endpoint.Endpoint> = [Endpoint.Item<E>] extends [never]
  ? [Endpoint.Success<E>] extends [Endpoint.CarriesOperations]
    ? true
    : false
  : false

/**
 * The method of one endpoint `E`: takes its input (`DbPlatformClient.Input<E>`: core's
 * `Endpoint.Input<E>`, `org_id` filled in from the client's `orgId`; left out when every key is
 * optional), answers its decoded answer (`Endpoint.Success<E>`), and fails with exactly the
 * errors a call to `E` can fail with (`ExecuteError<E>`). A method of an endpoint that starts
 * operations also takes {@link MutationOptions}; asked to `wait` (or given options that may ask
 * to), it can fail as waiting does (`W`) and as its read after the wait does
 * ({@link ReadBackError}).
 *
 * @since 0.3.0
 * @category models
 */
export type Method<E extends Endpoint.Endpoint, W = never> =
  StartsOperations<E> extends false
    ? {} extends Input<E>
      ? (input?: Input<E>) => Effect.Effect<Endpoint.Success<E>, ExecuteError<E>>
      : (input: Input<E>) => Effect.Effect<Endpoint.Success<E>, ExecuteError<E>>
    : {} extends Input<E>
      ? <const O extends MutationOptions = NoWait>(
          input?: Input<E>,
          options?: O
        ) => Effect.Effect<
          Endpoint.Success<E>,
          ExecuteError<E> | (Waits<O> extends true ? WaitError<W> | ReadBackError<E> : never)
        >
      : <const O extends MutationOptions = NoWait>(
          input: Input<E>,
          options?: O
        ) => Effect.Effect<
          Endpoint.Success<E>,
          ExecuteError<E> | (Waits<O> extends true ? WaitError<W> | ReadBackError<E> : never)
        >

/**
 * The input of a list's `Stream`: the endpoint's input without the `limit` and `cursor` the
 * walk sends itself.
 *
 * @since 0.4.0
 * @category models
 */
export type ListInput<E extends Endpoint.Endpoint> = Omit<Input<E>, "limit" | "cursor">

/**
 * The `Stream` of a list endpoint `E`: its items, page after page as the consumer pulls (one
 * page in memory; a list that does not page is one request), failing as a call to `E` does.
 *
 * @since 0.4.0
 * @category models
 */
export type ListMethod<E extends Endpoint.Endpoint> =
  {} extends ListInput<E>
    ? (input?: ListInput<E>, options?: ListOptions) => Stream.Stream<Endpoint.Item<E>, ExecuteError<E>>
    : (input: ListInput<E>, options?: ListOptions) => Stream.Stream<Endpoint.Item<E>, ExecuteError<E>>

/** The keys of `T`'s list endpoints. */
type ListKeys<T> = {
  readonly [K in keyof T]: T[K] extends Endpoint.Endpoint ? ([Endpoint.Item<T[K]>] extends [never] ? never : K) : never
}[keyof T]

/**
 * The methods of a group of endpoints, by the same keys: a list endpoint's key (`list`) is the
 * `Stream` of its items, and `<key>Page` (`listPage`) its one request; every other key is its
 * one request ({@link Method}). `W` is what waiting can fail with.
 *
 * @since 0.3.0
 * @category models
 */
export type Methods<T extends Readonly<Record<string, Endpoint.Endpoint>>, W = never> = {
  readonly [K in keyof T]: K extends ListKeys<T> ? ListMethod<T[K]> : Method<T[K], W>
} & {
  readonly [K in ListKeys<T> & string as `${K}Page`]: Method<T[K], W>
}

/**
 * The methods of `group` over `client` ({@link Methods}): each request sent with
 * `DbPlatformClient.execute` (encoding, retries, typed errors, span and answer checks as every
 * call), a list's pages walked along its cursor (a cursor sent twice, a page longer than asked
 * for, fails the stream with `MalformedResponse`), and a call asked to `wait` waited for with
 * `wait`, then answered as the wait leaves it (the operations' last states, the resource read
 * back: {@link MutationOptions}).
 *
 * @example
 * ```ts
 * import { DbPlatformClient, Resource } from "@dbplatform/client"
 * import * as Api from "@dbplatform/core/Api"
import { BranchId, ProjectId } from "@dbplatform/core"
 * import { Effect } from "effect"
 *
 * const program = Effect.gen(function* () {
 *   const client = yield* DbPlatformClient.DbPlatformClient
 *   const branches = Resource.methods(client, Api.Branches)
 *   const { branch } = yield* branches.get({
 *     project_id: ProjectId.make("spring-example-302709"),
 *     branch_id: BranchId.make("br-wispy-meadow-118737")
 *   })
 *   return branch.name
 * })
 * ```
 *
 * @since 0.3.0
 * @category constructors
 */
export const methods = <const T extends Readonly<Record<string, Endpoint.Endpoint>>, W = never>(
  client: Client,
  group: T,
  wait?: Waiter<W>
): Methods<T, W> => {
  const made: Record<string, (input?: any, options?: any) => unknown> = {}
  for (const key of Object.keys(group)) {
    const endpoint: Endpoint.Endpoint = group[key]!
    const send = (input: any = {}) => client.execute(endpoint, input)
    const list = endpoint.list
    if (list === undefined) {
      made[key] =
        !endpoint.startsOperations || wait === undefined
          ? send
          : (input: any, options: MutationOptions = {}) =>
              options.wait === undefined || options.wait === false
                ? send(input)
                : Effect.flatMap(send(input), (answer) =>
                    Effect.flatMap(wait(answer, options.wait === true ? {} : (options.wait as WaitOptions)), (states) =>
                      settled(client, endpoint, input, answer, states)
                    )
                  )
      continue
    }
    made[`${key}Page`] = send
    const cursor = list.cursor
    made[key] =
      cursor === undefined
        ? (input: any = {}) =>
            Stream.flatMap(Stream.fromEffect(send(input)), (answer) => Stream.fromIterable(list.items(answer)))
        : (input: any = {}, options: ListOptions = {}) =>
            paginate(
              endpoint,
              options.pageSize,
              (limit, next, check) => client.execute(endpoint, { ...input, limit, cursor: next }, check),
              (answer) => ({ items: list.items(answer), cursor: cursor(answer), size: list.size?.(answer) })
            )
  }
  return made as Methods<T, W>
}
