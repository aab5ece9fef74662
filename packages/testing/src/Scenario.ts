/**
 * Scenarios: what a test does to the fake platform while it runs, in the API's terms. Add
 * projects and API keys, start operations as a mutating request would (a create-branch request
 * starts `create_branch` and `start_compute`; §3.2, §4 rule 4; docs/contract.md §10.5), and
 * make operations fail or cancel them. Every time is on the `Clock`, so `TestClock.adjust`
 * plays operations out.
 *
 * ```ts
 * const fake = yield* FakePlatform.FakePlatform
 * const started = yield* fake.scenario.startOperations(projectId, [
 *   { action: "create_branch", runsFor: "3 seconds" },
 *   { action: "start_compute", runsFor: "5 seconds" }
 * ])
 * // started.operations: both `scheduling`; create_branch finishes at 3 s, start_compute at 8 s
 * yield* fake.scenario.failOperation(projectId, started.operations[1]!.id, { error: "compute start timed out", retryIn: "30 seconds" })
 * ```
 *
 * @since 0.1.0
 */
import type {
  Api,
  ApiKeyCreated,
  Operation,
  OperationAction,
  OperationsStarted,
  OperationStatus,
  Project
} from "@dbplatform/core"
import * as Data from "effect/Data"
import type * as DateTime from "effect/DateTime"
import type * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import type { InvalidSeed, SeedProject } from "./Seed.js"

/**
 * One operation to start with {@link Scenario.startOperations}.
 *
 * Its life: `scheduling` until the operation before it in the same call has run (the first
 * one starts at once), then `scheduling` for one more second (or a fifth of `runsFor`,
 * whichever is shorter), then `running`, then `status` once `runsFor` has passed since it
 * started; with `status` `scheduling` or `running` it stays there. Later operations wait for
 * earlier ones whatever their outcome.
 *
 * @since 0.1.0
 */
export interface OperationStart {
  readonly action: OperationAction
  /** How long it runs once started, on the `Clock`; 2 seconds by default. */
  readonly runsFor?: Duration.DurationInput | undefined
  /** Where it ends; `finished` by default. `failed`, `error`, `cancelled`, `skipped`... as given. */
  readonly status?: OperationStatus | undefined
  /** A UUID; generated when absent. */
  readonly id?: string | undefined
  /**
   * The branch it acts on; when absent, one new `br-...` id shared by the operations of the
   * call (a mutation acts on one branch).
   */
  readonly branch_id?: string | undefined
  /**
   * The compute endpoint it involves; when absent, one new `ep-...` id shared by the call's
   * operations whose action involves compute (`start_compute`, `suspend_compute`,
   * `apply_config`, `check_availability`, `create_compute`, `start_reserved_compute`), and
   * none for the others (e.g. `create_branch`, §2.5).
   */
  readonly endpoint_id?: string | undefined
  /** `failures_count` from the start; 0 by default. */
  readonly failures_count?: number | undefined
  /** Message of the last failure, shown once it has ended. */
  readonly error?: string | undefined
  /** When the failed step is retried (`retry_at`), counted from the moment it takes `status`. */
  readonly retryIn?: Duration.DurationInput | undefined
}

/**
 * How {@link Scenario.failOperation} fails an operation.
 *
 * @since 0.1.0
 */
export interface OperationFailure {
  /** `failed` (the platform may retry the step: set `retryIn`) or `error`; `failed` by default. */
  readonly status?: "failed" | "error" | undefined
  /** The message of the failure, sent as `error`. */
  readonly error: string
  /** When the step is retried (`retry_at`), counted from now; no `retry_at` when absent. */
  readonly retryIn?: Duration.DurationInput | undefined
}

/**
 * Options of {@link Scenario.cancelOperation}.
 *
 * @since 0.1.0
 */
export interface Cancellation {
  /** How long it stays `cancelling` before it is `cancelled`, on the `Clock`; 1 second by default. */
  readonly cancellingFor?: Duration.DurationInput | undefined
}

