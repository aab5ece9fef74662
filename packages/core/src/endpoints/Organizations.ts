/**
 * The organization endpoints: read an organization, list, read, change and remove its members,
 * list and send its invitations, read, set and remove its spending limit (`docs/contract.md` §20).
 *
 * @since 0.5.0
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import { Cursor, Email, PageLimit, withMessage } from "../internal/input.js"
import { openEnum } from "../internal/openEnum.js"
import { CursorPagination } from "../Pagination.js"
import { Timestamp } from "../Timestamp.js"
import { OrgId } from "./Projects.js"

/**
 * An organization (§20): `id` (`^[a-z0-9-]{1,60}$`), `name`, `handle` (its unique name in
 * the console's addresses), `plan` (a plan name, e.g. `free_v3`, `scale`: open), `managed_by`
 * (`console` for one created in the console or through the API; one managed otherwise cannot
 * be deleted through either), `created_at`, `updated_at`, and where the platform sends them
 * `allow_hipaa_projects` and `require_mfa` (every member must use MFA). Unknown fields are
 * ignored.
 *
 * @since 0.5.0
 * @category schemas
 */
export class Organization extends Schema.Class<Organization>("Organization")({
  id: Schema.String,
  name: Schema.String,
  handle: Schema.String,
  plan: Schema.String,
  managed_by: Schema.String,
  created_at: Timestamp,
  updated_at: Timestamp,
  allow_hipaa_projects: Schema.optional(Schema.Boolean),
  require_mfa: Schema.optional(Schema.Boolean)
}) {}

/**
 * The member roles known today: `admin` (may change members and invite), `member`, and, not
 * open to every organization, `editor`, `viewer` and `collaborator` (§20).
 *
 * @since 0.5.0
 * @category schemas
 */
export const KnownMemberRole = Schema.Literal("admin", "member", "editor", "viewer", "collaborator")

/**
 * A member's role: one of {@link KnownMemberRole}, or any other string a newer server sends or
 * takes (kept as is: the platform may add roles).
 *
 * @since 0.5.0
 * @category schemas
 */
export type MemberRole = typeof KnownMemberRole.Type | (string & {})

/**
 * Open enum schema of {@link MemberRole}.
 *
 * @since 0.5.0
 * @category schemas
 */
export const MemberRole: Schema.Schema<MemberRole> = openEnum(KnownMemberRole, "MemberRole")

/** A role as a client sends it: not empty (the server refuses one the organization does not have). */
const MemberRoleInput: Schema.Schema<MemberRole> = Schema.Union(
  Schema.String.pipe(Schema.minLength(1)),
  KnownMemberRole
).annotations(withMessage("must be a role: admin, member, editor, viewer or collaborator"))

/**
 * A membership of an organization (§20): `id` (the membership's UUID, the `member_id` of its
 * routes), `user_id` (the user's UUID), `org_id`, `role`, and `joined_at` where sent.
 *
 * @since 0.5.0
 * @category schemas
 */
export class Member extends Schema.Class<Member>("Member")({
  id: Schema.String,
  user_id: Schema.String,
  org_id: Schema.String,
  role: MemberRole,
  joined_at: Schema.optional(Timestamp)
}) {}

/**
 * The user of a membership as the member list shows it (§20): `email`, and where sent
 * `has_mfa` (TOTP enabled) and `deactivated_at` (absent for an active user).
 *
 * @since 0.5.0
 * @category schemas
 */
export class MemberUser extends Schema.Class<MemberUser>("MemberUser")({
  email: Schema.String,
  has_mfa: Schema.optional(Schema.Boolean),
  deactivated_at: Schema.optional(Timestamp)
}) {}

/**
 * One item of the member list: `{ member, user }` (§20).
 *
 * @since 0.5.0
 * @category schemas
 */
export class MemberWithUser extends Schema.Class<MemberWithUser>("MemberWithUser")({
  member: Member,
  user: MemberUser
}) {}

/**
 * Answer of `GET /organizations/{org_id}/members`: `{ members, pagination? }`. The pagination
 * is the cursor kind with `next` (absent on the last page), `sort_by` and `sort_order` (§20).
 *
 * @since 0.5.0
 * @category schemas
 */
export class MembersPage extends Schema.Class<MembersPage>("MembersPage")({
  members: Schema.Array(MemberWithUser),
  pagination: Schema.optional(CursorPagination)
}) {}

/**
 * An invitation to an organization (§20): `id` (a UUID), the invited `email`, `org_id`,
 * `invited_by` (the inviting user's UUID), `invited_at` and the `role` offered. The list holds
 * pending and accepted invitations alike.
 *
 * @since 0.5.0
 * @category schemas
 */
