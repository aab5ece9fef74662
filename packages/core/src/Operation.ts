/**
 * Operations: what the control plane does, and how far it got (`docs/contract.md` §2.5, §3.2,
 * §4, §6, §10.5).
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { TypeId } from "./internal/error.js"
import { BranchId, EndpointId, OperationId, ProjectId } from "./Ids.js"
import { Pagination } from "./Pagination.js"
import { Timestamp } from "./Timestamp.js"

/**
 * The status values known today (§3.2, §10.5).
 *
 * @since 0.1.0
 * @category schemas
 */
export const KnownOperationStatus = Schema.Literal(
  "scheduling",
  "running",
  "finished",
  "failed",
  "error",
  "cancelling",
  "cancelled",
  "skipped"
)

/**
 * An operation's status: one of {@link KnownOperationStatus}, or any other string a newer
 * server sends (kept as is, so a page never fails on a new value).
 *
 * @since 0.1.0
 * @category schemas
 */
export type OperationStatus = typeof KnownOperationStatus.Type | (string & {})

/**
 * Open enum schema of {@link OperationStatus}.
 *
 * @since 0.1.0
 * @category schemas
 */
export const OperationStatus: Schema.Schema<OperationStatus> = Schema.Union(
  // Any string is accepted, so \`String\` is tried first: a union tries its members in order,
  // and the known values first would cost a comparison with each of them per decode.
  Schema.String,
  KnownOperationStatus
).annotations({ identifier: "OperationStatus" })

/**
 * The action values seen on the wire (§2.5, §10.5).
 *
 * @since 0.1.0
 * @category schemas
 */
export const KnownOperationAction = Schema.Literal(
  "apply_config",
  "apply_schema_from_branch",
  "apply_storage_config",
  "check_availability",
  "create_branch",
  "create_compute",
  "create_timeline",
  "delete_tenant",
  "delete_timeline",
  "detach_parent_branch",
  "disable_maintenance",
  "finalize_migration",
  "import_data",
  "mark_migration_prepared",
  "prepare_secondary_pageserver",
  "prewarm_replica",
  "promote_replica",
  "replace_safekeeper",
  "set_storage_non_dirty",
  "start_compute",
  "start_reserved_compute",
  "suspend_compute",
  "swap_binding_id",
  "switch_pageserver",
  "sync_dbs_and_roles_from_compute",
  "tenant_attach",
  "tenant_detach",
  "tenant_ignore",
  "tenant_reattach",
  "timeline_archive",
  "timeline_mark_invisible",
  "timeline_unarchive",
  "timeline_update_protected_config",
  "update_catalog"
)

/**
 * An operation's action: one of {@link KnownOperationAction}, or any other string (the list
 * grows over time; an unknown action decodes as its string).
 *
 * @since 0.1.0
 * @category schemas
 */
export type OperationAction = typeof KnownOperationAction.Type | (string & {})

/**
 * Open enum schema of {@link OperationAction}.
 *
 * @since 0.1.0
 * @category schemas
 */
export const OperationAction: Schema.Schema<OperationAction> = Schema.Union(
  // Any string is accepted, so \`String\` is tried first: a union tries its members in order,
  // and the known values first would cost a comparison with each of them per decode.
  Schema.String,
  KnownOperationAction
).annotations({ identifier: "OperationAction" })

/**
 * One operation (§2.5). `endpoint_id` is absent for `create_branch`. A real server also sends
 * `total_duration_ms` (milliseconds), and on trouble `error` (message of the last failure) and
 * `retry_at` (when a failed step is retried).
 *
 * @since 0.1.0
 * @category schemas
 */
export class Operation extends Schema.Class<Operation>("Operation")({
  id: OperationId,
  project_id: ProjectId,
  branch_id: Schema.optional(BranchId),
  endpoint_id: Schema.optional(EndpointId),
  action: OperationAction,
  status: OperationStatus,
  failures_count: Schema.Int,
  created_at: Timestamp,
  updated_at: Timestamp,
  total_duration_ms: Schema.optional(Schema.Number),
  error: Schema.optional(Schema.String),
  retry_at: Schema.optional(Timestamp)
}) {}

/**
 * Answer of `GET /projects/{project_id}/operations`: `{ operations, pagination? }`, newest
 * first (§4 rules 1–3).
 *
 * @since 0.1.0
 * @category schemas
 */
