/**
 * Compute endpoints (the platform's "endpoints", the Postgres computes of a branch): list a
 * project's, create, read, update, delete, start, suspend and restart (`docs/contract.md` §12).
 * Each method is core's table entry (`Endpoint.computeEndpoints`): its input, answer and exact
 * errors come from there (`docs/design.md` §1.2). A branch's own list is
 * `Branches.listEndpoints`.
 *
 * @since 0.3.0
 */
import { type ComputeEndpoint, Endpoint, type EndpointId, type ProjectId } from "@dbplatform/core"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { DbPlatformClient } from "./DbPlatformClient.js"
import * as Resource from "./Resource.js"

/**
 * The `ComputeEndpoints` service (§12). Each method sends one request and fails with exactly the
 * errors of its endpoint: any call's (`CallError`), `InvalidRequest` for input the table's
 * schemas refuse (nothing is sent), and the statuses its entry declares. Every answer is checked
 * to be about the compute endpoint (and project) asked for; another is a `MalformedResponse`.
 * Mutations refused with 423 Locked (a conflicting operation is running) are retried by the
 * client's retry policy; wait for the operations an answer carries
 * (`Operations.awaitAll(answer.operations)`) before using the compute endpoint or changing it
 * again. Autoscaling limits are compute units (0.25 and up), `suspend_timeout_seconds` seconds
 * (`0`: the platform's default of 300 s, `-1`: never).
 *
 * @since 0.3.0
 */
export interface Service {
  /** `GET /projects/{p}/endpoints`: `{ endpoints }`, every compute endpoint of the project. */
  readonly list: Resource.Method<typeof Endpoint.listComputeEndpoints>
  /** `POST /projects/{p}/endpoints` with `{ endpoint: { branch_id, type, autoscaling_limit_min_cu?, autoscaling_limit_max_cu?, suspend_timeout_seconds? } }` (201): the compute endpoint (`init`) and `operations` (`start_compute`); 409 `Conflict` for a second `read_write` on a branch (not retried), 404 for an unknown branch. */
  readonly create: Resource.Method<typeof Endpoint.createComputeEndpoint>
  /** `GET /projects/{p}/endpoints/{e}`: `{ endpoint }`. */
  readonly get: Resource.Method<typeof Endpoint.getComputeEndpoint>
  /** `PATCH /projects/{p}/endpoints/{e}` with `{ endpoint: { autoscaling_limit_min_cu?, autoscaling_limit_max_cu?, suspend_timeout_seconds? } }`: the compute endpoint as changed and `operations` (`apply_config`). */
  readonly update: Resource.Method<typeof Endpoint.updateComputeEndpoint>
  /** `DELETE /projects/{p}/endpoints/{e}`: `Some({ endpoint, operations })` (`suspend_compute` when it was running), or `None` on a 204 (nothing left to delete). */
  readonly delete: Resource.Method<typeof Endpoint.deleteComputeEndpoint>
  /** `POST /projects/{p}/endpoints/{e}/start`: the compute endpoint and `operations` (`start_compute`; none when it is running already). */
  readonly start: Resource.Method<typeof Endpoint.startComputeEndpoint>
  /** `POST /projects/{p}/endpoints/{e}/suspend`: the compute endpoint and `operations` (`suspend_compute`; none when it is `idle` already). */
  readonly suspend: Resource.Method<typeof Endpoint.suspendComputeEndpoint>
  /** `POST /projects/{p}/endpoints/{e}/restart`: the compute endpoint and `operations` (`suspend_compute`, then `start_compute`). */
  readonly restart: Resource.Method<typeof Endpoint.restartComputeEndpoint>
}

/**
 * The tag of the {@link Service}; `yield* ComputeEndpoints.ComputeEndpoints` in a program,
 * provided by {@link layer} or `DbPlatform.layer`.
 *
 * @since 0.3.0
 * @category tags
 */
export class ComputeEndpoints extends Context.Tag("@dbplatform/client/ComputeEndpoints")<ComputeEndpoints, Service>() {}

/** A compute endpoint path's parameters. */
interface EndpointParams {
  readonly params: { readonly project_id: ProjectId; readonly endpoint_id: EndpointId }
}

/** What is wrong with `endpoint` as the answer about the compute endpoint `params` names, if anything. */
const notAbout = ({ params }: EndpointParams, endpoint: ComputeEndpoint | undefined): string | undefined =>
  endpoint === undefined || (endpoint.id === params.endpoint_id && endpoint.project_id === params.project_id)
    ? undefined
    : `the answer is about compute endpoint ${endpoint.id} of project ${endpoint.project_id}, not ${params.endpoint_id} of ${params.project_id}`

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.3.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.map(DbPlatformClient, (client) =>
  ComputeEndpoints.of(
    Resource.methods(client, Endpoint.computeEndpoints, {
      list: (input, answer) =>
        answer.endpoints
          .filter((endpoint) => endpoint.project_id !== input.params.project_id)
          .map(
            (endpoint) =>
              `the compute endpoint ${endpoint.id} is of project ${endpoint.project_id}, not ${input.params.project_id}`
          )
          .at(0),
      create: ({ body, params }, { endpoint }) =>
        endpoint.project_id === params.project_id && endpoint.branch_id === body.endpoint.branch_id
          ? undefined
          : `the answer is about a compute endpoint of branch ${endpoint.branch_id} of project ${endpoint.project_id}, not ${body.endpoint.branch_id} of ${params.project_id}`,
      get: (input, answer) => notAbout(input, answer.endpoint),
      update: (input, answer) => notAbout(input, answer.endpoint),
      delete: (input, answer) => notAbout(input, answer._tag === "Some" ? answer.value.endpoint : undefined),
      start: (input, answer) => notAbout(input, answer.endpoint),
      suspend: (input, answer) => notAbout(input, answer.endpoint),
      restart: (input, answer) => notAbout(input, answer.endpoint)
    })
  )
)

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.3.0
 * @category layers
 */
export const layer: Layer.Layer<ComputeEndpoints, never, DbPlatformClient> = Layer.effect(ComputeEndpoints, make)
