/**
 * The control API of the fake platform over HTTP: what an Effect test does with
 * `FakePlatform.Service` (reset, seed, snapshot and restore, scenarios, faults, the clock, the
 * request log), as JSON routes under `/_emulator`, for tests in any language. It calls the same
 * services as the in-process fake: one implementation, two doors. The emulator serves it next to
 * the platform's routes (`/api/v2`) on the same port (docs/design.md §2).
 *
 * Every route needs `Authorization: Bearer <token>`, the control token (not an account's API
 * key; the platform's routes do not accept it): 401 otherwise. Bodies are JSON (any
 * `Content-Type`; an empty body is `{}`); an unknown field is refused. Refusals are 4xx with a
 * `GeneralError` body (`{ code, message, request_id }`), never a 5xx for bad input: 400 a body
 * that does not decode or a seed or snapshot with problems, 404 an unknown route, project,
 * operation, compute endpoint or database, 400 a migration the database refuses (or that would
 * leave more than `DdlParser.tableLimit` tables), 409 an operation that has ended or a clock route
 * on a fake without a controlled clock, 413 a body over 32 MiB or a migration's `sql` over
 * `DdlParser.migrationLimitBytes` (1 MiB; a seed's SQL schemas over `DdlParser.seedSchemaLimitBytes`
 * are a 400 of the seed); 503 a change its journal could not save (the emulator's `--state`), as
 * the platform's routes answer it.
 *
 * | Route | Body | Answer |
 * | --- | --- | --- |
 * | `POST /_emulator/reset` | none | `StateSummary` |
 * | `POST /_emulator/seed` | a seed file (`Seed.SeedFile`) | `StateSummary` |
 * | `GET /_emulator/snapshot` | none | a `Snapshot` |
 * | `PUT /_emulator/snapshot` | a `Snapshot` | `StateSummary` |
 * | `POST /_emulator/projects` | `Seed.SeedProjectFile` | 201, the project as `GET /projects` lists it |
 * | `POST /_emulator/api_keys` | `{ name }` | 201, `{ id, key, name, created_at, ... }` (the key's value, once) |
 * | `POST /_emulator/projects/{project_id}/operations` | `{ operations: [OperationStart] }` | 201, `{ operations }` |
 * | `POST /_emulator/projects/{project_id}/operations/{operation_id}/fail` | `{ error, status?, retryIn? }` | the operation |
 * | `POST /_emulator/projects/{project_id}/operations/{operation_id}/cancel` | `{ cancellingFor? }` | the operation |
 * | `POST /_emulator/faults` | `FaultInjection` | 201, the `PendingFault` |
 * | `GET /_emulator/faults` | none | `{ faults: [PendingFault] }` |
 * | `DELETE /_emulator/faults` | none | `{ faults: [] }` |
 * | `GET /_emulator/clock` | none | `ClockAnswer` |
 * | `POST /_emulator/clock/freeze` | none | `ClockAnswer` |
 * | `POST /_emulator/clock/advance` | `{ by }` | `ClockAnswer` |
 * | `POST /_emulator/clock/resume` | none | `ClockAnswer` |
 * | `GET /_emulator/requests?limit=N` | none | `{ requests: [RecordedRequest] }`, the last N (100 by default) |
 * | `POST /_emulator/endpoints/{endpoint_id}/connect` | none | `{ endpoint, operations }`: a connection arrived (an `idle` compute endpoint is started, `start_compute`) |
 * | `POST /_emulator/projects/{project_id}/branches/{branch_id}/databases/{database_name}/migrate` | `{ sql }` | `{ json, timestamp, lsn }`: SQL DDL run on the database now, as a migration would (`Scenario.migrate`, docs/contract.md §24.3); 413 past 1 MiB of `sql` |
 *
 * Before any route, the control plane's own operations due by the fake's time now are
 * materialised, as before a request to the platform's routes (`FakePlatform.Service.catchUp`,
 * docs/contract.md §12): a snapshot read after `clock/advance` holds them.
 *
 * The routes are declared once, as an `HttpApi` ({@link EmulatorControl}, since 0.5.0): the
 * server ({@link httpApp}) and a typed Effect client ({@link client}, for a test that runs the
 * emulator as a process) are both derived from it (docs/design.md §2).
 *
 * @since 0.2.0
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiClient from "@effect/platform/HttpApiClient"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import type * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import {
  Api,
  ApiKeyCreated,
  Body,
  ComputeEndpointOperations,
  DecodeIssue,
  GeneralError,
  Operation,
  OperationsStarted,
  Project,
  Timestamp
} from "@dbplatform/core"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { identity } from "effect/Function"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Struct from "effect/Struct"
import type { ClockState } from "./ControlledClock.js"
import type { PendingFault, Service } from "./FakePlatform.js"
import * as Fault from "./Fault.js"
import { ChangeNotSaved } from "./engine/journal.js"
import { requestLogLimit } from "./engine/requestLog.js"
import { sliced, type Steps } from "./engine/slices.js"
import { refusalResponse } from "./engine/route.js"
import { Status } from "./engine/status.js"
import type * as Scenario from "./Scenario.js"
import { fromJson as seedFromJson, SeedDuration, SeedFile, SeedOperationFile, SeedProjectFile } from "./Seed.js"
import { SnapshotFromJson, Snapshot as SnapshotSchema } from "./Snapshot.js"
import { hashKey } from "./engine/authentication.js"
import { Refusal } from "./engine/refusal.js"

/**
 * The path prefix of every control route: `/_emulator`. The platform's routes are all under
 * `/api/v2`, so the two never meet.
 *
 * @since 0.2.0
 */
