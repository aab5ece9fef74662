/**
 * Projects: one page of the project list, or every project as a `Stream`
 * (`docs/contract.md` §2.4, §4, §10.4).
 *
 * @since 0.1.0
 */
import { type BadRequest, type InvalidRequest, type Project, ProjectsPage } from "@dbplatform/core"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { type CallError, DbPlatformClient } from "./DbPlatformClient.js"
import { type Call, malformedAnswer } from "./internal/call.js"
import { checkLimit, PageSize } from "./internal/input.js"
import { paginate } from "./internal/pagination.js"

/**
 * The largest `limit` of `GET /projects` (`docs/contract.md` §10.4).
 *
 * @since 0.1.0
 */
export const maxPageSize = 400

/**
 * Options of `page`: one page of `GET /projects` (§2.6, §4).
 *
 * @since 0.1.0
 */
export interface PageOptions {
  /** Projects per page, 1 to 400; the server's default is 10. */
  readonly limit?: number | undefined
  /** The `pagination.cursor` of the previous page. */
  readonly cursor?: string | undefined
  /** Only projects whose name or id contains this text. */
  readonly search?: string | undefined
}

/**
 * Options of `list`: the stream of all projects.
 *
 * @since 0.1.0
 */
export interface ListOptions {
  /** Projects fetched per request, 1 to 400; 100 by default. */
  readonly pageSize?: number | undefined
  /** Only projects whose name or id contains this text. */
  readonly search?: string | undefined
}

/**
 * The `Projects` service: one page of the project list, or every project as a `Stream` (§2.4, §4).
 * Both fail with `InvalidRequest` for a `limit` or `pageSize` out of 1..400 (nothing is sent) and
 * with a `CallError`.
 *
 * @since 0.1.0
 */
export interface Service {
  /**
   * `GET /projects`: one page. A `limit` out of 1..400 fails with `InvalidRequest` and nothing
   * is sent; a cursor the server refuses fails with `BadRequest`; a page with more projects than
   * the `limit` (400 without one) with `MalformedResponse`.
   */
  readonly page: (options?: PageOptions) => Effect.Effect<ProjectsPage, InvalidRequest | BadRequest | CallError>
  /**
   * Every project, fetching the next page only when the consumer pulls (one page in memory).
   * A `pageSize` out of 1..400 fails with `InvalidRequest`. A full page whose cursor the server
   * already sent in this walk fails the stream with `MalformedResponse` at once (a server that
   * would loop), as does a page longer than `pageSize`. Pages' `unavailable_project_ids`
   * (projects the server could not read in time) are not part of the stream: use `page` to
   * see them.
   */
  readonly list: (options?: ListOptions) => Stream.Stream<Project, InvalidRequest | BadRequest | CallError>
}

/**
 * The tag of the {@link Service}; `yield* Projects.Projects` in a program, provided by
 * {@link layer} or `DbPlatform.layer`.
 *
 * @since 0.1.0
 * @category tags
 */
export class Projects extends Context.Tag("@dbplatform/client/Projects")<Projects, Service>() {}

const Limit = PageSize(maxPageSize)

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.1.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.gen(function* () {
  const client = yield* DbPlatformClient
  /** One page, with the call that fetched it; more projects than asked for (or than 400) is `MalformedResponse`. */
  const fetch = (options: PageOptions) => {
    const call: Call<"BadRequest"> = {
      method: "GET",
      route: "/projects",
      query: { limit: options.limit, cursor: options.cursor, search: options.search },
      errors: ["BadRequest"]
    }
    const limit = options.limit ?? maxPageSize
    return client.execute(call, ProjectsPage).pipe(
      Effect.filterOrFail(
        (page) => page.projects.length <= limit,
        (page) =>
          malformedAnswer(call, `the page has ${page.projects.length} projects, more than the limit of ${limit}`)
      ),
      Effect.map((page) => ({ page, call }))
    )
  }
  return Projects.of({
    page: (options = {}) =>
      checkLimit(Limit, options.limit).pipe(
        Effect.zipRight(fetch(options)),
        Effect.map(({ page }) => page)
      ),
    list: (options = {}) =>
      paginate(Limit, options.pageSize, (limit, cursor) =>
        fetch({ limit, cursor, search: options.search }).pipe(
          Effect.map(({ call, page }) => ({ items: page.projects, cursor: page.pagination?.cursor, call }))
        )
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
