/**
 * What the fake's branch auth routes do (docs/contract.md §26): one auth service per branch, kept
 * as a `branch_auths` record under its branch (deleting the branch or its project deletes it),
 * with its trusted domains and OAuth providers; each mutation a pure step over the state.
 *
 * - Enable: 404 for an unknown project, branch or `database_name`; 423 while the project has a
 *   pending operation; 409 when the branch has one already; 400 for a provider other than
 *   `mock`, `stack` and `better_auth`, or a branch without a database. Its two keys are made up
 *   from the dice, answered once and never kept.
 * - Read, disable, domains and OAuth providers: 404 for an unknown project or branch, or a branch
 *   without auth. Disabling is locked (423) as enabling; a domain or an OAuth provider is not (it
 *   changes the auth service, not the project).
 * - A domain's `auth_provider` must be the branch's (400). Trusting a domain trusted already, or
 *   deleting one that is not, changes nothing.
 * - An OAuth provider is `standard` with the app's `client_id` and `client_secret`, `shared`
 *   without them (the platform's development credentials); one without the other is a 400, as a
 *   `microsoft_tenant_id` for another provider than `microsoft`, or an id the platform does not
 *   offer; a provider added twice is a 409, one the branch does not have a 404.
 */
import type { Api } from "@dbplatform/core"
import * as Either from "effect/Either"
import { type Dice, uuid } from "../../engine/ids.js"
import { type Item, remove, upsert } from "../../engine/kinds.js"
import { get, itemsOf, type Mutation, type State, type StoredDatabase, type StoredProject } from "../../engine/state.js"
import { Status } from "../../engine/status.js"
import { notFound, refused, type Refusal } from "../../engine/refusal.js"
import { branchOf, projectOf, unlockedProject } from "../../engine/records.js"
import { defaultBranch } from "../Branches/steps.js"

/** An auth service as the fake keeps it. */
export type StoredBranchAuth = Item<"branch_auths">

/** An OAuth provider as the fake keeps it (its client secret in clear: the list answers it). */
export type StoredOAuthProvider = StoredBranchAuth["oauth_providers"][number]

/** The providers an auth service can run on. */
const authProviders: ReadonlyArray<string> = ["mock", "stack", "better_auth"]

/** The OAuth providers the platform offers. */
const oauthProviderIds: ReadonlyArray<string> = ["google", "github", "microsoft", "vercel"]

/** The schema and table an auth service keeps its users in. */
export const usersSchema = "neon_auth"
export const usersTable = "users_sync"

/** The host of a branch's auth service, e.g. `br-dev-100002.neonauth.aws-us-east-2.dbplatform.test`. */
const authHost = (project: StoredProject, branchId: string) =>
  `${branchId}.neonauth.${project.region_id}.dbplatform.test`

/** Where an auth service publishes the keys its tokens are signed with. */
export const authJwksUrl = (project: StoredProject, branchId: string) =>
  `https://${authHost(project, branchId)}/.well-known/jwks.json`

/** Where an auth service serves, for the database holding its users. */
export const authBaseUrl = (project: StoredProject, branchId: string, database: string) =>
  `https://${authHost(project, branchId)}/${encodeURIComponent(database)}/auth`

/** A new key: `prefix` and 32 lower-case hex digits (the dice decide, so `TestRandom` does too). */
const newKey = (dice: Dice, prefix: string): string => {
  let key = prefix
  for (let i = 0; i < 32; i++) key += "0123456789abcdef"[dice.below(16)]
  return key
}

/** What enabling a branch's auth answers: the service, where it serves, and its two keys (shown once). */
export interface AuthEnabled {
  readonly auth: StoredBranchAuth
  readonly project: StoredProject
  readonly pub_client_key: string
  readonly secret_server_key: string
}

/** The auth service of a branch and its project; 404 for an unknown project or branch, or a branch without one. */
export const authOf = (
  state: State,
  projectId: string,
  branchId: string
): Either.Either<readonly [StoredProject, StoredBranchAuth], Refusal> =>
  Either.flatMap(branchOf(state, projectId, branchId), ([project]) => {
    const auth = get(state, "branch_auths", branchId)
    return auth === undefined ? notFound("auth for this branch") : Either.right([project, auth] as const)
  })

