/**
 * The branch auth endpoints: the auth service a branch can run for an app (its users live in the
 * branch's database), its trusted redirect domains and its OAuth providers
 * (`docs/contract.md` §26), its users, sign-in methods, email provider, plugins and webhooks, and
 * the two `Auth (legacy)` routes the platform has not deprecated (marked legacy); the deprecated
 * project-level auth routes are not here.
 *
 * @since 0.5.0
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import { branchParams, Email, withMessage } from "../internal/input.js"
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

/** An integer of `format: int32` the document bounds below by `min` (and above by `max`). */
const Int32 = (min: number, max = 2_147_483_647, unit = "") =>
  Schema.Int.pipe(Schema.between(min, max)).annotations(withMessage(`must be an integer from ${min} to ${max}${unit}`))

/**
 * Body of the two `Auth (legacy)` routes, `POST /projects/auth/keys` and `POST
 * /projects/auth/transfer_ownership`: the `project_id` (in the body, not the path) and its
 * `auth_provider` (§26.4). Legacy: these act on the auth service of the project's default branch.
 *
 * @since 0.6.0
 * @category schemas
 */
export class AuthProviderProjectRequest extends Schema.Class<AuthProviderProjectRequest>("AuthProviderProjectRequest")({
  project_id: Schema.String.pipe(Schema.pattern(/^[a-z0-9-]{1,60}$/)).annotations(
    withMessage("must be 1 to 60 of a-z, 0-9 and -")
  ),
  auth_provider: Schema.Literal("mock", "stack", "better_auth")
}) {}

/**
 * Answer of `POST /projects/auth/transfer_ownership` (legacy): the `url` of a page of the auth
 * provider where the user completes taking over the project the platform manages for them
 * (§26.4).
 *
 * @since 0.6.0
 * @category schemas
 */
export class AuthProviderTransfer extends Schema.Class<AuthProviderTransfer>("AuthProviderTransfer")({
  url: Schema.String
}) {}

/**
 * Body of `POST …/auth/users`: the new user's `email` (1 to 256 characters) and `name` (1 to
 * 255) (§26.5).
 *
 * @since 0.6.0
 * @category schemas
 */
export class AuthUserCreateRequest extends Schema.Class<AuthUserCreateRequest>("AuthUserCreateRequest")({
  email: Email.pipe(Schema.minLength(1)),
  name: Schema.optional(
    Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255)).annotations(
      withMessage("must be 1 to 255 characters")
    )
  )
}) {}

/**
 * Answer of `POST …/auth/users` (201) and of `PUT …/auth/users/{auth_user_id}/role`: the user's
 * `id` (§26.5).
 *
 * @since 0.6.0
 * @category schemas
 */
export class AuthUserId extends Schema.Class<AuthUserId>("AuthUserId")({
  id: Schema.String
}) {}

/**
 * Body of `PUT …/auth/users/{auth_user_id}/role`: the `roles` the user has from now on (free
 * strings, at least one: `["admin"]`) (§26.5).
 *
 * @since 0.6.0
 * @category schemas
 */
export class AuthUserRoleRequest extends Schema.Class<AuthUserRoleRequest>("AuthUserRoleRequest")({
  roles: Schema.Array(Schema.String).pipe(Schema.minItems(1)).annotations(withMessage("must hold at least one role"))
}) {}

/** The fields of an SMTP server the app's own email goes through: host, username and password `Redacted`. */
const smtpServerFields = {
  host: Schema.Redacted(Schema.String),
  port: Schema.Int,
  username: Schema.Redacted(Schema.String),
  password: Schema.Redacted(Schema.String),
  sender_email: Schema.String,
  sender_name: Schema.String
}

/**
 * The email provider of a branch's auth service when it is the app's own SMTP server, `type:
 * "standard"`: `host`, `port`, `username` and `password` (host, username and password decoded to
 * `Redacted`: a read hands back the password), and the `sender_email` and `sender_name` its
 * emails come from (§26.6).
 *
 * @since 0.6.0
 * @category schemas
 */
export const StandardEmailServer = Schema.Struct({ type: Schema.Literal("standard"), ...smtpServerFields }).annotations(
  { identifier: "StandardEmailServer" }
)

/**
 * The type of {@link StandardEmailServer}.
 *
 * @since 0.6.0
 * @category schemas
 */
export type StandardEmailServer = typeof StandardEmailServer.Type

/**
 * The email provider of a branch's auth service when it is the platform's sender, `type:
 * "shared"`, optionally with the `sender_email` and `sender_name` its emails show (§26.6).
 *
 * @since 0.6.0
 * @category schemas
 */
