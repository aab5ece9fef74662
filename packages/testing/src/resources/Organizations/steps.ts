/**
 * The fake's organizations and the account's user (docs/contract.md §20). Every project belongs
 * to an organization (`org_id`); the fake's projects that name none belong to its default one.
 * An organization a seed, an older state file or a project creation names without declaring it
 * is implied: made with the account's user as its only member, an admin, so that everything such
 * a project could do before stays possible.
 */
import * as Either from "effect/Either"
import * as Encoding from "effect/Encoding"
import * as HashMap from "effect/HashMap"
import * as Option from "effect/Option"
import * as Order from "effect/Order"
import * as Schema from "effect/Schema"
import { roleIn, accountUser } from "../../engine/caller.js"
import { type Dice, hashOf, seededDice, uuid } from "../../engine/ids.js"
import { type Change, defaultOrgId, remove, upsert, type Collections } from "../../engine/kinds.js"
import {
  get,
  itemsOf,
  type Mutation,
  type State,
  type StoredInvitation,
  type StoredKey,
  type StoredMember,
  type StoredOrganization
} from "../../engine/state.js"
import { Status } from "../../engine/status.js"
import { type Refusal, refused } from "../../engine/refusal.js"

/** The plan of an organization the fake makes when nothing names one. */
export const defaultPlan = "free_v3"

/** The id of `userId`'s membership of `orgId`: a UUID, the same for the same pair. */
export const memberId = (orgId: string, userId: string): string => uuid(seededDice(hashOf(`${orgId}/${userId}`)))

/** The organization `id` as the fake implies it, made at `at` (epoch ms): its name is its id. */
export const impliedOrganization = (id: string, at: number): StoredOrganization => ({
  id,
  name: id === defaultOrgId ? "Personal" : id,
  handle: id,
  plan: defaultPlan,
  managed_by: "console",
  created_at: at,
  updated_at: at
})

/** The account's user as a member of `orgId`, with `role`, from `at` (epoch ms). */
export const accountMember = (orgId: string, role: string, at: number): StoredMember => ({
  id: memberId(orgId, accountUser.id),
  org_id: orgId,
  user_id: accountUser.id,
  email: accountUser.email,
  role,
  joined_at: at
})

/**
 * The changes that make organization `id` exist in `state`, implied at `at` (epoch ms) with the
 * account's user as its admin: none when it exists already.
 */
export const organizationImplied = (state: State, id: string, at: number): ReadonlyArray<Change> =>
  HashMap.has(state.organizations.byId, id)
    ? []
    : [upsert("organizations", impliedOrganization(id, at)), upsert("members", accountMember(id, "admin", at))]

/**
 * The roles every organization of the fake has: the five the published reference names. The
 * platform says some are not open to every organization; the fake opens all five everywhere
 * (docs/contract.md §20).
 */
export const memberRoles: ReadonlyArray<string> = ["admin", "member", "editor", "viewer", "collaborator"]

/** The membership of the user with `email` (compared without case) in organization `orgId`, if any. */
const membershipByEmail = (state: State, orgId: string, email: string): StoredMember | undefined => {
  const wanted = email.toLowerCase()
  for (const member of itemsOf(state, "members", orgId)) if (member.email.toLowerCase() === wanted) return member
  return undefined
}

/**
 * The id of the user with `email` (compared without case) if the fake knows one: the account's
 * user, or a member of any organization. Other addresses have no account yet.
 */
const knownUser = (state: State, email: string): string | undefined => {
  const wanted = email.toLowerCase()
  if (accountUser.email === wanted) return accountUser.id
  for (const organization of itemsOf(state, "organizations")) {
    const found = membershipByEmail(state, organization.id, email)
    if (found !== undefined) return found.user_id
  }
  return undefined
}

/** An organization the caller may read, and the role it acts with there. */
export interface Reachable {
  readonly organization: StoredOrganization
  readonly role: string
}

