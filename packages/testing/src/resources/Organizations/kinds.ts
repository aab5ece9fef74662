/**
 * The kinds of record of the Organizations group the fake keeps (`engine/kinds.ts`): each one's shape as a
 * `Snapshot` holds it, and its entry of the table of kinds (`internal/kinds.ts`).
 */
import { Api, DecodeIssue } from "@dbplatform/core"
import * as Schema from "effect/Schema"
import { kind, newestFirst, refusalOf, SnapshotTime } from "../../engine/kinds.js"

/**
 * An organization (docs/contract.md §20): its projects name it by `org_id`. `managed_by` is
 * `console` for one the fake creates. Every organization a project names exists: one a seed or a
 * request names without declaring it is made with the account's user as its admin.
 */
export const SnapshotOrganization = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  handle: Schema.String,
  plan: Schema.String,
  managed_by: Schema.String,
  created_at: SnapshotTime,
  updated_at: SnapshotTime
}).annotations({ identifier: "SnapshotOrganization" })

/**
 * A member of an organization: a user (`user_id`, a UUID, and `email`) with a `role` (`admin`,
 * `member`, ...; open), joined at `joined_at`. `id` is the membership's own UUID.
 */
export const SnapshotMember = Schema.Struct({
  id: Schema.String,
  org_id: Schema.String,
  user_id: Schema.String,
  email: Schema.String,
  role: Schema.String,
  joined_at: SnapshotTime
}).annotations({ identifier: "SnapshotMember" })

/**
 * An invitation to an organization (docs/contract.md §20): the invited `email` and the `role`
 * offered, sent by the user `invited_by` (a UUID) at `invited_at`. `id` is its UUID. It stays
 * listed once accepted.
 */
export const SnapshotInvitation = Schema.Struct({
  id: Schema.String,
  org_id: Schema.String,
  email: Schema.String,
  role: Schema.String,
  invited_by: Schema.String,
  invited_at: SnapshotTime
}).annotations({ identifier: "SnapshotInvitation" })

export const organizations = kind({
  label: "organization",
  schema: SnapshotOrganization,
  id: Schema.String,
  idOf: (organization) => organization.id,
  rank: newestFirst,
  check: (organization) => {
    const refused = refusalOf(Api.OrgId, organization.id)
    return refused === undefined ? [] : [`organization "${DecodeIssue.excerpt(organization.id)}": ${refused}`]
  }
})

export const members = kind({
  label: "member",
  schema: SnapshotMember,
  id: Schema.String,
  idOf: (member) => member.id,
  parent: { kind: "organizations", of: (member) => member.org_id },
  rank: (member) => -member.joined_at
})

export const invitations = kind({
  label: "invitation",
  schema: SnapshotInvitation,
  id: Schema.String,
  idOf: (invitation) => invitation.id,
  parent: { kind: "organizations", of: (invitation) => invitation.org_id },
  rank: (invitation) => -invitation.invited_at
})

declare module "../../engine/kinds.js" {
  interface Kinds {
    readonly organizations: typeof organizations
    readonly members: typeof members
    readonly invitations: typeof invitations
  }
}
