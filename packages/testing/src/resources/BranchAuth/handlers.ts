/**
 * The fake's branch auth routes (docs/contract.md §26): each decodes with its entry of core's
 * `Api.BranchAuth` and runs a mutation or a read of `steps.ts`. Secrets reach the answer as
 * `Redacted` (the keys of an enable, an OAuth provider's client secret) and are encoded only by
 * the route, on the wire.
 */
import { Api } from "@dbplatform/core"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import {
  addDomain,
  addOAuthProvider,
  authBaseUrl,
  authJwksUrl,
  type AuthEnabled,
  authOf,
  deleteDomains,
  deleteOAuthProvider,
  disableAuth,
  enableAuth,
  type OAuthCredentials,
  type StoredEmailProvider,
  type StoredOAuthProvider,
  createUser,
  deleteUser,
  newSdkKeys,
  patchSetting,
  setAllowLocalhost,
  setAppName,
  setEmailProvider,
  settingsOf,
  setUserRoles,
  setWebhooks,
  startTransfer,
  updateOAuthProvider,
  usersSchema,
  usersTable
} from "./steps.js"
import { type Handlers } from "../../engine/route.js"
import type { FakeState } from "../../engine/state.js"
import { at, unchecked } from "../../engine/wire.js"
import { change, read } from "../../engine/change.js"
import { type Authorizations, anyKey, reachesProject } from "../../engine/authorization.js"
import { Caller } from "../../engine/caller.js"
import { notFound } from "../../engine/refusal.js"
import { get } from "../../engine/state.js"

/** An OAuth provider as a real server sends it, its client secret `Redacted` until encoded. */
/** The answer of a branch's auth enabled, or of new SDK keys for it (legacy): the keys shown once. */
const authCreated = ({ auth, project, pub_client_key, secret_server_key }: AuthEnabled) =>
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
              ...(auth.transfer_status === undefined ? {} : { transfer_status: auth.transfer_status }),
              jwks_url: authJwksUrl(project, auth.id),
              base_url: authBaseUrl(project, auth.id, auth.db_name),
              name: auth.name
            },
            unchecked
          )
      )
    ),
  create: ({ body, params }) =>
    change(fake, (dice) => enableAuth(params.project_id, params.branch_id, body, dice), authCreated),
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
    ),
  createAuthProviderSdkKeys: ({ body }) =>
    Effect.flatMap(reached(fake, body.project_id), () =>
      change(fake, (dice) => newSdkKeys(body.project_id, body.auth_provider, dice), authCreated)
    ),
  transferAuthProviderProject: ({ body }) =>
    Effect.flatMap(reached(fake, body.project_id), () =>
      change(
        fake,
        () => startTransfer(body.project_id, body.auth_provider),
        (auth) =>
          new Api.AuthProviderTransfer(
            { url: `https://auth.dbplatform.test/transfer/${auth.auth_provider}/${auth.auth_provider_project_id}` },
            unchecked
          )
      )
    ),
  createUser: ({ body, params }) =>
    change(
      fake,
      (dice) => createUser(params.project_id, params.branch_id, body, dice),
      (user) => new Api.AuthUserId({ id: user.id }, unchecked)
    ),
  deleteUser: ({ params }) =>
    change(
      fake,
      () => deleteUser(params.project_id, params.branch_id, params.auth_user_id),
      () => undefined
    ),
  updateUserRole: ({ body, params }) =>
    change(
      fake,
      () => setUserRoles(params.project_id, params.branch_id, params.auth_user_id, body.roles),
      (user) => new Api.AuthUserId({ id: user.id }, unchecked)
    ),
  sendTestEmail: ({ body, params }) =>
    read(fake, (state) =>
      Either.map(authOf(state, params.project_id, params.branch_id), () => {
        // Nothing is sent: a host under `.invalid` (RFC 2606) is the one the fake cannot reach.
        const host = Redacted.value(body.host)
        return host === "invalid" || host.endsWith(".invalid")
          ? new Api.TestEmailResult(
              { success: false, error_message: "could not connect to the SMTP server" },
              unchecked
            )
          : new Api.TestEmailResult({ success: true }, unchecked)
      })
    ),
  getEmailAndPassword: ({ params }) =>
    readSettings(fake, params, (settings) => new Api.EmailAndPasswordConfig(settings.email_and_password, unchecked)),
  updateEmailAndPassword: ({ body, params }) =>
    change(
      fake,
      () => patchSetting(params.project_id, params.branch_id, "email_and_password", body),
      (config) => new Api.EmailAndPasswordConfig(config, unchecked)
    ),
  getEmailProvider: ({ params }) => readSettings(fake, params, (settings) => emailProviderAt(settings.email_provider)),
  updateEmailProvider: ({ body, params }) =>
    change(
      fake,
      () => setEmailProvider(params.project_id, params.branch_id, storedEmailProvider(body)),
      emailProviderAt
    ),
  getAllowLocalhost: ({ params }) =>
    readSettings(
      fake,
      params,
      (settings) => new Api.AllowLocalhost({ allow_localhost: settings.allow_localhost }, unchecked)
    ),
  updateAllowLocalhost: ({ body, params }) =>
    change(
      fake,
      () => setAllowLocalhost(params.project_id, params.branch_id, body.allow_localhost),
      (allow_localhost) => new Api.AllowLocalhost({ allow_localhost }, unchecked)
    ),
  getPlugins: ({ params }) =>
    read(fake, (state) =>
      Either.map(authOf(state, params.project_id, params.branch_id), ([, auth]) => {
        const settings = settingsOf(auth)
        return new Api.AuthPluginConfigs(
          {
            organization: new Api.OrganizationPluginConfig(settings.organization, unchecked),
            magic_link: new Api.MagicLinkPluginConfig(settings.magic_link, unchecked),
            phone_number: new Api.PhoneNumberPluginConfig(settings.phone_number, unchecked),
            email_provider: emailProviderAt(settings.email_provider),
            email_and_password: new Api.EmailAndPasswordConfig(settings.email_and_password, unchecked),
            oauth_providers: auth.oauth_providers.map(oauthProviderAt),
            allow_localhost: settings.allow_localhost
          },
          unchecked
        )
      })
    ),
  updateOrganizationPlugin: ({ body, params }) =>
    change(
      fake,
      () => patchSetting(params.project_id, params.branch_id, "organization", body),
      (config) => new Api.OrganizationPluginConfig(config, unchecked)
    ),
  updateConfig: ({ body, params }) =>
    change(
      fake,
      () => setAppName(params.project_id, params.branch_id, body.name),
      (name) => new Api.AuthConfig({ name }, unchecked)
    ),
  updateMagicLinkPlugin: ({ body, params }) =>
    change(
      fake,
      () => patchSetting(params.project_id, params.branch_id, "magic_link", body),
      (config) => new Api.MagicLinkPluginConfig(config, unchecked)
    ),
  getPhoneNumberPlugin: ({ params }) =>
    readSettings(fake, params, (settings) => new Api.PhoneNumberPluginConfig(settings.phone_number, unchecked)),
  updatePhoneNumberPlugin: ({ body, params }) =>
    change(
      fake,
      () => patchSetting(params.project_id, params.branch_id, "phone_number", body),
      (config) => new Api.PhoneNumberPluginConfig(config, unchecked)
    ),
  getWebhooks: ({ params }) =>
    readSettings(fake, params, (settings) => new Api.AuthWebhookConfig(settings.webhooks, unchecked)),
  updateWebhooks: ({ body, params }) =>
    change(
      fake,
      () => setWebhooks(params.project_id, params.branch_id, body),
      (config) => new Api.AuthWebhookConfig(config, unchecked)
    )
})

