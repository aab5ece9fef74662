import type * as Headers from "@effect/platform/Headers"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { DecodeIssue, Endpoint, type HttpStatusError, InvalidRequest, UnexpectedStatus } from "@dbplatform/core"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as SchemaAST from "effect/SchemaAST"
import type { AttemptError } from "./retry.js"

/**
 * The error statuses every endpoint may answer with, kept by their own class: 401, 404 (a wrong
 * base URL, a proxy or a route the server lacks answer it on any endpoint), 429 and 5xx
 * (`docs/design.md` §1.6).
 */
const common: ReadonlySet<string> = new Set<HttpStatusError["_tag"]>([
  "Unauthorized",
  "NotFound",
  "RateLimited",
  "ServerError",
  "ServiceUnavailable",
  "UnexpectedStatus"
])

/**
 * Input a schema refuses: an `InvalidRequest` naming the call and each refused field (up to
 * three) and why, e.g. `GET /projects/{project_id}/operations: limit: must be an integer from 1
 * to 1000`; nothing is sent.
 */
const invalid = (endpoint: Endpoint.Endpoint) => (error: ParseResult.ParseError) =>
  new InvalidRequest({ message: `${endpoint.method} ${endpoint.route}: ${DecodeIssue.format(error.issue)}` })

/**
 * `error`, the refusal of `input` to `endpoint` by a client with no organization of its own
 * (`orgId`), saying where an organization comes from when the endpoint's query requires an
 * `org_id` the input lacks (the consumption history): `GET /consumption_history/v2/projects:
 * org_id: is missing; name the organization (org_id) in the call, or give the client one (orgId,
 * DBPLATFORM_ORG_ID for layerConfig)`. Only on the way to a refusal: a call sent costs nothing.
 */
export const withoutOrganization = (
  endpoint: Endpoint.Endpoint,
  input: unknown,
  error: InvalidRequest
): InvalidRequest => {
  if (endpoint.parts.get("org_id") !== "query" || endpoint.query === undefined) return error
  if ((input as { readonly org_id?: unknown } | undefined)?.org_id !== undefined) return error
  const orgId = SchemaAST.getPropertySignatures(endpoint.query.ast).find(({ name }) => name === "org_id")
  return orgId === undefined || orgId.isOptional
    ? error
    : new InvalidRequest({
        message: `${error.message}; name the organization (org_id) in the call, or give the client one (orgId, DBPLATFORM_ORG_ID for layerConfig)`
      })
}

/** A request ready to send, and its path relative to the base URL (what its errors name). */
export interface Unsent {
  readonly path: string
  readonly request: HttpClientRequest.HttpClientRequest
}

/**
 * The `HttpClientRequest` of a call to `endpoint`, sent to `baseUrl` with `headers`: path
 * parameters, query and body encoded with the endpoint's schemas (`Endpoint.encode`;
 * `InvalidRequest` when they refuse the input), the body as JSON, or as `multipart/form-data`
 * for an endpoint whose `bodyEncoding` says so ({@link formData}). Synchronous: an `Either`.
 */
export const toRequest = <E extends Endpoint.Endpoint>(
  endpoint: E,
  input: Endpoint.Input<E>,
  baseUrl: string,
  headers: Headers.Input
): Either.Either<Unsent, InvalidRequest> =>
  Either.mapBoth(Endpoint.encode(endpoint, input), {
    onLeft: invalid(endpoint),
    onRight: ({ body, path, query }) => {
      const request = HttpClientRequest.make(endpoint.method)(baseUrl + path, { urlParams: query, headers })
      if (body === undefined) return { path, request }
      return {
        path,
        request:
          endpoint.bodyEncoding === "multipart"
            ? HttpClientRequest.bodyFormData(request, formData(body as Readonly<Record<string, unknown>>))
            : HttpClientRequest.bodyUnsafeJson(request, body)
      }
    }
  })

/**
 * The parts of a `multipart/form-data` body from its encoded fields (`docs/design.md` §1.7):
 * bytes a file part named as its field (`application/octet-stream`), any other value a text part
 * (a string as it is, else its JSON). The platform's `fetch` writes the boundary.
 */
const formData = (fields: Readonly<Record<string, unknown>>): FormData => {
  const data = new FormData()
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue
    if (value instanceof Uint8Array) {
      data.append(key, new Blob([new Uint8Array(value)], { type: "application/octet-stream" }), key)
    } else {
      data.append(key, typeof value === "string" ? value : JSON.stringify(value))
    }
  }
  return data
}

/**
 * An error status `endpoint` does not answer with, and that is not one every endpoint may answer
 * with (`common`), becomes `UnexpectedStatus`, keeping status, code, description, request id and
 * why retrying stopped; other errors pass unchanged. So a 404 is `NotFound` on every endpoint.
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
  const { baseUrl, code, description, method, path, requestId, retryStop, route, status } = error
  return new UnexpectedStatus({
    method,
    route,
    path,
    ...(baseUrl === undefined ? {} : { baseUrl }),
    status,
    ...(code === undefined ? {} : { code }),
    ...(description === undefined ? {} : { description }),
    ...(requestId === undefined ? {} : { requestId }),
    ...(retryStop === undefined ? {} : { retryStop })
  }) as E
}

/** `text` JSON-quoted, cut to 40 characters: how an error quotes a value a server sent. */
export const excerpt = (text: string): string => JSON.stringify(DecodeIssue.excerpt(text))
