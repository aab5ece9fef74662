/**
 * Operations: list a project's operations (one page, or all as a `Stream`), read one, and wait
 * for one or many to end, polling every 5 s by default (`docs/contract.md` §2.5, §2.6, §3.2,
 * §4, §6, §10.5).
 *
 * @since 0.1.0
 */
import * as Api from "@dbplatform/core/Api"
import {
  type BadRequest,
  Endpoint,
  type Forbidden,
  type InvalidRequest,
  isFailed,
  isSucceeded,
  isTerminal,
  type NotFound,
  type Operation,
  OperationFailed,
  type OperationId,
  type OperationsPage,
  OperationStillPending,
  type ProjectId,
  Timestamp
} from "@dbplatform/core"
import * as Arr from "effect/Array"
import * as Chunk from "effect/Chunk"
import * as Context from "effect/Context"
import * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as HashSet from "effect/HashSet"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as RateLimiter from "effect/RateLimiter"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { type CallError, DbPlatformClient } from "./DbPlatformClient.js"
import { excerpt } from "./internal/call.js"
import { paginate } from "./internal/pagination.js"
import * as Resource from "./Resource.js"
import { allTerminal, type Read, round, rounds, type Target } from "./internal/tracking.js"

/**
 * The largest `limit` of `GET /projects/{project_id}/operations`: 1000 (observed behaviour of
 * the deployed API, `docs/contract.md` §10.5; from core's `Api.operationsPageLimits`).
 *
 * @since 0.1.0
 */
export const maxPageSize = Api.operationsPageLimits.max

/**
 * The platform's advice for polling an operation: every 5 seconds (§6, §8).
 *
 * @since 0.1.0
 */
export const defaultPollSchedule: Schedule.Schedule<number> = Schedule.spaced("5 seconds")

/**
 * How long `await` and `awaitAll` wait by default: 10 minutes.
 *
 * @since 0.1.0
 */
export const defaultAwaitTimeout: Duration.Duration = Duration.minutes(10)

/**
 * What reading a project's operations can fail with: any call's errors, and `NotFound`
 * (unknown project or operation), `Forbidden` (the key may not see the project),
 * `BadRequest` (the server refused an id or cursor) or `InvalidRequest` (an id, `limit` or
 * cursor refused before sending: nothing is sent).
 *
 * @since 0.1.0
 */
export type ReadError = CallError | NotFound | Forbidden | BadRequest | InvalidRequest

/**
 * Options of `states` and `await`: when to read the operation again, and for how long.
 *
 * @since 0.1.0
 */
export interface PollOptions {
  /**
   * When to read the operation again after a read that found it not yet done; its input is the
   * operation just read. `Schedule.spaced("5 seconds")` by default.
   */
  readonly schedule?: Schedule.Schedule<unknown, Operation> | undefined
  /**
   * How long to keep reading, from the first read: no read starts after it. For `await`,
   * {@link defaultAwaitTimeout} (10 minutes) by default; for `states`, none.
   */
  readonly timeout?: Duration.DurationInput | undefined
}

/**
 * How to wait for many operations.
 *
 * @since 0.1.0
 */
export interface WaitOptions {
  /**
   * When to read the operations still pending again; its input is every operation's last
   * state. `Schedule.spaced("5 seconds")` by default.
   */
  readonly schedule?: Schedule.Schedule<unknown, ReadonlyArray<Operation>> | undefined
  /**
   * How long to keep reading, from the first read: no read starts after it. For `awaitAll`,
   * {@link defaultAwaitTimeout} (10 minutes) by default; for `watch`, none.
   */
  readonly timeout?: Duration.DurationInput | undefined
}

/**
 * An operation to wait for: its project and id. An `Operation` (e.g. from the `operations`
 * array a mutating request answers with) is one; its `created_at` lets reads be batched.
 *
 * @since 0.1.0
 */
export interface OperationRef {
  readonly project_id: ProjectId
  readonly id: OperationId
  readonly created_at?: Operation["created_at"] | undefined
}

/**
 * What `awaitAll` and `watch` wait for: operations (or their references), or an answer that
 * carries the operations its request started (`{ operations }`, or the `Option` of one that a
 * delete answers: `None` for a 204, nothing to wait for).
 *
 * @since 0.4.0
 * @category models
 */
export type Awaitable = Iterable<OperationRef> | Endpoint.CarriesOperations

/** The operations `awaitable` names. */
const targetsOf = (awaitable: Awaitable): Iterable<OperationRef> =>
  Option.isOption(awaitable) || "operations" in awaitable ? Endpoint.operationsOf(awaitable) : awaitable