export const prefix = "/_emulator"

/**
 * Whether a request path (without query) is a control route's: `/_emulator` or under it.
 *
 * @since 0.2.0
 */
export const isControlPath = (path: string): boolean => path === prefix || path.startsWith(`${prefix}/`)

/**
 * The largest body the control API reads, in bytes (32 MiB: a seed or snapshot of a large
 * account); a larger one is answered 413.
 *
 * @since 0.2.0
 */
export const bodyLimitBytes = 32 * 1024 * 1024

/**
 * The body of a `Status` fault in JSON, by `_tag` (`Fault.FaultBody`): `{ "_tag": "GeneralError",
 * "code"?, "message"?, "request_id"? }`, `{ "_tag": "Empty" }`, `{ "_tag": "Text", "text" }`,
 * `{ "_tag": "Html", "html" }`.
 *
 * @since 0.2.0
 */
export const FaultBodyJson = Schema.Union(
  Schema.TaggedStruct("GeneralError", {
    code: Schema.optional(Schema.String),
    message: Schema.optional(Schema.String),
    request_id: Schema.optional(Schema.String)
  }),
  Schema.TaggedStruct("Empty", {}),
  Schema.TaggedStruct("Text", { text: Schema.String }),
  Schema.TaggedStruct("Html", { html: Schema.String })
).annotations({ identifier: "FaultBody" })

/**
 * A fault in JSON, by `_tag`, as `Fault` constructs it: `{ "_tag": "Status", "status": 503,
 * "body"?, "headers"?, "processed"? }` (status 200..599; `body` a `FaultBodyJson`, a
 * `GeneralError` by default), `{ "_tag": "Delay", "duration": "5 seconds" }` (ms or a duration
 * string, on the fake's clock), `{ "_tag": "Hang" }`, `{ "_tag": "Drop" }`,
 * `{ "_tag": "MalformedJson" }`. The request log names the same tags.
 *
 * @since 0.2.0
 */
export const FaultJson = Schema.Union(
  Schema.TaggedStruct("Status", {
    status: Schema.Int.pipe(Schema.between(200, 599)),
    body: Schema.optional(FaultBodyJson),
    headers: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
    processed: Schema.optional(Schema.Boolean)
  }),
  Schema.TaggedStruct("Delay", { duration: SeedDuration }),
  Schema.TaggedStruct("Hang", {}),
  Schema.TaggedStruct("Drop", {}),
  Schema.TaggedStruct("MalformedJson", {})
).annotations({ identifier: "Fault" })

/**
 * How many requests get a fault: an integer >= 1, or `"unlimited"` (until cleared).
 *
 * @since 0.2.0
 */
export const FaultTimes = Schema.Union(Schema.Int.pipe(Schema.greaterThanOrEqualTo(1)), Schema.Literal("unlimited"))

/**
 * The body of `POST /_emulator/faults`: the `fault`, and where it applies (`FakePlatform.InjectOptions`):
 * `method` (any when absent), `path` relative to `/api/v2`, exact or a route template in the
 * contract's spelling such as `/projects/{project_id}/operations` (any when absent; docs/contract.md
 * §4), `times` (1 by default).
 *
 * @since 0.2.0
 */
export const FaultInjection = Schema.Struct({
  fault: FaultJson,
  method: Schema.optional(Schema.String.pipe(Schema.pattern(/^[A-Za-z]{1,20}$/))),
  path: Schema.optional(Schema.String),
  times: Schema.optional(FaultTimes)
}).annotations({ identifier: "FaultInjection" })

/**
 * One operation to start (`Scenario.OperationStart` in JSON): `action` and, all optional,
 * `runsFor` and `retryIn` (ms or a duration string), `status`, `id`, `branch_id`,
 * `endpoint_id`, `failures_count`, `error`.
 *
 * @since 0.2.0
 */
export const OperationStartJson = Schema.Struct(Struct.omit(SeedOperationFile.fields, "project_id", "age")).annotations(
  { identifier: "OperationStart" }
)

/**
 * The body of `POST /_emulator/projects/{project_id}/operations`: at least one operation.
 *
 * @since 0.2.0
 */
export const OperationsToStart = Schema.Struct({ operations: Schema.NonEmptyArray(OperationStartJson) })

/**
 * The body of `.../fail` (`Scenario.OperationFailure`): `error`, `status` (`failed` by default
 * or `error`), `retryIn`.
 *
 * @since 0.2.0
 */
export const OperationFailureJson = Schema.Struct({
  error: Schema.String,
  status: Schema.optional(Schema.Literal("failed", "error")),
  retryIn: Schema.optional(SeedDuration)
})

/**
 * The body of `.../cancel` (`Scenario.Cancellation`): `cancellingFor` (1 second by default).
 *
 * @since 0.2.0
 */
export const CancellationJson = Schema.Struct({ cancellingFor: Schema.optional(SeedDuration) })

/**
 * The body of `POST /_emulator/projects/{project_id}/branches/{branch_id}/databases/{database_name}/migrate`
 * (`Scenario.migrate`): the SQL DDL to run, `sql` (since 0.5.0).
 *
 * @since 0.5.0
 */
