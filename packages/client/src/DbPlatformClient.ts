/**
 * The HTTP client every service of this package calls through: base URL, bearer token,
 * `Accept`, `User-Agent` and `X-Request-ID`; the mapping of each response to its value or typed
 * error; retries of what is safe to retry; a timeout per request and a deadline per call; an
 * optional client-side rate limit; and a span per call (`docs/contract.md` §4, §5, §7,
 * §10.1, §10.2).
 *
 * It depends on no runtime package: provide any `HttpClient` (`FetchHttpClient.layer`,
 * `NodeHttpClient.layer`, `BunHttpClient.layer`, or `@dbplatform/testing`'s in-memory one).
 * Interrupting a call aborts its request in flight.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpTraceContext from "@effect/platform/HttpTraceContext"
import {
  Endpoint,
  type HttpStatusError,
  type InvalidApiKey,
  type InvalidBaseUrl,
  type InvalidRequest,
  MalformedResponse,
  type NotFound,
  type RateLimited,
  type ServerError,
  type ServiceUnavailable,
  type TransportError,
  type Unauthorized,
  type UnexpectedStatus
} from "@dbplatform/core"
import * as Clock from "effect/Clock"
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FiberRef from "effect/FiberRef"
import { identity } from "effect/Function"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as RateLimiter from "effect/RateLimiter"
import * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import * as Schedule from "effect/Schedule"
import type * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import type * as Tracer from "effect/Tracer"
import type * as Types from "effect/Types"
import { checkApiKey, scrubber } from "./internal/apiKey.js"
import { checkBaseUrl } from "./internal/baseUrl.js"
import { narrow, toRequest, withoutOrganization } from "./internal/call.js"
import {
  deadlinePassed,
  decodeBody,
  type Received,
  receive,
  type Sent,
  statusError,
  timeoutError,
  transportError
} from "./internal/response.js"
import { type AttemptError, heldPastDeadline, policy, type Retry, type Rules, stopped } from "./internal/retry.js"
import { sender } from "./internal/send.js"
import * as Timer from "./internal/timer.js"
import { version } from "./internal/version.js"

export type {
  /**
   * What one attempt can fail with, and so the input of `retrySchedule`: an error status
   * (`HttpStatusError`), a success body that does not decode (`MalformedResponse`), or no
   * response (`TransportError`).
   *
   * @since 0.1.0
   */
  AttemptError
} from "./internal/retry.js"

/**
 * What any call can fail with once sent, whatever the endpoint: 401, 404 (`NotFound`: a wrong
 * base URL, a proxy or a route the server lacks answer it on any endpoint), 429, 5xx, another
 * status the endpoint does not answer with (`UnexpectedStatus`), a success body that does not
 * decode, or no response in time (`docs/design.md` §1.6). Each method adds the errors of its own
 * endpoint.
 *
 * @since 0.1.0
 */
export type CallError =
  | Unauthorized
  | NotFound
  | RateLimited
  | ServerError
  | ServiceUnavailable
  | UnexpectedStatus
  | MalformedResponse
  | TransportError

/**
 * The default retry policy: full-jitter exponential backoff, each wait drawn between 0 and
 * 500 ms × 2^n, capped at 10 s, at most 4 retries (5 attempts). Only errors that are safe to
 * retry are sent again (docs/contract.md §10.2): 423, 429 and 503 for any method,
 * other 5xx and no response for GET only. A `Retry-After` raises the wait to what it asks.
 *
 * @since 0.1.0
 */
export const defaultRetrySchedule: Schedule.Schedule<unknown, AttemptError> = Schedule.exponential("500 millis").pipe(
  Schedule.either(Schedule.spaced("10 seconds")),
  Schedule.jitteredWith({ min: 0, max: 1 }),
  Schedule.intersect(Schedule.recurs(4))
)

