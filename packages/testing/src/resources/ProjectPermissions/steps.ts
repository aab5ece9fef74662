/**
 * What the fake's project permission routes do (docs/contract.md §22.1), each mutation a pure
 * step over the state (`engine/state.ts` `Mutation`): an access to a project granted to an email.
 * Granting an email that has one (compared without case) answers it as it is; a revoked access is
 * removed, answered with its `revoked_at`.
 */
import * as Either from "effect/Either"
import { type Dice, uuid } from "../../engine/ids.js"
import { remove, upsert } from "../../engine/kinds.js"
import { get, itemsOf, type Mutation, type State } from "../../engine/state.js"
import { Status } from "../../engine/status.js"
import { refused, type Refusal } from "../../engine/refusal.js"
import { projectOf } from "../../engine/records.js"

/** An access to a project as the fake keeps it. */
export type StoredPermission = NonNullable<ReturnType<typeof get<"permissions">>>

/** The accesses granted to project `projectId`, oldest first, or a 404. */
export const permissionsOf = (state: State, projectId: string) =>
  Either.map(projectOf(state, projectId), () => Array.from(itemsOf(state, "permissions", projectId)))

/** Grants access to project `projectId` to `email`; one it has already is answered as it is. */
export const grantPermission =
  (projectId: string, email: string, dice: Dice): Mutation<StoredPermission, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      yield* projectOf(state, projectId)
      for (const permission of itemsOf(state, "permissions", projectId)) {
        if (permission.granted_to_email.toLowerCase() === email.toLowerCase()) {
          return { changes: [], answer: permission }
        }
      }
      let id = uuid(dice)
      while (get(state, "permissions", id) !== undefined) id = uuid(dice)
      const permission: StoredPermission = { id, project_id: projectId, granted_to_email: email, granted_at: now }
      return { changes: [upsert("permissions", permission)], answer: permission }
    })

/** Revokes the access `permissionId` of project `projectId`: the access as it was, and when. */
export const revokePermission =
  (
    projectId: string,
    permissionId: string
  ): Mutation<{ readonly permission: StoredPermission; readonly revoked_at: number }, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      yield* projectOf(state, projectId)
      const permission = get(state, "permissions", permissionId)
      if (permission === undefined || permission.project_id !== projectId) {
        return yield* refused(Status.notFound, "permission not found")
      }
      return { changes: [remove("permissions", permissionId)], answer: { permission, revoked_at: now } }
    })
