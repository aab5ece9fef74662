/**
 * The fake's project routes (docs/contract.md §14): each decodes with its entry of core's
 * `Api.Projects` and runs a mutation of `projects.ts`, or reads the project. The two project
 * lists are in `routes.ts`.
 */
import {
  type Api,
  ProjectCreated,
  ProjectDeleted,
  ProjectEnvelope,
  ProjectOperations,
  ProjectRecovered
} from "@dbplatform/core"
import * as Either from "effect/Either"
import { projectOf } from "./branches.js"
import { connectionDetails, connectionsOf } from "./connections.js"
import {
  createProject,
  deleteProject,
  type ProjectChange,
  projectAt,
  recoverProject,
  updateProject
} from "./projects.js"
import { type Handlers, mutateAnswering, read } from "./route.js"
import type { FakeState } from "./state.js"
import { branchAt, createdParts, operationAt } from "./wire.js"

/** The answer's operations, as they are at `now`. */
const operationsAt = (change: ProjectChange, now: number) =>
  change.operations.map((operation) => operationAt(operation, now))

/** How the fake answers the project endpoints but the lists (in `routes.ts`), over `fake`. */
export const projectHandlers = (fake: FakeState): Omit<Handlers<typeof Api.Projects>, "list" | "listShared"> => ({
  create: ({ body }) =>
    mutateAnswering(
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
  update: ({ body, params }) =>
    mutateAnswering(
      fake,
      (dice) => updateProject(params.project_id, body.project, dice),
      (changed, now) =>
        new ProjectOperations(
          { project: projectAt(changed.project, now), operations: operationsAt(changed, now) },
          true
        )
    ),
  delete: ({ params }) =>
    mutateAnswering(
      fake,
      (dice) => deleteProject(params.project_id, dice),
      (deleted, now) =>
        new ProjectDeleted({ project: projectAt(deleted.project, now), operations: operationsAt(deleted, now) }, true)
    ),
  recover: ({ params }) =>
    mutateAnswering(
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
