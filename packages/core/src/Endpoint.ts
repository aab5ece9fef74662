/**
 * What an endpoint of the control API v2 is, declared once: method, route template, the schemas
 * of its path parameters, query and body (their limits and defaults), of its answer, the success
 * statuses it answers with, whether its answer carries the operations it started, the error
 * statuses it answers with, and, for a list, where its items and next cursor are
 * (`docs/contract.md` §4). The endpoints themselves are declared by resource, one module each
 * (`Api.Roles`, `Api.Branches`...: `docs/design.md` §1).
 *
 * The client sends its requests from these declarations and the fake in `@dbplatform/testing`
 * routes, checks and answers from the same ones: neither spells a route, a limit or a field of
 * its own. Why a table of descriptors rather than `@effect/platform`'s `HttpApi`:
 * `docs/design.md` §1.
 *
 * @since 0.2.0
 */
import * as DateTime from "effect/DateTime"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Redacted from "effect/Redacted"
import type * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import type * as Types from "effect/Types"
import type { HttpStatusError } from "./ApiError.js"
import { basePath as apiBasePath } from "./internal/basePath.js"
import type { Operation } from "./Operation.js"

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
 * How an endpoint's body goes on the wire: `"json"`, or `"multipart"` (`multipart/form-data`,
 * one part per encoded field: bytes a file part, a string a text part; `docs/design.md` §1.7).
 *
 * @since 0.6.0
 * @category models
 */
export type BodyEncoding = "json" | "multipart"

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
 * none for an empty answer (`None`, e.g. a 204) (§6, §11.5). The client's `Operations.awaitAll`
 * takes such an answer as it is, and reads its operations with this.
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
 * Where a list endpoint's answer holds its items, and, when the list pages by cursor, the cursor
 * of the page after it (`undefined` on the last page). The client's `list` streams the items of
 * every page from it; its `listPage` answers one request as it came (`docs/design.md` §1.3).
 *
 * @since 0.4.0
 * @category models
 */
export interface List<in S, out A> {
  /** The items of one answer, in order. */
  readonly items: (answer: S) => ReadonlyArray<A>
  /** The cursor to send for the next page; absent when the endpoint answers every item at once. */
  readonly cursor?: ((answer: S) => string | undefined) | undefined
  /**
   * How many entries of one answer its `limit` counts, when that is more than its items (an
   * object list's `folders` with its objects): a page is full, and the walk goes on, when this
   * reaches the limit. The items' number when absent.
   */
  readonly size?: ((answer: S) => number) | undefined
}

/**
 * What an answer of raw bytes (an entry whose `media` is `bytes`) is as it comes, before its
 * `success` schema reads it: the body's bytes and the response headers, their names lower-cased
 * (`content-length`, `etag`). The entry's `success` schema decodes this (and the fake encodes its
 * answer to it, the bytes sent as they are, the headers set).
 *
 * @since 0.6.0
 * @category models
 */
export interface Bytes {
  readonly body: Uint8Array
  readonly headers: Readonly<Record<string, string>>
}

/**
 * What the body of an endpoint's success answer is: JSON (the default), or `bytes`, raw bytes
 * (`application/octet-stream`, an object's download) that its `success` schema reads as
 * {@link Bytes}.
 *
 * @since 0.6.0
 * @category models
 */
export type Media = "json" | "bytes"

/**
 * The ids an answer says it is about, by the name of the input they must equal: `project_id`,
 * `branch_id`, or a path into the input such as `endpoint.branch_id` (the body's compute endpoint
 * of a create). An id left `undefined` is not checked.
 *
 * @since 0.4.0
 * @category models
 */
export type About = Readonly<Record<string, unknown>>

/**
 * Where the state of what an entry creates or changes is read again once its operations have
 * finished (`docs/design.md` §1.3): `entry`, the GET entry to send (`() => Branches.get`; a
 * function, so that an entry may name one of its own group: there it is annotated with the
 * entry's name, `(): Endpoint.Named<"Branches.get"> => Branches.get`), whose answer is an
 * envelope (`{ branch }`) of a resource the entry's answer also carries; `input`, the read's
 * input, built from the entry's answer and the call's input (`{ project_id, branch_id }`). The
 * client's `{ wait: true }` sends it after the wait; an entry without one (a delete, a resource
 * with no GET) answers the wait with its own answer.
 *
 * @since 0.5.0
 * @category models
 */
