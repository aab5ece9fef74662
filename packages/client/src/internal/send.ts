import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as DefaultServices from "effect/DefaultServices"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberId from "effect/FiberId"
import * as Scope from "effect/Scope"

/** The `Clock` of the runtime: real time, whose timers can be plain `setTimeout`s. */
const liveClock = Context.get(DefaultServices.liveServices, Clock.Clock)

/** The longest delay `setTimeout` takes (about 24.8 days); a longer timeout never fires. */
const maxTimerMillis = 2 ** 31 - 1

/**
 * Runs `abort` once `timeout` has passed on the fiber's `Clock`, unless the returned cancel
 * runs first. On the live clock it is a `setTimeout`; on another (`TestClock`) a daemon fiber
 * sleeping on it, interrupted without waiting for it.
 */
const timer = (timeout: Duration.Duration, abort: () => void): Effect.Effect<() => void> =>
  Effect.clockWith((clock) => {
    const millis = Duration.toMillis(timeout)
    if (clock === liveClock) {
      const handle = millis > maxTimerMillis ? undefined : setTimeout(abort, millis)
      return Effect.succeed(() => clearTimeout(handle))
    }
    // Interruptible, though forked where interruption is masked: the cancel must stop it.
    return Effect.map(
      Effect.forkDaemon(Effect.interruptible(Effect.zipRight(Effect.sleep(timeout), Effect.sync(abort)))),
      (fiber) => () => fiber.unsafeInterruptAsFork(FiberId.none)
    )
  })

/**
 * A sender of requests through `client` wrapped by `transform`: `send` executes a request and
 * reads its response with `read`, both within `timeout` (on the `Clock`). Once it passes, the
 * abort signal of every request the exchange made is aborted, which every client of
 * `@effect/platform` honours (fetch, Node, undici), and whatever it was doing (connecting,
 * waiting for the status line, reading the body) fails, with `onTimeout()`'s error.
 *
 * Why not `Effect.timeoutFail`: it races two fibers per request. Here the request runs in the
 * caller's fiber, and the timer is a `setTimeout` on real time. The signals are those of
 * `HttpClient.withScope`, applied to `client` under `transform`, so that requests a transform
 * makes of its own (`HttpClient.followRedirects`' next hops) are tied to the same scope; closing
 * it aborts them all. Interrupting the caller closes it too. An `HttpClient` that ignores its
 * abort signal is not stopped.
 *
 * `ended(a)` tells whether the response was read to its end: when it was not (an error body
 * left unread past its cap), or the exchange failed, the scope is closed, aborting the request;
 * a response read to its end is not aborted (an `AbortError` costs a stack trace).
 */
export const sender = (
  client: HttpClient.HttpClient,
  transform: (client: HttpClient.HttpClient) => HttpClient.HttpClient
) => {
  // `withScope` makes the client need a `Scope`, which `send` provides: the transform, typed for
  // a client that needs nothing, never sees it.
  const scoped = transform(HttpClient.withScope(client) as unknown as HttpClient.HttpClient)
  return <A, E, T>(
    request: HttpClientRequest.HttpClientRequest,
    timeout: Duration.Duration,
    read: (response: HttpClientResponse.HttpClientResponse) => Effect.Effect<A, E>,
    ended: (a: A) => boolean,
    onError: (error: HttpClientError.HttpClientError) => E,
    onTimeout: () => T
  ): Effect.Effect<A, E | T> =>
    Effect.flatMap(Scope.make(), (scope) => {
      // Set by the timer before it aborts: what tells a timeout from another abort or failure.
      let timedOut = false
      const abort = () => {
        timedOut = true
        // The scope's finalizers abort the requests' signals, synchronously.
        Effect.runSync(Scope.close(scope, Exit.void))
      }
      // The timer and what cancels it are set up without a gap an interruption could fall in.
      return Effect.uninterruptibleMask((restore) =>
        Effect.flatMap(timer(timeout, abort), (cancel) =>
          Effect.matchCauseEffect(
            restore(
              Effect.flatMap(Effect.mapError(scoped.execute(request), onError), read).pipe(
                Effect.provideService(Scope.Scope, scope)
              )
            ),
            {
              onSuccess: (a) => {
                cancel()
                return ended(a) ? Effect.succeed(a) : Effect.as(Scope.close(scope, Exit.void), a)
              },
              onFailure: (cause) => {
                cancel()
                const failed: Cause.Cause<E | T> = timedOut ? Cause.map(cause, onTimeout) : cause
                return Effect.zipRight(Scope.close(scope, Exit.failCause(cause)), Effect.failCause(failed))
              }
            }
          )
        )
      )
    })
}
