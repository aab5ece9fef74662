/**
 * The endpoints of the control API v2 in scope (the six of the contract, `GET /projects/shared`,
 * the branch, compute endpoint, project, database, role and connection URI endpoints), each
 * declared once: method, route template, the schemas of its path parameters, query, body and
 * answer (with their limits and defaults), the success statuses it answers with, whether its
 * answer carries the operations it started, and the error statuses it answers with
 * (`docs/contract.md` §4, §10 to §15).
 *
 * The client sends its requests from these declarations and the fake in `@dbplatform/testing`
 * routes, checks and answers from the same ones: neither spells a route, a limit or a field of
 * its own. Why a table of descriptors rather than `@effect/platform`'s `HttpApi`:
 * `docs/design.md` §1.
 *
 * @since 0.2.0
 */
import * as Either from "effect/Either"
import type * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { ApiKeyCreated, ApiKeyList, ApiKeyRevoked, CreateApiKeyRequest } from "./ApiKey.js"
import type { HttpStatusError } from "./ApiError.js"
import {
  BranchCreated,
  BranchCreateRequest,
  BranchEnvelope,
  BranchesCount,
  BranchesPage,
  BranchOperations,
  BranchRestoreRequest,
  BranchUpdateRequest
} from "./Branch.js"
import {
  ComputeEndpointCreateRequest,
  ComputeEndpointEnvelope,
  ComputeEndpointOperations,
  ComputeEndpoints,
  ComputeEndpointUpdateRequest
} from "./ComputeEndpoint.js"
import { ConnectionUri } from "./ConnectionDetails.js"
import {
  DatabaseCreateRequest,
  DatabaseEnvelope,
  DatabaseList,
  DatabaseOperations,
  DatabaseUpdateRequest
} from "./Database.js"
import { ApiKeyId, OperationId, ProjectId } from "./Ids.js"
import { basePath as apiBasePath } from "./internal/basePath.js"
import { BranchIdInput, EndpointIdInput, NameParameter, withMessage } from "./internal/input.js"
import { type Operation, OperationEnvelope, OperationsPage } from "./Operation.js"
import {
  ProjectCreated,
  ProjectCreateRequest,
  ProjectDeleted,
  ProjectEnvelope,
  ProjectOperations,
  ProjectsPage,
  ProjectUpdateRequest
} from "./Project.js"
import { RoleCreateRequest, RoleEnvelope, RoleList, RoleOperations, RolePassword } from "./Role.js"

/**
 * The path of the API's version under a server's root: a base URL ends with it
 * (`https://host/api/v2`), and every route is relative to it (§9).
 *
 * @since 0.2.0
 * @category constants
 */
export const basePath: "/api/v2" = apiBasePath

/**
 * An error status an entry declares, one its endpoint answers with for what it is asked:
 * `BadRequest`, `Forbidden`, `NotFound`, `Conflict` or `Locked`. Every endpoint may also answer
 * 401, 404, 429 and 5xx whatever it declares (`docs/design.md` §1.6): an entry declares
 * `NotFound` when its endpoint answers 404 for an unknown id.
 *
 * @since 0.2.0
 * @category models
 */
export type EndpointError = Exclude<
  HttpStatusError["_tag"],
  "Unauthorized" | "RateLimited" | "ServerError" | "ServiceUnavailable" | "UnexpectedStatus"
>

/**
 * The HTTP method of an endpoint.
 *
 * @since 0.3.0
 * @category models
 */
export type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE"

/**
 * A success status an endpoint may answer with: 200, 201 (created), 202 (accepted) or 204 (no
 * body: its answer schema decodes `undefined`).
 *
 * @since 0.3.0
 * @category models
 */
export type SuccessStatus = 200 | 201 | 202 | 204

/**
 * An answer that carries the operations its request started (`docs/contract.md` §4 rule 4,
 * §11.5): `{ operations }`, or an `Option` of one (an answer that may be empty, e.g. a 204).
 *
 * @since 0.3.0
 * @category models
 */
export type CarriesOperations =
  | { readonly operations: ReadonlyArray<Operation> }
  | Option.Option<{ readonly operations: ReadonlyArray<Operation> }>

/**
 * The operations an answer of an endpoint with `startsOperations` carries: its `operations`, or
 * none for an empty answer (`None`, e.g. a 204). What to pass to the client's
 * `Operations.awaitAll` (§6, §11.5).
 *
 * @since 0.3.0
 * @category utils
 */
export const operationsOf = (answer: CarriesOperations): ReadonlyArray<Operation> =>
  "operations" in answer ? answer.operations : answer._tag === "Some" ? answer.value.operations : []

/**
 * The page size of a list endpoint: the largest `limit` it takes, and the one it applies when
 * none is sent (`undefined`: all items at once).
 *
 * @since 0.2.0
 * @category models
 */
export interface PageLimits {
  readonly max: number
  readonly default: number | undefined
}

/**
 * One endpoint. `name` (e.g. `Operations.get`) names the client's span for it; `route` is the
 * path template relative to the base URL, with `{param}` for each path parameter. `params`,
 * `query` and `body` decode what a server receives (path parameters and query as strings) and
 * encode what a client sends; `success` decodes the success answer (and encodes the fake's),
 * `statuses` are the success statuses it answers with (`[200]` for most; a 204 has no body, and
 * `success` then decodes `undefined`). `startsOperations` is `true` when the answer carries the
 * `operations` the request started. `errors` are the error statuses of this endpoint beyond those
 * of every endpoint.
 *
 * @since 0.2.0
 * @category models
 */
export interface Endpoint<
  out Name extends string = string,
  in out Params = any,
  in out Query = any,
  in out Body = any,
  in out Success = any,
  out Errors extends EndpointError = EndpointError
