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
import * as HttpApiClient from "@effect/platform/HttpApiClient"
import type { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as Effect from "effect/Effect"
import type * as Redacted from "effect/Redacted"
import type * as Schema from "effect/Schema"
import type { Service } from "./FakePlatform.js"
import * as Declaration from "./internal/emulatorControl.js"
import { serve } from "./internal/emulatorControlHandlers.js"

/**
 * The path prefix of every control route: `/_emulator`. The platform's routes are all under
 * `/api/v2`, so the two never meet.
 *
 * @since 0.2.0
 */
export const prefix = Declaration.prefix

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
export const bodyLimitBytes = Declaration.bodyLimitBytes

/**
 * The body of a `Status` fault in JSON, by `_tag` (`Fault.FaultBody`): `{ "_tag": "GeneralError",
 * "code"?, "message"?, "request_id"? }`, `{ "_tag": "Empty" }`, `{ "_tag": "Text", "text" }`,
 * `{ "_tag": "Html", "html" }`.
 *
 * @since 0.2.0
 */
export const FaultBodyJson = Declaration.FaultBodyJson

/**
 * A fault in JSON, by `_tag`, as `Fault` constructs it: `{ "_tag": "Status", "status": 503,
 * "body"?, "headers"?, "processed"? }` (status 200..599; `body` a `FaultBodyJson`, a
 * `GeneralError` by default), `{ "_tag": "Delay", "duration": "5 seconds" }` (ms or a duration
 * string, on the fake's clock), `{ "_tag": "Hang" }`, `{ "_tag": "Drop" }`,
 * `{ "_tag": "MalformedJson" }`. The request log names the same tags.
 *
 * @since 0.2.0
 */
export const FaultJson = Declaration.FaultJson

/**
 * How many requests get a fault: an integer >= 1, or `"unlimited"` (until cleared).
 *
 * @since 0.2.0
 */
export const FaultTimes = Declaration.FaultTimes

/**
 * The body of `POST /_emulator/faults`: the `fault`, and where it applies (`FakePlatform.InjectOptions`):
 * `method` (any when absent), `path` relative to `/api/v2`, exact or a route template in the
 * contract's spelling such as `/projects/{project_id}/operations` (any when absent; docs/contract.md
 * §4), `times` (1 by default).
 *
 * @since 0.2.0
 */
export const FaultInjection = Declaration.FaultInjection

/**
 * One operation to start (`Scenario.OperationStart` in JSON): `action` and, all optional,
 * `runsFor` and `retryIn` (ms or a duration string), `status`, `id`, `branch_id`,
 * `endpoint_id`, `failures_count`, `error`.
 *
 * @since 0.2.0
 */
export const OperationStartJson = Declaration.OperationStartJson

/**
 * The body of `POST /_emulator/projects/{project_id}/operations`: at least one operation.
 *
 * @since 0.2.0
 */
export const OperationsToStart = Declaration.OperationsToStart

/**
 * The body of `.../fail` (`Scenario.OperationFailure`): `error`, `status` (`failed` by default
 * or `error`), `retryIn`.
 *
 * @since 0.2.0
 */
export const OperationFailureJson = Declaration.OperationFailureJson

/**
 * The body of `.../cancel` (`Scenario.Cancellation`): `cancellingFor` (1 second by default).
 *
 * @since 0.2.0
 */
export const CancellationJson = Declaration.CancellationJson

/**
 * The body of `POST /_emulator/projects/{project_id}/branches/{branch_id}/databases/{database_name}/migrate`
 * (`Scenario.migrate`): the SQL DDL to run, `sql` (since 0.5.0).
 *
 * @since 0.5.0
 */
export const MigrationJson = Declaration.MigrationJson

/**
 * What `.../migrate` answers (`Scenario.SchemaMigrated` in JSON; since 0.5.0): the schema after it
 * (`json`, as `GET .../schema?format=json` answers it), and the time (`timestamp`, RFC 3339) and
 * LSN (`lsn`) from which it is in force.
 *
 * @since 0.5.0
 */
export const SchemaMigratedJson = Declaration.SchemaMigratedJson

/**
 * The body of `POST /_emulator/api_keys`: the key's `name`.
 *
 * @since 0.2.0
 */
export const ApiKeyToAdd = Declaration.ApiKeyToAdd

/**
 * The body of `POST /_emulator/clock/advance`: `by`, ms (>= 0) or a duration string such as
 * `"10 minutes"`.
 *
 * @since 0.2.0
 */
export const ClockAdvance = Declaration.ClockAdvance

/**
 * What a state change answers: how many API keys (revoked ones included), projects and
 * operations the fake holds now (as a schema since 0.5.0).
 *
 * @since 0.5.0
 */
export const StateSummary = Declaration.StateSummary

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
export const ClockAnswer = Declaration.ClockAnswer

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
export const PendingFaultJson = Declaration.PendingFaultJson

/**
 * What `GET` and `DELETE /_emulator/faults` answer: `{ faults }`, the pending faults in injection
 * order (none after a `DELETE`).
 *
 * @since 0.5.0
 */
export const PendingFaults = Declaration.PendingFaults

/**
 * One request of the log, as `GET /_emulator/requests` answers it: `method`, `path` (with
 * `/api/v2`), `query` and `headers` (names lower-cased; credentials redacted, never kept), and
 * the `_tag` of the fault it got, `fault`, if any.
 *
 * @since 0.5.0
 */
export const RecordedRequestJson = Declaration.RecordedRequestJson

/**
 * What `GET /_emulator/requests` answers: `{ requests }`, oldest first.
 *
 * @since 0.5.0
 */
export const RecordedRequests = Declaration.RecordedRequests

/**
 * The query of `GET /_emulator/requests`: `limit`, how many of the last requests (1 to 10 000;
 * 100 when absent).
 *
 * @since 0.5.0
 */
export const RequestLogQuery = Declaration.RequestLogQuery

export {
  /**
   * A refusal of the control API, as its typed client fails with it: the answer's `status` (400
   * bad input, 401 no control token, 404 an unknown route or record, 409 an ended operation or no
   * controlled clock, 413 a body over 32 MiB, 500, 503 a change that could not be saved) and its
   * `GeneralError` body (`code`, `message`, `request_id`).
   *
   * @since 0.5.0
   * @category errors
   */
  ControlError,
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
  EmulatorControl
} from "./internal/emulatorControl.js"

/**
 * Options of {@link httpApp}.
 *
 * @since 0.2.0
 */
export interface Options {
  /** The control token a request must send as `Authorization: Bearer <token>`. */
  readonly token: Redacted.Redacted<string>
}

/**
 * The control API over `fake` (see the module's description), for requests whose path is under
 * {@link prefix}: 401 without the control token, 404 for an unknown route. Serve it next to the
 * fake's `httpApp`, e.g. by {@link isControlPath}.
 *
 * @since 0.2.0
 */
export const httpApp = (fake: Service, options: Options): Effect.Effect<HttpApp.Default> => serve(fake, options.token)

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
export type Client = HttpApiClient.Client<
  typeof Declaration.endpoints,
  Declaration.ControlError | HttpApiDecodeError,
  never
>

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
  HttpApiClient.make(Declaration.EmulatorControl, {
    baseUrl: serverUrl(options.url),
    transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(options.token))
  })

/** The server's URL of a control URL: without a trailing {@link prefix} (and `/`). */
const serverUrl = (url: string | URL): string => {
  const text = String(url).replace(/\/+$/, "")
  return text.endsWith(prefix) ? text.slice(0, -prefix.length) : text
}
