/**
 * Organization API keys: list, create (the value shown once, `Redacted`; optionally scoped to one
 * project) and revoke the keys of an organization (`docs/contract.md` §21). `create` is never
 * sent twice for one call unless the server answered 423, 429 or 503 (it did not act): after a
 * 5xx or no response the call fails, and a key may have been created (list the keys to find out).
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
 * The `OrganizationApiKeys` service: one method per entry of core's `Api.OrganizationApiKeys`
 * group, each called with one input object whose keys are the wire's path, query and body names
 * (`{ org_id, key_name, project_id }`), answering the wire's shape, and failing with exactly the
 * errors its entry declares (`docs/design.md` §1.3). `list` is a `Stream` of the keys, and its
 * one request `listPage` (the bare array).
 *
 * @since 0.5.0
 */
export interface Service extends Resource.Methods<typeof Api.OrganizationApiKeys> {}

/**
 * The tag of the {@link Service}; `yield* OrganizationApiKeys.OrganizationApiKeys` in a program,
 * provided by {@link layer} or `DbPlatform.layer`.
 *
 * @since 0.5.0
 * @category tags
 */
export class OrganizationApiKeys extends Context.Tag("@dbplatform/client/OrganizationApiKeys")<
  OrganizationApiKeys,
  Service
>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.5.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.map(DbPlatformClient, (client) =>
  OrganizationApiKeys.of(Resource.methods(client, Api.OrganizationApiKeys))
)

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.5.0
 * @category layers
 */
export const layer: Layer.Layer<OrganizationApiKeys, never, DbPlatformClient> = Layer.effect(OrganizationApiKeys, make)