> {
  readonly name: Name
  readonly method: Method
  readonly route: string
  /** Path parameters; their encoded side is strings. */
  readonly params: Schema.Schema<Params, any> | undefined
  /** Query parameters; their encoded side is strings (or absent). */
  readonly query: Schema.Schema<Query, any> | undefined
  /** The JSON body. */
  readonly body: Schema.Schema<Body, any> | undefined
  readonly success: Schema.Schema<Success, any>
  /** The success statuses it answers with; a 204 has no body (`success` decodes `undefined`). */
  readonly statuses: ReadonlyArray<SuccessStatus>
  /** Whether its answer carries the `operations` the request started (§4 rule 4). */
  readonly startsOperations: boolean
  readonly errors: ReadonlyArray<Errors>
  /** For a list endpoint, its page size limits. */
  readonly pageLimits: PageLimits | undefined
}

/**
 * The path parameters, query and body of a request to `E`, as values (before encoding); a part
 * that is empty or all optional may be left out.
 *
 * @since 0.2.0
 * @category models
 */
export type Input<E extends Endpoint> =
  E extends Endpoint<any, infer P, infer Q, infer B, any, any>
    ? Part<"params", P> & Part<"query", Q> & Part<"body", B>
    : never

type Part<K extends string, A> = [A] extends [undefined]
  ? { readonly [k in K]?: never }
  : {} extends A
    ? { readonly [k in K]?: A }
    : { readonly [k in K]: A }

/**
 * The decoded answer of `E`.
 *
 * @since 0.2.0
 * @category models
 */
export type Success<E extends Endpoint> = E extends Endpoint<any, any, any, any, infer S, any> ? S : never

/**
 * The tags of the error statuses `E` answers with beyond those of every endpoint.
 *
 * @since 0.2.0
 * @category models
 */
export type Errors<E extends Endpoint> = E extends Endpoint<any, any, any, any, any, infer X> ? X : never

/**
 * Declares an endpoint; a part left out (`params`, `query`, `body`, `pageLimits`) is absent,
 * `statuses` is `[200]` when left out, and `startsOperations` `false`. `startsOperations: true`
 * is taken only when the answer's type carries `operations` ({@link CarriesOperations}).
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = <
  const Name extends string,
  S,
  const Errors extends EndpointError = never,
  P = {},
  Q = {},
  B = undefined,
  PI extends Readonly<Record<string, string>> = {},
  QI extends Readonly<Record<string, string | undefined>> = {}
>(options: {
  readonly name: Name
  readonly method: Method
  readonly route: string
  readonly params?: Schema.Schema<P, PI> | undefined
  readonly query?: Schema.Schema<Q, QI> | undefined
  readonly body?: Schema.Schema<B, any> | undefined
  readonly success: Schema.Schema<S, any>
  readonly statuses?: ReadonlyArray<SuccessStatus> | undefined
  readonly startsOperations?: ([S] extends [CarriesOperations] ? boolean : false) | undefined
  readonly errors: ReadonlyArray<Errors>
  readonly pageLimits?: PageLimits | undefined
}): Endpoint<Name, P, Q, B, S, Errors> => ({
  name: options.name,
  method: options.method,
  route: options.route,
  params: options.params,
  query: options.query,
  body: options.body,
  success: options.success,
  statuses: options.statuses ?? ok,
  startsOperations: options.startsOperations ?? false,
  errors: options.errors,
  pageLimits: options.pageLimits
})

/** The success statuses of most endpoints. */
const ok: ReadonlyArray<SuccessStatus> = [200]

/**
 * `route` with each `{param}` replaced by its value in `params` (already encoded as strings),
 * URL-encoded: the path a request is sent to, relative to the base URL.
 *
 * @since 0.2.0
 * @category utils
 */
export const path = (route: string, params: Readonly<Record<string, string>>): string => {
  const parts = routeParts(route)
  let out = parts[0] ?? ""
  for (let i = 1; i < parts.length; i += 2) out += encodeURIComponent(params[parts[i] ?? ""] ?? "") + parts[i + 1]
  return out
}

/** Routes split at their parameters, once each: literal text, then name and text in turn. */
const splitRoutes = new Map<string, ReadonlyArray<string>>()

/** `route` split at its `{param}`s: `["/projects/", "project_id", "/operations"]`. */
const routeParts = (route: string): ReadonlyArray<string> => {
  let parts = splitRoutes.get(route)
  if (parts === undefined) {
    parts = route.split(/\{(\w+)\}/)
    // Routes are the endpoint table's templates: a handful. Anything else is not kept.
    if (splitRoutes.size < 64) splitRoutes.set(route, parts)
  }
  return parts
}

/**
 * A request to an endpoint as it goes on the wire: the path (relative to the base URL, its
 * parameters filled in and URL-encoded), the query parameters to send (absent ones left out),
 * and the JSON body, if the endpoint takes one.
 *
 * @since 0.2.0
 * @category models
 */
export interface Encoded {
  readonly path: string
  readonly query: ReadonlyArray<readonly [string, string]>
  readonly body: unknown
}

/**
 * Encodes `input` (path parameters, query and body as values) for `endpoint` with its schemas;
 * a part the endpoint has no schema for is ignored, a part left out is `{}`. Fails with the
 * `ParseError` of the first schema that refuses its part (every problem of that part named).
 * Synchronous: an `Either`, which is also an `Effect`. Input that encodes is checked up to its
 * first problem only; input that does not is checked again to name every problem.
 *
 * @since 0.2.0
 * @category encoding
 */
export const encode = <E extends Endpoint>(
  endpoint: E,
  input: Input<E>
): Either.Either<Encoded, ParseResult.ParseError> => {
  // Every part of an `Input` is optional to read: one the endpoint has no schema for is absent.
  const given: { readonly params?: unknown; readonly query?: unknown; readonly body?: unknown } = input
  const params = encodePart<Readonly<Record<string, string>>>(endpoint.params, given.params)
  if (Either.isLeft(params)) return Either.left(params.left)
  const query = encodePart<Readonly<Record<string, string | undefined>>>(endpoint.query, given.query)
  if (Either.isLeft(query)) return Either.left(query.left)
  const body = encodePart<unknown>(endpoint.body, given.body)
  if (Either.isLeft(body)) return Either.left(body.left)
  const entries: Array<readonly [string, string]> = []
  for (const [key, value] of Object.entries(query.right ?? {})) {
    if (value !== undefined) entries.push([key, value])
  }
  return Either.right({ path: path(endpoint.route, params.right ?? {}), query: entries, body: body.right })
}