export interface ReadBack<in S = any, in I = any, out N extends string = string> {
  /** The GET entry, `Group.key` by name (`"ComputeEndpoints.get"`). */
  readonly entry: () => Named<N>
  /** The read's input: the path parameters of `entry`. */
  readonly input: (answer: S, input: I) => Readonly<Record<string, unknown>>
}

/**
 * An endpoint that is not a list, by its name (`Named<"Branches.get">`): what a {@link ReadBack}
 * reads.
 *
 * @since 0.5.0
 * @category models
 */
export type Named<N extends string> = Endpoint<N, any, any, any, any, EndpointError, never>

/**
 * The part of a request an input key goes to: a path parameter, a query parameter, or a
 * top-level field of the JSON body.
 *
 * @since 0.4.0
 * @category models
 */
export type Part = "params" | "query" | "body"

/**
 * One endpoint. `name` (e.g. `Operations.get`: its group and its key there) names the client's
 * method and span for it; `route` is the path template relative to the base URL, with `{param}`
 * for each path parameter. `params`, `query` and `body` decode what a server receives (path
 * parameters and query as strings) and encode what a client sends; `success` decodes the success
 * answer (and encodes the fake's), `statuses` are the success statuses it answers with (`[200]`
 * for most; a 204 has no body, and `success` then decodes `undefined`). `startsOperations` is
 * `true` when the answer carries the `operations` the request started. `errors` are the error
 * statuses of this endpoint beyond those of every endpoint. `list` says where a list's items
 * and next cursor are; `about` which ids its answer must be about (§4 rule 3); `readBack` where
 * what it creates or changes is read again after a wait.
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
  out Errors extends EndpointError = EndpointError,
  Item = any
> {
  readonly name: Name
  readonly method: Method
  readonly route: string
  /** Path parameters; their encoded side is strings. */
  readonly params: Schema.Schema<Params, any> | undefined
  /** Query parameters; their encoded side is strings (or absent). */
  readonly query: Schema.Schema<Query, any> | undefined
  /** The body: JSON, or `multipart/form-data` by `bodyEncoding`. */
  readonly body: Schema.Schema<Body, any> | undefined
  /**
   * How the body goes on the wire: `"json"` (most), or `"multipart"`, `multipart/form-data`
   * whose parts are the body's encoded fields: a `Uint8Array` a file part, a string a text part
   * (`docs/design.md` §1.7).
   */
  readonly bodyEncoding: BodyEncoding
  readonly success: Schema.Schema<Success, any>
  /** The success statuses it answers with; a 204 has no body (`success` decodes `undefined`). */
  readonly statuses: ReadonlyArray<SuccessStatus>
  /** Whether its answer carries the `operations` the request started (§4 rule 4). */
  readonly startsOperations: boolean
  readonly errors: ReadonlyArray<Errors>
  /** For a list endpoint that pages, its page size limits. */
  readonly pageLimits: PageLimits | undefined
  /** For a list endpoint, where its items and next cursor are; `undefined` for any other. */
  readonly list: [Item] extends [never] ? undefined : List<Success, Item>
  /** The ids its answer says it is about, checked against the input (see {@link problem}). */
  readonly about: ((answer: Success) => About) | undefined
  /** Where what it creates or changes is read again after a wait ({@link ReadBack}). */
  readonly readBack: ReadBack<Success> | undefined
  /** What its success answer's body is: JSON, or raw bytes read as {@link Bytes} ({@link Media}). */
  readonly media: Media
  /** Each input key's part of the request, from the schemas' fields. */
  readonly parts: ReadonlyMap<string, Part>
}

/**
 * The input of a request to `E`: one object whose keys are its path parameters, query
 * parameters and top-level body fields, by the names of the platform's API reference
 * (`{ project_id, branch_id, role: { name } }`); optional keys may be left out (and, by the
 * client's methods, the whole object when every key is optional: `docs/design.md` §1.3).
 *
 * @since 0.2.0
 * @category models
 */
export type Input<E extends Endpoint> =
  E extends Endpoint<any, infer P, infer Q, infer B, any, any, any>
    ? Types.Simplify<Flat<P> & Flat<Q> & Flat<B>>
    : never

type Flat<A> = [A] extends [undefined] ? {} : A

/**
 * The decoded answer of `E`.
 *
 * @since 0.2.0
 * @category models
 */
export type Success<E extends Endpoint> = E extends Endpoint<any, any, any, any, infer S, any, any> ? S : never

/**
 * The tags of the error statuses `E` answers with beyond those of every endpoint.
 *
 * @since 0.2.0
 * @category models
 */
