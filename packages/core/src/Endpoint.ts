/**
 * The endpoints of the control API v2 in scope (the six of the contract, and
 * `GET /projects/shared`), each declared once: method, route template,
 * the schemas of its path parameters, query, body and answer (with their limits and defaults),
 * and the error statuses it answers with (`docs/contract.md` §4, §10).
 *
 * The client sends its requests from these declarations and the fake in `@dbplatform/testing`
 * routes, checks and answers from the same ones: neither spells a route, a limit or a field of
 * its own. Why a table of descriptors rather than `@effect/platform`'s `HttpApi`:
 * `docs/design.md` §1.
 *
 * @since 0.2.0
 */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { ApiKeyCreated, ApiKeyList, ApiKeyRevoked, CreateApiKeyRequest } from "./ApiKey.js"
import type { HttpStatusError } from "./ApiError.js"
import { ApiKeyId, OperationId, ProjectId } from "./Ids.js"
import { OperationEnvelope, OperationsPage } from "./Operation.js"
import { ProjectsPage } from "./Project.js"

/**
 * The path of the API's version under a server's root: a base URL ends with it
 * (`https://host/api/v2`), and every route is relative to it (§9).
 *
 * @since 0.2.0
 * @category constants
 */
export const basePath = "/api/v2"

/**
 * An error status an endpoint may answer with beyond those every endpoint may answer with
 * (401, 429, 5xx): `BadRequest`, `Forbidden`, `NotFound`, `Conflict` or `Locked`.
 *
 * @since 0.2.0
 * @category models
 */
export type EndpointError = Exclude<
  HttpStatusError["_tag"],
  "Unauthorized" | "RateLimited" | "ServerError" | "ServiceUnavailable" | "UnexpectedStatus"
>

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
 * encode what a client sends; `success` decodes the 200 answer (and encodes the fake's).
 * `errors` are the error statuses of this endpoint beyond those of every endpoint.
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
  readonly method: "GET" | "POST" | "DELETE"
  readonly route: string
  /** Path parameters; their encoded side is strings. */
  readonly params: Schema.Schema<Params, any> | undefined
  /** Query parameters; their encoded side is strings (or absent). */
  readonly query: Schema.Schema<Query, any> | undefined
  /** The JSON body. */
  readonly body: Schema.Schema<Body, any> | undefined
  readonly success: Schema.Schema<Success, any>
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
 * Declares an endpoint; a part left out (`params`, `query`, `body`, `pageLimits`) is absent.
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
  readonly method: "GET" | "POST" | "DELETE"
  readonly route: string
  readonly params?: Schema.Schema<P, PI> | undefined
  readonly query?: Schema.Schema<Q, QI> | undefined
  readonly body?: Schema.Schema<B, any> | undefined
  readonly success: Schema.Schema<S, any>
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
  errors: options.errors,
  pageLimits: options.pageLimits
})

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

/** `override: true`: the message replaces those of the schemas it refines. */
const withMessage = (message: string) => ({ message: () => ({ message, override: true }) })

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
 * Every endpoint in scope, in the order of the contract's table (§4), then those of §10
 * (`GET /projects/shared`, §10.6).
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
  listSharedProjects
] as const
