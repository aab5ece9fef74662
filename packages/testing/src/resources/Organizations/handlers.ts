/**
 * The fake's organization routes (docs/contract.md §20): each decodes with its entry of core's
 * `Api.Organizations` and runs a read or a mutation of `steps.ts`, as the key the request was
 * authenticated with (`Caller`).
 */
import { Api } from "@dbplatform/core"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { Caller } from "../../engine/caller.js"
import {
  invite,
  memberIn,
  membersPageOf,
  reachable,
  removeMember,
  setSpendingLimit,
  spendingLimitOf,
  updateMember
} from "./steps.js"
import { type Handlers } from "../../engine/route.js"
import {
  type FakeState,
  itemsOf,
  type StoredInvitation,
  type StoredMember,
  type StoredOrganization
} from "../../engine/state.js"
import { at, unchecked } from "../../engine/wire.js"
import { change, read } from "../../engine/change.js"
import { type Authorizations, personalKey, unscopedKey } from "../../engine/authorization.js"

/** An organization as the API answers it. */
export const organizationOf = (organization: StoredOrganization): Api.Organization =>
  new Api.Organization(
    {
      id: organization.id,
      name: organization.name,
      handle: organization.handle,
      plan: organization.plan,
      managed_by: organization.managed_by,
      created_at: at(organization.created_at),
      updated_at: at(organization.updated_at)
    },
    unchecked
  )

/** A membership as the API answers it. */
export const memberOf = (member: StoredMember): Api.Member =>
  new Api.Member(
    {
      id: member.id,
      user_id: member.user_id,
      org_id: member.org_id,
      role: member.role,
      joined_at: at(member.joined_at)
    },
    unchecked
  )

/** An invitation as the API answers it. */
const invitationOf = (invitation: StoredInvitation): Api.Invitation =>
  new Api.Invitation(
    {
      id: invitation.id,
      email: invitation.email,
      org_id: invitation.org_id,
      invited_by: invitation.invited_by,
      invited_at: at(invitation.invited_at),
      role: invitation.role
    },
    unchecked
  )

/** How the fake answers the organization endpoints. */
export const organizationHandlers = (fake: FakeState): Handlers<typeof Api.Organizations> => ({
  get: ({ params }) =>
    Effect.flatMap(Caller, (key) =>
      read(fake, (state) =>
        Either.map(reachable(state, key, params.org_id), ({ organization }) => organizationOf(organization))
      )
    ),
  listMembers: ({ params, query }) =>
    Effect.flatMap(Caller, (key) =>
      read(fake, (state) => {
        const sort = { sort_by: query.sort_by ?? "joined_at", sort_order: query.sort_order ?? "desc" } as const
        return Either.flatMap(reachable(state, key, params.org_id), () =>
          Either.map(membersPageOf(state, params.org_id, sort, query.cursor, query.limit), ({ next, page }) => {
            const members = page.map(
              (member) =>
                new Api.MemberWithUser(
                  { member: memberOf(member), user: new Api.MemberUser({ email: member.email }, unchecked) },
                  unchecked
                )
            )
            return new Api.MembersPage({ members, pagination: { ...sort, next } }, unchecked)
          })
        )
      })
    ),
  getMember: ({ params }) =>
    Effect.flatMap(Caller, (key) =>
      read(fake, (state) =>
        Either.flatMap(reachable(state, key, params.org_id), () =>
          Either.map(memberIn(state, params.org_id, params.member_id), memberOf)
        )
      )
    ),
  updateMember: ({ params, body }) =>
    Effect.flatMap(Caller, (key) =>
      change(
        fake,
        () => updateMember(key, params.org_id, params.member_id, body.role),
        (member) => memberOf(member)
      )
    ),
  removeMember: ({ params }) =>
    Effect.flatMap(Caller, (key) =>
      change(
        fake,
        () => removeMember(key, params.org_id, params.member_id),
        () => ({})
      )
    ),
  listInvitations: ({ params }) =>
    Effect.flatMap(Caller, (key) =>
      read(fake, (state) =>
        Either.map(
          reachable(state, key, params.org_id),
          () =>
            new Api.Invitations(
              { invitations: Array.from(itemsOf(state, "invitations", params.org_id), invitationOf) },
              unchecked
            )
        )
      )
    ),
  createInvitations: ({ params, body }) =>
    Effect.flatMap(Caller, (key) =>
      change(
        fake,
        (dice) => invite(key, params.org_id, body.invitations, dice),
        ({ invitations }) => new Api.Invitations({ invitations: invitations.map(invitationOf) }, unchecked)
      )
    ),
  getSpendingLimit: ({ params }) =>
    Effect.flatMap(Caller, (key) =>
      read(fake, (state) =>
        Either.map(
          spendingLimitOf(state, key, params.org_id),
          (cents) => new Api.SpendingLimit({ spending_limit_cents: cents }, unchecked)
        )
      )
    ),
  setSpendingLimit: ({ params, body }) =>
    Effect.flatMap(Caller, (key) =>
      change(
        fake,
        () => setSpendingLimit(key, params.org_id, body.spending_limit_cents),
        (cents) => new Api.SpendingLimit({ spending_limit_cents: cents }, unchecked)
      )
    ),
  deleteSpendingLimit: ({ params }) =>
    Effect.flatMap(Caller, (key) =>
      change(
        fake,
        () => setSpendingLimit(key, params.org_id, undefined),
        () => ({})
      )
    )
})

/** Which kinds of key may call each Organizations endpoint, and what another gets (docs/contract.md §21). */
export const organizationAuthorizations: Authorizations<typeof Api.Organizations> = {
  get: unscopedKey,
  listMembers: unscopedKey,
  getMember: unscopedKey,
  updateMember: unscopedKey,
  removeMember: personalKey,
  listInvitations: unscopedKey,
  createInvitations: personalKey,
  getSpendingLimit: unscopedKey,
  setSpendingLimit: unscopedKey,
  deleteSpendingLimit: unscopedKey
}
