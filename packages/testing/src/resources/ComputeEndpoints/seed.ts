/**
 * The ComputeEndpoints group's part of a seed (its compute endpoints): its schema, in a seed file as in code, derived
 * from the kind the fake keeps (`kinds.ts`), with times relative to the start. `Seed.ts`
 * assembles the parts and documents them.
 */
import * as Schema from "effect/Schema"
import { SeedDuration } from "../../engine/seed.js"
import { SnapshotEndpoint } from "./kinds.js"

const endpoint = SnapshotEndpoint.fields

/** `Seed.SeedEndpointFile` (documented there). */
export const SeedEndpointFile = Schema.Struct({
  branch_id: endpoint.branch_id,
  /** Matches `^[a-z0-9-]{1,60}$`, e.g. `ep-proud-mud-a5x8dq2u`; generated when absent. */
  id: Schema.optional(endpoint.id),
  /** `read_write` by default. */
  type: Schema.optional(Schema.Literal("read_write", "read_only")),
  /** Compute units; 0.25 by default. */
  autoscaling_limit_min_cu: Schema.optional(endpoint.autoscaling_limit_min_cu.pipe(Schema.positive())),
  /** Compute units; 0.25 by default. */
  autoscaling_limit_max_cu: Schema.optional(endpoint.autoscaling_limit_max_cu.pipe(Schema.positive())),
  /** Seconds of inactivity before it suspends (0: the platform's default); 0 by default. */
  suspend_timeout_seconds: Schema.optional(endpoint.suspend_timeout_seconds.pipe(Schema.int())),
  /** How long before the start it was created; with its branch when absent. */
  age: Schema.optional(SeedDuration),
  /** How long after the start it becomes `active` (`init` until then); active at its creation when absent. */
  activeIn: Schema.optional(SeedDuration)
}).annotations({ identifier: "SeedEndpoint" })
