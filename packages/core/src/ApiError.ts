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
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import { basePath } from "./internal/basePath.js"
import { TypeId } from "./internal/error.js"
import type { OperationFailed, OperationStillPending } from "./Operation.js"

export {
  /**
   * The type id every error of the SDK carries (`@dbplatform/core/DbPlatformError`), so that
   * {@link isDbPlatformError} can tell them from any other error; its type, `TypeId`, is the type
   * of the `[TypeId]` field of each.
   *
   * @since 0.2.0
   * @category type ids
   */
  TypeId
} from "./internal/error.js"

/**
 * Why a call stopped sending an error it could have retried (`docs/contract.md` §10.2); set on
 * the error the call failed with, absent when the error was not safe to retry:
 * - `RetryAfterTooLong`: the server's `Retry-After` asked for `askedMillis` ms, more than the
 *   `maxMillis` ms the client waits;
 * - `DeadlineReached`: the next retry, in `delayMillis` ms, would pass the call's deadline of
 *   `deadlineMillis` ms;
 * - `RetriesExhausted`: the retry schedule ended.
 *
 * `attempts` counts the requests sent for the call, the first one included.
 *
 * @since 0.2.0
 * @category schemas
 */
export const RetryStop = Schema.Union(
  Schema.TaggedStruct("RetryAfterTooLong", {
    attempts: Schema.Int,
    askedMillis: Schema.Number,
    maxMillis: Schema.Number
  }),
  Schema.TaggedStruct("DeadlineReached", {
    attempts: Schema.Int,
    delayMillis: Schema.Number,
    deadlineMillis: Schema.Number
  }),
  Schema.TaggedStruct("RetriesExhausted", { attempts: Schema.Int })
).annotations({ identifier: "RetryStop" })

/**
 * A decoded {@link RetryStop}.
 *
 * @since 0.2.0
 * @category schemas
 */
export type RetryStop = typeof RetryStop.Type

/** A duration in ms as people read it: `850ms`, `2s`, `1m 30s`. */
const formatMillis = (millis: number): string => Duration.format(Duration.millis(Math.round(millis)))

/** The part of a message saying why retrying stopped, or `""`. */
const retryText = (stop: RetryStop | undefined): string => {
  if (stop === undefined) return ""
  const after = stop.attempts === 1 ? "not retried" : `gave up after ${stop.attempts} attempts`
  switch (stop._tag) {
    case "RetryAfterTooLong":
      return `; ${after}: the server asked to retry in ${formatMillis(stop.askedMillis)}, longer than the ${formatMillis(stop.maxMillis)} this client waits`
    case "DeadlineReached":
      return `; ${after}: a retry in ${formatMillis(stop.delayMillis)} would pass the call's ${formatMillis(stop.deadlineMillis)} deadline`
    case "RetriesExhausted":
      return `; ${after}: the retry schedule ended`
  }
}

/**
 * Fields of every error that carries an HTTP response: the request's `method`, `route` (the
 * endpoint's path template, e.g. `/projects/{project_id}/operations`: the same for every call of
 * the endpoint, to group errors by) and `path` (the path sent, ids filled in, relative to the
 * base URL, without query: what the message names); the `baseUrl` it was appended to, when known;
 * the response `status`; from a `GeneralError` body, `code`, `description` (its `message`) and
 * `requestId` (`request_id`, or the `X-Request-ID` the client sent); and `retryStop` when
 * retrying stopped.
 */
const ResponseFields = {
  method: Schema.String,
  route: Schema.String,
  path: Schema.String,
  baseUrl: Schema.optional(Schema.String),
  status: Schema.Int,
  code: Schema.optional(Schema.String),
  description: Schema.optional(Schema.String),
  requestId: Schema.optional(Schema.String),
  retryStop: Schema.optional(RetryStop)
}

/** Fields of the statuses that say the request was not carried out, with the raw `Retry-After` header. */
const RetryableFields = { ...ResponseFields, retryAfter: Schema.optional(Schema.String) }

const reasons: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  406: "Not Acceptable",
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
 * What the request was, as every message starts: its method and the path sent, ids filled in
 * (`GET /projects/spring-example-302709/operations`); never the query, which may hold secrets.
 */
const requestLine = (error: { readonly method: string; readonly path: string }) => `${error.method} ${error.path}`

/** ` (request id …)`, or `""`. */
const requestIdText = (requestId: string | undefined) => (requestId === undefined ? "" : ` (request id ${requestId})`)

