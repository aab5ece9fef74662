import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Clock from "effect/Clock"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as DateTime from "effect/DateTime"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import { CreateApiKeyRequest, OperationId, ProjectId, Timestamp } from "@dbplatform/core"
import { excerpt, readJsonBody } from "./limits.js"
import {
  iso,
  keyListJson,
  keyRevokedJson,
  operationJson,
  projectJson,
  type Store,
  type StoredKey,
  userId
} from "./store.js"

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

/** How many problems one message names; more are summed up as "and more". */
const describedIssuesLimit = 3

/** The longest message about a request's input, in characters: a safety net, messages are shorter. */
const issuesMessageLimit = 300

/** A message set on a schema with `message` annotations, as `ParseResult`'s formatters pick it. */
const annotatedMessage = (issue: ParseResult.ParseIssue): string | undefined => {
  if (!("ast" in issue)) return undefined
  const annotation = AST.getMessageAnnotation(issue.ast)
  if (Option.isNone(annotation)) return undefined
  const given = annotation.value(issue)
  // A message computed by an Effect is not run: the default below is used instead.
  const current =
    typeof given === "string"
      ? { message: given, override: false }
      : typeof given === "object" && given !== null && "message" in given && typeof given.message === "string"
        ? { message: given.message, override: given.override === true }
        : undefined
  if (current === undefined) return undefined
  const useInner =
    !current.override &&
    (issue._tag === "Composite" ||
      (issue._tag === "Refinement" && issue.kind === "From") ||
      (issue._tag === "Transformation" && issue.kind !== "Transformation"))
  if (!useInner) return current.message
  return issue._tag === "Refinement" || issue._tag === "Transformation" ? annotatedMessage(issue.issue) : undefined
}

/** What a refused value is, without walking into it: its type, and a short excerpt of a scalar. */
const valueSummary = (value: unknown): string => {
  if (value === null) return "null"
  if (Array.isArray(value)) return `an array of ${value.length} items`
  switch (typeof value) {
    case "string":
      return `"${excerpt(value)}"`
    case "number":
    case "boolean":
    case "bigint":
      return excerpt(String(value))
    case "undefined":
      return "nothing"
    case "object":
      return "an object"
    default:
      return typeof value
  }
}

/**
 * The problems of `issue` as `path: message` lines, at most `describedIssuesLimit + 1`. Messages
 * come from the schema (its `message` annotations, the expected type) and never quote more of
 * the refused value than a short excerpt of a scalar: formatting never walks into the value,
 * so a large or deep input costs no more than a small one.
 */
const issueLines = (issue: ParseResult.ParseIssue, path: ReadonlyArray<PropertyKey>, lines: Array<string>): void => {
  if (lines.length > describedIssuesLimit) return
  const add = (message: string) =>
    lines.push(path.length === 0 ? message : `${path.map((key) => excerpt(String(key))).join(".")}: ${message}`)
  switch (issue._tag) {
    case "Type":
      add(
        annotatedMessage(issue) ??
          (issue.message === undefined ? undefined : excerpt(issue.message)) ??
          `expected ${excerpt(String(issue.ast))}, got ${valueSummary(issue.actual)}`
      )
      break
    case "Missing":
      add("is missing")
      break
    case "Unexpected":
      add("is unexpected")
      break
    case "Forbidden":
      add("is forbidden")
      break
    case "Pointer":
      issueLines(issue.issue, path.concat(issue.path), lines)
      break
    case "Composite": {
      const message = annotatedMessage(issue)
      if (message !== undefined) {
        add(message)
        break
      }
      const issues = (
        Array.isArray(issue.issues) ? issue.issues : [issue.issues]
      ) as ReadonlyArray<ParseResult.ParseIssue>
      // An optional field's union also fails as "not undefined": say only what the value should be.
      const named = issues.filter((inner) => !(inner._tag === "Type" && AST.isUndefinedKeyword(inner.ast)))
      for (const inner of named.length > 0 ? named : issues) issueLines(inner, path, lines)
      break
    }
    case "Refinement":
    case "Transformation": {
      const message = annotatedMessage(issue)
      if (message === undefined) issueLines(issue.issue, path, lines)
      else add(message)
      break
    }
  }
}

/** What is wrong with a request's input, one line, by field: at most three problems, each short. */
const describeIssues = (error: ParseResult.ParseError): string => {
  const lines: Array<string> = []
  issueLines(error.issue, [], lines)
  const message =
    lines.length > describedIssuesLimit
      ? `${lines.slice(0, describedIssuesLimit).join("; ")}; and more`
      : lines.join("; ")
  return message.length > issuesMessageLimit ? `${message.slice(0, issuesMessageLimit - 3)}...` : message
}

/** Input that does not decode is a 400 with a `GeneralError` saying why (docs/contract.md §10.2). */
const orBadRequest = <A, E, R>(
  effect: Effect.Effect<A, E | ParseResult.ParseError, R>
): Effect.Effect<A, E | Refusal, R> =>
  Effect.catchIf(effect, ParseResult.isParseError, (error) =>
    Effect.fail(new Refusal({ status: 400, message: describeIssues(error) }))
  )

const withMessage = (message: string) => ({ message: () => ({ message, override: true }) })

/** `limit`: an integer from 1 to `max`, in decimal. */
const Limit = (max: number) =>
  Schema.String.pipe(
    Schema.pattern(/^\d{1,7}$/),
    Schema.compose(Schema.NumberFromString),
    Schema.between(1, max)
  ).annotations(withMessage(`limit must be an integer from 1 to ${max}`))