export const MigrationJson = Schema.Struct({ sql: Schema.String })

/**
 * What `.../migrate` answers (`Scenario.SchemaMigrated` in JSON; since 0.5.0): the schema after it
 * (`json`, as `GET .../schema?format=json` answers it), and the time (`timestamp`, RFC 3339) and
 * LSN (`lsn`) from which it is in force.
 *
 * @since 0.5.0
 */
export const SchemaMigratedJson = Schema.Struct({
  json: Api.BranchSchemaJson,
  timestamp: Timestamp,
  lsn: Schema.String
})

/**
 * The body of `POST /_emulator/api_keys`: the key's `name`.
 *
 * @since 0.2.0
 */
export const ApiKeyToAdd = Schema.Struct({ name: Schema.String })

/**
 * The body of `POST /_emulator/clock/advance`: `by`, ms (>= 0) or a duration string such as
 * `"10 minutes"`.
 *
 * @since 0.2.0
 */
export const ClockAdvance = Schema.Struct({ by: SeedDuration })

/**
 * What a state change answers: how many API keys (revoked ones included), projects and
 * operations the fake holds now (as a schema since 0.5.0).
 *
 * @since 0.5.0
 */
export const StateSummary = Schema.Struct({ api_keys: Schema.Int, projects: Schema.Int, operations: Schema.Int })

/**
 * What a state change answers: `api_keys`, `projects`, `operations` (counts).
 *
 * @since 0.2.0
 */
export interface StateSummary extends Schema.Schema.Type<typeof StateSummary> {}

/**
 * What the clock routes answer: `now` (RFC 3339 UTC), `now_ms` (epoch ms) and `frozen` (as a
 * schema since 0.5.0).
 *
 * @since 0.5.0
 */
export const ClockAnswer = Schema.Struct({ now: Schema.String, now_ms: Schema.Number, frozen: Schema.Boolean })

/**
 * What the clock routes answer: `now`, `now_ms`, `frozen`.
 *
 * @since 0.2.0
 */
export interface ClockAnswer extends Schema.Schema.Type<typeof ClockAnswer> {}

/**
 * A pending fault as the fault routes answer it: the `fault` (a `Delay`'s duration in ms), the
 * `method` (upper case) and `path` it applies to (`null`: any), and how many requests it will
 * still answer, `remaining` (an integer, or `"unlimited"`).
 *
 * @since 0.5.0
 */
export const PendingFaultJson = Schema.Struct({
  fault: FaultJson,
  method: Schema.NullOr(Schema.String),
  path: Schema.NullOr(Schema.String),
  remaining: Schema.Union(Schema.Int, Schema.Literal("unlimited"))
}).annotations({ identifier: "PendingFault" })

/**
 * What `GET` and `DELETE /_emulator/faults` answer: `{ faults }`, the pending faults in injection
 * order (none after a `DELETE`).
 *
 * @since 0.5.0
 */
export const PendingFaults = Schema.Struct({ faults: Schema.Array(PendingFaultJson) })

/**
 * One request of the log, as `GET /_emulator/requests` answers it: `method`, `path` (with
 * `/api/v2`), `query` and `headers` (names lower-cased; credentials redacted, never kept), and
 * the `_tag` of the fault it got, `fault`, if any.
 *
 * @since 0.5.0
 */
export const RecordedRequestJson = Schema.Struct({
  method: Schema.String,
  path: Schema.String,
  query: Schema.Record({ key: Schema.String, value: Schema.String }),
  headers: Schema.Record({ key: Schema.String, value: Schema.String }),
  fault: Schema.optional(Schema.String)
}).annotations({ identifier: "RecordedRequest" })

/**
 * What `GET /_emulator/requests` answers: `{ requests }`, oldest first.
 *
 * @since 0.5.0
 */
export const RecordedRequests = Schema.Struct({ requests: Schema.Array(RecordedRequestJson) })

/**
 * The query of `GET /_emulator/requests`: `limit`, how many of the last requests (1 to 10 000;
 * 100 when absent).
 *
 * @since 0.5.0
 */
export const RequestLogQuery = Schema.Struct({
  limit: Schema.optionalWith(
    Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, requestLogLimit)).annotations({
      message: () => ({ message: `must be an integer from 1 to ${requestLogLimit}`, override: true })
    }),
    { exact: true }
  )
})

/**
 * A refusal of the control API, as its typed client fails with it: the answer's `status` (400
 * bad input, 401 no control token, 404 an unknown route or record, 409 an ended operation or no
 * controlled clock, 413 a body over 32 MiB, 500, 503 a change that could not be saved) and its
 * `GeneralError` body (`code`, `message`, `request_id`).
 *
 * @since 0.5.0
 * @category errors
 */
export class ControlError extends Schema.TaggedError<ControlError>()("ControlError", {
  status: Schema.Int,
  code: Schema.String,
  message: Schema.String,
  request_id: Schema.optional(Schema.String)
}) {}

/** A `GeneralError` body answered with `status`, decoded as a {@link ControlError} of that status. */
const refusedWith = (status: number) =>
  Schema.transform(
    Schema.Struct(GeneralError.fields),
    Schema.typeSchema(ControlError).pipe(Schema.filter((error) => error.status === status)),
    {
      strict: true,
      decode: (body) => new ControlError({ status, ...body }),
      encode: ({ code, message, request_id }) => ({ code, message, request_id })
    }
  ).annotations(HttpApiSchema.annotations({ status }))

