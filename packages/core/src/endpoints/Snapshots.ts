/**
 * The snapshot endpoints: take a snapshot of a branch, list, rename and delete a project's
 * snapshots, restore one to a new branch and finalize that restore, and read or set a branch's
 * backup schedule (`docs/contract.md` §19). The published reference calls the group beta.
 *
 * @since 0.5.0
 */
import * as Schema from "effect/Schema"
import { Branch } from "../Branch.js"
import { ComputeEndpoint } from "../ComputeEndpoint.js"
import * as Endpoint from "../Endpoint.js"
import { Branches } from "./Branches.js"
import { BranchId } from "../Ids.js"
import { BranchIdInput, branchParams, projectParams, ProjectIdParameter, withMessage } from "../internal/input.js"
import { openEnum } from "../internal/openEnum.js"
import { Operation, OperationsStarted } from "../Operation.js"
import { Timestamp } from "../Timestamp.js"

/**
 * A snapshot's id, as the platform gives it (`^[a-z0-9-]{1,60}$`); decoded, a `string` branded
 * `@dbplatform/SnapshotId` (§19).
 *
 * @since 0.5.0
 * @category schemas
 */
export const SnapshotId = Schema.String.pipe(Schema.brand("@dbplatform/SnapshotId")).annotations({
  identifier: "SnapshotId"
})

/**
 * A decoded {@link SnapshotId}.
 *
 * @since 0.5.0
 * @category models
 */
export type SnapshotId = typeof SnapshotId.Type

/** A snapshot id as a client sends it in a path: `^[a-z0-9-]{1,60}$`. */
const SnapshotIdInput = Schema.String.pipe(Schema.pattern(/^[a-z0-9-]{1,60}$/), Schema.compose(SnapshotId)).annotations(
  withMessage("must be 1 to 60 of a-z, 0-9 and -")
)

/**
 * A Postgres log sequence number as a client sends it: two hexadecimal numbers of 1 to 8 digits
 * separated by `/`, e.g. `0/1F2E3D4` (§19).
 *
 * @since 0.5.0
 * @category schemas
 */
export const Lsn = Schema.String.pipe(Schema.pattern(/^[0-9A-Fa-f]{1,8}\/[0-9A-Fa-f]{1,8}$/)).annotations(
  withMessage("must be a log sequence number such as 0/1F2E3D4")
)

/**
 * A snapshot of a branch's data at a point in its history (§19): `id`, `name`, `created_at`;
 * and, when the platform sends them, `lsn` and `timestamp` (the point it was taken at),
 * `source_branch_id` (the branch it was taken of), `expires_at` (when it is deleted on its own),
 * `manual` (`false` for one taken by a backup schedule), `full_size` (its logical size in bytes
 * when taken; absent until computed, 0: not charged) and `diff_size` (bytes since the previous
 * scheduled snapshot, when billed so). Unknown fields are ignored.
 *
 * @since 0.5.0
 * @category schemas
 */
export class Snapshot extends Schema.Class<Snapshot>("Snapshot")({
  id: SnapshotId,
  name: Schema.String,
  lsn: Schema.optional(Schema.String),
  timestamp: Schema.optional(Timestamp),
  source_branch_id: Schema.optional(BranchId),
  created_at: Timestamp,
  expires_at: Schema.optional(Timestamp),
  manual: Schema.optional(Schema.Boolean),
  full_size: Schema.optional(Schema.Int),
  diff_size: Schema.optional(Schema.Int)
}) {}

/**
 * Answer of `POST /projects/{project_id}/branches/{branch_id}/snapshot`: `{ snapshot,
 * operations }`, the snapshot and the operations taking it started (§19).
 *
 * @since 0.5.0
 * @category schemas
 */
export class SnapshotCreated extends Schema.Class<SnapshotCreated>("SnapshotCreated")({
  snapshot: Snapshot,
  operations: Schema.Array(Operation)
}) {}

/**
 * Answer of `GET /projects/{project_id}/snapshots`: `{ snapshots }`, every snapshot of the
 * project at once (no pagination, §19).
 *
 * @since 0.5.0
 * @category schemas
 */
export class SnapshotsList extends Schema.Class<SnapshotsList>("SnapshotsList")({
  snapshots: Schema.Array(Snapshot)
}) {}

