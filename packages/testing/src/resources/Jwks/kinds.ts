/**
 * The kinds of record of the Jwks group the fake keeps (`engine/kinds.ts`): each one's shape as a
 * `Snapshot` holds it, and its entry of the table of kinds (`internal/kinds.ts`).
 */
import { Api } from "@dbplatform/core"
import * as Schema from "effect/Schema"
import * as Struct from "effect/Struct"
import { kind, newestFirst, SnapshotTime } from "../../engine/kinds.js"

/**
 * A JWKS of a project (docs/contract.md §27): scoped to `branch_id` when it has one. Core's
 * `ProjectJwks` as the fake keeps it: its fields, but its times in epoch ms (`SnapshotTime`) and
 * `role_names` always there (the request's default filled in when it named none).
 */
export const SnapshotJwks = Schema.Struct({
  ...Struct.pick(Api.ProjectJwks.fields, "id", "project_id", "branch_id", "jwks_url", "provider_name", "jwt_audience"),
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
