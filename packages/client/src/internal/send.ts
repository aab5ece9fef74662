import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Cause from "effect/Cause"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import type { Timer } from "./timer.js"

/** How one request is sent and its response read. */
export interface Exchange<A, E, T> {
  readonly request: HttpClientRequest.HttpClientRequest
  /** Reads the response (its body). */
  readonly read: (response: HttpClientResponse.HttpClientResponse) => Effect.Effect<A, E>
  /** Whether `read` read the response to its end. */
  readonly ended: (a: A) => boolean
  /** The error of a request that got no response. */
  readonly onError: (error: HttpClientError.HttpClientError) => E
  /** The most sending and reading may take. */
  readonly timeout: Duration.Duration
  /** The error once `timeout` passed. */
  readonly onTimeout: () => T
}

/**
 * A sender of requests through `client` wrapped by `transform`: `send` executes a request and
 * reads its response, both within the exchange's `timeout`, on `timer`.
 *
 * Each exchange has a `Scope`, to which `HttpClient.withScope` ties the abort signal of every
 * request it makes; it is applied under `transform`, so that the requests a transform makes of
 * its own (`HttpClient.followRedirects`' next hops) are tied to it too. Closing the scope aborts
 * them all, which every client of `@effect/platform` honours (fetch, Node, undici) whatever it
 * was doing (connecting, waiting for the status line, reading the body), and the exchange fails.
 * The timer closes it once `timeout` has passed: the exchange then fails with `onTimeout()`.
 * It is closed too when the exchange is interrupted, fails, or leaves its response unread
 * (`ended` false: an error body left past its cap); a response read to its end is left alone
 * (aborting it would only cost an `AbortError` and its stack trace). An `HttpClient` that
 * ignores its abort signal is not stopped by the timeout.
 */
export const sender = (
  client: HttpClient.HttpClient,
  transform: (client: HttpClient.HttpClient) => HttpClient.HttpClient,
  timer: Timer
) => {
  // `withScope` makes the client need a `Scope`, which `send` provides: the transform, typed for
  // a client that needs nothing, never sees it.
  const scoped = transform(HttpClient.withScope(client) as unknown as HttpClient.HttpClient)
  return <A, E, T>(exchange: Exchange<A, E, T>): Effect.Effect<A, E | T> =>
    Effect.flatMap(Scope.make(), (scope) =>
      // The timeout and what cancels it are set up without a gap an interruption could fall in.
      Effect.uninterruptibleMask((restore) =>
        Effect.flatMap(timer.schedule(exchange.timeout, Scope.close(scope, Exit.void)), (cancel) =>
          Effect.matchCauseEffect(
            restore(
              scoped
                .execute(exchange.request)
                .pipe(
                  Effect.mapError(exchange.onError),
                  Effect.flatMap(exchange.read),
                  Effect.provideService(Scope.Scope, scope)
                )
            ),
            {
              onSuccess: (a) =>
                Effect.zipRight(
                  cancel,
                  exchange.ended(a) ? Effect.succeed(a) : Effect.as(Scope.close(scope, Exit.void), a)
                ),
              // `cancel` answers `false` once the timeout passed: the failure is the timeout's.
              onFailure: (cause) =>
                Effect.flatMap(cancel, (inTime) =>
                  Effect.zipRight(
                    Scope.close(scope, Exit.failCause(cause)),
                    Effect.failCause<E | T>(inTime ? cause : Cause.map(cause, exchange.onTimeout))
                  )
                )
            }
          )
        )
      )
    )
}