/**
 * Answer of `PATCH /projects/{project_id}/snapshots/{snapshot_id}`: `{ snapshot }` (§19).
 *
 * @since 0.5.0
 * @category schemas
 */
export class SnapshotEnvelope extends Schema.Class<SnapshotEnvelope>("SnapshotEnvelope")({
  snapshot: Snapshot
}) {}

/**
 * Answer of `POST /projects/{project_id}/snapshots/{snapshot_id}/restore`: `{ branch,
 * endpoints?, operations }`, the branch the snapshot was restored to, its compute endpoints
 * where the platform sends them, and the operations started (§19).
 *
 * @since 0.5.0
 * @category schemas
 */
export class SnapshotRestored extends Schema.Class<SnapshotRestored>("SnapshotRestored")({
  branch: Branch,
  endpoints: Schema.optional(Schema.Array(ComputeEndpoint)),
  operations: Schema.Array(Operation)
}) {}

/**
 * How often a backup schedule takes a snapshot, known today: `hourly`, `daily`, `weekly`,
 * `monthly`, `yearly` (§19).
 *
 * @since 0.5.0
 * @category schemas
 */
export const KnownBackupFrequency = Schema.Literal("hourly", "daily", "weekly", "monthly", "yearly")

/**
 * A backup frequency: one of {@link KnownBackupFrequency}, or any other string a newer server
 * sends (kept as is).
 *
 * @since 0.5.0
 * @category schemas
 */
export type BackupFrequency = typeof KnownBackupFrequency.Type | (string & {})

/**
 * Open enum schema of {@link BackupFrequency}.
 *
 * @since 0.5.0
 * @category schemas
 */
export const BackupFrequency: Schema.Schema<BackupFrequency> = openEnum(KnownBackupFrequency, "BackupFrequency")

/** An integer from `min` to `max`. */
const between = (min: number, max: number) =>
  Schema.Int.pipe(Schema.between(min, max)).annotations(withMessage(`must be an integer from ${min} to ${max}`))

/**
 * One entry of a backup schedule (§19): `frequency`; `hour` (0 to 23, UTC), `day` (1 to 31: of
 * the week or of the month, as the frequency has it) and `month` (1 to 12) where the frequency
 * uses them; `retention_seconds`, how long each snapshot it takes is kept (3 600 s or more;
 * absent: kept until deleted).
 *
 * @since 0.5.0
 * @category schemas
 */
export const BackupScheduleItem = Schema.Struct({
  frequency: BackupFrequency,
  hour: Schema.optional(between(0, 23)),
  day: Schema.optional(between(1, 31)),
  month: Schema.optional(between(1, 12)),
  retention_seconds: Schema.optional(
    Schema.Int.pipe(Schema.greaterThanOrEqualTo(3600)).annotations(
      withMessage("must be an integer of 3600 or more (seconds)")
    )
  )
}).annotations({ identifier: "BackupScheduleItem" })

/**
 * A decoded {@link BackupScheduleItem}.
 *
 * @since 0.5.0
 * @category models
 */
export type BackupScheduleItem = typeof BackupScheduleItem.Type

/**
 * A branch's backup schedule: `{ schedule }`, the entries by which the platform takes snapshots
 * of it on its own (none: no scheduled snapshots) (§19). The answer of `GET` and the body of
 * `PUT /projects/{project_id}/branches/{branch_id}/backup_schedule`.
 *
 * @since 0.5.0
 * @category schemas
 */
export const BackupSchedule = Schema.Struct({
  schedule: Schema.Array(BackupScheduleItem)
}).annotations({ identifier: "BackupSchedule" })

/**
 * A decoded {@link BackupSchedule}.
 *
 * @since 0.5.0
 * @category models
 */
export type BackupSchedule = typeof BackupSchedule.Type

/**
 * Answer of `PUT /projects/{project_id}/branches/{branch_id}/backup_schedule`: `{}` (§19).
 *
 * @since 0.5.0
 * @category schemas
 */
export class BackupScheduleSet extends Schema.Class<BackupScheduleSet>("BackupScheduleSet")({}) {}

/** A branch's name (a restored one's, or the one a finalize renames): 1 to 256 characters. */
const BranchName = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(256)).annotations(
  withMessage("must be 1 to 256 characters")
)

