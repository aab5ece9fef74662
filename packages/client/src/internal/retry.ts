import {
  fromResponse,
  type HttpStatusError,
  type MalformedResponse,
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
 * Whether a failed attempt may be sent again (`docs/contract.md` §10.2): 423, 429
 * and 503 said the request was not carried out, so any method; another 5xx or no response
 * leaves it unknown, so only an idempotent method.
 */
export const isRetryable = (method: string, error: AttemptError): boolean => {
  switch (error._tag) {
    case "Locked":
    case "RateLimited":
    case "ServiceUnavailable":
      return true
    case "ServerError":
    case "TransportError":
      return idempotent.has(method)
    default:
      return false
  }
}

/** The wait a failed attempt's `Retry-After` header asks for, if it has a readable one. */
export const askedDelay = (error: AttemptError, now: number): Option.Option<Duration.Duration> =>
  "retryAfter" in error ? retryAfterDelay(error.retryAfter, now) : Option.none()

/**
 * `policy` with each delay raised to what the failed attempt's `Retry-After` asks for and
 * rounded to the millisecond, and its output replaced by that delay: the wait before the next
 * attempt.
 */
export const honouringRetryAfter = <Out, R>(
  policy: Schedule.Schedule<Out, AttemptError, R>
): Schedule.Schedule<Duration.Duration, AttemptError, R> =>
  Schedule.intersect(policy, Schedule.identity<AttemptError>()).pipe(
    Schedule.modifyDelayEffect(([, error], delay) =>
      Effect.map(Clock.currentTimeMillis, (now) =>
        Duration.millis(
          Math.round(
            Duration.toMillis(
              Option.match(askedDelay(error, now), {
                onNone: () => delay,
                onSome: (asked) => Duration.max(asked, delay)
              })
            )
          )
        )
      )
    ),
    Schedule.delays
  )

/**
 * The same error with `note` added to its message, e.g. why it was not retried. The class and
 * every other field are kept.
 */
export const withNote = (error: AttemptError, note: string): AttemptError => {
  const message = `${error.message}; ${note}`
  switch (error._tag) {
    case "MalformedResponse":
      return error
    case "TransportError":
      return new TransportError({
        method: error.method,
        path: error.path,
        message,
        ...(error.requestId !== undefined ? { requestId: error.requestId } : {})
      })
    default:
      return fromResponse({
        method: error.method,
        path: error.path,
        status: error.status,
        code: error.code,
        message,
        requestId: error.requestId,
        retryAfter: "retryAfter" in error ? error.retryAfter : undefined
      })
  }
}