export const SharedEmailServer = Schema.Struct({
  type: Schema.Literal("shared"),
  sender_email: Schema.optional(Schema.String),
  sender_name: Schema.optional(Schema.String)
}).annotations({ identifier: "SharedEmailServer" })

/**
 * The type of {@link SharedEmailServer}.
 *
 * @since 0.6.0
 * @category schemas
 */
export type SharedEmailServer = typeof SharedEmailServer.Type

/**
 * An email provider of a `type` the SDK does not know yet, kept as it came (its `type` and every
 * other field, unchecked) so that a provider the platform adds never fails a read (§26.6).
 *
 * @since 0.6.0
 * @category schemas
 */
export const OtherEmailServer = Schema.Struct(
  { type: Schema.String.pipe(Schema.filter((type) => type !== "standard" && type !== "shared")) },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
).annotations({ identifier: "OtherEmailServer" })

/**
 * The body of `PATCH …/auth/email_provider`: one whole variant, told apart by `type` (the
 * discriminator the document names but neither variant declares: the SDK sends it): `standard`
 * with all six SMTP fields, or `shared` (§26.6; docs/design.md §1.3).
 *
 * @since 0.6.0
 * @category schemas
 */
export const EmailServerRequest = Schema.Union(StandardEmailServer, SharedEmailServer).annotations({
  identifier: "EmailServerRequest"
})

/**
 * The email provider as a read answers it: {@link StandardEmailServer}, {@link
 * SharedEmailServer}, or {@link OtherEmailServer} for a `type` the SDK does not know (§26.6).
 *
 * @since 0.6.0
 * @category schemas
 */
export const EmailServer = Schema.Union(StandardEmailServer, SharedEmailServer, OtherEmailServer).annotations({
  identifier: "EmailServer"
})

/**
 * The type of {@link EmailServer}.
 *
 * @since 0.6.0
 * @category schemas
 */
export type EmailServer = typeof EmailServer.Type

/**
 * Body of `POST …/auth/send_test_email`: a whole SMTP server (as {@link StandardEmailServer},
 * without `type`) and the `recipient_email` to send to (§26.6). Its password is `Redacted`.
 *
 * @since 0.6.0
 * @category schemas
 */
export class TestEmailRequest extends Schema.Class<TestEmailRequest>("TestEmailRequest")({
  ...smtpServerFields,
  recipient_email: Email.pipe(Schema.minLength(1))
}) {}

/**
 * Answer of `POST …/auth/send_test_email`: `success`, and when the server refused or could not
 * be reached, its `error_message`; a failed send is this answer, not an HTTP error (§26.6).
 *
 * @since 0.6.0
 * @category schemas
 */
export class TestEmailResult extends Schema.Class<TestEmailResult>("TestEmailResult")({
  success: Schema.Boolean,
  error_message: Schema.optional(Schema.String)
}) {}

/**
 * How a user proves their email: `link` or `otp`; open in answers (§26.6).
 *
 * @since 0.6.0
 * @category schemas
 */
export type EmailVerificationMethod = "link" | "otp" | (string & {})

const emailAndPasswordFields = {
  enabled: Schema.Boolean,
  email_verification_method: openEnum(
    Schema.Literal("link", "otp"),
    "EmailVerificationMethod"
  ) as Schema.Schema<EmailVerificationMethod>,
  require_email_verification: Schema.Boolean,
  auto_sign_in_after_verification: Schema.Boolean,
  send_verification_email_on_sign_up: Schema.Boolean,
  send_verification_email_on_sign_in: Schema.Boolean,
  disable_sign_up: Schema.Boolean
}

/**
 * Sign-in by email and password, as a read or a change answers it, every field present:
 * `enabled`, `email_verification_method`, `require_email_verification`,
 * `auto_sign_in_after_verification`, `send_verification_email_on_sign_up`,
 * `send_verification_email_on_sign_in`, `disable_sign_up` (§26.6).
 *
 * @since 0.6.0
 * @category schemas
 */
export class EmailAndPasswordConfig extends Schema.Class<EmailAndPasswordConfig>("EmailAndPasswordConfig")(
  emailAndPasswordFields
) {}

/**
 * Body of `PATCH …/auth/email_and_password`: any of {@link EmailAndPasswordConfig}'s fields,
 * the others unchanged; `email_verification_method` is `link` or `otp` (§26.6).
 *
 * @since 0.6.0
 * @category schemas
 */
