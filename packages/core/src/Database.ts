/**
 * Databases: the Postgres databases of a branch, the request bodies that create and change one
 * and the answers of the database endpoints (`docs/contract.md` §11.3, §15).
 *
 * @since 0.3.0
 */
import * as Schema from "effect/Schema"
import { BranchId } from "./Ids.js"
import { PostgresName } from "./internal/input.js"
import { Operation } from "./Operation.js"
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

/**
 * Answer of `GET /projects/{project_id}/branches/{branch_id}/databases`: `{ databases }`, the
 * branch's databases (§15.1).
 *
 * @since 0.3.0
 * @category schemas
 */
export class DatabaseList extends Schema.Class<DatabaseList>("DatabaseList")({
  databases: Schema.Array(Database)
}) {}

/**
 * Answer of `GET /projects/{project_id}/branches/{branch_id}/databases/{database_name}`:
 * `{ database }` (§15.1).
 *
 * @since 0.3.0
 * @category schemas
 */
export class DatabaseEnvelope extends Schema.Class<DatabaseEnvelope>("DatabaseEnvelope")({
  database: Database
}) {}

/**
 * Answer of a request that changes a database (create, update, delete): `{ database,
 * operations }`, the database as it is now and the operations the request started
 * (`apply_config`) (§15.1, §15.3).
 *
 * @since 0.3.0
 * @category schemas
 */
export class DatabaseOperations extends Schema.Class<DatabaseOperations>("DatabaseOperations")({
  database: Database,
  operations: Schema.Array(Operation)
}) {}

/**
 * Body of `POST /projects/{project_id}/branches/{branch_id}/databases` (§15.1): `{ database: {
 * name, owner_name } }`, a name of 1 to 63 bytes (UTF-8) unique on the branch, owned by a role
 * of the branch.
 *
 * @since 0.3.0
 * @category schemas
 */
export const DatabaseCreateRequest = Schema.Struct({
  database: Schema.Struct({ name: PostgresName, owner_name: PostgresName })
}).annotations({ identifier: "DatabaseCreateRequest" })

/**
 * Body of `PATCH /projects/{project_id}/branches/{branch_id}/databases/{database_name}`
 * (§15.1): `{ database: { name?, owner_name? } }`, a new name (1 to 63 bytes) and/or a new owner
 * (a role of the branch).
 *
 * @since 0.3.0
 * @category schemas
 */
export const DatabaseUpdateRequest = Schema.Struct({
  database: Schema.Struct({ name: Schema.optional(PostgresName), owner_name: Schema.optional(PostgresName) })
}).annotations({ identifier: "DatabaseUpdateRequest" })
