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
import * as Ref from "effect/Ref"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import {
  type BranchChange,
  branchesPageOf,
  branchOf,
  createBranch,
  deleteBranch,
  endpointsOfBranch,
  matchingBranches,
  projectOf,
  restoreBranch,
  setDefaultBranch,
  updateBranch
} from "./branches.js"
import { randomDice } from "./ids.js"
import { type Change, type Kind, upsert } from "./kinds.js"
import { readJsonBody, type Refused } from "./limits.js"
import {
  type FakeState,
  get,
  itemsBefore,
  itemsOf,
  type Mutation,
  mutate,
  mutateUnrecorded,
  type State,
  type StoredKey,
  take
} from "./state.js"
import { Status } from "./status.js"
import {
  apiKeyCreated,
  apiKeyListed,
  apiKeyRevoked,
  branchCreated,
  branchEnvelope,
  branchesCount,
  branchesPage,
  branchOperations,
  computeEndpoints,
  errorBody,
  operationEnvelope,
  operationsPage,
  projectsPage,
  withBranchAnnotation,
  withBranchAnnotations,
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

/** A new key named `name` with the hash `hash`, created at `now`: the account's next key id. */
export const keyAdded = (
  state: State,
  name: string,
  hash: string,
  now: number
): { readonly changes: ReadonlyArray<Change>; readonly key: StoredKey } => {
  const key: StoredKey = {
    id: state.next_key_id,
    name,
    hash,
    created_at: now,
    revoked: false,
    last_used_at: null,
    last_used_from_addr: ""
  }
  return { changes: [upsert("api_keys", key)], key }
}

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
  readonly listBranches: typeof Endpoint.listBranches
  readonly countBranches: typeof Endpoint.countBranches
  readonly createBranch: typeof Endpoint.createBranch
  readonly getBranch: typeof Endpoint.getBranch
  readonly updateBranch: typeof Endpoint.updateBranch
  readonly deleteBranch: typeof Endpoint.deleteBranch
  readonly restoreBranch: typeof Endpoint.restoreBranch
  readonly setDefaultBranch: typeof Endpoint.setDefaultBranch
  readonly listBranchEndpoints: typeof Endpoint.listBranchEndpoints
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
 * The answer goes out with the first success status the endpoint declares (201 for a create);
 * one that encodes to nothing, with 204 and no body (docs/contract.md §11.4).
 */
const route = <E extends Endpoint.Endpoint>(
  endpoint: E,
  handle: (input: Input<E>) => Effect.Effect<Endpoint.Success<E>, Refusal>,
  undeclared: (encoded: any) => unknown = identity
) => {
  const readBody =
    endpoint.body === undefined
      ? undefined
      : Effect.flatMap(
          Effect.mapError(
            jsonBody(Schema.is(Schema.encodedSchema(endpoint.body))({})),
            (refused) => new Refusal(refused)
          ),
          Schema.decodeUnknown(endpoint.body)
        )
  return HttpRouter.makeRoute(
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
      const body = readBody === undefined ? undefined : yield* orBadRequest(readBody)
      const answer = yield* handle({ params, query, body } as Input<E>)
      // An answer core's schema cannot encode is a bug of the fake: a defect, answered 500.
      const encoded = yield* Effect.orDie(Schema.encode(endpoint.success)(answer))
      return encoded === undefined
        ? HttpServerResponse.empty({ status: 204 })
        : HttpServerResponse.unsafeJson(undeclared(encoded), { status: endpoint.statuses[0] })
    })
  )
}

/**
 * The request's JSON body; for an endpoint whose body is all optional (`acceptsEmpty`), as
 * `POST /projects/{project_id}/branches`, a request without one (no `Content-Type`, and no
 * `Content-Length` or one of 0) reads as `{}` (docs/contract.md §11.4).
 */
const jsonBody = (acceptsEmpty: boolean) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const length = request.headers["content-length"]
    const none = request.headers["content-type"] === undefined && (length === undefined || length === "0")
    return acceptsEmpty && none ? Effect.succeed({}) : readJsonBody
  })

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
 * A page of the items of `kind` of `parentId` (newest first) that `keep` keeps: those after
 * `cursor` (found in the tree, not by a scan), at most `limit` (the endpoint's default when none
 * is sent), and the cursor of the next page (the `created_at` of the last item; on an empty
 * page, the one sent, or now).
 */