/** A read of a branch's auth settings (each its own or the default), answered as `answer` makes it. */
const readSettings = <A>(
  fake: FakeState,
  params: { readonly project_id: string; readonly branch_id: string },
  answer: (settings: ReturnType<typeof settingsOf>) => A
) =>
  read(fake, (state) =>
    Either.map(authOf(state, params.project_id, params.branch_id), ([, auth]) => answer(settingsOf(auth)))
  )

/**
 * A 404 for a project the caller's key does not reach, for the two legacy routes that name it in
 * their body (the path carries no project for the access rule to check: docs/contract.md §21).
 */
const reached = (fake: FakeState, projectId: string) =>
  Effect.gen(function* () {
    const key = yield* Caller
    const state = yield* read(fake, Either.right)
    const project = get(state, "projects", projectId)
    if (project !== undefined && !reachesProject(state, key, project)) return yield* notFound("project")
  })

/** The email provider as a real server sends it, its SMTP host, username and password `Redacted`. */
const emailProviderAt = (provider: StoredEmailProvider): Api.EmailServer =>
  provider.type === "standard"
    ? {
        type: "standard",
        host: Redacted.make(provider.host ?? ""),
        port: provider.port ?? 587,
        username: Redacted.make(provider.username ?? ""),
        password: Redacted.make(provider.password ?? ""),
        sender_email: provider.sender_email ?? "",
        sender_name: provider.sender_name ?? ""
      }
    : {
        type: "shared",
        ...(provider.sender_email === undefined ? {} : { sender_email: provider.sender_email }),
        ...(provider.sender_name === undefined ? {} : { sender_name: provider.sender_name })
      }

/** An email provider of a request as the fake keeps it, the secrets read out of their `Redacted`. */
const storedEmailProvider = (body: typeof Api.EmailServerRequest.Type): StoredEmailProvider =>
  body.type === "standard"
    ? {
        type: "standard",
        host: Redacted.value(body.host),
        port: body.port,
        username: Redacted.value(body.username),
        password: Redacted.value(body.password),
        sender_email: body.sender_email,
        sender_name: body.sender_name
      }
    : {
        type: "shared",
        ...(body.sender_email === undefined ? {} : { sender_email: body.sender_email }),
        ...(body.sender_name === undefined ? {} : { sender_name: body.sender_name })
      }

/** Which kinds of key may call each BranchAuth endpoint, and what another gets (docs/contract.md §21). */
export const branchAuthAuthorizations: Authorizations<typeof Api.BranchAuth> = {
  get: anyKey,
  create: anyKey,
  disable: anyKey,
  listDomains: anyKey,
  addDomain: anyKey,
  deleteDomains: anyKey,
  listOAuthProviders: anyKey,
  addOAuthProvider: anyKey,
  updateOAuthProvider: anyKey,
  deleteOAuthProvider: anyKey,
  createAuthProviderSdkKeys: anyKey,
  transferAuthProviderProject: anyKey,
  createUser: anyKey,
  deleteUser: anyKey,
  updateUserRole: anyKey,
  sendTestEmail: anyKey,
  getEmailAndPassword: anyKey,
  updateEmailAndPassword: anyKey,
  getEmailProvider: anyKey,
  updateEmailProvider: anyKey,
  getAllowLocalhost: anyKey,
  updateAllowLocalhost: anyKey,
  getPlugins: anyKey,
  updateOrganizationPlugin: anyKey,
  updateConfig: anyKey,
  updateMagicLinkPlugin: anyKey,
  getPhoneNumberPlugin: anyKey,
  updatePhoneNumberPlugin: anyKey,
  getWebhooks: anyKey,
  updateWebhooks: anyKey
}