/**
 * One part of a request encoded with `schema` (none: `undefined`), as `I`, the encoded side of
 * the endpoint's schema for that part; refused, with every problem named.
 */
const encodePart = <I>(
  schema: Schema.Schema<any, any> | undefined,
  value: unknown
): Either.Either<I | undefined, ParseResult.ParseError> => {
  if (schema === undefined) return Either.right(undefined)
  const first = ParseResult.encodeUnknownEither(schema)(value ?? {})
  if (Either.isRight(first)) return Either.right(first.right)
  const all = ParseResult.encodeUnknownEither(schema, { errors: "all" })(value ?? {})
  return Either.left(ParseResult.parseError(Either.isLeft(all) ? all.left : first.left))
}

/** An integer from `min` to `max`, sent as decimal digits, e.g. `limit`. */
const IntegerParameter = (min: number, max: number, unit = "") =>
  Schema.String.pipe(
    Schema.pattern(/^\d{1,9}$/),
    Schema.compose(Schema.NumberFromString),
    Schema.int(),
    Schema.between(min, max)
  ).annotations(withMessage(`must be an integer from ${min} to ${max}${unit}`))

/** `limit` of a list endpoint: 1 to `limits.max`. */
const PageLimit = (limits: PageLimits) => IntegerParameter(1, limits.max)

/**
 * `cursor`: the `pagination.cursor` of the previous page, sent back as it came (§2.6); not
 * empty.
 */
const Cursor = Schema.String.pipe(Schema.minLength(1)).annotations(withMessage("must not be empty"))

/**
 * `org_id`: an organization id, `^[a-z0-9-]{1,60}$` like a project id (§10.4).
 *
 * @since 0.2.0
 * @category schemas
 */
export const OrgId = Schema.String.pipe(Schema.pattern(/^[a-z0-9-]{1,60}$/)).annotations(
  withMessage("must be 1 to 60 of a-z, 0-9 and -")
)

/** An API key id in a path: an integer in decimal, e.g. `165432` (int64 with no minimum, §10.3). */
const KeyIdParameter = Schema.String.pipe(
  Schema.pattern(/^-?\d{1,16}$/),
  Schema.compose(Schema.NumberFromString),
  Schema.compose(ApiKeyId)
).annotations(withMessage("must be an integer"))

const ProjectIdParameter = ProjectId.annotations(withMessage("must be 1 to 60 of a-z, 0-9 and -"))
const OperationIdParameter = OperationId.annotations(withMessage("must be a UUID"))
/** A branch id in a path: `^[a-z0-9-]{1,60}$` (§11.1). */
const BranchIdParameter = BranchIdInput

/**
 * `POST /api_keys`: creates a key named `key_name` (§2.1, §4, §10.3). 400 for a name the
 * server refuses; 423 when locked.
 *
 * @since 0.2.0
 * @category endpoints
 */
export const createApiKey = make({
  name: "ApiKeys.create",
  method: "POST",
  route: "/api_keys",
  body: CreateApiKeyRequest,
  success: ApiKeyCreated,
  errors: ["BadRequest", "Locked"]
})

/**
 * `GET /api_keys`: the account's keys, a bare array (§2.2, §4, §10.3).
 *
 * @since 0.2.0
 * @category endpoints
 */
export const listApiKeys = make({
  name: "ApiKeys.list",
  method: "GET",
  route: "/api_keys",
  success: ApiKeyList,
  errors: []
})

/**
 * `DELETE /api_keys/{key_id}`: revokes a key (§2.3, §3.1, §4, §10.3). 404 for an unknown or
 * already revoked id; 400 for an id that is not an integer; 423 when locked.
 *
 * @since 0.2.0
 * @category endpoints
 */
export const revokeApiKey = make({
  name: "ApiKeys.revoke",
  method: "DELETE",
  route: "/api_keys/{key_id}",
  params: Schema.Struct({ key_id: KeyIdParameter }),
  success: ApiKeyRevoked,
  errors: ["NotFound", "BadRequest", "Locked"]
})

/**
 * The page size of `GET /projects`: 1 to 400, 10 when no `limit` is sent (observed behaviour
 * of the deployed API, §10.4).
 *
 * @since 0.2.0
 * @category endpoints
 */
export const projectsPageLimits: PageLimits = { max: 400, default: 10 }

/** The query both project lists take: `limit`, `cursor`, `search`, `timeout` (ms). */
const projectsQuery = {
  limit: Schema.optional(PageLimit(projectsPageLimits)),
  cursor: Schema.optional(Cursor),
  search: Schema.optional(Schema.String),
  timeout: Schema.optional(IntegerParameter(100, 30_000, " (milliseconds)"))
}

/**
 * `GET /projects`: one page of the account's projects (§2.4, §4, §10.4). Query: `limit`
 * (1 to 400), `cursor`, `search` (part of a name or id), `org_id` (the organization's
 * projects), `timeout` (100 to 30 000 ms: the server answers with what it read by then, and
 * lists the projects it could not read in `unavailable_project_ids`). 400 for a query the
 * server refuses.
 *
 * @since 0.2.0
 * @category endpoints
 */
export const listProjects = make({
  name: "Projects.list",
  method: "GET",
  route: "/projects",
  query: Schema.Struct({ ...projectsQuery, org_id: Schema.optional(OrgId) }),
  success: ProjectsPage,
  errors: ["BadRequest"],
  pageLimits: projectsPageLimits
})

/**
 * `GET /projects/shared`: one page of the projects other accounts shared with this one (§2.4,
 * §10.6): the same page, limits and query as `GET /projects` (`limit` 1 to 400, 10 by
 * default; `cursor`, `search`, `timeout`) but `org_id`, which it does not take. 400 for a query
 * the server refuses.
 *
 * @since 0.2.0
 * @category endpoints
 */
