/**
 * The fake's project routes (docs/contract.md §14): each decodes with its entry of core's table
 * and runs a mutation of `projects.ts`, or reads the project. The two project lists are in
 * `routes.ts`.
 */
import { type Endpoint, ProjectCreated, ProjectDeleted, ProjectEnvelope, ProjectOperations } from "@dbplatform/core"
import * as Either from "effect/Either"
import { projectOf } from "./branches.js"
import { connectionDetails, connectionsOf } from "./connections.js"
import { createProject, deleteProject, type ProjectChange, projectAt, updateProject } from "./projects.js"
import { mutateAnswering, read, route } from "./route.js"
import type { FakeState } from "./state.js"
import { createdParts, operationAt } from "./wire.js"

/** The table entries the project routes serve. */
export interface ProjectTable {
  readonly createProject: typeof Endpoint.createProject
  readonly getProject: typeof Endpoint.getProject
  readonly updateProject: typeof Endpoint.updateProject
  readonly deleteProject: typeof Endpoint.deleteProject
}

/** The answer's operations, as they are at `now`. */
const operationsAt = (change: ProjectChange, now: number) =>
  change.operations.map((operation) => operationAt(operation, now))

/** The project routes over `fake`, one per entry of `table`. */
export const projectRoutes = (fake: FakeState, table: ProjectTable) => [
  route(table.createProject, ({ body }) =>
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
    )
  ),
  route(table.getProject, ({ params }) =>
    read(fake, (state, now) =>
      Either.map(
        projectOf(state, params.project_id),
        (project) => new ProjectEnvelope({ project: projectAt(project, now) }, true)
      )
    )
  ),
  route(table.updateProject, ({ body, params }) =>
    mutateAnswering(
      fake,
      (dice) => updateProject(params.project_id, body.project, dice),
      (changed, now) =>
        new ProjectOperations(
          { project: projectAt(changed.project, now), operations: operationsAt(changed, now) },
          true
        )
    )
  ),
  route(table.deleteProject, ({ params }) =>
    mutateAnswering(
      fake,
      (dice) => deleteProject(params.project_id, dice),
      (deleted, now) =>
        new ProjectDeleted({ project: projectAt(deleted.project, now), operations: operationsAt(deleted, now) }, true)
    )
  )
]