/**
 * No project of the fake has this id.
 *
 * @since 0.1.0
 * @category errors
 */
export class UnknownProject extends Data.TaggedError("UnknownProject")<{ readonly projectId: string }> {
  override get message(): string {
    return `no project ${this.projectId} in the fake platform`
  }
}

/**
 * The fake platform has no compute endpoint with this id (`FakePlatform.Service.connect`).
 *
 * @since 0.3.0
 * @category errors
 */
export class UnknownComputeEndpoint extends Data.TaggedError("UnknownComputeEndpoint")<{
  readonly endpointId: string
}> {
  override get message(): string {
    return `no compute endpoint ${this.endpointId} in the fake platform`
  }
}

/**
 * The project has no operation with this id.
 *
 * @since 0.1.0
 * @category errors
 */
export class UnknownOperation extends Data.TaggedError("UnknownOperation")<{
  readonly projectId: string
  readonly operationId: string
}> {
  override get message(): string {
    return `no operation ${this.operationId} in project ${this.projectId} of the fake platform`
  }
}

/**
 * The operation has already ended (`status` is neither `scheduling`, `running` nor
 * `cancelling`), so it can no longer fail or be cancelled.
 *
 * @since 0.1.0
 * @category errors
 */
export class OperationNotPending extends Data.TaggedError("OperationNotPending")<{
  readonly operationId: string
  readonly status: string
}> {
  override get message(): string {
    return `operation ${this.operationId} has ended (${this.status})`
  }
}

/**
 * The branch has no database of this name, or the project no such branch
 * (`Scenario.migrate`; since 0.5.0).
 *
 * @since 0.5.0
 * @category errors
 */
export class UnknownDatabase extends Data.TaggedError("UnknownDatabase")<{
  readonly projectId: string
  readonly branchId: string
  readonly databaseName: string
}> {
  override get message(): string {
    return `no database ${this.databaseName} on branch ${this.branchId} of project ${this.projectId} in the fake platform`
  }
}

/**
 * A migration the database refuses (`Scenario.migrate`; since 0.5.0): SQL that does not parse, or
 * a statement Postgres would refuse (a table that exists, a column that does not), in Postgres's
 * words. Nothing of it is applied.
 *
 * @since 0.5.0
 * @category errors
 */
export class InvalidMigration extends Data.TaggedError("InvalidMigration")<{ readonly reason: string }> {
  override get message(): string {
    return `migration refused: ${this.reason}`
  }
}

/**
 * A migration larger than the fake applies (`Scenario.migrate`; since 0.6.0): its SQL is `bytes`
 * bytes of UTF-8, more than `limitBytes` (`DdlParser.migrationLimitBytes`, 1 MiB). Nothing of it is
 * read or applied; the control API answers it 413. Split the migration.
 *
 * @since 0.6.0
 * @category errors
 */
export class MigrationTooLarge extends Data.TaggedError("MigrationTooLarge")<{
  readonly bytes: number
  readonly limitBytes: number
}> {
  override get message(): string {
    return `migration refused: its SQL is ${this.bytes} bytes, more than the fake's limit of ${this.limitBytes} bytes for one migration`
  }
}

/**
 * What {@link Scenario.migrate} answers (since 0.5.0): the database's schema after the migration as
 * `GET .../schema?format=json` answers it, and the point from which it is in force, as a time
 * (`timestamp`) and as the fake's LSN (`lsn`, docs/contract.md §24.3): a read at an earlier point
 * shows the schema before.
 *
 * @since 0.5.0
 * @category models
 */
export interface SchemaMigrated {
  readonly json: Api.BranchSchemaJson
  readonly timestamp: DateTime.Utc
  readonly lsn: string
}

/**
 * What a test can do to the fake while it runs (`FakePlatform.Service.scenario`). Every
 * change is seen at once by the HTTP routes and counts as a change of the fake's state.
 *
 * @since 0.1.0
 * @category models
 */
