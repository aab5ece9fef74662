/**
 * Projects: one page of the project list, or every project as a `Stream`
 * (`docs/contract.md` §2.4, §4, §10.4); the same for the projects other accounts shared with
 * this one (`GET /projects/shared`, §10.6); and since 0.3.0 create, read, update and delete a
 * project (§14), each core's table entry (`Endpoint.projects`).
 *
 * @since 0.1.0
 */
import { type BadRequest, Endpoint, type InvalidRequest, type Project, type ProjectsPage } from "@dbplatform/core"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Stream from "effect/Stream"
import { type CallError, DbPlatformClient } from "./DbPlatformClient.js"
import { paginate } from "./internal/pagination.js"
import * as Resource from "./Resource.js"

/**
 * The largest `limit` of `GET /projects`: 400 (observed behaviour of the deployed API,
 * `docs/contract.md` §10.4; from core's `Endpoint.listProjects`).
 *
 * @since 0.1.0
 */
export const maxPageSize = Endpoint.projectsPageLimits.max

/**
 * Which projects to list, for `page` and `list` (§10.4).
 *
 * @since 0.2.0
 */
export interface Filter {
  /** Only projects whose name or id contains this text. */
  readonly search?: string | undefined
  /** Only the projects of this organization (`^[a-z0-9-]{1,60}$`). */
  readonly orgId?: string | undefined
  /**
   * How long the server may take to read the projects, 100 ms to 30 s, sent in whole ms; it
   * then answers with what it read, and names the projects it could not read in the page's
   * `unavailable_project_ids`.
   */
  readonly timeout?: Duration.DurationInput | undefined
}

/**
 * Options of `page`: one page of `GET /projects` (§2.6, §4).
 *
 * @since 0.1.0
 */
export interface PageOptions extends Filter {
  /** Projects per page, 1 to 400; the deployed API's default is 10 (observed behaviour, §10.4). */
  readonly limit?: number | undefined
  /** The `pagination.cursor` of the previous page. */
  readonly cursor?: string | undefined
}

/**
 * Options of `list`: the stream of all projects.
 *
 * @since 0.1.0
 */
export interface ListOptions extends Filter {
  /** Projects fetched per request, 1 to 400; 100 by default. */
  readonly pageSize?: number | undefined
}

/**
 * Which shared projects to list, for `sharedPage` and `listShared`: the {@link Filter} of
 * `GET /projects` but `orgId`, which `GET /projects/shared` does not take (§10.6).
 *
 * @since 0.2.0
 */
export interface SharedFilter {
  /** Only projects whose name or id contains this text. */
  readonly search?: string | undefined
  /**
   * How long the server may take to read the projects, 100 ms to 30 s, sent in whole ms; it
   * then answers with what it read, and names the projects it could not read in the page's
   * `unavailable_project_ids`.
   */
  readonly timeout?: Duration.DurationInput | undefined
}

/**
 * Options of `sharedPage`: one page of `GET /projects/shared` (§2.6, §10.6).
 *
 * @since 0.2.0
 */
export interface SharedPageOptions extends SharedFilter {
  /** Projects per page, 1 to 400; the deployed API's default is 10 (observed behaviour, §10.6). */
  readonly limit?: number | undefined
  /** The `pagination.cursor` of the previous page. */
  readonly cursor?: string | undefined
}

/**
 * Options of `listShared`: the stream of all shared projects.
 *
 * @since 0.2.0
 */
export interface SharedListOptions extends SharedFilter {
  /** Projects fetched per request, 1 to 400; 100 by default. */
  readonly pageSize?: number | undefined
}

/**
 * The `Projects` service: one page of the project list, or every project as a `Stream` (§2.4, §4);
 * since 0.3.0, create, read, update and delete one (§14): each of those sends one request and
 * fails with exactly the errors of its endpoint (`InvalidRequest` for input the table's schemas
 * refuse, nothing sent; the statuses its entry declares; a `CallError`); an answer about another
 * project than the one asked for is a `MalformedResponse`. The lists fail with `InvalidRequest` for a `limit` or `pageSize` out of 1..400, an `orgId` that is
 * not `^[a-z0-9-]{1,60}$` or a `timeout` out of 100 ms..30 s (nothing is sent), with
 * `BadRequest` when the server refuses the query, and with a `CallError`.
 *
 * @since 0.1.0
 */
