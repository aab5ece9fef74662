/**
 * The kinds of record of the Databases group the fake keeps (`engine/kinds.ts`): each one's shape as a
 * `Snapshot` holds it, and its entry of the table of kinds (`internal/kinds.ts`).
 */
import { Database } from "@dbplatform/core"
import * as Schema from "effect/Schema"
import * as Struct from "effect/Struct"
import { kind, newestFirst, SnapshotTime } from "../../engine/kinds.js"

/**
 * A column of a table of a database's schema (docs/contract.md §24.3): its Postgres `type` as the
 * catalog spells it, `nullable`, and its `default` and `generated` expressions as SQL text when it
 * has them (a generated column has no default).
 */
export const SnapshotSchemaColumn = Schema.Struct({
  name: Schema.String,
  type: Schema.String,
  nullable: Schema.Boolean,
  default: Schema.optional(Schema.String),
  generated: Schema.optional(Schema.String)
}).annotations({ identifier: "SnapshotSchemaColumn" })

/** A table constraint: `primary_key`, `unique` or `foreign_key` (with the table it refers to), always named. */
export const SnapshotSchemaConstraint = Schema.Struct({
  type: Schema.Literal("primary_key", "unique", "foreign_key"),
  name: Schema.String,
  columns: Schema.NonEmptyArray(Schema.String),
  referenced_table: Schema.optional(
    Schema.Struct({ schema: Schema.String, table: Schema.String, columns: Schema.Array(Schema.String) })
  )
}).annotations({ identifier: "SnapshotSchemaConstraint" })

/** A table of a database's schema: its Postgres schema (`public`), name, columns in order and constraints. */
export const SnapshotSchemaTable = Schema.Struct({
  schema: Schema.String,
  name: Schema.String,
  columns: Schema.Array(SnapshotSchemaColumn),
  constraints: Schema.Array(SnapshotSchemaConstraint)
}).annotations({ identifier: "SnapshotSchemaTable" })

/** A database's schema from `at` on (until the next version): its tables, by schema and name. */
export const SnapshotSchemaVersion = Schema.Struct({
  at: SnapshotTime,
  tables: Schema.Array(SnapshotSchemaTable)
}).annotations({ identifier: "SnapshotSchemaVersion" })

/**
 * A database of a branch, owned by the role of that branch named `owner_name`. `id` is unique in
 * the account. `schema_history` (since 0.5.0; absent: no tables ever) holds its schema's versions
 * in ascending `at`, each in force until the next: the last is its schema now, and a point in
 * time reads the one in force then (docs/contract.md §24.3). A branch's copy of a database keeps
 * the history, so the branch reads its parent's past before it was created. Core's `Database`
 * with its project, `id` positive, `branch_id` a plain string, times in epoch ms, and its schema.
 */
export const SnapshotDatabase = Schema.Struct({
  id: Schema.Int.pipe(Schema.positive()),
  project_id: Schema.String,
  branch_id: Schema.String,
  ...Struct.pick(Database.fields, "name", "owner_name"),
  created_at: SnapshotTime,
  updated_at: SnapshotTime,
  schema_history: Schema.optional(Schema.Array(SnapshotSchemaVersion))
}).annotations({ identifier: "SnapshotDatabase" })

export const databases = kind({
  label: "database",
  schema: SnapshotDatabase,
  id: Schema.Number,
  idOf: (database) => database.id,
  parent: { kind: "branches", of: (database) => database.branch_id },
  rank: newestFirst,
  // A schema's versions in ascending time, one per millisecond: a point in time reads one.
  check: (database) =>
    (database.schema_history ?? []).some((version, i, all) => i > 0 && version.at <= all[i - 1]!.at)
      ? [`database ${database.id}: its schema_history is not in ascending time`]
      : []
})

declare module "../../engine/kinds.js" {
  interface Kinds {
    readonly databases: typeof databases
  }
}
