import * as Either from "effect/Either"
import type { Dice } from "../../engine/ids.js"
import { type Change, remove, upsert } from "../../engine/kinds.js"
import { startOperations, starter } from "../../engine/operations.js"
import {
  distinctTime,
  get,
  itemsOf,
  type Mutation,
  type State,
  type StoredOperation,
  type StoredRole
} from "../../engine/state.js"
import { Status } from "../../engine/status.js"
import { notFound, refused, type Refusal } from "../../engine/refusal.js"
import { branchOf, unlockedProject } from "../../engine/records.js"

/** The characters of a new password. */
const passwordAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

/** A new role password: 16 letters and digits (the dice decide, so `TestRandom` does too). */
export const newPassword = (dice: Dice): string => {
  let password = ""
  for (let i = 0; i < 16; i++) password += passwordAlphabet[dice.below(passwordAlphabet.length)]
  return password
}

/** The id of the role named `name` of branch `branchId`: `{branch_id}/{name}`. */
export const roleId = (branchId: string, name: string): string => `${branchId}/${name}`

/** The role `name` of branch `branchId` of project `projectId`, or a 404 (for any of them). */
export const roleOf = (
  state: State,
  projectId: string,
  branchId: string,
  name: string
): Either.Either<StoredRole, Refusal> =>
  Either.flatMap(branchOf(state, projectId, branchId), () => {
    const role = get(state, "roles", roleId(branchId, name))
    return role === undefined ? notFound("role") : Either.right(role)
  })

/**
 * `changes` of a branch's roles or databases, followed by the one operation they start:
 * `apply_config`, on the branch's read_write compute endpoint when it has one (docs/contract.md
 * §15.3). Answers every change and the operations started.
 */
export const applyConfig = (
  state: State,
  projectId: string,
  branchId: string,
  dice: Dice,
  now: number,
  changes: ReadonlyArray<Change>
) => {
  let endpointId: string | undefined
  for (const endpoint of itemsOf(state, "endpoints", branchId)) {
    if (endpoint.type === "read_write") endpointId = endpoint.id
  }
  const started = startOperations(state, projectId, [starter(state, dice)("apply_config", branchId, endpointId)], now)
  return { changes: [...changes, ...started.changes], operations: started.operations }
}

/** What a role mutation answers: the role (with its password where the answer shows it) and the operations it started. */
export interface RoleChange {
  readonly role: StoredRole
  readonly operations: ReadonlyArray<StoredOperation>
}

/** The outcome of a role mutation that makes `changes` to `role` of a branch. */
const changing = (state: State, projectId: string, dice: Dice, now: number, role: StoredRole, change: Change) => {
  const { changes, operations } = applyConfig(state, projectId, role.branch_id, dice, now, [change])
  return { changes, answer: { role, operations } }
}

/**
 * Creates the role `name` on a branch, with a new password (docs/contract.md §15.2): 404 for an
 * unknown project or branch, 423 while the project is locked, 409 for a name another role of the
 * branch has; starts `apply_config`. With `noLogin` (`no_login: true`), a role that cannot log
 * in: it has no password.
 */
export const createRole =
  (projectId: string, branchId: string, name: string, dice: Dice, noLogin = false): Mutation<RoleChange, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      yield* branchOf(state, projectId, branchId)
      yield* unlockedProject(state, projectId, now)
      if (get(state, "roles", roleId(branchId, name)) !== undefined) {
        return yield* refused(Status.conflict, `role ${JSON.stringify(name)} already exists`)
      }
      const created = distinctTime(state, "roles", branchId, now)
      const role: StoredRole = {
        id: roleId(branchId, name),
        project_id: projectId,
        branch_id: branchId,
        name,
        password: noLogin ? "" : newPassword(dice),
        protected: false,
        created_at: created,
        updated_at: created,
        ...(noLogin ? { no_login: true } : {})
      }
      return changing(state, projectId, dice, now, role, upsert("roles", role))
    })

/**
 * 400 for a password of a role that cannot log in (`no_login`): it has none to reveal or reset
 * (docs/contract.md §15.2).
 */
export const canLogIn = (role: StoredRole, what: string): Either.Either<void, Refusal> =>
  role.no_login === true
    ? refused(Status.badRequest, `role ${JSON.stringify(role.name)} cannot log in (no_login): ${what}`)
    : Either.void

/**
 * 412 for a reveal of a role's password in a project created with `store_passwords: false`: the
 * platform keeps no password to reveal (the document's "Storing passwords is disabled").
 */
export const passwordsStored = (state: State, role: StoredRole): Either.Either<void, Refusal> =>
  get(state, "projects", role.project_id)?.store_passwords === false
    ? refused(Status.preconditionFailed, "storing passwords is disabled for this project (store_passwords: false)")
    : Either.void

/** 400 for a change of a protected role. */
const unprotected = (role: StoredRole, what: string) =>
  role.protected ? refused(Status.badRequest, `role ${JSON.stringify(role.name)} is protected: ${what}`) : Either.void

/**
 * Deletes the role `name` of a branch (docs/contract.md §15.2): `undefined` (a 204) when the
 * branch has no such role; 404 for an unknown project or branch; 400 for a protected role or one
 * that owns a database of the branch; starts `apply_config`.
 */
export const deleteRole =
  (projectId: string, branchId: string, name: string, dice: Dice): Mutation<RoleChange | undefined, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      yield* branchOf(state, projectId, branchId)
      const role = get(state, "roles", roleId(branchId, name))
      if (role === undefined) return { changes: [], answer: undefined }
      yield* unlockedProject(state, projectId, now)
      yield* unprotected(role, "it cannot be deleted")
      for (const database of itemsOf(state, "databases", branchId)) {
        if (database.owner_name === name) {
          return yield* refused(
            Status.badRequest,
            `role ${JSON.stringify(name)} owns database ${JSON.stringify(database.name)}: delete the database or give it another owner first`
          )
        }
      }
      return changing(state, projectId, dice, now, role, remove("roles", role.id))
    })

/**
 * Gives the role `name` of a branch a new password (docs/contract.md §15.2): 404 for an unknown
 * project, branch or role; 400 for a protected role; starts `apply_config`.
 */
export const resetRolePassword =
  (projectId: string, branchId: string, name: string, dice: Dice): Mutation<RoleChange, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const role = yield* roleOf(state, projectId, branchId, name)
      yield* unlockedProject(state, projectId, now)
      yield* unprotected(role, "its password cannot be reset")
      yield* canLogIn(role, "it has no password to reset")
      const reset: StoredRole = { ...role, password: newPassword(dice), updated_at: Math.max(now, role.updated_at) }
      return changing(state, projectId, dice, now, reset, upsert("roles", reset))
    })

/** The roles of a branch, newest first; a 404 for an unknown project or branch. */
export const rolesOfBranch = (state: State, projectId: string, branchId: string) =>
  Either.map(branchOf(state, projectId, branchId), () => Array.from(itemsOf(state, "roles", branchId)))
