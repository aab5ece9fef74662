/**
 * The branch auth endpoints: the auth service a branch can run for an app (its users live in the
 * branch's database), its trusted redirect domains and its OAuth providers
 * (`docs/contract.md` §26). The project-level auth routes the platform deprecated are not here.
 *
 * @since 0.5.0
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import { branchParams, withMessage } from "../internal/input.js"
import { openEnum } from "../internal/openEnum.js"
import { AbsoluteUrl } from "../internal/url.js"
import { Timestamp } from "../Timestamp.js"

/**
 * The auth provider behind a branch's auth service: `better_auth` (the platform's own), `stack`
 * or `mock` (for tests); open: a provider added later decodes as its string (§26).
 *
 * @since 0.5.0
 * @category schemas
 */
export type AuthProvider = "mock" | "stack" | "better_auth" | (string & {})

/**
 * Open enum schema of {@link AuthProvider}.
 *
 * @since 0.5.0
 * @category schemas
 */
export const AuthProvider: Schema.Schema<AuthProvider> = openEnum(
  Schema.Literal("mock", "stack", "better_auth"),
  "AuthProvider"
)

/**
 * An OAuth provider's id: `google`, `github`, `microsoft` or `vercel`; open (§26).
 *
 * @since 0.5.0
 * @category schemas
 */
export type OAuthProviderId = "google" | "github" | "microsoft" | "vercel" | (string & {})

/**
 * Open enum schema of {@link OAuthProviderId}.
 *
 * @since 0.5.0
 * @category schemas
 */
export const OAuthProviderId: Schema.Schema<OAuthProviderId> = openEnum(
  Schema.Literal("google", "github", "microsoft", "vercel"),
  "OAuthProviderId"
)

/**
 * Whose credentials an OAuth provider uses: `standard` (the app's own client id and secret) or
 * `shared` (the platform's, for development); open (§26).
 *
 * @since 0.5.0
 * @category schemas
 */
export type OAuthProviderType = "standard" | "shared" | (string & {})

/**
 * Open enum schema of {@link OAuthProviderType}.
 *
 * @since 0.5.0
 * @category schemas
 */
export const OAuthProviderType: Schema.Schema<OAuthProviderType> = openEnum(
  Schema.Literal("standard", "shared"),
  "OAuthProviderType"
)

/**
 * An answer the published reference declares without a body (a 200 or 201): decoded as `void`
 * whatever comes, nothing or JSON; the fake sends no body (§26).
 *
 * @since 0.5.0
 * @category schemas
 */
export const NoContent: Schema.Schema<void, unknown> = Schema.transform(Schema.Unknown, Schema.Void, {
  strict: true,
  decode: () => undefined,
  encode: () => undefined
}).annotations({ identifier: "NoContent" })

/**
 * Body of `POST …/branches/{branch_id}/auth`: the `auth_provider`, and the `database_name` of the
 * branch whose `neon_auth` schema holds the users (absent: the platform picks the branch's
 * database) (§26).
 *
 * @since 0.5.0
 * @category schemas
 */
export class BranchAuthCreateRequest extends Schema.Class<BranchAuthCreateRequest>("BranchAuthCreateRequest")({
  auth_provider: AuthProvider,
  database_name: Schema.optional(Schema.String)
}) {}

/**
 * Answer of `POST …/branches/{branch_id}/auth` (201): the provider and its project's id there
 * (`auth_provider_project_id`), the app's publishable client key (`pub_client_key`) and its
 * secret server key (`secret_server_key`), both shown only this once and decoded to `Redacted`
 * so they never reach a log; where tokens are verified (`jwks_url`), the schema and table the
 * users are kept in (`schema_name`, `table_name`), and for some providers the auth service's
 * `base_url` (§26).
 *
 * @since 0.5.0
 * @category schemas
 */