const pageOf = <K extends Kind>(
  endpoint: Endpoint.Endpoint,
  state: State,
  kind: K,
  parentId: string,
  query: { readonly cursor?: string | undefined; readonly limit?: number | undefined },
  now: number,
  keep?: (item: ReturnType<typeof itemsOf<K>> extends Iterable<infer A> ? A : never) => boolean
) =>
  Effect.map(cursorTime(query.cursor), (cursor) => {
    const page = take(itemsBefore(state, kind, parentId, cursor), query.limit ?? endpoint.pageLimits?.default, keep)
    const last = page[page.length - 1] as { readonly created_at: number } | undefined
    return { page, next: last?.created_at ?? cursor ?? now }
  })

/** Whether `search` (absent: anything) is part of the project's id or name. */
const matches = (project: { readonly id: string; readonly name: string }, search: string | undefined) =>
  search === undefined || project.id.includes(search) || project.name.includes(search)

const notFound = (what: string) => new Refusal({ status: Status.notFound, message: `${what} not found` })

/** Runs a branch mutation (`branches.ts`); its refusal is answered with its status and a `GeneralError`. */
const mutateBranches = <A>(fake: FakeState, mutation: Mutation<A, Refused>) =>
  Effect.mapError(mutate(fake, mutation), (refused) => new Refusal(refused))

/** A read of the state now (`branches.ts`) that may be refused. */
const read = <A>(fake: FakeState, query: (state: State, now: number) => Either.Either<A, Refused>) =>
  Effect.flatMap(Effect.zip(Ref.get(fake.ref), Clock.currentTimeMillis), ([state, now]) =>
    Either.mapLeft(query(state, now), (refused) => new Refusal(refused))
  )

/** The state now, and a 404 unless it has the project `projectId`. */
const withProject = (fake: FakeState, projectId: string) =>
  Effect.flatMap(Ref.get(fake.ref), (state) =>
    get(state, "projects", projectId) === undefined ? Effect.fail(notFound("project")) : Effect.succeed(state)
  )

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
 * The routes of the control API v2 in scope, over `fake`, under `/api/v2`: one per endpoint of
 * `table` (core's by default), routed, checked and answered as it declares (docs/contract.md §4,
 * docs/design.md §1); each runs the `Gate` first. A route reads the state with `Ref.get` and
 * changes it only by running a mutation with `mutate` (`state.ts`).
 */
