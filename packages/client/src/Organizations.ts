/**
 * Organizations: one organization (`get`), its members (`listMembers`, a `Stream` that follows
 * the list's `pagination.next`; `listMembersPage`; `getMember`, `updateMember`, `removeMember`)
 * and its invitations (`listInvitations`, `listInvitationsPage`, `createInvitations`), and its
 * monthly spending limit in cents (`getSpendingLimit`, `setSpendingLimit`, `deleteSpendingLimit`)
 * (`docs/contract.md` §20, §20.5).
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
 * The `Organizations` service: one method per entry of core's `Api.Organizations` group, each called with one
 * input object whose keys are the wire's path, query and body names, answering the wire's shape,
 * and failing with exactly the errors its entry declares (`docs/design.md` §1.3). A list is a `Stream` of its items (`listMembers`, page after page along
 * `pagination.next`; `listInvitations`), and its one request `listMembersPage`, `listInvitationsPage`.
 *
 * @since 0.5.0
 */
export interface Service extends Resource.Methods<typeof Api.Organizations> {}

/**
 * The tag of the {@link Service}; `yield* Organizations.Organizations` in a program, provided by {@link layer}
 * or `DbPlatform.layer`.
 *
 * @since 0.5.0
 * @category tags
 */
export class Organizations extends Context.Tag("@dbplatform/client/Organizations")<Organizations, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.5.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.map(DbPlatformClient, (client) =>
  Organizations.of(Resource.methods(client, Api.Organizations))
)

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.5.0
 * @category layers
 */
export const layer: Layer.Layer<Organizations, never, DbPlatformClient> = Layer.effect(Organizations, make)
