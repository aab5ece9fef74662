/**
 * The fake's database routes (docs/contract.md §15.1): each decodes with its entry of core's table
 * and runs a mutation or a read of `databases.ts`.
 */
import { DatabaseEnvelope, DatabaseList, DatabaseOperations, type Endpoint } from "@dbplatform/core"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import {
  createDatabase,
  type DatabaseChange,
  databaseOf,
  databasesOfBranch,
  deleteDatabase,
  updateDatabase
} from "./databases.js"
import { mutateAnswering, read, route } from "./route.js"
import type { FakeState } from "./state.js"
import { databaseAt, operationAt, unchecked } from "./wire.js"

/** The table entries the database routes serve. */
export interface DatabaseTable {
  readonly listDatabases: typeof Endpoint.listDatabases
  readonly createDatabase: typeof Endpoint.createDatabase
  readonly getDatabase: typeof Endpoint.getDatabase
  readonly updateDatabase: typeof Endpoint.updateDatabase
  readonly deleteDatabase: typeof Endpoint.deleteDatabase
}

/** What a database mutation answers: the database and the operations it started, as they are now. */
const answer = ({ database, operations }: DatabaseChange, now: number) =>
  new DatabaseOperations(
    { database: databaseAt(database), operations: operations.map((operation) => operationAt(operation, now)) },
    unchecked
  )

/** The database routes over `fake`, one per entry of `table`. */
export const databaseRoutes = (fake: FakeState, table: DatabaseTable) => [
  route(table.listDatabases, ({ params }) =>
    read(fake, (state) =>
      Either.map(
        databasesOfBranch(state, params.project_id, params.branch_id),
        (databases) => new DatabaseList({ databases: databases.map(databaseAt) }, unchecked)
      )
    )
  ),
  route(table.createDatabase, ({ params, body }) =>
    mutateAnswering(fake, (dice) => createDatabase(params.project_id, params.branch_id, body.database, dice), answer)
  ),
  route(table.getDatabase, ({ params }) =>
    read(fake, (state) =>
      Either.map(
        databaseOf(state, params.project_id, params.branch_id, params.database_name),
        (database) => new DatabaseEnvelope({ database: databaseAt(database) }, unchecked)
      )
    )
  ),
  route(table.updateDatabase, ({ params, body }) =>
    mutateAnswering(
      fake,
      (dice) => updateDatabase(params.project_id, params.branch_id, params.database_name, body.database, dice),
      answer
    )
  ),
  route(table.deleteDatabase, ({ params }) =>
    mutateAnswering(
      fake,
      (dice) => deleteDatabase(params.project_id, params.branch_id, params.database_name, dice),
      (deleted, now) => (deleted === undefined ? Option.none() : Option.some(answer(deleted, now)))
    )
  )
]