export class Invitation extends Schema.Class<Invitation>("Invitation")({
  id: Schema.String,
  email: Schema.String,
  org_id: Schema.String,
  invited_by: Schema.String,
  invited_at: Timestamp,
  role: MemberRole
}) {}

/**
 * Answer of the invitation list and create: `{ invitations }` (§20).
 *
 * @since 0.5.0
 * @category schemas
 */
export class Invitations extends Schema.Class<Invitations>("Invitations")({
  invitations: Schema.Array(Invitation)
}) {}

/**
 * Body of `POST /organizations/{org_id}/invitations`: `{ invitations: [{ email, role }] }`, at
 * least one (§20).
 *
 * @since 0.5.0
 * @category schemas
 */
export const InvitationsCreateRequest = Schema.Struct({
  invitations: Schema.Array(Schema.Struct({ email: Email, role: MemberRoleInput })).pipe(
    Schema.minItems(1, { message: () => "must hold at least one invitation" })
  )
})

/**
 * The page size of `GET /organizations/{org_id}/members`: 1 to 500; without a `limit`, every
 * member at once (the fake's choice: the published reference gives no default, §20).
 *
 * @since 0.5.0
 * @category endpoints
 */
export const membersPageLimits: Endpoint.PageLimits = { max: 500, default: undefined }

/**
 * An organization's monthly spending limit (§20.5): `spending_limit_cents`, in cents (an integer),
 * `null` when none is set. The limit only alerts (emails at 80 % and 100 %); computes keep running.
 *
 * @since 0.5.0
 * @category schemas
 */
export class SpendingLimit extends Schema.Class<SpendingLimit>("SpendingLimit")({
  spending_limit_cents: Schema.NullOr(Schema.Int)
}) {}

/**
 * The body of `PUT /organizations/{org_id}/billing/spending_limit` (§20.5):
 * `{ spending_limit_cents }`, an integer of cents, at least 1 (0 and `null` are refused: `DELETE`
 * removes a limit).
 *
 * @since 0.5.0
 * @category schemas
 */
export const SpendingLimitUpdateRequest = Schema.Struct({
  spending_limit_cents: Schema.Int.pipe(
    Schema.greaterThanOrEqualTo(1),
    Schema.annotations(withMessage("must be a whole number of cents, at least 1 (DELETE removes a limit)"))
  )
})

/** An organization in a path: `org_id`. */
const orgParams = Schema.Struct({ org_id: OrgId })

/** A member of an organization in a path: `org_id` and `member_id` (a UUID). */
const memberParams = Schema.Struct({
  org_id: OrgId,
  member_id: Schema.UUID.annotations(withMessage("must be a UUID"))
})

/**
 * The organization endpoints (§20).
 *
 * @since 0.5.0
 * @category endpoints
 */
