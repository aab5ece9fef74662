/**
 * Users: who the key acts for (`me`), the organizations that user belongs to, as `Stream`
 * (`listOrganizations`) or one request (`listOrganizationsPage`, `{ organizations }`), and how a
 * request is authenticated (`auth`) (`docs/contract.md` §20).
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
 * The `Users` service: one method per entry of core's `Api.Users` group, each called with one
 * input object whose keys are the wire's path, query and body names, answering the wire's shape,
 * and failing with exactly the errors its entry declares (`docs/design.md` §1.3). A list is a `Stream` of its items (`listOrganizations`), and its one request
 * `listOrganizationsPage`.
 *
 * @since 0.5.0
 */
export interface Service extends Resource.Methods<typeof Api.Users> {}

/**
 * The tag of the {@link Service}; `yield* Users.Users` in a program, provided by {@link layer}
 * or `DbPlatform.layer`.
 *
 * @since 0.5.0
 * @category tags
 */
export class Users extends Context.Tag("@dbplatform/client/Users")<Users, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.5.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.map(DbPlatformClient, (client) =>
  Users.of(Resource.methods(client, Api.Users))
)

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.5.0
 * @category layers
 */
export const layer: Layer.Layer<Users, never, DbPlatformClient> = Layer.effect(Users, make)
