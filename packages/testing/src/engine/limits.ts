import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { Api, Body, DecodeIssue, Endpoint } from "@dbplatform/core"
import * as Multipart from "@effect/platform/Multipart"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { Status } from "./status.js"
import { Refusal } from "./refusal.js"

/** The largest request body the fake accepts: 64 KiB. A larger one is refused with 413. */
export const bodyLimitBytes = 64 * 1024

/** A declared `Content-Length` over the limit, or not a number: refused before reading anything. */
export const declaredLengthRefusal = (request: HttpServerRequest.HttpServerRequest): Refusal | undefined => {
  const declared = request.headers["content-length"]
  if (declared === undefined) return undefined
  if (!/^\d{1,15}$/.test(declared))
    return new Refusal({ status: Status.badRequest, message: "Content-Length must be a number of bytes" })
  return Number(declared) > bodyLimitBytes
    ? new Refusal({ status: Status.payloadTooLarge, message: `request body is larger than ${bodyLimitBytes} bytes` })
    : undefined
}

/** How deeply a request body's JSON may nest arrays and objects: 64 levels. Deeper is refused with 400. */
export const bodyDepthLimit = 64

/**
 * The request body's bytes, at most `bodyLimitBytes`: a larger body fails with a 413 `Refusal`.
 * The rest of a larger body is read and dropped, never kept, so the connection stays usable and
 * the 413 reaches the client (stopping early would make Node destroy the socket before the
 * answer; Node's `HttpServer` itself fails a body past 10 MiB). A body that cannot be read is a
 * 400.
 */
const readBodyBytes: Effect.Effect<Uint8Array, Refusal, HttpServerRequest.HttpServerRequest> = Effect.flatMap(
  HttpServerRequest.HttpServerRequest,
  (request) =>
    Body.bytes(request.stream, { maxBytes: bodyLimitBytes, past: "drain" }).pipe(
      Effect.mapError(
        (error): Refusal =>
          error._tag === "BodyTooLarge"
            ? new Refusal({
                status: Status.payloadTooLarge,
                message: `request body is larger than ${bodyLimitBytes} bytes`
              })
            : new Refusal({ status: Status.badRequest, message: "request body could not be read" })
      )
    )
)

/**
 * Whether `text` opens more than `limit` arrays or objects without closing them, outside
 * strings. One pass, no recursion, whatever `text` is (JSON or not).
 */
export const nestedDeeperThan = (text: string, limit: number): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (inString) {
      if (code === 0x5c)
        i++ // `\`: the next character is escaped
      else if (code === 0x22) inString = false
    } else if (code === 0x22) {
      inString = true
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return true
    } else if (code === 0x5d || code === 0x7d) {
      depth--
    }
  }
  return false
}

/** Whether a `Content-Type` value is JSON: `application/json`, any case, parameters allowed. */
const isJsonContentType = (value: string | undefined): boolean =>
  value !== undefined && /^\s*application\/json\s*(;|$)/i.test(value)

/**
 * The request body parsed as JSON. Refusal, in this order: a body over `bodyLimitBytes` (413),
 * a `Content-Type` missing or other than `application/json` (415), bytes that are not UTF-8
 * (400), arrays and objects nested deeper than {@link bodyDepthLimit} (400, checked before
 * parsing, so nothing downstream recurses that deep), text that is not JSON (400). Duplicate
 * names in an object keep the last value, as `JSON.parse` does; `__proto__` is an ordinary
 * name.
 */
export const readJsonBody: Effect.Effect<unknown, Refusal, HttpServerRequest.HttpServerRequest> = Effect.gen(
  function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const bytes = yield* readBodyBytes
    const contentType = request.headers["content-type"]
    if (!isJsonContentType(contentType)) {
      return yield* Effect.fail<Refusal>(
        new Refusal({
          status: Status.unsupportedMediaType,
          message:
            contentType === undefined
              ? "Content-Type must be application/json"
              : `Content-Type must be application/json, not "${DecodeIssue.excerpt(contentType)}"`
        })
      )
    }
    const text = yield* Body.decodeUtf8(bytes, "fail").pipe(
      Effect.mapError(() => new Refusal({ status: Status.badRequest, message: "request body is not valid UTF-8" }))
    )
    if (nestedDeeperThan(text, bodyDepthLimit)) {
      return yield* Effect.fail<Refusal>(
        new Refusal({
          status: Status.badRequest,
          message: `request body nests arrays and objects deeper than ${bodyDepthLimit} levels`
        })
      )
    }
    try {
      return JSON.parse(text) as unknown
    } catch {
      return yield* Effect.fail<Refusal>(
        new Refusal({ status: Status.badRequest, message: "request body is not valid JSON" })
      )
    }
  }
)

