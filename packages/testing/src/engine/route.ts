/**
 * How one route of the fake is built from its entry of core's groups (`Api.Roles.create`...):
 * decoding, the `Gate`, who may call it (`Access`, by the entry's declared `Authorization`),
 * refusals and the answer (docs/design.md §1.2). Each resource's routes
 * (`resources/<Group>/handlers.ts`) are built with {@link route}; `internal/routes.ts` puts them
 * together.
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { type Endpoint } from "@dbplatform/core"
import * as Arr from "effect/Array"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { identity } from "effect/Function"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import { readJsonBody, readMultipartBody } from "./limits.js"
import { errorBody } from "./wire.js"
import { badRequest, Refusal } from "./refusal.js"
import type { Authorization } from "./authorization.js"

export const orBadRequest = <A, R>(
  effect: Effect.Effect<A, ParseResult.ParseError | Refusal, R>
): Effect.Effect<A, Refusal, R> =>
  Effect.catchIf(effect, ParseResult.isParseError, (error) => Effect.fail(badRequest(error.issue)))

/** A route template of the contract (`/api_keys/{key_id}`) as `HttpRouter` spells it (`/api_keys/:key_id`). */
export const routerPath = (route: string): HttpRouter.PathInput =>
  route.replace(/\{(\w+)\}/g, ":$1") as HttpRouter.PathInput

/**
 * The decoded path parameters, query and body of a request to `E`, and the origin it was sent to
 * (`http://127.0.0.1:4000`: where a URL the fake makes for its caller points, a presigned one).
 */
export type Input<E> =
  E extends Endpoint.Endpoint<any, infer P, infer Q, infer B, any, any>
    ? { readonly params: P; readonly query: Q; readonly body: B; readonly origin: string }
    : never

/** The origin `request` was sent to, from its URL or `Host` header (`http://fake` when it names none). */
const originOf = (request: HttpServerRequest.HttpServerRequest): string =>
  Option.match(HttpServerRequest.toURL(request), { onNone: () => "http://fake", onSome: (url) => url.origin })

/** What a route answers for a request to `E`: its decoded answer, or a refusal. */
export type Handle<E extends Endpoint.Endpoint> = (input: Input<E>) => Effect.Effect<Endpoint.Success<E>, Refusal>

/**
 * How the fake answers one endpoint `E`: `handle`, or `handle` and `undeclared`, which adds to the
 * encoded answer the fields core does not declare but the deployed API sends (`wire.ts`), and/or
 * `query`, the query the route decodes in place of the endpoint's, for a parameter the published
 * document declares that core does not (the deprecated `name` of a snapshot restore, which one
 * flat input cannot hold beside the body's, docs/design.md §1.4).
 */
export type Handler<E extends Endpoint.Endpoint> =
  | Handle<E>
  | {
      readonly handle: Handle<E>
      readonly undeclared?: ((encoded: any) => unknown) | undefined
      readonly query?: Schema.Schema<any, any> | undefined
    }

/**
 * The handlers of a group of core's `Api` (`Api.Roles`...), one per entry: a group's behaviour
 * module must give every one (a missing handler is a type error, docs/design.md §1.5).
 */
export type Handlers<G> = { readonly [K in keyof G]: G[K] extends Endpoint.Endpoint ? Handler<G[K]> : never }

/**
 * A field no schema of the endpoint declares, in the body or the query, is refused with a 400
 * naming it: the fake never drops what a client sends without a word (docs/design.md §1.4).
 */
const strict = { onExcessProperty: "error" } as const

/**
 * The query keys of `query` whose decoded value is a list (`metrics`, `project_ids`). The
 * published reference takes such a parameter repeated (`metrics=a&metrics=b`) or as one
 * comma-separated value (`metrics=a,b`); core's schemas read the latter (docs/contract.md §23).
 */
