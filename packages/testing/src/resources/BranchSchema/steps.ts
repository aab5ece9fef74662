/**
 * What the fake's branch schema routes do (docs/contract.md §24): reads of a database's schema on
 * a branch at a point in its history, the unified diff of two of them (`diff.ts`: from the
 * tables that differ, in jsdiff's format), and the migration a test or the control API applies. The
 * schema lives on the database record as its history (`schema_history`, `resources/Databases/kinds.ts`); a branch's
 * copy of a database keeps the history, so a branch starts with its parent's schema and reads
 * the parent's past from before it was created. A new version shares every table it did not
 * change with the last one, and the journal records it as that change (a databases `Patch` change),
 * not as the whole history.
 *
 * Log sequence numbers: the fake has no write-ahead log, so its LSN is its clock. The position
 * at epoch millisecond `t` is `t × 256` bytes, printed as Postgres prints an LSN (two
 * hexadecimal halves of 32 bits, `1996E/2A3C5B00`); an LSN stands for the millisecond it falls
 * in. Monotone in time, the same on every branch.
 */
import { Api } from "@dbplatform/core"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { databaseOf } from "../Databases/steps.js"
import { get, type Mutation, type State, type StoredDatabase, type StoredProject } from "../../engine/state.js"
import { retentionMillis } from "../../engine/lifecycle.js"
import { lsnAt, timeOfLsn } from "../../engine/lsn.js"
import { Status } from "../../engine/status.js"
import { at } from "../../engine/wire.js"
import { notFound, refused, Refusal } from "../../engine/refusal.js"
import { branchOf } from "../../engine/records.js"
import type { Steps } from "../../engine/slices.js"
import { type SchemaVersionChange, withSchemaVersion } from "../Databases/kinds.js"
import type { Applied } from "./ddl.js"
import { type DiffNames, schemaDiff } from "./diff.js"
import { renderSql, type Table } from "./sql.js"

/** The tables of `database` in force at `at` (epoch ms): none before its first version. */
export const tablesAt = (database: StoredDatabase, at: number): ReadonlyArray<Table> => {
  let tables: ReadonlyArray<Table> = []
  for (const version of database.schema_history ?? []) {
    if (version.at > at) break
    tables = version.tables
  }
  return tables
}

/**
 * `database` with its schema's history as it stood at `at` (epoch ms): the versions after it
 * dropped. For a copy of a database taken from a point of its branch's past, as a branch created
 * from a parent's `parent_timestamp` or `parent_lsn` would take it.
 */
export const historyUpTo = (database: StoredDatabase, at: number): StoredDatabase =>
  database.schema_history === undefined
    ? database
    : { ...database, schema_history: database.schema_history.filter((version) => version.at <= at) }

/** No tables: one list, so that two reads of a database without a schema find the same. */
const noTables: ReadonlyArray<Table> = []

/** The tables of `database` now: its last version's. */
export const tablesNow = (database: StoredDatabase): ReadonlyArray<Table> =>
  database.schema_history?.[database.schema_history.length - 1]?.tables ?? noTables

/** A point in a branch's history as a request names it: an LSN or a time, or neither (its head). */
export interface Point {
  readonly lsn?: string | undefined
  readonly timestamp?: DateTime.Utc | undefined
}

/**
 * The epoch millisecond `point` names in the history of `project` at `now` (`now` for neither),
 * or a 400: both given (the published reference forbids it), a time after now, or one before the
 * project's history window (`history_retention_seconds` back from now).
 */
export const timeOf = (
  project: StoredProject,
  point: Point,
  now: number,
  names: { readonly lsn: string; readonly timestamp: string }
): Either.Either<number, Refusal> => {
  if (point.lsn !== undefined && point.timestamp !== undefined) {
    return refused(Status.badRequest, `${names.lsn} and ${names.timestamp} cannot be specified at the same time`)
  }
  const at =
    point.lsn !== undefined
      ? (timeOfLsn(point.lsn) ?? now)
      : point.timestamp !== undefined
        ? DateTime.toEpochMillis(point.timestamp)
        : now
  const name = point.lsn !== undefined ? names.lsn : names.timestamp
  if (at > now) return refused(Status.badRequest, `${name} is ahead of the branch's head (${lsnAt(now)})`)
  const oldest = now - retentionMillis(project)
  if (at < oldest) {
    return refused(
      Status.badRequest,
      `${name} is outside the project's history retention window (from ${isoOf(oldest)})`
    )
  }
  return Either.right(at)
}