/**
 * Defaults of {@link Options}: a request gets 30 s to answer, a call (all its attempts and
 * the waits between them) 30 s too, so a server that accepts a request and never answers fails
 * the call with a `TransportError` after 30 s, not sent again; a `Retry-After` of more than 60 s
 * is not waited for (nor one that would pass the deadline), and a response body is read up to
 * 16 MiB (a page of 1000 operations is about 0.5 MB).
 *
 * @since 0.1.0
 */
export const defaults = {
  requestTimeout: Duration.seconds(30),
  deadline: Duration.seconds(30),
  maxRetryAfter: Duration.seconds(60),
  maxResponseBytes: 16 * 1024 * 1024
} as const

/**
 * Settings of the client.
 *
 * @since 0.1.0
 */
export interface Options {
  /**
   * The API's base URL, including the version segment, e.g. `https://host/api/v2` (§9).
   * Request paths are appended to it. An absolute `http:` or `https:` URL with no user name,
   * password, query or fragment: any other fails the Layer with `InvalidBaseUrl`.
   */
  readonly baseUrl: string
  /**
   * The account's API key, sent as `Authorization: Bearer` (§5). Visible ASCII only: a key
   * with a space, a line feed, a NUL or any other character a header cannot carry fails the
   * Layer with `InvalidApiKey` (whose message never holds the key). Never logged; removed from
   * any text the client copies from a server or the transport into an error.
   */
  readonly apiKey: Redacted.Redacted<string>
  /**
   * When to send a failed attempt again; its input is the attempt's error. It decides the wait;
   * only an error safe to retry is then sent again, and never after the call's `deadline`.
   * {@link defaultRetrySchedule} by default; `Schedule.stop` turns retries off.
   */
  readonly retrySchedule?: Schedule.Schedule<unknown, AttemptError> | undefined
  /**
   * How long one request may take, from sending it to the last byte of its response's body; 30
   * s by default. Then it is aborted (`TransportError`): its abort signal is aborted, which
   * every `@effect/platform` client honours; an `HttpClient` that ignores its signal (a
   * hand-written test double, say) is not stopped, and neither is its call's `deadline`.
   * Decoding the body is not counted: a body that arrived is never reported as no response.
   * Timed on the `Clock` the client was built with (its Layer's), as its rate limiter is.
   */
  readonly requestTimeout?: Duration.DurationInput | undefined
  /**
   * The largest response body read, in bytes; 16 MiB by default. A larger success body (by its
   * `Content-Length`, or once that many bytes arrived) stops being read and fails the call with
   * `MalformedResponse`, not retried. Error bodies are read up to 64 KiB; past that the status
   * alone decides the error.
   */
  readonly maxResponseBytes?: number | undefined
  /**
   * How long a call may take in all, retries, their waits and the rate limiter's included; 30 s
   * by default, as the request timeout: a server that never answers fails the call after 30 s,
   * its request not sent again (raise the deadline to retry after a timeout, or to wait for a
   * `Retry-After` of more than about half a minute). No request is sent with less than 100 ms
   * of it left: a retry that would start later is not made, and the call fails with the last
   * error (a first request held by the rate limiter that long fails with a `TransportError`
   * saying it was not sent).
   */
  readonly deadline?: Duration.DurationInput | undefined
  /**
   * The longest `Retry-After` the client waits for; 60 s by default. A longer one fails the call
   * at once with the 423/429/503 error, its message saying when the server asked to come back.
   */
  readonly maxRetryAfter?: Duration.DurationInput | undefined
  /**
   * A client-side rate limit: at most `limit` requests (retries included) in each
   * `interval`-long window (Effect's `RateLimiter`, fixed window), e.g.
   * `{ limit: 10, interval: "1 second" }` to stay under the limits the deployed API publishes
   * (bursts of 40 a second per route, about 700 a minute per account; observed behaviour,
   * `docs/contract.md` §10.2: the contract sets none). Off by default. A request waits for its turn before its
   * timeout starts.
   */
  readonly rateLimit?: { readonly limit: number; readonly interval: Duration.DurationInput } | undefined
  /**
   * Wraps the configured `HttpClient`, e.g. to add headers, a proxy or `HttpClient.followRedirects`;
   * the request timeout applies to every request it makes.
   */
  readonly transformClient?: ((client: HttpClient.HttpClient) => HttpClient.HttpClient) | undefined
  /**
   * The organization calls act for when they name none (`docs/contract.md` §20, §21): sent as
   * the `org_id` query parameter of every endpoint whose query takes one (`GET /projects`,
   * `GET /regions`, the consumption history...) when the call's input has no `org_id`; a call that
   * gives its own sends its own. An organization in a path (`/organizations/{org_id}/...`) or a
   * body is always the call's. None by default: the platform then answers for the key's account,
   * and refuses an organization account's personal key where it needs one (a 400).
   */
  readonly orgId?: string | undefined
}