/** The database the users are kept in: `name`, else the branch's oldest; 404 / 400 when there is none. */
const usersDatabase = (
  state: State,
  branchId: string,
  name: string | undefined
): Either.Either<StoredDatabase, Refusal> => {
  let oldest: StoredDatabase | undefined
  for (const database of itemsOf(state, "databases", branchId)) {
    if (name !== undefined && database.name === name) return Either.right(database)
    oldest = database
  }
  if (name !== undefined) return notFound("database")
  return oldest === undefined
    ? refused(Status.badRequest, "the branch has no database to keep the auth users in")
    : Either.right(oldest)
}

/** 400 unless `provider` is one the platform offers. */
const offered = (provider: string, offers: ReadonlyArray<string>, what: string) =>
  offers.includes(provider)
    ? Either.void
    : refused(Status.badRequest, `${what} ${JSON.stringify(provider)} is not one of ${offers.join(", ")}`)

/** Enables the auth service of a branch (docs/contract.md §26). */
export const enableAuth =
  (
    projectId: string,
    branchId: string,
    request: { readonly auth_provider: string; readonly database_name?: string | undefined },
    dice: Dice
  ): Mutation<AuthEnabled, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const [project] = yield* branchOf(state, projectId, branchId)
      yield* unlockedProject(state, projectId, now)
      if (get(state, "branch_auths", branchId) !== undefined) {
        return yield* refused(Status.conflict, "auth is already enabled for this branch")
      }
      yield* offered(request.auth_provider, authProviders, "auth_provider")
      const database = yield* usersDatabase(state, branchId, request.database_name)
      const auth: StoredBranchAuth = {
        id: branchId,
        project_id: projectId,
        auth_provider: request.auth_provider,
        auth_provider_project_id: uuid(dice),
        db_name: database.name,
        name: project.name === "" ? project.id : project.name,
        created_at: now,
        domains: [],
        oauth_providers: []
      }
      return {
        changes: [upsert("branch_auths", auth)],
        answer: { auth, project, pub_client_key: newKey(dice, "pck_"), secret_server_key: newKey(dice, "ssk_") }
      }
    })

/** Disables the auth service of a branch (docs/contract.md §26); the fake keeps no users, so `delete_data` changes nothing more. */
export const disableAuth =
  (projectId: string, branchId: string): Mutation<void, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const [, auth] = yield* authOf(state, projectId, branchId)
      yield* unlockedProject(state, projectId, now)
      return { changes: [remove("branch_auths", auth.id)], answer: undefined }
    })

/** A change of a branch's auth service made by `change` (which may refuse it), answering what it answers. */
const changingAuth =
  <A>(
    projectId: string,
    branchId: string,
    change: (auth: StoredBranchAuth) => Either.Either<readonly [StoredBranchAuth, A], Refusal>
  ): Mutation<A, Refusal> =>
  (state) =>
    Either.flatMap(authOf(state, projectId, branchId), ([, auth]) =>
      Either.map(change(auth), ([changed, answer]) => ({
        changes: changed === auth ? [] : [upsert("branch_auths", changed)],
        answer
      }))
    )

/** 400 unless `provider` is the branch's auth provider. */
const sameProvider = (auth: StoredBranchAuth, provider: string) =>
  provider === auth.auth_provider
    ? Either.void
    : refused(
        Status.badRequest,
        `auth_provider ${JSON.stringify(provider)} is not the branch's (${JSON.stringify(auth.auth_provider)})`
      )

/** Trusts `domain` (docs/contract.md §26). */
export const addDomain = (projectId: string, branchId: string, domain: string, provider: string) =>
  changingAuth(projectId, branchId, (auth) =>
    Either.map(sameProvider(auth, provider), () =>
      auth.domains.some((trusted) => trusted.domain === domain)
        ? ([auth, undefined] as const)
        : ([{ ...auth, domains: [...auth.domains, { domain, auth_provider: provider }] }, undefined] as const)
    )
  )

/** Stops trusting `domains` (docs/contract.md §26). */
export const deleteDomains = (projectId: string, branchId: string, domains: ReadonlyArray<string>, provider: string) =>
  changingAuth(projectId, branchId, (auth) =>
    Either.map(sameProvider(auth, provider), () => {
      const kept = auth.domains.filter((trusted) => !domains.includes(trusted.domain))
      return kept.length === auth.domains.length
        ? ([auth, undefined] as const)
        : ([{ ...auth, domains: kept }, undefined] as const)
    })
  )