/**
 * Query of `POST /projects/{project_id}/branches/{branch_id}/snapshot` (§19): the point to take
 * it at, `lsn` or `timestamp` (never both; within the branch's history; now when neither),
 * `name` (the published reference sets no limit), and `expires_at`, when the platform deletes it.
 *
 * @since 0.5.0
 * @category schemas
 */
export const SnapshotCreateQuery = Schema.Struct({
  lsn: Schema.optional(Lsn),
  timestamp: Schema.optional(Timestamp),
  name: Schema.optional(Schema.String),
  expires_at: Schema.optional(Timestamp)
})
  .pipe(
    Schema.filter(
      (query) => query.lsn === undefined || query.timestamp === undefined || "lsn and timestamp: give one, not both"
    )
  )
  .annotations({ identifier: "SnapshotCreateQuery" })

/**
 * Body of `PATCH /projects/{project_id}/snapshots/{snapshot_id}` (§19): `{ snapshot: { name?,
 * expires_at? } }`. `expires_at` (since 0.5.0) is a new expiry, or `null` to clear it (the
 * snapshot then stays until deleted): newer than the published document of the pinned API client,
 * and sent by the platform's CLI (`snapshots update --expires-at`), so the platform takes it.
 *
 * @since 0.5.0
 * @category schemas
 */
export const SnapshotUpdateRequest = Schema.Struct({
  snapshot: Schema.Struct({
    name: Schema.optional(Schema.String),
    expires_at: Schema.optional(Schema.NullOr(Timestamp))
  })
}).annotations({ identifier: "SnapshotUpdateRequest" })

/**
 * Body of `POST /projects/{project_id}/snapshots/{snapshot_id}/restore` (§19), every part
 * optional: `name` (the new branch's; the platform makes one up when absent),
 * `target_branch_id` (the branch it stands in for; the snapshot's `source_branch_id` when
 * absent), `finalize_restore` (`true`: finalize at once; `false`, the default: a branch to look
 * at first). The deprecated query parameter `name` is not declared: the body's takes its place.
 *
 * @since 0.5.0
 * @category schemas
 */
export const SnapshotRestoreRequest = Schema.Struct({
  name: Schema.optional(BranchName),
  target_branch_id: Schema.optional(BranchIdInput),
  finalize_restore: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "SnapshotRestoreRequest" })

/**
 * Body of `POST /projects/{project_id}/branches/{branch_id}/finalize_restore` (§19): `name`, the
 * name the branch it replaces takes (1 to 256 characters; the platform makes one up when absent).
 *
 * @since 0.5.0
 * @category schemas
 */
export const FinalizeRestoreRequest = Schema.Struct({
  name: Schema.optional(BranchName)
}).annotations({ identifier: "FinalizeRestoreRequest" })

/** A project's snapshot in a path: `project_id` and `snapshot_id`. */
const snapshotParams = Schema.Struct({ project_id: ProjectIdParameter, snapshot_id: SnapshotIdInput })

/**
 * The snapshot endpoints (§19).
 *
 * @since 0.5.0
 * @category endpoints
 */