export const router = (fake: FakeState, table: Table = Endpoint) =>
  HttpRouter.fromIterable([
    route(table.createApiKey, ({ body }) => {
      const value = newKeyValue()
      return mutate(fake, (state, now) => {
        const { changes, key } = keyAdded(state, body.key_name, hashKey(value), now)
        return Either.right({ changes, answer: apiKeyCreated(key, value) })
      })
    }),
    route(table.listApiKeys, () =>
      Effect.map(Ref.get(fake.ref), (state) =>
        take(itemsOf(state, "api_keys"), undefined, (key) => !key.revoked).map(apiKeyListed)
      )
    ),
    route(table.revokeApiKey, ({ params }) =>
      mutate(fake, (state) => {
        const key = get(state, "api_keys", params.key_id)
        if (key === undefined || key.revoked) return Either.left(notFound("API key"))
        const revoked = { ...key, revoked: true }
        return Either.right({ changes: [upsert("api_keys", revoked)], answer: apiKeyRevoked(revoked) })
      })
    ),
    route(
      table.listProjects,
      ({ query }) =>
        Effect.gen(function* () {
          const { org_id, search } = query
          // The account's own projects: those shared with it are listed by `GET /projects/shared` only (§10.6).
          // `timeout` is checked by the table and needs nothing more: the fake reads every project in time.
          const { page, next } = yield* pageOf(
            table.listProjects,
            yield* Ref.get(fake.ref),
            "projects",
            "",
            query,
            yield* Clock.currentTimeMillis,
            (project) =>
              project.shared !== true && (org_id === undefined || project.org_id === org_id) && matches(project, search)
          )
          return projectsPage(page, next)
        }),
      withUndeclaredProjectFields
    ),
    route(
      table.listSharedProjects,
      ({ query }) =>
        Effect.gen(function* () {
          const { search } = query
          const { page, next } = yield* pageOf(
            table.listSharedProjects,
            yield* Ref.get(fake.ref),
            "projects",
            "",
            query,
            yield* Clock.currentTimeMillis,
            (project) => project.shared === true && matches(project, search)
          )
          return projectsPage(page, next)
        }),
      withUndeclaredSharedProjectFields
    ),
    route(table.listOperations, ({ params, query }) =>
      Effect.gen(function* () {
        const state = yield* withProject(fake, params.project_id)
        const now = yield* Clock.currentTimeMillis
        const { page, next } = yield* pageOf(table.listOperations, state, "operations", params.project_id, query, now)
        return operationsPage(page, next, now)
      })
    ),
    route(table.getOperation, ({ params }) =>
      Effect.gen(function* () {
        const state = yield* withProject(fake, params.project_id)
        const operation = get(state, "operations", params.operation_id)
        if (operation === undefined || operation.project_id !== params.project_id) {
          return yield* notFound("operation")
        }
        return operationEnvelope(operation, yield* Clock.currentTimeMillis)
      })
    ),
    route(
      table.listBranches,
      ({ params, query }) =>
        read(fake, (state, now) => {
          const sort = { sort_by: query.sort_by ?? "updated_at", sort_order: query.sort_order ?? "desc" } as const
          return Either.flatMap(projectOf(state, params.project_id), () =>
            Either.map(
              branchesPageOf(matchingBranches(state, params.project_id, query.search), sort, query.cursor, query.limit),
              ({ page, next }) => branchesPage(page, next, sort, now)
            )
          )
        }),
      withBranchAnnotations
    ),
    route(table.countBranches, ({ params, query }) =>
      Effect.map(withProject(fake, params.project_id), (state) =>
        branchesCount(matchingBranches(state, params.project_id, query.search).length)
      )
    ),
    route(table.createBranch, ({ params, body }) =>
      Effect.flatMap(randomDice, (dice) =>
        Effect.zipWith(
          mutateBranches(
            fake,
            createBranch(params.project_id, { ...body.branch, endpoints: body.endpoints ?? [] }, dice)
          ),
          Clock.currentTimeMillis,
          ({ branch, endpoints, operations, project }, now) =>
            branchCreated(branch, endpoints, project, operations, now)
        )
      )
    ),
    route(
      table.getBranch,
      ({ params }) =>
        read(fake, (state, now) =>
          Either.map(branchOf(state, params.project_id, params.branch_id), ([, branch]) => branchEnvelope(branch, now))
        ),
      withBranchAnnotation
    ),
    route(table.updateBranch, ({ params, body }) =>
      answerBranchChange(mutateBranches(fake, updateBranch(params.project_id, params.branch_id, body.branch)))
    ),
    route(table.deleteBranch, ({ params }) =>
      Effect.flatMap(randomDice, (dice) =>
        Effect.zipWith(
          mutateBranches(fake, deleteBranch(params.project_id, params.branch_id, dice)),
          Clock.currentTimeMillis,
          (deleted, now) =>
            deleted === undefined
              ? Option.none()
              : Option.some(branchOperations(deleted.branch, deleted.operations, now))
        )
      )
    ),
    route(table.restoreBranch, ({ params, body }) =>
      Effect.flatMap(randomDice, (dice) =>
        answerBranchChange(mutateBranches(fake, restoreBranch(params.project_id, params.branch_id, body, dice)))
      )
    ),
    route(table.setDefaultBranch, ({ params }) =>
      answerBranchChange(mutateBranches(fake, setDefaultBranch(params.project_id, params.branch_id)))
    ),
    route(table.listBranchEndpoints, ({ params }) =>
      read(fake, (state, now) =>
        Either.map(branchOf(state, params.project_id, params.branch_id), ([project, branch]) =>
          computeEndpoints(endpointsOfBranch(state, branch.id), project, now)
        )
      )
    )
  ]).pipe(HttpRouter.prefixAll(Endpoint.basePath))

/** The answer of a branch mutation: the branch and the operations it started, as they are now. */
const answerBranchChange = <E>(change: Effect.Effect<BranchChange, E>) =>
  Effect.zipWith(change, Clock.currentTimeMillis, ({ branch, operations }, now) =>
    branchOperations(branch, operations, now)
  )

/**
 * Checks the bearer key on every request (§5): missing, unknown or revoked is a 401, and a
 * good key's `last_used_at` / `last_used_from_addr` are updated (not a change for the journal:
 * they ride along with the key's next change). Answers the key.
 */
export const authenticate = (fake: FakeState): Effect.Effect<StoredKey, Refusal, HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const match = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? "")
    if (match === null)
      return yield* new Refusal({ status: Status.unauthorized, message: "a bearer API key is required" })
    const hash = hashKey(match[1]!)
    const from = Option.getOrElse(request.remoteAddress, () => "")
    return yield* mutateUnrecorded(fake, (state, now) => {
      const key = keyWithHash(state, hash)
      if (key === undefined || key.revoked) {
        return Either.left(new Refusal({ status: Status.unauthorized, message: "API key is not valid" }))
      }
      const used: StoredKey = { ...key, last_used_at: now, last_used_from_addr: from }
      return Either.right({ changes: [upsert("api_keys", used)], answer: used })
    })
  })

/** The key whose value has the hash `hash`, if any. */
export const keyWithHash = (state: State, hash: string): StoredKey | undefined => {
  for (const key of itemsOf(state, "api_keys")) if (key.hash === hash) return key
  return undefined
}

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
