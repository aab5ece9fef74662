/**
 * BranchAuth: the auth service of a branch (enable, read, disable), its trusted redirect domains
 * and its OAuth providers, its users, sign-in by email and password, email provider, plugins and
 * webhooks, and the two `Auth (legacy)` routes (`docs/contract.md` §26). The keys an enable (or
 * the legacy `createAuthProviderSdkKeys`) answers (`pub_client_key`, `secret_server_key`), OAuth
 * client secrets and an SMTP server's host, username and password are `Redacted`.
 *
 * @since 0.5.0
 */
import { Api } from "@dbplatform/core"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { DbPlatformClient } from "./DbPlatformClient.js"
import * as Resource from "./Resource.js"

/**
 * The `BranchAuth` service: one method per entry of core's `Api.BranchAuth` group (`get`,
 * `create`, `disable`, `listDomains`, `addDomain`, `deleteDomains`, `listOAuthProviders`,
 * `addOAuthProvider`, `updateOAuthProvider`, `deleteOAuthProvider`; the users: `createUser`,
 * `deleteUser`, `updateUserRole`; sign-in and email: `getEmailAndPassword`,
 * `updateEmailAndPassword`, `getEmailProvider`, `updateEmailProvider`, `sendTestEmail`,
 * `getAllowLocalhost`, `updateAllowLocalhost`, `updateConfig`; the plugins: `getPlugins`,
 * `updateOrganizationPlugin`, `updateMagicLinkPlugin`, `getPhoneNumberPlugin`,
 * `updatePhoneNumberPlugin`; the webhooks: `getWebhooks`, `updateWebhooks`; **legacy**:
 * `createAuthProviderSdkKeys`, `transferAuthProviderProject`), each called with one input object
 * whose keys are the wire's path and body names (for the email provider's union body, its `type`
 * too: `{ project_id, branch_id, type: "shared" }`), answering the wire's shape, and failing with
 * exactly the errors its entry declares (`docs/design.md` §1.3). A list is a `Stream` of its
 * items (`listDomains`), and its one request `listDomainsPage`.
 *
 * @since 0.5.0
 */
export interface Service extends Resource.Methods<typeof Api.BranchAuth> {}

/**
 * The tag of the {@link Service}; `yield* BranchAuth.BranchAuth` in a program, provided by
 * {@link layer} or `DbPlatform.layer`.
 *
 * @since 0.5.0
 * @category tags
 */
export class BranchAuth extends Context.Tag("@dbplatform/client/BranchAuth")<BranchAuth, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.5.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.map(DbPlatformClient, (client) =>
  BranchAuth.of(Resource.methods(client, Api.BranchAuth))
)

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.5.0
 * @category layers
 */
export const layer: Layer.Layer<BranchAuth, never, DbPlatformClient> = Layer.effect(BranchAuth, make)
