/**
 * An `HttpClient` that answers from the fake platform in memory: no sockets, but the real
 * client code runs (request building, headers, status mapping, decoding), and the fake runs
 * in the caller's fiber, so `TestClock` drives it.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { FakePlatform } from "./FakePlatform.js"
import { ConnectionDropped } from "./engine/faults.js"

/**
 * An `HttpClient` whose every request is answered by `app` (a web `Request` in, a web
 * `Response` out), body included. A connection the fake drops (`Fault.drop`) fails the
 * request with an `HttpClientError.RequestError` of reason `"Transport"`, as a real client's
 * network error does.
 *
 * @since 0.1.0
 */
export const make = (app: HttpApp.Default): HttpClient.HttpClient =>
  HttpClient.make((request, url, signal) => {
    const answer = (body: BodyInit | undefined) => {
      const web = new Request(url, {
        method: request.method,
        headers: request.headers,
        signal,
        ...(body === undefined ? {} : { body, duplex: "half" })
      } as RequestInit)
      return app.pipe(
        Effect.provideService(HttpServerRequest.HttpServerRequest, HttpServerRequest.fromWeb(web)),
        Effect.map((response) => HttpClientResponse.fromWeb(request, HttpServerResponse.toWeb(response))),
        // The server side runs in the caller's fiber: give it a span of its own, untraced, so that
        // what the router records (e.g. its `http.route`) does not land on the caller's span.
        Effect.withSpan("dbplatform.fake", { kind: "server", root: true }),
        Effect.withTracerEnabled(false),
        Effect.catchAllDefect((defect) =>
          defect instanceof ConnectionDropped
            ? Effect.fail(
                new HttpClientError.RequestError({
                  request,
                  reason: "Transport",
                  cause: defect,
                  description: defect.message
                })
              )
            : Effect.die(defect)
        ),
        // As a real client does, an aborted signal ends the request at once, even one the fake
        // holds (`Fault.hang`, `Fault.delay`).
        Effect.raceFirst(aborted(request, signal))
      )
    }
    switch (request.body._tag) {
      case "Empty":
        return answer(undefined)
      case "Raw":
        return answer(request.body.body as BodyInit)
      case "Uint8Array":
        return answer(request.body.body as BodyInit)
      case "FormData":
        return answer(request.body.formData)
      case "Stream":
        return Effect.flatMap(Stream.toReadableStreamEffect(request.body.stream), answer)
    }
  })

/** Fails with a transport error once `signal` is aborted. */
const aborted = (request: HttpClientRequest.HttpClientRequest, signal: AbortSignal) =>
  Effect.async<never, HttpClientError.RequestError>((resume) => {
    const abort = () =>
      resume(
        Effect.fail(
          new HttpClientError.RequestError({
            request,
            reason: "Transport",
            cause: signal.reason,
            description: "aborted"
          })
        )
      )
    if (signal.aborted) abort()
    else signal.addEventListener("abort", abort, { once: true })
    return Effect.sync(() => signal.removeEventListener("abort", abort))
  })

/**
 * The in-memory `HttpClient`, routed to the `FakePlatform` in context.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<HttpClient.HttpClient, never, FakePlatform> = Layer.effect(
  HttpClient.HttpClient,
  Effect.map(FakePlatform, (fake) => make(fake.httpApp))
)
