/**
 * Who a request to the fake acts as (docs/contract.md §20): the API key `authenticate` found
 * for it, provided to the routes as {@link Caller}. What the key may do is decided here, in small
 * functions of the key: how `GET /auth` describes it ({@link authDetailsOf}) and the role it acts
 * with in an organization ({@link roleIn}). A personal key acts for the account's user.
 */
import type { Api } from "@dbplatform/core"
import * as Context from "effect/Context"
import { itemsOf, type State, type StoredKey } from "./state.js"

/**
 * The key the request was authenticated with (`undefined` only for routes run without
 * `authenticate`, as a test of the router alone does: taken as a personal key).
 */
export class Caller extends Context.Reference<Caller>()("@dbplatform/testing/internal/Caller", {
  defaultValue: (): StoredKey | undefined => undefined
}) {}

/**
 * What `GET /auth` answers for a request authenticated with `key` (docs/contract.md §20, §21): a
 * personal key is `api_key_user` of the account's user, an organization's key (scoped to a
 * project or not) `api_key_org` of its organization.
 */
export const authDetailsOf = (key: StoredKey | undefined): typeof Api.AuthDetails.Encoded =>
  key?.org_id === undefined
    ? { account_id: accountUser.id, auth_method: "api_key_user" }
    : { account_id: key.org_id, auth_method: "api_key_org" }

/**
 * The role the holder of `key` acts with in organization `orgId`, or `undefined` when it may not
 * act there: for a personal key, the role of the account's user as a member of it; for an
 * organization's key, `admin` in its own organization (what it may not do as a person is refused
 * before, docs/contract.md §21) and nothing elsewhere.
 */
export const roleIn = (state: State, key: StoredKey | undefined, orgId: string): string | undefined => {
  if (key?.org_id !== undefined) return key.org_id === orgId ? "admin" : undefined
  for (const member of itemsOf(state, "members", orgId)) if (member.user_id === accountUser.id) return member.role
  return undefined
}

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
