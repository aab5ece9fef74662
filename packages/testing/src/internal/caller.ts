/**
 * Who a request to the fake acts as (docs/contract.md §20): the API key `authenticate` found
 * for it, provided to the routes as {@link Caller}. What the key may do is decided here, in small
 * functions of the key: how `GET /auth` describes it ({@link authDetailsOf}) and the role it acts
 * with in an organization ({@link roleIn}). A personal key acts for the account's user.
 */
import type { Api } from "@dbplatform/core"
import * as Context from "effect/Context"
import { accountUser } from "./organizations.js"
import { itemsOf, type State, type StoredKey } from "./state.js"

/**
 * The key the request was authenticated with (`undefined` only for routes run without
 * `authenticate`, as a test of the router alone does: taken as a personal key).
 */
export class Caller extends Context.Reference<Caller>()("@dbplatform/testing/internal/Caller", {
  defaultValue: (): StoredKey | undefined => undefined
}) {}

/** What `GET /auth` answers for a request authenticated with `key`: a personal key is `api_key_user`, for the account's user. */
export const authDetailsOf = (_key: StoredKey | undefined): typeof Api.AuthDetails.Encoded => ({
  account_id: accountUser.id,
  auth_method: "api_key_user"
})

/**
 * The role the holder of `key` acts with in organization `orgId`, or `undefined` when it may not
 * act there: for a personal key, the role of the account's user as a member of it.
 */
export const roleIn = (state: State, _key: StoredKey | undefined, orgId: string): string | undefined => {
  for (const member of itemsOf(state, "members", orgId)) if (member.user_id === accountUser.id) return member.role
  return undefined
}
