/**
 * The operation endpoints: list a project's operations and read one (`docs/contract.md` §2.5, §2.6, §10.5).
 *
 * @since 0.4.0
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import { OperationEnvelope, OperationsPage } from "../Operation.js"
import { Cursor, OperationIdParameter, PageLimit, ProjectIdParameter, projectParams } from "../internal/input.js"

/**
 * The page size of `GET /projects/{project_id}/operations`: 1 to 1000; without a `limit`, all
 * operations at once (observed behaviour of the deployed API, §4 rule 2, §10.5).
 *
 * @since 0.4.0
 * @category endpoints
 */
export const operationsPageLimits: Endpoint.PageLimits = { max: 1000, default: undefined }

/**
 * The operation endpoints: list a project's operations and read one (`docs/contract.md` §2.5, §2.6, §10.5).
 *
 * @since 0.4.0
 * @category endpoints
 */
export const Operations = Endpoint.group("Operations", {
  /**
   * `GET /projects/{project_id}/operations`: one page of a project's operations, newest first
   * (§2.5, §2.6, §4, §10.5). Query: `limit` (1 to 1000), `cursor`. 404 for an unknown project,
   * 403 for one the key may not see, 400 for a query the server refuses.
   */
  list: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/operations",
    params: projectParams,
    query: Schema.Struct({
      limit: Schema.optional(PageLimit(operationsPageLimits)),
      cursor: Schema.optional(Cursor)
    }),
    success: OperationsPage,
    errors: ["NotFound", "Forbidden", "BadRequest"],
    pageLimits: operationsPageLimits,
    list: { items: (page) => page.operations, cursor: (page) => page.pagination?.cursor }
  }),
  /**
   * `GET /projects/{project_id}/operations/{operation_id}`: one operation (§2.5, §4). 404 for an
   * unknown project or operation, 403 for one the key may not see, 400 for a malformed id.
   */
  get: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/operations/{operation_id}",
    params: Schema.Struct({ project_id: ProjectIdParameter, operation_id: OperationIdParameter }),
    success: OperationEnvelope,
    errors: ["NotFound", "Forbidden", "BadRequest"],
    about: ({ operation }) => ({ operation_id: operation.id })
  })
})