/**
 * What a 404 adds when the base URL is known: the URL sent, and, when the base URL does not end
 * with the API's version segment (`/api/v2`, §9), that it may be missing: the usual cause of a
 * 404 "route not found" on every call. `""` otherwise.
 */
const notFoundText = (error: {
  readonly status: number
  readonly path: string
  readonly baseUrl?: string | undefined
}): string => {
  if (error.status !== 404 || error.baseUrl === undefined) return ""
  const base = error.baseUrl.replace(/\/+$/, "")
  const sent = `; sent to ${base}${error.path}`
  return base.endsWith(basePath)
    ? sent
    : `${sent}: the base URL ${base} does not end with the API's version segment ${basePath} (is it ${base}${basePath}?)`
}

/**
 * The message of an error response: request (method and path sent), status, the server's
 * message and request id when there were some, the URL sent for a 404 (with a hint when the base
 * URL lacks `/api/v2`), and why retrying stopped, e.g. `POST
 * /projects/spring-x-1/endpoints/ep-a-1/suspend: 423 Locked: endpoint is locked (request id
 * 3f2c…)`.
 */
const responseMessage = (error: {
  readonly method: string
  readonly path: string
  readonly baseUrl?: string | undefined
  readonly status: number
  readonly description?: string | undefined
  readonly requestId?: string | undefined
  readonly retryStop?: RetryStop | undefined
}): string =>
  `${requestLine(error)}: ${error.status} ${reasons[error.status] ?? "HTTP error"}${
    error.description === undefined || error.description === "" ? "" : `: ${error.description}`
  }${requestIdText(error.requestId)}${notFoundText(error)}${retryText(error.retryStop)}`

// Each error below is one `Schema.TaggedError` class, as Effect's own are: its schema identifier
// scoped to the package, its instances marked with `TypeId` (what `isDbPlatformError` tests),
// and an error response's `message` built by `responseMessage`.

/**
 * 400 or 422: malformed input (bad `limit`, bad id, missing `key_name`). Not safe to retry.
 *
 * @since 0.1.0
 * @category errors
 */
export class BadRequest extends Schema.TaggedError<BadRequest>("@dbplatform/core/BadRequest")(
  "BadRequest",
  ResponseFields
) {
  /**
   * Marks an error of the SDK: what {@link isDbPlatformError} tests.
   *
   * @since 0.2.0
   */
  readonly [TypeId]: TypeId = TypeId

  /** The method and path sent, the status, the server's message and request id, why retrying stopped. */
  override get message(): string {
    return responseMessage(this)
  }
}

/**
 * 401: missing, invalid or revoked API key (§5 rule 2, §7). Not safe to retry. Any endpoint may
 * answer with it.
 *
 * @since 0.1.0
 * @category errors
 */
export class Unauthorized extends Schema.TaggedError<Unauthorized>("@dbplatform/core/Unauthorized")(
  "Unauthorized",
  ResponseFields
) {
  /**
   * Marks an error of the SDK: what {@link isDbPlatformError} tests.
   *
   * @since 0.2.0
   */
  readonly [TypeId]: TypeId = TypeId

  /** The method and path sent, the status, the server's message and request id, why retrying stopped. */
  override get message(): string {
    return responseMessage(this)
  }
}

/**
 * 403: the key is valid but not allowed for this object. Not safe to retry.
 *
 * @since 0.1.0
 * @category errors
 */
export class Forbidden extends Schema.TaggedError<Forbidden>("@dbplatform/core/Forbidden")(
  "Forbidden",
  ResponseFields
) {
  /**
   * Marks an error of the SDK: what {@link isDbPlatformError} tests.
   *
   * @since 0.2.0
   */
  readonly [TypeId]: TypeId = TypeId

  /** The method and path sent, the status, the server's message and request id, why retrying stopped. */
  override get message(): string {
    return responseMessage(this)
  }
}

/**
 * 404: unknown project, operation or key id, or unknown route. Not safe to retry. Any endpoint
 * may answer with it: a wrong base URL, a proxy, a route the server lacks (`docs/design.md` §1.6).
 * When `baseUrl` is set (the client sets it), the message names the URL sent, and says when the
 * base URL does not end with `/api/v2` (`docs/contract.md` §9): a base URL without it gets a 404
 * "route not found" on every call.
 *
 * @since 0.1.0
 * @category errors
 */
