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
 * The compute provisioners known today (§12): `k8s-pod`, `k8s-neonvm` (the one that autoscales)
 * and `serverless-platform`.
 *
 * @since 0.5.0
 * @category schemas
 */
export const KnownProvisioner = Schema.Literal("k8s-pod", "k8s-neonvm", "serverless-platform")

/**
 * A compute provisioner: one of {@link KnownProvisioner}, or any other string (kept as is, and
 * sent as given: the platform decides).
 *
 * @since 0.5.0
 * @category schemas
 */
export type Provisioner = typeof KnownProvisioner.Type | (string & {})

/**
 * Open enum schema of {@link Provisioner}.
 *
 * @since 0.5.0
 * @category schemas
 */
export const Provisioner: Schema.Schema<Provisioner> = openEnum(KnownProvisioner, "Provisioner")

/** Settings by name, both strings: Postgres's (`pg_settings`), PgBouncer's (`pgbouncer_settings`). */
const SettingsMap = Schema.Record({ key: Schema.String, value: Schema.String })

/**
 * The settings of a compute endpoint (§12): `pg_settings` (Postgres settings, name to value,
 * both strings), `preload_libraries`, and since 0.5.0 `pgbouncer_settings` (PgBouncer's, name to
 * value; deprecated by the platform).
 *
 * @since 0.3.0
 * @category schemas
 */
export class ComputeEndpointSettings extends Schema.Class<ComputeEndpointSettings>("ComputeEndpointSettings")({
  pg_settings: Schema.optional(SettingsMap),
  pgbouncer_settings: Schema.optional(SettingsMap),
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
 * `last_active`, `started_at` and `suspended_at` are sent once they happened;
 * `compute_release_version` (since 0.5.0) is the release of the compute attached to it. Unknown
 * fields are ignored.
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
  suspended_at: Schema.optional(Timestamp),
  compute_release_version: Schema.optional(Schema.String)
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
 * A compute endpoint's settings as a request gives them (§12): `pg_settings` (Postgres settings,
 * name to value, both strings), `pgbouncer_settings` (PgBouncer's; deprecated by the platform),
 * `preload_libraries` (`use_defaults`, `enabled_libraries`), each optional.
 *
 * @since 0.5.0
 * @category schemas
 */
export const ComputeEndpointSettingsRequest = Schema.Struct({
  pg_settings: Schema.optional(SettingsMap),
  pgbouncer_settings: Schema.optional(SettingsMap),
  preload_libraries: Schema.optional(
    Schema.Struct({
      use_defaults: Schema.optional(Schema.Boolean),
      enabled_libraries: Schema.optional(Schema.Array(Schema.String))
    })
  )
}).annotations({ identifier: "ComputeEndpointSettingsRequest" })

/**
 * The fields a compute endpoint's create and update both take beyond its autoscaling limits and
 * suspend timeout (§12): `name` (1 to 64 characters), `settings`, `provisioner`, `disabled`
 * (connections refused; the compute endpoint is suspended), `passwordless_access` (not yet
 * implemented by the platform), and the deprecated `pooler_enabled` and `pooler_mode` (only
 * `transaction`).
 */
const computeEndpointOptions = {
  ...computeEndpointSettings,
  name: Schema.optional(
    Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64)).annotations(withMessage("must be 1 to 64 characters"))
  ),
  settings: Schema.optional(ComputeEndpointSettingsRequest),
  provisioner: Schema.optional(Provisioner),
  disabled: Schema.optional(Schema.Boolean),
  passwordless_access: Schema.optional(Schema.Boolean),
  pooler_enabled: Schema.optional(Schema.Boolean),
  pooler_mode: Schema.optional(Schema.Literal("transaction").annotations(withMessage("must be transaction")))
}

/**
 * Body of `POST /projects/{project_id}/endpoints` (§12): `{ endpoint: { branch_id, type,
 * autoscaling_limit_min_cu?, autoscaling_limit_max_cu?, suspend_timeout_seconds? } }`. `type`
 * is `read_write` (at most one per branch: a second is refused with 409) or `read_only`; the
 * autoscaling limits are compute units (0.25 and up, the minimum at most the maximum);
 * `suspend_timeout_seconds` is seconds of inactivity before the compute endpoint is suspended
 * (`0`: the platform's default, 300 s; `-1`: never; at most 604 800, a week). Since 0.5.0 also
 * `region_id` (only the project's region is permitted), `name` (1 to 64 characters), `settings`
 * ({@link ComputeEndpointSettingsRequest}), `provisioner`, `disabled`, `passwordless_access`, and
 * the deprecated `pooler_enabled` and `pooler_mode` (`transaction`).
 *
 * @since 0.3.0
 * @category schemas
 */
export const ComputeEndpointCreateRequest = Schema.Struct({
  endpoint: Schema.Struct({
    branch_id: BranchIdInput,
    type: KnownComputeEndpointType.annotations(withMessage("must be read_write or read_only")),
    region_id: Schema.optional(Schema.String),
    ...computeEndpointOptions
  })
}).annotations({ identifier: "ComputeEndpointCreateRequest" })

/**
 * Body of `PATCH /projects/{project_id}/endpoints/{endpoint_id}` (§12): `{ endpoint: {
 * autoscaling_limit_min_cu?, autoscaling_limit_max_cu?, suspend_timeout_seconds? } }`, the
 * settings to change, in the units of {@link ComputeEndpointCreateRequest}. Since 0.5.0 also the
 * other fields a create takes but `type` and `region_id` (`name`, `settings`, `provisioner`,
 * `disabled`, `passwordless_access`, `pooler_enabled`, `pooler_mode`), and the deprecated
 * `branch_id`, a branch to move it to.
 *
 * @since 0.3.0
 * @category schemas
 */
export const ComputeEndpointUpdateRequest = Schema.Struct({
  endpoint: Schema.Struct({
    branch_id: Schema.optional(BranchIdInput),
    ...computeEndpointOptions
  })
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
