import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { type HttpStatusError, MalformedResponse, UnexpectedStatus } from "@dbplatform/core"
import type { AttemptError } from "./retry.js"

/** An error status an endpoint may answer with beyond those of every call. */
export type ExpectedError = Exclude<HttpStatusError["_tag"], CommonStatusError>

type CommonStatusError = "Unauthorized" | "RateLimited" | "ServerError" | "ServiceUnavailable" | "UnexpectedStatus"

const common: ReadonlySet<string> = new Set<CommonStatusError>([
  "Unauthorized",
  "RateLimited",
  "ServerError",
  "ServiceUnavailable",
  "UnexpectedStatus"
])

/**
 * One request to the API: its method, its route template relative to the base URL (e.g.
 * `/projects/{project_id}/operations`, also the span's name), the values of the template's
 * parameters (URL-encoded when sent), query parameters (undefined ones left out), a JSON body,
 * and the error statuses of this endpoint beyond those of every call (`errors`, may be empty).
 */
export interface Call<E extends ExpectedError = never> {
  readonly method: "GET" | "POST" | "DELETE"
  readonly route: string
  readonly params?: Readonly<Record<string, string | number>> | undefined
  readonly query?: Readonly<Record<string, string | number | undefined>> | undefined
  readonly body?: unknown
  readonly errors: ReadonlyArray<E>
}

/** The statuses `call` maps to their own error: those of every call and its `errors`. */
export const expected = (call: Call<ExpectedError>): ReadonlySet<string> =>
  call.errors.length === 0 ? common : new Set([...common, ...call.errors])

/** The `HttpClientRequest` of `call`, its path parameters filled in and URL-encoded. */
export const toRequest = (call: Call<ExpectedError>): HttpClientRequest.HttpClientRequest => {
  const params = call.params ?? {}
  const path = call.route.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined) throw new Error(`no value for {${name}} in ${call.route}`)
    return encodeURIComponent(String(value))
  })
  const query = Object.entries(call.query ?? {}).flatMap(([key, value]) =>
    value === undefined ? [] : [[key, String(value)] as const]
  )
  const request = HttpClientRequest.make(call.method)(path).pipe(HttpClientRequest.setUrlParams(query))
  return call.body === undefined ? request : HttpClientRequest.bodyUnsafeJson(request, call.body)
}

/**
 * An error status the call does not expect becomes `UnexpectedStatus`, keeping status, code,
 * message and request id; other errors pass unchanged.
 */
export const narrow = <E>(error: AttemptError, statuses: ReadonlySet<string>): E => {
  if (error._tag === "MalformedResponse" || error._tag === "TransportError" || statuses.has(error._tag)) {
    return error as E
  }
  return new UnexpectedStatus({
    method: error.method,
    path: error.path,
    status: error.status,
    message: error.message,
    ...(error.code !== undefined ? { code: error.code } : {}),
    ...(error.requestId !== undefined ? { requestId: error.requestId } : {})
  }) as E
}

/**
 * A success answer to `call` that decoded but cannot be right: a page longer than the `limit`
 * sent, a cursor already followed, an operation of another id or project.
 */
export const malformedAnswer = (call: Call<ExpectedError>, message: string): MalformedResponse =>
  new MalformedResponse({ method: call.method, path: toRequest(call).url, status: 200, message })

/** `text` JSON-quoted, cut to 40 characters: how an error quotes a value a server sent. */
export const excerpt = (text: string): string => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)