export type Errors<E extends Endpoint> = E extends Endpoint<any, any, any, any, any, infer X, any> ? X : never

/**
 * The items of a list endpoint `E` (`never` for an endpoint that is not a list).
 *
 * @since 0.4.0
 * @category models
 */
export type Item<E extends Endpoint> = E["list"] extends List<any, infer A> ? A : never

/**
 * Declares an endpoint of a group ({@link group} names it); a part left out (`params`, `query`,
 * `body`, `pageLimits`, `list`, `about`, `readBack`) is absent, `statuses` is `[200]` when left out,
 * `bodyEncoding` `"json"`, `media` `json`, and
 * `startsOperations` `false`. `startsOperations: true` is taken only when the answer's type
 * carries `operations` ({@link CarriesOperations}). Throws when two parts share an input key (one
 * flat input could not say which part it is for).
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = <
  S,
  const Errors extends EndpointError = never,
  P = {},
  Q = {},
  B = undefined,
  A = never,
  PI extends Readonly<Record<string, string>> = {},
  QI extends Readonly<Record<string, string | undefined>> = {},
  const N extends string = never
>(options: {
  readonly method: Method
  readonly route: string
  readonly params?: Schema.Schema<P, PI> | undefined
  readonly query?: Schema.Schema<Q, QI> | undefined
  readonly body?: Schema.Schema<B, any> | undefined
  readonly bodyEncoding?: BodyEncoding | undefined
  readonly success: Schema.Schema<S, any>
  readonly statuses?: ReadonlyArray<SuccessStatus> | undefined
  readonly startsOperations?: ([S] extends [CarriesOperations] ? boolean : false) | undefined
  readonly errors: ReadonlyArray<Errors>
  readonly pageLimits?: PageLimits | undefined
  readonly list?: List<S, A> | undefined
  readonly about?: ((answer: S) => About) | undefined
  readonly readBack?: ReadBack<S, Types.Simplify<Flat<P> & Flat<Q> & Flat<B>>, N> | undefined
  readonly media?: Media | undefined
}): Endpoint<string, P, Q, B, S, Errors, A> & ReadsBack<N> => {
  const parts = new Map<string, Part>()
  for (const [part, schema] of [
    ["params", options.params],
    ["query", options.query],
    ["body", options.body]
  ] as const) {
    if (schema === undefined) continue
    for (const { name: key } of propertySignatures(schema.ast)) {
      if (typeof key !== "string") continue
      const other = parts.get(key)
      if (other !== undefined) {
        throw new Error(`${options.method} ${options.route}: "${key}" is in both its ${other} and its ${part}`)
      }
      parts.set(key, part)
    }
  }
  return {
    name: "",
    method: options.method,
    route: options.route,
    params: options.params,
    query: options.query,
    body: options.body,
    bodyEncoding: options.bodyEncoding ?? "json",
    success: options.success,
    statuses: options.statuses ?? ok,
    startsOperations: options.startsOperations ?? false,
    errors: options.errors,
    pageLimits: options.pageLimits,
    // `undefined` exactly when no `list` is given, as the type says.
    list: options.list as Endpoint<string, P, Q, B, S, Errors, A>["list"],
    about: options.about,
    readBack: options.readBack,
    media: options.media ?? "json",
    parts
  } as Endpoint<string, P, Q, B, S, Errors, A> & ReadsBack<N>
}

/**
 * The top-level fields of a part's schema: for a union body (the email provider's, told apart by
 * `type`), those of every member, each once, so that the one flat input takes any variant's
 * fields (`docs/design.md` §1.3); for any other schema, its fields.
 */
const propertySignatures = (ast: SchemaAST.AST): ReadonlyArray<SchemaAST.PropertySignature> => {
  if (ast._tag !== "Union") return SchemaAST.getPropertySignatures(ast)
  const byName = new Map<PropertyKey, SchemaAST.PropertySignature>()
  for (const member of ast.types) {
    for (const signature of propertySignatures(member)) {
      if (!byName.has(signature.name)) byName.set(signature.name, signature)
    }
  }
  return [...byName.values()]
}

/**
 * What an entry declared with a `readBack` of the entry named `N` adds to its type: which entry
 * that is, for the client to type the read's errors (`never`: none declared).
 *
 * @since 0.5.0
 * @category models
 */
export type ReadsBack<N extends string> = [N] extends [never] ? {} : { readonly readBack: ReadBack<any, any, N> }