/**
 * The request body read as `multipart/form-data` (docs/design.md §1.7), parsed by
 * `@effect/platform`'s `Multipart`: each part by its name, a file part as its bytes, a text part
 * as its text. Refusal, in this order: a body over `bodyLimitBytes` (413: the whole body, files
 * included, is held to the same limit as a JSON body), a `Content-Type` other than
 * `multipart/form-data` (415), a body that does not parse or names a part twice (400).
 */
export const readMultipartBody: Effect.Effect<
  Readonly<Record<string, string | Uint8Array>>,
  Refusal,
  HttpServerRequest.HttpServerRequest
> = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const bytes = yield* readBodyBytes
  const contentType = request.headers["content-type"]
  if (contentType === undefined || !/^\s*multipart\/form-data\s*;/i.test(contentType)) {
    return yield* Effect.fail<Refusal>(
      new Refusal({
        status: Status.unsupportedMediaType,
        message:
          contentType === undefined
            ? "Content-Type must be multipart/form-data"
            : `Content-Type must be multipart/form-data, not "${DecodeIssue.excerpt(contentType)}"`
      })
    )
  }
  const malformed = () =>
    new Refusal({ status: Status.badRequest, message: "request body is not valid multipart/form-data" })
  const parts = yield* Stream.make(bytes).pipe(
    Stream.pipeThroughChannel(Multipart.makeChannel<never>({ "content-type": contentType })),
    Stream.mapEffect(
      (part): Effect.Effect<readonly [string, string | Uint8Array], Multipart.MultipartError> =>
        Multipart.isFile(part)
          ? Effect.map(part.contentEffect, (content) => [part.key, content] as const)
          : Effect.succeed([(part as Multipart.Field).key, (part as Multipart.Field).value] as const)
    ),
    Stream.runCollect,
    Effect.mapError(malformed)
  )
  const fields: Record<string, string | Uint8Array> = {}
  for (const [key, value] of parts) {
    if (Object.hasOwn(fields, key)) {
      return yield* Effect.fail<Refusal>(
        new Refusal({
          status: Status.badRequest,
          message: `request body names the part "${DecodeIssue.excerpt(key)}" twice`
        })
      )
    }
    fields[key] = value
  }
  return fields
})

/**
 * The path parameters that are text of the caller's rather than an id, and so may hold an
 * encoded `/` (`%2F`) in their one segment: an object's key (docs/contract.md §28.2).
 */
const textParameters: ReadonlySet<string> = new Set(["object_key"])

/** The routes with a text parameter: each as a pattern of its path, and the index of that segment. */
const textSegments: ReadonlyArray<{ readonly pattern: RegExp; readonly index: number }> = Api.endpoints.flatMap(
  (endpoint) => {
    const parts = `${Endpoint.basePath}${endpoint.route}`.split("/")
    const index = parts.findIndex((part) => textParameters.has(part.replace(/^\{(\w+)\}$/, "$1")))
    if (index < 0) return []
    const pattern = parts
      .map((part) => (part.startsWith("{") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/")
    return [{ pattern: new RegExp(`^${pattern}$`), index }]
  }
)

/**
 * A path the fake refuses before routing: malformed percent-encoding, or a segment that is (or
 * decodes to) `.` or `..`, or holds an encoded `/` or `\` (path traversal in an id); but for
 * the one segment of a route's text parameter (an object's key, {@link textParameters}), whose
 * `/` go encoded.
 */
export const pathRefusal = (rawPath: string): Refusal | undefined => {
  const text = textSegments.find(({ pattern }) => pattern.test(rawPath))?.index
  for (const [index, segment] of rawPath.split("/").entries()) {
    let decoded: string
    try {
      decoded = decodeURIComponent(segment)
    } catch {
      return new Refusal({ status: Status.badRequest, message: "path holds malformed percent-encoding" })
    }
    if (decoded === "." || decoded === ".." || (index !== text && (decoded.includes("/") || decoded.includes("\\")))) {
      return new Refusal({
        status: Status.badRequest,
        message: "path segments must not be dot segments or hold slashes"
      })
    }
  }
  return undefined
}
