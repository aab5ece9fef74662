/**
 * The branch schema endpoints: a database's schema on a branch, as SQL or JSON, now or at a point
 * in its history, and the unified diff between two such schemas (`docs/contract.md` §24).
 *
 * @since 0.5.0
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import { BranchIdInput, branchParams, NameParameter, withMessage } from "../internal/input.js"
import { Timestamp } from "../Timestamp.js"

/**
 * A column of a table: its `name`, its Postgres `type` as the catalog spells it (`integer`,
 * `character varying(100)`, `timestamp with time zone`), whether it allows NULL (`nullable`) and
 * whether it is a generated (computed) column (§24.2).
 *
 * @since 0.5.0
 * @category schemas
 */
export class BranchSchemaColumn extends Schema.Class<BranchSchemaColumn>("BranchSchemaColumn")({
  name: Schema.String,
  type: Schema.String,
  nullable: Schema.optional(Schema.Boolean),
  generated: Schema.optional(Schema.Boolean)
}) {}

/**
 * The table a foreign key refers to: its `schema`, `table` and the referenced `columns` (§24.2).
 *
 * @since 0.5.0
 * @category schemas
 */
export class BranchSchemaReferencedTable extends Schema.Class<BranchSchemaReferencedTable>(
  "BranchSchemaReferencedTable"
)({
  schema: Schema.String,
  table: Schema.String,
  columns: Schema.Array(Schema.String)
}) {}

/**
 * The known kinds of a table constraint: `primary_key`, `unique`, `foreign_key` (§24.2).
 *
 * @since 0.5.0
 * @category schemas
 */
export const KnownBranchSchemaConstraintType = Schema.Literal("primary_key", "unique", "foreign_key")

/**
 * The kind of a table constraint: one of {@link KnownBranchSchemaConstraintType}, or another
 * the platform may add (an open enum, as `OperationAction`).
 *
 * @since 0.5.0
 * @category schemas
 */
export type BranchSchemaConstraintType = typeof KnownBranchSchemaConstraintType.Type | (string & {})

/**
 * Open enum schema of {@link BranchSchemaConstraintType}.
 *
 * @since 0.5.0
 * @category schemas
 */
export const BranchSchemaConstraintType: Schema.Schema<BranchSchemaConstraintType> = Schema.Union(
  Schema.String,
  KnownBranchSchemaConstraintType
).annotations({ identifier: "BranchSchemaConstraintType" })

/**
 * A table constraint: its `type`, the `columns` it is on (at least one, in the platform's
 * words), its `name` when it has one, and for a foreign key the `referenced_table` (§24.2).
 *
 * @since 0.5.0
 * @category schemas
 */
export class BranchSchemaConstraint extends Schema.Class<BranchSchemaConstraint>("BranchSchemaConstraint")({
  type: BranchSchemaConstraintType,
  columns: Schema.Array(Schema.String),
  name: Schema.optional(Schema.String),
  referenced_table: Schema.optional(BranchSchemaReferencedTable)
}) {}

/**
 * A table of a database: its Postgres `schema` (`public`), `name`, `columns` in their order, and
 * its `constraints` when it has any (§24.2).
 *
 * @since 0.5.0
 * @category schemas
 */
export class BranchSchemaTable extends Schema.Class<BranchSchemaTable>("BranchSchemaTable")({
  schema: Schema.String,
  name: Schema.String,
  columns: Schema.Array(BranchSchemaColumn),
  constraints: Schema.optional(Schema.Array(BranchSchemaConstraint))
}) {}

/**
 * A database's schema as JSON: `{ tables }` (§24.2).
 *
 * @since 0.5.0
 * @category schemas
 */
export class BranchSchemaJson extends Schema.Class<BranchSchemaJson>("BranchSchemaJson")({
  tables: Schema.Array(BranchSchemaTable)
}) {}

/**
 * Answer of `GET /projects/{project_id}/branches/{branch_id}/schema`: `sql` (the schema as SQL
 * DDL text) when `format` is `sql`, the default, or `json` ({@link BranchSchemaJson}) when it is
 * `json`; the published reference makes both optional (§24.1).
 *
 * @since 0.5.0
 * @category schemas
 */
export class BranchSchemaDefinition extends Schema.Class<BranchSchemaDefinition>("BranchSchemaDefinition")({
  sql: Schema.optional(Schema.String),
  json: Schema.optional(BranchSchemaJson)
}) {}

/**
 * Answer of `GET /projects/{project_id}/branches/{branch_id}/compare_schema`: `diff`, the
 * difference between the two schemas as SQL text, in unified diff form (the base's lines `-`,
 * the branch's `+`); optional in the published reference (§24.1).
 *
 * @since 0.5.0
 * @category schemas
 */
export class BranchSchemaComparison extends Schema.Class<BranchSchemaComparison>("BranchSchemaComparison")({
  diff: Schema.optional(Schema.String)
}) {}

/**
 * A log sequence number as a client sends it: two hexadecimal numbers of 1 to 8 digits, `/`
 * between them (`0/1F2E3D4`).
 */
const LsnParameter = Schema.String.pipe(Schema.pattern(/^[0-9A-Fa-f]{1,8}\/[0-9A-Fa-f]{1,8}$/)).annotations(
  withMessage("must be a log sequence number such as 0/1F2E3D4")
)

/** `format` of `GET .../schema`: `sql` (the default) or `json`. */
const FormatParameter = Schema.Literal("sql", "json").annotations(withMessage("must be sql or json"))

/** Which database, and the point in its history: the query both endpoints share. */
const pointInTime = {
  db_name: NameParameter,
  lsn: Schema.optional(LsnParameter),
  timestamp: Schema.optional(Timestamp)
}

/**
 * The branch schema endpoints (§24).
 *
 * @since 0.5.0
 * @category endpoints
 */
export const BranchSchema = Endpoint.group("BranchSchema", {
  /**
   * `GET /projects/{project_id}/branches/{branch_id}/schema`: the schema of the database
   * `db_name` of the branch, `{ sql }` (`format` `sql`, the default) or `{ json: { tables } }`
   * (`format` `json`); at its head, or as it was at `lsn` or `timestamp` (RFC 3339), never both
   * (§24.1). 400 for both, a malformed query or a point outside the branch's history, 404 for an
   * unknown project, branch or database.
   */
  get: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/branches/{branch_id}/schema",
    params: branchParams,
    query: Schema.Struct({ ...pointInTime, format: Schema.optional(FormatParameter) }),
    success: BranchSchemaDefinition,
    errors: ["BadRequest", "NotFound", "Forbidden"]
  }),
  /**
   * `GET /projects/{project_id}/branches/{branch_id}/compare_schema`: the unified diff, `{ diff }`,
   * from the schema of the database `db_name` on `base_branch_id` (the branch's parent when
   * absent) at `base_lsn` or `base_timestamp` (its head when both are absent) to its schema on
   * the branch at `lsn` or `timestamp` (its head likewise) (§24.1). 400 for a point given both
   * ways, a malformed query, a point outside a history, or no base (a branch without a parent and
   * no `base_branch_id`), 404 for an unknown project, branch, base branch or database.
   */
  compare: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/branches/{branch_id}/compare_schema",
    params: branchParams,
    query: Schema.Struct({
      ...pointInTime,
      base_branch_id: Schema.optional(BranchIdInput),
      base_lsn: Schema.optional(LsnParameter),
      base_timestamp: Schema.optional(Timestamp)
    }),
    success: BranchSchemaComparison,
    errors: ["BadRequest", "NotFound", "Forbidden"]
  })
})