/**
 * A path parameter: any string, percent-encoded by the client (`HttpApiClient` puts it into the
 * path as it is) and decoded once by the server's router.
 */
const PathParam = Schema.transform(Schema.String, Schema.String, {
  strict: true,
  decode: identity,
  encode: encodeURIComponent
})

const ProjectPath = Schema.Struct({ project_id: PathParam })
const OperationPath = Schema.Struct({ project_id: PathParam, operation_id: PathParam })

/** The control routes, relative to {@link prefix}; every one also answers the refusals of {@link ControlError}. */
const endpoints = HttpApiGroup.make("control", { topLevel: true })
  .add(HttpApiEndpoint.post("reset", "/reset").addSuccess(StateSummary))
  .add(HttpApiEndpoint.post("seed", "/seed").setPayload(SeedFile).addSuccess(StateSummary))
  .add(HttpApiEndpoint.get("snapshot", "/snapshot").addSuccess(SnapshotSchema))
  .add(HttpApiEndpoint.put("restore", "/snapshot").setPayload(SnapshotSchema).addSuccess(StateSummary))
  .add(
    HttpApiEndpoint.post("addProject", "/projects")
      .setPayload(SeedProjectFile)
      .addSuccess(Project, { status: Status.created })
  )
  .add(
    HttpApiEndpoint.post("addApiKey", "/api_keys")
      .setPayload(ApiKeyToAdd)
      .addSuccess(ApiKeyCreated, { status: Status.created })
  )
  .add(
    HttpApiEndpoint.post("startOperations", "/projects/:project_id/operations")
      .setPath(ProjectPath)
      .setPayload(OperationsToStart)
      .addSuccess(OperationsStarted, { status: Status.created })
  )
  .add(
    HttpApiEndpoint.post("failOperation", "/projects/:project_id/operations/:operation_id/fail")
      .setPath(OperationPath)
      .setPayload(OperationFailureJson)
      .addSuccess(Operation)
  )
  .add(
    HttpApiEndpoint.post("cancelOperation", "/projects/:project_id/operations/:operation_id/cancel")
      .setPath(OperationPath)
      .setPayload(CancellationJson)
      .addSuccess(Operation)
  )
  .add(
    HttpApiEndpoint.post("injectFault", "/faults")
      .setPayload(FaultInjection)
      .addSuccess(PendingFaultJson, { status: Status.created })
  )
  .add(HttpApiEndpoint.get("faults", "/faults").addSuccess(PendingFaults))
  .add(HttpApiEndpoint.del("clearFaults", "/faults").addSuccess(PendingFaults))
  .add(HttpApiEndpoint.get("clock", "/clock").addSuccess(ClockAnswer))
  .add(HttpApiEndpoint.post("freeze", "/clock/freeze").addSuccess(ClockAnswer))
  .add(HttpApiEndpoint.post("advance", "/clock/advance").setPayload(ClockAdvance).addSuccess(ClockAnswer))
  .add(HttpApiEndpoint.post("resume", "/clock/resume").addSuccess(ClockAnswer))
  .add(
    HttpApiEndpoint.post("connect", "/endpoints/:endpoint_id/connect")
      .setPath(Schema.Struct({ endpoint_id: PathParam }))
      .addSuccess(ComputeEndpointOperations)
  )
  .add(
    HttpApiEndpoint.post("migrate", "/projects/:project_id/branches/:branch_id/databases/:database_name/migrate")
      .setPath(Schema.Struct({ project_id: PathParam, branch_id: PathParam, database_name: PathParam }))
      .setPayload(MigrationJson)
      .addSuccess(SchemaMigratedJson)
  )
  .add(HttpApiEndpoint.get("requests", "/requests").setUrlParams(RequestLogQuery).addSuccess(RecordedRequests))

/**
 * The control API, declared once with `@effect/platform`'s `HttpApi` (since 0.5.0): every route
 * of the module's table, under {@link prefix}, with its path parameters, body, query and answer
 * schemas, and its refusals ({@link ControlError} per status; `HttpApiDecodeError` is HttpApi's
 * own, which this server answers as a 400 `GeneralError` too). {@link httpApp} serves it,
 * {@link client} calls it; `HttpApi.reflect` or `OpenApi.fromApi` read it.
 *
 * Endpoint names (the client's methods): `reset`, `seed`, `snapshot`, `restore` (`PUT
 * /snapshot`), `addProject`, `addApiKey`, `startOperations`, `failOperation`, `cancelOperation`,
 * `injectFault` (`POST /faults`), `faults`, `clearFaults` (`DELETE /faults`), `clock`, `freeze`,
 * `advance`, `resume`, `connect`, `migrate`, `requests`.
 *
 * @since 0.5.0
 * @category api
 */
export class EmulatorControl extends HttpApi.make("EmulatorControl")
  .add(endpoints)
  .addError(refusedWith(400))
  .addError(refusedWith(401))
  .addError(refusedWith(404))
  .addError(refusedWith(409))
  .addError(refusedWith(413))
  .addError(refusedWith(500))
  .addError(refusedWith(503))
  .prefix(prefix) {}

/**
 * Options of {@link httpApp}.
 *
 * @since 0.2.0
 */
export interface Options {
  /** The control token a request must send as `Authorization: Bearer <token>`. */
  readonly token: Redacted.Redacted<string>
}