export const Snapshots = Endpoint.group("Snapshots", {
  /**
   * `POST /projects/{project_id}/branches/{branch_id}/snapshot`: takes a snapshot of a branch;
   * its inputs are query parameters: `lsn` or `timestamp` (never both: 400; outside the branch's
   * history: 400; neither: now), `name`, `expires_at`. Answers 200 `{ snapshot, operations }`
   * (§19). 404 for an unknown project or branch, 403, 423 while a conflicting operation runs.
   */
  create: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/branches/{branch_id}/snapshot",
    params: branchParams,
    query: SnapshotCreateQuery,
    success: SnapshotCreated,
    startsOperations: true,
    errors: ["BadRequest", "NotFound", "Forbidden", "Locked"],
    about: ({ snapshot }) => ({ branch_id: snapshot.source_branch_id })
  }),
  /**
   * `GET /projects/{project_id}/snapshots`: every snapshot of the project, `{ snapshots }`, no
   * pagination (§19). 404 for an unknown project, 403.
   */
  list: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/snapshots",
    params: projectParams,
    success: SnapshotsList,
    errors: ["NotFound", "Forbidden", "BadRequest"],
    list: { items: (answer) => answer.snapshots }
  }),
  /**
   * `PATCH /projects/{project_id}/snapshots/{snapshot_id}`: renames a snapshot, `{ snapshot: {
   * name } }`; answers `{ snapshot }` (§19). 404 for an unknown project or snapshot, 403, 400,
   * 423 while a conflicting operation runs.
   */
  update: Endpoint.make({
    method: "PATCH",
    route: "/projects/{project_id}/snapshots/{snapshot_id}",
    params: snapshotParams,
    body: SnapshotUpdateRequest,
    success: SnapshotEnvelope,
    errors: ["BadRequest", "NotFound", "Forbidden", "Locked"],
    about: ({ snapshot }) => ({ snapshot_id: snapshot.id })
  }),
  /**
   * `DELETE /projects/{project_id}/snapshots/{snapshot_id}`: deletes a snapshot; answers **202**
   * `{ operations }` (§19). 404 for an unknown project or snapshot, 403, 423 while a conflicting
   * operation runs.
   */
  delete: Endpoint.make({
    method: "DELETE",
    route: "/projects/{project_id}/snapshots/{snapshot_id}",
    params: snapshotParams,
    success: OperationsStarted,
    statuses: [202],
    startsOperations: true,
    errors: ["NotFound", "Forbidden", "BadRequest", "Locked"]
  }),
  /**
   * `POST /projects/{project_id}/snapshots/{snapshot_id}/restore`: restores a snapshot to a new
   * branch holding its data, standing in for `target_branch_id` (the snapshot's source branch by
   * default); with `finalize_restore: true` it also takes the target's place at once (as
   * {@link Snapshots} `finalizeRestore`). Answers `{ branch, endpoints?, operations }` (§19). 404
   * for an unknown project, snapshot or target, 409 for a `name` another branch has, 400, 403,
   * 423 while a conflicting operation runs.
   */
  restore: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/snapshots/{snapshot_id}/restore",
    params: snapshotParams,
    body: SnapshotRestoreRequest,
    success: SnapshotRestored,
    startsOperations: true,
    errors: ["BadRequest", "NotFound", "Forbidden", "Conflict", "Locked"],
    readBack: {
      entry: () => Branches.get,
      input: ({ branch }) => ({ project_id: branch.project_id, branch_id: branch.id })
    }
  }),
  /**
   * `POST /projects/{project_id}/branches/{branch_id}/finalize_restore`: a branch restored from a
   * snapshot and not yet finalized takes the place of the branch it stands in for: that branch's
   * compute endpoints move to it (restarted), it takes that branch's name, and that branch is
   * renamed `name` (made up when absent). Answers `{ operations }` (§19). 400 for a branch not
   * restored from a snapshot or already finalized, 404, 409 for a `name` another branch has,
   * 403, 423 while a conflicting operation runs.
   */
  finalizeRestore: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/branches/{branch_id}/finalize_restore",
    params: branchParams,
    body: FinalizeRestoreRequest,
    success: OperationsStarted,
    startsOperations: true,
    errors: ["BadRequest", "NotFound", "Forbidden", "Conflict", "Locked"]
  }),
  /**
   * `GET /projects/{project_id}/branches/{branch_id}/backup_schedule`: the branch's backup
   * schedule, `{ schedule }` (empty: none) (§19). 404 for an unknown project or branch, 403.
   */
  getBackupSchedule: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/branches/{branch_id}/backup_schedule",
    params: branchParams,
    success: BackupSchedule,
    errors: ["NotFound", "Forbidden", "BadRequest"]
  }),
  /**
   * `PUT /projects/{project_id}/branches/{branch_id}/backup_schedule`: replaces the branch's
   * backup schedule, `{ schedule }`; answers 200 `{}` (§19). 400 for a schedule the server
   * refuses, 404, 403, 423 while a conflicting operation runs.
   */
  setBackupSchedule: Endpoint.make({
    method: "PUT",
    route: "/projects/{project_id}/branches/{branch_id}/backup_schedule",
    params: branchParams,
    body: BackupSchedule,
    success: BackupScheduleSet,
    errors: ["BadRequest", "NotFound", "Forbidden", "Locked"]
  })
})