/**
 * How a wait for many operations ended: each operation's last state, in the order given
 * (duplicates dropped), and the same states split by outcome.
 *
 * @since 0.1.0
 */
export interface AwaitAllResult {
  readonly operations: ReadonlyArray<Operation>
  /** Ended well: `finished` or `skipped`. */
  readonly succeeded: ReadonlyArray<Operation>
  /** Ended badly: `failed`, `error` or `cancelled`. */
  readonly failed: ReadonlyArray<Operation>
  /** Not ended when the timeout passed or the schedule ended (also an unknown status). */
  readonly pending: ReadonlyArray<Operation>
}

/**
 * The `Operations` service: a project's operations, all as a `Stream` (`list({ project_id },
 * { pageSize })`) or one page (`listPage({ project_id, limit?, cursor? })`), one by id
 * (`get({ project_id, operation_id })`, answering `{ operation }`), read until it ends (`states`,
 * `await`), and many waited for or watched together (`awaitAll`, `watch`) (§2.5, §3.2, §4, §6).
 * Every method fails with a {@link ReadError} (`NotFound` for an unknown project or operation;
 * `InvalidRequest` for a `limit` or `pageSize` out of 1..1000, a malformed id or a key the
 * endpoint does not take, nothing sent); `await` also with `OperationFailed` and
 * `OperationStillPending`. No method reports an operation it did not read: an answer about
 * another operation or project fails it with `MalformedResponse`.
 *
 * @since 0.1.0
 */
export interface Service extends Resource.Methods<typeof Api.Operations> {
  /**
   * The states of one operation (`{ project_id, operation_id }`, as `get` takes it) as it is
   * read: now, then again on `schedule`, every state read emitted; ends after the first
   * terminal one (finished, skipped, failed, error, cancelled), when the schedule ends, or at the
   * timeout. For progress displays that tick on every read.
   *
   * @since 0.3.0
   */
  readonly states: (
    input: Endpoint.Input<typeof Api.Operations.get>,
    options?: PollOptions
  ) => Stream.Stream<Operation, ReadError>
  /**
   * Polls one operation (`{ project_id, operation_id }`, as `get` takes it; every 5 s by
   * default) until it ends, and returns it when it ended well (`finished`, `skipped`). One that
   * ended badly (`failed`, `error`, `cancelled`) fails with `OperationFailed` carrying it: a
   * `failed` operation may carry `retry_at`, and still counts as ended. When the timeout (10
   * minutes by default) passes or the schedule ends first, fails with `OperationStillPending`
   * carrying the last state read.
   */
  readonly await: (
    input: Endpoint.Input<typeof Api.Operations.get>,
    options?: PollOptions
  ) => Effect.Effect<Operation, OperationFailed | OperationStillPending | ReadError>
  /**
   * Waits for every operation given (any answer that carries operations, as a mutation answered
   * it: `{ operations }`, the `Option` of a delete, `None` for a 204 with nothing to wait for; or
   * operations themselves), concurrently, and reports how each ended; never fails on an
   * operation's outcome, only when a read fails (a mutation's own `{ wait: true }` fails on an
   * outcome instead). Each round reads the operations still
   * pending: when a project has two or more with a known `created_at`, one walk of its list in
   * pages of 1000, from just above the newest to the page that reaches the oldest, answers for
   * them all: at most 1 + ⌈spread / 1000⌉ requests a round, spread being the number of the
   * project's operations from the newest pending one to the oldest. The others (no
   * `created_at` known yet, or not found on those pages) are read one by one. The waits of a
   * client (`awaitAll` and `watch`), however many at once, send together no more than 40
   * requests to a route in any second (the deployed API's burst limit, §10.2).
   * Rounds follow `schedule` (5 s by default) until all ended or the timeout (10 minutes by
   * default) passes.
   */
  readonly awaitAll: (operations: Awaitable, options?: WaitOptions) => Effect.Effect<AwaitAllResult, ReadError>
  /**
   * The operations' status changes, for progress displays: each operation's first state read,
   * then each state whose status differs from the one before. Reads are batched as in
   * `awaitAll`. Ends when all ended, when the schedule ends, or at the timeout (none by
   * default).
   */
  readonly watch: (operations: Awaitable, options?: WaitOptions) => Stream.Stream<Operation, ReadError>
}

/**
 * The tag of the {@link Service}; `yield* Operations.Operations` in a program, provided by
 * {@link layer} or `DbPlatform.layer`.
 *
 * @since 0.1.0
 * @category tags
 */
export class Operations extends Context.Tag("@dbplatform/client/Operations")<Operations, Service>() {}

/** Single reads of one round run at most this many at a time. */
const readConcurrency = 8