export const Organizations = Endpoint.group("Organizations", {
  /**
   * `GET /organizations/{org_id}`: one organization (§20). 404 for an organization that does not
   * exist or whose members the caller is not among, 400 for a malformed `org_id`.
   */
  get: Endpoint.make({
    method: "GET",
    route: "/organizations/{org_id}",
    params: orgParams,
    success: Organization,
    errors: ["NotFound", "BadRequest"],
    about: (organization) => ({ org_id: organization.id })
  }),
  /**
   * `GET /organizations/{org_id}/members`: one page of an organization's members, each
   * `{ member, user }` (§20). Query: `sort_by` (`email`, `role` or `joined_at`, the default),
   * `sort_order` (`asc` or `desc`, the default), `cursor` (a page's `pagination.next`), `limit`
   * (1 to 500). 404 as {@link Organizations}`.get`, 400 for a query the server refuses.
   */
  listMembers: Endpoint.make({
    method: "GET",
    route: "/organizations/{org_id}/members",
    params: orgParams,
    query: Schema.Struct({
      sort_by: Schema.optional(
        Schema.Literal("email", "role", "joined_at").annotations(withMessage("must be email, role or joined_at"))
      ),
      sort_order: Schema.optional(Schema.Literal("asc", "desc").annotations(withMessage("must be asc or desc"))),
      cursor: Schema.optional(Cursor),
      limit: Schema.optional(PageLimit(membersPageLimits))
    }),
    success: MembersPage,
    errors: ["NotFound", "BadRequest"],
    pageLimits: membersPageLimits,
    list: { items: (page) => page.members, cursor: (page) => page.pagination?.next }
  }),
  /**
   * `GET /organizations/{org_id}/members/{member_id}`: one membership (§20). 404 for an unknown
   * member or organization, 400 for a malformed id.
   */
  getMember: Endpoint.make({
    method: "GET",
    route: "/organizations/{org_id}/members/{member_id}",
    params: memberParams,
    success: Member,
    errors: ["NotFound", "BadRequest"],
    about: (member) => ({ org_id: member.org_id, member_id: member.id })
  }),
  /**
   * `PATCH /organizations/{org_id}/members/{member_id}`: changes a member's `role`; answers the
   * membership (§20). Admins only: 403 for another caller; 400 for a role the organization does
   * not have, or for demoting its last admin; 404 for an unknown member.
   */
  updateMember: Endpoint.make({
    method: "PATCH",
    route: "/organizations/{org_id}/members/{member_id}",
    params: memberParams,
    body: Schema.Struct({ role: MemberRoleInput }),
    success: Member,
    errors: ["BadRequest", "Forbidden", "NotFound"],
    about: (member) => ({ org_id: member.org_id, member_id: member.id })
  }),
  /**
   * `DELETE /organizations/{org_id}/members/{member_id}`: removes a member; answers `{}` (§20).
   * Admins only: 403 for another caller; 400 for the organization's last admin; 404 for an
   * unknown member.
   */
  removeMember: Endpoint.make({
    method: "DELETE",
    route: "/organizations/{org_id}/members/{member_id}",
    params: memberParams,
    success: Schema.Struct({}),
    errors: ["BadRequest", "Forbidden", "NotFound"]
  }),
  /**
   * `GET /organizations/{org_id}/invitations`: the organization's invitations, pending and
   * accepted, `{ invitations }`; the list does not page (§20). 404 as {@link Organizations}`.get`.
   */
  listInvitations: Endpoint.make({
    method: "GET",
    route: "/organizations/{org_id}/invitations",
    params: orgParams,
    success: Invitations,
    errors: ["NotFound", "BadRequest"],
    list: { items: (answer) => answer.invitations }
  }),
  /**
   * `POST /organizations/{org_id}/invitations`: invites each `{ email, role }`; answers 200 with
   * the invitations made (§20). A user who already has an account joins at once. Admins only:
   * 403 for another caller; 400 for a body the server refuses (no invitation, an address twice);
   * 409 for an address already a member or already invited; 404 as {@link Organizations}`.get`.
   */
  createInvitations: Endpoint.make({
    method: "POST",
    route: "/organizations/{org_id}/invitations",
    params: orgParams,
    body: InvitationsCreateRequest,
    success: Invitations,
    errors: ["BadRequest", "Forbidden", "NotFound", "Conflict"]
  }),
  /**
   * `GET /organizations/{org_id}/billing/spending_limit`: the organization's monthly spending
   * limit, `{ spending_limit_cents }` (cents, `null` when none is set) (§20.5). Launch and Scale
   * plans only: 403 on another plan; 404 as {@link Organizations}`.get`.
   */
  getSpendingLimit: Endpoint.make({
    method: "GET",
    route: "/organizations/{org_id}/billing/spending_limit",
    params: orgParams,
    success: SpendingLimit,
    errors: ["NotFound", "Forbidden", "BadRequest"]
  }),
  /**
   * `PUT /organizations/{org_id}/billing/spending_limit`: sets the monthly spending limit to
   * `spending_limit_cents` (cents, at least 1) and answers it (§20.5). Alerts only; a limit below
   * what the month has already cost is accepted. Admins only, Launch and Scale plans only: 403
   * otherwise; 400 for 0, `null` or a fraction; 404 as {@link Organizations}`.get`.
   */
  setSpendingLimit: Endpoint.make({
    method: "PUT",
    route: "/organizations/{org_id}/billing/spending_limit",
    params: orgParams,
    body: SpendingLimitUpdateRequest,
    success: SpendingLimit,
    errors: ["BadRequest", "Forbidden", "NotFound"]
  }),
  /**
   * `DELETE /organizations/{org_id}/billing/spending_limit`: removes the spending limit; answers
   * `{}`, also when none was set (§20.5). Admins only, Launch and Scale plans only: 403
   * otherwise; 404 as {@link Organizations}`.get`.
   */
  deleteSpendingLimit: Endpoint.make({
    method: "DELETE",
    route: "/organizations/{org_id}/billing/spending_limit",
    params: orgParams,
    success: Schema.Struct({}),
    errors: ["Forbidden", "NotFound", "BadRequest"]
  })
})
