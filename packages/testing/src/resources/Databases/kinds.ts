/**
 * The kinds of record of the Databases group the fake keeps (`engine/kinds.ts`): each one's shape as a
 * `Snapshot` holds it, and its entry of the table of kinds (`internal/kinds.ts`).
 */
import { Database } from "@dbplatform/core"
import * as ParseResult from "effect/ParseResult"
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

/** A table of a database's schema. */
export type Table = typeof SnapshotSchemaTable.Type

/** The identity of a table in its database: its schema and name. */
export interface TableKey {
  readonly schema: string
  readonly name: string
}

const TableList = Schema.Array(SnapshotSchemaTable)
const decodeTableList = ParseResult.decodeUnknown(TableList)

/**
 * A list of tables in JSON: checked field by field when decoded, written as it is when encoded (a
 * table is plain JSON data in memory too: no field of it is transformed), so that a version of
 * 5,000 tables is written in the time `JSON.stringify` takes, not walked by its schema.
 */
export const SnapshotSchemaTables = Schema.transformOrFail(
  Schema.Unknown,
  // In memory: a list of tables, as the fake made them or decoded them (checked above), not walked again.
  Schema.declare((input): input is ReadonlyArray<Table> => Array.isArray(input), {
    identifier: "SnapshotSchemaTableList"
  }),
  {
    strict: true,
    decode: (input, options) => decodeTableList(input, options),
    encode: (tables) => ParseResult.succeed(tables)
  }
).annotations({ identifier: "SnapshotSchemaTables" })

/** A database's schema from `at` on (until the next version): its tables, by schema and name. */
export const SnapshotSchemaVersion = Schema.Struct({
  at: SnapshotTime,
  tables: SnapshotSchemaTables
}).annotations({ identifier: "SnapshotSchemaVersion" })

/** `schema.name` of a table, as a key and in messages. */
export const keyOf = (schema: string, name: string) => `${schema}.${name}`

/** The order tables are shown in: by schema, then name (`schema.name` as text). */
const byKey = (a: Table, b: Table) => (keyOf(a.schema, a.name) < keyOf(b.schema, b.name) ? -1 : 1)

/** The lists of tables made here in the order they are shown, so that it need not be checked again. */
const orderedLists = new WeakSet<ReadonlyArray<Table>>()

const inOrder = (tables: ReadonlyArray<Table>): ReadonlyArray<Table> => {
  orderedLists.add(tables)
  return tables
}

/** Tables in the order they are shown: by schema, then name. */
export const sorted = (tables: Iterable<Table>): ReadonlyArray<Table> => inOrder(Array.from(tables).sort(byKey))

/** Whether `tables` are in the order they are shown (one made here is; another is checked). */
export const isSorted = (tables: ReadonlyArray<Table>): boolean => {
  if (orderedLists.has(tables)) return true
  for (let i = 1; i < tables.length; i++) if (byKey(tables[i - 1]!, tables[i]!) > 0) return false
  orderedLists.add(tables)
  return true
}

/**
 * `tables` with `changed` put in place of the tables of their names (or added) and `dropped`
 * removed, in the order tables are shown: one pass over `tables` (sorted first if they are not)
 * merged with `changed`, sorted.
 */
export const withChanges = (
  tables: ReadonlyArray<Table>,
  changed: ReadonlyArray<Table>,
  dropped: ReadonlyArray<TableKey>
): ReadonlyArray<Table> => {
  if (changed.length === 0 && dropped.length === 0) return isSorted(tables) ? tables : sorted(tables)
  const gone = new Set<string>(dropped.map((table) => keyOf(table.schema, table.name)))
  for (const table of changed) gone.add(keyOf(table.schema, table.name))
  const kept = (isSorted(tables) ? tables : sorted(tables)).filter(
    (table) => !gone.has(keyOf(table.schema, table.name))
  )
  const added = sorted(changed)
  const merged: Array<Table> = []
  let i = 0
  let j = 0
  while (i < kept.length || j < added.length) {
    if (j === added.length || (i < kept.length && byKey(kept[i]!, added[j]!) < 0)) merged.push(kept[i++]!)
    else merged.push(added[j++]!)
  }
  return inOrder(merged)
}

