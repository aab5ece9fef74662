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
import * as Either from "effect/Either"
import { type Dice, uuid } from "../../engine/ids.js"
import { type Item, remove, upsert } from "../../engine/kinds.js"
import { get, itemsOf, type Mutation, type State, type StoredDatabase, type StoredProject } from "../../engine/state.js"
import { Status } from "../../engine/status.js"
import { notFound, refused, type Refusal } from "../../engine/refusal.js"
import { branchOf, unlockedProject } from "../../engine/records.js"

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

/** The credentials an OAuth provider is added or updated with, decoded (the secret as a string). */
export interface OAuthCredentials {
  readonly client_id?: string | undefined
  readonly client_secret?: string | undefined
  readonly microsoft_tenant_id?: string | undefined
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
