/**
 * The database endpoints: list, create, read, update and delete the databases of a branch (`docs/contract.md` §15.3).
 *
 * @since 0.4.0
 */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import {
  DatabaseCreateRequest,
  DatabaseEnvelope,
  DatabaseList,
  DatabaseOperations,
  DatabaseUpdateRequest
} from "../Database.js"
import { branchParams, NameParameter } from "../internal/input.js"

/** A branch's database in a path: `project_id`, `branch_id` and `database_name`. */
const databaseParams = Schema.Struct({ ...branchParams.fields, database_name: NameParameter })

/**
 * The database endpoints: list, create, read, update and delete the databases of a branch (`docs/contract.md` §15.3).
 *
 * @since 0.4.0
 * @category endpoints
 */
export const Databases = Endpoint.group("Databases", {
  /**
   * `GET /projects/{project_id}/branches/{branch_id}/databases`: the branch's databases,
   * `{ databases }` (§15.1). 404 for an unknown project or branch, 403, 400 for a malformed id.
   */
  list: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/branches/{branch_id}/databases",
    params: branchParams,
    success: DatabaseList,
    errors: ["NotFound", "Forbidden", "BadRequest"],
    list: { items: (answer) => answer.databases }
  }),
  /**
   * `POST /projects/{project_id}/branches/{branch_id}/databases` with `{ database: { name,
   * owner_name } }`: creates a database owned by a role of the branch; answers 201 with the
   * database and the operations started (`apply_config`) (§15.1, §15.3). 400 for a body the server
   * refuses, 404 for an unknown project or branch, or an owner that is not a role of the branch,
   * 409 for a name another database of the branch has, 423 while a conflicting operation runs.
   */
  create: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/branches/{branch_id}/databases",
    params: branchParams,
    body: DatabaseCreateRequest,
    success: DatabaseOperations,
    statuses: [201],
    startsOperations: true,
    errors: ["BadRequest", "NotFound", "Forbidden", "Conflict", "Locked"],
    about: ({ database }) => ({ "database.name": database.name }),
    readBack: {
      entry: (): Endpoint.Named<"Databases.get"> => Databases.get,
      input: ({ database }, { project_id }) => ({
        project_id,
        branch_id: database.branch_id,
        database_name: database.name
      })
    }
  }),
  /**
   * `GET /projects/{project_id}/branches/{branch_id}/databases/{database_name}`: one database,
   * `{ database }` (§15.1). 404 for an unknown project, branch or database.
   */
  get: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/branches/{branch_id}/databases/{database_name}",
    params: databaseParams,
    success: DatabaseEnvelope,
    errors: ["NotFound", "Forbidden", "BadRequest"],
    about: ({ database }) => ({ database_name: database.name })
  }),
  /**
   * `PATCH /projects/{project_id}/branches/{branch_id}/databases/{database_name}` with
   * `{ database: { name?, owner_name? } }`: renames a database or gives it another owner; answers
   * the database and the operations started (`apply_config`) (§15.1, §15.3). 404 for an unknown
   * database or an owner that is not a role of the branch, 409 for a name another database of the
   * branch has, 423 while a conflicting operation runs.
   */
  update: Endpoint.make({
    method: "PATCH",
    route: "/projects/{project_id}/branches/{branch_id}/databases/{database_name}",
    params: databaseParams,
    body: DatabaseUpdateRequest,
    success: DatabaseOperations,
    startsOperations: true,
    errors: ["BadRequest", "NotFound", "Forbidden", "Conflict", "Locked"],
    about: ({ database }) => ({ "database.name": database.name }),
    readBack: {
      entry: (): Endpoint.Named<"Databases.get"> => Databases.get,
      input: ({ database }, { project_id }) => ({
        project_id,
        branch_id: database.branch_id,
        database_name: database.name
      })
    }
  }),
  /**
   * `DELETE /projects/{project_id}/branches/{branch_id}/databases/{database_name}`: deletes a
   * database. Answers 200 with the database and the operations started (`apply_config`), decoded
   * as `Some`; or 204 with no body, decoded as `None` (no such database: nothing to delete)
   * (§15.1, §15.3). 404 for an unknown project or branch, 423 while a conflicting operation runs.
   */
  delete: Endpoint.make({
    method: "DELETE",
    route: "/projects/{project_id}/branches/{branch_id}/databases/{database_name}",
    params: databaseParams,
    success: Schema.OptionFromUndefinedOr(DatabaseOperations),
    statuses: [200, 204],
    startsOperations: true,
    errors: ["BadRequest", "NotFound", "Forbidden", "Locked"],
    about: (deleted) => ({ database_name: Option.getOrUndefined(deleted)?.database.name })
  })
})
