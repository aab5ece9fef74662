/**
 * The project transfer endpoints: moving projects from one organization to another, at once or
 * by a transfer request its recipient accepts (`docs/contract.md` §22.4).
 *
 * @since 0.5.0
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import { ProjectId } from "../Ids.js"
import { ProjectIdParameter, projectParams, withMessage } from "../internal/input.js"
import { Timestamp } from "../Timestamp.js"
import { OrgId } from "./Projects.js"

/** A project id in a body: `^[a-z0-9-]{1,60}$`. */
const ProjectIdInput = Schema.String.pipe(Schema.pattern(/^[a-z0-9-]{1,60}$/)).annotations(
  withMessage("must be 1 to 60 of a-z, 0-9 and -")
)

/**
 * Body of `POST /organizations/{source_org_id}/projects/transfer`: `destination_org_id` and
 * `project_ids`, 1 to 400 of the source organization's projects (§22.4).
 *
 * @since 0.5.0
 * @category schemas
 */
export const TransferProjectsRequest = Schema.Struct({
  destination_org_id: OrgId,
  project_ids: Schema.Array(ProjectIdInput)
    .pipe(Schema.minItems(1), Schema.maxItems(400))
    .annotations(withMessage("must be 1 to 400 project ids"))
}).annotations({ identifier: "TransferProjectsRequest" })

/**
 * The answer of a transfer done: `{}` (§22.4).
 *
 * @since 0.5.0
 * @category schemas
 */
export class ProjectsTransferred extends Schema.Class<ProjectsTransferred>("ProjectsTransferred")({}) {}

/**
 * Body of `POST /projects/{project_id}/transfer_requests`: `ttl_seconds`, how long the request
 * may be accepted, in seconds (1 or more; 86 400, a day, when absent) (§22.4).
 *
 * @since 0.5.0
 * @category schemas
 */
export const TransferRequestCreateRequest = Schema.Struct({
  ttl_seconds: Schema.optional(
    Schema.Int.pipe(Schema.positive()).annotations(withMessage("must be a positive integer (seconds)"))
  )
}).annotations({ identifier: "TransferRequestCreateRequest" })

/**
 * A project transfer request: its `id` (a UUID), `project_id`, `created_at` and `expires_at`
 * (§22.4).
 *
 * @since 0.5.0
 * @category schemas
 */
export class ProjectTransferRequest extends Schema.Class<ProjectTransferRequest>("ProjectTransferRequest")({
  id: Schema.String,
  project_id: ProjectId,
  created_at: Timestamp,
  expires_at: Timestamp
}) {}

/**
 * Body of `PUT /projects/{project_id}/transfer_requests/{request_id}`: `org_id`, the
 * organization to move the project to (absent: the account's own) (§22.4).
 *
 * @since 0.5.0
 * @category schemas
 */
export const TransferRequestAcceptRequest = Schema.Struct({ org_id: Schema.optional(OrgId) }).annotations({
  identifier: "TransferRequestAcceptRequest"
})

/**
 * The project transfer endpoints (§22.4). Two refusals have bodies of their own, not a
 * `GeneralError`: a 406 (the destination cannot take the projects: `{ limits: [{ name, expected,
 * actual }] }` for a transfer, `{ reasons: [{ code, message }] }` for an acceptance) is
 * `NotAcceptable` (since 0.5.0 declared, as the published document documents it; before,
 * `UnexpectedStatus` with status 406); a 422 (projects with an integration: `{ projects: [{ id,
 * integration }] }`) is `BadRequest` with status 422.
 *
 * @since 0.5.0
 * @category endpoints
 */
export const ProjectTransfers = Endpoint.group("ProjectTransfers", {
  /**
   * `POST /organizations/{source_org_id}/projects/transfer`: moves `project_ids` (1 to 400)
   * from the source organization to `destination_org_id`; answers `{}` (§22.4). The account's
   * user must be a member of both (403). 404 for an unknown organization or a project not in the
   * source, 406 when the destination cannot take them (its plan's project count, a plan below
   * the source's), 422 for projects with an integration (GitHub, Vercel), 423 while one of them
   * has an operation running.
   */
  transfer: Endpoint.make({
    method: "POST",
    route: "/organizations/{source_org_id}/projects/transfer",
    params: Schema.Struct({ source_org_id: OrgId }),
    body: TransferProjectsRequest,
    success: ProjectsTransferred,
    errors: ["BadRequest", "NotFound", "Forbidden", "NotAcceptable", "Locked"]
  }),
  /**
   * `POST /projects/{project_id}/transfer_requests`: a request to transfer the project, which
   * expires `ttl_seconds` after it is made (a day by default); answers 201 with it (§22.4). 404
   * for an unknown project.
   */
  createRequest: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/transfer_requests",
    params: projectParams,
    body: TransferRequestCreateRequest,
    success: ProjectTransferRequest,
    statuses: [201],
    errors: ["BadRequest", "NotFound", "Forbidden"],
    about: (request) => ({ project_id: request.project_id })
  }),
  /**
   * `PUT /projects/{project_id}/transfer_requests/{request_id}`: accepts a transfer request,
   * moving the project to `org_id` (the account's own organization when absent); 204 with no
   * body (§22.4). 400 for a request that expired, 403 for an organization the account's user is
   * not a member of, 404 for an unknown project, request or organization, 406 when the
   * organization cannot take the project (its plan's project count).
   */
  acceptRequest: Endpoint.make({
    method: "PUT",
    route: "/projects/{project_id}/transfer_requests/{request_id}",
    params: Schema.Struct({
      project_id: ProjectIdParameter,
      request_id: Schema.String.pipe(Schema.pattern(/^[a-z0-9-]{1,60}$/)).annotations(
        withMessage("must be 1 to 60 of a-z, 0-9 and -")
      )
    }),
    body: TransferRequestAcceptRequest,
    success: Schema.Void,
    statuses: [204],
    errors: ["BadRequest", "NotFound", "Forbidden", "NotAcceptable"]
  })
})