export class EmailAndPasswordUpdateRequest extends Schema.Class<EmailAndPasswordUpdateRequest>(
  "EmailAndPasswordUpdateRequest"
)({
  enabled: Schema.optional(Schema.Boolean),
  email_verification_method: Schema.optional(Schema.Literal("link", "otp")),
  require_email_verification: Schema.optional(Schema.Boolean),
  auto_sign_in_after_verification: Schema.optional(Schema.Boolean),
  send_verification_email_on_sign_up: Schema.optional(Schema.Boolean),
  send_verification_email_on_sign_in: Schema.optional(Schema.Boolean),
  disable_sign_up: Schema.optional(Schema.Boolean)
}) {}

/**
 * `{ allow_localhost }`, both ways of `…/auth/allow_localhost`: `true` lets sign-in flows from
 * `localhost` work although it is not a trusted domain (§26.6).
 *
 * @since 0.6.0
 * @category schemas
 */
export class AllowLocalhost extends Schema.Class<AllowLocalhost>("AllowLocalhost")({
  allow_localhost: Schema.Boolean
}) {}

/**
 * The organization plugin: `enabled` (default `true`), `organization_limit` (organizations a
 * user may create, default 10), `membership_limit` (members per organization, default 100),
 * `creator_role` (`owner` or `admin`, default `owner`; open), `send_invitation_email` (default
 * `false`) (§26.7).
 *
 * @since 0.6.0
 * @category schemas
 */
export class OrganizationPluginConfig extends Schema.Class<OrganizationPluginConfig>("OrganizationPluginConfig")({
  enabled: Schema.Boolean,
  organization_limit: Schema.Int,
  membership_limit: Schema.Int,
  creator_role: openEnum(Schema.Literal("admin", "owner"), "OrganizationCreatorRole"),
  send_invitation_email: Schema.Boolean
}) {}

/**
 * Body of `PATCH …/auth/plugins/organization`: any of {@link OrganizationPluginConfig}'s fields,
 * the limits integers of 1 or more (§26.7).
 *
 * @since 0.6.0
 * @category schemas
 */
export class OrganizationPluginUpdateRequest extends Schema.Class<OrganizationPluginUpdateRequest>(
  "OrganizationPluginUpdateRequest"
)({
  enabled: Schema.optional(Schema.Boolean),
  organization_limit: Schema.optional(Int32(1)),
  membership_limit: Schema.optional(Int32(1)),
  creator_role: Schema.optional(Schema.Literal("admin", "owner")),
  send_invitation_email: Schema.optional(Schema.Boolean)
}) {}

/**
 * The magic-link plugin: `enabled` (default `false`), `expires_in` (**minutes** a link stays
 * valid, 5 to 1440, default 5), `disable_sign_up` (default `false`) (§26.7).
 *
 * @since 0.6.0
 * @category schemas
 */
export class MagicLinkPluginConfig extends Schema.Class<MagicLinkPluginConfig>("MagicLinkPluginConfig")({
  enabled: Schema.Boolean,
  expires_in: Schema.Int,
  disable_sign_up: Schema.Boolean
}) {}

/**
 * Body of `PATCH …/auth/plugins/magic-link`: any of {@link MagicLinkPluginConfig}'s fields,
 * `expires_in` 5 to 1440 minutes (§26.7).
 *
 * @since 0.6.0
 * @category schemas
 */
export class MagicLinkPluginUpdateRequest extends Schema.Class<MagicLinkPluginUpdateRequest>(
  "MagicLinkPluginUpdateRequest"
)({
  enabled: Schema.optional(Schema.Boolean),
  expires_in: Schema.optional(Int32(5, 1440, " (minutes)")),
  disable_sign_up: Schema.optional(Schema.Boolean)
}) {}

/**
 * The phone-number plugin: `enabled` (default `false`) and `otp_expires_in` (**seconds** a code
 * stays valid, 60 to 600, default 300). Codes go out only as the `send.otp` webhook event
 * (§26.7).
 *
 * @since 0.6.0
 * @category schemas
 */
export class PhoneNumberPluginConfig extends Schema.Class<PhoneNumberPluginConfig>("PhoneNumberPluginConfig")({
  enabled: Schema.Boolean,
  otp_expires_in: Schema.optional(Schema.Int)
}) {}

/**
 * Body of `PATCH …/auth/plugins/phone-number`: `enabled` and `otp_expires_in` (60 to 600
 * seconds), each optional, the one left out unchanged (§26.7).
 *
 * @since 0.6.0
 * @category schemas
 */
