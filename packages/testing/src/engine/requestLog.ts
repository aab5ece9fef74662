import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Ref from "effect/Ref"

/**
 * One request the fake served, as a test may assert it: method, path (with `/api/v2`; credentials
 * redacted), query (credentials redacted), every header (names lower-cased, credentials redacted)
 * and the `_tag` of the fault it got, if any.
 */
export interface RecordedRequest {
  readonly method: string
  /**
   * The path as sent (percent-encoded), each segment that is a credential `<redacted>`: one that
   * {@link looksLikeCredential}, or one the fake knows as a secret (an API key of its account).
   */
  readonly path: string
  /**
   * The query's parameters, decoded (the last value of a repeated name), credentials redacted:
   * the value of a parameter named like a credential ({@link isCredentialName}: `api_key`,
   * `token`, `password`, ...) is `<redacted>`.
   */
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

/** The words of a parameter name that make it a credential's, whatever their case. */
const credentialWords: ReadonlySet<string> = new Set([
  "key",
  "apikey",
  "token",
  "secret",
  "password",
  "passwd",
  "pwd",
  "pass",
  "auth",
  "authorization",
  "credential",
  "credentials",
  "signature",
  "sig",
  "session",
  "sessionid",
  "jwt",
  "bearer",
  "cookie"
])

/** Endings of a parameter name, lower-cased, that make it a credential's (`refreshtoken`, `clientsecret`). */
const credentialEndings: ReadonlyArray<string> = ["apikey", "token", "secret", "password", "passwd"]

/**
 * Whether a query parameter named `name` carries a credential, so that the log keeps
 * `<redacted>` in place of its value: one of its words (split at `_`, `-`, `.`, other
 * non-alphanumerics and lower-to-upper case changes, then lower-cased) is a credential's (`key`,
 * `token`, `password`, `secret`, `auth`, `authorization`, `signature`, `session`, ...), or it
 * ends with one (`apikey`, `token`, `secret`, `password`). So `api_key`, `apiKey`, `X-API-KEY`,
 * `access_token`, `refreshtoken`, `Password`, `client_secret` are; `limit`, `cursor`, `search`,
 * `org_id`, `database_name` are not.
 */
export const isCredentialName = (name: string): boolean => {
  const lower = name.toLowerCase()
  if (credentialEndings.some((ending) => lower.endsWith(ending))) return true
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .some((word) => credentialWords.has(word))
}

/** A JSON Web Token: three base64url parts joined by `.`, the first an encoded `{"`. */
const jsonWebToken = /^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/

/**
 * An opaque token: 32 or more letters and digits, with at least one of each, after an optional
 * prefix of lower-case words each ending in `_` (`ssk_`, `napi_`, `sk_live_`).
 */
const opaqueToken = /^(?:[a-z]+_)*(?=[A-Za-z0-9]*[0-9])(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{32,}$/

/**
 * Whether a path segment (decoded) looks like a credential, so that the log keeps `<redacted>` in
 * its place: a JSON Web Token (`eyJ...`, three parts joined by `.`), or an opaque token of 32 or
 * more letters and digits, with both, maybe after a prefix such as `ssk_` or `napi_` (the fake's
 * API keys, 64 hex digits; a branch auth's `pck_` and `ssk_` keys). The API's ids are not: words
 * and digits joined by `-` (`br-wispy-meadow-118737`, `ep-proud-mud-a5x8dq2u`), UUIDs, numbers,
 * and names shorter than 32 characters (a longer name of letters and digits only is kept
 * `<redacted>` too).
 */
export const looksLikeCredential = (segment: string): boolean =>
  segment.length >= 32 && (opaqueToken.test(segment) || jsonWebToken.test(segment))

/** `segment` percent-decoded, or as it is when it does not decode. */
const decodedSegment = (segment: string): string => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/**
 * The path of `url`, each segment that is a credential `<redacted>`: it {@link looksLikeCredential}
 * or `isSecret` says so (both given the segment decoded), as a query parameter named like a
 * credential is. A caller who puts a key in the path (`GET /projects/<key>`) does not leave it in the log.
 */
const pathOf = (url: URL, isSecret: (segment: string) => boolean): string =>
  url.pathname
    .split("/")
    .map((segment) => {
      if (segment === "") return segment
      const decoded = decodedSegment(segment)
      return looksLikeCredential(decoded) || isSecret(decoded) ? "<redacted>" : segment
    })
    .join("/")

/** The query of `url`, decoded, each credential's value (see {@link isCredentialName}) `<redacted>`. */
const queryOf = (url: URL): Record<string, string> => {
  const query: Record<string, string> = {}
  for (const [name, value] of url.searchParams) query[name] = isCredentialName(name) ? "<redacted>" : value
  return query
}

/**
 * The record of `request`, whose URL is `url`, that got the fault tagged `fault`; `isSecret` says
 * which path segments (decoded) the fake knows as secrets (none by default).
 */
export const recordOf = (
  request: HttpServerRequest.HttpServerRequest,
  url: URL,
  fault: string | undefined,
  isSecret: (segment: string) => boolean = () => false
): RecordedRequest => {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(request.headers)) {
    const key = name.toLowerCase()
    const redact = redactions.get(key)
    headers[key] = redact === undefined ? value : redact(value)
  }
  return {
    method: request.method,
    path: pathOf(url, isSecret),
    query: queryOf(url),
    headers,
    ...(fault === undefined ? {} : { fault })
  }
}

/** The requests served so far, oldest first, the last {@link requestLogLimit} only. */
export interface RequestLog {
  /** Adds `request` as the newest, forgetting the oldest past {@link requestLogLimit}. */
  readonly add: (request: RecordedRequest) => Effect.Effect<void>
  /** Forgets every request logged so far. */
  readonly clear: Effect.Effect<void>
  /** The requests logged, oldest first. */
  readonly all: Effect.Effect<ReadonlyArray<RecordedRequest>>
}

/** A new, empty {@link RequestLog}, its requests in a `Ref`. */
export const makeRequestLog: Effect.Effect<RequestLog> = Effect.map(
  Ref.make(Chunk.empty<RecordedRequest>()),
  (ref) => ({
    add: (request) =>
      Ref.update(ref, (requests) => {
        const added = Chunk.append(requests, request)
        return Chunk.size(added) > requestLogLimit ? Chunk.drop(added, Chunk.size(added) - requestLogLimit) : added
      }),
    clear: Ref.set(ref, Chunk.empty()),
    all: Effect.map(Ref.get(ref), Chunk.toArray)
  })
)
