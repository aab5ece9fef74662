/**
 * The kinds of record of the BranchAuth group the fake keeps (`engine/kinds.ts`): each one's shape as a
 * `Snapshot` holds it, and its entry of the table of kinds (`internal/kinds.ts`).
 */
import { Api } from "@dbplatform/core"
import * as Schema from "effect/Schema"
import * as Struct from "effect/Struct"
import { kind, newestFirst, SnapshotTime } from "../../engine/kinds.js"

/** A user of a branch's auth service (docs/contract.md §26.5): its id, email, name and roles. */
export const SnapshotAuthUser = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  name: Schema.optional(Schema.String),
  roles: Schema.Array(Schema.String),
  created_at: SnapshotTime
}).annotations({ identifier: "SnapshotAuthUser" })

/**
 * The email provider of a branch's auth service (docs/contract.md §26.6), its `type` and the
 * fields of that variant, the SMTP host, username and password in clear as the read answers them
 * (core's `EmailServer` decodes them to `Redacted`).
 */
export const SnapshotEmailProvider = Schema.Struct({
  type: Schema.Literal("standard", "shared"),
  host: Schema.optional(Schema.String),
  port: Schema.optional(Schema.Int),
  username: Schema.optional(Schema.String),
  password: Schema.optional(Schema.String),
  sender_email: Schema.optional(Schema.String),
  sender_name: Schema.optional(Schema.String)
}).annotations({ identifier: "SnapshotEmailProvider" })

/**
 * The auth service of a branch (docs/contract.md §26): `id` is the branch's id (one per branch),
 * with its trusted domains and OAuth providers. Its keys are not kept: they are shown once, when
 * it is enabled, and nothing reveals them later. An OAuth provider's `client_secret` is kept in
 * clear, because the provider list answers it (as a role's password, docs/design.md §4): core's
 * `OAuthProvider` decodes it to `Redacted`, the state keeps its text. Its domains are core's
 * `TrustedDomain`. Since 0.6 also its users and its settings (sign-in, email provider, plugins,
 * webhooks), each optional (absent: the defaults), the email provider's SMTP secrets in clear as
 * the OAuth client secrets are.
 */
export const SnapshotBranchAuth = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  auth_provider: Schema.String,
  auth_provider_project_id: Schema.String,
  db_name: Schema.String,
  name: Schema.String,
  created_at: SnapshotTime,
  domains: Schema.Array(Schema.Struct(Api.TrustedDomain.fields)),
  oauth_providers: Schema.Array(
    Schema.Struct({
      ...Struct.pick(Api.OAuthProvider.fields, "id", "type", "client_id"),
      client_secret: Schema.optional(Schema.String),
      microsoft_tenant_id: Schema.optional(Schema.String)
    })
  ),
  // Each added since 0.6 and optional, so a state saved before loads; absent: the defaults of
  // steps.ts (docs/contract.md §26.5-§26.8).
  users: Schema.optional(Schema.Array(SnapshotAuthUser)),
  email_and_password: Schema.optional(Schema.Struct(Api.EmailAndPasswordConfig.fields)),
  email_provider: Schema.optional(SnapshotEmailProvider),
  allow_localhost: Schema.optional(Schema.Boolean),
  organization: Schema.optional(Schema.Struct(Api.OrganizationPluginConfig.fields)),
  magic_link: Schema.optional(Schema.Struct(Api.MagicLinkPluginConfig.fields)),
  phone_number: Schema.optional(Schema.Struct(Api.PhoneNumberPluginConfig.fields)),
  webhooks: Schema.optional(Schema.Struct(Api.AuthWebhookConfig.fields)),
  transfer_status: Schema.optional(Schema.String)
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