export const listSharedProjects = make({
  name: "Projects.listShared",
  method: "GET",
  route: "/projects/shared",
  query: Schema.Struct(projectsQuery),
  success: ProjectsPage,
  errors: ["BadRequest"],
  pageLimits: projectsPageLimits
})

/**
 * The page size of `GET /projects/{project_id}/operations`: 1 to 1000; without a `limit`, all
 * operations at once (observed behaviour of the deployed API, §4 rule 2, §10.5).
 *
 * @since 0.2.0
 * @category endpoints
 */
export const operationsPageLimits: PageLimits = { max: 1000, default: undefined }

/**
 * `GET /projects/{project_id}/operations`: one page of a project's operations, newest first
 * (§2.5, §2.6, §4, §10.5). Query: `limit` (1 to 1000), `cursor`. 404 for an unknown project,
 * 403 for one the key may not see, 400 for a query the server refuses.
 *
 * @since 0.2.0
 * @category endpoints
 */
export const listOperations = make({
  name: "Operations.list",
  method: "GET",
  route: "/projects/{project_id}/operations",
  params: Schema.Struct({ project_id: ProjectIdParameter }),
  query: Schema.Struct({
    limit: Schema.optional(PageLimit(operationsPageLimits)),
    cursor: Schema.optional(Cursor)
  }),
  success: OperationsPage,
  errors: ["NotFound", "Forbidden", "BadRequest"],
  pageLimits: operationsPageLimits
})

/**
 * `GET /projects/{project_id}/operations/{operation_id}`: one operation (§2.5, §4). 404 for an
 * unknown project or operation, 403 for one the key may not see, 400 for a malformed id.
 *
 * @since 0.2.0
 * @category endpoints
 */
export const getOperation = make({
  name: "Operations.get",
  method: "GET",
  route: "/projects/{project_id}/operations/{operation_id}",
  params: Schema.Struct({ project_id: ProjectIdParameter, operation_id: OperationIdParameter }),
  success: OperationEnvelope,
  errors: ["NotFound", "Forbidden", "BadRequest"]
})

/**
 * The page size of `GET /projects/{project_id}/branches`: 1 to 10 000; without a `limit`, all
 * branches at once (observed behaviour of the deployed API, §11.4).
 *
 * @since 0.3.0
 * @category endpoints
 */
export const branchesPageLimits: PageLimits = { max: 10_000, default: undefined }

/** A project's branch in a path: `project_id` and `branch_id`. */
const branchParams = Schema.Struct({ project_id: ProjectIdParameter, branch_id: BranchIdParameter })

/**
 * `GET /projects/{project_id}/branches`: one page of a project's branches (§11.4). Query:
 * `search` (part of a name or id), `sort_by` (`name`, `created_at` or `updated_at`, the
 * default), `sort_order` (`asc` or `desc`, the default), `cursor` (a page's `pagination.next`),
 * `limit` (1 to 10 000; all when absent). 404 for an unknown project, 403 for one the key may
 * not see, 400 for a query the server refuses.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const listBranches = make({
  name: "Branches.list",
  method: "GET",
  route: "/projects/{project_id}/branches",
  params: Schema.Struct({ project_id: ProjectIdParameter }),
  query: Schema.Struct({
    search: Schema.optional(Schema.String),
    sort_by: Schema.optional(
      Schema.Literal("name", "created_at", "updated_at").annotations(
        withMessage("must be name, created_at or updated_at")
      )
    ),
    sort_order: Schema.optional(Schema.Literal("asc", "desc").annotations(withMessage("must be asc or desc"))),
    cursor: Schema.optional(Cursor),
    limit: Schema.optional(PageLimit(branchesPageLimits))
  }),
  success: BranchesPage,
  errors: ["NotFound", "Forbidden", "BadRequest"],
  pageLimits: branchesPageLimits
})

/**
 * `GET /projects/{project_id}/branches/count`: how many branches the project has, `{ count }`;
 * query `search` (part of a name or id) counts those that match (§11.4). 404 for an unknown
 * project, 403, 400 for a query the server refuses.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const countBranches = make({
  name: "Branches.count",
  method: "GET",
  route: "/projects/{project_id}/branches/count",
  params: Schema.Struct({ project_id: ProjectIdParameter }),
  query: Schema.Struct({ search: Schema.optional(Schema.String) }),
  success: BranchesCount,
  errors: ["NotFound", "Forbidden", "BadRequest"]
})

/**
 * `POST /projects/{project_id}/branches`: creates a branch, with the compute endpoints to create
 * with it, and answers 201 with the branch, its compute endpoints, roles, databases, connection
 * URIs where the platform sends them, and the operations started: `create_branch`, and
 * `start_compute` per compute endpoint (§11.4, §11.5). 400 for a body the server refuses, 404
 * for an unknown project or parent, 403, 409 for a name another branch of the project has, 423
 * while a conflicting operation runs (§11.6).
 *
 * @since 0.3.0
 * @category endpoints
 */
export const createBranch = make({
  name: "Branches.create",
  method: "POST",
  route: "/projects/{project_id}/branches",
  params: Schema.Struct({ project_id: ProjectIdParameter }),
  body: BranchCreateRequest,
  success: BranchCreated,
  statuses: [201],
  startsOperations: true,
  errors: ["BadRequest", "NotFound", "Forbidden", "Conflict", "Locked"]
})

/**
 * `GET /projects/{project_id}/branches/{branch_id}`: one branch (§11.4). 404 for an unknown
 * project or branch, 403, 400 for a malformed id.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const getBranch = make({
  name: "Branches.get",
  method: "GET",
  route: "/projects/{project_id}/branches/{branch_id}",
  params: branchParams,
  success: BranchEnvelope,
  errors: ["NotFound", "Forbidden", "BadRequest"]
})

/**
 * `PATCH /projects/{project_id}/branches/{branch_id}`: renames a branch or changes its
 * protection; answers the branch and the operations started (none, §11.5). 409 for a name
 * another branch of the project has, 423 while a conflicting operation runs (§11.6).
 *
 * @since 0.3.0
 * @category endpoints
 */
