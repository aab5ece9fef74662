import type * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import {
  Body,
  DecodeIssue,
  type Endpoint,
  fromResponse,
  GeneralError,
  type HttpStatusError,
  MalformedResponse,
  TransportError
} from "@dbplatform/core"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

const decodeGeneralError = Schema.decodeUnknownOption(GeneralError)

/**
 * A request as its errors name it: `method`, the endpoint's `route` template, the `path` sent
 * (relative to the base URL, no query) and the `X-Request-ID` the client sent.
 */
export interface Sent {
  readonly method: string
  readonly route: string
  readonly path: string
  readonly requestId: string
}

/** Removes the API key from text copied from a server or the transport. */
export type Scrub = (text: string) => string

/** The longest text copied from a server or the transport into an error, in characters. */
const maxCopiedText = 500

/** `text` scrubbed of the key, cut to {@link maxCopiedText} characters. */
const copied = (scrub: Scrub, text: string): string => {
  // Scrubbed whole, then cut: a cut made first could split a key where the scrubber cannot see
  // it. The texts are bounded: error bodies are read up to 64 KiB, headers and transport
  // messages are short.
  const clean = scrub(text)
  return clean.length > maxCopiedText ? `${clean.slice(0, maxCopiedText)}…` : clean
}

/**
 * The transport's error chain, rebuilt with the key removed from every message: each link an
 * `Error` with the original's name, scrubbed message and `code`, at most 5 deep.
 */
const scrubbedCause = (cause: unknown, scrub: Scrub, depth = 0): Error | undefined => {
  if (depth > 4 || typeof cause !== "object" || cause === null) return undefined
  const message = "message" in cause && typeof cause.message === "string" ? copied(scrub, cause.message) : ""
  const inner = scrubbedCause("cause" in cause ? cause.cause : undefined, scrub, depth + 1)
  const link = new Error(message, inner === undefined ? undefined : { cause: inner })
  if ("name" in cause && typeof cause.name === "string") link.name = copied(scrub, cause.name)
  if ("code" in cause && typeof cause.code === "string") Object.assign(link, { code: copied(scrub, cause.code) })
  return link
}

/** The messages (or codes) down a scrubbed cause chain, e.g. `fetch failed`, `connect ECONNREFUSED`. */
const messages = (link: unknown): Array<string> => {
  if (!(link instanceof Error)) return []
  const code = "code" in link && typeof link.code === "string" ? link.code : undefined
  const here = link.message !== "" ? link.message : code
  return [...(here === undefined ? [] : [here]), ...messages(link.cause)]
}

/**
 * A request that got no response becomes a `TransportError` (retried for GET only), keeping the
 * transport's error chain as its `cause`, scrubbed of the key.
 */
export const transportError =
  (sent: Sent, scrub: Scrub) =>
  (error: HttpClientError.HttpClientError): TransportError => {
    const cause = scrubbedCause(error.cause, scrub)
    return new TransportError({
      ...sent,
      description: copied(scrub, [error.message, ...messages(cause)].join(": ")),
      ...(cause === undefined ? {} : { cause })
    })
  }

/** A request not sent at all: the call's deadline passed first (waiting for the rate limiter). */
export const deadlinePassed = (sent: Sent): TransportError =>
  new TransportError({
    ...sent,
    description: "not sent: the call's deadline passed while it waited for the rate limiter"
  })

/** A request that got no complete response (status line and body) within `timeout`, and was aborted. */
export const timeoutError = (sent: Sent, timeout: Duration.Duration): TransportError =>
  new TransportError({
    ...sent,
    description: `no complete response within ${Duration.format(timeout)}; the request was aborted`
  })

/** A response and its body, read whole. */
export interface Received {
  readonly response: HttpClientResponse.HttpClientResponse
  /** The body's text (UTF-8); `undefined` for an error response whose body was over the error-body cap. */
  readonly body: string | undefined
  /** A 2xx body of raw bytes, read as bytes (an endpoint whose `media` is `bytes`); its `body` is then empty. */
  readonly bytes?: Uint8Array | undefined
}

