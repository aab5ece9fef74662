/**
 * The identity endpoints: who the key acts for (`GET /users/me`), the organizations that user
 * belongs to, and how the request was authenticated (`GET /auth`) (`docs/contract.md` §20).
 *
 * @since 0.5.0
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import { openEnum } from "../internal/openEnum.js"
import { BillingSubscriptionType } from "../Project.js"
import { Timestamp } from "../Timestamp.js"
import { Organization } from "./Organizations.js"

/**
 * An identity provider account linked to the user (§20): its `provider` (`github`, `google`,
 * `hasura`, `microsoft`, `microsoftv2`, `vercelmp`, `keycloak`: open), `email`, `name`,
 * `image` (a URL, may be empty) and `login` (deprecated by the platform: the email).
 *
 * @since 0.5.0
 * @category schemas
 */
export class UserAuthAccount extends Schema.Class<UserAuthAccount>("UserAuthAccount")({
  provider: Schema.String,
  email: Schema.String,
  name: Schema.String,
  login: Schema.String,
  image: Schema.String
}) {}

/** An open enum of `known` values, named `identifier`. */
const open = <const Known extends readonly [string, ...Array<string>]>(identifier: string, ...known: Known) =>
  openEnum(Schema.Literal(...known), identifier)

/**
 * A billing account's state (§20), known today: `UNKNOWN`, `active`, `suspended`, `deactivated`,
 * `deleted`; any other string kept as is.
 *
 * @since 0.5.0
 * @category schemas
 */
export const BillingAccountState = open(
  "BillingAccountState",
  "UNKNOWN",
  "active",
  "suspended",
  "deactivated",
  "deleted"
)

/**
 * How a billing account pays (§20), known today: `UNKNOWN`, `none`, `stripe`, `direct_payment`,
 * `aws_mp`, `azure_mp`, `vercel_mp`, `staff`, `trial`, `sponsorship`, `shared_payment_token`; any
 * other string kept as is.
 *
 * @since 0.5.0
 * @category schemas
 */
export const BillingPaymentMethod = open(
  "BillingPaymentMethod",
  "UNKNOWN",
  "none",
  "stripe",
  "direct_payment",
  "aws_mp",
  "azure_mp",
  "vercel_mp",
  "staff",
  "trial",
  "sponsorship",
  "shared_payment_token"
)

/**
 * A card a billing account pays with (§20): its `last4` digits, `brand` (`amex`, `diners`,
 * `discover`, `jcb`, `mastercard`, `unionpay`, `unknown`, `visa`: open), and expiry month and
 * year.
 *
 * @since 0.5.0
 * @category schemas
 */
export class PaymentCard extends Schema.Class<PaymentCard>("PaymentCard")({
  last4: Schema.String,
  brand: Schema.optional(
    open("PaymentCardBrand", "amex", "diners", "discover", "jcb", "mastercard", "unionpay", "unknown", "visa")
  ),
  exp_month: Schema.optional(Schema.Int),
  exp_year: Schema.optional(Schema.Int)
}) {}

/**
 * The billing account of the user the key acts for (§20): its `state`, how it pays
 * (`payment_source`: its `type`, e.g. `card`, and the `card`; `payment_method`), its
 * `subscription_type`, `quota_reset_at_last` (when its quota was last reset), who is billed
 * (`name`, `email`, the address fields, `tax_id` and `tax_id_type`), `orb_portal_url`,
 * `plan_details` (`name`, `version`) and `spending_limit_cents` (a monthly cap in cents; `null`
 * read as absent: no cap).
 *
 * @since 0.5.0
 * @category schemas
 */
export class BillingAccount extends Schema.Class<BillingAccount>("BillingAccount")({
  state: BillingAccountState,
  payment_source: Schema.Struct({ type: Schema.String, card: Schema.optional(PaymentCard) }),
  subscription_type: BillingSubscriptionType,
  payment_method: BillingPaymentMethod,
  quota_reset_at_last: Timestamp,
  name: Schema.String,
  email: Schema.String,
  address_city: Schema.String,
  address_country: Schema.String,
  address_country_name: Schema.optional(Schema.String),
  address_line1: Schema.String,
  address_line2: Schema.String,
  address_postal_code: Schema.String,
  address_state: Schema.String,
  orb_portal_url: Schema.optional(Schema.String),
  tax_id: Schema.optional(Schema.String),
  tax_id_type: Schema.optional(Schema.String),
  plan_details: Schema.optional(
    Schema.Struct({
      name: Schema.String,
      version: Schema.optional(Schema.Struct({ major: Schema.Int, minor: Schema.Int }))
    })
  ),
  spending_limit_cents: Schema.optionalWith(Schema.Int, { nullable: true })
}) {}