export const updateBranch = make({
  name: "Branches.update",
  method: "PATCH",
  route: "/projects/{project_id}/branches/{branch_id}",
  params: branchParams,
  body: BranchUpdateRequest,
  success: BranchOperations,
  startsOperations: true,
  errors: ["BadRequest", "NotFound", "Forbidden", "Conflict", "Locked"]
})

/**
 * `DELETE /projects/{project_id}/branches/{branch_id}`: deletes a branch and its compute
 * endpoints. Answers 200 with the branch and the operations started (`suspend_compute` per
 * compute endpoint, then `delete_timeline`), decoded as `Some`; or 204 with no body, decoded as
 * `None` (nothing left to delete) (§11.4, §11.5). 400 for the default branch or a branch with
 * children, 404 for an unknown project or branch, 423 while a conflicting operation runs (§11.6).
 *
 * @since 0.3.0
 * @category endpoints
 */
export const deleteBranch = make({
  name: "Branches.delete",
  method: "DELETE",
  route: "/projects/{project_id}/branches/{branch_id}",
  params: branchParams,
  success: Schema.OptionFromUndefinedOr(BranchOperations),
  statuses: [200, 204],
  startsOperations: true,
  errors: ["BadRequest", "NotFound", "Forbidden", "Locked"]
})

/**
 * `POST /projects/{project_id}/branches/{branch_id}/restore`: restores a branch's data from a
 * source branch, at a point in time or its latest (§11.4); answers the branch and the operations
 * started (§11.5). 404 for an unknown branch or source, 409 for a `preserve_under_name` another
 * branch has, 423 while a conflicting operation runs (§11.6).
 *
 * @since 0.3.0
 * @category endpoints
 */
export const restoreBranch = make({
  name: "Branches.restore",
  method: "POST",
  route: "/projects/{project_id}/branches/{branch_id}/restore",
  params: branchParams,
  body: BranchRestoreRequest,
  success: BranchOperations,
  startsOperations: true,
  errors: ["BadRequest", "NotFound", "Forbidden", "Conflict", "Locked"]
})

/**
 * `POST /projects/{project_id}/branches/{branch_id}/set_as_default`: makes a branch the
 * project's default (the one before stops being it); answers the branch and the operations
 * started (none, §11.5). 423 while a conflicting operation runs (§11.6).
 *
 * @since 0.3.0
 * @category endpoints
 */
export const setDefaultBranch = make({
  name: "Branches.setAsDefault",
  method: "POST",
  route: "/projects/{project_id}/branches/{branch_id}/set_as_default",
  params: branchParams,
  success: BranchOperations,
  startsOperations: true,
  errors: ["BadRequest", "NotFound", "Forbidden", "Locked"]
})

/**
 * `GET /projects/{project_id}/branches/{branch_id}/endpoints`: the compute endpoints of a
 * branch, `{ endpoints }` (§11.4). 404 for an unknown project or branch.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const listBranchEndpoints = make({
  name: "Branches.listEndpoints",
  method: "GET",
  route: "/projects/{project_id}/branches/{branch_id}/endpoints",
  params: branchParams,
  success: ComputeEndpoints,
  errors: ["NotFound", "Forbidden", "BadRequest"]
})

/**
 * The branch endpoints by their client method name (`Branches.list` is `branches.list`): the
 * table a client service is derived from (`docs/design.md` §1.2).
 *
 * @since 0.3.0
 * @category endpoints
 */
export const branches = {
  list: listBranches,
  count: countBranches,
  create: createBranch,
  get: getBranch,
  update: updateBranch,
  delete: deleteBranch,
  restore: restoreBranch,
  setAsDefault: setDefaultBranch,
  listEndpoints: listBranchEndpoints
} as const

/** A branch's database in a path: `project_id`, `branch_id` and `database_name`. */
const databaseParams = Schema.Struct({
  project_id: ProjectIdParameter,
  branch_id: BranchIdParameter,
  database_name: NameParameter
})

/**
 * `GET /projects/{project_id}/branches/{branch_id}/databases`: the branch's databases,
 * `{ databases }` (§15.1). 404 for an unknown project or branch, 403, 400 for a malformed id.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const listDatabases = make({
  name: "Databases.list",
  method: "GET",
  route: "/projects/{project_id}/branches/{branch_id}/databases",
  params: branchParams,
  success: DatabaseList,
  errors: ["NotFound", "Forbidden", "BadRequest"]
})

/**
 * `POST /projects/{project_id}/branches/{branch_id}/databases` with `{ database: { name,
 * owner_name } }`: creates a database owned by a role of the branch; answers 201 with the
 * database and the operations started (`apply_config`) (§15.1, §15.3). 400 for a body the server
 * refuses, 404 for an unknown project or branch, or an owner that is not a role of the branch,
 * 409 for a name another database of the branch has, 423 while a conflicting operation runs.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const createDatabase = make({
  name: "Databases.create",
  method: "POST",
  route: "/projects/{project_id}/branches/{branch_id}/databases",
  params: branchParams,
  body: DatabaseCreateRequest,
  success: DatabaseOperations,
  statuses: [201],
  startsOperations: true,
  errors: ["BadRequest", "NotFound", "Forbidden", "Conflict", "Locked"]
})

/**
 * `GET /projects/{project_id}/branches/{branch_id}/databases/{database_name}`: one database,
 * `{ database }` (§15.1). 404 for an unknown project, branch or database.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const getDatabase = make({
  name: "Databases.get",
  method: "GET",
  route: "/projects/{project_id}/branches/{branch_id}/databases/{database_name}",
  params: databaseParams,
  success: DatabaseEnvelope,
  errors: ["NotFound", "Forbidden", "BadRequest"]
})

/**
 * `PATCH /projects/{project_id}/branches/{branch_id}/databases/{database_name}` with
 * `{ database: { name?, owner_name? } }`: renames a database or gives it another owner; answers
 * the database and the operations started (`apply_config`) (§15.1, §15.3). 404 for an unknown
 * database or an owner that is not a role of the branch, 409 for a name another database of the
 * branch has, 423 while a conflicting operation runs.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const updateDatabase = make({
  name: "Databases.update",
  method: "PATCH",
  route: "/projects/{project_id}/branches/{branch_id}/databases/{database_name}",
  params: databaseParams,
  body: DatabaseUpdateRequest,
  success: DatabaseOperations,
  startsOperations: true,
  errors: ["BadRequest", "NotFound", "Forbidden", "Conflict", "Locked"]
})

/**
 * `DELETE /projects/{project_id}/branches/{branch_id}/databases/{database_name}`: deletes a
 * database. Answers 200 with the database and the operations started (`apply_config`), decoded
 * as `Some`; or 204 with no body, decoded as `None` (no such database: nothing to delete)
 * (§15.1, §15.3). 404 for an unknown project or branch, 423 while a conflicting operation runs.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const deleteDatabase = make({
  name: "Databases.delete",
  method: "DELETE",
  route: "/projects/{project_id}/branches/{branch_id}/databases/{database_name}",
  params: databaseParams,
  success: Schema.OptionFromUndefinedOr(DatabaseOperations),
  statuses: [200, 204],
  startsOperations: true,
  errors: ["BadRequest", "NotFound", "Forbidden", "Locked"]
})

/**
 * The database endpoints by their client method name (`Databases.list` is `databases.list`).
 *
 * @since 0.3.0
 * @category endpoints
 */