export class NotFound extends Schema.TaggedError<NotFound>("@dbplatform/core/NotFound")("NotFound", ResponseFields) {
  /**
   * Marks an error of the SDK: what {@link isDbPlatformError} tests.
   *
   * @since 0.2.0
   */
  readonly [TypeId]: TypeId = TypeId

  /** The method and path sent, the status, the server's message and request id, the URL sent. */
  override get message(): string {
    return responseMessage(this)
  }
}

/**
 * 409: conflict, e.g. the object already exists. Not safe to retry.
 *
 * @since 0.1.0
 * @category errors
 */
export class Conflict extends Schema.TaggedError<Conflict>("@dbplatform/core/Conflict")("Conflict", ResponseFields) {
  /**
   * Marks an error of the SDK: what {@link isDbPlatformError} tests.
   *
   * @since 0.2.0
   */
  readonly [TypeId]: TypeId = TypeId

  /** The method and path sent, the status, the server's message and request id, why retrying stopped. */
  override get message(): string {
    return responseMessage(this)
  }
}

/**
 * 406: the request is well formed but the server cannot answer it as asked, e.g. a consumption
 * history range longer than its granularity allows (`docs/contract.md` §23). Not safe to retry:
 * the same request gets the same answer.
 *
 * @since 0.5.0
 * @category errors
 */
export class NotAcceptable extends Schema.TaggedError<NotAcceptable>("@dbplatform/core/NotAcceptable")(
  "NotAcceptable",
  ResponseFields
) {
  /**
   * Marks an error of the SDK: what {@link isDbPlatformError} tests.
   *
   * @since 0.5.0
   */
  readonly [TypeId]: TypeId = TypeId

  /** The method and path sent, the status, the server's message and request id, why retrying stopped. */
  override get message(): string {
    return responseMessage(this)
  }
}

/**
 * 423: the resource is locked, e.g. by another operation in progress. The request was not
 * carried out: safe to retry with any method. `retryAfter` is the raw `Retry-After` header
 * (seconds or an HTTP date) when the server sent one.
 *
 * @since 0.1.0
 * @category errors
 */
export class Locked extends Schema.TaggedError<Locked>("@dbplatform/core/Locked")("Locked", RetryableFields) {
  /**
   * Marks an error of the SDK: what {@link isDbPlatformError} tests.
   *
   * @since 0.2.0
   */
  readonly [TypeId]: TypeId = TypeId

  /** The method and path sent, the status, the server's message and request id, why retrying stopped. */
  override get message(): string {
    return responseMessage(this)
  }
}

/**
 * 429: rate limited. The request was not carried out: safe to retry with any method.
 * `retryAfter` is the raw `Retry-After` header (seconds or an HTTP date) when the server sent
 * one. The contract sets no rate limit; the deployed API publishes about 700 requests a minute
 * per account with bursts of 40 a second per route (observed behaviour, §10.2). Any endpoint
 * may answer with it.
 *
 * @since 0.1.0
 * @category errors
 */
export class RateLimited extends Schema.TaggedError<RateLimited>("@dbplatform/core/RateLimited")(
  "RateLimited",
  RetryableFields
) {
  /**
   * Marks an error of the SDK: what {@link isDbPlatformError} tests.
   *
   * @since 0.2.0
   */
  readonly [TypeId]: TypeId = TypeId

  /** The method and path sent, the status, the server's message and request id, why retrying stopped. */
  override get message(): string {
    return responseMessage(this)
  }
}

/**
 * 500, 502, 504 or another 5xx but 503: a server or gateway error. The request may have been
 * carried out: safe to retry for GET only. Any endpoint may answer with it.
 *
 * @since 0.1.0
 * @category errors
 */
export class ServerError extends Schema.TaggedError<ServerError>("@dbplatform/core/ServerError")(
  "ServerError",
  ResponseFields
) {
  /**
   * Marks an error of the SDK: what {@link isDbPlatformError} tests.
   *
   * @since 0.2.0
   */
  readonly [TypeId]: TypeId = TypeId

  /** The method and path sent, the status, the server's message and request id, why retrying stopped. */
  override get message(): string {
    return responseMessage(this)
  }
}

/**
 * 503: unavailable; the request was not carried out: safe to retry with any method.
 * `retryAfter` is the raw `Retry-After` header when the server sent one. Any endpoint may answer
 * with it.
 *
 * @since 0.1.0
 * @category errors
 */
