/**
 * The kinds of record of the Organizations group the fake keeps (`engine/kinds.ts`): each one's shape as a
 * `Snapshot` holds it, and its entry of the table of kinds (`internal/kinds.ts`).
 */
import { Api, DecodeIssue } from "@dbplatform/core"
import * as Schema from "effect/Schema"
import * as Struct from "effect/Struct"
import { kind, newestFirst, refusalOf, SnapshotTime } from "../../engine/kinds.js"

/**
 * An organization (docs/contract.md §20): its projects name it by `org_id`. `managed_by` is
 * `console` for one the fake creates. Every organization a project names exists: one a seed or a
 * request names without declaring it is made with the account's user as its admin. Core's
 * `Organization` as the fake keeps it: times in epoch ms, without the settings it does not model.
 * Since 0.5.0, optional: `spending_limit_cents`, its monthly spending limit in cents (absent: none,
 * docs/contract.md §20.5).
 */
export const SnapshotOrganization = Schema.Struct({
  ...Struct.pick(Api.Organization.fields, "id", "name", "handle", "plan", "managed_by"),
  created_at: SnapshotTime,
  updated_at: SnapshotTime,
  spending_limit_cents: Schema.optional(Api.SpendingLimitUpdateRequest.fields.spending_limit_cents)
}).annotations({ identifier: "SnapshotOrganization" })

/**
 * A member of an organization: a user (`user_id`, a UUID, and `email`) with a `role` (`admin`,
 * `member`, ...; open), joined at `joined_at`. `id` is the membership's own UUID. Core's `Member`
 * with its user's `email` (`MemberUser`), `joined_at` always there and in epoch ms.
 */
export const SnapshotMember = Schema.Struct({
  ...Struct.pick(Api.Member.fields, "id", "org_id", "user_id"),
  email: Api.MemberUser.fields.email,
  role: Api.Member.fields.role,
  joined_at: SnapshotTime
}).annotations({ identifier: "SnapshotMember" })

/**
 * An invitation to an organization (docs/contract.md §20): the invited `email` and the `role`
 * offered, sent by the user `invited_by` (a UUID) at `invited_at`. `id` is its UUID. It stays
 * listed once accepted. Core's `Invitation`, `invited_at` in epoch ms.
 */
export const SnapshotInvitation = Schema.Struct({
  ...Struct.pick(Api.Invitation.fields, "id", "org_id", "email", "role", "invited_by"),
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
