import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Clock from "effect/Clock"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { iso, keyListJson, keyRevokedJson, operationJson, projectJson, type Store } from "./store.js"

/** A refusal: answered with `status` and a `GeneralError` body (wire-facts "General"). */
export class Refusal extends Data.TaggedError("Refusal")<{
  readonly status: number
  readonly message: string
  readonly code?: string
}> {}

/** One request the fake served, as a test may assert it: no headers, so no secrets. */
export interface RecordedRequest {
  readonly method: string
  readonly path: string
  readonly query: Readonly<Record<string, string>>
}

const projectIdPattern = /^[a-z0-9-]{1,60}$/
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** SHA-256 of a key value, hex: all the fake keeps of a key. Synchronous, so `TestClock` drives the fake. */
export const hashKey = (value: string): string => bytesToHex(sha256(utf8ToBytes(value)))

/** A new key value: 32 random bytes as 64 hex characters. */
export const newKeyValue = (): string => bytesToHex(crypto.getRandomValues(new Uint8Array(32)))

const searchParams = (request: HttpServerRequest.HttpServerRequest) => new URL(request.url, "http://fake").searchParams

/** Reads `limit`: absent gives `fallback`; anything but an integer in 1..max is a 400. */
const readLimit = (params: URLSearchParams, max: number, fallback: number | undefined) => {
  const raw = params.get("limit")
  if (raw === null) return Effect.succeed(fallback)
  const limit = /^\d+$/.test(raw) ? Number(raw) : Number.NaN
  return limit >= 1 && limit <= max
    ? Effect.succeed(limit)
    : Effect.fail(new Refusal({ status: 400, message: `limit must be an integer from 1 to ${max}` }))
}

/** Reads `cursor`: a timestamp; items strictly older than it come next. */
const readCursor = (params: URLSearchParams) => {
  const raw = params.get("cursor")
  if (raw === null) return Effect.succeed(undefined)
  const at = Date.parse(raw)
  return Number.isNaN(at)
    ? Effect.fail(new Refusal({ status: 400, message: "cursor is not a valid timestamp" }))
    : Effect.succeed(at)
}

/**
 * A page of a newest-first list: the items after `cursor`, at most `limit`, and the cursor
 * of the next page (the `created_at` of the last item; on an empty page, the one sent).
 */
const pageOf = <A extends { readonly created_at: number }>(
  items: ReadonlyArray<A>,
  cursor: number | undefined,
  limit: number | undefined,
  now: number
) => {
  let start = 0
  if (cursor !== undefined) {
    start = items.findIndex((item) => item.created_at < cursor)
    if (start < 0) start = items.length
  }
  const page = items.slice(start, limit === undefined ? undefined : start + limit)
  const last = page[page.length - 1]
  return { page, cursor: iso(last?.created_at ?? cursor ?? now) }
}

const param = (name: string) => HttpRouter.params.pipe(Effect.map((params) => params[name] ?? ""))

