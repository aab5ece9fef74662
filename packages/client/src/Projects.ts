/**
 * Projects: list the account's projects (every one as a `Stream`, or one page), list the projects
 * other accounts shared with it, create, read, update and delete a project, and (since 0.5.0)
 * list the deleted ones (`recoverable: true`), recover one within its 7 days (`recover`) and
 * list the shared preload libraries a project may enable (`listAvailablePreloadLibraries`) and
 * the issues its advisor finds in a database (`listAdvisorIssues`)
 * (`docs/contract.md` §2.4, §10.4, §10.6, §14, §14.5, §14.6, §18). A page's `unavailable_project_ids` (projects the server could not read
 * within `timeout`) are not part of the stream: `listPage` shows them.
 *
 * @since 0.1.0
 */
import * as Api from "@dbplatform/core/Api"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { DbPlatformClient } from "./DbPlatformClient.js"
import { finished } from "./internal/wait.js"
import * as Operations from "./Operations.js"
import * as Resource from "./Resource.js"

/**
 * The largest `limit` of `GET /projects`: 400 (observed behaviour of the deployed API,
 * `docs/contract.md` §10.4; from core's `Api.projectsPageLimits`).
 *
 * @since 0.1.0
 */
export const maxPageSize = Api.projectsPageLimits.max

/**
 * The `Projects` service: one method per entry of core's `Api.Projects` group, each called with
 * one input object whose keys are the wire's path, query and body names (`org_id`, `search`,
 * `timeout` in ms from 100 to 30 000...), answering the wire's shape, and failing with exactly
 * the errors its entry declares (`docs/design.md` §1.3). `list` and `listShared` are `Stream`s of
 * every project, fetching the next page only when the consumer pulls (one page in memory; a
 * cursor sent twice or a page longer than `pageSize` fails them with `MalformedResponse`);
 * `listPage` and `listSharedPage` answer one page (more projects than `limit`, or than 400
 * without one, is a `MalformedResponse`). `create` and `update` take `{ wait: true }` (or how to
 * wait) to answer only once their operations have finished, with them as they ended and the
 * project read again (`Resource.MutationOptions`); by default they answer at once.
 * `listAvailablePreloadLibraries({ project_id })` is a `Stream` of the shared preload libraries
 * available for the project's Postgres version, each `{ library_name, description, is_default,
 * is_experimental, version }` (`version` a string), the names
 * `settings.preload_libraries.enabled_libraries` takes; `listAvailablePreloadLibrariesPage`
 * answers `{ libraries? }` whole (one request, not paged). Both fail with `NotFound` (an unknown
 * or deleted project), `Forbidden`, `BadRequest`, `InvalidRequest` (a malformed `project_id`,
 * nothing sent) or a `CallError` (`docs/contract.md` §14.5).
 *
 * @since 0.1.0
 */
export interface Service extends Resource.Methods<typeof Api.Projects, Operations.ReadError> {}

/**
 * The tag of the {@link Service}; `yield* Projects.Projects` in a program, provided by
 * {@link layer} or `DbPlatform.layer`.
 *
 * @since 0.1.0
 * @category tags
 */
export class Projects extends Context.Tag("@dbplatform/client/Projects")<Projects, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` and `Operations` in context.
 *
 * @since 0.1.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient | Operations.Operations> = Effect.gen(function* () {
  const client = yield* DbPlatformClient
  const operations = yield* Operations.Operations
  return Projects.of(Resource.methods(client, Api.Projects, finished(operations)))
})

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` and `Operations`
 * (`DbPlatform.layer` provides them).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Projects, never, DbPlatformClient | Operations.Operations> = Layer.effect(
  Projects,
  make
)
