/**
 * The kinds of record of the BranchAuth group the fake keeps (`engine/kinds.ts`): each one's shape as a
 * `Snapshot` holds it, and its entry of the table of kinds (`internal/kinds.ts`).
 */
import * as Schema from "effect/Schema"
import { kind, newestFirst, SnapshotTime } from "../../engine/kinds.js"

/**
 * The auth service of a branch (docs/contract.md §26): `id` is the branch's id (one per branch),
 * with its trusted domains and OAuth providers. Its keys are not kept: they are shown once, when
 * it is enabled, and nothing reveals them later. An OAuth provider's `client_secret` is kept in
 * clear, because the provider list answers it (as a role's password, docs/design.md §4).
 */
export const SnapshotBranchAuth = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  auth_provider: Schema.String,
  auth_provider_project_id: Schema.String,
  db_name: Schema.String,
  name: Schema.String,
  created_at: SnapshotTime,
  domains: Schema.Array(Schema.Struct({ domain: Schema.String, auth_provider: Schema.String })),
  oauth_providers: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      type: Schema.String,
      client_id: Schema.optional(Schema.String),
      client_secret: Schema.optional(Schema.String),
      microsoft_tenant_id: Schema.optional(Schema.String)
    })
  )
}).annotations({ identifier: "SnapshotBranchAuth" })

export const branch_auths = kind({
  label: "branch auth",
  schema: SnapshotBranchAuth,
  id: Schema.String,
  idOf: (auth) => auth.id,
  parent: { kind: "branches", of: (auth) => auth.id },
  rank: newestFirst
})

declare module "../../engine/kinds.js" {
  interface Kinds {
    readonly branch_auths: typeof branch_auths
  }
}