export const databases = {
  list: listDatabases,
  create: createDatabase,
  get: getDatabase,
  update: updateDatabase,
  delete: deleteDatabase
} as const

/** A branch's role in a path: `project_id`, `branch_id` and `role_name`. */
const roleParams = Schema.Struct({
  project_id: ProjectIdParameter,
  branch_id: BranchIdParameter,
  role_name: NameParameter
})

/**
 * `GET /projects/{project_id}/branches/{branch_id}/roles`: the branch's roles, `{ roles }`,
 * without passwords (§15.2). 404 for an unknown project or branch, 403, 400 for a malformed id.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const listRoles = make({
  name: "Roles.list",
  method: "GET",
  route: "/projects/{project_id}/branches/{branch_id}/roles",
  params: branchParams,
  success: RoleList,
  errors: ["NotFound", "Forbidden", "BadRequest"]
})

/**
 * `POST /projects/{project_id}/branches/{branch_id}/roles` with `{ role: { name } }`: creates a
 * role; answers 201 with the role, its `password` (`Redacted`, shown this once) and the operations
 * started (`apply_config`) (§15.2, §15.3). 400 for a body the server refuses, 404 for an unknown
 * project or branch, 409 for a name another role of the branch has, 423 while a conflicting
 * operation runs.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const createRole = make({
  name: "Roles.create",
  method: "POST",
  route: "/projects/{project_id}/branches/{branch_id}/roles",
  params: branchParams,
  body: RoleCreateRequest,
  success: RoleOperations,
  statuses: [201],
  startsOperations: true,
  errors: ["BadRequest", "NotFound", "Forbidden", "Conflict", "Locked"]
})

/**
 * `GET /projects/{project_id}/branches/{branch_id}/roles/{role_name}`: one role, `{ role }`,
 * without its password (§15.2). 404 for an unknown project, branch or role.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const getRole = make({
  name: "Roles.get",
  method: "GET",
  route: "/projects/{project_id}/branches/{branch_id}/roles/{role_name}",
  params: roleParams,
  success: RoleEnvelope,
  errors: ["NotFound", "Forbidden", "BadRequest"]
})

/**
 * `DELETE /projects/{project_id}/branches/{branch_id}/roles/{role_name}`: deletes a role.
 * Answers 200 with the role and the operations started (`apply_config`), decoded as `Some`; or
 * 204 with no body, decoded as `None` (no such role: nothing to delete) (§15.2, §15.3). 400 for
 * a role that owns a database of the branch (delete the database or give it another owner first)
 * or a protected role, 404 for an unknown project or branch, 423 while a conflicting operation
 * runs.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const deleteRole = make({
  name: "Roles.delete",
  method: "DELETE",
  route: "/projects/{project_id}/branches/{branch_id}/roles/{role_name}",
  params: roleParams,
  success: Schema.OptionFromUndefinedOr(RoleOperations),
  statuses: [200, 204],
  startsOperations: true,
  errors: ["BadRequest", "NotFound", "Forbidden", "Locked"]
})

/**
 * `GET /projects/{project_id}/branches/{branch_id}/roles/{role_name}/reveal_password`: the
 * role's password, `{ password }` (`Redacted`) (§15.2). 404 for an unknown project, branch or
 * role. The platform may also answer 412 when it cannot reveal a password (it did not keep it):
 * an `UnexpectedStatus`.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const revealRolePassword = make({
  name: "Roles.revealPassword",
  method: "GET",
  route: "/projects/{project_id}/branches/{branch_id}/roles/{role_name}/reveal_password",
  params: roleParams,
  success: RolePassword,
  errors: ["NotFound", "Forbidden", "BadRequest"]
})

/**
 * `POST /projects/{project_id}/branches/{branch_id}/roles/{role_name}/reset_password`: gives
 * the role a new password; answers the role with it (`Redacted`, shown this once) and the
 * operations started (`apply_config`): the new password works once they finish (§15.2, §15.3).
 * 400 for a protected role, 404 for an unknown project, branch or role, 423 while a conflicting
 * operation runs.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const resetRolePassword = make({
  name: "Roles.resetPassword",
  method: "POST",
  route: "/projects/{project_id}/branches/{branch_id}/roles/{role_name}/reset_password",
  params: roleParams,
  success: RoleOperations,
  startsOperations: true,
  errors: ["BadRequest", "NotFound", "Forbidden", "Locked"]
})

/**
 * The role endpoints by their client method name (`Roles.revealPassword` is
 * `roles.revealPassword`).
 *
 * @since 0.3.0
 * @category endpoints
 */
export const roles = {
  list: listRoles,
  create: createRole,
  get: getRole,
  delete: deleteRole,
  revealPassword: revealRolePassword,
  resetPassword: resetRolePassword
} as const

