import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as DefaultServices from "effect/DefaultServices"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
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
const timer = (timeout: Duration.Duration, abort: () => void): Effect.Effect<Effect.Effect<void>> =>
  Effect.clockWith((clock) => {
    const millis = Duration.toMillis(timeout)
    if (clock === liveClock) {
      const handle = millis > maxTimerMillis ? undefined : setTimeout(abort, millis)
      return Effect.succeed(Effect.sync(() => clearTimeout(handle)))
    }
    return Effect.map(Effect.forkDaemon(Effect.zipRight(Effect.sleep(timeout), Effect.sync(abort))), (fiber) =>
      Fiber.interruptFork(fiber)
    )
  })

/**
 * Sends a request with `client` and reads its response with `read`, both within `timeout` (on
 * the `Clock`): once it passes, the request's abort signal is aborted, which every client of
 * `@effect/platform` honours (fetch, Node, undici), and whatever it was doing (connecting,
 * waiting for the status line, reading the body) fails, with `onTimeout()`'s error.
 *
 * Why not `Effect.timeoutFail`: it races two fibers per request. Here the request runs in the
 * caller's fiber, with the signal of `HttpClient.withScope` (aborted when its scope closes),
 * and the timer is a `setTimeout` on real time. Interrupting the caller aborts the request
 * too: the scope closes. `read` must read the response to its end (or fail).
 */
export const sender = (client: HttpClient.HttpClient) => {
  const scoped = HttpClient.withScope(client)
  return <A, E, T>(
    request: HttpClientRequest.HttpClientRequest,
    timeout: Duration.Duration,
    read: (response: HttpClientResponse.HttpClientResponse) => Effect.Effect<A, E>,
    onError: (error: HttpClientError.HttpClientError) => E,
    onTimeout: () => T
  ): Effect.Effect<A, E | T> =>
    Effect.flatMap(Scope.make(), (scope) => {
      // Set by the timer before it aborts: what tells a timeout from another abort or failure.
      let timedOut = false
      const abort = () => {
        timedOut = true
        // The scope's one finalizer aborts the request's signal, synchronously.
        Effect.runSync(Scope.close(scope, Exit.void))
      }
      return Effect.flatMap(timer(timeout, abort), (cancel) =>
        scoped.execute(request).pipe(
          Effect.mapError(onError),
          Effect.flatMap(read),
          Effect.mapError((error): E | T => (timedOut ? onTimeout() : error)),
          Effect.provideService(Scope.Scope, scope),
          // A response read to its end needs no abort (which costs an `AbortError` with its stack):
          // the scope is closed, aborting the request, only when the exchange did not complete.
          Effect.onExit((exit) => (Exit.isSuccess(exit) ? cancel : Effect.zipRight(cancel, Scope.close(scope, exit))))
        )
      )
    })
}
