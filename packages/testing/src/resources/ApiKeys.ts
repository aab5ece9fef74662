/**
 * The fake's personal API key routes (docs/contract.md §2.1-§2.3, §10.3): a key is kept as the
 * SHA-256 of its value (`engine/authentication.ts`), its value shown once, when it is created.
 * An organization's keys are listed and revoked under it (`OrganizationApiKeys.ts`, §21).
 */
import type { Api } from "@dbplatform/core"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Ref from "effect/Ref"
import { hashKey, keyAdded, newKeyValue } from "../engine/authentication.js"
import { upsert } from "../engine/kinds.js"
import { type Handlers, notFound } from "../engine/route.js"
import { type FakeState, get, itemsOf, mutate, take } from "../engine/state.js"
import { apiKeyCreated, apiKeyListed, apiKeyRevoked } from "../engine/wire.js"

/** How the fake answers the API key endpoints, over `fake`. */
export const apiKeyHandlers = (fake: FakeState): Handlers<typeof Api.ApiKeys> => ({
  create: ({ body }) => {
    const value = newKeyValue()
    return mutate(fake, (state, now) => {
      const { changes, key } = keyAdded(state, body.key_name, hashKey(value), now)
      return Either.right({ changes, answer: apiKeyCreated(key, value) })
    })
  },
  // The account's personal keys: an organization's are listed and revoked under it (§21).
  list: () =>
    Effect.map(Ref.get(fake.ref), (state) =>
      take(itemsOf(state, "api_keys"), undefined, (key) => !key.revoked && key.org_id === undefined).map(apiKeyListed)
    ),
  revoke: ({ params }) =>
    mutate(fake, (state) => {
      const key = get(state, "api_keys", params.key_id)
      if (key === undefined || key.revoked || key.org_id !== undefined) return Either.left(notFound("API key"))
      const revoked = { ...key, revoked: true }
      return Either.right({ changes: [upsert("api_keys", revoked)], answer: apiKeyRevoked(revoked) })
    })
})