/**
 * What a call to `E` can fail with: any call's errors ({@link CallError}), the error statuses
 * `E` declares, and `InvalidRequest` for input its schemas refuse (a key no part of `E` has
 * included: nothing is sent).
 *
 * @since 0.2.0
 */
export type ExecuteError<E extends Endpoint.Endpoint> =
  | CallError
  | Extract<HttpStatusError, { readonly _tag: Endpoint.Errors<E> }>
  | InvalidRequest

/**
 * The input of a call to `E` through the client: core's `Endpoint.Input<E>` (path parameters,
 * query and body fields by their wire names), its query's `org_id` optional where the query takes
 * one, since the client's `orgId` fills it in when the call names none (`Options.orgId`). Where
 * the platform requires it (the consumption history), a call that names none on a client that has
 * none fails with `InvalidRequest` saying so, and nothing is sent.
 *
 * @since 0.5.0
 */
export type Input<E extends Endpoint.Endpoint> =
  E extends Endpoint.Endpoint<any, any, infer Q, any, any, any, any>
    ? "org_id" extends keyof Q
      ? Types.Simplify<Omit<Endpoint.Input<E>, "org_id"> & { readonly org_id?: Q["org_id"] | undefined }>
      : Endpoint.Input<E>
    : never

/**
 * The service. `execute` sends a request to one of core's endpoints (`Api.Operations.list`,
 * ...): `input` ({@link Input}: one object, path parameters, query and body fields by their wire
 * names, `org_id` filled in from `orgId`) is
 * encoded with the endpoint's schemas (refused input, or a key the endpoint has no field for,
 * fails with `InvalidRequest`, and nothing is sent), and a 2xx answer decoded with its answer
 * schema (a 204 or an empty body as `undefined`, `docs/contract.md` §11.4). An answer that
 * decoded but cannot be right fails with `MalformedResponse`: what `Endpoint.problem` finds (an
 * answer about another id than the input's, a page longer than its `limit`), then what `check`
 * adds. Another status fails with its typed error
 * ({@link ExecuteError}) (`docs/design.md` §1).
 *
 * @since 0.1.0
 */
export interface Service {
  readonly execute: <const E extends Endpoint.Endpoint>(
    endpoint: E,
    input: Input<E>,
    check?: (answer: Endpoint.Success<E>) => string | undefined
  ) => Effect.Effect<Endpoint.Success<E>, ExecuteError<E>>
}

/**
 * The tag of the client {@link Service}, which every service of this package calls
 * through.
 *
 * @since 0.1.0
 * @category tags
 */
export class DbPlatformClient extends Context.Tag("@dbplatform/client/DbPlatformClient")<DbPlatformClient, Service>() {}

/**
 * The `User-Agent` the client sends: the SDK's name and version.
 *
 * @since 0.1.0
 */
export const userAgent = `dbplatform-effect/${version} (@dbplatform/client)`

