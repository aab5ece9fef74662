/**
 * The compute endpoint endpoints (the platform's "endpoints"): list a project's, create, read, update, delete, start, suspend and restart (`docs/contract.md` §12).
 *
 * @since 0.4.0
 */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import {
  ComputeEndpointCreateRequest,
  ComputeEndpoints as ComputeEndpointList,
  ComputeEndpointEnvelope,
  ComputeEndpointOperations,
  ComputeEndpointUpdateRequest
} from "../ComputeEndpoint.js"
import { EndpointIdInput, ProjectIdParameter, projectParams } from "../internal/input.js"

/** A project's compute endpoint in a path: `project_id` and `endpoint_id`. */
const computeEndpointParams = Schema.Struct({ project_id: ProjectIdParameter, endpoint_id: EndpointIdInput })

/**
 * The compute endpoint endpoints (the platform's "endpoints"): list a project's, create, read, update, delete, start, suspend and restart (`docs/contract.md` §12).
 *
 * @since 0.4.0
 * @category endpoints
 */
export const ComputeEndpoints = Endpoint.group("ComputeEndpoints", {
  /**
   * `GET /projects/{project_id}/endpoints`: every compute endpoint of a project, `{ endpoints }`,
   * newest first (§12). 404 for an unknown project, 403, 400 for a malformed id.
   */
  list: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/endpoints",
    params: projectParams,
    success: ComputeEndpointList,
    errors: ["NotFound", "Forbidden", "BadRequest"],
    list: { items: (answer) => answer.endpoints }
  }),
  /**
   * `POST /projects/{project_id}/endpoints`: creates a compute endpoint on a branch and answers 201
   * with it and the operation started, `start_compute`; it is `init` until that ends, then
   * `active` (§12). 400 for a body the server refuses (a minimum above the maximum), 404 for an
   * unknown project or branch, 403, 409 for a second `read_write` compute endpoint on a branch,
   * 423 while a conflicting operation runs.
   */
  create: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/endpoints",
    params: projectParams,
    body: ComputeEndpointCreateRequest,
    success: ComputeEndpointOperations,
    statuses: [201],
    startsOperations: true,
    errors: ["BadRequest", "NotFound", "Forbidden", "Conflict", "Locked"],
    about: ({ endpoint }) => ({ "endpoint.branch_id": endpoint.branch_id }),
    readBack: {
      entry: (): Endpoint.Named<"ComputeEndpoints.get"> => ComputeEndpoints.get,
      input: ({ endpoint }) => ({ project_id: endpoint.project_id, endpoint_id: endpoint.id })
    }
  }),
  /**
   * `GET /projects/{project_id}/endpoints/{endpoint_id}`: one compute endpoint, `{ endpoint }`
   * (§12). 404 for an unknown project or compute endpoint, 403, 400 for a malformed id.
   */
  get: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/endpoints/{endpoint_id}",
    params: computeEndpointParams,
    success: ComputeEndpointEnvelope,
    errors: ["NotFound", "Forbidden", "BadRequest"],
    about: ({ endpoint }) => ({ endpoint_id: endpoint.id })
  }),
  /**
   * `PATCH /projects/{project_id}/endpoints/{endpoint_id}`: changes a compute endpoint's
   * autoscaling limits (compute units) or suspend timeout (seconds); answers it and the operation
   * started, `apply_config` (§12). 400 for a minimum above the maximum, 404, 423 while a
   * conflicting operation runs.
   */
  update: Endpoint.make({
    method: "PATCH",
    route: "/projects/{project_id}/endpoints/{endpoint_id}",
    params: computeEndpointParams,
    body: ComputeEndpointUpdateRequest,
    success: ComputeEndpointOperations,
    startsOperations: true,
    errors: ["BadRequest", "NotFound", "Forbidden", "Locked"],
    about: ({ endpoint }) => ({ endpoint_id: endpoint.id }),
    readBack: {
      entry: (): Endpoint.Named<"ComputeEndpoints.get"> => ComputeEndpoints.get,
      input: ({ endpoint }) => ({ project_id: endpoint.project_id, endpoint_id: endpoint.id })
    }
  }),
  /**
   * `DELETE /projects/{project_id}/endpoints/{endpoint_id}`: deletes a compute endpoint (later
   * reads are 404). Answers 200 with it and the operations started (`suspend_compute` when it was
   * running), decoded as `Some`; or 204 with no body, decoded as `None` (nothing left to delete)
   * (§12). 404 for an unknown project, 423 while a conflicting operation runs.
   */
  delete: Endpoint.make({
    method: "DELETE",
    route: "/projects/{project_id}/endpoints/{endpoint_id}",
    params: computeEndpointParams,
    success: Schema.OptionFromUndefinedOr(ComputeEndpointOperations),
    statuses: [200, 204],
    startsOperations: true,
    errors: ["BadRequest", "NotFound", "Forbidden", "Locked"],
    about: (deleted) => ({ endpoint_id: Option.getOrUndefined(deleted)?.endpoint.id })
  }),
  /**
   * `POST /projects/{project_id}/endpoints/{endpoint_id}/start`: starts a suspended (`idle`)
   * compute endpoint; answers it and the operation started, `start_compute` (none when it is
   * already running) (§12). 404, 423 while a conflicting operation runs.
   */
  start: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/endpoints/{endpoint_id}/start",
    params: computeEndpointParams,
    success: ComputeEndpointOperations,
    startsOperations: true,
    errors: ["BadRequest", "NotFound", "Forbidden", "Locked"],
    about: ({ endpoint }) => ({ endpoint_id: endpoint.id }),
    readBack: {
      entry: (): Endpoint.Named<"ComputeEndpoints.get"> => ComputeEndpoints.get,
      input: ({ endpoint }) => ({ project_id: endpoint.project_id, endpoint_id: endpoint.id })
    }
  }),
  /**
   * `POST /projects/{project_id}/endpoints/{endpoint_id}/suspend`: suspends a running compute
   * endpoint; answers it and the operation started, `suspend_compute` (none when it is already
   * `idle`); it is `idle` once that ends (§12). 404, 423 while a conflicting operation runs.
   */
  suspend: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/endpoints/{endpoint_id}/suspend",
    params: computeEndpointParams,
    success: ComputeEndpointOperations,
    startsOperations: true,
    errors: ["BadRequest", "NotFound", "Forbidden", "Locked"],
    about: ({ endpoint }) => ({ endpoint_id: endpoint.id }),
    readBack: {
      entry: (): Endpoint.Named<"ComputeEndpoints.get"> => ComputeEndpoints.get,
      input: ({ endpoint }) => ({ project_id: endpoint.project_id, endpoint_id: endpoint.id })
    }
  }),
  /**
   * `POST /projects/{project_id}/endpoints/{endpoint_id}/restart`: suspends a compute endpoint and
   * starts it again; answers it and the operations started, `suspend_compute` then
   * `start_compute` (only `start_compute` for an `idle` one) (§12). 404, 423 while a conflicting
   * operation runs.
   */
  restart: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/endpoints/{endpoint_id}/restart",
    params: computeEndpointParams,
    success: ComputeEndpointOperations,
    startsOperations: true,
    errors: ["BadRequest", "NotFound", "Forbidden", "Locked"],
    about: ({ endpoint }) => ({ endpoint_id: endpoint.id }),
    readBack: {
      entry: (): Endpoint.Named<"ComputeEndpoints.get"> => ComputeEndpoints.get,
      input: ({ endpoint }) => ({ project_id: endpoint.project_id, endpoint_id: endpoint.id })
    }
  })
})
