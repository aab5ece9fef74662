/**
 * The fake's identity routes (docs/contract.md §20, §21), for the key the request was
 * authenticated with (`Caller`):
 *
 * - `GET /users/me`: the account's user, for a personal key (an organization's key has no user:
 *   refused before, `engine/authorization.ts`).
 * - `GET /users/me/organizations`: for a personal key, the organizations whose member the user
 *   is; for an organization's key, scoped to a project or not, the one organization that owns it
 *   (the published document's words).
 * - `GET /auth`: what the key is, `api_key_user` of the user or `api_key_org` of its organization.
 */
import { Api } from "@dbplatform/core"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { accountUser, authDetailsOf, Caller, roleIn } from "../engine/caller.js"
import { type Handlers } from "../engine/route.js"
import { type FakeState, itemsOf } from "../engine/state.js"
import { unchecked } from "../engine/wire.js"
import { organizationOf } from "./Organizations/handlers.js"
import { read } from "../engine/change.js"

/**
 * The limits and plan `GET /users/me` answers for the account's user: the fake's own choice of
 * plausible values (it enforces none of them, docs/contract.md §20).
 */
const userLimits = {
  plan: "free_v3",
  projects_limit: 100,
  branches_limit: 10,
  active_seconds_limit: 360_000,
  compute_seconds_limit: 360_000,
  max_autoscaling_limit: 2
} as const

/** How the fake answers the identity endpoints. */
export const userHandlers = (fake: FakeState): Handlers<typeof Api.Users> => ({
  me: () =>
    Effect.succeed(
      new Api.CurrentUser(
        {
          id: accountUser.id,
          email: accountUser.email,
          login: accountUser.email,
          name: accountUser.name,
          last_name: accountUser.last_name,
          image: "",
          auth_accounts: [
            new Api.UserAuthAccount(
              {
                provider: "github",
                email: accountUser.email,
                name: `${accountUser.name} ${accountUser.last_name}`,
                login: accountUser.email,
                image: ""
              },
              unchecked
            )
          ],
          ...userLimits
        },
        unchecked
      )
    ),
  listOrganizations: () =>
    Effect.flatMap(Caller, (key) =>
      read(fake, (state) => {
        const organizations: Array<Api.Organization> = []
        for (const organization of itemsOf(state, "organizations")) {
          if (roleIn(state, key, organization.id) !== undefined) organizations.push(organizationOf(organization))
        }
        return Either.right(new Api.UserOrganizations({ organizations }, unchecked))
      })
    ),
  auth: () => Effect.map(Caller, (key) => new Api.AuthDetails(authDetailsOf(key), unchecked))
})