/**
 * Where the `X-Request-ID` of each call comes from: `next` gives a new one per call (its retries
 * send the same). A UUID v4 from `crypto.randomUUID()` unless another is provided, e.g. in a test:
 * `Effect.provideService(DbPlatformClient.RequestIds, { next: Effect.succeed("req-1") })` (`docs/contract.md` §10.1).
 *
 * @since 0.3.0
 * @category tags
 */
export class RequestIds extends Context.Reference<RequestIds>()("@dbplatform/client/RequestIds", {
  defaultValue: (): { readonly next: Effect.Effect<string> } => ({
    next: Effect.sync(() => globalThis.crypto.randomUUID())
  })
}) {}

/** A request is sent only with at least this much of the call's deadline left. */
const minimumRequestTime = Duration.millis(100)

/** One call: what it sends, the limits its retries keep to, and how its answer is read. */
interface Call<A> {
  readonly name: string
  readonly request: HttpClientRequest.HttpClientRequest
  readonly sent: Sent
  readonly rules: Rules
  readonly schema: Schema.Schema<A, any>
  /** What the success answer's body is: JSON, or raw bytes (`Endpoint.Media`). */
  readonly media: Endpoint.Media
  readonly check: (answer: A) => string | undefined
  /** The call's span: what it did is set on it as it happens. */
  readonly span: Tracer.Span
}

/** An answer every call takes. */
const anyAnswer = (): undefined => undefined

/**
 * Builds the service over the `HttpClient` in context. The scope holds the fiber that times
 * requests out, and the rate limiter when one is configured. Fails with `InvalidApiKey` when the key cannot be sent in a header, and
 * with `InvalidBaseUrl` when the base URL is not one to send requests to (see `Options.baseUrl`).
 *
 * Each call is one span, kind `client`, named after its endpoint (e.g. `Operations.list`), with
 * `http.request.method`, `url.template` (the route template), `dbplatform.request_id`,
 * `http.request.resend_count` (0 unless retried) and how the call ended: the last response's
 * `http.response.status_code`, or `error.type` (`TransportError`, `InvalidRequest`) when there
 * was none. The
 * platform's own per-request `http.client` span is turned off: it would show each request twice,
 * and its exit keeps the request with its `Authorization` header. The call's span is
 * propagated instead (`traceparent`, `b3`), unless `HttpClient.withTracerPropagation` turned
 * propagation off.
 *
 * @since 0.1.0
 */