/**
 * Organization `orgId` as the caller with the key `key` may read it: 404 when there is no such
 * organization or the caller may not act in it (`roleIn`), the status the published reference
 * gives for an account that is not a member of an organization (docs/contract.md §20).
 */
export const reachable = (
  state: State,
  key: StoredKey | undefined,
  orgId: string
): Either.Either<Reachable, Refusal> => {
  const organization = get(state, "organizations", orgId)
  const role = organization === undefined ? undefined : roleIn(state, key, orgId)
  return organization === undefined || role === undefined
    ? refused(Status.notFound, "organization not found")
    : Either.right({ organization, role })
}

/** Organization `orgId` if the caller is one of its admins: 404 as {@link reachable}, 403 for another member. */
const administered = (state: State, key: StoredKey | undefined, orgId: string) =>
  Either.flatMap(reachable(state, key, orgId), (found) =>
    found.role === "admin"
      ? Either.right(found)
      : refused(Status.forbidden, "only an admin of the organization may change its members or invite")
  )

/** Member `memberId` of organization `orgId`: 404 when it is not one. */
export const memberIn = (state: State, orgId: string, memberId: string): Either.Either<StoredMember, Refusal> => {
  const member = get(state, "members", memberId)
  return member === undefined || member.org_id !== orgId
    ? refused(Status.notFound, "member not found")
    : Either.right(member)
}

/** A role the organizations of the fake have, or a 400 naming it. */
const knownRole = (role: string): Either.Either<string, Refusal> =>
  memberRoles.includes(role)
    ? Either.right(role)
    : refused(Status.badRequest, `role ${JSON.stringify(role)} is not a role of the organization`)

/** How many admins organization `orgId` has. */
const adminsOf = (state: State, orgId: string): number => {
  let admins = 0
  for (const member of itemsOf(state, "members", orgId)) if (member.role === "admin") admins += 1
  return admins
}

/** A 400 when `member` is its organization's last admin: an organization always keeps one. */
const notLastAdmin = (state: State, member: StoredMember, what: string): Either.Either<StoredMember, Refusal> =>
  member.role === "admin" && adminsOf(state, member.org_id) === 1
    ? refused(Status.badRequest, `the last admin of an organization cannot be ${what}`)
    : Either.right(member)

/**
 * `PATCH /organizations/{org_id}/members/{member_id}` as a pure step: the member with `role`.
 * 404 (organization, member), 403 (not an admin), 400 (a role the organization does not have;
 * demoting its last admin).
 */
export const updateMember =
  (key: StoredKey | undefined, orgId: string, memberId: string, role: string): Mutation<StoredMember, Refusal> =>
  (state) =>
    Either.gen(function* () {
      yield* administered(state, key, orgId)
      const member = yield* memberIn(state, orgId, memberId)
      yield* knownRole(role)
      if (role !== "admin") yield* notLastAdmin(state, member, "demoted")
      if (member.role === role) return { changes: [], answer: member }
      const changed: StoredMember = { ...member, role }
      return { changes: [upsert("members", changed)], answer: changed }
    })

/**
 * `DELETE /organizations/{org_id}/members/{member_id}` as a pure step: the member removed,
 * answering it. 404 (organization, member), 403 (not an admin), 400 (its last admin).
 */
export const removeMember =
  (key: StoredKey | undefined, orgId: string, memberId: string): Mutation<StoredMember, Refusal> =>
  (state) =>
    Either.gen(function* () {
      yield* administered(state, key, orgId)
      const member = yield* notLastAdmin(state, yield* memberIn(state, orgId, memberId), "removed")
      return { changes: [remove("members", member.id)], answer: member }
    })

/** Who extends an invitation made with `key`: the account's user for a personal key. */
export const inviterOf = (_key: StoredKey | undefined): string => accountUser.id

/** What `POST /organizations/{org_id}/invitations` makes: the invitations, and who joined at once. */
export interface Invited {
  readonly invitations: ReadonlyArray<StoredInvitation>
  readonly joined: ReadonlyArray<StoredMember>
}

