/**
 * The kinds of record of the ComputeEndpoints group the fake keeps (`engine/kinds.ts`): each one's shape as a
 * `Snapshot` holds it, and its entry of the table of kinds (`internal/kinds.ts`).
 */
import { ComputeEndpoint, ComputeEndpointUpdateRequest } from "@dbplatform/core"
import * as Schema from "effect/Schema"
import * as Struct from "effect/Struct"
import { kind, newestFirst, slugProblem, SnapshotTime } from "../../engine/kinds.js"

/**
 * The fields of a compute endpoint the fake keeps as a request gives them, in core's own schema
 * of them (that of `PATCH /projects/{project_id}/endpoints/{endpoint_id}`, docs/contract.md §12).
 */
export const EndpointOptions = ComputeEndpointUpdateRequest.fields.endpoint.pick(
  "name",
  "settings",
  "provisioner",
  "disabled",
  "passwordless_access",
  "pooler_enabled",
  "pooler_mode"
)

/**
 * A compute endpoint: `active_at` is the end of its last `start_compute`, `suspended_at` the end
 * of its last `suspend_compute` (never suspended: absent), `last_active` its last connection
 * (none: absent). Its `current_state` is `init` until it first becomes `active`, then `active`
 * or `idle` after whichever of the two came last (docs/contract.md §12). Since 0.5.0 also, each
 * optional, as a request gave them ({@link EndpointOptions}): `name`, `settings`, `provisioner`
 * (absent: the project's), `disabled`, `passwordless_access`, `pooler_enabled`, `pooler_mode`.
 * Core's `ComputeEndpoint` as the fake keeps it: the fields it keeps (its state, host and the
 * rest are derived when it is read), ids and `type` plain strings, times in epoch ms.
 */
export const SnapshotEndpoint = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  branch_id: Schema.String,
  type: Schema.String,
  ...Struct.pick(
    ComputeEndpoint.fields,
    "autoscaling_limit_min_cu",
    "autoscaling_limit_max_cu",
    "suspend_timeout_seconds"
  ),
  created_at: SnapshotTime,
  updated_at: SnapshotTime,
  active_at: SnapshotTime,
  suspended_at: Schema.optional(SnapshotTime),
  last_active: Schema.optional(SnapshotTime),
  ...EndpointOptions.fields
}).annotations({ identifier: "SnapshotEndpoint" })

export const endpoints = kind({
  label: "endpoint",
  schema: SnapshotEndpoint,
  id: Schema.String,
  idOf: (endpoint) => endpoint.id,
  parent: { kind: "branches", of: (endpoint) => endpoint.branch_id },
  rank: newestFirst,
  check: (endpoint) => slugProblem("endpoint", endpoint.id)
})

declare module "../../engine/kinds.js" {
  interface Kinds {
    readonly endpoints: typeof endpoints
  }
}