type FaultJsonType = typeof FaultJson.Type

const faultOf = (json: FaultJsonType): Fault.Fault => {
  switch (json._tag) {
    case "Status":
      return Fault.status(json.status, {
        body: json.body === undefined ? undefined : faultBodyOf(json.body),
        headers: json.headers,
        processed: json.processed
      })
    case "Delay":
      return Fault.delay(json.duration)
    case "Hang":
      return Fault.hang
    case "Drop":
      return Fault.drop
    case "MalformedJson":
      return Fault.malformedJson
  }
}

const faultBodyOf = (json: typeof FaultBodyJson.Type): Fault.FaultBody => {
  switch (json._tag) {
    case "GeneralError":
      return Fault.FaultBody.generalError({ code: json.code, message: json.message, request_id: json.request_id })
    case "Empty":
      return Fault.FaultBody.empty
    case "Text":
      return Fault.FaultBody.text(json.text)
    case "Html":
      return Fault.FaultBody.html(json.html)
  }
}

/** A fault as JSON, as `FaultJson` reads it (a delay's duration in ms). */
const faultJson = (fault: Fault.Fault): unknown => {
  switch (fault._tag) {
    case "Status":
      return {
        _tag: "Status",
        status: fault.status,
        body: { ...fault.body },
        headers: fault.headers,
        processed: fault.processed
      }
    case "Delay":
      return { _tag: "Delay", duration: Duration.toMillis(fault.duration) }
    default:
      return { _tag: fault._tag }
  }
}

const pendingJson = (pending: PendingFault) => ({
  fault: faultJson(pending.fault),
  method: pending.method ?? null,
  path: pending.path ?? null,
  remaining: Number.isFinite(pending.remaining) ? pending.remaining : "unlimited"
})

const clockAnswer = (state: ClockState): ClockAnswer => ({
  now: new Date(state.now).toISOString(),
  now_ms: state.now,
  frozen: state.frozen
})

const badRequest = (message: string) => new Refusal({ status: Status.badRequest, message })

/** The request's body text (UTF-8); 413 over {@link bodyLimitBytes}, never holding more than that in memory. */
const bodyText = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const tooLarge = new Refusal({
    status: Status.payloadTooLarge,
    message: `the request body is larger than ${bodyLimitBytes} bytes`
  })
  if (Number(request.headers["content-length"] ?? 0) > bodyLimitBytes) return yield* tooLarge
  const text = yield* Body.text(
    // A request without a body (e.g. from a web `Request`) has no stream: it is an empty body.
    Stream.catchAll(request.stream, (error) =>
      error.reason === "Decode" && /empty body/.test(error.description ?? "") ? Stream.empty : Stream.fail(error)
    ),
    { maxBytes: bodyLimitBytes, past: "drain", malformed: "fail" }
  ).pipe(
    Effect.catchTags({
      BodyTooLarge: () => tooLarge,
      BodyNotUtf8: () => badRequest("the request body is not valid UTF-8"),
      RequestError: () => badRequest("the request body cannot be read")
    })
  )
  return text.trim() === "" ? "{}" : text
})

/** The request's JSON body decoded with `schema` (an unknown field refused); 400 saying why otherwise. */
const body = <A, I>(schema: Schema.Schema<A, I>) =>
  Effect.flatMap(bodyText, (text) =>
    Schema.decodeUnknown(Schema.parseJson(schema), { onExcessProperty: "error", errors: "all" })(text).pipe(
      Effect.mapError((error) => badRequest(DecodeIssue.format(error.issue, { maxIssues: 10 })))
    )
  )

const json = (value: unknown, status = 200) => Effect.succeed(HttpServerResponse.unsafeJson(value, { status }))

const summaryOf = (fake: Service) =>
  Effect.map(
    fake.snapshot,
    (snapshot): StateSummary => ({
      api_keys: snapshot.api_keys.length,
      projects: snapshot.projects.length,
      operations: snapshot.operations.length
    })
  )

const invalidSeed = (error: { readonly problems: ReadonlyArray<string> }) =>
  badRequest(`invalid seed: ${error.problems.join("; ")}`)

/** A path parameter, as the router decoded it (decoding it again would refuse a `%`). */
const pathParam = (name: string) => Effect.map(HttpRouter.params, (params) => params[name] ?? "")

const encodeSnapshot = Schema.encode(SnapshotSchema)

/** Each table's JSON text as `.../migrate` answers it, made once: a migration answers the tables it did not change as they were. */
const tableTexts = new WeakMap<Api.BranchSchemaTable, string>()
const encodeTable = Schema.encodeSync(Api.BranchSchemaTable)
const encodeTimestamp = Schema.encodeSync(Timestamp)

/** The JSON text of each of `tables`, made in slices (`slices.ts`) for those not made yet. */
function* tablesText(tables: ReadonlyArray<Api.BranchSchemaTable>): Steps<string> {
  const texts: Array<string> = []
  for (const table of tables) {
    let text = tableTexts.get(table)
    if (text === undefined) {
      text = JSON.stringify(encodeTable(table))
      tableTexts.set(table, text)
      if (texts.length % 20 === 0) yield
    }
    texts.push(text)
  }
  return texts.join(",")
}

