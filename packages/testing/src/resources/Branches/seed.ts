/**
 * The Branches group's part of a seed (its branches): its schema, in a seed file as in code, derived
 * from the kind the fake keeps (`kinds.ts`), with times relative to the start. `Seed.ts`
 * assembles the parts and documents them.
 */
import * as Schema from "effect/Schema"
import { SeedDuration } from "../../engine/seed.js"
import { SnapshotBranch } from "./kinds.js"

const branch = SnapshotBranch.fields

/** `Seed.SeedBranchFile` (documented there). */
export const SeedBranchFile = Schema.Struct({
  project_id: branch.project_id,
  /** Matches `^[a-z0-9-]{1,60}$`, e.g. `br-wispy-meadow-118737`; generated when absent (the same for the same seed). */
  id: Schema.optional(branch.id),
  /** `main` for the default branch, the id for the others, when absent. */
  name: Schema.optional(branch.name.pipe(Schema.minLength(1), Schema.maxLength(256))),
  parent_id: branch.parent_id,
  default: Schema.optional(branch.default),
  /** `false` by default. */
  protected: Schema.optional(branch.protected),
  /** How long before the start it was created; with its project when absent. */
  age: Schema.optional(SeedDuration),
  /** How long after the start it becomes `ready` (`init` until then); ready at its creation when absent. */
  readyIn: Schema.optional(SeedDuration),
  /**
   * Since 0.5.0: how long after the start it expires (`expires_at`; the control plane deletes
   * it at the sweep after, docs/contract.md §18); it does not expire when absent. Not on the
   * project's default branch.
   */
  expiresIn: Schema.optional(SeedDuration),
  /** Since 0.5.0: `true` for a branch in archival storage (`current_state` `archived` once ready). */
  archived: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "SeedBranch" })
