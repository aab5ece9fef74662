/**
 * The kinds of record of the Jwks group the fake keeps (`engine/kinds.ts`): each one's shape as a
 * `Snapshot` holds it, and its entry of the table of kinds (`internal/kinds.ts`).
 */
import * as Schema from "effect/Schema"
import { kind, newestFirst, SnapshotTime } from "../../engine/kinds.js"

/** A JWKS of a project (docs/contract.md §27): scoped to `branch_id` when it has one. */
export const SnapshotJwks = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  branch_id: Schema.optional(Schema.String),
  jwks_url: Schema.String,
  provider_name: Schema.String,
  jwt_audience: Schema.optional(Schema.String),
  role_names: Schema.Array(Schema.String),
  created_at: SnapshotTime,
  updated_at: SnapshotTime
}).annotations({ identifier: "SnapshotJwks" })

export const jwks = kind({
  label: "JWKS",
  schema: SnapshotJwks,
  id: Schema.String,
  idOf: (jwks) => jwks.id,
  parent: { kind: "projects", of: (jwks) => jwks.project_id },
  rank: newestFirst
})

declare module "../../engine/kinds.js" {
  interface Kinds {
    readonly jwks: typeof jwks
  }
}
