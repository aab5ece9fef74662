/**
 * The declaration of the emulator's control API (`ControlApi.EmulatorControl`): its routes under
 * `/_emulator`, the schemas of their bodies, queries and answers, and its refusals
 * (`ControlError`, one per status). Below both the server (`emulatorControlHandlers.ts`) and the
 * public module `ControlApi.ts`, which exports every schema and class of it with its
 * documentation (the bodies and answers are described there, docs/design.md §2).
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import {
  Api,
  ApiKeyCreated,
  ComputeEndpointOperations,
  GeneralError,
  Operation,
  OperationsStarted,
  Project,
  Timestamp
} from "@dbplatform/core"
import { identity } from "effect/Function"
import * as Schema from "effect/Schema"
import * as Struct from "effect/Struct"
import { requestLogLimit } from "../engine/requestLog.js"
import { Status } from "../engine/status.js"
import { SeedDuration, SeedFile, SeedOperationFile, SeedProjectFile } from "../Seed.js"
import { Snapshot as SnapshotSchema } from "../Snapshot.js"

export const prefix = "/_emulator"

export const bodyLimitBytes = 32 * 1024 * 1024

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

export const FaultTimes = Schema.Union(Schema.Int.pipe(Schema.greaterThanOrEqualTo(1)), Schema.Literal("unlimited"))

export const FaultInjection = Schema.Struct({
  fault: FaultJson,
  method: Schema.optional(Schema.String.pipe(Schema.pattern(/^[A-Za-z]{1,20}$/))),
  path: Schema.optional(Schema.String),
  times: Schema.optional(FaultTimes)
}).annotations({ identifier: "FaultInjection" })

export const OperationStartJson = Schema.Struct(Struct.omit(SeedOperationFile.fields, "project_id", "age")).annotations(
  { identifier: "OperationStart" }
)

export const OperationsToStart = Schema.Struct({ operations: Schema.NonEmptyArray(OperationStartJson) })

export const OperationFailureJson = Schema.Struct({
  error: Schema.String,
  status: Schema.optional(Schema.Literal("failed", "error")),
  retryIn: Schema.optional(SeedDuration)
})

export const CancellationJson = Schema.Struct({ cancellingFor: Schema.optional(SeedDuration) })

export const MigrationJson = Schema.Struct({ sql: Schema.String })

export const SchemaMigratedJson = Schema.Struct({
  json: Api.BranchSchemaJson,
  timestamp: Timestamp,
  lsn: Schema.String
})

export const ApiKeyToAdd = Schema.Struct({ name: Schema.String })

export const ClockAdvance = Schema.Struct({ by: SeedDuration })

export const StateSummary = Schema.Struct({ api_keys: Schema.Int, projects: Schema.Int, operations: Schema.Int })

export const ClockAnswer = Schema.Struct({ now: Schema.String, now_ms: Schema.Number, frozen: Schema.Boolean })

export const PendingFaultJson = Schema.Struct({
  fault: FaultJson,
  method: Schema.NullOr(Schema.String),
  path: Schema.NullOr(Schema.String),
  remaining: Schema.Union(Schema.Int, Schema.Literal("unlimited"))
}).annotations({ identifier: "PendingFault" })

export const PendingFaults = Schema.Struct({ faults: Schema.Array(PendingFaultJson) })

export const RecordedRequestJson = Schema.Struct({
  method: Schema.String,
  path: Schema.String,
  query: Schema.Record({ key: Schema.String, value: Schema.String }),
  headers: Schema.Record({ key: Schema.String, value: Schema.String }),
  fault: Schema.optional(Schema.String)
}).annotations({ identifier: "RecordedRequest" })

export const RecordedRequests = Schema.Struct({ requests: Schema.Array(RecordedRequestJson) })

export const RequestLogQuery = Schema.Struct({
  limit: Schema.optionalWith(
    Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, requestLogLimit)).annotations({
      message: () => ({ message: `must be an integer from 1 to ${requestLogLimit}`, override: true })
    }),
    { exact: true }
  )
})

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
export const endpoints = HttpApiGroup.make("control", { topLevel: true })
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