/**
 * `POST /organizations/{org_id}/invitations` as a pure step: an invitation per `{ email, role }`
 * at `now`, its id from `dice`; a user the fake knows (the account's, or a member of any
 * organization) joins at once with the role offered, as the platform does for an address that
 * has an account. 404 (organization), 403 (not an admin), 400 (a role the organization does not
 * have; an address twice in the request), 409 (an address already a member, or invited and
 * not yet joined) (docs/contract.md §20).
 */
export const invite =
  (
    key: StoredKey | undefined,
    orgId: string,
    requested: ReadonlyArray<{ readonly email: string; readonly role: string }>,
    dice: Dice
  ): Mutation<Invited, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      yield* administered(state, key, orgId)
      const seen = new Set<string>()
      for (const { email, role } of requested) {
        yield* knownRole(role)
        const address = email.toLowerCase()
        if (seen.has(address)) return yield* refused(Status.badRequest, `${email} is invited twice in the request`)
        seen.add(address)
        if (membershipByEmail(state, orgId, email) !== undefined) {
          return yield* refused(Status.conflict, `${email} is already a member of the organization`)
        }
        for (const invitation of itemsOf(state, "invitations", orgId)) {
          if (invitation.email.toLowerCase() === address) {
            return yield* refused(Status.conflict, `${email} is already invited to the organization`)
          }
        }
      }
      const invitations: Array<StoredInvitation> = []
      const joined: Array<StoredMember> = []
      const invitedBy = inviterOf(key)
      for (const { email, role } of requested) {
        invitations.push({ id: uuid(dice), org_id: orgId, email, role, invited_by: invitedBy, invited_at: now })
        const userId = knownUser(state, email)
        if (userId !== undefined) {
          joined.push({ id: memberId(orgId, userId), org_id: orgId, user_id: userId, email, role, joined_at: now })
        }
      }
      return {
        changes: [
          ...invitations.map((invitation) => upsert("invitations", invitation)),
          ...joined.map((member) => upsert("members", member))
        ],
        answer: { invitations, joined }
      }
    })

/** How `GET /organizations/{org_id}/members` sorts: by `sort_by`, then by member id, `sort_order`. */
export interface MemberSort {
  readonly sort_by: "email" | "role" | "joined_at"
  readonly sort_order: "asc" | "desc"
}

type Position = readonly [key: string | number, id: string]