export class BranchAuthCreated extends Schema.Class<BranchAuthCreated>("BranchAuthCreated")({
  auth_provider: AuthProvider,
  auth_provider_project_id: Schema.String,
  pub_client_key: Schema.Redacted(Schema.String),
  secret_server_key: Schema.Redacted(Schema.String),
  jwks_url: Schema.String,
  schema_name: Schema.String,
  table_name: Schema.String,
  base_url: Schema.optional(Schema.String)
}) {}

/**
 * Answer of `GET …/branches/{branch_id}/auth`: the branch's auth service, without its keys: the
 * provider and its project's id, the branch, the database holding its users (`db_name`), when it
 * was created, who owns the provider's project (`owned_by`: `user` or `neon`; open) and, while it
 * moves, `transfer_status` (`initiated` or `finished`; open), `jwks_url`, `base_url` and the app's
 * `name` used in its emails (1 to 256 characters) (§26).
 *
 * @since 0.5.0
 * @category schemas
 */
export class BranchAuthIntegration extends Schema.Class<BranchAuthIntegration>("BranchAuthIntegration")({
  auth_provider: AuthProvider,
  auth_provider_project_id: Schema.String,
  branch_id: Schema.String,
  db_name: Schema.String,
  created_at: Timestamp,
  owned_by: openEnum(Schema.Literal("user", "neon"), "AuthProjectOwner"),
  transfer_status: Schema.optional(openEnum(Schema.Literal("initiated", "finished"), "AuthTransferStatus")),
  jwks_url: Schema.String,
  base_url: Schema.optional(Schema.String),
  name: Schema.optional(Schema.String)
}) {}

/**
 * Body of `DELETE …/branches/{branch_id}/auth`, optional: `delete_data` (default `false`) also
 * drops the `neon_auth` schema and its tables from the database (§26).
 *
 * @since 0.5.0
 * @category schemas
 */
export class BranchAuthDisableRequest extends Schema.Class<BranchAuthDisableRequest>("BranchAuthDisableRequest")({
  delete_data: Schema.optional(Schema.Boolean)
}) {}

/**
 * A trusted domain: a redirect target the auth service accepts after sign-in, and its provider
 * (§26).
 *
 * @since 0.5.0
 * @category schemas
 */
export class TrustedDomain extends Schema.Class<TrustedDomain>("TrustedDomain")({
  domain: Schema.String,
  auth_provider: AuthProvider
}) {}

/**
 * Answer of `GET …/auth/domains`: `{ domains }` (§26).
 *
 * @since 0.5.0
 * @category schemas
 */
export class TrustedDomains extends Schema.Class<TrustedDomains>("TrustedDomains")({
  domains: Schema.Array(TrustedDomain)
}) {}

/**
 * Body of `POST …/auth/domains`: the `domain` to trust (an absolute URL,
 * `https://app.example.com`) and the branch's `auth_provider` (§26).
 *
 * @since 0.5.0
 * @category schemas
 */
export class TrustedDomainAddRequest extends Schema.Class<TrustedDomainAddRequest>("TrustedDomainAddRequest")({
  domain: AbsoluteUrl,
  auth_provider: AuthProvider
}) {}

/**
 * Body of `DELETE …/auth/domains`: the branch's `auth_provider` and the `domains` to stop
 * trusting, each `{ domain }` (an absolute URL) (§26).
 *
 * @since 0.5.0
 * @category schemas
 */
export class TrustedDomainsDeleteRequest extends Schema.Class<TrustedDomainsDeleteRequest>(
  "TrustedDomainsDeleteRequest"
)({
  auth_provider: AuthProvider,
  domains: Schema.Array(Schema.Struct({ domain: AbsoluteUrl }))
}) {}

/**
 * An OAuth provider of a branch's auth service: its `id`, its `type`, and for a `standard` one the
 * app's `client_id` and `client_secret` (decoded to `Redacted`: it never reaches a log) (§26).
 *
 * @since 0.5.0
 * @category schemas
 */