/** A project in a path: `project_id`. */
const projectParams = Schema.Struct({ project_id: ProjectIdParameter })

/**
 * `POST /projects`: creates a project with its default branch (`main`), a read_write compute
 * endpoint on it, a role (`neondb_owner`) and a database (`neondb`) owned by it, and answers 201
 * with all of them, the connection URIs to the database (secrets) and the operations started:
 * `create_timeline`, then `start_compute` (§14). 400 for a body the server refuses.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const createProject = make({
  name: "Projects.create",
  method: "POST",
  route: "/projects",
  body: ProjectCreateRequest,
  success: ProjectCreated,
  statuses: [201],
  startsOperations: true,
  errors: ["BadRequest"]
})

/**
 * `GET /projects/{project_id}`: one project, `{ project }` (§14). 404 for an unknown (or
 * deleted) project, 403 for one the key may not see, 400 for a malformed id.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const getProject = make({
  name: "Projects.get",
  method: "GET",
  route: "/projects/{project_id}",
  params: projectParams,
  success: ProjectEnvelope,
  errors: ["NotFound", "Forbidden", "BadRequest"]
})

/**
 * `PATCH /projects/{project_id}`: renames a project, changes its history retention (which starts
 * `apply_storage_config`) or its default compute endpoint settings; answers the project and the
 * operations started (§14). 404 for an unknown project, 423 while a conflicting operation runs.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const updateProject = make({
  name: "Projects.update",
  method: "PATCH",
  route: "/projects/{project_id}",
  params: projectParams,
  body: ProjectUpdateRequest,
  success: ProjectOperations,
  startsOperations: true,
  errors: ["BadRequest", "NotFound", "Forbidden", "Locked"]
})

/**
 * `DELETE /projects/{project_id}`: deletes a project and everything in it (branches, compute
 * endpoints, roles, databases, operations); answers the project as it was. Its data is deleted
 * by a `delete_tenant` operation that no read can reach: every later read of the project
 * answers 404 (§14). 404 for an unknown project, 423 while a conflicting operation runs.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const deleteProject = make({
  name: "Projects.delete",
  method: "DELETE",
  route: "/projects/{project_id}",
  params: projectParams,
  success: ProjectDeleted,
  errors: ["BadRequest", "NotFound", "Forbidden", "Locked"]
})

/**
 * The project endpoints by their client method name (`Projects.create` is `projects.create`;
 * `page` and `sharedPage` are the two lists): the table the client's `Projects` service is
 * derived from (§14, `docs/design.md` §1.2).
 *
 * @since 0.3.0
 * @category endpoints
 */
export const projects = {
  page: listProjects,
  sharedPage: listSharedProjects,
  create: createProject,
  get: getProject,
  update: updateProject,
  delete: deleteProject
} as const

/** A project's compute endpoint in a path: `project_id` and `endpoint_id`. */
const computeEndpointParams = Schema.Struct({ project_id: ProjectIdParameter, endpoint_id: EndpointIdInput })

/**
 * `GET /projects/{project_id}/endpoints`: every compute endpoint of a project, `{ endpoints }`,
 * newest first (§12). 404 for an unknown project, 403, 400 for a malformed id.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const listComputeEndpoints = make({
  name: "ComputeEndpoints.list",
  method: "GET",
  route: "/projects/{project_id}/endpoints",
  params: Schema.Struct({ project_id: ProjectIdParameter }),
  success: ComputeEndpoints,
  errors: ["NotFound", "Forbidden", "BadRequest"]
})

/**
 * `POST /projects/{project_id}/endpoints`: creates a compute endpoint on a branch and answers 201
 * with it and the operation started, `start_compute`; it is `init` until that ends, then
 * `active` (§12). 400 for a body the server refuses (a minimum above the maximum), 404 for an
 * unknown project or branch, 403, 409 for a second `read_write` compute endpoint on a branch,
 * 423 while a conflicting operation runs.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const createComputeEndpoint = make({
  name: "ComputeEndpoints.create",
  method: "POST",
  route: "/projects/{project_id}/endpoints",
  params: Schema.Struct({ project_id: ProjectIdParameter }),
  body: ComputeEndpointCreateRequest,
  success: ComputeEndpointOperations,
  statuses: [201],
  startsOperations: true,
  errors: ["BadRequest", "NotFound", "Forbidden", "Conflict", "Locked"]
})

/**
 * `GET /projects/{project_id}/endpoints/{endpoint_id}`: one compute endpoint, `{ endpoint }`
 * (§12). 404 for an unknown project or compute endpoint, 403, 400 for a malformed id.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const getComputeEndpoint = make({
  name: "ComputeEndpoints.get",
  method: "GET",
  route: "/projects/{project_id}/endpoints/{endpoint_id}",
  params: computeEndpointParams,
  success: ComputeEndpointEnvelope,
  errors: ["NotFound", "Forbidden", "BadRequest"]
})

/**
 * `PATCH /projects/{project_id}/endpoints/{endpoint_id}`: changes a compute endpoint's
 * autoscaling limits (compute units) or suspend timeout (seconds); answers it and the operation
 * started, `apply_config` (§12). 400 for a minimum above the maximum, 404, 423 while a
 * conflicting operation runs.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const updateComputeEndpoint = make({
  name: "ComputeEndpoints.update",
  method: "PATCH",
  route: "/projects/{project_id}/endpoints/{endpoint_id}",
  params: computeEndpointParams,
  body: ComputeEndpointUpdateRequest,
  success: ComputeEndpointOperations,
  startsOperations: true,
  errors: ["BadRequest", "NotFound", "Forbidden", "Locked"]
})

/**
 * `DELETE /projects/{project_id}/endpoints/{endpoint_id}`: deletes a compute endpoint (later
 * reads are 404). Answers 200 with it and the operations started (`suspend_compute` when it was
 * running), decoded as `Some`; or 204 with no body, decoded as `None` (nothing left to delete)
 * (§12). 404 for an unknown project, 423 while a conflicting operation runs.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const deleteComputeEndpoint = make({
  name: "ComputeEndpoints.delete",
  method: "DELETE",
  route: "/projects/{project_id}/endpoints/{endpoint_id}",
  params: computeEndpointParams,
  success: Schema.OptionFromUndefinedOr(ComputeEndpointOperations),
  statuses: [200, 204],
  startsOperations: true,
  errors: ["BadRequest", "NotFound", "Forbidden", "Locked"]
})

/**
 * `POST /projects/{project_id}/endpoints/{endpoint_id}/start`: starts a suspended (`idle`)
 * compute endpoint; answers it and the operation started, `start_compute` (none when it is
 * already running) (§12). 404, 423 while a conflicting operation runs.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const startComputeEndpoint = make({
  name: "ComputeEndpoints.start",
  method: "POST",
  route: "/projects/{project_id}/endpoints/{endpoint_id}/start",
  params: computeEndpointParams,
  success: ComputeEndpointOperations,
  startsOperations: true,
  errors: ["BadRequest", "NotFound", "Forbidden", "Locked"]
})

/**
 * `POST /projects/{project_id}/endpoints/{endpoint_id}/suspend`: suspends a running compute
 * endpoint; answers it and the operation started, `suspend_compute` (none when it is already
 * `idle`); it is `idle` once that ends (§12). 404, 423 while a conflicting operation runs.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const suspendComputeEndpoint = make({
  name: "ComputeEndpoints.suspend",
  method: "POST",
  route: "/projects/{project_id}/endpoints/{endpoint_id}/suspend",
  params: computeEndpointParams,
  success: ComputeEndpointOperations,
  startsOperations: true,
  errors: ["BadRequest", "NotFound", "Forbidden", "Locked"]
})

/**
 * `POST /projects/{project_id}/endpoints/{endpoint_id}/restart`: suspends a compute endpoint and
 * starts it again; answers it and the operations started, `suspend_compute` then
 * `start_compute` (only `start_compute` for an `idle` one) (§12). 404, 423 while a conflicting
 * operation runs.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const restartComputeEndpoint = make({
  name: "ComputeEndpoints.restart",
  method: "POST",
  route: "/projects/{project_id}/endpoints/{endpoint_id}/restart",
  params: computeEndpointParams,
  success: ComputeEndpointOperations,
  startsOperations: true,
  errors: ["BadRequest", "NotFound", "Forbidden", "Locked"]
})

/**
 * The compute endpoint endpoints by their client method name (`ComputeEndpoints.get` is
 * `computeEndpoints.get`): the table the client's `ComputeEndpoints` service is derived from
 * (§12, `docs/design.md` §1.2). A branch's own list is `branches.listEndpoints`.
 *
 * @since 0.3.0
 * @category endpoints
 */
