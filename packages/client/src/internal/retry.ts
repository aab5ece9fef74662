import {
  fromResponse,
  type HttpStatusError,
  type MalformedResponse,
  type RetryStop,
  retryAfterDelay,
  TransportError
} from "@dbplatform/core"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"

/** What one attempt can fail with once sent. */
export type AttemptError = HttpStatusError | MalformedResponse | TransportError

/** GET, HEAD and OPTIONS: sending them twice does nothing twice (`docs/contract.md` §10.2). */
const idempotent: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"])

/**
 * The transport's error codes that no retry can heal: `ENOTFOUND`, the base URL's host name does
 * not resolve (a typo, a host that does not exist). `EAI_AGAIN` (the resolver did not answer in
 * time) is a temporary failure, and is retried as any other no-response.
 */
const permanent: ReadonlySet<string> = new Set(["ENOTFOUND"])

/** The links of a transport error's `cause` chain read, at most this many (it is at most 5 deep). */
const maxCauseDepth = 5

/** Whether `cause`, or one of its causes, carries an error code in {@link permanent}. */
const isPermanent = (cause: unknown, depth = 0): boolean =>
  depth < maxCauseDepth &&
  typeof cause === "object" &&
  cause !== null &&
  (("code" in cause && typeof cause.code === "string" && permanent.has(cause.code)) ||
    ("cause" in cause && isPermanent(cause.cause, depth + 1)))

/**
 * Whether a failed attempt may be sent again (`docs/contract.md` §10.2): 423, 429 and 503 said
 * the request was not carried out, so any method; another 5xx or no response leaves it
 * unknown, so only an idempotent method, and never a host name that does not resolve
 * (`ENOTFOUND` anywhere in the transport's error chain: nothing was sent, and sending again
 * would meet the same answer).
 */
export const isRetryable = (method: string, error: AttemptError): boolean => {
  switch (error._tag) {
    case "Locked":
    case "RateLimited":
    case "ServiceUnavailable":
      return true
    case "ServerError":
      return idempotent.has(method)
    case "TransportError":
      return idempotent.has(method) && !isPermanent(error.cause)
    default:
      return false
  }
}

/** The wait a failed attempt's `Retry-After` header asks for, if it has a readable one. */
const askedDelay = (error: AttemptError, now: number): Option.Option<Duration.Duration> =>
  "retryAfter" in error ? retryAfterDelay(error.retryAfter, now) : Option.none()

/** The limits a call's retries keep to. */
export interface Rules {
  readonly method: string
  /** When the call's deadline passes (epoch ms), and how long it is. */
  readonly deadlineAt: number
  readonly deadline: Duration.Duration
  /** The longest `Retry-After` waited for. */
  readonly maxRetryAfter: Duration.Duration
  /** No request is sent with less than this much of the deadline left. */
  readonly minimumRequestTime: Duration.Duration
}

/**
 * What to do after a failed attempt: send it again after `delay`, or stop, with why (`stop`
 * `undefined`: the error was not safe to retry).
 */
export type Decision =
  | {
      readonly _tag: "Retry"
      readonly delay: Duration.Duration
      readonly attempts: number
      /** The error of the attempt to send again. */
      readonly error: AttemptError
    }
  | { readonly _tag: "Stop"; readonly stop: RetryStop | undefined }

/**
 * The decision after attempt number `attempts` failed with `error` at `now`, when the retry
 * schedule asks to wait `scheduled`: not safe to retry stops at once; a `Retry-After` raises the
 * wait (rounded to the ms), and one longer than `maxRetryAfter` stops; a wait that would leave
 * less than `minimumRequestTime` of the deadline stops. Pure.
 */