export class OAuthProvider extends Schema.Class<OAuthProvider>("OAuthProvider")({
  id: OAuthProviderId,
  type: OAuthProviderType,
  client_id: Schema.optional(Schema.String),
  client_secret: Schema.optional(Schema.Redacted(Schema.String))
}) {}

/**
 * Answer of `GET …/auth/oauth_providers`: `{ providers }` (§26).
 *
 * @since 0.5.0
 * @category schemas
 */
export class OAuthProviders extends Schema.Class<OAuthProviders>("OAuthProviders")({
  providers: Schema.Array(OAuthProvider)
}) {}

/** A client secret as a caller sends it: `Redacted`, so it never reaches a log. */
const ClientSecret = Schema.Redacted(Schema.String.pipe(Schema.minLength(1))).annotations(
  withMessage("must not be empty")
)

/**
 * Body of `POST …/auth/oauth_providers`: the provider's `id`, and for the app's own credentials
 * its `client_id` and `client_secret` (`Redacted`), and for `microsoft` its `microsoft_tenant_id`
 * (§26).
 *
 * @since 0.5.0
 * @category schemas
 */
export class OAuthProviderAddRequest extends Schema.Class<OAuthProviderAddRequest>("OAuthProviderAddRequest")({
  id: OAuthProviderId,
  client_id: Schema.optional(Schema.String),
  client_secret: Schema.optional(ClientSecret),
  microsoft_tenant_id: Schema.optional(Schema.String)
}) {}

/**
 * Body of `PATCH …/auth/oauth_providers/{oauth_provider_id}`: `client_id`, `client_secret`
 * (`Redacted`) and `microsoft_tenant_id`, each optional, each given one replacing the one before
 * (§26).
 *
 * @since 0.5.0
 * @category schemas
 */
export class OAuthProviderUpdateRequest extends Schema.Class<OAuthProviderUpdateRequest>("OAuthProviderUpdateRequest")({
  client_id: Schema.optional(Schema.String),
  client_secret: Schema.optional(ClientSecret),
  microsoft_tenant_id: Schema.optional(Schema.String)
}) {}

const authRoute = "/projects/{project_id}/branches/{branch_id}/auth"

/** A branch's OAuth provider in a path: `project_id`, `branch_id` and `oauth_provider_id`. */
const oauthProviderParams = Schema.Struct({ ...branchParams.fields, oauth_provider_id: OAuthProviderId })

/**
 * The branch auth endpoints (`docs/contract.md` §26).
 *
 * @since 0.5.0
 * @category endpoints
 */