/**
 * `migrated` as `SchemaMigratedJson` encodes it, as JSON text: each table's text made once, so that
 * a schema of 5,000 tables costs its changed tables and a join, not a walk of every table by its
 * schema (nor a `JSON.stringify` of them all) while other requests wait.
 */
const migratedBody = (migrated: Scenario.SchemaMigrated) =>
  Effect.map(
    sliced(tablesText(migrated.json.tables)),
    (tables) =>
      `{"json":{"tables":[${tables}]},"timestamp":${JSON.stringify(encodeTimestamp(migrated.timestamp))},"lsn":${JSON.stringify(migrated.lsn)}}`
  )

/** The name of an endpoint of {@link EmulatorControl}. */
type EndpointName = HttpApiEndpoint.HttpApiEndpoint.Name<HttpApiGroup.HttpApiGroup.Endpoints<typeof endpoints>>

/** A route's answer, a refusal included: a raw response, so that the body is exactly what it writes. */
type Route = Effect.Effect<
  HttpServerResponse.HttpServerResponse,
  never,
  HttpServerRequest.HttpServerRequest | HttpServerRequest.ParsedSearchParams | HttpRouter.RouteContext
>

/** A route: its refusal answered as a `GeneralError` with its status. */
const route = <R>(handler: Effect.Effect<HttpServerResponse.HttpServerResponse, Refusal, R>) =>
  Effect.catchTag(handler, "Refusal", refusalResponse)

/** What every endpoint of {@link EmulatorControl} does over `fake`, by the endpoint's name. */
const routesOf = (fake: Service): { readonly [Name in EndpointName]: Route } => {
  const clock = Effect.flatMap(
    Effect.succeed(fake.clock),
    Option.match({
      onNone: () =>
        Effect.fail(
          new Refusal({
            status: Status.conflict,
            message: "this fake has no controlled clock (FakePlatform.Options.clock); move its Clock with TestClock"
          })
        ),
      onSome: Effect.succeed
    })
  )
  const scenarioError = (error: { readonly _tag: string; readonly message: string }) =>
    new Refusal({
      status:
        error._tag === "InvalidSeed" || error._tag === "InvalidMigration"
          ? Status.badRequest
          : error._tag === "OperationNotPending"
            ? Status.conflict
            : error._tag === "MigrationTooLarge"
              ? Status.payloadTooLarge
              : Status.notFound,
      message: error.message
    })
  return {
    reset: route(
      Effect.zipRight(
        fake.reset,
        Effect.flatMap(summaryOf(fake), (summary) => json(summary))
      )
    ),
    seed: route(
      Effect.gen(function* () {
        const seed = yield* Effect.mapError(Effect.flatMap(bodyText, seedFromJson), (error) =>
          error._tag === "InvalidSeed" ? invalidSeed(error) : error
        )
        yield* Effect.mapError(fake.load(seed), invalidSeed)
        return yield* json(yield* summaryOf(fake))
      })
    ),
    snapshot: route(
      Effect.flatMap(fake.snapshot, (snapshot) => Effect.flatMap(Effect.orDie(encodeSnapshot(snapshot)), json))
    ),
    restore: route(
      Effect.gen(function* () {
        const snapshot = yield* Effect.flatMap(bodyText, (text) =>
          Schema.decodeUnknown(SnapshotFromJson, { onExcessProperty: "error", errors: "all" })(text).pipe(
            Effect.mapError((error) => badRequest(`invalid snapshot: ${DecodeIssue.format(error.issue)}`))
          )
        )
        yield* Effect.mapError(fake.restore(snapshot), invalidSeed)
        return yield* json(yield* summaryOf(fake))
      })
    ),
    addProject: route(
      Effect.gen(function* () {
        const project = yield* body(SeedProjectFile)
        const added = yield* Effect.mapError(fake.scenario.addProject(project), scenarioError)
        return yield* json(yield* Effect.orDie(Schema.encode(Project)(added)), Status.created)
      })
    ),
    addApiKey: route(
      Effect.gen(function* () {
        const { name } = yield* body(ApiKeyToAdd)
        const added = yield* fake.scenario.addApiKey(name)
        return yield* json(yield* Effect.orDie(Schema.encode(ApiKeyCreated)(added)), Status.created)
      })
    ),
    startOperations: route(
      Effect.gen(function* () {
        const projectId = yield* pathParam("project_id")
        const { operations } = yield* body(OperationsToStart)
        const started = yield* Effect.mapError(fake.scenario.startOperations(projectId, operations), scenarioError)
        return yield* json(yield* Effect.orDie(Schema.encode(OperationsStarted)(started)), Status.created)
      })
    ),
    failOperation: route(
      Effect.gen(function* () {
        const projectId = yield* pathParam("project_id")
        const operationId = yield* pathParam("operation_id")
        const failure = yield* body(OperationFailureJson)
        const failed = yield* Effect.mapError(
          fake.scenario.failOperation(projectId, operationId, failure),
          scenarioError
        )
        return yield* json(yield* Effect.orDie(Schema.encode(Operation)(failed)))
      })
    ),
    cancelOperation: route(
      Effect.gen(function* () {
        const projectId = yield* pathParam("project_id")
        const operationId = yield* pathParam("operation_id")
        const cancellation = yield* body(CancellationJson)
        const cancelled = yield* Effect.mapError(
          fake.scenario.cancelOperation(projectId, operationId, cancellation),
          scenarioError
        )
        return yield* json(yield* Effect.orDie(Schema.encode(Operation)(cancelled)))
      })
    ),
    injectFault: route(
      Effect.gen(function* () {
        const injection = yield* body(FaultInjection)
        const fault = faultOf(injection.fault)
        const times = injection.times === "unlimited" ? Number.POSITIVE_INFINITY : injection.times
        yield* fake.faults
          .inject(fault, { method: injection.method, path: injection.path, times })
          .pipe(
            Effect.catchSomeDefect((defect) =>
              Cause.isIllegalArgumentException(defect)
                ? Option.some(Effect.fail(badRequest(defect.message)))
                : Option.none()
            )
          )
        return yield* json(
          pendingJson({ fault, method: injection.method?.toUpperCase(), path: injection.path, remaining: times ?? 1 }),
          Status.created
        )
      })
    ),
    faults: route(Effect.flatMap(fake.faults.list, (faults) => json({ faults: faults.map(pendingJson) }))),
    clearFaults: route(Effect.zipRight(fake.faults.clear, json({ faults: [] }))),
    clock: route(Effect.flatMap(clock, (clock) => Effect.flatMap(clock.state, (state) => json(clockAnswer(state))))),
    freeze: route(Effect.flatMap(clock, (clock) => Effect.flatMap(clock.freeze, (state) => json(clockAnswer(state))))),
    advance: route(
      Effect.gen(function* () {
        const controlled = yield* clock
        const { by } = yield* body(ClockAdvance)
        return yield* json(clockAnswer(yield* controlled.advance(by)))
      })
    ),
    resume: route(Effect.flatMap(clock, (clock) => Effect.flatMap(clock.resume, (state) => json(clockAnswer(state))))),
    connect: route(
      Effect.gen(function* () {
        const endpointId = yield* pathParam("endpoint_id")
        const connected = yield* Effect.mapError(fake.connect(endpointId), scenarioError)
        return yield* json(yield* Effect.orDie(Schema.encode(ComputeEndpointOperations)(connected)))
      })
    ),
    migrate: route(
      Effect.gen(function* () {
        const projectId = yield* pathParam("project_id")
        const branchId = yield* pathParam("branch_id")
        const databaseName = yield* pathParam("database_name")
        const { sql } = yield* body(MigrationJson)
        const migrated = yield* Effect.mapError(
          fake.scenario.migrate(projectId, branchId, databaseName, sql),
          scenarioError
        )
        return HttpServerResponse.text(yield* migratedBody(migrated), { contentType: "application/json" })
      })
    ),
    requests: route(
      Effect.gen(function* () {
        // Refused with a 400 by the endpoint's declaration (`RequestLogQuery`) before it gets here.
        const { limit } = yield* Effect.orDie(HttpServerRequest.schemaSearchParams(RequestLogQuery))
        const requests = yield* fake.requests
        return yield* json({ requests: requests.slice(-(limit ?? 100)) })
      })
    )
  }
}

