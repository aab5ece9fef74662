/**
 * The fake's project routes (docs/contract.md §14): each decodes with its entry of core's
 * `Api.Projects` and runs a mutation of `steps.ts`, or reads the project, the project lists or
 * the preload libraries a project may enable (`preloadLibraries.ts`).
 */
import {
  type Api,
  AvailablePreloadLibraries,
  type Endpoint,
  ProjectCreated,
  ProjectDeleted,
  ProjectEnvelope,
  ProjectOperations,
  ProjectRecovered
} from "@dbplatform/core"
import * as Either from "effect/Either"
import { connectionDetails, connectionsOf } from "../Connections/steps.js"
import { advisorIssues } from "./advisor.js"
import { availablePreloadLibraries } from "./preloadLibraries.js"
import { createProject, deleteProject, type ProjectChange, projectAt, recoverProject, updateProject } from "./steps.js"
import { type Handlers, type Handle, type Handler } from "../../engine/route.js"
import type { FakeState } from "../../engine/state.js"
import { branchAt, createdParts, operationAt, projectsPage, sharedProjectsPage } from "../../engine/wire.js"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { Caller } from "../../engine/caller.js"
import { isDeleted } from "../../engine/lifecycle.js"
import {
  organizationRefusal,
  reachesProject,
  type Authorizations,
  anyKey,
  unscopedKey
} from "../../engine/authorization.js"
import { pageOf } from "../../engine/pagination.js"
import { projectOf } from "../../engine/records.js"
import { change, read } from "../../engine/change.js"

/** The answer's operations, as they are at `now`. */
const operationsAt = (change: ProjectChange, now: number) =>
  change.operations.map((operation) => operationAt(operation, now))

/** How the fake answers the project endpoints but the lists, over `fake`. */
const ownHandlers = (fake: FakeState): Omit<Handlers<typeof Api.Projects>, "list" | "listShared"> => ({
  create: ({ body }) =>
    change(
      fake,
      (dice) => createProject(body.project, dice),
      (made, now) =>
        new ProjectCreated(
          {
            project: projectAt(made.project, now),
            // The role's password is shown this once.
            ...createdParts(made, now, true),
            connection_uris: connectionsOf(made.project, made.endpoints, made.roles, made.databases).map(
              connectionDetails
            )
          },
          true
        )
    ),
  get: ({ params }) =>
    read(fake, (state, now) =>
      Either.map(
        projectOf(state, params.project_id),
        (project) => new ProjectEnvelope({ project: projectAt(project, now) }, true)
      )
    ),
  // The fake's fixed list for the project's Postgres major version (docs/contract.md §14.5).
  listAvailablePreloadLibraries: ({ params }) =>
    read(fake, (state) =>
      Either.map(
        projectOf(state, params.project_id),
        (project) => new AvailablePreloadLibraries({ libraries: availablePreloadLibraries(project.pg_version) }, true)
      )
    ),
  // The fake's checks over the database's schema (docs/contract.md §14.6).
  listAdvisorIssues: ({ params, query }) => read(fake, (state) => advisorIssues(state, params.project_id, query)),
  update: ({ body, params }) =>
    change(
      fake,
      (dice) => updateProject(params.project_id, body.project, dice),
      (changed, now) =>
        new ProjectOperations(
          { project: projectAt(changed.project, now), operations: operationsAt(changed, now) },
          true
        )
    ),
  delete: ({ params }) =>
    change(
      fake,
      (dice) => deleteProject(params.project_id, dice),
      (deleted, now) =>
        new ProjectDeleted({ project: projectAt(deleted.project, now), operations: operationsAt(deleted, now) }, true)
    ),
  recover: ({ params }) =>
    change(
      fake,
      () => recoverProject(params.project_id),
      (recovered, now) =>
        new ProjectRecovered(
          {
            project: projectAt(recovered.project, now),
            branches: recovered.branches.map((branch) => branchAt(branch, now))
          },
          true
        )
    )
})

/** Whether `search` (absent: anything) is part of the project's id or name. */
const matches = (project: { readonly id: string; readonly name: string }, search: string | undefined) =>
  search === undefined || project.id.includes(search) || project.name.includes(search)

/** The function that answers with `handler`. */
const handleOf = <E extends Endpoint.Endpoint>(handler: Handler<E>): Handle<E> =>
  typeof handler === "function" ? handler : handler.handle

/** How the fake answers the project endpoints of `group`, over `fake`. */
export const projectHandlers = (fake: FakeState, group: typeof Api.Projects): Handlers<typeof Api.Projects> => ({
  ...ownHandlers(fake),
  // An organization's key creates in its organization when the body names none; an
  // organization named that the key does not act for is a 404 (§21).
  create: (input) =>
    Effect.gen(function* () {
      const key = yield* Caller
      const named = input.body.project.org_id
      if (named !== undefined) {
        const refused = organizationRefusal(yield* read(fake, Either.right), key, named)
        if (refused !== undefined) return yield* refused
      }
      const orgId = named ?? key?.org_id
      const project = orgId === undefined ? input.body.project : { ...input.body.project, org_id: orgId }
      return yield* handleOf(ownHandlers(fake).create)({ ...input, body: { ...input.body, project } })
    }),
  list: ({ query }) =>
    Effect.gen(function* () {
      const { org_id, recoverable, search } = query
      const key = yield* Caller
      const state = yield* read(fake, Either.right)
      // The account's own projects: those shared with it are listed by `GET /projects/shared` only (§10.6),
      // and only those the key acts for (§20.4, §21); with `recoverable=true`, the deleted ones (§18).
      // `timeout` is checked by its entry's query schema and needs nothing more: the fake reads
      // every project in time.
      const { page, next } = yield* pageOf(
        group.list,
        state,
        "projects",
        "",
        query,
        yield* Clock.currentTimeMillis,
        (project) =>
          project.shared !== true &&
          // `recoverable=true`: only the deleted ones, kept for their recovery window (§18).
          isDeleted(project) === (recoverable === true) &&
          (org_id === undefined || project.org_id === org_id) &&
          matches(project, search) &&
          reachesProject(state, key, project)
      )
      return projectsPage(page, next)
    }),
  listShared: ({ query }) =>
    Effect.gen(function* () {
      const { search } = query
      const key = yield* Caller
      const state = yield* read(fake, Either.right)
      const { page, next } = yield* pageOf(
        group.listShared,
        state,
        "projects",
        "",
        query,
        yield* Clock.currentTimeMillis,
        (project) =>
          project.shared === true &&
          !isDeleted(project) &&
          matches(project, search) &&
          reachesProject(state, key, project)
      )
      return sharedProjectsPage(page, next)
    })
})

/** Which kinds of key may call each Projects endpoint, and what another gets (docs/contract.md §21). */
export const projectAuthorizations: Authorizations<typeof Api.Projects> = {
  list: anyKey,
  listShared: anyKey,
  create: unscopedKey,
  get: anyKey,
  update: anyKey,
  delete: unscopedKey,
  recover: anyKey,
  listAvailablePreloadLibraries: anyKey,
  listAdvisorIssues: anyKey
}