/** The routes of the control API v2 in scope, over `store`, under `/api/v2`. */
export const router = (store: Store) =>
  HttpRouter.empty.pipe(
    HttpRouter.post(
      "/api_keys",
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const body = yield* request.json.pipe(
          Effect.mapError(() => new Refusal({ status: 400, message: "request body is not valid JSON" }))
        )
        const name =
          typeof body === "object" && body !== null && "key_name" in body && typeof body.key_name === "string"
            ? body.key_name.trim()
            : undefined
        if (name === undefined) return yield* new Refusal({ status: 400, message: "key_name is required" })
        if (name.length === 0) return yield* new Refusal({ status: 400, message: "key_name must not be empty" })
        if (name.length > 64) return yield* new Refusal({ status: 400, message: "key_name is at most 64 characters" })
        const value = newKeyValue()
        const key = store.addKey(name, hashKey(value), yield* Clock.currentTimeMillis)
        return HttpServerResponse.unsafeJson({
          id: key.id,
          key: value,
          name: key.name,
          created_at: iso(key.created_at),
          created_by: keyRevokedJson(key).created_by
        })
      })
    ),
    HttpRouter.get(
      "/api_keys",
      Effect.sync(() =>
        HttpServerResponse.unsafeJson(
          Array.from(store.keys.values())
            .filter((key) => !key.revoked)
            .map(keyListJson)
        )
      )
    ),
    HttpRouter.del(
      "/api_keys/:key_id",
      Effect.gen(function* () {
        const raw = yield* param("key_id")
        if (!/^\d{1,18}$/.test(raw)) return yield* new Refusal({ status: 400, message: "key_id must be an integer" })
        const key = store.keys.get(Number(raw))
        if (key === undefined || key.revoked) return yield* new Refusal({ status: 404, message: "API key not found" })
        key.revoked = true
        return HttpServerResponse.unsafeJson(keyRevokedJson(key))
      })
    ),
    HttpRouter.get(
      "/projects",
      Effect.gen(function* () {
        const params = searchParams(yield* HttpServerRequest.HttpServerRequest)
        const limit = yield* readLimit(params, 400, 10)
        const cursor = yield* readCursor(params)
        const search = params.get("search")
        const matching =
          search === null
            ? store.projects
            : store.projects.filter((p) => p.id.includes(search) || p.name.includes(search))
        const { page, cursor: next } = pageOf(matching, cursor, limit, yield* Clock.currentTimeMillis)
        return HttpServerResponse.unsafeJson({
          projects: page.map(projectJson),
          pagination: { cursor: next },
          applications: {},
          integrations: {}
        })
      })
    ),
    HttpRouter.get(
      "/projects/:project_id/operations",
      Effect.gen(function* () {
        const operations = yield* projectOperations(store)
        const params = searchParams(yield* HttpServerRequest.HttpServerRequest)
        const limit = yield* readLimit(params, 1000, undefined)
        const cursor = yield* readCursor(params)
        const now = yield* Clock.currentTimeMillis
        const { page, cursor: next } = pageOf(operations, cursor, limit, now)
        return HttpServerResponse.unsafeJson({
          operations: page.map((operation) => operationJson(operation, now)),
          pagination: { cursor: next }
        })
      })
    ),
    HttpRouter.get(
      "/projects/:project_id/operations/:operation_id",
      Effect.gen(function* () {
        const operations = yield* projectOperations(store)
        const id = yield* param("operation_id")
        if (!uuidPattern.test(id)) return yield* new Refusal({ status: 400, message: "operation_id must be a UUID" })
        const operation = operations.find((candidate) => candidate.id === id)
        if (operation === undefined) return yield* new Refusal({ status: 404, message: "operation not found" })
        return HttpServerResponse.unsafeJson({ operation: operationJson(operation, yield* Clock.currentTimeMillis) })
      })
    ),
    HttpRouter.prefixAll("/api/v2")
  )

const projectOperations = (store: Store) =>
  Effect.gen(function* () {
    const id = yield* param("project_id")
    if (!projectIdPattern.test(id)) return yield* new Refusal({ status: 400, message: "project_id is not a valid id" })
    const operations = store.operations.get(id)
    if (operations === undefined) return yield* new Refusal({ status: 404, message: "project not found" })
    return operations
  })

/**
 * Checks the bearer key on every request (§5): missing, unknown or revoked is a 401, and a
 * good key's `last_used_at` / `last_used_from_addr` are updated.
 */
export const authenticate = (store: Store) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const match = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? "")
    if (match === null) return yield* new Refusal({ status: 401, message: "authorization header is missing" })
    const key = store.keysByHash.get(hashKey(match[1]!))
    if (key === undefined || key.revoked) return yield* new Refusal({ status: 401, message: "API key is not valid" })
    key.last_used_at = yield* Clock.currentTimeMillis
    key.last_used_from_addr = Option.getOrElse(request.remoteAddress, () => "")
  })

/** The `GeneralError` response for a refusal, echoing `X-Request-ID` as `request_id`. */
export const refusalResponse = (refusal: Refusal) =>
  HttpServerRequest.HttpServerRequest.pipe(
    Effect.map((request) =>
      HttpServerResponse.unsafeJson(
        {
          code: refusal.code ?? "",
          message: refusal.message,
          request_id: request.headers["x-request-id"] ?? crypto.randomUUID()
        },
        { status: refusal.status }
      )
    )
  )
