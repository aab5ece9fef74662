/**
 * Roles: the Postgres roles of a branch (`docs/contract.md` §11.3).
 *
 * @since 0.3.0
 */
import * as Schema from "effect/Schema"
import { BranchId } from "./Ids.js"
import { Timestamp } from "./Timestamp.js"

/**
 * A Postgres role of a branch (§11.3). `password` is sent only where the platform reveals it
 * (when the role is created, e.g. with a branch): it decodes to a `Redacted<string>`, which
 * never shows in a log, `String()` or `JSON.stringify`, and encodes back to the string.
 * `protected` roles cannot be changed by users. Unknown fields are ignored.
 *
 * @since 0.3.0
 * @category schemas
 */
export class Role extends Schema.Class<Role>("Role")({
  branch_id: BranchId,
  name: Schema.String,
  // Exact: an optional field is a union with `undefined`, and a union that fails names the value.
  password: Schema.optionalWith(Schema.Redacted(Schema.String), { exact: true }),
  protected: Schema.optional(Schema.Boolean),
  created_at: Timestamp,
  updated_at: Timestamp
}) {}
