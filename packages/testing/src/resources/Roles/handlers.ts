/**
 * The fake's role routes (docs/contract.md §15.2): each decodes with its entry of core's
 * `Api.Roles` and runs a mutation or a read of `steps.ts`. A role's password is answered by a
 * create, a reset and `reveal_password` only.
 */
import { type Api, RoleEnvelope, RoleList, RoleOperations, RolePassword } from "@dbplatform/core"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import {
  canLogIn,
  createRole,
  deleteRole,
  passwordsStored,
  type RoleChange,
  resetRolePassword,
  roleOf,
  rolesOfBranch
} from "./steps.js"
import { type Handlers } from "../../engine/route.js"
import type { FakeState } from "../../engine/state.js"
import { operationAt, roleAt, unchecked } from "../../engine/wire.js"
import { change, read } from "../../engine/change.js"
import { type Authorizations, anyKey } from "../../engine/authorization.js"

/** What a role mutation answers at `now`: the role (with its password when `withPassword`) and the operations it started. */
const answer =
  (withPassword: boolean) =>
  ({ role, operations }: RoleChange, now: number) =>
    new RoleOperations(
      { role: roleAt(role, withPassword), operations: operations.map((operation) => operationAt(operation, now)) },
      unchecked
    )

/** How the fake answers each entry of `group` (core's `Api.Roles`), over `fake`. */
export const roleHandlers = (fake: FakeState, _group: typeof Api.Roles): Handlers<typeof Api.Roles> => ({
  list: ({ params }) =>
    read(fake, (state) =>
      Either.map(
        rolesOfBranch(state, params.project_id, params.branch_id),
        (roles) => new RoleList({ roles: roles.map((role) => roleAt(role, false)) }, unchecked)
      )
    ),
  create: ({ params, body }) =>
    change(
      fake,
      (dice) => createRole(params.project_id, params.branch_id, body.role.name, dice, body.role.no_login === true),
      answer(true)
    ),
  get: ({ params }) =>
    read(fake, (state) =>
      Either.map(
        roleOf(state, params.project_id, params.branch_id, params.role_name),
        (role) => new RoleEnvelope({ role: roleAt(role, false) }, unchecked)
      )
    ),
  delete: ({ params }) =>
    change(
      fake,
      (dice) => deleteRole(params.project_id, params.branch_id, params.role_name, dice),
      (deleted, now) => (deleted === undefined ? Option.none() : Option.some(answer(false)(deleted, now)))
    ),
  revealPassword: ({ params }) =>
    read(fake, (state) =>
      Either.gen(function* () {
        const role = yield* roleOf(state, params.project_id, params.branch_id, params.role_name)
        yield* canLogIn(role, "it has no password to reveal")
        yield* passwordsStored(state, role)
        return new RolePassword({ password: Redacted.make(role.password) }, unchecked)
      })
    ),
  resetPassword: ({ params }) =>
    change(fake, (dice) => resetRolePassword(params.project_id, params.branch_id, params.role_name, dice), answer(true))
})

/** Which kinds of key may call each Roles endpoint, and what another gets (docs/contract.md §21). */
export const roleAuthorizations: Authorizations<typeof Api.Roles> = {
  list: anyKey,
  create: anyKey,
  get: anyKey,
  delete: anyKey,
  revealPassword: anyKey,
  resetPassword: anyKey
}
