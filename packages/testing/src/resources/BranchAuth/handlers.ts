/**
 * The fake's branch auth routes (docs/contract.md §26): each decodes with its entry of core's
 * `Api.BranchAuth` and runs a mutation or a read of `steps.ts`. Secrets reach the answer as
 * `Redacted` (the keys of an enable, an OAuth provider's client secret) and are encoded only by
 * the route, on the wire.
 */
import { Api } from "@dbplatform/core"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import {
  addDomain,
  addOAuthProvider,
  authBaseUrl,
  authJwksUrl,
  authOf,
  deleteDomains,
  deleteOAuthProvider,
  disableAuth,
  enableAuth,
  type OAuthCredentials,
  type StoredOAuthProvider,
  updateOAuthProvider,
  usersSchema,
  usersTable
} from "./steps.js"
import { type Handlers } from "../../engine/route.js"
import type { FakeState } from "../../engine/state.js"
import { at, unchecked } from "../../engine/wire.js"
import { change, read } from "../../engine/change.js"

/** An OAuth provider as a real server sends it, its client secret `Redacted` until encoded. */
const oauthProviderAt = (provider: StoredOAuthProvider) =>
  new Api.OAuthProvider(
    {
      id: provider.id,
      type: provider.type,
      ...(provider.client_id === undefined ? {} : { client_id: provider.client_id }),
      ...(provider.client_secret === undefined ? {} : { client_secret: Redacted.make(provider.client_secret) })
    },
    unchecked
  )

/** The credentials of a request, the secret read out of its `Redacted` to be kept. */
const credentialsOf = (body: {
  readonly client_id?: string | undefined
  readonly client_secret?: Redacted.Redacted<string> | undefined
  readonly microsoft_tenant_id?: string | undefined
}): OAuthCredentials => ({
  client_id: body.client_id,
  client_secret: body.client_secret === undefined ? undefined : Redacted.value(body.client_secret),
  microsoft_tenant_id: body.microsoft_tenant_id
})

/** How the fake answers each entry of core's `Api.BranchAuth`, over `fake`. */
export const branchAuthHandlers = (fake: FakeState): Handlers<typeof Api.BranchAuth> => ({
  get: ({ params }) =>
    read(fake, (state) =>
      Either.map(
        authOf(state, params.project_id, params.branch_id),
        ([project, auth]) =>
          new Api.BranchAuthIntegration(
            {
              auth_provider: auth.auth_provider,
              auth_provider_project_id: auth.auth_provider_project_id,
              branch_id: auth.id,
              db_name: auth.db_name,
              created_at: at(auth.created_at),
              owned_by: "neon",
              jwks_url: authJwksUrl(project, auth.id),
              base_url: authBaseUrl(project, auth.id, auth.db_name),
              name: auth.name
            },
            unchecked
          )
      )
    ),
  create: ({ body, params }) =>
    change(
      fake,
      (dice) => enableAuth(params.project_id, params.branch_id, body, dice),
      ({ auth, project, pub_client_key, secret_server_key }) =>
        new Api.BranchAuthCreated(
          {
            auth_provider: auth.auth_provider,
            auth_provider_project_id: auth.auth_provider_project_id,
            pub_client_key: Redacted.make(pub_client_key),
            secret_server_key: Redacted.make(secret_server_key),
            jwks_url: authJwksUrl(project, auth.id),
            schema_name: usersSchema,
            table_name: usersTable,
            base_url: authBaseUrl(project, auth.id, auth.db_name)
          },
          unchecked
        )
    ),
  disable: ({ params }) =>
    change(
      fake,
      () => disableAuth(params.project_id, params.branch_id),
      () => undefined
    ),
  listDomains: ({ params }) =>
    read(fake, (state) =>
      Either.map(
        authOf(state, params.project_id, params.branch_id),
        ([, auth]) =>
          new Api.TrustedDomains(
            { domains: auth.domains.map((domain) => new Api.TrustedDomain(domain, unchecked)) },
            unchecked
          )
      )
    ),
  addDomain: ({ body, params }) =>
    change(
      fake,
      () => addDomain(params.project_id, params.branch_id, body.domain, body.auth_provider),
      () => undefined
    ),
  deleteDomains: ({ body, params }) =>
    change(
      fake,
      () =>
        deleteDomains(
          params.project_id,
          params.branch_id,
          body.domains.map(({ domain }) => domain),
          body.auth_provider
        ),
      () => undefined
    ),
  listOAuthProviders: ({ params }) =>
    read(fake, (state) =>
      Either.map(
        authOf(state, params.project_id, params.branch_id),
        ([, auth]) => new Api.OAuthProviders({ providers: auth.oauth_providers.map(oauthProviderAt) }, unchecked)
      )
    ),
  addOAuthProvider: ({ body, params }) =>
    change(
      fake,
      () => addOAuthProvider(params.project_id, params.branch_id, body.id, credentialsOf(body)),
      oauthProviderAt
    ),
  updateOAuthProvider: ({ body, params }) =>
    change(
      fake,
      () => updateOAuthProvider(params.project_id, params.branch_id, params.oauth_provider_id, credentialsOf(body)),
      oauthProviderAt
    ),
  deleteOAuthProvider: ({ params }) =>
    change(
      fake,
      () => deleteOAuthProvider(params.project_id, params.branch_id, params.oauth_provider_id),
      () => undefined
    )
})
