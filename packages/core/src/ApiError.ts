/**
 * Typed errors of the control API v2: one per status class a real server answers with
 * (`docs/contract.md` §5, §7, §10.2), plus the errors of a
 * response that cannot be read, a request that got no response, and input refused before it
 * was sent.
 *
 * An error response's fields come from its `GeneralError` body when it had one; a proxy may
 * answer with an empty, text or HTML body, and the status alone then decides the error.
 *
 * @since 0.1.0
 */
import * as Duration from "effect/Duration"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"

/**
 * Fields of every error that carries an HTTP response: the request's `method` and `path`
 * (relative to the base URL, without query), the response `status`, and from the body the
 * `code` and `message` (or a description of the status when the body had none) and the
 * `requestId` (`request_id`).
 */
const ResponseFields = {
  method: Schema.String,
  path: Schema.String,
  status: Schema.Int,
  code: Schema.optional(Schema.String),
  message: Schema.String,
  requestId: Schema.optional(Schema.String)
}

/**
 * 400 or 422: malformed input (bad `limit`, bad id, missing `key_name`). Not safe to retry.
 *
 * @since 0.1.0
 * @category errors
 */
export class BadRequest extends Schema.TaggedError<BadRequest>()("BadRequest", ResponseFields) {}

/**
 * 401: missing, invalid or revoked API key (§5.2, §7). Not safe to retry.
 *
 * @since 0.1.0
 * @category errors
 */
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", ResponseFields) {}

/**
 * 403: the key is valid but not allowed for this object. Not safe to retry.
 *
 * @since 0.1.0
 * @category errors
 */
export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", ResponseFields) {}

/**
 * 404: unknown project, operation or key id, or unknown route. Not safe to retry.
 *
 * @since 0.1.0
 * @category errors
 */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", ResponseFields) {}

/**
 * 409: conflict, e.g. the object already exists. Not safe to retry.
 *
 * @since 0.1.0
 * @category errors
 */
export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", ResponseFields) {}

/**
 * 423: the resource is locked, e.g. by another operation in progress. The request was not
 * carried out: safe to retry with any method. `retryAfter` is the raw `Retry-After` header
 * (seconds or an HTTP date) when the server sent one.
 *
 * @since 0.1.0
 * @category errors
 */
export class Locked extends Schema.TaggedError<Locked>()("Locked", {
  ...ResponseFields,
  retryAfter: Schema.optional(Schema.String)
}) {}

/**
 * 429: rate limited (about 700 requests a minute per account, bursts of 40 a second per
 * route). The request was not carried out: safe to retry with any method. `retryAfter` is the
 * raw `Retry-After` header (seconds or an HTTP date) when the server sent one.
 *
 * @since 0.1.0
 * @category errors
 */
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  ...ResponseFields,
  retryAfter: Schema.optional(Schema.String)
}) {}

/**
 * 500, 502, 504 or another 5xx but 503: a server or gateway error. The request may have been
 * carried out: safe to retry for GET only.
 *
 * @since 0.1.0
 * @category errors
 */
export class ServerError extends Schema.TaggedError<ServerError>()("ServerError", ResponseFields) {}

/**
 * 503: unavailable; the request was not carried out: safe to retry with any method.
 * `retryAfter` is the raw `Retry-After` header when the server sent one.
 *
 * @since 0.1.0
 * @category errors
 */
export class ServiceUnavailable extends Schema.TaggedError<ServiceUnavailable>()("ServiceUnavailable", {
  ...ResponseFields,
  retryAfter: Schema.optional(Schema.String)
}) {}

/**
 * Any other non-2xx status (a redirect, 418, ...), which no endpoint in scope answers with.
 *
 * @since 0.1.0
 * @category errors
 */
export class UnexpectedStatus extends Schema.TaggedError<UnexpectedStatus>()("UnexpectedStatus", ResponseFields) {}

/**
 * A success response the client cannot take as an answer: a body that is not JSON, does not
 * decode, or is larger than the client reads (`maxResponseBytes`); or one that decodes but
 * cannot be right: a page with more items than the `limit` sent, a cursor already followed in
 * the same walk (a server or proxy that would loop), an operation or key other than the one
 * asked for. Not retried. `message` names each offending path and what was expected there; the
 * body, and the values found in it, are not kept (a body may hold a created key's value).
 *
 * @since 0.1.0
 * @category errors
 */
export class MalformedResponse extends Schema.TaggedError<MalformedResponse>()("MalformedResponse", {
  method: Schema.String,
  path: Schema.String,
  status: Schema.Int,
  message: Schema.String
}) {}

/**
 * No response: the connection failed, was dropped, or no response came within the request
 * timeout. Whether the server acted is unknown: safe to retry for GET only. `requestId` is the
 * `X-Request-ID` the client sent, to quote to support.
 *
 * @since 0.1.0
 * @category errors
 */
