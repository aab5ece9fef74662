/**
 * The Roles group's part of a seed (its roles): its schema, in a seed file as in code, derived
 * from the kind the fake keeps (`kinds.ts`), with times relative to the start. `Seed.ts`
 * assembles the parts and documents them.
 */
import * as Schema from "effect/Schema"
import { SeedDuration } from "../../engine/seed.js"
import { SnapshotRole } from "./kinds.js"

const role = SnapshotRole.fields

/** `Seed.SeedRoleFile` (documented there). */
export const SeedRoleFile = Schema.Struct({
  branch_id: role.branch_id,
  name: role.name.pipe(Schema.minLength(1), Schema.maxLength(63)),
  /** Generated when absent: 16 letters and digits. */
  password: Schema.optional(role.password.pipe(Schema.minLength(1))),
  /** `false` by default. */
  protected: Schema.optional(role.protected),
  /** How long before the start it was created; with its branch when absent. */
  age: Schema.optional(SeedDuration)
}).annotations({ identifier: "SeedRole" })
