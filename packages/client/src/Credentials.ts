/**
 * Credentials: a branch's scoped service credentials for its object storage, AI gateway and
 * functions: list (`list`, a `Stream`; `listPage`), create (its `api_token` and
 * `s3_secret_access_key` shown this once, `Redacted`), revoke (`docs/contract.md` §11.7).
 *
 * @since 0.5.0
 */
import * as Api from "@dbplatform/core/Api"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { DbPlatformClient } from "./DbPlatformClient.js"
import * as Resource from "./Resource.js"

/**
 * The `Credentials` service: one method per entry of core's `Api.Credentials` group (`list`,
 * `create`, `revoke`), each called with one input object whose keys are the wire's path and body
 * names, answering the wire's shape, and failing with exactly the errors its entry declares
 * (`docs/design.md` §1.3). `list` streams the branch's credentials (revoked ones too, with their
 * `revoked_at`), `listPage` answers `{ credentials }`; `create` answers the secrets `Redacted`;
 * `revoke` answers `void` (a 204), again for a credential revoked already.
 *
 * @since 0.5.0
 */
export interface Service extends Resource.Methods<typeof Api.Credentials> {}

/**
 * The tag of the {@link Service}; `yield* Credentials.Credentials` in a program, provided by {@link layer}
 * or `DbPlatform.layer`.
 *
 * @since 0.5.0
 * @category tags
 */
export class Credentials extends Context.Tag("@dbplatform/client/Credentials")<Credentials, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.5.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.map(DbPlatformClient, (client) =>
  Credentials.of(Resource.methods(client, Api.Credentials))
)

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.5.0
 * @category layers
 */
export const layer: Layer.Layer<Credentials, never, DbPlatformClient> = Layer.effect(Credentials, make)