/** Whether two tables are the same: the same object (a version shares what it did not change), or equal field by field. */
const sameTable = (a: Table, b: Table): boolean => {
  if (a === b) return true
  if (a.schema !== b.schema || a.name !== b.name) return false
  if (a.columns.length !== b.columns.length || a.constraints.length !== b.constraints.length) return false
  for (let i = 0; i < a.columns.length; i++) {
    const x = a.columns[i]!
    const y = b.columns[i]!
    if (
      x.name !== y.name ||
      x.type !== y.type ||
      x.nullable !== y.nullable ||
      x.default !== y.default ||
      x.generated !== y.generated
    ) {
      return false
    }
  }
  for (let i = 0; i < a.constraints.length; i++) {
    const x = a.constraints[i]!
    const y = b.constraints[i]!
    if (x.type !== y.type || x.name !== y.name || x.columns.join("\0") !== y.columns.join("\0")) return false
    const p = x.referenced_table
    const q = y.referenced_table
    if (p === undefined || q === undefined) {
      if (p !== q) return false
    } else if (p.schema !== q.schema || p.table !== q.table || p.columns.join("\0") !== q.columns.join("\0")) {
      return false
    }
  }
  return true
}

/**
 * The change from the tables `before` to the tables `after`: the tables of `after` that `before`
 * lacks or holds otherwise (`changed`), and the tables of `before` that `after` lacks (`dropped`).
 * {@link withChanges} of it on `before` gives `after` (in the order tables are shown).
 */
export const changesBetween = (
  before: ReadonlyArray<Table>,
  after: ReadonlyArray<Table>
): { readonly changed: ReadonlyArray<Table>; readonly dropped: ReadonlyArray<TableKey> } => {
  const old = new Map(before.map((table) => [keyOf(table.schema, table.name), table]))
  const changed: Array<Table> = []
  for (const table of after) {
    const key = keyOf(table.schema, table.name)
    const was = old.get(key)
    if (was === undefined || !sameTable(was, table)) changed.push(table)
    old.delete(key)
  }
  return { changed, dropped: Array.from(old.values(), (table) => ({ schema: table.schema, name: table.name })) }
}

/** A version of a schema as the change from the version before it: the tables added or changed, and those dropped. */
const SnapshotSchemaVersionChange = Schema.Struct({
  at: SnapshotTime,
  changed: SnapshotSchemaTables,
  dropped: Schema.Array(Schema.Struct({ schema: Schema.String, name: Schema.String }))
}).annotations({ identifier: "SnapshotSchemaVersionChange" })

/**
 * A database's schema history (since 0.6.0 in this form): in memory, each version holds its tables
 * whole (sharing with the version before it the tables it did not change); in JSON, the first
 * version gives its `tables` whole and each later one the change from the version before it
 * (`changed`: the tables added or changed, whole; `dropped`: `{ schema, name }` of each table
 * dropped), unless whole is as short. So a state file grows with each migration's change, not with
 * the whole schema per version. A history whose versions are all whole (as 0.5 wrote it) reads as
 * it is; one that starts with a change is refused.
 */
export const SnapshotSchemaHistory = Schema.transformOrFail(
  Schema.Array(Schema.Union(SnapshotSchemaVersion, SnapshotSchemaVersionChange)),
  Schema.Array(Schema.typeSchema(SnapshotSchemaVersion)),
  {
    strict: true,
    decode: (versions, _, ast) => {
      const history: Array<typeof SnapshotSchemaVersion.Type> = []
      for (const version of versions) {
        const last = history[history.length - 1]
        if ("tables" in version) history.push(version)
        else if (last === undefined) {
          return ParseResult.fail(
            new ParseResult.Type(ast, versions, "the first version of a schema history gives its tables whole")
          )
        } else history.push({ at: version.at, tables: withChanges(last.tables, version.changed, version.dropped) })
      }
      return ParseResult.succeed(history)
    },
    encode: (history) =>
      ParseResult.succeed(
        history.map((version, i) => {
          if (i === 0) return version
          const change = changesBetween(history[i - 1]!.tables, version.tables)
          return change.changed.length + change.dropped.length < version.tables.length
            ? { at: version.at, changed: change.changed, dropped: change.dropped }
            : version
        })
      )
  }
).annotations({ identifier: "SnapshotSchemaHistory" })

