/**
 * Compute endpoints: the Postgres computes of a branch, which the platform calls "endpoints"
 * (`docs/contract.md` §11.2, §12); the request bodies of the compute endpoint endpoints and the
 * shapes they answer with. Named `ComputeEndpoint` here because `Endpoint` is core's
 * table of API endpoints (`docs/design.md` §1.1); the id keeps the wire's name, `EndpointId`.
 *
 * @since 0.3.0
 */
import * as Schema from "effect/Schema"
import { BranchId, EndpointId, ProjectId } from "./Ids.js"
import { BranchIdInput, computeEndpointSettings, withMessage } from "./internal/input.js"
import { openEnum } from "./internal/openEnum.js"
import { Operation } from "./Operation.js"
import { Timestamp } from "./Timestamp.js"

/**
 * The compute endpoint types known today: `read_write` (at most one per branch) and
 * `read_only` (§11.2).
 *
 * @since 0.3.0
 * @category schemas
 */
export const KnownComputeEndpointType = Schema.Literal("read_write", "read_only")

/**
 * A compute endpoint's type: one of {@link KnownComputeEndpointType}, or any other string a
 * newer server sends (kept as is).
 *
 * @since 0.3.0
 * @category schemas
 */
export type ComputeEndpointType = typeof KnownComputeEndpointType.Type | (string & {})

/**
 * Open enum schema of {@link ComputeEndpointType}.
 *
 * @since 0.3.0
 * @category schemas
 */
export const ComputeEndpointType: Schema.Schema<ComputeEndpointType> = openEnum(
  KnownComputeEndpointType,
  "ComputeEndpointType"
)

/**
 * The compute endpoint states known today: `init` (being created), `active` (running),
 * `idle` (suspended) (§11.2).
 *
 * @since 0.3.0
 * @category schemas
 */
export const KnownComputeEndpointState = Schema.Literal("init", "active", "idle")

/**
 * A compute endpoint's state: one of {@link KnownComputeEndpointState}, or any other string
 * (kept as is).
 *
 * @since 0.3.0
 * @category schemas
 */
export type ComputeEndpointState = typeof KnownComputeEndpointState.Type | (string & {})

/**
 * Open enum schema of {@link ComputeEndpointState}.
 *
 * @since 0.3.0
 * @category schemas
 */
export const ComputeEndpointState: Schema.Schema<ComputeEndpointState> = openEnum(
  KnownComputeEndpointState,
  "ComputeEndpointState"
)

/**
 * The settings of a compute endpoint this SDK reads: `pg_settings` (Postgres settings, name
 * to value, both strings) and `preload_libraries`. Other fields are left out.
 *
 * @since 0.3.0
 * @category schemas
 */
export class ComputeEndpointSettings extends Schema.Class<ComputeEndpointSettings>("ComputeEndpointSettings")({
  pg_settings: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })),
  preload_libraries: Schema.optional(
    Schema.Struct({
      use_defaults: Schema.optional(Schema.Boolean),
      enabled_libraries: Schema.optional(Schema.Array(Schema.String))
    })
  )
}) {}

/**
 * A compute endpoint (§11.2). Units: `autoscaling_limit_min_cu` and
 * `autoscaling_limit_max_cu` in compute units (0.25 and up);
 * `suspend_timeout_seconds` in seconds (`0`: the platform's default of 300 s, `-1`: never
 * suspend, at most 604 800 s, a week). `host` is where a client connects; `proxy_host` is
 * deprecated in favour of it. `pooler_enabled` and `pooler_mode` are deprecated by the platform.
 * `last_active`, `started_at` and `suspended_at` are sent once they happened. Unknown fields are
 * ignored.
 *
 * @since 0.3.0
 * @category schemas
 */
