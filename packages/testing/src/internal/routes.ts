import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Api, Endpoint, Timestamp } from "@dbplatform/core"
import * as Clock from "effect/Clock"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import { permissionHandlers, transferHandlers, vpcHandlers } from "./accessRoutes.js"
import { organizationRefusal, reachesProject } from "./authorization.js"
import { branchAuthHandlers } from "./branchAuthRoutes.js"
import { branchHandlers } from "./branchRoutes.js"
import { branchSchemaHandlers } from "./branchSchemaRoutes.js"
import { dataApiHandlers } from "./dataApiRoutes.js"
import { databaseHandlers } from "./databaseRoutes.js"
import { endpointHandlers } from "./endpointRoutes.js"
import { connectionHandlers } from "./connectionRoutes.js"
import { consumptionHandlers } from "./consumptionRoutes.js"
import { Caller } from "./caller.js"
import { type Change, type Kind, upsert } from "./kinds.js"
import {
  organizationKeyAdded,
  organizationKeyCreated,
  organizationKeyListed,
  organizationKeyRevoked,
  organizationKeyRevokedAnswer,
  organizationKeys
} from "./organizationApiKeys.js"
import { isDeleted } from "./lifecycle.js"
import { projectHandlers } from "./projectRoutes.js"
import { jwksHandlers } from "./jwksRoutes.js"
import { regionHandlers } from "./regions.js"
import { organizationHandlers, userHandlers } from "./organizationRoutes.js"
import { roleHandlers } from "./roleRoutes.js"
import { snapshotHandlers } from "./snapshotRoutes.js"
import { badRequest, type Handle, type Handler, type Handlers, notFound, Refusal, route, withProject } from "./route.js"
import {
  type FakeState,
  get,
  itemsBefore,
  itemsOf,
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
  errorBody,
  operationEnvelope,
  operationsPage,
  projectsPage,
  sharedProjectsPage
} from "./wire.js"

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

/** The function that answers with `handler`. */
const handleOf = <E extends Endpoint.Endpoint>(handler: Handler<E>): Handle<E> =>
  typeof handler === "function" ? handler : handler.handle

/** The handlers of every group of core's `Api.groups`, by group: one missing is a type error. */
type AllHandlers = { readonly [G in keyof Api.Groups]: Handlers<Api.Groups[G]> }

