import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"

/**
 * One request the fake served, as a test may assert it: method, path (with `/api/v2`), query,
 * every header (names lower-cased, credentials redacted) and the `_tag` of the fault it got,
 * if any.
 */
export interface RecordedRequest {
  readonly method: string
  readonly path: string
  readonly query: Readonly<Record<string, string>>
  /**
   * Every request header, names lower-cased, credentials redacted: `authorization` and
   * `proxy-authorization` keep their scheme only (`Bearer <redacted>`), `cookie` its names only
   * (`session=<redacted>`; some clients send the API key in a cookie too), `x-api-key`,
   * `api-key` and `x-auth-token` are `<redacted>`.
   */
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

/** `cookie` without its values: each cookie's name, and `<redacted>`. */
const redactCookie = (value: string): string =>
  value
    .split(";")
    .map((cookie) => cookie.trim())
    .filter((cookie) => cookie !== "")
    .map((cookie) => {
      const equals = cookie.indexOf("=")
      return equals < 0 ? "<redacted>" : `${cookie.slice(0, equals)}=<redacted>`
    })
    .join("; ")

/** The headers that carry credentials, and how each is kept. */
const redactions: ReadonlyMap<string, (value: string) => string> = new Map([
  ["authorization", redactAuthorization],
  ["proxy-authorization", redactAuthorization],
  ["cookie", redactCookie],
  ["x-api-key", () => "<redacted>"],
  ["api-key", () => "<redacted>"],
  ["x-auth-token", () => "<redacted>"]
])

/** The record of `request`, whose URL is `url`, that got the fault tagged `fault`. */
export const recordOf = (
  request: HttpServerRequest.HttpServerRequest,
  url: URL,
  fault: string | undefined
): RecordedRequest => {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(request.headers)) {
    const key = name.toLowerCase()
    const redact = redactions.get(key)
    headers[key] = redact === undefined ? value : redact(value)
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
