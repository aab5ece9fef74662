/**
 * The kinds of record of the Credentials group the fake keeps (`engine/kinds.ts`): each one's shape as a
 * `Snapshot` holds it, and its entry of the table of kinds (`internal/kinds.ts`).
 */
import { Api } from "@dbplatform/core"
import * as Schema from "effect/Schema"
import * as Struct from "effect/Struct"
import { kind, SnapshotTime } from "../../engine/kinds.js"

/**
 * A branch's scoped service credential (docs/contract.md §11.7): core's `Credential` as the fake
 * keeps it, with the project and branch it belongs to, times in epoch ms. `token_hash` is the
 * SHA-256 of its `api_token` (hex), what a verifier compares a bearer token with; the token
 * itself is not kept. `s3_secret_access_key` is kept in clear (since 0.6.0), as a role's password
 * is: the fake's S3 data plane recomputes a request's AWS Signature V4 with it (docs/contract.md
 * §28.7), and the platform keeps it recoverable too; a state that holds credentials holds
 * secrets. Absent in a state saved before: such a credential signs no S3 request. `revoked_at`
 * set: revoked.
 */
export const SnapshotCredential = Schema.Struct({
  ...Struct.pick(Api.Credential.fields, "token_id", "token_id_short", "name", "principal_type"),
  project_id: Schema.String,
  branch_id: Schema.String,
  scopes: Schema.Array(Schema.String),
  token_hash: Schema.String,
  s3_secret_access_key: Schema.optional(Schema.String),
  created_at: SnapshotTime,
  last_used_at: Schema.optional(SnapshotTime),
  revoked_at: Schema.optional(SnapshotTime),
  expires_at: Schema.optional(SnapshotTime)
}).annotations({ identifier: "SnapshotCredential" })

export const credentials = kind({
  label: "credential",
  schema: SnapshotCredential,
  id: Schema.String,
  idOf: (credential) => credential.token_id,
  parent: { kind: "branches", of: (credential) => credential.branch_id },
  rank: (credential) => -credential.created_at
})

declare module "../../engine/kinds.js" {
  interface Kinds {
    readonly credentials: typeof credentials
  }
}
