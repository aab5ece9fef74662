import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { DecodeIssue, Endpoint, Timestamp } from "@dbplatform/core"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { identity } from "effect/Function"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { readJsonBody } from "./limits.js"
import { firstCreatedBefore, type Store, type StoredKey } from "./state.js"
import { Status } from "./status.js"
import {
  apiKeyCreated,
  apiKeyListed,
  apiKeyRevoked,
  errorBody,
  operationEnvelope,
  operationsPage,
  projectsPage,
  withUndeclaredProjectFields,
  withUndeclaredSharedProjectFields
} from "./wire.js"

/** A refusal: answered with `status` and a `GeneralError` body (docs/contract.md §10.1). */
export class Refusal extends Data.TaggedError("Refusal")<{
  readonly status: number
  readonly message: string
  readonly code?: string
  /** Headers of the answer, e.g. `retry-after`. */
  readonly headers?: Readonly<Record<string, string>> | undefined
}> {}

/** SHA-256 of a key value, hex: all the fake keeps of a key. Synchronous, so `TestClock` drives the fake. */
export const hashKey = (value: string): string => bytesToHex(sha256(utf8ToBytes(value)))

/** A new key value: 32 random bytes as 64 hex characters. */
export const newKeyValue = (): string => bytesToHex(crypto.getRandomValues(new Uint8Array(32)))

/** A request's input that does not decode is a 400 saying why, in core's words (docs/contract.md §10.1, §10.2). */
const badRequest = (issue: ParseResult.ParseIssue) =>
  new Refusal({ status: Status.badRequest, message: DecodeIssue.format(issue) })

const orBadRequest = <A, R>(
  effect: Effect.Effect<A, ParseResult.ParseError | Refusal, R>
): Effect.Effect<A, Refusal, R> =>
  Effect.catchIf(effect, ParseResult.isParseError, (error) => Effect.fail(badRequest(error.issue)))

/**
 * The endpoints the fake serves, by name: core's table (`Endpoint`) unless a test passes one
 * with an endpoint changed (docs/design.md §1).
 */
export interface Table {
  readonly createApiKey: typeof Endpoint.createApiKey
  readonly listApiKeys: typeof Endpoint.listApiKeys
  readonly revokeApiKey: typeof Endpoint.revokeApiKey
  readonly listProjects: typeof Endpoint.listProjects
  readonly listOperations: typeof Endpoint.listOperations
  readonly getOperation: typeof Endpoint.getOperation
  readonly listSharedProjects: typeof Endpoint.listSharedProjects
}

/** A route template of the contract (`/api_keys/{key_id}`) as `HttpRouter` spells it (`/api_keys/:key_id`). */
export const routerPath = (route: string): HttpRouter.PathInput =>
  route.replace(/\{(\w+)\}/g, ":$1") as HttpRouter.PathInput

/** The decoded path parameters, query and body of a request to `E`. */
type Input<E> =
  E extends Endpoint.Endpoint<any, infer P, infer Q, infer B, any, any>
    ? { readonly params: P; readonly query: Q; readonly body: B }
    : never

/**
 * The route of `endpoint`: its method and route template, its path parameters, query and body
 * decoded with its schemas (400 when they do not decode), `handle`'s answer encoded with its
 * `success` schema, then passed to `undeclared` (fields core does not declare, see `wire.ts`).
 */
const route = <E extends Endpoint.Endpoint>(
  endpoint: E,
  handle: (input: Input<E>) => Effect.Effect<Endpoint.Success<E>, Refusal>,
  undeclared: (encoded: any) => unknown = identity
) =>
  HttpRouter.makeRoute(
    endpoint.method,
    routerPath(endpoint.route),
    Effect.gen(function* () {
      yield* (yield* Gate)(endpoint)
      const params =
        endpoint.params === undefined ? undefined : yield* orBadRequest(HttpRouter.schemaPathParams(endpoint.params))
      const query =
        endpoint.query === undefined
          ? undefined
          : yield* orBadRequest(HttpServerRequest.schemaSearchParams(endpoint.query))
      const body =
        endpoint.body === undefined
          ? undefined
          : yield* orBadRequest(
              Effect.flatMap(
                Effect.mapError(readJsonBody, (refused) => new Refusal(refused)),
                Schema.decodeUnknown(endpoint.body)
              )
            )
      const answer = yield* handle({ params, query, body } as Input<E>)
      // An answer core's schema cannot encode is a bug of the fake: a defect, answered 500.
      const encoded = yield* Effect.orDie(Schema.encode(endpoint.success)(answer))
      return HttpServerResponse.unsafeJson(undeclared(encoded))
    })
  )

/**
 * A cursor of the fake: the `created_at` of the last item of the previous page
 * (docs/contract.md §2.6, §10.5), as epoch ms.
 */
const CursorTime = Timestamp.annotations({
  message: () => ({ message: "cursor must be an RFC 3339 timestamp from a previous page", override: true })
})

const cursorTime = (cursor: string | undefined): Effect.Effect<number | undefined, Refusal> => {
  if (cursor === undefined) return Effect.succeed(undefined)
  const decoded = Schema.decodeUnknownEither(CursorTime)(cursor)
  return Either.isLeft(decoded)
    ? Effect.fail(badRequest(decoded.left.issue))
    : Effect.succeed(DateTime.toEpochMillis(decoded.right))
}

/**
 * A page of a newest-first list: the items after `cursor` (found by binary search), at most `limit` (the endpoint's
 * default when none is sent), and the cursor of the next page (the `created_at` of the last
 * item; on an empty page, the one sent, or now).
 */