/** The JSON form of each table made so far: a table is immutable, and a version shares most of them with the last. */
const tablesJson = new WeakMap<Table, Api.BranchSchemaTable>()

/** The JSON form of `table`, made once (its fields are the model's own, checked when it was made: not checked again). */
const tableJson = (table: Table): Api.BranchSchemaTable => {
  const cached = tablesJson.get(table)
  if (cached !== undefined) return cached
  const json = new Api.BranchSchemaTable(
    {
      schema: table.schema,
      name: table.name,
      columns: table.columns.map(
        (column) =>
          new Api.BranchSchemaColumn(
            {
              name: column.name,
              type: column.type,
              nullable: column.nullable,
              generated: column.generated !== undefined
            },
            true
          )
      ),
      constraints: table.constraints.map(
        (constraint) =>
          new Api.BranchSchemaConstraint(
            {
              type: constraint.type,
              columns: constraint.columns,
              name: constraint.name,
              ...(constraint.referenced_table === undefined
                ? {}
                : { referenced_table: new Api.BranchSchemaReferencedTable(constraint.referenced_table, true) })
            },
            true
          )
      )
    },
    true
  )
  tablesJson.set(table, json)
  return json
}

/** Makes the JSON form of each of `tables` (so that {@link schemaJson} finds it made), with a possible pause every 20 tables. */
export function* tablesJsonSteps(tables: ReadonlyArray<Table>): Steps<void> {
  let made = 0
  for (const table of tables) {
    if (tablesJson.has(table)) continue
    if (++made % 20 === 0) yield
    tableJson(table)
  }
}

/** The JSON form of the model's tables, as the platform answers it (`format=json`): each table's made once. */
export const schemaJson = (tables: ReadonlyArray<Table>): Api.BranchSchemaJson =>
  new Api.BranchSchemaJson({ tables: tables.map(tableJson) }, true)

/** The query of `GET .../schema`, decoded. */
export interface SchemaQuery extends Point {
  readonly db_name: string
  readonly format?: "sql" | "json" | undefined
}

/**
 * The schema of the database `db_name` of a branch at the point the query names (§24.1): `{ sql }`
 * or `{ json }`. 404 for an unknown project, branch or database (a database is looked up by its
 * name now: one deleted is not found at any point), 400 for a point refused by {@link timeOf}.
 */
export const readSchema = (
  state: State,
  now: number,
  projectId: string,
  branchId: string,
  query: SchemaQuery
): Either.Either<Api.BranchSchemaDefinition, Refusal> =>
  Either.gen(function* () {
    const [project] = yield* branchOf(state, projectId, branchId)
    const database = yield* databaseOf(state, projectId, branchId, query.db_name)
    const at = yield* timeOf(project, query, now, { lsn: "lsn", timestamp: "timestamp" })
    const tables = tablesAt(database, at)
    return query.format === "json"
      ? new Api.BranchSchemaDefinition({ json: schemaJson(tables) })
      : new Api.BranchSchemaDefinition({ sql: renderSql(tables) })
  })

/** The query of `GET .../compare_schema`, decoded. */
export interface CompareQuery extends Point {
  readonly db_name: string
  readonly base_branch_id?: string | undefined
  readonly base_lsn?: string | undefined
  readonly base_timestamp?: DateTime.Utc | undefined
}

/** The two schemas a comparison reads, and their labels. */
export interface Comparison {
  readonly before: ReadonlyArray<Table>
  readonly after: ReadonlyArray<Table>
  readonly names: DiffNames
}

/**
 * What the unified diff from the schema of `db_name` on the base (`base_branch_id`, else the branch's
 * parent) at its point to its schema on the branch at its point (§24.1) compares, for
 * {@link compareSchemas} to diff; each side is labelled
 * `{branch_id}/{db_name}` with the time read as its header. Two equal schemas answer an empty
 * `diff` (the fake's choice). 400 for a branch without a parent and no `base_branch_id`, or a point
 * refused by {@link timeOf}; 404 for an unknown project, branch, base branch, or a database
 * either of them lacks.
 */