export class PhoneNumberPluginUpdateRequest extends Schema.Class<PhoneNumberPluginUpdateRequest>(
  "PhoneNumberPluginUpdateRequest"
)({
  enabled: Schema.optional(Schema.Boolean),
  otp_expires_in: Schema.optional(Int32(60, 600, " (seconds)"))
}) {}

/**
 * Answer of `GET …/auth/plugins`: every setting of the branch's auth service in one answer, each
 * key optional: `organization`, `magic_link`, `phone_number`, `email_provider` ({@link
 * EmailServer}), `email_and_password`, `oauth_providers` (their client secrets `Redacted`),
 * `allow_localhost`. The only read of the organization and magic-link plugins (§26.7).
 *
 * @since 0.6.0
 * @category schemas
 */
export class AuthPluginConfigs extends Schema.Class<AuthPluginConfigs>("AuthPluginConfigs")({
  organization: Schema.optional(OrganizationPluginConfig),
  magic_link: Schema.optional(MagicLinkPluginConfig),
  phone_number: Schema.optional(PhoneNumberPluginConfig),
  email_provider: Schema.optional(EmailServer),
  email_and_password: Schema.optional(EmailAndPasswordConfig),
  oauth_providers: Schema.optional(Schema.Array(OAuthProvider)),
  allow_localhost: Schema.optional(Schema.Boolean)
}) {}

/**
 * Body of `PATCH …/auth/config` (the document marks it internal): the application `name` the
 * auth emails show, 1 to 256 characters (§26.6).
 *
 * @since 0.6.0
 * @category schemas
 */
export class AuthConfigUpdateRequest extends Schema.Class<AuthConfigUpdateRequest>("AuthConfigUpdateRequest")({
  name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(256)).annotations(
    withMessage("must be 1 to 256 characters")
  )
}) {}

/**
 * Answer of `PATCH …/auth/config`: `{ name }` (§26.6). No read exists; `BranchAuth.get` answers
 * the `name` too.
 *
 * @since 0.6.0
 * @category schemas
 */
export class AuthConfig extends Schema.Class<AuthConfig>("AuthConfig")({
  name: Schema.String
}) {}

/** The events a webhook can be sent for. */
const webhookEvents = [
  "user.before_create",
  "user.created",
  "send.otp",
  "send.magic_link",
  "organization.invitation.created",
  "organization.invitation.accepted",
  "phone_number.verified"
] as const

/**
 * An event a branch's auth service can send to its webhook: `user.before_create`,
 * `user.created`, `send.otp`, `send.magic_link`, `organization.invitation.created`,
 * `organization.invitation.accepted`, `phone_number.verified`; open in answers (§26.8).
 *
 * @since 0.6.0
 * @category schemas
 */
export type AuthWebhookEvent = (typeof webhookEvents)[number] | (string & {})

/**
 * The webhook of a branch's auth service, as a read answers it: `enabled`, `webhook_url`,
 * `enabled_events`, `timeout_seconds` (1 to 10, default 5) (§26.8).
 *
 * @since 0.6.0
 * @category schemas
 */
export class AuthWebhookConfig extends Schema.Class<AuthWebhookConfig>("AuthWebhookConfig")({
  enabled: Schema.Boolean,
  webhook_url: Schema.optional(Schema.String),
  enabled_events: Schema.optional(
    Schema.Array(openEnum(Schema.Literal(...webhookEvents), "AuthWebhookEvent") as Schema.Schema<AuthWebhookEvent>)
  ),
  timeout_seconds: Schema.optional(Schema.Int)
}) {}

/**
 * Body of `PUT …/auth/webhooks`: the whole webhook configuration, replacing the one before:
 * `enabled`, and optionally `webhook_url`, `enabled_events` (the known events only) and
 * `timeout_seconds` (1 to 10 seconds) (§26.8).
 *
 * @since 0.6.0
 * @category schemas
 */
export class AuthWebhookUpdateRequest extends Schema.Class<AuthWebhookUpdateRequest>("AuthWebhookUpdateRequest")({
  enabled: Schema.Boolean,
  webhook_url: Schema.optional(Schema.String),
  enabled_events: Schema.optional(Schema.Array(Schema.Literal(...webhookEvents))),
  timeout_seconds: Schema.optional(
    Schema.Int.pipe(Schema.between(1, 10)).annotations(withMessage("must be an integer from 1 to 10 (seconds)"))
  )
}) {}