export interface Scenario {
  /**
   * Adds a project (`SeedProject`: `id` matching `^[a-z0-9-]{1,60}$` such as
   * `spring-example-302709`; the other fields default as in a seed; `age` 0 by default, so it
   * is the newest). Answers the project as `GET /projects` lists it (with `shared: true`, as
   * `GET /projects/shared` does, docs/contract.md §10.6). Fails with `InvalidSeed` on a bad or
   * taken id.
   */
  readonly addProject: (project: SeedProject) => Effect.Effect<Project, InvalidSeed>
  /**
   * Adds an API key named `name` (any string; not checked like `key_name`), as `POST /api_keys`
   * would, and answers as it does, the value `Redacted`: use it as a bearer key.
   */
  readonly addApiKey: (name: string) => Effect.Effect<ApiKeyCreated>
  /**
   * Starts `operations` in project `projectId`, now, one after another (see
   * {@link OperationStart}), and answers what the mutating request that started them answers:
   * `{ operations }` as they are now (`scheduling`), in the given order (§4 rule 4). Fails with
   * `UnknownProject`, or `InvalidSeed` on a bad or taken operation id.
   */
  readonly startOperations: (
    projectId: string,
    operations: ReadonlyArray<OperationStart>
  ) => Effect.Effect<OperationsStarted, UnknownProject | InvalidSeed>
  /**
   * Fails a pending operation now: its `status` becomes `failed` or `error`, `failures_count`
   * grows by one, `error` is set, and `retry_at` too when `retryIn` is given. Answers the
   * operation as `GET` answers it now. Fails with `UnknownProject`, `UnknownOperation`, or
   * `OperationNotPending` if it has already ended.
   */
  readonly failOperation: (
    projectId: string,
    operationId: string,
    failure: OperationFailure
  ) => Effect.Effect<Operation, UnknownProject | UnknownOperation | OperationNotPending>
  /**
   * Cancels a pending operation: `cancelling` now, `cancelled` once `cancellingFor` has passed.
   * Answers the operation as `GET` answers it now (`cancelling`). Fails with `UnknownProject`,
   * `UnknownOperation`, or `OperationNotPending` if it has already ended.
   */
  readonly cancelOperation: (
    projectId: string,
    operationId: string,
    options?: Cancellation
  ) => Effect.Effect<Operation, UnknownProject | UnknownOperation | OperationNotPending>
  /**
   * Runs the SQL DDL `sql` on the database `databaseName` of branch `branchId` now, as a
   * migration would (since 0.5.0, docs/contract.md §24.3): `CREATE TABLE`, `ALTER TABLE` (columns,
   * constraints, renames) and `DROP TABLE` change its schema; other statements leave it as it is.
   * The new schema is in force from the `Clock`'s time now: `GET .../schema` at an earlier
   * `timestamp` or `lsn` reads the one before, and `GET .../compare_schema` shows the change
   * against the parent. Answers the schema after it and the point it is in force from. Fails with
   * `UnknownProject`, `UnknownDatabase` (for an unknown branch too), `MigrationTooLarge` (since
   * 0.6.0: more than `DdlParser.migrationLimitBytes` of SQL), or `InvalidMigration` (SQL that does
   * not parse, a statement Postgres refuses, or, since 0.6.0, more than `DdlParser.tableLimit`
   * tables after it); the schema is then unchanged. The SQL is parsed before the fake's state is
   * taken (with `FakePlatform.Options.ddlParser`, in another thread), and the change is then
   * applied at once: its cost grows with the migration, not with the schema.
   */
  readonly migrate: (
    projectId: string,
    branchId: string,
    databaseName: string,
    sql: string
  ) => Effect.Effect<SchemaMigrated, UnknownProject | UnknownDatabase | InvalidMigration | MigrationTooLarge>
}
