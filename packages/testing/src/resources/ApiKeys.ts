/**
 * The fake's personal API key routes (docs/contract.md §2.1-§2.3, §10.3): a key is kept as the
 * SHA-256 of its value (`engine/authentication.ts`), its value shown once, when it is created.
 * An organization's keys are listed and revoked under it (`OrganizationApiKeys.ts`, §21).
 */
import type { Api } from "@dbplatform/core"
import * as Either from "effect/Either"
import { hashKey, keyAdded, newKeyValue } from "../engine/authentication.js"
import { upsert } from "../engine/kinds.js"
import { type Handlers } from "../engine/route.js"
import { type FakeState, get, itemsOf, take } from "../engine/state.js"
import { apiKeyCreated, apiKeyListed, apiKeyRevoked } from "../engine/wire.js"
import { notFound } from "../engine/refusal.js"
import { read, change } from "../engine/change.js"

/** How the fake answers the API key endpoints, over `fake`. */
export const apiKeyHandlers = (fake: FakeState): Handlers<typeof Api.ApiKeys> => ({
  create: ({ body }) => {
    const value = newKeyValue()
    return change(fake, () => (state, now) => {
      const { changes, key } = keyAdded(state, body.key_name, hashKey(value), now)
      return Either.right({ changes, answer: apiKeyCreated(key, value) })
    })
  },
  // The account's personal keys: an organization's are listed and revoked under it (§21).
  list: () =>
    read(fake, (state) =>
      Either.right(
        take(itemsOf(state, "api_keys"), undefined, (key) => !key.revoked && key.org_id === undefined).map(apiKeyListed)
      )
    ),
  revoke: ({ params }) =>
    change(fake, () => (state) => {
      const key = get(state, "api_keys", params.key_id)
      if (key === undefined || key.revoked || key.org_id !== undefined) return notFound("API key")
      const revoked = { ...key, revoked: true }
      return Either.right({ changes: [upsert("api_keys", revoked)], answer: apiKeyRevoked(revoked) })
    })
})
