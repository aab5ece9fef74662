/**
 * The project endpoints: list the account's projects and those shared with it, create, read, update and delete a project, recover a deleted one, list the shared preload libraries it may enable, read its advisor's issues (`docs/contract.md` §2.4, §10.4, §10.6, §14, §18).
 *
 * @since 0.4.0
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import {
  AdvisorIssues,
  AvailablePreloadLibraries,
  ProjectCreateRequest,
  ProjectCreated,
  ProjectDeleted,
  ProjectEnvelope,
  ProjectOperations,
  ProjectRecovered,
  ProjectUpdateRequest,
  ProjectsPage
} from "../Project.js"
import { BranchIdInput, Cursor, IntegerParameter, PageLimit, projectParams, withMessage } from "../internal/input.js"

/**
 * `org_id`: an organization id, `^[a-z0-9-]{1,60}$` like a project id (§10.4).
 *
 * @since 0.4.0
 * @category schemas
 */
export const OrgId = Schema.String.pipe(Schema.pattern(/^[a-z0-9-]{1,60}$/)).annotations(
  withMessage("must be 1 to 60 of a-z, 0-9 and -")
)

/**
 * The page size of `GET /projects`: 1 to 400, 10 when no `limit` is sent (observed behaviour
 * of the deployed API, §10.4).
 *
 * @since 0.4.0
 * @category endpoints
 */
export const projectsPageLimits: Endpoint.PageLimits = { max: 400, default: 10 }

/** The query both project lists take: `limit`, `cursor`, `search`, `timeout` (ms). */
const projectsQuery = {
  limit: Schema.optional(PageLimit(projectsPageLimits)),
  cursor: Schema.optional(Cursor),
  search: Schema.optional(Schema.String),
  timeout: Schema.optional(IntegerParameter(100, 30_000, " (milliseconds)"))
}

/**
 * The project endpoints: list the account's projects and those shared with it, create, read, update and delete a project, recover a deleted one, list the shared preload libraries it may enable, read its advisor's issues (`docs/contract.md` §2.4, §10.4, §10.6, §14, §18).
 *
 * @since 0.4.0
 * @category endpoints
 */