/** How the fake answers every endpoint of `groups`, over `fake`. */
const handlers = (fake: FakeState, groups: Api.Groups): AllHandlers => ({
  ApiKeys: {
    create: ({ body }) => {
      const value = newKeyValue()
      return mutate(fake, (state, now) => {
        const { changes, key } = keyAdded(state, body.key_name, hashKey(value), now)
        return Either.right({ changes, answer: apiKeyCreated(key, value) })
      })
    },
    // The account's personal keys: an organization's are listed and revoked under it (§21).
    list: () =>
      Effect.map(Ref.get(fake.ref), (state) =>
        take(itemsOf(state, "api_keys"), undefined, (key) => !key.revoked && key.org_id === undefined).map(apiKeyListed)
      ),
    revoke: ({ params }) =>
      mutate(fake, (state) => {
        const key = get(state, "api_keys", params.key_id)
        if (key === undefined || key.revoked || key.org_id !== undefined) return Either.left(notFound("API key"))
        const revoked = { ...key, revoked: true }
        return Either.right({ changes: [upsert("api_keys", revoked)], answer: apiKeyRevoked(revoked) })
      })
  },
  Projects: {
    ...projectHandlers(fake),
    // An organization's key creates in its organization when the body names none; an
    // organization named that the key does not act for is a 404 (§21).
    create: (input) =>
      Effect.gen(function* () {
        const key = yield* Caller
        const named = input.body.project.org_id
        if (named !== undefined) {
          const refused = organizationRefusal(yield* Ref.get(fake.ref), key, named)
          if (refused !== undefined) return yield* refused
        }
        const orgId = named ?? key?.org_id
        const project = orgId === undefined ? input.body.project : { ...input.body.project, org_id: orgId }
        return yield* handleOf(projectHandlers(fake).create)({ ...input, body: { ...input.body, project } })
      }),
    list: ({ query }) =>
      Effect.gen(function* () {
        const { org_id, recoverable, search } = query
        const key = yield* Caller
        const state = yield* Ref.get(fake.ref)
        // The account's own projects: those shared with it are listed by `GET /projects/shared` only (§10.6),
        // and only those the key acts for (§20.4, §21); with `recoverable=true`, the deleted ones (§18).
        // `timeout` is checked by its entry's query schema and needs nothing more: the fake reads
        // every project in time.
        const { page, next } = yield* pageOf(
          groups.Projects.list,
          state,
          "projects",
          "",
          query,
          yield* Clock.currentTimeMillis,
          (project) =>
            project.shared !== true &&
            // `recoverable=true`: only the deleted ones, kept for their recovery window (§18).
            isDeleted(project) === (recoverable === true) &&
            (org_id === undefined || project.org_id === org_id) &&
            matches(project, search) &&
            reachesProject(state, key, project)
        )
        return projectsPage(page, next)
      }),
    listShared: ({ query }) =>
      Effect.gen(function* () {
        const { search } = query
        const key = yield* Caller
        const state = yield* Ref.get(fake.ref)
        const { page, next } = yield* pageOf(
          groups.Projects.listShared,
          state,
          "projects",
          "",
          query,
          yield* Clock.currentTimeMillis,
          (project) =>
            project.shared === true &&
            !isDeleted(project) &&
            matches(project, search) &&
            reachesProject(state, key, project)
        )
        return sharedProjectsPage(page, next)
      })
  },
  Operations: {
    list: ({ params, query }) =>
      Effect.gen(function* () {
        const state = yield* withProject(fake, params.project_id)
        const now = yield* Clock.currentTimeMillis
        const { page, next } = yield* pageOf(groups.Operations.list, state, "operations", params.project_id, query, now)
        return operationsPage(page, next, now)
      }),
    get: ({ params }) =>
      Effect.gen(function* () {
        const state = yield* withProject(fake, params.project_id)
        const operation = get(state, "operations", params.operation_id)
        if (operation === undefined || operation.project_id !== params.project_id) {
          return yield* notFound("operation")
        }
        return operationEnvelope(operation, yield* Clock.currentTimeMillis)
      })
  },
  Branches: branchHandlers(fake, groups.Branches),
  ComputeEndpoints: endpointHandlers(fake, groups.ComputeEndpoints),
  Connections: connectionHandlers(fake, groups.Connections),
  Databases: databaseHandlers(fake, groups.Databases),
  Roles: roleHandlers(fake, groups.Roles),
  Regions: regionHandlers,
  Consumption: consumptionHandlers(fake, groups.Consumption),
  Users: userHandlers(fake),
  Organizations: organizationHandlers(fake),
  ProjectPermissions: permissionHandlers(fake),
  VpcEndpoints: vpcHandlers(fake),
  ProjectTransfers: transferHandlers(fake),
  OrganizationApiKeys: {
    list: ({ params }) =>
      Effect.flatMap(Ref.get(fake.ref), (state) =>
        Either.match(organizationKeys(state, params.org_id), {
          onLeft: Effect.fail,
          onRight: (keys) => Effect.succeed(keys.map(organizationKeyListed))
        })
      ),
    create: ({ body, params }) => {
      const value = newKeyValue()
      return Effect.map(
        mutate(fake, (state, now) =>
          organizationKeyAdded(state, params.org_id, body.key_name, body.project_id, hashKey(value), now)
        ),
        (key) => organizationKeyCreated(key, value)
      )
    },
    revoke: ({ params }) =>
      Effect.map(
        mutate(fake, (state) => organizationKeyRevoked(state, params.org_id, params.key_id)),
        organizationKeyRevokedAnswer
      )
  },
  BranchSchema: branchSchemaHandlers(fake),
  Snapshots: snapshotHandlers(fake),
  DataApi: dataApiHandlers(fake),
  BranchAuth: branchAuthHandlers(fake),
  Jwks: jwksHandlers(fake)
})

/**
 * The routes of the control API v2, over `fake`, under `/api/v2`: one per endpoint of every
 * group of `groups` (core's `Api.groups` by default; a test may pass them with an endpoint
 * changed), routed, checked and answered as it declares (docs/contract.md §4, docs/design.md §1);
 * each runs the `Gate` first. A route reads the state with `Ref.get` and changes it only by
 * running a mutation with `mutate` (`state.ts`).
 */
export const router = (fake: FakeState, groups: Api.Groups = Api.groups) => {
  const all: Readonly<Record<string, Readonly<Record<string, Handler<Endpoint.Endpoint>>>>> = handlers(fake, groups)
  return HttpRouter.fromIterable(
    Object.entries(groups).flatMap(([name, group]) =>
      Object.entries<Endpoint.Endpoint>(group).map(([key, endpoint]) => route(endpoint, all[name]![key]!))
    )
  ).pipe(HttpRouter.prefixAll(Endpoint.basePath))
}

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

/**
 * The `GeneralError` response for a refusal, echoing `X-Request-ID` as `request_id`, with the
 * fields of the refusal's `details` beside them (a 406's `limits`, docs/contract.md §22.4).
 */
export const refusalResponse = (refusal: Refusal) =>
  HttpServerRequest.HttpServerRequest.pipe(
    Effect.map((request) =>
      HttpServerResponse.unsafeJson(
        {
          ...errorBody({ code: refusal.code, message: refusal.message, requestId: request.headers["x-request-id"] }),
          ...refusal.details
        },
        { status: refusal.status, ...(refusal.headers === undefined ? {} : { headers: refusal.headers }) }
      )
    )
  )
