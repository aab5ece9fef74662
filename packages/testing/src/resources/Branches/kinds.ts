/**
 * The kinds of record of the Branches group the fake keeps (`engine/kinds.ts`): each one's shape as a
 * `Snapshot` holds it, and its entry of the table of kinds (`internal/kinds.ts`).
 */
import * as Schema from "effect/Schema"
import { kind, newestFirst, slugProblem, SnapshotTime } from "../../engine/kinds.js"

/**
 * A branch: `current_state` is `init` before `ready_at`, `ready` from it. `checked_at` is the
 * time of the last `check_availability` the control plane ran on it (none yet: absent). Since
 * 0.5.0, each optional (docs/contract.md §18): `expires_at` (the control plane deletes it after)
 * and `ttl_interval_seconds` (from when `expires_at` was set to it), `init_source` (absent:
 * `parent-data`), `parent_timestamp` and `parent_lsn` (the point of the parent's history it
 * started from), `archived` (created in archival storage).
 */
export const SnapshotBranch = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  parent_id: Schema.optional(Schema.String),
  name: Schema.String,
  default: Schema.Boolean,
  protected: Schema.Boolean,
  created_at: SnapshotTime,
  updated_at: SnapshotTime,
  ready_at: SnapshotTime,
  checked_at: Schema.optional(SnapshotTime),
  expires_at: Schema.optional(SnapshotTime),
  ttl_interval_seconds: Schema.optional(Schema.Int),
  init_source: Schema.optional(Schema.String),
  parent_timestamp: Schema.optional(SnapshotTime),
  parent_lsn: Schema.optional(Schema.String),
  archived: Schema.optional(Schema.Boolean),
  // Restored from a snapshot (docs/contract.md §19): `restored` or `finalized`, the snapshot's
  // id, and the id of the branch it stands in for.
  restore_status: Schema.optional(Schema.String),
  restored_from: Schema.optional(Schema.String),
  restored_as: Schema.optional(Schema.String)
}).annotations({ identifier: "SnapshotBranch" })

export const branches = kind({
  label: "branch",
  schema: SnapshotBranch,
  id: Schema.String,
  idOf: (branch) => branch.id,
  parent: { kind: "projects", of: (branch) => branch.project_id },
  rank: newestFirst,
  check: (branch) => slugProblem("branch", branch.id)
})

declare module "../../engine/kinds.js" {
  interface Kinds {
    readonly branches: typeof branches
  }
}