export class TransportError extends Schema.TaggedError<TransportError>()("TransportError", {
  method: Schema.String,
  path: Schema.String,
  message: Schema.String,
  requestId: Schema.optional(Schema.String)
}) {}

/**
 * Input refused before anything was sent (an empty key name, a `limit` out of range...).
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()("InvalidRequest", {
  message: Schema.String
}) {}

/**
 * An API key the client cannot send: empty, or holding a character an HTTP header cannot
 * carry as a bearer token (anything but visible ASCII: a space, a line feed, a NUL...). A key
 * copied from a file with its trailing newline is the common case. Raised when the client's
 * Layer is built, before any request. `message` says which character and where (e.g. "a line
 * feed (U+000A) at position 65 of 65"); it never holds the key.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidApiKey extends Schema.TaggedError<InvalidApiKey>()("InvalidApiKey", {
  message: Schema.String
}) {}

/**
 * An error response, by status.
 *
 * @since 0.1.0
 * @category errors
 */
export type HttpStatusError =
  | BadRequest
  | Unauthorized
  | Forbidden
  | NotFound
  | Conflict
  | Locked
  | RateLimited
  | ServerError
  | ServiceUnavailable
  | UnexpectedStatus

/**
 * Everything a call to the API can fail with.
 *
 * @since 0.1.0
 * @category errors
 */
export type ApiError = HttpStatusError | MalformedResponse | TransportError | InvalidRequest

/**
 * What is known of an error response when choosing its error.
 *
 * @since 0.1.0
 * @category constructors
 */
export interface ErrorResponse {
  readonly method: string
  readonly path: string
  readonly status: number
  /** The body's `code`, if the body was a `GeneralError`. */
  readonly code?: string | undefined
  /** The body's `message`, if the body was a `GeneralError`. */
  readonly message?: string | undefined
  /** The body's `request_id`, if it had one. */
  readonly requestId?: string | undefined
  /** The `Retry-After` header, if any. */
  readonly retryAfter?: string | undefined
}

const reasons: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  422: "Unprocessable Entity",
  423: "Locked",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout"
}

/**
 * The typed error for an error response: the status decides the class, the body (when it
 * was a `GeneralError`) fills `code`, `message` and `requestId`. Without a body message, the
 * message names the status and the request, e.g. `502 Bad Gateway (GET /projects)`.
 *
 * @example
 * ```ts
 * import { fromResponse } from "@dbplatform/core"
 *
 * const error = fromResponse({ method: "GET", path: "/projects", status: 429, retryAfter: "2" })
 * console.log(error._tag, error.message) // RateLimited 429 Too Many Requests (GET /projects)
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromResponse = (response: ErrorResponse): HttpStatusError => {
  const { status } = response
  const fields = {
    method: response.method,
    path: response.path,
    status,
    message:
      response.message !== undefined && response.message !== ""
        ? response.message
        : `${status} ${reasons[status] ?? "HTTP error"} (${response.method} ${response.path})`,
    ...(response.code !== undefined ? { code: response.code } : {}),
    ...(response.requestId !== undefined ? { requestId: response.requestId } : {})
  }
  const retry = response.retryAfter !== undefined ? { retryAfter: response.retryAfter } : {}
  switch (status) {
    case 400:
    case 422:
      return new BadRequest(fields)
    case 401:
      return new Unauthorized(fields)
    case 403:
      return new Forbidden(fields)
    case 404:
      return new NotFound(fields)
    case 409:
      return new Conflict(fields)
    case 423:
      return new Locked({ ...fields, ...retry })
    case 429:
      return new RateLimited({ ...fields, ...retry })
    case 503:
      return new ServiceUnavailable({ ...fields, ...retry })
    default:
      return status >= 500 && status <= 599 ? new ServerError(fields) : new UnexpectedStatus(fields)
  }
}

/**
 * How long a `Retry-After` header asks to wait, counted from `now` (milliseconds since the
 * epoch): its delay in seconds (`"2"`), or the time until its HTTP date
 * (`"Wed, 21 Oct 2015 07:28:00 GMT"`; a date already past is zero). `None` for a missing or
 * unreadable header (RFC 9110 §10.2.3; `docs/contract.md` §10.2).
 *
 * @since 0.1.0
 */
export const retryAfterDelay = (header: string | undefined, now: number): Option.Option<Duration.Duration> => {
  if (header === undefined) return Option.none()
  const value = header.trim()
  if (/^\d+(\.\d+)?$/.test(value)) return Option.some(Duration.seconds(Number(value)))
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN
  return Number.isNaN(date) ? Option.none() : Option.some(Duration.millis(Math.max(0, date - now)))
}
