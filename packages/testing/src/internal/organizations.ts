/**
 * The fake's organizations and the account's user (docs/contract.md §20). Every project belongs
 * to an organization (`org_id`); the fake's projects that name none belong to its default one.
 * An organization a seed, an older state file or a project creation names without declaring it
 * is implied: made with the account's user as its only member, an admin, so that everything such
 * a project could do before stays possible.
 */
import * as HashMap from "effect/HashMap"
import { hashOf, seededDice, uuid } from "./ids.js"
import { type Change, defaultOrgId, upsert } from "./kinds.js"
import type { State, StoredMember, StoredOrganization } from "./state.js"

/**
 * The user the account's personal keys act for (`GET /users/me`): the fake's one signed-in
 * person. Other users exist only as members of organizations.
 */
export const accountUser = {
  id: "5f1c3b1e-8a1d-4c2e-9f3a-0d7b6e4a2c10",
  email: "you@example.com",
  name: "Fake",
  last_name: "User"
} as const

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
