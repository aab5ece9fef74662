/**
 * The fake's role routes (docs/contract.md §15.2): each decodes with its entry of core's table and
 * runs a mutation or a read of `roles.ts`. A role's password is answered by a create, a reset and
 * `reveal_password` only.
 */
import { type Endpoint, RoleEnvelope, RoleList, RoleOperations, RolePassword } from "@dbplatform/core"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { createRole, deleteRole, type RoleChange, resetRolePassword, roleOf, rolesOfBranch } from "./roles.js"
import { mutateAnswering, read, route } from "./route.js"
import type { FakeState } from "./state.js"
import { operationAt, roleAt, unchecked } from "./wire.js"

/** The table entries the role routes serve. */
export interface RoleTable {
  readonly listRoles: typeof Endpoint.listRoles
  readonly createRole: typeof Endpoint.createRole
  readonly getRole: typeof Endpoint.getRole
  readonly deleteRole: typeof Endpoint.deleteRole
  readonly revealRolePassword: typeof Endpoint.revealRolePassword
  readonly resetRolePassword: typeof Endpoint.resetRolePassword
}

/** What a role mutation answers at `now`: the role (with its password when `withPassword`) and the operations it started. */
const answer =
  (withPassword: boolean) =>
  ({ role, operations }: RoleChange, now: number) =>
    new RoleOperations(
      { role: roleAt(role, withPassword), operations: operations.map((operation) => operationAt(operation, now)) },
      unchecked
    )

/** The role routes over `fake`, one per entry of `table`. */
export const roleRoutes = (fake: FakeState, table: RoleTable) => [
  route(table.listRoles, ({ params }) =>
    read(fake, (state) =>
      Either.map(
        rolesOfBranch(state, params.project_id, params.branch_id),
        (roles) => new RoleList({ roles: roles.map((role) => roleAt(role, false)) }, unchecked)
      )
    )
  ),
  route(table.createRole, ({ params, body }) =>
    mutateAnswering(fake, (dice) => createRole(params.project_id, params.branch_id, body.role.name, dice), answer(true))
  ),
  route(table.getRole, ({ params }) =>
    read(fake, (state) =>
      Either.map(
        roleOf(state, params.project_id, params.branch_id, params.role_name),
        (role) => new RoleEnvelope({ role: roleAt(role, false) }, unchecked)
      )
    )
  ),
  route(table.deleteRole, ({ params }) =>
    mutateAnswering(
      fake,
      (dice) => deleteRole(params.project_id, params.branch_id, params.role_name, dice),
      (deleted, now) => (deleted === undefined ? Option.none() : Option.some(answer(false)(deleted, now)))
    )
  ),
  route(table.revealRolePassword, ({ params }) =>
    read(fake, (state) =>
      Either.map(
        roleOf(state, params.project_id, params.branch_id, params.role_name),
        (role) => new RolePassword({ password: Redacted.make(role.password) }, unchecked)
      )
    )
  ),
  route(table.resetRolePassword, ({ params }) =>
    mutateAnswering(
      fake,
      (dice) => resetRolePassword(params.project_id, params.branch_id, params.role_name, dice),
      answer(true)
    )
  )
]
