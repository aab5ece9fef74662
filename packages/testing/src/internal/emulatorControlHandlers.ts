/**
 * The server side of the emulator's control API (`ControlApi.httpApp`, docs/design.md §2): one
 * raw handler per endpoint of `EmulatorControl` over a fake's `FakePlatform.Service`, each
 * reading its own body (any `Content-Type`, no body as `{}`, unknown fields refused, 413 over
 * `bodyLimitBytes`) and writing its own answer, so that bodies are byte for byte what curl users
 * got from the hand-written router before; and around them the control token's check, the
 * control plane's catch-up and the 404/500/503 answers.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import type * as HttpApp from "@effect/platform/HttpApp"
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
  Operation,
  OperationsStarted,
  Project,
  Timestamp
} from "@dbplatform/core"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type { ClockState } from "../ControlledClock.js"
import type * as Scenario from "../Scenario.js"
import type { Service } from "../FakePlatform.js"
import * as Fault from "../Fault.js"
import type { PendingFault } from "../engine/faults.js"
import { hashKey } from "../engine/authentication.js"
import { ChangeNotSaved } from "../engine/journal.js"
import { Refusal } from "../engine/refusal.js"
import { refusalResponse } from "../engine/route.js"
import { sliced, type Steps } from "../engine/slices.js"
import { Status } from "../engine/status.js"
import { fromJson as seedFromJson, SeedProjectFile } from "../Seed.js"
import { SnapshotFromJson, Snapshot as SnapshotSchema } from "../Snapshot.js"
import {
  ApiKeyToAdd,
  bodyLimitBytes,
  CancellationJson,
  ClockAdvance,
  type ClockAnswer,
  EmulatorControl,
  type endpoints,
  type FaultBodyJson,
  FaultInjection,
  type FaultJson,
  MigrationJson,
  OperationFailureJson,
  OperationsToStart,
  RequestLogQuery,
  type StateSummary
} from "./emulatorControl.js"

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

const clockAnswer = (state: ClockState): typeof ClockAnswer.Type => ({
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
  Effect.map(fake.snapshot, (snapshot): typeof StateSummary.Type => ({
    api_keys: snapshot.api_keys.length,
    projects: snapshot.projects.length,
    operations: snapshot.operations.length
  }))

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
 * The control API over `fake`, for requests whose path is under `/_emulator` (`ControlApi.httpApp`):
 * 401 without the control `token`, 404 for an unknown route, 503 a change its journal could not
 * save, 500 (logged) for a bug.
 */
export const serve = (fake: Service, token: Redacted.Redacted<string>): Effect.Effect<HttpApp.Default> =>
  Effect.map(appOf(fake), (routes) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      if (!authorized(request.headers.authorization, token)) {
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