export const comparisonOf = (
  state: State,
  now: number,
  projectId: string,
  branchId: string,
  query: CompareQuery
): Either.Either<Comparison, Refusal> =>
  Either.gen(function* () {
    const [project, branch] = yield* branchOf(state, projectId, branchId)
    const database = yield* databaseOf(state, projectId, branchId, query.db_name)
    const baseId = query.base_branch_id ?? branch.parent_id
    if (baseId === undefined) {
      return yield* refused(
        Status.badRequest,
        `branch ${branchId} has no parent: name the branch to compare with in base_branch_id`
      )
    }
    const base = get(state, "branches", baseId)
    if (base === undefined || base.project_id !== projectId) return yield* notFound("base branch")
    const baseDatabase = yield* Either.mapLeft(
      databaseOf(state, projectId, baseId, query.db_name),
      () =>
        new Refusal({
          status: Status.notFound,
          message: `database ${JSON.stringify(query.db_name)} not found on base branch ${baseId}`
        })
    )
    const at = yield* timeOf(project, query, now, { lsn: "lsn", timestamp: "timestamp" })
    const baseAt = yield* timeOf(project, { lsn: query.base_lsn, timestamp: query.base_timestamp }, now, {
      lsn: "base_lsn",
      timestamp: "base_timestamp"
    })
    return {
      before: tablesAt(baseDatabase, baseAt),
      after: tablesAt(database, at),
      names: {
        oldName: `${baseId}/${query.db_name}`,
        newName: `${branchId}/${query.db_name}`,
        oldHeader: isoOf(baseAt),
        newHeader: isoOf(at)
      }
    }
  })

/**
 * The answer of `GET .../compare_schema` for `comparison` (§24.1): the unified diff from the
 * tables that differ (`diff.ts`, in the form of jsdiff's `createTwoFilesPatch`), computed
 * in slices that let other requests be answered meanwhile.
 */
export const compareSchemas = (comparison: Comparison): Effect.Effect<Api.BranchSchemaComparison> =>
  Effect.map(
    schemaDiff(comparison.before, comparison.after, comparison.names),
    (diff) => new Api.BranchSchemaComparison({ diff })
  )

/** Epoch millisecond `ms` as an RFC 3339 UTC timestamp. */
const isoOf = (ms: number) => DateTime.formatIso(at(ms))

/**
 * The change that makes `applied` the schema of `database` from `now` on: a new last version (one
 * at the same millisecond is replaced: a point in time has one schema), the versions older than
 * the project's history window dropped but the one in force at its start.
 */
export const schemaVersionAt = (
  project: StoredProject,
  database: StoredDatabase,
  applied: Pick<Applied, "changed" | "dropped">,
  now: number
): SchemaVersionChange => {
  const history = database.schema_history ?? []
  const at = Math.max(now, history[history.length - 1]?.at ?? now)
  const kept = history.filter((version) => version.at < at)
  const oldest = now - retentionMillis(project)
  let first = 0
  while (first + 1 < kept.length && kept[first + 1]!.at <= oldest) first += 1
  return { at, from: kept[first]?.at ?? at, changed: applied.changed, dropped: applied.dropped }
}

/** What a schema change answers: the database changed, the time and LSN its new schema is in force from. */
export interface SchemaChanged {
  readonly database: StoredDatabase
  readonly at: number
}

/**
 * Changes the schema of the database `databaseName` of a branch with `change` (the tables now to
 * what a migration made of them, or a refusal), as a migration run on it would: a new version of
 * its schema history at the time now, recorded in the journal as a databases `Patch` change (the
 * tables changed and dropped, not the whole schema). Refused with `unknown` for an unknown project, branch
 * or database, with what `change` refuses otherwise.
 */
export const changeSchema =
  <E>(
    projectId: string,
    branchId: string,
    databaseName: string,
    change: (tables: ReadonlyArray<Table>) => Either.Either<Applied, E>,
    unknown: (refused: Refusal) => E
  ): Mutation<SchemaChanged, E> =>
  (state, now) =>
    Either.gen(function* () {
      const [project] = yield* Either.mapLeft(branchOf(state, projectId, branchId), unknown)
      const database = yield* Either.mapLeft(databaseOf(state, projectId, branchId, databaseName), unknown)
      const applied = yield* change(tablesNow(database))
      const version = schemaVersionAt(project, database, applied, now)
      return {
        changes: [{ _tag: "Patch", kind: "databases", id: database.id, patch: version }],
        answer: { database: withSchemaVersion(database, version, applied.tables), at: version.at }
      }
    })