/** The success statuses of most endpoints. */
const ok: ReadonlyArray<SuccessStatus> = [200]

/**
 * The endpoints of one resource, by their client method name, each named `Group.key`
 * (`Roles.create`).
 *
 * @since 0.4.0
 * @category models
 */
export type Group<G extends string, T> = {
  readonly [K in keyof T]: T[K] & { readonly name: `${G}.${K & string}` }
}

/**
 * Declares the endpoints of one resource together: `entries` by the name of the client method
 * that sends each (`list`, `create`...), each named `name.key` (`Roles.create`, also its span's
 * name). What the client's service, the fake's routes, the docs' index and the table-driven
 * tests are derived from (`docs/design.md` §1).
 *
 * @since 0.4.0
 * @category constructors
 */
export const group = <
  const G extends string,
  // Not `Endpoint`: as a contextual type it would make each entry's item type `any`.
  const T extends Readonly<Record<string, { readonly route: string }>>
>(
  name: G,
  entries: T
): Group<G, T> => {
  const named: Record<string, unknown> = {}
  for (const [key, entry] of Object.entries(entries)) named[key] = { ...entry, name: `${name}.${key}` }
  return named as Group<G, T>
}

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
    // Routes are the endpoint table's templates: a few hundred at most. Anything else is not kept.
    if (splitRoutes.size < 512) splitRoutes.set(route, parts)
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
 * Refuses a field no schema declares, at any depth: nothing a caller sends is dropped without a
 * word (`docs/design.md` §1.4).
 */
const strict: SchemaAST.ParseOptions = { onExcessProperty: "error" }
const strictAll: SchemaAST.ParseOptions = { onExcessProperty: "error", errors: "all" }

/**
 * Encodes `input` (one object: path parameters, query and body fields by their wire names) for
 * `endpoint` with its schemas. Fails with a `ParseError` naming the problems of the first part
 * its schema refuses, or every key of the input that is in no part (`{ expires_at }` on an
 * endpoint that has no such field): a key is never dropped, and a field nested in the body that
 * its schema does not declare is refused too. A key given as `undefined` is taken as not given.
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
  const split: Record<Part, Record<string, unknown>> = { params: {}, query: {}, body: {} }
  const unknown: Array<ParseResult.ParseIssue> = []
  const given: Readonly<Record<string, unknown>> = input ?? {}
  for (const key of Object.keys(given)) {
    const value = given[key]
    if (value === undefined) continue
    const part = endpoint.parts.get(key)
    if (part === undefined) unknown.push(new ParseResult.Pointer(key, given, new ParseResult.Unexpected(value)))
    else split[part][key] = value
  }
  if (unknown.length > 0) {
    return Either.left(
      ParseResult.parseError(
        new ParseResult.Composite(
          inputAst(endpoint),
          given,
          unknown as [ParseResult.ParseIssue, ...Array<ParseResult.ParseIssue>]
        )
      )
    )
  }
  const params = encodePart<Readonly<Record<string, string>>>(endpoint.params, split.params)
  if (Either.isLeft(params)) return Either.left(params.left)
  const query = encodePart<Readonly<Record<string, string | undefined>>>(endpoint.query, split.query)
  if (Either.isLeft(query)) return Either.left(query.left)
  const body = encodePart<unknown>(endpoint.body, split.body)
  if (Either.isLeft(body)) return Either.left(body.left)
  const entries: Array<readonly [string, string]> = []
  for (const [key, value] of Object.entries(query.right ?? {})) {
    if (value !== undefined) entries.push([key, value])
  }
  return Either.right({ path: path(endpoint.route, params.right ?? {}), query: entries, body: body.right })
}

/**
 * The one flat input `endpoint` takes, every part's fields in one type literal: what a refusal of
 * a key no part has is about (`ParseError`'s message shows it).
 */
const inputAst = (endpoint: Endpoint): SchemaAST.TypeLiteral =>
  new SchemaAST.TypeLiteral(
    [endpoint.params, endpoint.query, endpoint.body].flatMap((schema) =>
      schema === undefined ? [] : propertySignatures(schema.ast)
    ),
    []
  )

/**
 * One part of a request encoded with `schema` (none: `undefined`), as `I`, the encoded side of
 * the endpoint's schema for that part; refused, with every problem named.
 */
