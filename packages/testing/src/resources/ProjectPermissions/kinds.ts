/**
 * The kinds of record of the ProjectPermissions group the fake keeps (`engine/kinds.ts`): each one's shape as a
 * `Snapshot` holds it, and its entry of the table of kinds (`internal/kinds.ts`).
 */
import * as Schema from "effect/Schema"
import { kind, SnapshotTime } from "../../engine/kinds.js"

/**
 * An access to a project granted by email (docs/contract.md §22.1); `id` is unique in the
 * account. A revoked access is removed: the list shows those in force.
 */
export const SnapshotPermission = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  granted_to_email: Schema.String,
  granted_at: SnapshotTime
}).annotations({ identifier: "SnapshotPermission" })

export const permissions = kind({
  label: "permission",
  schema: SnapshotPermission,
  id: Schema.String,
  idOf: (permission) => permission.id,
  parent: { kind: "projects", of: (permission) => permission.project_id },
  // Oldest first: the order accesses were granted in.
  rank: (permission) => permission.granted_at
})

declare module "../../engine/kinds.js" {
  interface Kinds {
    readonly permissions: typeof permissions
  }
}
