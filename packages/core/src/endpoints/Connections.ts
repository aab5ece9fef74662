/**
 * The connection endpoints: a connection URI of a branch's database for a role (`docs/contract.md` §13.1).
 *
 * @since 0.4.0
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import { ConnectionUri } from "../ConnectionDetails.js"
import { BranchIdInput, EndpointIdInput, projectParams, withMessage } from "../internal/input.js"

/**
 * The connection endpoints: a connection URI of a branch's database for a role (`docs/contract.md` §13.1).
 *
 * @since 0.4.0
 * @category endpoints
 */
export const Connections = Endpoint.group("Connections", {
  /**
   * `GET /projects/{project_id}/connection_uri`: the connection URI of a database of a branch for
   * a role, `{ uri }`, the URI `Redacted` (it holds the role's password) (`docs/contract.md` §13.1).
   * Query: `database_name` and `role_name` (required), `branch_id` (the project's default branch
   * when absent), `endpoint_id` (the branch's `read_write` compute endpoint when absent), `pooled`
   * (`true`: through the connection pooler, whose host is the endpoint's with `-pooler`). 404 for
   * an unknown project, branch, compute endpoint, database or role; 403; 400 for a query the server
   * refuses (no `database_name` or `role_name`).
   */
  uri: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/connection_uri",
    params: projectParams,
    query: Schema.Struct({
      database_name: Schema.String.pipe(Schema.minLength(1)).annotations(withMessage("must not be empty")),
      role_name: Schema.String.pipe(Schema.minLength(1)).annotations(withMessage("must not be empty")),
      branch_id: Schema.optional(BranchIdInput),
      endpoint_id: Schema.optional(EndpointIdInput),
      pooled: Schema.optional(Schema.BooleanFromString.annotations(withMessage("must be true or false")))
    }),
    success: ConnectionUri,
    errors: ["BadRequest", "NotFound", "Forbidden"]
  })
})