export const Projects = Endpoint.group("Projects", {
  /**
   * `GET /projects`: one page of the account's projects (§2.4, §4, §10.4). Query: `limit`
   * (1 to 400), `cursor`, `search` (part of a name or id), `org_id` (the organization's
   * projects), `timeout` (100 to 30 000 ms: the server answers with what it read by then, and
   * lists the projects it could not read in `unavailable_project_ids`). 400 for a query the
   * server refuses. Since 0.5.0, `recoverable=true` lists only the deleted projects that can
   * still be recovered, each with `deleted_at` and `recoverable_until` (`docs/contract.md` §18).
   */
  list: Endpoint.make({
    method: "GET",
    route: "/projects",
    query: Schema.Struct({
      ...projectsQuery,
      org_id: Schema.optional(OrgId),
      recoverable: Schema.optional(Schema.BooleanFromString.annotations(withMessage("must be true or false")))
    }),
    success: ProjectsPage,
    errors: ["BadRequest"],
    pageLimits: projectsPageLimits,
    list: { items: (page) => page.projects, cursor: (page) => page.pagination?.cursor }
  }),
  /**
   * `GET /projects/shared`: one page of the projects other accounts shared with this one (§2.4,
   * §10.6): the same page, limits and query as `GET /projects` (`limit` 1 to 400, 10 by
   * default; `cursor`, `search`, `timeout`) but `org_id`, which it does not take. 400 for a query
   * the server refuses.
   */
  listShared: Endpoint.make({
    method: "GET",
    route: "/projects/shared",
    query: Schema.Struct(projectsQuery),
    success: ProjectsPage,
    errors: ["BadRequest"],
    pageLimits: projectsPageLimits,
    list: { items: (page) => page.projects, cursor: (page) => page.pagination?.cursor }
  }),
  /**
   * `POST /projects`: creates a project with its default branch (`main`), a read_write compute
   * endpoint on it, a role (`neondb_owner`) and a database (`neondb`) owned by it, and answers 201
   * with all of them, the connection URIs to the database (secrets) and the operations started:
   * `create_timeline`, then `start_compute` (§14). 400 for a body the server refuses.
   */
  create: Endpoint.make({
    method: "POST",
    route: "/projects",
    body: ProjectCreateRequest,
    success: ProjectCreated,
    statuses: [201],
    startsOperations: true,
    errors: ["BadRequest"],
    readBack: {
      entry: (): Endpoint.Named<"Projects.get"> => Projects.get,
      input: ({ project }) => ({ project_id: project.id })
    }
  }),
  /**
   * `GET /projects/{project_id}`: one project, `{ project }` (§14). 404 for an unknown (or
   * deleted) project, 403 for one the key may not see, 400 for a malformed id.
   */
  get: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}",
    params: projectParams,
    success: ProjectEnvelope,
    errors: ["NotFound", "Forbidden", "BadRequest"],
    about: ({ project }) => ({ project_id: project.id })
  }),
  /**
   * `PATCH /projects/{project_id}`: renames a project, changes its history retention (which starts
   * `apply_storage_config`) or its default compute endpoint settings; answers the project and the
   * operations started (§14). 404 for an unknown project, 423 while a conflicting operation runs.
   */
  update: Endpoint.make({
    method: "PATCH",
    route: "/projects/{project_id}",
    params: projectParams,
    body: ProjectUpdateRequest,
    success: ProjectOperations,
    startsOperations: true,
    errors: ["BadRequest", "NotFound", "Forbidden", "Locked"],
    about: ({ project }) => ({ project_id: project.id }),
    readBack: {
      entry: (): Endpoint.Named<"Projects.get"> => Projects.get,
      input: ({ project }) => ({ project_id: project.id })
    }
  }),
  /**
   * `DELETE /projects/{project_id}`: deletes a project and everything in it (branches, compute
   * endpoints, roles, databases, operations); answers the project as it was. Its data is deleted
   * by a `delete_tenant` operation that no read can reach: every later read of the project
   * answers 404 (§14). 404 for an unknown project, 423 while a conflicting operation runs.
   */
  delete: Endpoint.make({
    method: "DELETE",
    route: "/projects/{project_id}",
    params: projectParams,
    success: ProjectDeleted,
    errors: ["BadRequest", "NotFound", "Forbidden", "Locked"],
    about: ({ project }) => ({ project_id: project.id })
  }),
  /**
   * `POST /projects/{project_id}/recover`: brings back a project deleted less than 7 days ago,
   * with its branches, compute endpoints (`idle`), roles, databases and operations; answers 200
   * `{ project, branches }` and starts no operations (`docs/contract.md` §18). 404 for a project
   * that is neither deleted nor live (or deleted more than 7 days ago), 409 for one that is not
   * deleted, 403, 400 for a malformed id.
   */
  recover: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/recover",
    params: projectParams,
    success: ProjectRecovered,
    errors: ["BadRequest", "NotFound", "Forbidden", "Conflict"],
    about: ({ project }) => ({ project_id: project.id })
  }),
  /**
   * `GET /projects/{project_id}/available_preload_libraries`: the shared preload libraries
   * available for the project's Postgres version, `{ libraries? }`, each `{ library_name,
   * description, is_default, is_experimental, version }`: the names
   * `settings.preload_libraries.enabled_libraries` takes (one takes effect once the compute
   * restarts) (`docs/contract.md` §14.5). One answer, not paged. 404 for an unknown (or deleted)
   * project, 403 for one the key may not see, 400 for a malformed id.
   */
  listAvailablePreloadLibraries: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/available_preload_libraries",
    params: projectParams,
    success: AvailablePreloadLibraries,
    errors: ["NotFound", "Forbidden", "BadRequest"],
    list: { items: (answer) => answer.libraries ?? [] }
  }),
  /**
   * `GET /projects/{project_id}/advisors`: the security and performance issues the advisor finds
   * in a database, `{ issues }` (§14.6); an alpha of the platform. Query: `branch_id` (the
   * default branch without it), `database_name` (needed when the branch has several),
   * `category` (`SECURITY` or `PERFORMANCE`), `min_severity` (`INFO`, `WARN` or `ERROR`: that
   * level and those above). Needs the Data API on the database. One answer, not paged. 404 for
   * an unknown project, branch or database, 400 for a query refused or a database without the
   * Data API, 403 for a project the key may not see.
   */
  listAdvisorIssues: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/advisors",
    params: projectParams,
    query: Schema.Struct({
      branch_id: Schema.optional(BranchIdInput),
      database_name: Schema.optional(
        Schema.String.pipe(Schema.minLength(1)).annotations(withMessage("must not be empty"))
      ),
      category: Schema.optional(
        Schema.Literal("SECURITY", "PERFORMANCE").annotations(withMessage("must be SECURITY or PERFORMANCE"))
      ),
      min_severity: Schema.optional(
        Schema.Literal("INFO", "WARN", "ERROR").annotations(withMessage("must be INFO, WARN or ERROR"))
      )
    }),
    success: AdvisorIssues,
    errors: ["NotFound", "Forbidden", "BadRequest"],
    list: { items: (answer) => answer.issues }
  })
})
