import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"

/**
 * One request the fake served, as a test may assert it: method, path (with `/api/v2`), query,
 * every header (names lower-cased, `authorization` redacted) and the `_tag` of the fault it
 * got, if any.
 */
export interface RecordedRequest {
  readonly method: string
  readonly path: string
  readonly query: Readonly<Record<string, string>>
  /** Every request header, names lower-cased; `authorization` keeps its scheme only: `Bearer <redacted>`. */
  readonly headers: Readonly<Record<string, string>>
  /** The `_tag` of the fault this request got (`"Status"`, `"Delay"`, `"Hang"`, `"Drop"`, `"MalformedJson"`). */
  readonly fault?: string
}

/** How many requests the log keeps: the last 10 000. */
export const requestLogLimit = 10_000

/** `authorization` without its credentials: the scheme (`Bearer`) and `<redacted>`. */
const redactAuthorization = (value: string): string => {
  const scheme = /^(\S+)\s+\S/.exec(value.trim())
  return scheme === null ? "<redacted>" : `${scheme[1]} <redacted>`
}

/** The record of `request`, whose URL is `url`, that got the fault tagged `fault`. */
export const recordOf = (
  request: HttpServerRequest.HttpServerRequest,
  url: URL,
  fault: string | undefined
): RecordedRequest => {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(request.headers)) {
    const key = name.toLowerCase()
    headers[key] = key === "authorization" ? redactAuthorization(value) : value
  }
  return {
    method: request.method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers,
    ...(fault === undefined ? {} : { fault })
  }
}

/** The requests served so far, oldest first, the last {@link requestLogLimit} only. */
export class RequestLog {
  private readonly requests: Array<RecordedRequest> = []

  add(request: RecordedRequest): void {
    this.requests.push(request)
    if (this.requests.length > requestLogLimit) this.requests.shift()
  }

  /** Forgets every request logged so far. */
  clear(): void {
    this.requests.length = 0
  }

  all(): ReadonlyArray<RecordedRequest> {
    return this.requests.slice()
  }
}