/**
 * The credentials an OAuth provider is added or updated with: core's `OAuthProviderUpdateRequest`
 * (the part of an add that is not its `id`), with the secret read out of its `Redacted` (the
 * state keeps it in clear: the provider list answers it).
 */
export type OAuthCredentials = Omit<typeof Api.OAuthProviderUpdateRequest.Type, "client_secret"> & {
  readonly client_secret?: string | undefined
}

/** `provider` with `credentials` given; 400 for a tenant of another provider than `microsoft`, or a client id without its secret (or the reverse). */
const withCredentials = (
  provider: StoredOAuthProvider,
  credentials: OAuthCredentials
): Either.Either<StoredOAuthProvider, Refusal> => {
  if (credentials.microsoft_tenant_id !== undefined && provider.id !== "microsoft") {
    return refused(Status.badRequest, "microsoft_tenant_id is for the microsoft provider only")
  }
  const client_id = credentials.client_id ?? provider.client_id
  const client_secret = credentials.client_secret ?? provider.client_secret
  if ((client_id === undefined) !== (client_secret === undefined)) {
    return refused(Status.badRequest, "client_id and client_secret go together: give both, or neither")
  }
  const microsoft_tenant_id = credentials.microsoft_tenant_id ?? provider.microsoft_tenant_id
  return Either.right({
    id: provider.id,
    type: client_id === undefined ? "shared" : "standard",
    ...(client_id === undefined ? {} : { client_id }),
    ...(client_secret === undefined ? {} : { client_secret }),
    ...(microsoft_tenant_id === undefined ? {} : { microsoft_tenant_id })
  })
}

/** Adds the OAuth provider `id` (docs/contract.md §26); answers it. */
export const addOAuthProvider = (projectId: string, branchId: string, id: string, credentials: OAuthCredentials) =>
  changingAuth(projectId, branchId, (auth) =>
    Either.gen(function* () {
      yield* offered(id, oauthProviderIds, "OAuth provider")
      if (auth.oauth_providers.some((provider) => provider.id === id)) {
        return yield* refused(Status.conflict, `OAuth provider ${JSON.stringify(id)} is already added`)
      }
      const provider = yield* withCredentials({ id, type: "shared" }, credentials)
      return [{ ...auth, oauth_providers: [...auth.oauth_providers, provider] }, provider] as const
    })
  )

/** The OAuth provider `id` of `auth`, or a 404. */
const oauthProviderOf = (auth: StoredBranchAuth, id: string) => {
  const provider = auth.oauth_providers.find((provider) => provider.id === id)
  return provider === undefined ? notFound("OAuth provider") : Either.right(provider)
}

/** Updates the OAuth provider `id` (docs/contract.md §26); answers it. */
export const updateOAuthProvider = (projectId: string, branchId: string, id: string, credentials: OAuthCredentials) =>
  changingAuth(projectId, branchId, (auth) =>
    Either.gen(function* () {
      const provider = yield* withCredentials(yield* oauthProviderOf(auth, id), credentials)
      const providers = auth.oauth_providers.map((other) => (other.id === id ? provider : other))
      return [{ ...auth, oauth_providers: providers }, provider] as const
    })
  )

/** Removes the OAuth provider `id` (docs/contract.md §26). */
export const deleteOAuthProvider = (projectId: string, branchId: string, id: string) =>
  changingAuth(projectId, branchId, (auth) =>
    Either.map(
      oauthProviderOf(auth, id),
      () =>
        [
          { ...auth, oauth_providers: auth.oauth_providers.filter((provider) => provider.id !== id) },
          undefined
        ] as const
    )
  )

/** A user of an auth service as the fake keeps it. */
export type StoredAuthUser = NonNullable<StoredBranchAuth["users"]>[number]

/** The email provider as the fake keeps it (the SMTP secrets in clear: a read answers them). */
export type StoredEmailProvider = NonNullable<StoredBranchAuth["email_provider"]>

/**
 * What an auth service has before anything is changed (docs/contract.md §26.6-§26.8): the
 * document's defaults where it gives them (the organization, magic-link and phone-number plugins,
 * the webhook's timeout), the fake's own where it does not (sign-in by email and password on, a
 * verification by link not required, the platform's shared sender, localhost allowed, no webhook).
 */