/**
 * Answer of `GET /users/me`: the user the key acts for (§20): `id`, `email`, `name`,
 * `last_name`, `image`, `login` (deprecated: the email), `plan`, `auth_accounts`, and limits:
 * `projects_limit` and `branches_limit` (counts), `active_seconds_limit` and, where sent,
 * `compute_seconds_limit` (seconds), `max_autoscaling_limit` (compute units; 0: none); since
 * 0.5.0 `billing_account` ({@link BillingAccount}), where the platform sends it.
 *
 * @since 0.5.0
 * @category schemas
 */
export class CurrentUser extends Schema.Class<CurrentUser>("CurrentUser")({
  id: Schema.String,
  email: Schema.String,
  login: Schema.String,
  name: Schema.String,
  last_name: Schema.String,
  image: Schema.String,
  plan: Schema.String,
  auth_accounts: Schema.Array(UserAuthAccount),
  projects_limit: Schema.Int,
  branches_limit: Schema.Int,
  active_seconds_limit: Schema.Int,
  compute_seconds_limit: Schema.optional(Schema.Int),
  max_autoscaling_limit: Schema.Number,
  billing_account: Schema.optional(BillingAccount)
}) {}

/**
 * Answer of `GET /users/me/organizations`: `{ organizations }` (§20).
 *
 * @since 0.5.0
 * @category schemas
 */
export class UserOrganizations extends Schema.Class<UserOrganizations>("UserOrganizations")({
  organizations: Schema.Array(Organization)
}) {}

/**
 * The ways a request is authenticated, known today: `api_key_user` (a personal API key),
 * `api_key_org` (an organization's API key), and the console's `keycloak`, `session_cookie`
 * and `oauth` (§20).
 *
 * @since 0.5.0
 * @category schemas
 */
export const KnownAuthMethod = Schema.Literal("keycloak", "session_cookie", "api_key_user", "api_key_org", "oauth")

/**
 * How a request was authenticated: one of {@link KnownAuthMethod}, or any other string a newer
 * server sends (kept as is).
 *
 * @since 0.5.0
 * @category schemas
 */
export type AuthMethod = typeof KnownAuthMethod.Type | (string & {})

/**
 * Open enum schema of {@link AuthMethod}.
 *
 * @since 0.5.0
 * @category schemas
 */
export const AuthMethod: Schema.Schema<AuthMethod> = openEnum(KnownAuthMethod, "AuthMethod")

/**
 * Answer of `GET /auth`: `account_id` (the account the credentials act for: a user's id for a
 * personal key, the organization's for an organization's key), `auth_method`, and `auth_data`
 * where the platform sends more (§20).
 *
 * @since 0.5.0
 * @category schemas
 */
export class AuthDetails extends Schema.Class<AuthDetails>("AuthDetails")({
  account_id: Schema.String,
  auth_method: AuthMethod,
  auth_data: Schema.optional(Schema.String)
}) {}

/**
 * The identity endpoints (§20).
 *
 * @since 0.5.0
 * @category endpoints
 */
export const Users = Endpoint.group("Users", {
  /** `GET /users/me`: the user the key acts for, with the plan and its limits (§20). */
  me: Endpoint.make({
    method: "GET",
    route: "/users/me",
    success: CurrentUser,
    errors: []
  }),
  /**
   * `GET /users/me/organizations`: the organizations the user is a member of; for an
   * organization's key, the one organization that owns it. `{ organizations }`, not paged (§20).
   */
  listOrganizations: Endpoint.make({
    method: "GET",
    route: "/users/me/organizations",
    success: UserOrganizations,
    errors: [],
    list: { items: (answer) => answer.organizations }
  }),
  /** `GET /auth`: how this request was authenticated, and the account it acts for (§20). */
  auth: Endpoint.make({
    method: "GET",
    route: "/auth",
    success: AuthDetails,
    errors: []
  })
})
