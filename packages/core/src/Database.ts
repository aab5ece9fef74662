/**
 * Databases: the Postgres databases of a branch (`docs/contract.md` §11.3).
 *
 * @since 0.3.0
 */
import * as Schema from "effect/Schema"
import { BranchId } from "./Ids.js"
import { Timestamp } from "./Timestamp.js"

/**
 * A Postgres database of a branch (§11.3): `id` an integer, `owner_name` the name of the role
 * that owns it. Unknown fields are ignored.
 *
 * @since 0.3.0
 * @category schemas
 */
export class Database extends Schema.Class<Database>("Database")({
  id: Schema.Int,
  branch_id: BranchId,
  name: Schema.String,
  owner_name: Schema.String,
  created_at: Timestamp,
  updated_at: Timestamp
}) {}