const pageOf = <A extends { readonly created_at: number }>(
  endpoint: Endpoint.Endpoint,
  items: ReadonlyArray<A>,
  query: { readonly cursor?: string | undefined; readonly limit?: number | undefined },
  now: number
) =>
  Effect.map(cursorTime(query.cursor), (cursor) => {
    const limit = query.limit ?? endpoint.pageLimits?.default
    const start = cursor === undefined ? 0 : firstCreatedBefore(items, cursor)
    const page = items.slice(start, limit === undefined ? undefined : start + limit)
    return { page, next: page[page.length - 1]?.created_at ?? cursor ?? now }
  })

const notFound = (what: string) => new Refusal({ status: Status.notFound, message: `${what} not found` })

/** The operations of a known project, or a 404. */
const operationsOf = (store: Store, projectId: string) => {
  const operations = store.operations.get(projectId)
  return operations === undefined ? Effect.fail(notFound("project")) : Effect.succeed(operations)
}

/**
 * What a route runs first, with its endpoint, before reading anything of the request: the
 * fake's rate limit, which may refuse it. Lets everything through unless provided.
 */
export class Gate extends Context.Reference<Gate>()("@dbplatform/testing/internal/Gate", {
  defaultValue:
    () =>
    (_endpoint: Endpoint.Endpoint): Effect.Effect<void, Refusal> =>
      Effect.void
}) {}

/**
 * The routes of the control API v2 in scope, over `store`, under `/api/v2`: one per endpoint
 * of `table` (core's by default), routed, checked and answered as it declares
 * (docs/contract.md §4, docs/design.md §1); each runs the `Gate` first.
 */
export const router = (store: Store, table: Table = Endpoint) =>
  HttpRouter.fromIterable([
    route(table.createApiKey, ({ body }) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const value = newKeyValue()
        return apiKeyCreated(store.addKey(body.key_name, hashKey(value), now), value)
      })
    ),
    route(table.listApiKeys, () =>
      Effect.sync(() =>
        Array.from(store.keys.values())
          .filter((key) => !key.revoked)
          .map(apiKeyListed)
      )
    ),
    route(table.revokeApiKey, ({ params }) =>
      Effect.suspend(() => {
        const key = store.keys.get(params.key_id)
        return key === undefined || key.revoked
          ? Effect.fail(notFound("API key"))
          : Effect.succeed(apiKeyRevoked(store.revokeKey(key)))
      })
    ),
    route(
      table.listProjects,
      ({ query }) =>
        Effect.gen(function* () {
          const { org_id, search } = query
          // The account's own projects: those shared with it are listed by `GET /projects/shared` only (§10.6).
          const matching = store.projects.filter(
            (project) =>
              project.shared !== true &&
              (org_id === undefined || project.org_id === org_id) &&
              (search === undefined || project.id.includes(search) || project.name.includes(search))
          )
          // `timeout` is checked by the table and needs nothing more: the fake reads every project in time.
          const { page, next } = yield* pageOf(table.listProjects, matching, query, yield* Clock.currentTimeMillis)
          return projectsPage(page, next)
        }),
      withUndeclaredProjectFields
    ),
    route(
      table.listSharedProjects,
      ({ query }) =>
        Effect.gen(function* () {
          const { search } = query
          const matching = store.projects.filter(
            (project) =>
              project.shared === true &&
              (search === undefined || project.id.includes(search) || project.name.includes(search))
          )
          const { page, next } = yield* pageOf(
            table.listSharedProjects,
            matching,
            query,
            yield* Clock.currentTimeMillis
          )
          return projectsPage(page, next)
        }),
      withUndeclaredSharedProjectFields
    ),
    route(table.listOperations, ({ params, query }) =>
      Effect.gen(function* () {
        const operations = yield* operationsOf(store, params.project_id)
        const now = yield* Clock.currentTimeMillis
        const { page, next } = yield* pageOf(table.listOperations, operations, query, now)
        return operationsPage(page, next, now)
      })
    ),
    route(table.getOperation, ({ params }) =>
      Effect.gen(function* () {
        yield* operationsOf(store, params.project_id)
        const operation = store.operationsById.get(params.operation_id)
        if (operation === undefined || operation.project_id !== params.project_id) {
          return yield* notFound("operation")
        }
        return operationEnvelope(operation, yield* Clock.currentTimeMillis)
      })
    )
  ]).pipe(HttpRouter.prefixAll(Endpoint.basePath))

/**
 * Checks the bearer key on every request (§5): missing, unknown or revoked is a 401, and a
 * good key's `last_used_at` / `last_used_from_addr` are updated. Answers the key.
 */
export const authenticate = (store: Store): Effect.Effect<StoredKey, Refusal, HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const match = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? "")
    if (match === null)
      return yield* new Refusal({ status: Status.unauthorized, message: "a bearer API key is required" })
    const key = store.keysByHash.get(hashKey(match[1]!))
    if (key === undefined || key.revoked)
      return yield* new Refusal({ status: Status.unauthorized, message: "API key is not valid" })
    key.last_used_at = yield* Clock.currentTimeMillis
    key.last_used_from_addr = Option.getOrElse(request.remoteAddress, () => "")
    store.changed()
    return key
  })

/** The `GeneralError` response for a refusal, echoing `X-Request-ID` as `request_id`. */
export const refusalResponse = (refusal: Refusal) =>
  HttpServerRequest.HttpServerRequest.pipe(
    Effect.map((request) =>
      HttpServerResponse.unsafeJson(
        errorBody({ code: refusal.code, message: refusal.message, requestId: request.headers["x-request-id"] }),
        { status: refusal.status, ...(refusal.headers === undefined ? {} : { headers: refusal.headers }) }
      )
    )
  )
