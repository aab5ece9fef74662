/**
 * The fake's database routes (docs/contract.md §15.1): each decodes with its entry of core's
 * `Api.Databases` and runs a mutation or a read of `steps.ts`.
 */
import { DatabaseEnvelope, DatabaseList, DatabaseOperations, type Api } from "@dbplatform/core"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import {
  createDatabase,
  type DatabaseChange,
  databaseOf,
  databasesOfBranch,
  deleteDatabase,
  updateDatabase
} from "./steps.js"
import { type Handlers } from "../../engine/route.js"
import type { FakeState } from "../../engine/state.js"
import { databaseAt, operationAt, unchecked } from "../../engine/wire.js"
import { change, read } from "../../engine/change.js"
import { type Authorizations, anyKey } from "../../engine/authorization.js"

/** What a database mutation answers: the database and the operations it started, as they are now. */
const answer = ({ database, operations }: DatabaseChange, now: number) =>
  new DatabaseOperations(
    { database: databaseAt(database), operations: operations.map((operation) => operationAt(operation, now)) },
    unchecked
  )

/** How the fake answers each entry of `group` (core's `Api.Databases`), over `fake`. */
export const databaseHandlers = (fake: FakeState, _group: typeof Api.Databases): Handlers<typeof Api.Databases> => ({
  list: ({ params }) =>
    read(fake, (state) =>
      Either.map(
        databasesOfBranch(state, params.project_id, params.branch_id),
        (databases) => new DatabaseList({ databases: databases.map(databaseAt) }, unchecked)
      )
    ),
  create: ({ params, body }) =>
    change(fake, (dice) => createDatabase(params.project_id, params.branch_id, body.database, dice), answer),
  get: ({ params }) =>
    read(fake, (state) =>
      Either.map(
        databaseOf(state, params.project_id, params.branch_id, params.database_name),
        (database) => new DatabaseEnvelope({ database: databaseAt(database) }, unchecked)
      )
    ),
  update: ({ params, body }) =>
    change(
      fake,
      (dice) => updateDatabase(params.project_id, params.branch_id, params.database_name, body.database, dice),
      answer
    ),
  delete: ({ params }) =>
    change(
      fake,
      (dice) => deleteDatabase(params.project_id, params.branch_id, params.database_name, dice),
      (deleted, now) => (deleted === undefined ? Option.none() : Option.some(answer(deleted, now)))
    )
})

/** Which kinds of key may call each Databases endpoint, and what another gets (docs/contract.md §21). */
export const databaseAuthorizations: Authorizations<typeof Api.Databases> = {
  list: anyKey,
  create: anyKey,
  get: anyKey,
  update: anyKey,
  delete: anyKey
}