export interface Service {
  /**
   * `GET /projects`: one page. A page with more projects than the `limit` (400 without one)
   * fails with `MalformedResponse`.
   */
  readonly page: (options?: PageOptions) => Effect.Effect<ProjectsPage, InvalidRequest | BadRequest | CallError>
  /**
   * Every project, fetching the next page only when the consumer pulls (one page in memory).
   * A full page whose cursor the server already sent in this walk fails the stream with
   * `MalformedResponse` at once (a server that would loop), as does a page longer than
   * `pageSize`. Pages' `unavailable_project_ids` (projects the server could not read in time)
   * are not part of the stream: use `page` to see them.
   */
  readonly list: (options?: ListOptions) => Stream.Stream<Project, InvalidRequest | BadRequest | CallError>
  /**
   * `GET /projects/shared`: one page of the projects other accounts shared with this one
   * (§10.6; `list` and `page` do not hold them). Its checks and errors are those of `page`.
   */
  readonly sharedPage: (
    options?: SharedPageOptions
  ) => Effect.Effect<ProjectsPage, InvalidRequest | BadRequest | CallError>
  /**
   * Every project shared with this account, as `list` walks the account's own: one page in
   * memory, the same checks and errors (§10.6).
   */
  readonly listShared: (options?: SharedListOptions) => Stream.Stream<Project, InvalidRequest | BadRequest | CallError>
  /**
   * `POST /projects` (201) with `{ project: { name?, region_id?, pg_version?, history_retention_seconds?, default_endpoint_settings?, org_id?, branch?: { name?, role_name?, database_name? } } }`:
   * the project, its default branch, its read_write compute endpoint, role and database, the
   * connection URIs (`Redacted`) and `operations` (`create_timeline`, `start_compute`: wait for
   * them before the next change of the project). Since 0.3.0.
   */
  readonly create: Resource.Method<typeof Endpoint.createProject>
  /** `GET /projects/{p}`: `{ project }`; 404 `NotFound` for an unknown or deleted project. Since 0.3.0. */
  readonly get: Resource.Method<typeof Endpoint.getProject>
  /**
   * `PATCH /projects/{p}` with `{ project: { name?, history_retention_seconds?, default_endpoint_settings? } }`:
   * the project as changed and `operations` (`apply_storage_config` when the history retention
   * changes, else none). Since 0.3.0.
   */
  readonly update: Resource.Method<typeof Endpoint.updateProject>
  /**
   * `DELETE /projects/{p}`: the project as it was; it and everything in it are gone (later reads
   * answer 404 `NotFound`). Since 0.3.0.
   */
  readonly delete: Resource.Method<typeof Endpoint.deleteProject>
}

/**
 * The tag of the {@link Service}; `yield* Projects.Projects` in a program, provided by
 * {@link layer} or `DbPlatform.layer`.
 *
 * @since 0.1.0
 * @category tags
 */
export class Projects extends Context.Tag("@dbplatform/client/Projects")<Projects, Service>() {}

/** The query both project lists take (`org_id` aside), as values. */
const sharedQuery = (options: SharedPageOptions) => ({
  limit: options.limit,
  cursor: options.cursor,
  search: options.search,
  timeout: options.timeout === undefined ? undefined : Math.round(Duration.toMillis(options.timeout))
})

/** `check`, after refusing a page with more projects than asked for (or than 400). */
const checkLength =
  (options: SharedPageOptions, check: (page: ProjectsPage) => string | undefined) => (page: ProjectsPage) => {
    const limit = options.limit ?? maxPageSize
    return page.projects.length > limit
      ? `the page has ${page.projects.length} projects, more than the limit of ${limit}`
      : check(page)
  }

/** What is wrong with `project` as the answer about the project `params` names, if anything. */
const notAbout = (
  { params }: { readonly params: { readonly project_id: string } },
  { project }: { readonly project: Project }
): string | undefined =>
  project.id === params.project_id ? undefined : `the answer is about project ${project.id}, not ${params.project_id}`

/** The table entries of the one-request methods (the lists have methods of their own). */
const { page: _page, sharedPage: _sharedPage, ...entries } = Endpoint.projects

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.1.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.gen(function* () {
  const client = yield* DbPlatformClient
  const methods = Resource.methods(client, entries, { get: notAbout, update: notAbout, delete: notAbout })
  /**
   * One page; more projects than asked for (or than 400) is `MalformedResponse`, as is what
   * `check` refuses.
   */
  const fetch = (options: PageOptions, check: (page: ProjectsPage) => string | undefined = () => undefined) =>
    client.execute(
      Endpoint.listProjects,
      { query: { ...sharedQuery(options), org_id: options.orgId } },
      checkLength(options, check)
    )
  const fetchShared = (
    options: SharedPageOptions,
    check: (page: ProjectsPage) => string | undefined = () => undefined
  ) => client.execute(Endpoint.listSharedProjects, { query: sharedQuery(options) }, checkLength(options, check))
  const toPage = (page: ProjectsPage) => ({ items: page.projects, cursor: page.pagination?.cursor })
  return Projects.of({
    ...methods,
    page: (options = {}) => fetch(options),
    list: ({ pageSize, ...filter } = {}) =>
      paginate(
        Endpoint.listProjects,
        pageSize,
        (limit, cursor, check) => fetch({ ...filter, limit, cursor }, check),
        toPage
      ),
    sharedPage: (options = {}) => fetchShared(options),
    listShared: ({ pageSize, ...filter } = {}) =>
      paginate(
        Endpoint.listSharedProjects,
        pageSize,
        (limit, cursor, check) => fetchShared({ ...filter, limit, cursor }, check),
        toPage
      )
  })
})

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Projects, never, DbPlatformClient> = Layer.effect(Projects, make)