export const make = (
  options: Options
): Effect.Effect<Service, InvalidApiKey | InvalidBaseUrl, HttpClient.HttpClient | Scope.Scope> =>
  Effect.gen(function* () {
    yield* checkApiKey(options.apiKey)
    const baseUrl = yield* checkBaseUrl(options.baseUrl)
    const scrub = scrubber(options.apiKey)
    const maxResponseBytes = options.maxResponseBytes ?? defaults.maxResponseBytes
    const retrySchedule = options.retrySchedule ?? defaultRetrySchedule
    const requestTimeout = Duration.decode(options.requestTimeout ?? defaults.requestTimeout)
    const deadline = Duration.decode(options.deadline ?? defaults.deadline)
    const maxRetryAfter = Duration.decode(options.maxRetryAfter ?? defaults.maxRetryAfter)
    const orgId = options.orgId
    const limiter =
      options.rateLimit === undefined
        ? undefined
        : yield* RateLimiter.make({
            limit: options.rateLimit.limit,
            interval: options.rateLimit.interval,
            algorithm: "fixed-window"
          })
    /**
     * Waits for the rate limiter's permit, at most until `minimumRequestTime` before the
     * deadline: whether a request may still be sent.
     */
    const admitted = (rules: Rules): Effect.Effect<boolean> =>
      limiter === undefined
        ? Effect.succeed(true)
        : Effect.flatMap(Clock.currentTimeMillis, (now) =>
            limiter(Effect.void).pipe(
              Effect.timeoutOption(
                Duration.millis(Math.max(0, rules.deadlineAt - now - Duration.toMillis(minimumRequestTime)))
              ),
              Effect.map(Option.isSome)
            )
          )
    const send = sender(
      yield* HttpClient.HttpClient,
      (client) =>
        client.pipe(
          options.transformClient ?? identity,
          HttpClient.withTracerDisabledWhen(() => true)
        ),
      yield* Timer.make
    )
    /** The headers of every request; `authorization` is redacted wherever the platform shows headers. */
    const headers = {
      authorization: `Bearer ${Redacted.value(options.apiKey)}`,
      accept: "application/json",
      "user-agent": userAgent
    }
    /** The headers of a request whose answer is raw bytes (`Endpoint.Media`): it accepts those. */
    const bytesHeaders = { ...headers, accept: "application/octet-stream" }

    /** Whether a request may start at `now` (epoch ms): with at least `minimumRequestTime` of the deadline left. */
    const inTime = (rules: Rules, now: number) => rules.deadlineAt - now >= Duration.toMillis(minimumRequestTime)

    /**
     * Sends `call` at `now`, `retry` the decision that sent it again (none for the first): its
     * response read within the request timeout (cut to the deadline), and a 2xx answer decoded
     * and checked. The timeout covers the response and its body; decoding comes after it.
     */
    const exchange = <A>(call: Call<A>, retry: Retry | undefined, now: number): Effect.Effect<A, AttemptError> => {
      const timeout = Duration.min(requestTimeout, Duration.millis(call.rules.deadlineAt - now))
      const answer = send({
        request: call.request,
        read: receive(call.sent, scrub, maxResponseBytes, call.media),
        // An error body over its cap is left unread: the request is then aborted.
        ended: (received) => received.body !== undefined,
        onError: transportError(call.sent, scrub),
        timeout,
        onTimeout: () => timeoutError(call.sent, timeout)
      }).pipe(Effect.flatMap((received) => answerOf(call, received)))
      if (retry === undefined) return answer
      call.span.attribute("http.request.resend_count", retry.attempts)
      return Effect.zipRight(
        Effect.logDebug(`retrying ${call.name} after ${Duration.format(retry.delay)}`).pipe(
          Effect.annotateLogs({
            status: "status" in retry.error ? retry.error.status : "no response",
            delayMillis: Duration.toMillis(retry.delay),
            attempt: retry.attempts,
            requestId: call.sent.requestId
          })
        ),
        answer
      )
    }

    /** A 2xx response's answer, decoded and checked; another status's typed error. */
    const answerOf = <A>(call: Call<A>, received: Received): Effect.Effect<A, AttemptError> => {
      const { status } = received.response
      if (status < 200 || status >= 300) return Effect.fail(statusError(call.sent, received, scrub, baseUrl))
      return Effect.flatMap(decodeBody(call.sent, received, call.schema), (answer) => {
        const problem = call.check(answer)
        if (problem !== undefined) {
          return Effect.fail(new MalformedResponse({ ...call.sent, status, description: problem }))
        }
        call.span.attribute("http.response.status_code", status)
        return Effect.succeed(answer)
      })
    }

    /**
     * An attempt of `call` (see {@link exchange}) once the rate limiter let it go, if it did so
     * in time: `None` when it was not sent (its turn, or its retry's wait, would leave less than
     * `minimumRequestTime` of the deadline).
     */
    const attempt = <A>(call: Call<A>, retry: Retry | undefined): Effect.Effect<Option.Option<A>, AttemptError> =>
      Effect.flatMap(admitted(call.rules), (sendable) =>
        sendable
          ? Effect.flatMap(Clock.currentTimeMillis, (now) =>
              inTime(call.rules, now) ? Effect.asSome(exchange(call, retry, now)) : Effect.succeedNone
            )
          : Effect.succeedNone
      )

    /**
     * The first attempt of `call`, the call started at `now`: without a rate limiter it is sent
     * at once. One not sent fails with a `TransportError` saying so.
     */
    const first = <A>(call: Call<A>, now: number): Effect.Effect<A, AttemptError> =>
      limiter === undefined && inTime(call.rules, now)
        ? exchange(call, undefined, now)
        : Effect.flatMap(
            attempt(call, undefined),
            Option.match({ onNone: () => Effect.fail(deadlinePassed(call.sent)), onSome: Effect.succeed })
          )

    /**
     * The attempts after the first one failed with `error`, as the retry policy decides
     * (`Effect.retryOrElse` with {@link policy}): entered only once an attempt failed. The policy's
     * first decision is on `error` itself: the first run of the retried effect fails with it and
     * sends nothing; each later run is the attempt the decision before it sent again, which it
     * reads from `resent` (set by the schedule as it decides). A retry not sent in time (held by
     * the rate limiter) ends the call with the error before it.
     */
    const retried = <A>(call: Call<A>, error: AttemptError): Effect.Effect<A, AttemptError> =>
      Effect.flatMap(Ref.make(Option.none<Retry>()), (resent) =>
        Effect.flatMap(
          Ref.get(resent),
          Option.match({
            onNone: () => Effect.fail(error),
            onSome: (retry): Effect.Effect<Either.Either<A, Retry>, AttemptError> =>
              Effect.map(
                attempt(call, retry),
                Either.fromOption(() => retry)
              )
          })
        ).pipe(
          Effect.retryOrElse(
            policy(retrySchedule, call.rules).pipe(
              Schedule.tapOutput((decision) =>
                decision._tag === "Retry" ? Ref.set(resent, Option.some(decision)) : Effect.void
              )
            ),
            (last, decision) => Effect.fail(stopped(last, decision))
          ),
          Effect.flatMap(
            Either.match({
              onLeft: (held) => Effect.fail(heldPastDeadline(held, call.rules)),
              onRight: Effect.succeed
            })
          )
        )
      )

    /**
     * What a call reads as it starts: its request id, the time (epoch ms) and whether to
     * propagate its span. One step after another (`Effect.zip` would cost more than the reads).
     */
    const start = Effect.flatMap(RequestIds, ({ next }) =>
      Effect.flatMap(next, (requestId) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.map(FiberRef.get(HttpClient.currentTracerPropagation), (propagate) => ({ requestId, now, propagate }))
        )
      )
    )

    const execute = <const E extends Endpoint.Endpoint>(
      endpoint: E,
      given: Input<E>,
      extra: (answer: Endpoint.Success<E>) => string | undefined = anyAnswer
    ): Effect.Effect<Endpoint.Success<E>, ExecuteError<E>> => {
      // The client's organization, where the endpoint's query takes one and the call names none.
      // Without one, a required `org_id` is refused by the schema (`withoutOrganization` says why).
      const input = (
        orgId !== undefined &&
        endpoint.parts.get("org_id") === "query" &&
        (given as { readonly org_id?: unknown }).org_id === undefined
          ? { ...given, org_id: orgId }
          : given
      ) as Endpoint.Input<E>
      // What the table says the answer must be about, then what the caller adds.
      const check = (answer: Endpoint.Success<E>) => Endpoint.problem(endpoint, input, answer) ?? extra(answer)
      return Effect.useSpan(
        endpoint.name,
        {
          kind: "client",
          // A stack trace per call costs more than the rest of the span; the name says which call.
          captureStackTrace: false,
          attributes: {
            "http.request.method": endpoint.method,
            "url.template": endpoint.route,
            "http.request.resend_count": 0
          }
        },
        (span) =>
          Effect.flatMap(
            start,
            ({ now, propagate, requestId }): Effect.Effect<Endpoint.Success<E>, ExecuteError<E>> => {
              span.attribute("dbplatform.request_id", requestId)
              const unsent = toRequest(endpoint, input, baseUrl, {
                ...(endpoint.media === "bytes" ? bytesHeaders : headers),
                "x-request-id": requestId,
                ...(propagate ? HttpTraceContext.toHeaders(span) : {})
              })
              if (Either.isLeft(unsent)) {
                span.attribute("error.type", unsent.left._tag)
                const refused = orgId === undefined ? withoutOrganization(endpoint, input, unsent.left) : unsent.left
                return Effect.fail(narrow<ExecuteError<E>>(endpoint, refused))
              }
              const sent: Sent = {
                method: endpoint.method,
                route: endpoint.route,
                path: unsent.right.path,
                requestId
              }
              const call: Call<Endpoint.Success<E>> = {
                name: endpoint.name,
                request: unsent.right.request,
                sent,
                rules: {
                  method: endpoint.method,
                  deadlineAt: now + Duration.toMillis(deadline),
                  deadline,
                  maxRetryAfter,
                  minimumRequestTime
                },
                schema: endpoint.success,
                media: endpoint.media,
                check,
                span
              }
              // One handler on the way out of a call that succeeds at once: the retries and what
              // a failed call shows are entered only on failure.
              return first(call, now).pipe(
                Effect.catchAll((error) =>
                  Effect.catchAll(retried(call, error), (last) => {
                    const error = narrow<ExecuteError<E>>(endpoint, last)
                    // The span shows how the call ended: the last status, or why there was none.
                    if ("status" in error) span.attribute("http.response.status_code", error.status)
                    else span.attribute("error.type", (error as ExecuteError<Endpoint.Endpoint>)._tag)
                    return Effect.fail(error)
                  })
                ),
                Effect.withParentSpan(span)
              )
            }
          )
      )
    }

    return DbPlatformClient.of({ execute })
  })