export const authDefaults = {
  email_and_password: {
    enabled: true,
    email_verification_method: "link",
    require_email_verification: false,
    auto_sign_in_after_verification: true,
    send_verification_email_on_sign_up: false,
    send_verification_email_on_sign_in: false,
    disable_sign_up: false
  },
  email_provider: { type: "shared" },
  allow_localhost: true,
  organization: {
    enabled: true,
    organization_limit: 10,
    membership_limit: 100,
    creator_role: "owner",
    send_invitation_email: false
  },
  magic_link: { enabled: false, expires_in: 5, disable_sign_up: false },
  phone_number: { enabled: false, otp_expires_in: 300 },
  webhooks: { enabled: false, timeout_seconds: 5 }
} as const satisfies Required<
  Pick<
    StoredBranchAuth,
    | "email_and_password"
    | "email_provider"
    | "allow_localhost"
    | "organization"
    | "magic_link"
    | "phone_number"
    | "webhooks"
  >
>

/** The settings of `auth`, each its own or the default. */
export const settingsOf = (auth: StoredBranchAuth) => ({
  email_and_password: auth.email_and_password ?? authDefaults.email_and_password,
  email_provider: auth.email_provider ?? authDefaults.email_provider,
  allow_localhost: auth.allow_localhost ?? authDefaults.allow_localhost,
  organization: auth.organization ?? authDefaults.organization,
  magic_link: auth.magic_link ?? authDefaults.magic_link,
  phone_number: auth.phone_number ?? authDefaults.phone_number,
  webhooks: auth.webhooks ?? authDefaults.webhooks
})

/** Keeps only the fields of `patch` that are given. */
const given = <A extends object>(patch: A): { [K in keyof A]?: Exclude<A[K], undefined> } => {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(patch)) if (value !== undefined) out[key] = value
  return out as { [K in keyof A]?: Exclude<A[K], undefined> }
}

/** Changes the setting `key` of a branch's auth service to what `update` makes of it; answers the new setting. */
const changingSetting = <K extends keyof ReturnType<typeof settingsOf>>(
  projectId: string,
  branchId: string,
  key: K,
  update: (current: ReturnType<typeof settingsOf>[K]) => Either.Either<ReturnType<typeof settingsOf>[K], Refusal>
) =>
  changingAuth(projectId, branchId, (auth) =>
    Either.map(update(settingsOf(auth)[key]), (next) => [{ ...auth, [key]: next }, next] as const)
  )

/** Changes the fields given of a partial setting (sign-in, the plugins; docs/contract.md §26.6, §26.7). */
export const patchSetting = <K extends "email_and_password" | "organization" | "magic_link" | "phone_number">(
  projectId: string,
  branchId: string,
  key: K,
  patch: { readonly [F in keyof ReturnType<typeof settingsOf>[K]]?: ReturnType<typeof settingsOf>[K][F] | undefined }
) => changingSetting(projectId, branchId, key, (current) => Either.right({ ...current, ...given(patch) }))

/** Replaces the email provider (docs/contract.md §26.6). */
export const setEmailProvider = (projectId: string, branchId: string, provider: StoredEmailProvider) =>
  changingSetting(projectId, branchId, "email_provider", () => Either.right(provider))

/** Sets whether sign-in from localhost is allowed (docs/contract.md §26.6). */
export const setAllowLocalhost = (projectId: string, branchId: string, allow: boolean) =>
  changingSetting(projectId, branchId, "allow_localhost", () => Either.right(allow))

/**
 * Replaces the webhook configuration (docs/contract.md §26.8); the timeout defaults to 5 seconds.
 * 400 for an enabled webhook without an absolute `https` (or `http`) URL.
 */
export const setWebhooks = (
  projectId: string,
  branchId: string,
  config: typeof Api.AuthWebhookUpdateRequest.Type
): Mutation<NonNullable<StoredBranchAuth["webhooks"]>, Refusal> =>
  changingSetting(projectId, branchId, "webhooks", () => {
    if (config.webhook_url !== undefined && !/^https?:\/\/[^\s/]+/.test(config.webhook_url)) {
      return refused(Status.badRequest, "webhook_url must be an absolute http(s) URL")
    }
    if (config.enabled && config.webhook_url === undefined) {
      return refused(Status.badRequest, "an enabled webhook needs its webhook_url")
    }
    return Either.right({ timeout_seconds: authDefaults.webhooks.timeout_seconds, ...given(config) })
  })