/** The handlers of {@link EmulatorControl} over `fake`: each endpoint answers with its route's own response. */
const handlersOf = (fake: Service) =>
  HttpApiBuilder.group(EmulatorControl, "control", (handlers) => {
    const routes = routesOf(fake)
    return handlers
      .handleRaw("reset", () => routes.reset)
      .handleRaw("seed", () => routes.seed)
      .handleRaw("snapshot", () => routes.snapshot)
      .handleRaw("restore", () => routes.restore)
      .handleRaw("addProject", () => routes.addProject)
      .handleRaw("addApiKey", () => routes.addApiKey)
      .handleRaw("startOperations", () => routes.startOperations)
      .handleRaw("failOperation", () => routes.failOperation)
      .handleRaw("cancelOperation", () => routes.cancelOperation)
      .handleRaw("injectFault", () => routes.injectFault)
      .handleRaw("faults", () => routes.faults)
      .handleRaw("clearFaults", () => routes.clearFaults)
      .handleRaw("clock", () => routes.clock)
      .handleRaw("freeze", () => routes.freeze)
      .handleRaw("advance", () => routes.advance)
      .handleRaw("resume", () => routes.resume)
      .handleRaw("connect", () => routes.connect)
      .handleRaw("migrate", () => routes.migrate)
      .handleRaw("requests", () => routes.requests)
  })

/**
 * A request the declaration refuses before its handler (a query that does not decode): a 400
 * `GeneralError` naming the field, as a body that does not decode gets, rather than HttpApi's
 * own `HttpApiDecodeError` body.
 */
