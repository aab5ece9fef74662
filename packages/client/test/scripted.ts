/**
 * A scripted `HttpClient` for the client's unit tests: it answers each request with the next
 * reply of a script (or a function of the request) and records every request it was sent.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/** A request as it reached the transport: full URL with query, headers, body as text. */
export interface Recorded {
  readonly method: string
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | undefined
}

/** One answer: a response, or a failure with no response at all. */
export type Reply =
  | {
      readonly _tag: "Response"
      readonly status: number
      readonly body: BodyInit | null
      readonly headers: Readonly<Record<string, string>>
    }
  | { readonly _tag: "TransportFailure"; readonly cause: unknown }
  | { readonly _tag: "Hang" }

/** A response with a JSON body. */
export const json = (status: number, value: unknown, headers: Record<string, string> = {}): Reply => ({
  _tag: "Response",
  status,
  body: JSON.stringify(value),
  headers: { "content-type": "application/json", ...headers }
})

/** A response with a raw body (`null` for none; a `ReadableStream` arrives as it is pulled) and the given headers. */
export const raw = (status: number, body: BodyInit | null, headers: Record<string, string> = {}): Reply => ({
  _tag: "Response",
  status,
  body,
  headers
})

/**
 * No answer ever: the request stays open until its abort signal is aborted (the caller timed
 * out or was interrupted), and then fails as `fetch` does, with a `RequestError`.
 */
export const hang: Reply = { _tag: "Hang" }

/** No response: the scripted client fails with a `RequestError` of reason `Transport`. */
export const transportFailure = (cause: unknown): Reply => ({ _tag: "TransportFailure", cause })

const bodyText = (body: HttpClientRequest.HttpClientRequest["body"]): string | undefined => {
  switch (body._tag) {
    case "Empty":
      return undefined
    case "Uint8Array":
      return new TextDecoder().decode(body.body)
    case "Raw":
      return String(body.body)
    default:
      return `<${body._tag} body>`
  }
}

/** `source`, pulled only as it is read, and failing with the signal's reason once `signal` is aborted. */
const abortable = (source: ReadableStream<Uint8Array>, signal: AbortSignal): ReadableStream<Uint8Array> => {
  const reader = source.getReader()
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        signal.addEventListener(
          "abort",
          () => {
            controller.error(signal.reason)
            reader.cancel(signal.reason).catch(() => undefined)
          },
          { once: true }
        )
      },
      async pull(controller) {
        const { done, value } = await reader.read()
        if (done) controller.close()
        else controller.enqueue(value)
      },
      cancel(reason) {
        return reader.cancel(reason)
      }
    },
    { highWaterMark: 0 }
  )
}

/** The client, the requests it recorded, and a Layer providing it as `HttpClient`. */
export interface Scripted {
  readonly client: HttpClient.HttpClient
  readonly requests: ReadonlyArray<Recorded>
  /** The abort signal the transport got with each request, in order. */
  readonly signals: ReadonlyArray<AbortSignal>
  readonly layer: Layer.Layer<HttpClient.HttpClient>
}

/**
 * A client answering the n-th request with `script[n]` (the last reply again once the script
 * runs out), or with `script(request, n)` when given a function.
 */
export const scripted = (script: ReadonlyArray<Reply> | ((request: Recorded, index: number) => Reply)): Scripted => {
  const requests: Array<Recorded> = []
  const signals: Array<AbortSignal> = []
  const client = HttpClient.make((request, url, signal) =>
    Effect.suspend(() => {
      const recorded: Recorded = {
        method: request.method,
        url: url.toString(),
        headers: { ...request.headers },
        body: bodyText(request.body)
      }
      const index = requests.length
      requests.push(recorded)
      signals.push(signal)
      const reply = typeof script === "function" ? script(recorded, index) : script[Math.min(index, script.length - 1)]
      if (reply === undefined) {
        return Effect.die(new Error(`no scripted reply for request ${index}: ${recorded.method} ${recorded.url}`))
      }
      if (reply._tag === "Hang") {
        return Effect.async<never, HttpClientError.RequestError>((resume) => {
          const abort = () =>
            resume(
              Effect.fail(new HttpClientError.RequestError({ request, reason: "Transport", cause: signal.reason }))
            )
          if (signal.aborted) abort()
          else signal.addEventListener("abort", abort, { once: true })
          return Effect.sync(() => signal.removeEventListener("abort", abort))
        })
      }
      if (reply._tag === "TransportFailure") {
        return Effect.fail(new HttpClientError.RequestError({ request, reason: "Transport", cause: reply.cause }))
      }
      // As with `fetch`, aborting the signal stops the body too: reading it then fails.
      const web = new Response(reply.body, { status: reply.status, headers: reply.headers })
      const body = web.body === null ? null : abortable(web.body, signal)
      return Effect.succeed(
        HttpClientResponse.fromWeb(request, new Response(body, { status: web.status, headers: web.headers }))
      )
    })
  )
  return { client, requests, signals, layer: Layer.succeed(HttpClient.HttpClient, client) }
}
