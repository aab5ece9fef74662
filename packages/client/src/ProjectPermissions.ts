/**
 * ProjectPermissions: the project permissions: who else has access to a project, by email (`list`, `listPage`:
 * `{ project_permissions }`), `grant` and `revoke` (`docs/contract.md` §22.1).
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
 * The `ProjectPermissions` service: one method per entry of core's `Api.ProjectPermissions` group, each called with
 * one input object whose keys are the wire's path, query and body names, answering the wire's
 * shape, and failing with exactly the errors its entry declares (`docs/design.md` §1.3). A list
 * is a `Stream` of its items, and its one request `<key>Page`.
 *
 * @since 0.5.0
 */
export interface Service extends Resource.Methods<typeof Api.ProjectPermissions> {}

/**
 * The tag of the {@link Service}; `yield* ProjectPermissions.ProjectPermissions` in a program, provided by
 * {@link layer} or `DbPlatform.layer`.
 *
 * @since 0.5.0
 * @category tags
 */
export class ProjectPermissions extends Context.Tag("@dbplatform/client/ProjectPermissions")<
  ProjectPermissions,
  Service
>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.5.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.map(DbPlatformClient, (client) =>
  ProjectPermissions.of(Resource.methods(client, Api.ProjectPermissions))
)

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.5.0
 * @category layers
 */
export const layer: Layer.Layer<ProjectPermissions, never, DbPlatformClient> = Layer.effect(ProjectPermissions, make)
