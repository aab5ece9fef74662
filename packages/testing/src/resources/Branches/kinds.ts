/**
 * The kinds of record of the Branches group the fake keeps (`engine/kinds.ts`): each one's shape as a
 * `Snapshot` holds it, and its entry of the table of kinds (`internal/kinds.ts`).
 */
import { Api, Branch, BranchCreateRequest, KnownBranchDeletionMethod } from "@dbplatform/core"
import * as Schema from "effect/Schema"
import * as Struct from "effect/Struct"
import { kind, newestFirst, slugProblem, SnapshotTime } from "../../engine/kinds.js"
import { SnapshotEndpoint } from "../ComputeEndpoints/kinds.js"
import { SnapshotDatabase } from "../Databases/kinds.js"
import { SnapshotRole } from "../Roles/kinds.js"

/**
 * A branch: `current_state` is `init` before `ready_at`, `ready` from it. `checked_at` is the
 * time of the last `check_availability` the control plane ran on it (none yet: absent). Since
 * 0.5.0, each optional (docs/contract.md §18): `expires_at` (the control plane deletes it after)
 * and `ttl_interval_seconds` (from when `expires_at` was set to it), `init_source` (absent:
 * `parent-data`), `parent_timestamp` and `parent_lsn` (the point of the parent's history it
 * started from), `archived` (created in archival storage), `annotation_value` (its annotation's
 * values as its creation gave them, in core's schema of them: the branch's annotation, created
 * with it), `last_reset_at` (when it was last restored). Core's `Branch` as the fake keeps it:
 * the fields it keeps (its state, sizes and times used are derived when it is read), ids plain
 * strings (as every id the state keeps; `check` reads them), times in epoch ms.
 */
export const SnapshotBranch = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  parent_id: Schema.optional(Schema.String),
  ...Struct.pick(Branch.fields, "name", "default", "protected"),
  created_at: SnapshotTime,
  updated_at: SnapshotTime,
  ready_at: SnapshotTime,
  checked_at: Schema.optional(SnapshotTime),
  expires_at: Schema.optional(SnapshotTime),
  ...Struct.pick(Branch.fields, "ttl_interval_seconds", "init_source"),
  parent_timestamp: Schema.optional(SnapshotTime),
  parent_lsn: Branch.fields.parent_lsn,
  archived: Schema.optional(Schema.Boolean),
  // Restored from a snapshot (docs/contract.md §19): `restored` or `finalized`, the snapshot's
  // id, and the id of the branch it stands in for.
  restore_status: Schema.optional(Schema.String),
  ...Struct.pick(Branch.fields, "restored_from", "restored_as"),
  // When it was last restored (docs/contract.md §11.4).
  last_reset_at: Schema.optional(SnapshotTime),
  annotation_value: BranchCreateRequest.fields.annotation_value
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

/**
 * A branch deleted within its recovery window (since 0.5.0, docs/contract.md §18): the branch as
 * it was, when it was deleted (`deleted_at`) and how (`deletion_method`: `user`, a request;
 * `ttl`, its expiry). The platform keeps a deleted branch 7 days for its branch recovery (a
 * preview feature) unless deleted with `hard_delete`; `GET .../branches?include_deleted=true`
 * lists it with its `recovery`. Since 0.5.0, optional (absent in states saved before: nothing
 * to give back): its compute endpoints, roles and databases as they were (`kept_endpoints`,
 * `kept_roles`, `kept_databases`), which `POST .../branches/{branch_id}/recover` gives back
 * (docs/contract.md §18.3).
 */
export const SnapshotDeletedBranch = Schema.Struct({
  ...SnapshotBranch.fields,
  deleted_at: SnapshotTime,
  deletion_method: KnownBranchDeletionMethod,
  kept_endpoints: Schema.optional(Schema.Array(SnapshotEndpoint)),
  kept_roles: Schema.optional(Schema.Array(SnapshotRole)),
  kept_databases: Schema.optional(Schema.Array(SnapshotDatabase))
}).annotations({ identifier: "SnapshotDeletedBranch" })

export const deleted_branches = kind({
  label: "deleted branch",
  schema: SnapshotDeletedBranch,
  id: Schema.String,
  idOf: (branch) => branch.id,
  parent: { kind: "projects", of: (branch) => branch.project_id },
  rank: (branch) => -branch.deleted_at,
  check: (branch) => slugProblem("branch", branch.id)
})

/**
 * What makes a branch an anonymized one (since 0.5.0, docs/contract.md §18.4), by its branch's
 * `id`: its masking rules (core's `MaskingRule`), when it became one (`created_at`) and ready to
 * anonymize (`initialized_at`, when its branch is ready), when it last changed (`updated_at`), and
 * its last anonymization (`run`): started at `started_at` (ms) by the user `triggered_by`, ending
 * at `ends_at` having masked `masked_columns` columns, or failed then with `problem`. Its state
 * at a time is derived from these (`anonymized.ts`): it moves on the clock, with nothing to run.
 */
export const SnapshotAnonymization = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  masking_rules: Schema.Array(Schema.Struct(Api.MaskingRule.fields)),
  created_at: SnapshotTime,
  initialized_at: SnapshotTime,
  updated_at: SnapshotTime,
  run: Schema.optional(
    Schema.Struct({
      started_at: SnapshotTime,
      ends_at: SnapshotTime,
      triggered_by: Schema.String,
      masked_columns: Schema.Number,
      problem: Schema.optional(Schema.String)
    })
  )
}).annotations({ identifier: "SnapshotAnonymization" })

export const anonymizations = kind({
  label: "anonymized branch",
  schema: SnapshotAnonymization,
  id: Schema.String,
  idOf: (anonymization) => anonymization.id,
  parent: { kind: "branches", of: (anonymization) => anonymization.id },
  rank: newestFirst
})

declare module "../../engine/kinds.js" {
  interface Kinds {
    readonly branches: typeof branches
    readonly deleted_branches: typeof deleted_branches
    readonly anonymizations: typeof anonymizations
  }
}