/**
 * The limit on each route the waits of a client read (`list`: the operations list, `get`: one
 * operation): a token bucket of 20 refilled at 20 a second, one per client and shared by all
 * its waits, so that no second holds more than 40 requests to a route, the burst the deployed
 * API allows per route (`docs/contract.md` §10.2).
 */
interface Limiters {
  readonly list: RateLimiter.RateLimiter
  readonly get: RateLimiter.RateLimiter
}

const burstLimiter = RateLimiter.make({ limit: 20, interval: "1 second", algorithm: "token-bucket" })

/**
 * What a page asked for with `cursor` (a `created_at`, §10.5) must not hold: an operation
 * created after the cursor. A cursor that is not a timestamp is not checked.
 */
const decodeCursor = Schema.decodeUnknownOption(Timestamp)

const olderThan = (cursor: string | undefined, page: OperationsPage): string | undefined => {
  // Read with core's `Timestamp`, not `Date.parse`, which takes `"2"` for a date in 2001.
  const decoded = cursor === undefined ? Option.none() : decodeCursor(cursor)
  if (Option.isNone(decoded)) return undefined
  const at = DateTime.toEpochMillis(decoded.value)
  // Times are read to the millisecond, and the server's to the microsecond: only an operation
  // of a later millisecond is surely not older.
  const newer = page.operations.find((operation) => DateTime.toEpochMillis(operation.created_at) > at)
  return newer === undefined
    ? undefined
    : `the page asked for operations before the cursor ${excerpt(cursor ?? "")} holds operation ${newer.id}, created at ${DateTime.formatIso(newer.created_at)}`
}

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context. The scope holds the rate
 * limiters its waits share (one per route read; see `awaitAll`): since 0.3.0 it needs a
 * `Scope`, which {@link layer} provides.
 *
 * @since 0.1.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient | Scope.Scope> = Effect.gen(function* () {
  const client = yield* DbPlatformClient
  const limiters: Limiters = { list: yield* burstLimiter, get: yield* burstLimiter }
  const methods = Resource.methods(client, Api.Operations)
  /** One page; what `check` finds (beyond what every answer is checked for) is a `MalformedResponse`. */
  const fetch = (
    projectId: ProjectId,
    limit: number,
    cursor: string | undefined,
    check: (page: OperationsPage) => string | undefined
  ) => client.execute(Api.Operations.list, { project_id: projectId, limit, cursor }, check)
  /** One operation; an answer about another operation or project is a `MalformedResponse`. */
  const get = (input: Endpoint.Input<typeof Api.Operations.get>) =>
    Effect.map(methods.get(input), ({ operation }) => operation)

  /**
   * The project's operations from `newest` to `oldest` (both included), newest first: pages of
   * 1000 from just above `newest` (a cursor is a `created_at`, §10.5), following the server's
   * cursors, to the page that reaches `oldest`. Each page waits for `limiter`. The walk stops
   * early, leaving the rest to single reads, once at most one of `wanted` is still to be found
   * (one certain read costs no more than a page that may not hold it), and when a page ends no
   * older (to the millisecond) than the one before: a server whose cursors step back by less
   * than its operations do cannot stretch a round. A page holding an operation created after
   * the cursor it was asked with is a `MalformedResponse`: a server that ignores the cursor
   * cannot keep the walk from reaching `oldest`.
   */
  const walk = (
    projectId: ProjectId,
    limiter: RateLimiter.RateLimiter,
    newest: DateTime.Utc,
    oldest: DateTime.Utc,
    wanted: HashSet.HashSet<OperationId>
  ): Stream.Stream<Operation, ReadError> =>
    paginate(
      Api.Operations.list,
      maxPageSize,
      (limit, cursor, check) =>
        limiter(fetch(projectId, limit, cursor, (page) => olderThan(cursor, page) ?? check(page))),
      (page: OperationsPage) => ({ items: page.operations, cursor: page.pagination?.cursor }),
      {
        cursor: DateTime.formatIso(DateTime.add(newest, { millis: 1 })),
        // The state: what the pages have not shown yet, and the last operation of the page before.
        stop: {
          initial: { unseen: wanted, end: undefined as Operation | undefined },
          step: ({ end: previousEnd, unseen }, page) => {
            const left = HashSet.difference(unseen, HashSet.fromIterable(page.items.map((operation) => operation.id)))
            const end = page.items.at(-1)
            return {
              state: { unseen: left, end },
              last:
                end === undefined ||
                DateTime.lessThanOrEqualTo(end.created_at, oldest) ||
                HashSet.size(left) <= 1 ||
                (previousEnd !== undefined && DateTime.greaterThanOrEqualTo(end.created_at, previousEnd.created_at))
            }
          }
        }
      }
    )

  /**
   * The states of one project's pending operations, for one round. With two or more of known
   * `created_at`, one {@link walk} from the newest to the oldest answers for them all: a round
   * costs at most 1 + ⌈spread / 1000⌉ requests (spread: the project's operations from the
   * newest pending one to the oldest). Any other (no `created_at` yet, or not on the pages) is
   * read on its own. Each request waits for its route's limiter.
   */
  const readProject = (projectId: ProjectId, targets: ReadonlyArray<Target>, limiters: Limiters) => {
    const wanted = new Set(targets.map((target) => target.id))
    const dated = targets.flatMap(({ created_at, id }) => (created_at === undefined ? [] : [{ created_at, id }]))
    const [first, ...others] = dated.map((target) => target.created_at)
    const listed =
      first === undefined || others.length === 0
        ? Effect.succeed(Chunk.empty<Operation>())
        : walk(
            projectId,
            limiters.list,
            others.reduce((newest, at) => DateTime.max(newest, at), first),
            others.reduce((oldest, at) => DateTime.min(oldest, at), first),
            HashSet.fromIterable(dated.map((target) => target.id))
          ).pipe(
            Stream.filter((operation) => wanted.has(operation.id)),
            Stream.runCollect
          )
    return Effect.flatMap(listed, (found) => {
      const byId = new Map(Chunk.toReadonlyArray(found).map((operation) => [operation.id, operation]))
      return Effect.forEach(
        targets,
        (target) => {
          const state = byId.get(target.id)
          return state === undefined
            ? limiters.get(get({ project_id: projectId, operation_id: target.id }))
            : Effect.succeed(state)
        },
        { concurrency: readConcurrency }
      )
    })
  }

  /**
   * The reader of pending operations of every wait of this client, per project as
   * {@link readProject} does; its requests keep under the deployed API's burst limit per route
   * (see {@link Limiters}), whatever the number of waits at once.
   */
  const read: Read<ReadError, never> = (pending) =>
    Effect.forEach(
      Object.values(Arr.groupBy(pending, (target) => target.project_id)),
      (targets) => readProject(targets[0].project_id, targets, limiters),
      { concurrency: readConcurrency }
    ).pipe(
      Effect.map((projects) => {
        const byId = new Map(projects.flat().map((state) => [state.id, state]))
        return pending.flatMap((target) => Option.toArray(Option.fromNullable(byId.get(target.id))))
      })
    )

  const states = (input: Endpoint.Input<typeof Api.Operations.get>, options: PollOptions = {}) =>
    Stream.unwrap(
      Effect.map(rounds(options.schedule ?? defaultPollSchedule, isTerminal, options.timeout), (schedule) =>
        Stream.repeatEffectWithSchedule(get(input), schedule)
      )
    )

  const watch = (operations: Awaitable, options: WaitOptions = {}) =>
    Stream.unwrap(
      Effect.zipWith(
        round(targetsOf(operations), read),
        rounds(options.schedule ?? defaultPollSchedule, allTerminal, options.timeout),
        Stream.repeatEffectWithSchedule
      )
    ).pipe(
      Stream.mapAccum(new Map<OperationId, Operation["status"]>(), (seen, states) => {
        const changed = states.filter((state) => seen.get(state.id) !== state.status)
        return [new Map(states.map((state) => [state.id, state.status])), changed]
      }),
      Stream.flattenIterables
    )

  return Operations.of({
    ...methods,
    states,
    await: (input, options = {}) =>
      rounds(options.schedule ?? defaultPollSchedule, isTerminal, options.timeout ?? defaultAwaitTimeout).pipe(
        Effect.flatMap((schedule) => Effect.repeat(get(input), schedule)),
        Effect.flatMap((operation) => {
          if (isSucceeded(operation)) return Effect.succeed(operation)
          return Effect.fail(
            isFailed(operation) ? new OperationFailed({ operation }) : new OperationStillPending({ operation })
          )
        })
      ),
    awaitAll: (operations, options = {}) =>
      Effect.zipWith(
        round(targetsOf(operations), read),
        rounds(options.schedule ?? defaultPollSchedule, allTerminal, options.timeout ?? defaultAwaitTimeout),
        (next, schedule) => Effect.repeat(next, schedule)
      ).pipe(
        Effect.flatten,
        Effect.map((states) => ({
          operations: states,
          succeeded: states.filter(isSucceeded),
          failed: states.filter(isFailed),
          pending: states.filter((state) => !isSucceeded(state) && !isFailed(state))
        }))
      ),
    watch
  })
})

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Operations, never, DbPlatformClient> = Layer.scoped(Operations, make)
