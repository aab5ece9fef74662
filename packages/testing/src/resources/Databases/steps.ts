import * as Either from "effect/Either"
import { databaseId, type Dice } from "../../engine/ids.js"
import { type Change, upsert } from "../../engine/kinds.js"
import { applyConfig, roleId } from "../Roles/steps.js"
import {
  cascade,
  distinctTime,
  get,
  itemsOf,
  type Mutation,
  type State,
  type StoredDatabase,
  type StoredOperation,
  freshId
} from "../../engine/state.js"
import { Status } from "../../engine/status.js"
import { notFound, refused, type Refusal } from "../../engine/refusal.js"
import { branchOf, unlockedProject } from "../../engine/records.js"

/** The database of branch `branchId` named `name`, if any. */
const named = (state: State, branchId: string, name: string): StoredDatabase | undefined => {
  for (const database of itemsOf(state, "databases", branchId)) if (database.name === name) return database
  return undefined
}

/** The database `name` of branch `branchId` of project `projectId`, or a 404 (for any of them). */
export const databaseOf = (
  state: State,
  projectId: string,
  branchId: string,
  name: string
): Either.Either<StoredDatabase, Refusal> =>
  Either.flatMap(branchOf(state, projectId, branchId), () => {
    const database = named(state, branchId, name)
    return database === undefined ? notFound("database") : Either.right(database)
  })

/** The databases of a branch, newest first; a 404 for an unknown project or branch. */
export const databasesOfBranch = (state: State, projectId: string, branchId: string) =>
  Either.map(branchOf(state, projectId, branchId), () => Array.from(itemsOf(state, "databases", branchId)))

/** 409 when another database of the branch than `except` is named `name`. */
const nameFree = (state: State, branchId: string, name: string, except?: number) => {
  const other = named(state, branchId, name)
  return other !== undefined && other.id !== except
    ? refused(Status.conflict, `database ${JSON.stringify(name)} already exists`)
    : Either.void
}

/** 404 unless the branch has a role named `owner`. */
const ownerExists = (state: State, branchId: string, owner: string) =>
  get(state, "roles", roleId(branchId, owner)) === undefined
    ? refused(Status.notFound, `role ${JSON.stringify(owner)} not found: a database's owner is a role of its branch`)
    : Either.void

/** The outcome of a database mutation that makes `change` to `database` of a branch. */
const changing = (
  state: State,
  projectId: string,
  dice: Dice,
  now: number,
  database: StoredDatabase,
  change: Change
) => {
  const { changes, operations } = applyConfig(state, projectId, database.branch_id, dice, now, [change])
  return { changes, answer: { database, operations } }
}

/** What a database mutation answers: the database and the operations it started. */
export interface DatabaseChange {
  readonly database: StoredDatabase
  readonly operations: ReadonlyArray<StoredOperation>
}

/**
 * Creates the database `name` owned by the role `owner_name` on a branch (docs/contract.md
 * §15.1): 404 for an unknown project or branch, or an owner the branch does not have; 423 while
 * the project is locked; 409 for a name another database of the branch has; starts
 * `apply_config`.
 */
export const createDatabase =
  (
    projectId: string,
    branchId: string,
    request: { readonly name: string; readonly owner_name: string },
    dice: Dice
  ): Mutation<DatabaseChange, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      yield* branchOf(state, projectId, branchId)
      yield* unlockedProject(state, projectId, now)
      yield* nameFree(state, branchId, request.name)
      yield* ownerExists(state, branchId, request.owner_name)
      const created = distinctTime(state, "databases", branchId, now)
      const database: StoredDatabase = {
        id: freshId(state, "databases", () => databaseId(dice)),
        project_id: projectId,
        branch_id: branchId,
        name: request.name,
        owner_name: request.owner_name,
        created_at: created,
        updated_at: created
      }
      return changing(state, projectId, dice, now, database, upsert("databases", database))
    })

/**
 * Renames the database `name` of a branch and/or gives it another owner (docs/contract.md
 * §15.1): 404 for an unknown project, branch or database, or an owner the branch does not have;
 * 423 while the project is locked; 409 for a name another database of the branch has; starts
 * `apply_config`.
 */
export const updateDatabase =
  (
    projectId: string,
    branchId: string,
    name: string,
    update: { readonly name?: string | undefined; readonly owner_name?: string | undefined },
    dice: Dice
  ): Mutation<DatabaseChange, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const database = yield* databaseOf(state, projectId, branchId, name)
      yield* unlockedProject(state, projectId, now)
      if (update.name !== undefined) yield* nameFree(state, branchId, update.name, database.id)
      if (update.owner_name !== undefined) yield* ownerExists(state, branchId, update.owner_name)
      const changed: StoredDatabase = {
        ...database,
        name: update.name ?? database.name,
        owner_name: update.owner_name ?? database.owner_name,
        updated_at: Math.max(now, database.updated_at)
      }
      return changing(state, projectId, dice, now, changed, upsert("databases", changed))
    })

/**
 * Deletes the database `name` of a branch (docs/contract.md §15.1): `undefined` (a 204) when the
 * branch has no such database; 404 for an unknown project or branch; 423 while the project is
 * locked; starts `apply_config`.
 */
export const deleteDatabase =
  (projectId: string, branchId: string, name: string, dice: Dice): Mutation<DatabaseChange | undefined, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      yield* branchOf(state, projectId, branchId)
      const database = named(state, branchId, name)
      if (database === undefined) return { changes: [], answer: undefined }
      yield* unlockedProject(state, projectId, now)
      // Its Data API goes with it (docs/contract.md §25).
      const { changes, operations } = applyConfig(
        state,
        projectId,
        branchId,
        dice,
        now,
        cascade(state, "databases", database.id)
      )
      return { changes, answer: { database, operations } }
    })
