import type * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { fromResponse, GeneralError, type HttpStatusError, MalformedResponse, TransportError } from "@dbplatform/core"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

const decodeGeneralError = Schema.decodeUnknownOption(Schema.parseJson(GeneralError))

/** The request line an error names: method and path relative to the base URL, no query. */
export const describe = (request: HttpClientRequest.HttpClientRequest) => ({
  method: request.method,
  path: request.url
})

/** A request that got no response becomes a `TransportError` (wire-facts: retry GET only). */
export const transportError =
  (request: HttpClientRequest.HttpClientRequest, requestId: string) =>
  (error: HttpClientError.HttpClientError): TransportError =>
    new TransportError({ ...describe(request), message: [error.message, ...causes(error.cause)].join(": "), requestId })

/** A request not sent at all: the call's deadline passed first (waiting for the rate limiter). */
export const deadlinePassed = (request: HttpClientRequest.HttpClientRequest, requestId: string): TransportError =>
  new TransportError({
    ...describe(request),
    message: "not sent: the call's deadline passed while it waited for the rate limiter",
    requestId
  })

/** A request that got no full response within `timeout`, and was aborted. */
export const timeoutError = (
  request: HttpClientRequest.HttpClientRequest,
  requestId: string,
  timeout: Duration.Duration
): TransportError =>
  new TransportError({
    ...describe(request),
    message: `no response within ${Duration.format(timeout)}; the request was aborted`,
    requestId
  })

/** The messages and codes down a cause chain (e.g. `fetch failed: connect ECONNREFUSED`). */
const causes = (cause: unknown, depth = 0): Array<string> => {
  if (depth > 4 || typeof cause !== "object" || cause === null) return []
  const message = "message" in cause && typeof cause.message === "string" ? cause.message : undefined
  const code = "code" in cause && typeof cause.code === "string" ? cause.code : undefined
  const here = message ?? code
  return [...(here === undefined ? [] : [here]), ...causes("cause" in cause ? cause.cause : undefined, depth + 1)]
}

/**
 * A non-2xx response becomes its typed error, whatever the body: a `GeneralError` fills
 * `code`, `message` and `requestId`; an empty, text or HTML body leaves the status alone to
 * decide. Without a `request_id` in the body, the response's `X-Request-ID` header or else the
 * id the client sent (`requestId`) is kept.
 */
export const statusError = (
  request: HttpClientRequest.HttpClientRequest,
  response: HttpClientResponse.HttpClientResponse,
  requestId: string
): Effect.Effect<never, HttpStatusError> =>
  response.text.pipe(
    Effect.orElseSucceed(() => ""),
    Effect.flatMap((text) => {
      const body = Option.getOrUndefined(decodeGeneralError(text))
      return Effect.fail(
        fromResponse({
          ...describe(request),
          status: response.status,
          code: body?.code,
          message: body?.message,
          requestId: body?.request_id ?? response.headers["x-request-id"] ?? requestId,
          retryAfter: response.headers["retry-after"]
        })
      )
    })
  )

/**
 * What is wrong with a body: one issue per path, with what was expected there. The value found
 * (the formatter's `actual …`) is left out: a body may hold a secret, a created key's value,
 * that must not reach an error message.
 */
const issues = (error: ParseResult.ParseError): string => {
  const byPath = new Map<string, string>()
  for (const issue of ParseResult.ArrayFormatter.formatErrorSync(error)) {
    const path = issue.path.length === 0 ? "body" : issue.path.map((key) => `[${JSON.stringify(key)}]`).join("")
    if (!byPath.has(path)) byPath.set(path, issue.message.replace(/, actual [\s\S]*$/, ""))
  }
  return Array.from(byPath, ([path, message]) => `${path} ${message}`).join("; ")
}

/**
 * A 2xx response's JSON body decoded with `schema`; a body that is not JSON or not of the
 * shape becomes a `MalformedResponse` saying what was wrong and where.
 */
export const decodeBody = <A, I, R>(
  request: HttpClientRequest.HttpClientRequest,
  response: HttpClientResponse.HttpClientResponse,
  schema: Schema.Schema<A, I, R>
): Effect.Effect<A, MalformedResponse, R> => {
  const malformed = (message: string) =>
    new MalformedResponse({ ...describe(request), status: response.status, message })
  return response.json.pipe(
    Effect.mapError(() => malformed(`the ${response.status} response body is not JSON`)),
    Effect.flatMap(Schema.decodeUnknown(schema, { errors: "all" })),
    Effect.catchIf(ParseResult.isParseError, (error) =>
      Effect.fail(malformed(`the ${response.status} response body does not match: ${issues(error)}`))
    )
  )
}
