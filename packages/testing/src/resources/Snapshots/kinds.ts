/**
 * The kinds of record of the Snapshots group the fake keeps (`engine/kinds.ts`): each one's shape as a
 * `Snapshot` holds it, and its entry of the table of kinds (`internal/kinds.ts`).
 */
import * as Schema from "effect/Schema"
import { kind, newestFirst, slugProblem, SnapshotTime } from "../../engine/kinds.js"

/**
 * A snapshot of a branch's data (docs/contract.md §19), the platform's record kept by the fake
 * (not to be confused with `Snapshot`, the fake's whole state as data): `source_branch_id` the
 * branch it was taken of, `timestamp` and `lsn` the point of that branch's history it holds,
 * `created_at`, `expires_at` (when the control plane deletes it; absent: kept), `manual`
 * (`false` for one a backup schedule took), and the data it holds in the fake's notion of data:
 * the branch's roles (with their passwords) and databases as at that point.
 */
export const SnapshotBranchSnapshot = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  source_branch_id: Schema.String,
  name: Schema.String,
  lsn: Schema.String,
  timestamp: SnapshotTime,
  created_at: SnapshotTime,
  expires_at: Schema.optional(SnapshotTime),
  manual: Schema.Boolean,
  roles: Schema.Array(Schema.Struct({ name: Schema.String, password: Schema.String, protected: Schema.Boolean })),
  databases: Schema.Array(Schema.Struct({ name: Schema.String, owner_name: Schema.String }))
}).annotations({ identifier: "SnapshotBranchSnapshot" })

/**
 * A branch's backup schedule (docs/contract.md §19): `id` is the branch's id (one schedule per
 * branch), `schedule` its entries as the request gave them, and `taken_until` the time up to
 * which the control plane has taken the snapshots it calls for.
 */
export const SnapshotBackupSchedule = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  branch_id: Schema.String,
  schedule: Schema.Array(
    Schema.Struct({
      frequency: Schema.String,
      hour: Schema.optional(Schema.Int),
      day: Schema.optional(Schema.Int),
      month: Schema.optional(Schema.Int),
      retention_seconds: Schema.optional(Schema.Int)
    })
  ),
  updated_at: SnapshotTime,
  taken_until: SnapshotTime
}).annotations({ identifier: "SnapshotBackupSchedule" })

// Snapshots of branches and backup schedules (docs/contract.md §19). A snapshot outlives the
// branch it was taken of: it belongs to the project.
export const branch_snapshots = kind({
  label: "branch snapshot",
  schema: SnapshotBranchSnapshot,
  id: Schema.String,
  idOf: (snapshot) => snapshot.id,
  parent: { kind: "projects", of: (snapshot) => snapshot.project_id },
  rank: newestFirst,
  check: (snapshot) => slugProblem("snapshot", snapshot.id)
})

export const backup_schedules = kind({
  label: "backup schedule",
  schema: SnapshotBackupSchedule,
  id: Schema.String,
  idOf: (schedule) => schedule.id,
  parent: { kind: "branches", of: (schedule) => schedule.branch_id },
  rank: () => 0,
  check: (schedule) =>
    schedule.id === schedule.branch_id ? [] : [`backup schedule ${schedule.id}: its id is not its branch's`]
})

declare module "../../engine/kinds.js" {
  interface Kinds {
    readonly branch_snapshots: typeof branch_snapshots
    readonly backup_schedules: typeof backup_schedules
  }
}
