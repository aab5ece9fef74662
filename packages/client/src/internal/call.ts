import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { DecodeIssue, Endpoint, type HttpStatusError, InvalidRequest, UnexpectedStatus } from "@dbplatform/core"
import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { AttemptError } from "./retry.js"

/** The error statuses every endpoint may answer with, kept by their own class. */
const common: ReadonlySet<string> = new Set<HttpStatusError["_tag"]>([
  "Unauthorized",
  "RateLimited",
  "ServerError",
  "ServiceUnavailable",
  "UnexpectedStatus"
])

/** Input a schema refuses: an `InvalidRequest` naming each refused field (up to three) and why; nothing is sent. */
const invalid = (error: ParseResult.ParseError) => new InvalidRequest({ message: DecodeIssue.format(error.issue) })

/** Checks caller input with `schema`, decoding it: a failure is an `InvalidRequest`. */
export const validate = <A, I>(schema: Schema.Schema<A, I>, input: unknown): Effect.Effect<A, InvalidRequest> =>
  Effect.mapError(Schema.decodeUnknown(schema, { errors: "all" })(input), invalid)

/** `value` encoded with `schema` when the endpoint has one (a part left out is `{}`), else nothing. */
const encodePart = (schema: Schema.Schema<any, any> | undefined, value: unknown) =>
  schema === undefined ? Effect.succeed(undefined) : Schema.encodeUnknown(schema, { errors: "all" })(value ?? {})

/**
 * The `HttpClientRequest` of a call to `endpoint`: path parameters, query and body encoded with
 * the endpoint's schemas (`InvalidRequest` when they refuse the input), the path filled in and
 * URL-encoded, undefined query values left out, the body as JSON.
 */
export const toRequest = <E extends Endpoint.Endpoint>(
  endpoint: E,
  input: Endpoint.Input<E>
): Effect.Effect<HttpClientRequest.HttpClientRequest, InvalidRequest> => {
  // Every part of an `Input` is optional to read: one the endpoint has no schema for is absent.
  const given: { readonly params?: unknown; readonly query?: unknown; readonly body?: unknown } = input
  return Effect.all([
    encodePart(endpoint.params, given.params),
    encodePart(endpoint.query, given.query),
    encodePart(endpoint.body, given.body)
  ]).pipe(
    Effect.mapError(invalid),
    Effect.map(([params, query, body]) => {
      const request = HttpClientRequest.make(endpoint.method)(Endpoint.path(endpoint.route, params ?? {})).pipe(
        HttpClientRequest.setUrlParams(
          Object.entries((query ?? {}) as Record<string, string | undefined>).flatMap(([key, value]) =>
            value === undefined ? [] : [[key, value] as const]
          )
        )
      )
      return body === undefined ? request : HttpClientRequest.bodyUnsafeJson(request, body)
    })
  )
}

/**
 * An error status `endpoint` does not answer with becomes `UnexpectedStatus`, keeping status,
 * code, description, request id and why retrying stopped; other errors pass unchanged.
 */
export const narrow = <E>(endpoint: Endpoint.Endpoint, error: AttemptError | InvalidRequest): E => {
  if (
    error._tag === "InvalidRequest" ||
    error._tag === "MalformedResponse" ||
    error._tag === "TransportError" ||
    common.has(error._tag) ||
    (endpoint.errors as ReadonlyArray<string>).includes(error._tag)
  ) {
    return error as E
  }
  const { code, description, method, path, requestId, retryStop, route, status } = error
  return new UnexpectedStatus({
    method,
    route,
    path,
    status,
    ...(code === undefined ? {} : { code }),
    ...(description === undefined ? {} : { description }),
    ...(requestId === undefined ? {} : { requestId }),
    ...(retryStop === undefined ? {} : { retryStop })
  }) as E
}

/** `text` JSON-quoted, cut to 40 characters: how an error quotes a value a server sent. */
export const excerpt = (text: string): string => JSON.stringify(DecodeIssue.excerpt(text))