const listKeys = (query: Schema.Schema.Any): ReadonlySet<string> => {
  const keys = new Set<string>()
  for (const signature of SchemaAST.getPropertySignatures(query.ast)) {
    const type = SchemaAST.typeAST(signature.type)
    const members = SchemaAST.isUnion(type) ? type.types : [type]
    if (typeof signature.name === "string" && members.some(SchemaAST.isTupleType)) keys.add(signature.name)
  }
  return keys
}

/** The search parameters with each list parameter in `lists` sent more than once joined with commas. */
const joinedLists = (
  params: Readonly<Record<string, string | ReadonlyArray<string>>>,
  lists: ReadonlySet<string>
): Readonly<Record<string, string | ReadonlyArray<string>>> => {
  const joined: Record<string, string | ReadonlyArray<string>> = { ...params }
  for (const key of lists) {
    const value = params[key]
    if (Array.isArray(value)) joined[key] = value.join(",")
  }
  return joined
}

/** How a route reads its query and body: effects over the request, the same for every fake. */
interface Readers {
  readonly readQuery: Effect.Effect<
    any,
    ParseResult.ParseError | Refusal,
    HttpServerRequest.ParsedSearchParams | HttpServerRequest.HttpServerRequest
  >
  readonly readBody:
    | Effect.Effect<any, ParseResult.ParseError | Refusal, HttpServerRequest.HttpServerRequest>
    | undefined
}

/**
 * The readers of each endpoint, by the query schema its route decodes: they depend on the
 * endpoint alone, so every fake's routes share them rather than derive them again (the body's
 * encoded schema, its list parameters: about a third of the cost of making a fake).
 */
const readers = new WeakMap<Endpoint.Endpoint, Map<Schema.Schema<any, any> | undefined, Readers>>()

/** The readers of `endpoint` with the query `querySchema` (see {@link readers}). */
const readersOf = (endpoint: Endpoint.Endpoint, querySchema: Schema.Schema<any, any> | undefined): Readers => {
  const known = readers.get(endpoint) ?? new Map<Schema.Schema<any, any> | undefined, Readers>()
  const found = known.get(querySchema)
  if (found !== undefined) return found
  const lists = querySchema === undefined ? new Set<string>() : listKeys(querySchema)
  // A list parameter may come repeated: joined, it decodes as the one comma-separated value.
  const readQuery =
    querySchema === undefined
      ? noQuery
      : lists.size === 0
        ? HttpServerRequest.schemaSearchParams(querySchema, strict)
        : Effect.flatMap(HttpServerRequest.ParsedSearchParams, (params) =>
            Schema.decodeUnknown(querySchema, strict)(joinedLists(params, lists))
          )
  const body = endpoint.body
  const readBody =
    body === undefined
      ? undefined
      : Effect.flatMap(
          endpoint.bodyEncoding === "multipart"
            ? readMultipartBody
            : jsonBody(Schema.is(Schema.encodedSchema(body))({})),
          Schema.decodeUnknown(body, strict)
        )
  const made: Readers = { readQuery, readBody }
  readers.set(endpoint, known.set(querySchema, made))
  return made
}

/**
 * The route of `endpoint`: its method and route template, its path parameters, query and body
 * decoded with its schemas (400 when they do not decode, or hold a field they do not declare;
 * the `Access` check, by `authorization`, the entry's declaration of who may call it
 * (docs/contract.md §21), runs between the path parameters and the rest),
 * `handler`'s answer encoded with its `success` schema, then passed to its `undeclared` (fields
 * core does not declare, see `wire.ts`). The answer goes out with the first success status the
 * endpoint declares (201 for a create); one that encodes to nothing, with 204 and no body
 * (docs/contract.md §11.4), or, for an endpoint that does not answer 204, its first status with
 * no body (a VPC endpoint assigned: 200, docs/contract.md §22.3).
 */