/**
 * A new version of a database's schema as the change it makes (the databases' `Patch` change,
 * since 0.6.0): the tables `changed` (added or changed, whole) and `dropped` from its last
 * version, in force from `at`; the versions before `from` are dropped (they fell out of the
 * project's history window), as is one at `at` (a point in time has one schema).
 */
export const SchemaVersionPatch = Schema.Struct({
  at: SnapshotTime,
  from: SnapshotTime,
  changed: SnapshotSchemaTables,
  dropped: Schema.Array(Schema.Struct({ schema: Schema.String, name: Schema.String }))
}).annotations({ identifier: "SchemaVersionPatch" })

/** A new version of a database's schema, as the change it makes (see {@link SchemaVersionPatch}). */
export type SchemaVersionChange = typeof SchemaVersionPatch.Type

/**
 * The tables a version change made from the tables it was applied to, for each change applied so
 * far: the fake applies one change several times (for its answer, to its state), each the same.
 */
const versionTables = new WeakMap<
  SchemaVersionChange,
  { readonly base: ReadonlyArray<Table>; readonly tables: ReadonlyArray<Table> }
>()

/**
 * `database` with the version `change` describes added to its schema's history (see
 * {@link SchemaVersionPatch}); `made`, when given, is what the change makes of its last version
 * (known already: a migration made it), kept for the next time the same change is applied to the
 * same version. Applying it twice changes nothing more: the second finds its own version last,
 * which the change leaves as it is.
 */
export const withSchemaVersion = <
  D extends { readonly schema_history?: ReadonlyArray<typeof SnapshotSchemaVersion.Type> | undefined }
>(
  database: D,
  change: SchemaVersionChange,
  made?: ReadonlyArray<Table>
): D => {
  const history = database.schema_history ?? []
  const base = history[history.length - 1]?.tables ?? []
  const known = versionTables.get(change)
  const tables =
    made ??
    (known !== undefined && known.base === base ? known.tables : withChanges(base, change.changed, change.dropped))
  versionTables.set(change, { base, tables })
  const kept = history.filter((version) => version.at >= change.from && version.at < change.at)
  return { ...database, schema_history: [...kept, { at: change.at, tables }] }
}

/**
 * A database of a branch, owned by the role of that branch named `owner_name`. `id` is unique in
 * the account. `schema_history` (since 0.5.0; absent: no tables ever) holds its schema's versions
 * in ascending `at`, each in force until the next: the last is its schema now, and a point in
 * time reads the one in force then (docs/contract.md §24.3). A branch's copy of a database keeps
 * the history, so the branch reads its parent's past before it was created. In JSON the versions
 * after the first are written as changes (see {@link SnapshotSchemaHistory}). Core's `Database`
 * with its project, `id` positive, `branch_id` a plain string, times in epoch ms, and its schema.
 */
export const SnapshotDatabase = Schema.Struct({
  id: Schema.Int.pipe(Schema.positive()),
  project_id: Schema.String,
  branch_id: Schema.String,
  ...Struct.pick(Database.fields, "name", "owner_name"),
  created_at: SnapshotTime,
  updated_at: SnapshotTime,
  schema_history: Schema.optional(SnapshotSchemaHistory)
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
      : [],
  // A migration is recorded as the new version's change, not as the whole database.
  patch: { schema: SchemaVersionPatch, apply: withSchemaVersion }
})

declare module "../../engine/kinds.js" {
  interface Kinds {
    readonly databases: typeof databases
  }
}
