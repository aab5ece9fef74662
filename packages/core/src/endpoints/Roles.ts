/**
 * The role endpoints: list, create, read and delete the roles of a branch, reveal and reset a role's password (`docs/contract.md` §15.2).
 *
 * @since 0.4.0
 */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import { RoleCreateRequest, RoleEnvelope, RoleList, RoleOperations, RolePassword } from "../Role.js"
import { branchParams, NameParameter } from "../internal/input.js"

/** A branch's role in a path: `project_id`, `branch_id` and `role_name`. */
const roleParams = Schema.Struct({ ...branchParams.fields, role_name: NameParameter })

/**
 * The role endpoints: list, create, read and delete the roles of a branch, reveal and reset a role's password (`docs/contract.md` §15.2).
 *
 * @since 0.4.0
 * @category endpoints
 */
export const Roles = Endpoint.group("Roles", {
  /**
   * `GET /projects/{project_id}/branches/{branch_id}/roles`: the branch's roles, `{ roles }`,
   * without passwords (§15.2). 404 for an unknown project or branch, 403, 400 for a malformed id.
   */
  list: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/branches/{branch_id}/roles",
    params: branchParams,
    success: RoleList,
    errors: ["NotFound", "Forbidden", "BadRequest"],
    list: { items: (answer) => answer.roles }
  }),
  /**
   * `POST /projects/{project_id}/branches/{branch_id}/roles` with `{ role: { name } }`: creates a
   * role; answers 201 with the role, its `password` (`Redacted`, shown this once) and the operations
   * started (`apply_config`) (§15.2, §15.3). 400 for a body the server refuses, 404 for an unknown
   * project or branch, 409 for a name another role of the branch has, 423 while a conflicting
   * operation runs.
   */
  create: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/branches/{branch_id}/roles",
    params: branchParams,
    body: RoleCreateRequest,
    success: RoleOperations,
    statuses: [201],
    startsOperations: true,
    errors: ["BadRequest", "NotFound", "Forbidden", "Conflict", "Locked"],
    about: ({ role }) => ({ "role.name": role.name }),
    readBack: {
      entry: (): Endpoint.Named<"Roles.get"> => Roles.get,
      input: ({ role }, { project_id }) => ({ project_id, branch_id: role.branch_id, role_name: role.name })
    }
  }),
  /**
   * `GET /projects/{project_id}/branches/{branch_id}/roles/{role_name}`: one role, `{ role }`,
   * without its password (§15.2). 404 for an unknown project, branch or role.
   */
  get: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/branches/{branch_id}/roles/{role_name}",
    params: roleParams,
    success: RoleEnvelope,
    errors: ["NotFound", "Forbidden", "BadRequest"],
    about: ({ role }) => ({ role_name: role.name })
  }),
  /**
   * `DELETE /projects/{project_id}/branches/{branch_id}/roles/{role_name}`: deletes a role.
   * Answers 200 with the role and the operations started (`apply_config`), decoded as `Some`; or
   * 204 with no body, decoded as `None` (no such role: nothing to delete) (§15.2, §15.3). 400 for
   * a role that owns a database of the branch (delete the database or give it another owner first)
   * or a protected role, 404 for an unknown project or branch, 423 while a conflicting operation
   * runs.
   */
  delete: Endpoint.make({
    method: "DELETE",
    route: "/projects/{project_id}/branches/{branch_id}/roles/{role_name}",
    params: roleParams,
    success: Schema.OptionFromUndefinedOr(RoleOperations),
    statuses: [200, 204],
    startsOperations: true,
    errors: ["BadRequest", "NotFound", "Forbidden", "Locked"],
    about: (deleted) => ({ role_name: Option.getOrUndefined(deleted)?.role.name })
  }),
  /**
   * `GET /projects/{project_id}/branches/{branch_id}/roles/{role_name}/reveal_password`: the
   * role's password, `{ password }` (`Redacted`) (§15.2). 404 for an unknown project, branch or
   * role. The platform may also answer 412 when it cannot reveal a password (it did not keep it):
   * an `UnexpectedStatus`.
   */
  revealPassword: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/branches/{branch_id}/roles/{role_name}/reveal_password",
    params: roleParams,
    success: RolePassword,
    errors: ["NotFound", "Forbidden", "BadRequest"]
  }),
  /**
   * `POST /projects/{project_id}/branches/{branch_id}/roles/{role_name}/reset_password`: gives
   * the role a new password; answers the role with it (`Redacted`, shown this once) and the
   * operations started (`apply_config`): the new password works once they finish (§15.2, §15.3).
   * 400 for a protected role, 404 for an unknown project, branch or role, 423 while a conflicting
   * operation runs.
   */
  resetPassword: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/branches/{branch_id}/roles/{role_name}/reset_password",
    params: roleParams,
    success: RoleOperations,
    startsOperations: true,
    errors: ["BadRequest", "NotFound", "Forbidden", "Locked"],
    about: ({ role }) => ({ role_name: role.name }),
    readBack: {
      entry: (): Endpoint.Named<"Roles.get"> => Roles.get,
      input: ({ role }, { project_id }) => ({ project_id, branch_id: role.branch_id, role_name: role.name })
    }
  })
})