const positionOrder: Order.Order<Position> = Order.combine(
  Order.mapInput(
    Order.make<string | number>((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    (position: Position) => position[0]
  ),
  Order.mapInput(Order.string, (position: Position) => position[1])
)

const positionOf = (member: StoredMember, sort: MemberSort): Position => [member[sort.sort_by], member.id]

/** A cursor's JSON: the sort key and member id of the last member of the page before. */
const PositionJson = Schema.parseJson(Schema.Tuple(Schema.Union(Schema.String, Schema.Number), Schema.String))

/**
 * One page of the members of organization `orgId`, sorted by `sort`, after `cursor` (a
 * `pagination.next` of an earlier page: the base64url of the last member's sort key and id; 400
 * for anything else), at most `limit` (all without one); `next` only when more follow.
 */
export const membersPageOf = (
  state: State,
  orgId: string,
  sort: MemberSort,
  cursor: string | undefined,
  limit: number | undefined
): Either.Either<{ readonly page: ReadonlyArray<StoredMember>; readonly next: string | undefined }, Refusal> => {
  let after: Position | undefined
  if (cursor !== undefined) {
    const text = Encoding.decodeBase64UrlString(cursor)
    after = Either.isLeft(text)
      ? undefined
      : Option.getOrUndefined(Schema.decodeUnknownOption(PositionJson)(text.right))
    if (after === undefined) return refused(Status.badRequest, "cursor must be a pagination.next of a previous page")
  }
  const order = sort.sort_order === "asc" ? positionOrder : Order.reverse(positionOrder)
  const sorted = Array.from(itemsOf(state, "members", orgId)).sort((a, b) =>
    order(positionOf(a, sort), positionOf(b, sort))
  )
  const rest = after === undefined ? sorted : sorted.filter((member) => order(positionOf(member, sort), after) > 0)
  const page = limit === undefined ? rest : rest.slice(0, limit)
  const last = page[page.length - 1]
  return Either.right({
    page,
    next:
      page.length < rest.length && last !== undefined
        ? Encoding.encodeBase64Url(JSON.stringify(positionOf(last, sort)))
        : undefined
  })
}

/**
 * `collections` with every organization its projects name: one not declared (a seed's, or a state
 * saved before organizations were kept) is implied, made when its first project was, with the
 * account's user as its admin (docs/contract.md §20).
 */
export const withImpliedOrganizations = <C extends Collections>(collections: C): C => {
  const declared = new Set(collections.organizations.map((organization) => organization.id))
  const firstProject = new Map<string, number>()
  for (const project of collections.projects) {
    const org = project.org_id ?? defaultOrgId
    if (declared.has(org)) continue
    firstProject.set(org, Math.min(firstProject.get(org) ?? project.created_at, project.created_at))
  }
  if (firstProject.size === 0) return collections
  const implied = Array.from(firstProject, ([id, at]) => ({
    organization: impliedOrganization(id, at),
    member: accountMember(id, "admin", at)
  }))
  return {
    ...collections,
    organizations: [...collections.organizations, ...implied.map(({ organization }) => organization)],
    members: [...collections.members, ...implied.map(({ member }) => member)]
  }
}

/**
 * The plan families that have a spending limit: Launch and Scale (docs/contract.md §20.5). A plan
 * is named by its family and version (`launch_v3`, `scale_v3`).
 */
const spendingLimitPlans: ReadonlyArray<string> = ["launch", "scale"]

/** 403 unless organization `organization`'s plan has a spending limit (Launch, Scale). */
const withSpendingLimit = (organization: StoredOrganization): Either.Either<StoredOrganization, Refusal> =>
  spendingLimitPlans.includes(organization.plan.replace(/_v\d+$/, ""))
    ? Either.right(organization)
    : refused(
        Status.forbidden,
        `the spending limit is available on the Launch and Scale plans only (the organization's plan is ${organization.plan})`
      )

/**
 * `GET /organizations/{org_id}/billing/spending_limit` as a read: the organization's limit in cents,
 * `null` when none is set. 404 (as {@link reachable}), 403 (a plan without one).
 */
export const spendingLimitOf = (
  state: State,
  key: StoredKey | undefined,
  orgId: string
): Either.Either<number | null, Refusal> =>
  Either.gen(function* () {
    const { organization } = yield* reachable(state, key, orgId)
    yield* withSpendingLimit(organization)
    return organization.spending_limit_cents ?? null
  })

/**
 * `PUT` (`cents`, at least 1) or `DELETE` (`undefined`) `/organizations/{org_id}/billing/spending_limit`
 * as a pure step: the organization with its limit set or removed, answering the limit (`null`:
 * none). Removing none is a success that changes nothing. 404 (as {@link reachable}), 403 (not an
 * admin; a plan without one) (docs/contract.md §20.5).
 */
export const setSpendingLimit =
  (key: StoredKey | undefined, orgId: string, cents: number | undefined): Mutation<number | null, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const { organization } = yield* Either.flatMap(reachable(state, key, orgId), (found) =>
        found.role === "admin"
          ? Either.right(found)
          : refused(Status.forbidden, "only an admin of the organization may change its spending limit")
      )
      yield* withSpendingLimit(organization)
      if (organization.spending_limit_cents === cents) return { changes: [], answer: cents ?? null }
      const { spending_limit_cents: _, ...rest } = organization
      const changed: StoredOrganization = {
        ...rest,
        ...(cents === undefined ? {} : { spending_limit_cents: cents }),
        updated_at: Math.max(now, organization.updated_at)
      }
      return { changes: [upsert("organizations", changed)], answer: cents ?? null }
    })