export class OperationsPage extends Schema.Class<OperationsPage>("OperationsPage")({
  operations: Schema.Array(Operation),
  pagination: Schema.optional(Pagination)
}) {}

/**
 * Answer of `GET /projects/{project_id}/operations/{operation_id}`: `{ operation }` (§4).
 *
 * @since 0.1.0
 * @category schemas
 */
export class OperationEnvelope extends Schema.Class<OperationEnvelope>("OperationEnvelope")({
  operation: Operation
}) {}

/**
 * The `operations` array a mutating request answers with (§4 rule 4, §10.5).
 *
 * @since 0.1.0
 * @category schemas
 */
export class OperationsStarted extends Schema.Class<OperationsStarted>("OperationsStarted")({
  operations: Schema.Array(Operation)
}) {}

const pending: ReadonlySet<string> = new Set(["scheduling", "running", "cancelling"])
const succeeded: ReadonlySet<string> = new Set(["finished", "skipped"])
const failed: ReadonlySet<string> = new Set(["failed", "error", "cancelled"])

/**
 * Still in progress: `scheduling`, `running` or `cancelling` (§10.5).
 *
 * @since 0.1.0
 * @category predicates
 */
export const isPending = (operation: { readonly status: OperationStatus }): boolean => pending.has(operation.status)

/**
 * Done and good: `finished` or `skipped` (§10.5).
 *
 * @since 0.1.0
 * @category predicates
 */
export const isSucceeded = (operation: { readonly status: OperationStatus }): boolean => succeeded.has(operation.status)

/**
 * Done and bad: `failed`, `error` or `cancelled` (§10.5). A `failed` operation may carry
 * `retry_at`, when the platform retries the step; it still counts as done for waiting.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isFailed = (operation: { readonly status: OperationStatus }): boolean => failed.has(operation.status)

/**
 * Done, well or badly. An unknown status is not terminal: a waiter keeps polling rather than
 * claim an end it cannot recognise.
 *
 * @example
 * ```ts
 * import { isFailed, isPending, isSucceeded, isTerminal } from "@dbplatform/core"
 *
 * const operation = { status: "failed" }
 * console.log(isPending(operation), isTerminal(operation), isSucceeded(operation), isFailed(operation))
 * // false true false true
 * console.log(isTerminal({ status: "some_new_status" })) // false: unknown statuses keep a waiter polling
 * ```
 *
 * @since 0.1.0
 * @category predicates
 */
export const isTerminal = (operation: { readonly status: OperationStatus }): boolean =>
  isSucceeded(operation) || isFailed(operation)

/**
 * A wait ended (its timeout passed or its schedule ran out) while the operation was not yet in
 * a terminal status. `operation` is the last state read.
 *
 * @since 0.1.0
 * @category errors
 */
export class OperationStillPending extends Schema.TaggedError<OperationStillPending>(
  "@dbplatform/core/OperationStillPending"
)("OperationStillPending", { operation: Operation }) {
  /**
   * Marks an error of the SDK: what `isDbPlatformError` tests.
   *
   * @since 0.2.0
   */
  readonly [TypeId]: TypeId = TypeId

  override get message(): string {
    return `operation ${this.operation.id} (${this.operation.action}) is still ${this.operation.status}`
  }
}

/**
 * A waited-for operation ended badly: `failed`, `error` or `cancelled` (§10.5). `operation` is its last state, with `failures_count`, and `error` and
 * `retry_at` when the server sent them. A `failed` operation with `retry_at` may still be
 * retried by the platform; waiting treats it as ended.
 *
 * @since 0.1.0
 */
export class OperationFailed extends Schema.TaggedError<OperationFailed>("@dbplatform/core/OperationFailed")(
  "OperationFailed",
  { operation: Operation }
) {
  /**
   * Marks an error of the SDK: what `isDbPlatformError` tests.
   *
   * @since 0.2.0
   */
  readonly [TypeId]: TypeId = TypeId

  override get message(): string {
    const { action, error, failures_count, id, status } = this.operation
    return `operation ${id} (${action}) ended ${status} after ${failures_count} failure(s)${error === undefined ? "" : `: ${error}`}`
  }
}