const encodePart = <I>(
  schema: Schema.Schema<any, any> | undefined,
  value: unknown
): Either.Either<I | undefined, ParseResult.ParseError> => {
  if (schema === undefined) return Either.right(undefined)
  const first = ParseResult.encodeUnknownEither(schema, strict)(value)
  if (Either.isRight(first)) return Either.right(first.right)
  const all = ParseResult.encodeUnknownEither(schema, strictAll)(value)
  return Either.left(ParseResult.parseError(Either.isLeft(all) ? all.left : first.left))
}

/** The ids every answer's items are checked against, when the input names them (§4 rule 3). */
const scoped = ["project_id", "branch_id", "endpoint_id"] as const

/**
 * What is wrong with `answer` as the answer to `input` sent to `endpoint`, or `undefined` when it
 * may be right (`docs/contract.md` §4 rule 3, §10.1):
 * - an id the entry's `about` reads from the answer is not the input's (`branch` `br-b`, not
 *   `br-a`);
 * - an item of the answer, at any depth, has a `project_id`, `branch_id` or `endpoint_id` other
 *   than the input's of the same name (a page holding another project's operation); of the
 *   `operations` a request started, only the `project_id` is checked (a restore starts one on the
 *   branch it preserves);
 * - a page of a list holds more items than its `limit` (or than the endpoint's largest page
 *   when none was sent and the server has a default page size).
 *
 * @since 0.4.0
 * @category checks
 */
export const problem = <E extends Endpoint>(endpoint: E, input: Input<E>, answer: Success<E>): string | undefined => {
  const given: Readonly<Record<string, unknown>> = input ?? {}
  if (endpoint.about !== undefined) {
    for (const [key, value] of Object.entries(endpoint.about(answer))) {
      const expected = at(given, key)
      if (value !== undefined && expected !== undefined && value !== expected) {
        return `the answer is about ${key} ${String(value)}, not ${String(expected)}`
      }
    }
  }
  const expected = scoped.filter((key) => typeof given[key] === "string")
  if (expected.length > 0) {
    const found = foreign(answer, given, expected, 0)
    if (found !== undefined) return found
  }
  if (endpoint.list !== undefined) {
    const limit =
      typeof given.limit === "number"
        ? given.limit
        : endpoint.pageLimits?.default === undefined
          ? undefined
          : endpoint.pageLimits.max
    const length = endpoint.list.size?.(answer) ?? endpoint.list.items(answer).length
    if (limit !== undefined && length > limit) return `the page has ${length} items, more than the limit of ${limit}`
  }
  return undefined
}

/** The value at `path` (`endpoint.branch_id`) in `input`. */
const at = (input: Readonly<Record<string, unknown>>, path: string): unknown => {
  let value: unknown = input
  for (const key of path.split(".")) {
    if (typeof value !== "object" || value === null) return undefined
    value = (value as Readonly<Record<string, unknown>>)[key]
  }
  return value
}

/** Decoded answers are a few levels deep; deeper is not an answer of the table. */
const maxDepth = 8

/** The first item of `value` whose `project_id`, `branch_id` or `endpoint_id` is not the input's. */
const foreign = (
  value: unknown,
  input: Readonly<Record<string, unknown>>,
  keys: ReadonlyArray<(typeof scoped)[number]>,
  depth: number
): string | undefined => {
  if (typeof value !== "object" || value === null || depth > maxDepth) return undefined
  if (Redacted.isRedacted(value) || DateTime.isDateTime(value) || ArrayBuffer.isView(value)) return undefined
  if (Option.isOption(value)) return Option.isSome(value) ? foreign(value.value, input, keys, depth + 1) : undefined
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = foreign(item, input, keys, depth + 1)
      if (found !== undefined) return found
    }
    return undefined
  }
  const record = value as Readonly<Record<string, unknown>>
  for (const key of keys) {
    const id = record[key]
    if (typeof id === "string" && id !== input[key]) {
      const what = typeof record.id === "string" ? ` (${record.id})` : ""
      return `the answer holds an item${what} of ${key} ${id}, not ${String(input[key])}`
    }
  }
  for (const key of Object.keys(record)) {
    // The operations a request started may be about other branches (a restore's preserved branch,
    // the compute endpoints a branch's deletion suspends): only their project is the input's.
    const found = foreign(record[key], input, key === "operations" ? projectOnly(keys) : keys, depth + 1)
    if (found !== undefined) return found
  }
  return undefined
}

/** The `project_id` of `keys`, if the input names one. */
const projectOnly = (keys: ReadonlyArray<(typeof scoped)[number]>): ReadonlyArray<(typeof scoped)[number]> =>
  keys.includes("project_id") ? ["project_id"] : []