const authRoute = "/projects/{project_id}/branches/{branch_id}/auth"

/** A user of a branch's auth service in a path: `project_id`, `branch_id` and `auth_user_id`. */
const authUserParams = Schema.Struct({
  ...branchParams.fields,
  auth_user_id: Schema.String.pipe(Schema.minLength(1)).annotations(withMessage("must not be empty"))
})

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
  }),
  /**
   * `POST /projects/auth/keys` (**legacy**, tagged `Auth (legacy)`; not deprecated): new SDK keys
   * for the auth service of the project's default branch, the project named in the body; answers
   * 201 as an enable does, the keys `Redacted` (§26.4). 400 for a provider the platform does not
   * offer, 404 for an unknown project or one whose default branch has no auth of that provider.
   */
  createAuthProviderSdkKeys: Endpoint.make({
    method: "POST",
    route: "/projects/auth/keys",
    body: AuthProviderProjectRequest,
    success: BranchAuthCreated,
    statuses: [201],
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `POST /projects/auth/transfer_ownership` (**legacy**, tagged `Auth (legacy)`; not
   * deprecated): starts moving the auth provider's project the platform manages to the user;
   * answers `{ url }`, where the user completes it (§26.4). 400 and 404 as for
   * `createAuthProviderSdkKeys`.
   */
  transferAuthProviderProject: Endpoint.make({
    method: "POST",
    route: "/projects/auth/transfer_ownership",
    body: AuthProviderProjectRequest,
    success: AuthProviderTransfer,
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `POST …/auth/users` (beta): adds a user to the app, `{ email, name }`; answers 201 `{ id }`
   * (§26.5). 400 for a malformed email, 404 for an unknown project or branch or a branch without
   * auth, 409 when a user has that email already.
   */
  createUser: Endpoint.make({
    method: "POST",
    route: `${authRoute}/users`,
    params: branchParams,
    body: AuthUserCreateRequest,
    success: AuthUserId,
    statuses: [201],
    errors: ["BadRequest", "NotFound", "Conflict"]
  }),
  /**
   * `DELETE …/auth/users/{auth_user_id}` (beta): removes a user for good; answers 204 (§26.5). 404
   * for an unknown project, branch or user, or a branch without auth.
   */
  deleteUser: Endpoint.make({
    method: "DELETE",
    route: `${authRoute}/users/{auth_user_id}`,
    params: authUserParams,
    success: Schema.Void,
    statuses: [204],
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `PUT …/auth/users/{auth_user_id}/role`: sets a user's `roles` (at least one); answers `{ id }`
   * (§26.5). 404 for an unknown project, branch or user, or a branch without auth.
   */
  updateUserRole: Endpoint.make({
    method: "PUT",
    route: `${authRoute}/users/{auth_user_id}/role`,
    params: authUserParams,
    body: AuthUserRoleRequest,
    success: AuthUserId,
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `POST …/auth/send_test_email` (beta): sends a test email through the SMTP server given (its
   * password `Redacted`) to `recipient_email`; answers `{ success, error_message }`, a failed send
   * being `success: false`, not an error (§26.6). 404 for an unknown project or branch, or a
   * branch without auth.
   */
  sendTestEmail: Endpoint.make({
    method: "POST",
    route: `${authRoute}/send_test_email`,
    params: branchParams,
    body: TestEmailRequest,
    success: TestEmailResult,
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `GET …/auth/email_and_password`: sign-in by email and password, every field (§26.6). 404 for
   * an unknown project or branch, or a branch without auth.
   */
  getEmailAndPassword: Endpoint.make({
    method: "GET",
    route: `${authRoute}/email_and_password`,
    params: branchParams,
    success: EmailAndPasswordConfig,
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `PATCH …/auth/email_and_password`: changes the fields given; answers the whole configuration
   * (§26.6). 400 for a method other than `link` and `otp`; 404 as for a read.
   */
  updateEmailAndPassword: Endpoint.make({
    method: "PATCH",
    route: `${authRoute}/email_and_password`,
    params: branchParams,
    body: EmailAndPasswordUpdateRequest,
    success: EmailAndPasswordConfig,
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `GET …/auth/email_provider`: the email provider, {@link EmailServer}, told apart by `type`
   * (§26.6). 404 for an unknown project or branch, or a branch without auth.
   */
  getEmailProvider: Endpoint.make({
    method: "GET",
    route: `${authRoute}/email_provider`,
    params: branchParams,
    success: EmailServer,
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `PATCH …/auth/email_provider`: replaces the email provider with one whole variant, its `type`
   * a key of the input like the others: `{ project_id, branch_id, type: "standard", host, port,
   * username, password, sender_email, sender_name }` or `{ …, type: "shared" }`
   * (docs/design.md §1.3); answers it (§26.6). 400 for a variant missing a field or holding
   * another's; 404 as for a read.
   */
  updateEmailProvider: Endpoint.make({
    method: "PATCH",
    route: `${authRoute}/email_provider`,
    params: branchParams,
    body: EmailServerRequest,
    success: EmailServer,
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `GET …/auth/allow_localhost`: `{ allow_localhost }` (§26.6). 404 for an unknown project or
   * branch, or a branch without auth.
   */
  getAllowLocalhost: Endpoint.make({
    method: "GET",
    route: `${authRoute}/allow_localhost`,
    params: branchParams,
    success: AllowLocalhost,
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `PATCH …/auth/allow_localhost`: sets `allow_localhost`; answers it (§26.6). 404 as for a read.
   */
  updateAllowLocalhost: Endpoint.make({
    method: "PATCH",
    route: `${authRoute}/allow_localhost`,
    params: branchParams,
    body: AllowLocalhost,
    success: AllowLocalhost,
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `GET …/auth/plugins`: every setting in one answer, {@link AuthPluginConfigs} (§26.7). 404 for
   * an unknown project or branch, or a branch without auth.
   */
  getPlugins: Endpoint.make({
    method: "GET",
    route: `${authRoute}/plugins`,
    params: branchParams,
    success: AuthPluginConfigs,
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `PATCH …/auth/plugins/organization`: changes the fields given; answers the whole plugin
   * (§26.7). 400 for a limit below 1 or an unknown creator role; 404 as for a read.
   */
  updateOrganizationPlugin: Endpoint.make({
    method: "PATCH",
    route: `${authRoute}/plugins/organization`,
    params: branchParams,
    body: OrganizationPluginUpdateRequest,
    success: OrganizationPluginConfig,
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `PATCH …/auth/config` (internal in the document): sets the application `name` the auth emails
   * show; answers `{ name }` (§26.6). 404 as for a read.
   */
  updateConfig: Endpoint.make({
    method: "PATCH",
    route: `${authRoute}/config`,
    params: branchParams,
    body: AuthConfigUpdateRequest,
    success: AuthConfig,
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `PATCH …/auth/plugins/magic-link`: changes the fields given; answers the whole plugin
   * (§26.7). 400 for `expires_in` outside 5 to 1440 minutes; 404 as for a read.
   */
  updateMagicLinkPlugin: Endpoint.make({
    method: "PATCH",
    route: `${authRoute}/plugins/magic-link`,
    params: branchParams,
    body: MagicLinkPluginUpdateRequest,
    success: MagicLinkPluginConfig,
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `GET …/auth/plugins/phone-number`: the phone-number plugin (§26.7). 404 for an unknown
   * project or branch, or a branch without auth.
   */
  getPhoneNumberPlugin: Endpoint.make({
    method: "GET",
    route: `${authRoute}/plugins/phone-number`,
    params: branchParams,
    success: PhoneNumberPluginConfig,
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `PATCH …/auth/plugins/phone-number`: changes the fields given; answers the whole plugin
   * (§26.7). 400 for `otp_expires_in` outside 60 to 600 seconds; 404 as for a read.
   */
  updatePhoneNumberPlugin: Endpoint.make({
    method: "PATCH",
    route: `${authRoute}/plugins/phone-number`,
    params: branchParams,
    body: PhoneNumberPluginUpdateRequest,
    success: PhoneNumberPluginConfig,
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `GET …/auth/webhooks`: the webhook configuration (§26.8). 404 for an unknown project or
   * branch, or a branch without auth.
   */
  getWebhooks: Endpoint.make({
    method: "GET",
    route: `${authRoute}/webhooks`,
    params: branchParams,
    success: AuthWebhookConfig,
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `PUT …/auth/webhooks`: replaces the whole webhook configuration; answers it (§26.8). 400 for
   * an unknown event, a timeout outside 1 to 10 seconds, or an enabled webhook without an
   * absolute `https` URL; 404 as for a read.
   */
  updateWebhooks: Endpoint.make({
    method: "PUT",
    route: `${authRoute}/webhooks`,
    params: branchParams,
    body: AuthWebhookUpdateRequest,
    success: AuthWebhookConfig,
    errors: ["BadRequest", "NotFound"]
  })
})