/** The most of an error response's body that is read, in bytes (64 KiB); past it the status alone decides. */
const maxErrorBodyBytes = 64 * 1024

/**
 * The body's text (UTF-8), at most `maxBytes` bytes: a declared `Content-Length` over it fails
 * at once, and reading a body without one stops as soon as it passes the cap (`Body.text`: the
 * rest is never read). An absent body is empty.
 */
const readCapped = (
  response: HttpClientResponse.HttpClientResponse,
  maxBytes: number
): Effect.Effect<string, Body.TooLarge | HttpClientError.ResponseError> => {
  const declared = response.headers["content-length"]
  if (declared !== undefined && /^\d+$/.test(declared)) {
    // The transport ends the body at its declared length: reading it whole is bounded. Read as
    // text by the transport itself: a tenth of a millisecond less a page of 1000 operations
    // than its bytes decoded here.
    return Number(declared) > maxBytes ? Effect.fail(new Body.TooLarge({ maxBytes })) : response.text
  }
  return Body.text(response.stream, { maxBytes }).pipe(
    Effect.catchIf(
      (error) => error._tag === "ResponseError" && error.reason === "EmptyBody",
      () => Effect.succeed("")
    )
  )
}

/**
 * The body's bytes, at most `maxBytes`: a declared `Content-Length` over it fails at once, and
 * reading stops as soon as the body passes the cap. An absent body is empty.
 */
const readCappedBytes = (
  response: HttpClientResponse.HttpClientResponse,
  maxBytes: number
): Effect.Effect<Uint8Array, Body.TooLarge | HttpClientError.ResponseError> => {
  const declared = response.headers["content-length"]
  if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > maxBytes) {
    return Effect.fail(new Body.TooLarge({ maxBytes }))
  }
  return Body.bytes(response.stream, { maxBytes }).pipe(
    Effect.catchIf(
      (error) => error._tag === "ResponseError" && error.reason === "EmptyBody",
      () => Effect.succeed(new Uint8Array(0))
    )
  )
}

/**
 * Reads the body of `response`: a 2xx body up to `maxBytes` (past it, `MalformedResponse`), as
 * text, or as bytes when `media` is `bytes` (an object's download); an error body up to 64 KiB
 * (past it, dropped: the status decides). A body cut off by the connection is a `TransportError`.
 */
export const receive = (sent: Sent, scrub: Scrub, maxBytes: number, media: Endpoint.Media = "json") => {
  const toTransportError = transportError(sent, scrub)
  return (
    response: HttpClientResponse.HttpClientResponse
  ): Effect.Effect<Received, MalformedResponse | TransportError> => {
    const success = response.status >= 200 && response.status < 300
    const read: Effect.Effect<Received, Body.TooLarge | HttpClientError.ResponseError> =
      success && media === "bytes"
        ? Effect.map(readCappedBytes(response, maxBytes), (bytes): Received => ({ response, body: "", bytes }))
        : Effect.map(
            readCapped(response, success ? maxBytes : maxErrorBodyBytes),
            (body): Received => ({ response, body })
          )
    return read.pipe(
      Effect.catchAll((error): Effect.Effect<Received, MalformedResponse | TransportError> => {
        if (error._tag !== "BodyTooLarge") return Effect.fail(toTransportError(error))
        return success
          ? Effect.fail(
              new MalformedResponse({
                ...sent,
                status: response.status,
                description: `the body is larger than ${formatBytes(maxBytes)}; reading stopped there`
              })
            )
          : Effect.succeed({ response, body: undefined })
      })
    )
  }
}

/** A size in bytes as people read it: `512 B`, `64 KiB`, `16 MiB`. */
const formatBytes = (bytes: number): string =>
  bytes >= 1024 * 1024
    ? `${+(bytes / (1024 * 1024)).toFixed(1)} MiB`
    : bytes >= 1024
      ? `${+(bytes / 1024).toFixed(1)} KiB`
      : `${bytes} B`