const decodeRefusals = HttpApiBuilder.middleware(EmulatorControl, (app) =>
  Effect.catchAllCause(app, (cause) =>
    Option.match(Cause.failureOption(cause as Cause.Cause<unknown>), {
      onNone: () => Effect.failCause(cause),
      onSome: (error) =>
        error instanceof HttpApiDecodeError
          ? refusalResponse(
              badRequest(error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "))
            )
          : Effect.failCause(cause)
    })
  )
)

/**
 * The HTTP app of {@link EmulatorControl} over `fake`, without the token check (see {@link httpApp}).
 * Its router fails with `RouteNotFound` for a route no endpoint declares (`HttpApiBuilder.httpApp`'s
 * type leaves that out).
 */
const appOf = (fake: Service): Effect.Effect<HttpApp.Default<HttpServerError.RouteNotFound>> =>
  Effect.gen(function* () {
    const app = yield* HttpApiBuilder.httpApp
    // What HttpApi's router may ask of a request (files, ETags); none of these routes does.
    const services = yield* Effect.context<HttpRouter.HttpRouter.DefaultServices>()
    return Effect.provide(app, services)
  }).pipe(
    Effect.provide(
      Layer.mergeAll(
        HttpApiBuilder.api(EmulatorControl).pipe(Layer.provide(handlersOf(fake))),
        decodeRefusals,
        HttpApiBuilder.Middleware.layer,
        HttpApiBuilder.Router.Live,
        HttpServer.layerContext
      )
    )
  )

/** Whether `authorization` carries `token` as a bearer credential. */
const authorized = (authorization: string | undefined, token: Redacted.Redacted<string>): boolean => {
  const match = /^Bearer (\S+)$/i.exec(authorization ?? "")
  return match !== null && hashKey(match[1]!) === hashKey(Redacted.value(token))
}

/**
 * The control API over `fake` (see the module's description), for requests whose path is under
 * {@link prefix}: 401 without the control token, 404 for an unknown route. Serve it next to the
 * fake's `httpApp`, e.g. by {@link isControlPath}.
 *
 * @since 0.2.0
 */
export const httpApp = (fake: Service, options: Options): Effect.Effect<HttpApp.Default> =>
  Effect.map(appOf(fake), (routes) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      if (!authorized(request.headers.authorization, options.token)) {
        return yield* new Refusal({
          status: Status.unauthorized,
          message: "the control API needs its control token (Authorization: Bearer <token>), not an API key"
        })
      }
      yield* fake.catchUp
      return yield* routes
    }).pipe(
      Effect.catchTags({
        Refusal: refusalResponse,
        RouteNotFound: () =>
          refusalResponse(new Refusal({ status: Status.notFound, message: "control route not found" }))
      }),
      Effect.catchAllCause((cause) => {
        if (Cause.isInterruptedOnly(cause)) return Effect.interrupt
        // A change the journal could not make durable: 503, as the platform's routes answer it.
        const notSaved = Cause.find(cause, (reason) =>
          reason._tag === "Die" && reason.defect instanceof ChangeNotSaved ? Option.some(reason.defect) : Option.none()
        )
        return Option.isSome(notSaved)
          ? refusalResponse(new Refusal({ status: Status.serviceUnavailable, message: notSaved.value.message }))
          : Effect.zipRight(
              Effect.logError("dbplatform fake: control API internal error", cause),
              refusalResponse(new Refusal({ status: Status.internalError, message: "internal error" }))
            )
      })
    )
  )

/**
 * Options of {@link client}.
 *
 * @since 0.5.0
 */
export interface ClientOptions {
  /**
   * The control API's URL as the emulator prints it (`DBPLATFORM_EMULATOR_URL`,
   * `Emulator.Service.controlUrl`), e.g. `http://127.0.0.1:4010/_emulator`; the server's URL
   * without {@link prefix} is taken too.
   */
  readonly url: string | URL
  /**
   * The control token (`DBPLATFORM_EMULATOR_TOKEN`, `Emulator.Service.controlToken`), sent as
   * `Authorization: Bearer <token>`.
   */
  readonly token: Redacted.Redacted<string>
}

/**
 * The typed client of {@link EmulatorControl}: one method per route, named as the endpoint, taking
 * `{ path?, payload?, urlParams? }` as the route needs (nothing for a route without any) and
 * answering the route's answer decoded, e.g. `advance({ payload: { by: "10 minutes" } })` a
 * {@link ClockAnswer}. Each fails with a {@link ControlError} (a refusal, with its status),
 * `HttpApiDecodeError` (in the type only: this server answers a 400 `ControlError`),
 * `HttpClientError` (no answer, or a status the route does not declare) or `ParseError` (an
 * answer that does not decode).
 *
 * @since 0.5.0
 */
export type Client = HttpApiClient.Client<typeof endpoints, ControlError | HttpApiDecodeError, never>

/**
 * A typed client of the control API of an emulator that runs as a process (or of any server of
 * {@link httpApp}), over the `HttpClient` in context (e.g. `FetchHttpClient.layer`): the test
 * in Effect that the curl recipes of the emulator's README are in a shell.
 *
 * @example
 * ```ts
 * import { FetchHttpClient } from "@effect/platform"
 * import { ControlApi } from "@dbplatform/testing"
 * import { Effect, Redacted } from "effect"
 *
 * const program = Effect.gen(function* () {
 *   const control = yield* ControlApi.client({
 *     url: "http://127.0.0.1:4010/_emulator",
 *     token: Redacted.make("the-control-token")
 *   })
 *   yield* control.freeze()
 *   const clock = yield* control.advance({ payload: { by: "10 minutes" } })
 *   console.log(clock.now)
 * }).pipe(Effect.provide(FetchHttpClient.layer))
 * ```
 *
 * @since 0.5.0
 */
export const client = (options: ClientOptions): Effect.Effect<Client, never, HttpClient.HttpClient> =>
  HttpApiClient.make(EmulatorControl, {
    baseUrl: serverUrl(options.url),
    transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(options.token))
  })

/** The server's URL of a control URL: without a trailing {@link prefix} (and `/`). */
const serverUrl = (url: string | URL): string => {
  const text = String(url).replace(/\/+$/, "")
  return text.endsWith(prefix) ? text.slice(0, -prefix.length) : text
}
