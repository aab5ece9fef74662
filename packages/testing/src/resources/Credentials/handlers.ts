/**
 * The fake's credentials routes (docs/contract.md §11.7): each decodes with its entry of core's
 * `Api.Credentials` and runs a mutation or a read of `steps.ts`.
 */
import { Api } from "@dbplatform/core"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import { createCredential, credentialsOf, revokeCredential, type StoredCredential } from "./steps.js"
import { type Authorizations, anyKey } from "../../engine/authorization.js"
import { change, read } from "../../engine/change.js"
import { type Handlers } from "../../engine/route.js"
import type { FakeState } from "../../engine/state.js"
import { at, unchecked } from "../../engine/wire.js"

/** A credential as a real server lists it: never a secret. */
const credentialAt = (credential: StoredCredential) =>
  new Api.Credential(
    {
      token_id: credential.token_id,
      token_id_short: credential.token_id_short,
      ...(credential.name === undefined ? {} : { name: credential.name }),
      scopes: credential.scopes,
      branch_id: credential.branch_id,
      principal_type: credential.principal_type,
      created_at: at(credential.created_at),
      ...(credential.last_used_at === undefined ? {} : { last_used_at: at(credential.last_used_at) }),
      ...(credential.revoked_at === undefined ? {} : { revoked_at: at(credential.revoked_at) }),
      ...(credential.expires_at === undefined ? {} : { expires_at: at(credential.expires_at) })
    },
    unchecked
  )

/** How the fake answers each entry of core's `Api.Credentials`, over `fake`. */
export const credentialHandlers = (fake: FakeState): Handlers<typeof Api.Credentials> => ({
  list: ({ params }) =>
    read(fake, (state) =>
      Either.map(
        credentialsOf(state, params.project_id, params.branch_id),
        (credentials) => new Api.CredentialList({ credentials: credentials.map(credentialAt) }, unchecked)
      )
    ),
  create: ({ body, params }) =>
    change(
      fake,
      (dice) => createCredential(params.project_id, params.branch_id, body, dice),
      ({ credential, api_token, s3_secret_access_key }) =>
        new Api.CredentialCreated(
          {
            token_id: credential.token_id,
            token_id_short: credential.token_id_short,
            ...(credential.name === undefined ? {} : { name: credential.name }),
            api_token: Redacted.make(api_token),
            s3_secret_access_key: Redacted.make(s3_secret_access_key),
            scopes: credential.scopes,
            branch_id: credential.branch_id,
            created_at: at(credential.created_at)
          },
          unchecked
        )
    ),
  revoke: ({ params }) =>
    Effect.asVoid(change(fake, () => revokeCredential(params.project_id, params.branch_id, params.token_id)))
})

/** Which kinds of key may call each Credentials endpoint, and what another gets (docs/contract.md §21). */
export const credentialAuthorizations: Authorizations<typeof Api.Credentials> = {
  list: anyKey,
  create: anyKey,
  revoke: anyKey
}