export class ServiceUnavailable extends Schema.TaggedError<ServiceUnavailable>("@dbplatform/core/ServiceUnavailable")(
  "ServiceUnavailable",
  RetryableFields
) {
  /**
   * Marks an error of the SDK: what {@link isDbPlatformError} tests.
   *
   * @since 0.2.0
   */
  readonly [TypeId]: TypeId = TypeId

  /** The method and path sent, the status, the server's message and request id, why retrying stopped. */
  override get message(): string {
    return responseMessage(this)
  }
}

/**
 * A status the endpoint does not answer with: a redirect, 418, or an error status that is not
 * among the endpoint's own nor among those every endpoint may answer with (e.g. a 409 from
 * `GET /api_keys`; a 404 is `NotFound` from every endpoint).
 *
 * @since 0.1.0
 * @category errors
 */
export class UnexpectedStatus extends Schema.TaggedError<UnexpectedStatus>("@dbplatform/core/UnexpectedStatus")(
  "UnexpectedStatus",
  ResponseFields
) {
  /**
   * Marks an error of the SDK: what {@link isDbPlatformError} tests.
   *
   * @since 0.2.0
   */
  readonly [TypeId]: TypeId = TypeId

  /** The method and path sent, the status, the server's message and request id, why retrying stopped. */
  override get message(): string {
    return responseMessage(this)
  }
}

/**
 * A success response the client cannot take as an answer: a body that is not JSON, does not
 * decode, or is larger than the client reads (`maxResponseBytes`); or one that decodes but
 * cannot be right: a page with more items than the `limit` sent, a cursor already followed in
 * the same walk (a server or proxy that would loop), an operation or key other than the one
 * asked for. Not retried. `description` names each offending path and what was expected
 * there; the body, and the values found in it, are not kept (a body may hold a created key's
 * value).
 *
 * @since 0.1.0
 * @category errors
 */
export class MalformedResponse extends Schema.TaggedError<MalformedResponse>("@dbplatform/core/MalformedResponse")(
  "MalformedResponse",
  {
    method: Schema.String,
    route: Schema.String,
    path: Schema.String,
    status: Schema.Int,
    description: Schema.String,
    requestId: Schema.optional(Schema.String)
  }
) {
  /**
   * Marks an error of the SDK: what {@link isDbPlatformError} tests.
   *
   * @since 0.2.0
   */
  readonly [TypeId]: TypeId = TypeId

  /**
   * The method and path sent, the status, what is wrong with the answer, and the request id.
   *
   * @since 0.2.0
   */
  override get message(): string {
    return `${requestLine(this)}: the ${this.status} answer cannot be used: ${this.description}${requestIdText(this.requestId)}`
  }
}

/**
 * No response: the connection failed, was dropped, or no response came within the request
 * timeout. Whether the server acted is unknown: safe to retry for GET only. `description` says
 * what happened; `cause` is the transport's error chain (its messages and codes, the API key
 * removed from them); `requestId` is the `X-Request-ID` the client sent, to quote to support.
 *
 * @since 0.1.0
 * @category errors
 */
export class TransportError extends Schema.TaggedError<TransportError>("@dbplatform/core/TransportError")(
  "TransportError",
  {
    method: Schema.String,
    route: Schema.String,
    path: Schema.String,
    description: Schema.String,
    requestId: Schema.optional(Schema.String),
    retryStop: Schema.optional(RetryStop),
    cause: Schema.optional(Schema.Defect)
  }
) {
  /**
   * Marks an error of the SDK: what {@link isDbPlatformError} tests.
   *
   * @since 0.2.0
   */
  readonly [TypeId]: TypeId = TypeId

  /**
   * The method and path sent, what happened instead of a response, the request id, and why
   * retrying stopped.
   *
   * @since 0.2.0
   */
  override get message(): string {
    return `${requestLine(this)}: no response: ${this.description}${requestIdText(this.requestId)}${retryText(this.retryStop)}`
  }
}

/**
 * Input refused before anything was sent (an empty key name, a `limit` out of range...).
 * `message` names the endpoint (its method and route template: no path was built), each
 * refused field and why.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidRequest extends Schema.TaggedError<InvalidRequest>("@dbplatform/core/InvalidRequest")(
  "InvalidRequest",
  { message: Schema.String }
) {
  /**
   * Marks an error of the SDK: what {@link isDbPlatformError} tests.
   *
   * @since 0.2.0
   */
  readonly [TypeId]: TypeId = TypeId
}

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
export class InvalidApiKey extends Schema.TaggedError<InvalidApiKey>("@dbplatform/core/InvalidApiKey")(
  "InvalidApiKey",
  { message: Schema.String }
) {
  /**
   * Marks an error of the SDK: what {@link isDbPlatformError} tests.
   *
   * @since 0.2.0
   */
  readonly [TypeId]: TypeId = TypeId
}

