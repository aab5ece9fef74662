/**
 * What the fake's JWKS routes do (docs/contract.md §27): a project's JWKS kept as `jwks` records
 * under it (deleting the project deletes them); each mutation a pure step over the state.
 *
 * - Add: 404 for an unknown project or `branch_id`; 423 while the project has a pending
 *   operation. It starts `apply_config` on every compute endpoint it applies to (the branch's, or
 *   the project's when it names none), one after another: the reference names no action, this is
 *   the fake's choice. `role_names` defaults to `authenticator`, `authenticated`, `anonymous`; the
 *   fake creates no roles for them, whatever `skip_role_creation` says.
 * - Delete: 404 for an unknown project or JWKS; 423 while locked; no operation.
 * - A JWKS scoped to a branch stays when the branch is deleted (the reference does not say).
 */
import * as Either from "effect/Either"
import { type Dice, uuid } from "../../engine/ids.js"
import { type Item, remove, upsert } from "../../engine/kinds.js"
import { startOperations, starter } from "../../engine/operations.js"
import {
  distinctTime,
  get,
  itemsOf,
  type Mutation,
  type State,
  type StoredOperation,
  freshId
} from "../../engine/state.js"
import { notFound, type Refusal } from "../../engine/refusal.js"
import { branchOf, projectOf, unlockedProject } from "../../engine/records.js"

/** A JWKS as the fake keeps it. */
export type StoredJwks = Item<"jwks">

/** The roles a JWKS maps to when its request names none. */
export const defaultJwksRoles: ReadonlyArray<string> = ["authenticator", "authenticated", "anonymous"]

/** What `POST /projects/{project_id}/jwks` takes, decoded. */
export interface JwksRequest {
  readonly jwks_url: string
  readonly provider_name: string
  readonly branch_id?: string | undefined
  readonly jwt_audience?: string | undefined
  readonly role_names?: ReadonlyArray<string> | undefined
  readonly skip_role_creation?: boolean | undefined
}

/** What adding a JWKS answers: it, and the operations started. */
export interface JwksAdded {
  readonly jwks: StoredJwks
  readonly operations: ReadonlyArray<StoredOperation>
}

/** The JWKS of a project, newest first; a 404 for an unknown project. */
export const jwksOfProject = (state: State, projectId: string) =>
  Either.map(projectOf(state, projectId), () => Array.from(itemsOf(state, "jwks", projectId)))

/** Adds a JWKS to a project (docs/contract.md §27). */
export const addJwks =
  (projectId: string, request: JwksRequest, dice: Dice): Mutation<JwksAdded, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      yield* projectOf(state, projectId)
      if (request.branch_id !== undefined) yield* branchOf(state, projectId, request.branch_id)
      yield* unlockedProject(state, projectId, now)
      const created = distinctTime(state, "jwks", projectId, now)
      const jwks: StoredJwks = {
        id: freshId(state, "jwks", () => uuid(dice)),
        project_id: projectId,
        ...(request.branch_id === undefined ? {} : { branch_id: request.branch_id }),
        jwks_url: request.jwks_url,
        provider_name: request.provider_name,
        ...(request.jwt_audience === undefined ? {} : { jwt_audience: request.jwt_audience }),
        role_names: request.role_names ?? defaultJwksRoles,
        created_at: created,
        updated_at: created
      }
      const start = starter(state, dice)
      const branches =
        request.branch_id === undefined
          ? Array.from(itemsOf(state, "branches", projectId), (branch) => branch.id)
          : [request.branch_id]
      const starts = branches.flatMap((branchId) =>
        Array.from(itemsOf(state, "endpoints", branchId), (endpoint) => start("apply_config", branchId, endpoint.id))
      )
      const started = startOperations(state, projectId, starts, now)
      return {
        changes: [upsert("jwks", jwks), ...started.changes],
        answer: { jwks, operations: started.operations }
      }
    })

/** Deletes the JWKS `jwksId` of a project (docs/contract.md §27); answers it. */
export const deleteJwks =
  (projectId: string, jwksId: string): Mutation<StoredJwks, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      yield* projectOf(state, projectId)
      const jwks = get(state, "jwks", jwksId)
      if (jwks === undefined || jwks.project_id !== projectId) return yield* notFound("JWKS")
      yield* unlockedProject(state, projectId, now)
      return { changes: [remove("jwks", jwks.id)], answer: jwks }
    })