export const route = <E extends Endpoint.Endpoint>(endpoint: E, handler: Handler<E>, authorization: Authorization) => {
  const {
    handle,
    undeclared = identity,
    query: ownQuery
  } = typeof handler === "function" ? { handle: handler } : handler
  const { readQuery, readBody } = readersOf(endpoint, ownQuery ?? endpoint.query)
  return HttpRouter.makeRoute(
    endpoint.method,
    routerPath(endpoint.route),
    Effect.gen(function* () {
      yield* (yield* Gate)(endpoint)
      const params =
        endpoint.params === undefined ? undefined : yield* orBadRequest(HttpRouter.schemaPathParams(endpoint.params))
      // Who may: before the query and body are read, so a key refused learns nothing of them.
      yield* (yield* Access)(endpoint, authorization, params)
      const query = yield* orBadRequest(readQuery)
      const body = readBody === undefined ? undefined : yield* orBadRequest(readBody)
      const request = yield* HttpServerRequest.HttpServerRequest
      const answer = yield* handle({
        params,
        query,
        body,
        get origin() {
          return originOf(request)
        }
      } as Input<E>)
      // An answer core's schema cannot encode is a bug of the fake: a defect, answered 500.
      const encoded = yield* Effect.orDie(Schema.encode(endpoint.success)(answer))
      if (endpoint.media === "bytes") return bytesResponse(encoded as Endpoint.Bytes, endpoint.statuses[0])
      return encoded === undefined
        ? HttpServerResponse.empty({ status: emptyStatus(endpoint) })
        : HttpServerResponse.unsafeJson(undeclared(encoded), { status: endpoint.statuses[0] })
    })
  )
}

/**
 * An answer of raw bytes (`Endpoint.Bytes`, an object's download): the bytes as they are, with
 * their headers; `Content-Type` `application/octet-stream` unless they name one, and
 * `Content-Length` the bytes' (the server sets it).
 */
const bytesResponse = ({ body, headers }: Endpoint.Bytes, status: number | undefined) => {
  const { "content-length": _length, "content-type": contentType, ...rest } = headers
  return HttpServerResponse.uint8Array(body, {
    status: status ?? 200,
    headers: rest,
    contentType: contentType ?? "application/octet-stream"
  })
}

/** The status of an answer with no body: 204 when the endpoint answers it, else its first status. */
const emptyStatus = (endpoint: Endpoint.Endpoint) => (endpoint.statuses.includes(204) ? 204 : endpoint.statuses[0])

/**
 * The query of an endpoint that takes none: any parameter sent is refused by name (a 400, as a
 * parameter another endpoint's query does not declare). Not an empty `Schema.Struct`, which takes
 * any object, whatever its keys.
 */
const noQuery = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
  // Most requests send no query at all: the search parameters are parsed only when there is one.
  request.url.includes("?")
    ? Effect.flatMap(HttpServerRequest.ParsedSearchParams, (params) => {
        const sent = Object.keys(params).map(
          (key) => new ParseResult.Pointer(key, params, new ParseResult.Unexpected(params[key]))
        )
        return Arr.isNonEmptyArray(sent)
          ? Effect.fail(badRequest(new ParseResult.Composite(Schema.Struct({}).ast, params, sent)))
          : Effect.succeed({})
      })
    : Effect.succeed({})
)

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
 * What a route runs first, with its endpoint, before reading anything of the request: the
 * fake's rate limit, which may refuse it (a 429, docs/contract.md §10.2). A tag with no default:
 * a route requires it, so the fake that serves the routes must provide it (`FakePlatform.ts`:
 * its rate limit, or none).
 */
export class Gate extends Context.Tag("@dbplatform/testing/internal/Gate")<
  Gate,
  (endpoint: Endpoint.Endpoint) => Effect.Effect<void, Refusal>
>() {}

/**
 * What a route runs once its path parameters are decoded, with its endpoint, the `Authorization`
 * declared for it and them, before its query and body: whether the request's key may act there
 * (`authorization.ts`, docs/contract.md §21), which may refuse it (404, 403). A tag with no
 * default: a route requires it, so the fake that serves the routes must provide it
 * (`FakePlatform.ts`, with the request's key); nothing lets a request through by default.
 */
export class Access extends Context.Tag("@dbplatform/testing/internal/Access")<
  Access,
  (endpoint: Endpoint.Endpoint, authorization: Authorization, params: unknown) => Effect.Effect<void, Refusal>
>() {}

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