export const BranchAuth = Endpoint.group("BranchAuth", {
  /**
   * `GET /projects/{project_id}/branches/{branch_id}/auth`: the branch's auth service (§26). 404
   * for an unknown project or branch, or a branch without one; 400 for a malformed id.
   */
  get: Endpoint.make({
    method: "GET",
    route: authRoute,
    params: branchParams,
    success: BranchAuthIntegration,
    errors: ["NotFound", "BadRequest"],
    about: (auth) => ({ branch_id: auth.branch_id })
  }),
  /**
   * `POST /projects/{project_id}/branches/{branch_id}/auth`: enables the branch's auth service
   * with `auth_provider`, its users kept in `database_name`; answers 201 with its keys, shown
   * only this once (§26). 400 for a provider the platform does not offer or a branch without a
   * database, 404 for an unknown project, branch or database, 409 when the branch has one
   * already, 423 while a conflicting operation runs.
   */
  create: Endpoint.make({
    method: "POST",
    route: authRoute,
    params: branchParams,
    body: BranchAuthCreateRequest,
    success: BranchAuthCreated,
    statuses: [201],
    errors: ["BadRequest", "NotFound", "Conflict", "Locked"]
  }),
  /**
   * `DELETE /projects/{project_id}/branches/{branch_id}/auth`: disables the branch's auth service
   * (it can be enabled again); body optional, `{ delete_data }` (§26). Answers 200 without a
   * body. 404 for an unknown project or branch, or a branch without one; 423
   * while a conflicting operation runs.
   */
  disable: Endpoint.make({
    method: "DELETE",
    route: authRoute,
    params: branchParams,
    body: BranchAuthDisableRequest,
    success: NoContent,
    errors: ["BadRequest", "NotFound", "Locked"]
  }),
  /**
   * `GET …/auth/domains`: the trusted redirect domains, `{ domains }` (§26). 404 for an unknown
   * project or branch, or a branch without auth.
   */
  listDomains: Endpoint.make({
    method: "GET",
    route: `${authRoute}/domains`,
    params: branchParams,
    success: TrustedDomains,
    errors: ["NotFound", "BadRequest"],
    list: { items: (answer) => answer.domains }
  }),
  /**
   * `POST …/auth/domains`: trusts `domain`; answers 201 without a body (a
   * domain already trusted is left as it is) (§26). 400 for a domain that is not an absolute URL
   * or another provider than the branch's, 404 for an unknown project or branch, or a branch
   * without auth.
   */
  addDomain: Endpoint.make({
    method: "POST",
    route: `${authRoute}/domains`,
    params: branchParams,
    body: TrustedDomainAddRequest,
    success: NoContent,
    statuses: [201],
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `DELETE …/auth/domains`: stops trusting `domains` (a body on a DELETE; those not trusted are
   * ignored); answers 200 without a body (§26). 400 for another provider
   * than the branch's, 404 for an unknown project or branch, or a branch without auth.
   */
  deleteDomains: Endpoint.make({
    method: "DELETE",
    route: `${authRoute}/domains`,
    params: branchParams,
    body: TrustedDomainsDeleteRequest,
    success: NoContent,
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `GET …/auth/oauth_providers`: the OAuth providers, `{ providers }` (§26). 404 for an unknown
   * project or branch, or a branch without auth.
   */
  listOAuthProviders: Endpoint.make({
    method: "GET",
    route: `${authRoute}/oauth_providers`,
    params: branchParams,
    success: OAuthProviders,
    errors: ["NotFound", "BadRequest"],
    list: { items: (answer) => answer.providers }
  }),
  /**
   * `POST …/auth/oauth_providers`: adds an OAuth provider; answers **200** with it (§26). 400 for
   * an id the platform does not offer, a client id without its secret (or the reverse), or a
   * `microsoft_tenant_id` for another provider; 404 for an unknown project or branch, or a branch
   * without auth; 409 when the provider is there already.
   */
  addOAuthProvider: Endpoint.make({
    method: "POST",
    route: `${authRoute}/oauth_providers`,
    params: branchParams,
    body: OAuthProviderAddRequest,
    success: OAuthProvider,
    errors: ["BadRequest", "NotFound", "Conflict"]
  }),
  /**
   * `PATCH …/auth/oauth_providers/{oauth_provider_id}`: changes a provider's credentials; answers
   * it (§26). 400 as for an add; 404 for an unknown project or branch, a branch without auth, or
   * a provider it does not have.
   */
  updateOAuthProvider: Endpoint.make({
    method: "PATCH",
    route: `${authRoute}/oauth_providers/{oauth_provider_id}`,
    params: oauthProviderParams,
    body: OAuthProviderUpdateRequest,
    success: OAuthProvider,
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `DELETE …/auth/oauth_providers/{oauth_provider_id}`: removes a provider; answers 200 with no
   * body (§26). 404 for an unknown project or branch, a branch without auth, or a provider it
   * does not have.
   */
  deleteOAuthProvider: Endpoint.make({
    method: "DELETE",
    route: `${authRoute}/oauth_providers/{oauth_provider_id}`,
    params: oauthProviderParams,
    success: NoContent,
    errors: ["BadRequest", "NotFound"]
  })
})
