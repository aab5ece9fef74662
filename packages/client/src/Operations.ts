/**
 * Operations: list a project's operations (one page, or all as a `Stream`), read one, and
 * wait for one to end (`control-api-v2.md` §2.5, §2.6, §3.2, §4, §6; wire-facts "Operations").
 *
 * @since 0.1.0
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import {
  type InvalidRequest,
  isTerminal,
  type Operation,
  OperationEnvelope,
  type OperationId,
  OperationsPage,
  OperationStillPending,
  type ProjectId
} from "@dbplatform/core"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import { type CallError, DbPlatformClient } from "./DbPlatformClient.js"
import { checkLimit, PageSize } from "./internal/input.js"
import { paginate } from "./internal/pagination.js"

/**
 * The largest `limit` of `GET /projects/{project_id}/operations` (wire-facts).
 *
 * @since 0.1.0
 */
export const maxPageSize = 1000

/**
 * The platform's advice for polling an operation: every 5 seconds (§6, §8).
 *
 * @since 0.1.0
 */
export const defaultPollSchedule: Schedule.Schedule<number> = Schedule.spaced("5 seconds")

/**
 * Options of `page`: one page of `GET /projects/{project_id}/operations` (§2.6, §4).
 *
 * @since 0.1.0
 */
export interface PageOptions {
  /** Operations per page, 1 to 1000. Without it the server answers with all of them at once. */
  readonly limit?: number | undefined
  /** The `pagination.cursor` of the previous page, sent URL-encoded. */
  readonly cursor?: string | undefined
}

/**
 * Options of `list`: the stream of all of a project's operations.
 *
 * @since 0.1.0
 */
export interface ListOptions {
  /** Operations fetched per request, 1 to 1000; 100 by default. */
  readonly pageSize?: number | undefined
}

/**
 * Options of `poll` and `await`: when to read the operation again.
 *
 * @since 0.1.0
 */
export interface PollOptions {
  /**
   * When to read the operation again after each read that found it not yet done. Its input
   * is the operation just read. `Schedule.spaced("5 seconds")` by default; bound it (e.g.
   * `Schedule.upTo("10 minutes")`) to give up.
   */
  readonly schedule?: Schedule.Schedule<unknown, Operation> | undefined
}

/**
 * The `Operations` service: a project's operations, one page or all as a `Stream`, one by id,
 * polled until it ends (§2.5, §3.2, §4, §6). `page` and `list` fail with `InvalidRequest` for a
 * `limit` or `pageSize` out of 1..1000 and with a `CallError`; `get` and `poll` with a `CallError`
 * (`NotFound` for an unknown id); `await` also with `OperationStillPending` when its schedule ends
 * first.
 *
 * @since 0.1.0
 */
export interface Service {
  /**
   * `GET /projects/{project_id}/operations`: one page, newest first. A `limit` out of
   * 1..1000 fails with `InvalidRequest`.
   */
  readonly page: (
    projectId: ProjectId,
    options?: PageOptions
  ) => Effect.Effect<OperationsPage, InvalidRequest | CallError>
  /**
   * Every operation of the project, newest first, following the cursor and fetching the
   * next page only when the consumer pulls (one page in memory). The walk ends on a short
   * or empty page. A `pageSize` out of 1..1000 fails with `InvalidRequest`.
   */
  readonly list: (projectId: ProjectId, options?: ListOptions) => Stream.Stream<Operation, InvalidRequest | CallError>
  /** `GET /projects/{project_id}/operations/{operation_id}`. An unknown id fails with `NotFound`. */
  readonly get: (projectId: ProjectId, operationId: OperationId) => Effect.Effect<Operation, CallError>
  /**
   * Reads the operation now, then again on `schedule`, emitting every state read, and ends
   * after the first terminal one (finished, skipped, failed, error, cancelled) or when the
   * schedule ends. For progress displays.
   */
  readonly poll: (
    projectId: ProjectId,
    operationId: OperationId,
    options?: PollOptions
  ) => Stream.Stream<Operation, CallError>
  /**
   * Polls until the operation is in a terminal status and returns it, whether it succeeded
   * (`isSucceeded`) or not (`isFailed`: a `failed` operation may carry `retry_at` and is still
   * returned). If the schedule ends first, fails with `OperationStillPending` carrying the
   * last state read.
   */
  readonly await: (
    projectId: ProjectId,
    operationId: OperationId,
    options?: PollOptions
  ) => Effect.Effect<Operation, OperationStillPending | CallError>
}

/**
 * The tag of the {@link Service}; `yield* Operations.Operations` in a program, provided by
 * {@link layer} or `DbPlatform.layer`.
 *
 * @since 0.1.0
 * @category tags
 */
export class Operations extends Context.Tag("@dbplatform/client/Operations")<Operations, Service>() {}

const Limit = PageSize(maxPageSize)

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.1.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.gen(function* () {
  const client = yield* DbPlatformClient
  const path = (projectId: ProjectId) => `/projects/${encodeURIComponent(projectId)}/operations`
  const fetch = (projectId: ProjectId, options: PageOptions) =>
    client.execute(
      HttpClientRequest.get(path(projectId)).pipe(
        HttpClientRequest.setUrlParams({
          ...(options.limit !== undefined ? { limit: String(options.limit) } : {}),
          ...(options.cursor !== undefined ? { cursor: options.cursor } : {})
        })
      ),
      OperationsPage
    )
  const get = (projectId: ProjectId, operationId: OperationId) =>
    client
      .execute(HttpClientRequest.get(`${path(projectId)}/${encodeURIComponent(operationId)}`), OperationEnvelope)
      .pipe(Effect.map((envelope) => envelope.operation))
  const poll = (projectId: ProjectId, operationId: OperationId, options: PollOptions = {}) =>
    Stream.repeatEffectWithSchedule(get(projectId, operationId), options.schedule ?? defaultPollSchedule).pipe(
      Stream.takeUntil(isTerminal)
    )
  return Operations.of({
    page: (projectId, options = {}) =>
      checkLimit(Limit, options.limit).pipe(Effect.zipRight(fetch(projectId, options))),
    list: (projectId, options = {}) =>
      paginate(Limit, options.pageSize, (limit, cursor) =>
        fetch(projectId, { limit, cursor }).pipe(
          Effect.map((page) => ({ items: page.operations, cursor: page.pagination?.cursor }))
        )
      ),
    get,
    poll,
    await: (projectId, operationId, options) =>
      poll(projectId, operationId, options).pipe(
        Stream.runLast,
        Effect.flatMap((last) =>
          Option.isSome(last) && isTerminal(last.value)
            ? Effect.succeed(last.value)
            : Effect.fail(new OperationStillPending({ operation: Option.getOrThrow(last) }))
        )
      )
  })
})

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Operations, never, DbPlatformClient> = Layer.effect(Operations, make)