/** The JSON value of `text`, or none when it is not JSON. */
const parseJson = (text: string): Option.Option<unknown> => {
  try {
    return Option.some(JSON.parse(text))
  } catch {
    return Option.none()
  }
}

/**
 * A non-2xx response becomes its typed error, whatever the body: a `GeneralError` fills
 * `code`, `message` and `requestId` (the key removed, at most 500 characters each); an empty,
 * text, HTML or oversized body leaves the status alone to decide. Without a `request_id` in
 * the body, the response's `X-Request-ID` header or else the id the client sent (`requestId`)
 * is kept. The error keeps `baseUrl` (checked: no credentials, query or fragment), which a
 * 404's message names with the path sent.
 */
export const statusError = (
  sent: Sent,
  { body: raw, response }: Received,
  scrub: Scrub,
  baseUrl: string
): HttpStatusError => {
  const body = Option.getOrUndefined(
    Option.flatMap(raw === undefined ? Option.none() : parseJson(raw), decodeGeneralError)
  )
  const text = (value: string | undefined) => (value === undefined ? undefined : copied(scrub, value))
  return fromResponse({
    method: sent.method,
    route: sent.route,
    path: sent.path,
    baseUrl,
    status: response.status,
    code: text(body?.code),
    message: text(body?.message),
    requestId: text(body?.request_id ?? response.headers["x-request-id"] ?? sent.requestId),
    retryAfter: text(response.headers["retry-after"])
  })
}

/** A body up to this length (65 536 characters) that does not decode has all its problems named, not only the first. */
const maxDetailedLength = 64 * 1024

/** At most this many problems are named in a `MalformedResponse`. */
const maxIssues = 8

/**
 * A 2xx response's JSON body decoded with `schema`; a body that is not JSON or not of the
 * shape becomes a `MalformedResponse` saying what was wrong and where (never what was found).
 * A 204, or any 2xx with an empty body, is decoded as `undefined` (an endpoint that may answer
 * without a body takes it, e.g. `Schema.OptionFromUndefinedOr` gives `None`); a schema that
 * refuses it makes it a `MalformedResponse` too.
 */
export const decodeBody = <A, I, R>(
  sent: Sent,
  { body, bytes, response }: Received,
  schema: Schema.Schema<A, I, R>
): Effect.Effect<A, MalformedResponse, R> => {
  const malformed = (description: string) => new MalformedResponse({ ...sent, status: response.status, description })
  if (bytes !== undefined) {
    // Raw bytes (`Endpoint.Bytes`): the body and the headers, read by the entry's schema.
    const answer: Endpoint.Bytes = { body: bytes, headers: response.headers }
    return Effect.mapError(Schema.decodeUnknown(schema)(answer), (error) =>
      malformed(`the answer does not match: ${DecodeIssue.format(error.issue, { values: "never", maxIssues })}`)
    )
  }
  if (response.status === 204 || body === "") {
    return Effect.mapError(Schema.decodeUnknown(schema)(undefined), () => malformed("the body is empty"))
  }
  const json = body === undefined ? Option.none() : parseJson(body)
  if (Option.isNone(json)) return Effect.fail(malformed("the body is not JSON"))
  // The values found are never quoted: a body may hold a created key's value.
  const describeFailure = (error: ParseResult.ParseError) =>
    Effect.fail(
      malformed(`the body does not match: ${DecodeIssue.format(error.issue, { values: "never", maxIssues })}`)
    )
  // The first problem stops decoding; a small body is decoded again to name all of them.
  return Schema.decodeUnknown(schema)(json.value).pipe(
    Effect.catchIf(ParseResult.isParseError, (first) =>
      (body?.length ?? 0) > maxDetailedLength
        ? describeFailure(first)
        : Schema.decodeUnknown(schema, { errors: "all" })(json.value).pipe(
            Effect.catchIf(ParseResult.isParseError, describeFailure),
            Effect.zipRight(describeFailure(first))
          )
    )
  )
}