export const computeEndpoints = {
  list: listComputeEndpoints,
  create: createComputeEndpoint,
  get: getComputeEndpoint,
  update: updateComputeEndpoint,
  delete: deleteComputeEndpoint,
  start: startComputeEndpoint,
  suspend: suspendComputeEndpoint,
  restart: restartComputeEndpoint
} as const

/**
 * `GET /projects/{project_id}/connection_uri`: the connection URI of a database of a branch for
 * a role, `{ uri }`, the URI `Redacted` (it holds the role's password) (`docs/contract.md` §13.1).
 * Query: `database_name` and `role_name` (required), `branch_id` (the project's default branch
 * when absent), `endpoint_id` (the branch's `read_write` compute endpoint when absent), `pooled`
 * (`true`: through the connection pooler, whose host is the endpoint's with `-pooler`). 404 for
 * an unknown project, branch, compute endpoint, database or role; 403; 400 for a query the server
 * refuses (no `database_name` or `role_name`).
 *
 * @since 0.3.0
 * @category endpoints
 */
export const getConnectionUri = make({
  name: "Connections.uri",
  method: "GET",
  route: "/projects/{project_id}/connection_uri",
  params: Schema.Struct({ project_id: ProjectIdParameter }),
  query: Schema.Struct({
    database_name: Schema.String.pipe(Schema.minLength(1)).annotations(withMessage("must not be empty")),
    role_name: Schema.String.pipe(Schema.minLength(1)).annotations(withMessage("must not be empty")),
    branch_id: Schema.optional(BranchIdInput),
    endpoint_id: Schema.optional(EndpointIdInput),
    pooled: Schema.optional(Schema.BooleanFromString.annotations(withMessage("must be true or false")))
  }),
  success: ConnectionUri,
  errors: ["BadRequest", "NotFound", "Forbidden"]
})

/**
 * The connection endpoints by their client method name (`Connections.uri` is
 * `connections.uri`): the table the client's `Connections` service is derived from (§13).
 *
 * @since 0.3.0
 * @category endpoints
 */
export const connections = {
  uri: getConnectionUri
} as const

/**
 * Every endpoint in scope, in the order of the contract's table (§4), then those of §10
 * (`GET /projects/shared`, §10.6), then the branch endpoints (§11.4), the database and role
 * endpoints (§15), the project endpoints (§14), the compute endpoint endpoints (§12), then the
 * connection URI (§13.1).
 *
 * @since 0.2.0
 * @category endpoints
 */
export const all = [
  createApiKey,
  listApiKeys,
  revokeApiKey,
  listProjects,
  listOperations,
  getOperation,
  listSharedProjects,
  listBranches,
  createBranch,
  getBranch,
  updateBranch,
  deleteBranch,
  restoreBranch,
  setDefaultBranch,
  listBranchEndpoints,
  countBranches,
  listDatabases,
  createDatabase,
  getDatabase,
  updateDatabase,
  deleteDatabase,
  listRoles,
  createRole,
  getRole,
  deleteRole,
  revealRolePassword,
  resetRolePassword,
  createProject,
  getProject,
  updateProject,
  deleteProject,
  listComputeEndpoints,
  createComputeEndpoint,
  getComputeEndpoint,
  updateComputeEndpoint,
  deleteComputeEndpoint,
  startComputeEndpoint,
  suspendComputeEndpoint,
  restartComputeEndpoint,
  getConnectionUri
] as const