/**
 * A base URL the client cannot use: not an absolute `http:` or `https:` URL, or one holding a
 * user name or password, a query or a fragment. Those would go out with every request, and be
 * printed wherever a request is named (errors, logs), so the Layer refuses them when it is built,
 * before any request. `message` says what is wrong, and never holds the URL's user name,
 * password or query (e.g. "the base URL https://host/api/v2 holds a user name or password:
 * send credentials as the API key, not in the URL").
 *
 * @since 0.2.0
 * @category errors
 */
export class InvalidBaseUrl extends Schema.TaggedError<InvalidBaseUrl>("@dbplatform/core/InvalidBaseUrl")(
  "InvalidBaseUrl",
  { message: Schema.String }
) {
  /**
   * Marks an error of the SDK: what {@link isDbPlatformError} tests.
   *
   * @since 0.2.0
   */
  readonly [TypeId]: TypeId = TypeId
}

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
  | NotAcceptable

/**
 * Everything a call to the API can fail with.
 *
 * @since 0.1.0
 * @category errors
 */
export type ApiError = HttpStatusError | MalformedResponse | TransportError | InvalidRequest

/**
 * Every error of the SDK: {@link ApiError}, `InvalidApiKey`, `InvalidBaseUrl`, and the outcomes
 * of a wait (`OperationFailed`, `OperationStillPending`).
 *
 * @since 0.2.0
 * @category errors
 */
export type DbPlatformError = ApiError | InvalidApiKey | InvalidBaseUrl | OperationFailed | OperationStillPending

/**
 * Whether `u` is an error of the SDK (any {@link DbPlatformError}), by its {@link TypeId}.
 *
 * @example
 * ```ts
 * import { fromResponse, isDbPlatformError } from "@dbplatform/core"
 *
 * const error = fromResponse({ method: "GET", route: "/projects", path: "/projects", status: 401 })
 * console.log(isDbPlatformError(error), isDbPlatformError(new Error("other"))) // true false
 * ```
 *
 * @since 0.2.0
 * @category guards
 */
export const isDbPlatformError = (u: unknown): u is DbPlatformError => Predicate.hasProperty(u, TypeId)

/**
 * What is known of an error response when choosing its error.
 *
 * @since 0.1.0
 * @category constructors
 */
export interface ErrorResponse {
  readonly method: string
  /** The endpoint's path template, e.g. `/api_keys/{key_id}`. */
  readonly route: string
  /** The path sent, relative to the base URL, without query. */
  readonly path: string
  /**
   * The base URL the path was appended to (no credentials, query or fragment), when known: a
   * 404's message names the URL sent.
   */
  readonly baseUrl?: string | undefined
  readonly status: number
  /** The body's `code`, if the body was a `GeneralError`. */
  readonly code?: string | undefined
  /** The body's `message`, if the body was a `GeneralError`. */
  readonly message?: string | undefined
  /** The body's `request_id`, if it had one. */
  readonly requestId?: string | undefined
  /** The `Retry-After` header, if any. */
  readonly retryAfter?: string | undefined
  /** Why retrying stopped, when it did. */
  readonly retryStop?: RetryStop | undefined
}

/**
 * The typed error for an error response: the status decides the class, the body (when it
 * was a `GeneralError`) fills `code`, `description` and `requestId`. The message names the
 * request, the status and, when there was one, the server's message.
 *
 * @example
 * ```ts
 * import { fromResponse } from "@dbplatform/core"
 *
 * const error = fromResponse({ method: "GET", route: "/projects", path: "/projects", status: 429, retryAfter: "2" })
 * console.log(error._tag, error.message) // RateLimited GET /projects: 429 Too Many Requests
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromResponse = (response: ErrorResponse): HttpStatusError => {
  const { status } = response
  const fields = {
    method: response.method,
    route: response.route,
    path: response.path,
    ...(response.baseUrl !== undefined ? { baseUrl: response.baseUrl } : {}),
    status,
    ...(response.message !== undefined && response.message !== "" ? { description: response.message } : {}),
    ...(response.code !== undefined ? { code: response.code } : {}),
    ...(response.requestId !== undefined ? { requestId: response.requestId } : {}),
    ...(response.retryStop !== undefined ? { retryStop: response.retryStop } : {})
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
    case 406:
      return new NotAcceptable(fields)
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