export const decide = (
  rules: Rules,
  error: AttemptError,
  attempts: number,
  scheduled: Duration.Duration,
  now: number
): Decision => {
  if (!isRetryable(rules.method, error)) return { _tag: "Stop", stop: undefined }
  const asked = askedDelay(error, now)
  if (Option.isSome(asked) && Duration.greaterThan(asked.value, rules.maxRetryAfter)) {
    return {
      _tag: "Stop",
      stop: {
        _tag: "RetryAfterTooLong",
        attempts,
        askedMillis: Duration.toMillis(asked.value),
        maxMillis: Duration.toMillis(rules.maxRetryAfter)
      }
    }
  }
  const delay = Duration.millis(
    Math.round(Duration.toMillis(Option.match(asked, { onNone: () => scheduled, onSome: Duration.max(scheduled) })))
  )
  if (now + Duration.toMillis(delay) + Duration.toMillis(rules.minimumRequestTime) > rules.deadlineAt) {
    return {
      _tag: "Stop",
      stop: {
        _tag: "DeadlineReached",
        attempts,
        delayMillis: Duration.toMillis(delay),
        deadlineMillis: Duration.toMillis(rules.deadline)
      }
    }
  }
  return { _tag: "Retry", delay, attempts, error }
}

/** A decision to send an attempt again. */
export type Retry = Extract<Decision, { readonly _tag: "Retry" }>

/**
 * `schedule` under the call's {@link Rules}, for `Effect.retry`: its input the error of each
 * attempt sent, its output the {@link decide} decision for it (the attempts counted by the
 * schedule's own recurrences), its delay the decision's (`Schedule.modifyDelay`: the schedule's
 * wait, raised to what a `Retry-After` asks). It stops at the first `Stop`, or when `schedule`
 * itself ends (its last output is then a `Retry` it did not make).
 */
export const policy = <Out, R>(
  schedule: Schedule.Schedule<Out, AttemptError, R>,
  rules: Rules
): Schedule.Schedule<Decision, AttemptError, R> =>
  Schedule.delays(schedule).pipe(
    Schedule.intersect(Schedule.identity<AttemptError>()),
    Schedule.intersect(Schedule.count),
    Schedule.mapEffect(([[scheduled, error], retries]) =>
      Effect.map(Clock.currentTimeMillis, (now) => decide(rules, error, retries + 1, scheduled, now))
    ),
    Schedule.whileOutput((decision) => decision._tag === "Retry"),
    Schedule.modifyDelay((decision, delay) => (decision._tag === "Retry" ? decision.delay : delay))
  )

/**
 * The error a call fails with when the rate limiter held its retry `retry` past the deadline:
 * the error of the attempt before it, stopped at the deadline (the retry was not sent).
 */
export const heldPastDeadline = (retry: Retry, rules: Rules): AttemptError =>
  stopped(retry.error, {
    _tag: "Stop",
    stop: {
      _tag: "DeadlineReached",
      attempts: retry.attempts,
      delayMillis: Duration.toMillis(retry.delay),
      deadlineMillis: Duration.toMillis(rules.deadline)
    }
  })

/**
 * The error a call fails with once retrying stopped: `error` itself when it was not safe to
 * retry, else `error` with `retryStop` saying why it was not sent again (the schedule ended when
 * the last decision was still to retry).
 */
export const stopped = (error: AttemptError, last: Decision): AttemptError => {
  const stop: RetryStop | undefined =
    last._tag === "Stop" ? last.stop : { _tag: "RetriesExhausted", attempts: last.attempts }
  if (stop === undefined || error._tag === "MalformedResponse") return error
  if (error._tag === "TransportError") {
    const { cause, description, method, path, requestId, route } = error
    return new TransportError({
      method,
      route,
      path,
      description,
      ...(requestId === undefined ? {} : { requestId }),
      ...(cause === undefined ? {} : { cause }),
      retryStop: stop
    })
  }
  return fromResponse({
    method: error.method,
    route: error.route,
    path: error.path,
    baseUrl: error.baseUrl,
    status: error.status,
    code: error.code,
    message: error.description,
    requestId: error.requestId,
    retryAfter: "retryAfter" in error ? error.retryAfter : undefined,
    retryStop: stop
  })
}