/** Sets the application name the auth emails show (docs/contract.md §26.6). */
export const setAppName = (projectId: string, branchId: string, name: string) =>
  changingAuth(projectId, branchId, (auth) => Either.right([{ ...auth, name }, name] as const))

/**
 * Adds a user (docs/contract.md §26.5): its id is a UUID; 409 when a user has that email already
 * (compared without regard to case, as email addresses are).
 */
export const createUser =
  (
    projectId: string,
    branchId: string,
    request: { readonly email: string; readonly name?: string | undefined },
    dice: Dice
  ): Mutation<StoredAuthUser, Refusal> =>
  (state, now) =>
    Either.flatMap(authOf(state, projectId, branchId), ([, auth]) => {
      const users = auth.users ?? []
      const email = request.email.toLowerCase()
      if (users.some((user) => user.email.toLowerCase() === email)) {
        return refused(Status.conflict, "a user with this email already exists")
      }
      const user: StoredAuthUser = {
        id: uuid(dice),
        email: request.email,
        ...(request.name === undefined ? {} : { name: request.name }),
        roles: ["user"],
        created_at: now
      }
      return Either.right({ changes: [upsert("branch_auths", { ...auth, users: [...users, user] })], answer: user })
    })

/** The user `userId` of `auth`, or a 404. */
const userOf = (auth: StoredBranchAuth, userId: string) => {
  const user = (auth.users ?? []).find((user) => user.id === userId)
  return user === undefined ? notFound("auth user") : Either.right(user)
}

/** Removes a user for good (docs/contract.md §26.5); 404 for one the branch does not have. */
export const deleteUser = (projectId: string, branchId: string, userId: string) =>
  changingAuth(projectId, branchId, (auth) =>
    Either.map(
      userOf(auth, userId),
      () => [{ ...auth, users: (auth.users ?? []).filter((user) => user.id !== userId) }, undefined] as const
    )
  )

/** Sets a user's roles (docs/contract.md §26.5); 404 for one the branch does not have. */
export const setUserRoles = (projectId: string, branchId: string, userId: string, roles: ReadonlyArray<string>) =>
  changingAuth(projectId, branchId, (auth) =>
    Either.map(userOf(auth, userId), (user) => {
      const changed = { ...user, roles: [...roles] }
      return [
        { ...auth, users: (auth.users ?? []).map((other) => (other.id === userId ? changed : other)) },
        changed
      ] as const
    })
  )

/**
 * The auth service of project `projectId`'s default branch, for the two `Auth (legacy)` routes
 * (docs/contract.md §26.4): 404 for an unknown project, or one whose default branch has no auth
 * of `provider`.
 */
export const legacyAuthOf = (
  state: State,
  projectId: string,
  provider: string
): Either.Either<readonly [StoredProject, StoredBranchAuth], Refusal> => {
  const project = projectOf(state, projectId)
  if (Either.isLeft(project)) return Either.left(project.left)
  const branch = defaultBranch(state, projectId)
  if (branch === undefined) return notFound("auth for this project")
  return Either.flatMap(authOf(state, projectId, branch.id), (found) =>
    found[1].auth_provider === provider ? Either.right(found) : notFound(`auth of ${provider} for this project`)
  )
}

/** New SDK keys of a project's auth (legacy, docs/contract.md §26.4): made up from the dice, never kept. */
export const newSdkKeys =
  (projectId: string, provider: string, dice: Dice): Mutation<AuthEnabled, Refusal> =>
  (state) =>
    Either.map(legacyAuthOf(state, projectId, provider), ([project, auth]) => ({
      changes: [],
      answer: { auth, project, pub_client_key: newKey(dice, "pck_"), secret_server_key: newKey(dice, "ssk_") }
    }))

/** Starts moving a project's auth provider project to the user (legacy, docs/contract.md §26.4). */
export const startTransfer =
  (projectId: string, provider: string): Mutation<StoredBranchAuth, Refusal> =>
  (state) =>
    Either.map(legacyAuthOf(state, projectId, provider), ([, auth]) => {
      const changed = { ...auth, transfer_status: "initiated" }
      return { changes: [upsert("branch_auths", changed)], answer: changed }
    })