export class ComputeEndpoint extends Schema.Class<ComputeEndpoint>("ComputeEndpoint")({
  id: EndpointId,
  host: Schema.String,
  project_id: ProjectId,
  branch_id: BranchId,
  region_id: Schema.String,
  type: ComputeEndpointType,
  current_state: ComputeEndpointState,
  pending_state: Schema.optional(ComputeEndpointState),
  autoscaling_limit_min_cu: Schema.Number,
  autoscaling_limit_max_cu: Schema.Number,
  suspend_timeout_seconds: Schema.Number,
  pooler_enabled: Schema.Boolean,
  pooler_mode: Schema.String,
  disabled: Schema.Boolean,
  passwordless_access: Schema.Boolean,
  creation_source: Schema.String,
  created_at: Timestamp,
  updated_at: Timestamp,
  proxy_host: Schema.String,
  provisioner: Schema.String,
  settings: ComputeEndpointSettings,
  name: Schema.optional(Schema.String),
  last_active: Schema.optional(Timestamp),
  started_at: Schema.optional(Timestamp),
  suspended_at: Schema.optional(Timestamp)
}) {}

/**
 * Answer of `GET /projects/{project_id}/branches/{branch_id}/endpoints`: `{ endpoints }`, the
 * branch's compute endpoints (§11.4).
 *
 * @since 0.3.0
 * @category schemas
 */
export class ComputeEndpoints extends Schema.Class<ComputeEndpoints>("ComputeEndpoints")({
  endpoints: Schema.Array(ComputeEndpoint)
}) {}

/**
 * Body of `POST /projects/{project_id}/endpoints` (§12): `{ endpoint: { branch_id, type,
 * autoscaling_limit_min_cu?, autoscaling_limit_max_cu?, suspend_timeout_seconds? } }`. `type`
 * is `read_write` (at most one per branch: a second is refused with 409) or `read_only`; the
 * autoscaling limits are compute units (0.25 and up, the minimum at most the maximum);
 * `suspend_timeout_seconds` is seconds of inactivity before the compute endpoint is suspended
 * (`0`: the platform's default, 300 s; `-1`: never; at most 604 800, a week).
 *
 * @since 0.3.0
 * @category schemas
 */
export const ComputeEndpointCreateRequest = Schema.Struct({
  endpoint: Schema.Struct({
    branch_id: BranchIdInput,
    type: KnownComputeEndpointType.annotations(withMessage("must be read_write or read_only")),
    ...computeEndpointSettings
  })
}).annotations({ identifier: "ComputeEndpointCreateRequest" })

/**
 * Body of `PATCH /projects/{project_id}/endpoints/{endpoint_id}` (§12): `{ endpoint: {
 * autoscaling_limit_min_cu?, autoscaling_limit_max_cu?, suspend_timeout_seconds? } }`, the
 * settings to change, in the units of {@link ComputeEndpointCreateRequest}.
 *
 * @since 0.3.0
 * @category schemas
 */
export const ComputeEndpointUpdateRequest = Schema.Struct({
  endpoint: Schema.Struct(computeEndpointSettings)
}).annotations({ identifier: "ComputeEndpointUpdateRequest" })

/**
 * Answer of `GET /projects/{project_id}/endpoints/{endpoint_id}`: `{ endpoint }` (§12).
 *
 * @since 0.3.0
 * @category schemas
 */
export class ComputeEndpointEnvelope extends Schema.Class<ComputeEndpointEnvelope>("ComputeEndpointEnvelope")({
  endpoint: ComputeEndpoint
}) {}

/**
 * What a compute endpoint mutation answers (create 201, update, delete, start, suspend,
 * restart): `{ endpoint, operations }`, the compute endpoint and the operations the request
 * started (`start_compute`, `suspend_compute`, `apply_config`; §12).
 *
 * @since 0.3.0
 * @category schemas
 */
export class ComputeEndpointOperations extends Schema.Class<ComputeEndpointOperations>("ComputeEndpointOperations")({
  endpoint: ComputeEndpoint,
  operations: Schema.Array(Operation)
}) {}