/** `cursor`: a timestamp (the `created_at` of the previous page's last item), as epoch ms. */
const Cursor = Timestamp.pipe(
  Schema.transform(Schema.Number, { strict: true, decode: DateTime.toEpochMillis, encode: DateTime.unsafeMake })
).annotations(withMessage("cursor must be an RFC 3339 timestamp from a previous page"))

const ProjectsQuery = Schema.Struct({
  limit: Schema.optionalWith(Limit(400), { default: () => 10 }),
  cursor: Schema.optional(Cursor),
  search: Schema.optional(Schema.String)
})

const OperationsQuery = Schema.Struct({
  project_id: ProjectId.annotations(withMessage("project_id must match ^[a-z0-9-]{1,60}$")),
  limit: Schema.optional(Limit(1000)),
  cursor: Schema.optional(Cursor)
})

const OperationParams = Schema.Struct({
  project_id: ProjectId.annotations(withMessage("project_id must match ^[a-z0-9-]{1,60}$")),
  operation_id: OperationId.annotations(withMessage("operation_id must be a UUID"))
})

const KeyParams = Schema.Struct({
  key_id: Schema.String.pipe(Schema.pattern(/^\d{1,15}$/), Schema.compose(Schema.NumberFromString)).annotations(
    withMessage("key_id must be an integer")
  )
})

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

const notFound = (what: string) => new Refusal({ status: 404, message: `${what} not found` })

/** The operations of a known project, or a 404. */
const operationsOf = (store: Store, projectId: string) => {
  const operations = store.operations.get(projectId)
  return operations === undefined ? Effect.fail(notFound("project")) : Effect.succeed(operations)
}

/** The routes of the control API v2 in scope, over `store`, under `/api/v2`. */
export const router = (store: Store) =>
  HttpRouter.empty.pipe(
    HttpRouter.post(
      "/api_keys",
      Effect.gen(function* () {
        const json = yield* Effect.mapError(readJsonBody, (refused) => new Refusal(refused))
        const body = yield* orBadRequest(Schema.decodeUnknown(CreateApiKeyRequest)(json))
        const value = newKeyValue()
        const key = store.addKey(body.key_name, hashKey(value), yield* Clock.currentTimeMillis)
        return HttpServerResponse.unsafeJson({
          id: key.id,
          key: value,
          name: key.name,
          created_at: iso(key.created_at),
          created_by: userId
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
        const { key_id } = yield* orBadRequest(HttpRouter.schemaPathParams(KeyParams))
        const key = store.keys.get(key_id)
        if (key === undefined || key.revoked) return yield* notFound("API key")
        return HttpServerResponse.unsafeJson(keyRevokedJson(store.revokeKey(key)))
      })
    ),
    HttpRouter.get(
      "/projects",
      Effect.gen(function* () {
        const query = yield* orBadRequest(HttpServerRequest.schemaSearchParams(ProjectsQuery))
        const { search } = query
        const matching =
          search === undefined
            ? store.projects
            : store.projects.filter((project) => project.id.includes(search) || project.name.includes(search))
        const { page, cursor } = pageOf(matching, query.cursor, query.limit, yield* Clock.currentTimeMillis)
        return HttpServerResponse.unsafeJson({
          projects: page.map(projectJson),
          pagination: { cursor },
          applications: {},
          integrations: {}
        })
      })
    ),
    HttpRouter.get(
      "/projects/:project_id/operations",
      Effect.gen(function* () {
        const query = yield* orBadRequest(HttpRouter.schemaParams(OperationsQuery))
        const operations = yield* operationsOf(store, query.project_id)
        const now = yield* Clock.currentTimeMillis
        const { page, cursor } = pageOf(operations, query.cursor, query.limit, now)
        return HttpServerResponse.unsafeJson({
          operations: page.map((operation) => operationJson(operation, now)),
          pagination: { cursor }
        })
      })
    ),
    HttpRouter.get(
      "/projects/:project_id/operations/:operation_id",
      Effect.gen(function* () {
        const params = yield* orBadRequest(HttpRouter.schemaPathParams(OperationParams))
        yield* operationsOf(store, params.project_id)
        const operation = store.operationsById.get(params.operation_id)
        if (operation === undefined || operation.project_id !== params.project_id) {
          return yield* notFound("operation")
        }
        return HttpServerResponse.unsafeJson({ operation: operationJson(operation, yield* Clock.currentTimeMillis) })
      })
    ),
    HttpRouter.prefixAll("/api/v2")
  )

/**
 * Checks the bearer key on every request (§5): missing, unknown or revoked is a 401, and a
 * good key's `last_used_at` / `last_used_from_addr` are updated. Answers the key.
 */
export const authenticate = (store: Store): Effect.Effect<StoredKey, Refusal, HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const match = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? "")
    if (match === null) return yield* new Refusal({ status: 401, message: "a bearer API key is required" })
    const key = store.keysByHash.get(hashKey(match[1]!))
    if (key === undefined || key.revoked) return yield* new Refusal({ status: 401, message: "API key is not valid" })
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
        {
          code: refusal.code ?? "",
          message: refusal.message,
          request_id: request.headers["x-request-id"] ?? crypto.randomUUID()
        },
        { status: refusal.status, ...(refusal.headers === undefined ? {} : { headers: refusal.headers }) }
      )
    )
  )