/**
 * The client from explicit settings.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: Options
): Layer.Layer<DbPlatformClient, InvalidApiKey | InvalidBaseUrl, HttpClient.HttpClient> =>
  Layer.scoped(DbPlatformClient, make(options))

/**
 * Where {@link layerConfig} reads its settings (each defaults to the environment variable
 * named), and the other settings of {@link Options}.
 *
 * @since 0.1.0
 */
export interface ConfigOptions extends Omit<Options, "baseUrl" | "apiKey" | "orgId"> {
  /** `DBPLATFORM_BASE_URL` by default; must be a URL. */
  readonly baseUrl?: Config.Config<string> | undefined
  /** `DBPLATFORM_API_KEY` by default, read as `Redacted`. */
  readonly apiKey?: Config.Config<Redacted.Redacted<string>> | undefined
  /** `DBPLATFORM_ORG_ID` by default, optional: the organization calls act for when they name none ({@link Options.orgId}). */
  readonly orgId?: Config.Config<Option.Option<string>> | undefined
}

/**
 * The client from configuration: `DBPLATFORM_BASE_URL` (a URL), `DBPLATFORM_API_KEY`
 * (read as `Redacted`) and, optional, `DBPLATFORM_ORG_ID` (the organization calls act for when they
 * name none) unless other `Config`s are given. Fails with a `ConfigError` when one
 * is missing, with `InvalidApiKey` when the key cannot be sent in a header, and with
 * `InvalidBaseUrl` when the base URL holds a user name, password, query or fragment.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  config: ConfigOptions = {}
): Layer.Layer<DbPlatformClient, ConfigError.ConfigError | InvalidApiKey | InvalidBaseUrl, HttpClient.HttpClient> =>
  Layer.scoped(
    DbPlatformClient,
    Effect.gen(function* () {
      const baseUrl = yield* config.baseUrl ?? Config.map(Config.url("DBPLATFORM_BASE_URL"), String)
      const apiKey = yield* config.apiKey ?? Config.redacted("DBPLATFORM_API_KEY")
      const orgId = yield* config.orgId ?? Config.option(Config.string("DBPLATFORM_ORG_ID"))
      return yield* make({ ...config, baseUrl, apiKey, orgId: Option.getOrUndefined(orgId) })
    })
  )
