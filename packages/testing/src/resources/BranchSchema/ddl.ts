/**
 * SQL DDL applied to the fake's model of a schema, as a migration runs it (docs/contract.md
 * §24.3): {@link applyDdl} takes what `parse.ts` read ({@link Ddl}) and applies it statement by
 * statement as Postgres would, refusing what Postgres refuses (a table that exists, a column that
 * does not), in time that grows with the migration, not with the schema (the foreign keys that
 * point at a table are indexed while a migration runs). Pure functions: no state, no time.
 */
import * as Either from "effect/Either"
import { finish, type Steps } from "../../engine/slices.js"
import { type TableKey, withChanges } from "../Databases/kinds.js"
import {
  type AlterColumnDdl,
  type ColumnConstraintDdl,
  type ColumnDdl,
  columnLimit,
  type Ddl,
  parseDdl,
  type Reason,
  type Reference,
  type StatementDdl,
  type TableConstraintDdl,
  type TableName,
  tableLimit
} from "./parse.js"
import { type Column, type Constraint, defaultSchema, ident, keyOf, type Parser, type Table } from "./sql.js"

/**
 * The tables while one migration is applied: by key, with the keys changed so far (and what each
 * held before), and, once a statement needs it, the index of the foreign keys that point at each
 * table, kept up to date by {@link put} and {@link del}.
 */
interface Tables {
  readonly map: Map<string, Table>
  /** The keys set or deleted, with the table each held before the migration (`undefined`: none). */
  readonly before: Map<string, Table | undefined>
  /** By the key of a table, the keys of the tables with a foreign key to it (built when first needed). */
  referrers: Map<string, Set<string>> | undefined
}

const tableKey = (name: TableName) => keyOf(name.schema ?? defaultSchema, name.name)

/** The keys of the tables `table`'s foreign keys point at. */
const targetsOf = (table: Table): ReadonlyArray<string> =>
  table.constraints.flatMap((constraint) =>
    constraint.referenced_table === undefined
      ? []
      : [keyOf(constraint.referenced_table.schema, constraint.referenced_table.table)]
  )

const indexAdd = (referrers: Map<string, Set<string>>, key: string, table: Table) => {
  for (const target of targetsOf(table)) {
    const set = referrers.get(target)
    if (set === undefined) referrers.set(target, new Set([key]))
    else set.add(key)
  }
}

const indexRemove = (referrers: Map<string, Set<string>>, key: string, table: Table) => {
  for (const target of targetsOf(table)) referrers.get(target)?.delete(key)
}

/** Remembers what `key` held before the migration, the first time it changes. */
const touch = (tables: Tables, key: string) => {
  if (!tables.before.has(key)) tables.before.set(key, tables.map.get(key))
}

/** Sets the table of `key`, keeping the index of foreign keys. */
const put = (tables: Tables, key: string, table: Table) => {
  touch(tables, key)
  const old = tables.map.get(key)
  if (tables.referrers !== undefined) {
    if (old !== undefined) indexRemove(tables.referrers, key, old)
    indexAdd(tables.referrers, key, table)
  }
  tables.map.set(key, table)
}

/** Removes the table of `key`, keeping the index of foreign keys. */
const del = (tables: Tables, key: string) => {
  touch(tables, key)
  const old = tables.map.get(key)
  if (old !== undefined && tables.referrers !== undefined) indexRemove(tables.referrers, key, old)
  tables.map.delete(key)
}

/** The keys of the tables with a foreign key to the table of `key`, in key order (the index built on first use). */
const referrersOf = (tables: Tables, key: string): ReadonlyArray<string> => {
  if (tables.referrers === undefined) {
    const referrers = new Map<string, Set<string>>()
    for (const [other, table] of tables.map) indexAdd(referrers, other, table)
    tables.referrers = referrers
  }
  return Array.from(tables.referrers.get(key) ?? []).sort()
}

const qualified = (name: TableName): string =>
  name.schema === undefined ? ident(name.name) : `${ident(name.schema)}.${ident(name.name)}`

const relationMissing = (name: TableName) => `relation "${qualified(name)}" does not exist`

/** The table named `name`, or why not. */
const tableNamed = (tables: Tables, name: TableName): Either.Either<Table, Reason> => {
  const table = tables.map.get(tableKey(name))
  return table === undefined ? Either.left(relationMissing(name)) : Either.right(table)
}

/** The constraint name Postgres gives: `{table}_{columns}_{suffix}` (`users_pkey` for a primary key). */
export const constraintName = (table: string, columns: ReadonlyArray<string>, type: Constraint["type"]) =>
  type === "primary_key" ? `${table}_pkey` : `${table}_${columns.join("_")}_${type === "unique" ? "key" : "fkey"}`

/** The columns a foreign key to `target` refers to: those it names, else the target's primary key. */
const referenced = (tables: Tables, reference: Reference): Either.Either<Constraint["referenced_table"], Reason> =>
  Either.flatMap(tableNamed(tables, reference.foreignTable), (table) => {
    const columns =
      reference.foreignColumns.length > 0
        ? reference.foreignColumns
        : (table.constraints.find((constraint) => constraint.type === "primary_key")?.columns ?? [])
    if (columns.length === 0) return Either.left(`there is no primary key for referenced table "${table.name}"`)
    const missing = columns.find((column) => !table.columns.some((existing) => existing.name === column))
    if (missing !== undefined) {
      return Either.left(`column "${missing}" referenced in foreign key constraint does not exist`)
    }
    // Postgres refers only to a key: the columns of a primary key or unique constraint, in any order.
    const key = table.constraints.some(
      (constraint) =>
        constraint.type !== "foreign_key" &&
        constraint.columns.length === columns.length &&
        constraint.columns.every((column) => columns.includes(column))
    )
    return key
      ? Either.right({ schema: table.schema, table: table.name, columns: [...columns] })
      : Either.left(`there is no unique constraint matching given keys for referenced table "${table.name}"`)
  })

/** The model's constraint for a table constraint of the DDL (none for a CHECK, which the model does not keep). */
const tableConstraint = (
  tables: Tables,
  table: Table,
  constraint: TableConstraintDdl
): Either.Either<Constraint | undefined, Reason> => {
  switch (constraint.type) {
    case "check":
      return Either.right(undefined)
    case "primary key":
    case "unique": {
      const type = constraint.type === "unique" ? "unique" : "primary_key"
      const columns = [...constraint.columns]
      return Either.right({
        type,
        name: constraint.name ?? constraintName(table.name, columns, type),
        columns: columns as [string, ...Array<string>]
      })
    }
    case "foreign key": {
      const columns = [...constraint.columns]
      return Either.map(referenced(tables, constraint), (referenced_table) => ({
        type: "foreign_key" as const,
        name: constraint.name ?? constraintName(table.name, columns, "foreign_key"),
        columns: columns as [string, ...Array<string>],
        referenced_table
      }))
    }
  }
}

/** A column of the DDL as the model keeps it, with the constraints it declares inline. */
const columnOf = (
  tables: Tables,
  table: Table,
  definition: ColumnDdl
): Either.Either<{ readonly column: Column; readonly constraints: ReadonlyArray<Constraint> }, Reason> =>
  Either.gen(function* () {
    const name = definition.name
    const serial = definition.serial
    let column: Column = {
      name,
      type: definition.type,
      nullable: !serial,
      ...(serial ? { default: `nextval('${table.name}_${name}_seq'::regclass)` } : {})
    }
    const constraints: Array<Constraint> = []
    for (const constraint of definition.constraints) {
      column = yield* withColumnConstraint(tables, table, column, constraint, constraints)
    }
    return { column, constraints }
  })

/** `column` with an inline constraint applied; a key it declares is added to `constraints`. */
const withColumnConstraint = (
  tables: Tables,
  table: Table,
  column: Column,
  constraint: ColumnConstraintDdl,
  constraints: Array<Constraint>
): Either.Either<Column, Reason> => {
  switch (constraint.type) {
    case "not null":
      return Either.right({ ...column, nullable: false })
    case "null":
      return Either.right({ ...column, nullable: true })
    case "default":
      return Either.right({ ...column, default: constraint.default })
    case "check":
      return Either.right(column)
    case "add generated":
      return Either.right(generatedColumn(column, constraint.expression))
    case "primary key":
    case "unique": {
      const type = constraint.type === "unique" ? "unique" : "primary_key"
      constraints.push({
        type,
        name: constraint.name ?? constraintName(table.name, [column.name], type),
        columns: [column.name]
      })
      return Either.right(type === "primary_key" ? { ...column, nullable: false } : column)
    }
    case "reference":
      return Either.map(referenced(tables, constraint), (referenced_table) => {
        constraints.push({
          type: "foreign_key",
          name: constraint.name ?? constraintName(table.name, [column.name], "foreign_key"),
          columns: [column.name],
          referenced_table
        })
        return column
      })
  }
}

/** A generated column (`GENERATED ALWAYS AS (expr) STORED`) or an identity column (not null, no expression kept). */
const generatedColumn = (column: Column, expression: string | undefined): Column => {
  const { default: _, ...rest } = column
  return expression === undefined ? { ...rest, nullable: false } : { ...rest, generated: expression }
}

/** The tables after `statement`. */
const applyStatement = (tables: Tables, statement: StatementDdl): Either.Either<void, Reason> => {
  switch (statement.type) {
    case "create table":
      return createTable(tables, statement)
    case "alter table":
      return alterTable(tables, statement)
    case "drop table":
      return dropTables(tables, statement.names, statement.ifExists, statement.cascade)
  }
}

const createTable = (tables: Tables, statement: Extract<StatementDdl, { type: "create table" }>) =>
  Either.gen(function* () {
    const key = tableKey(statement.name)
    if (tables.map.has(key)) {
      if (statement.ifNotExists) return
      return yield* Either.left(`relation "${statement.name.name}" already exists`)
    }
    if (statement.like) return yield* Either.left("CREATE TABLE ... (LIKE ...) is not modelled by the fake")
    let table: Table = {
      schema: statement.name.schema ?? defaultSchema,
      name: statement.name.name,
      columns: [],
      constraints: []
    }
    // The table is there while its own columns are read: a foreign key may refer to it.
    for (const definition of statement.columns) {
      table = yield* addColumn(tables, table, definition, false)
      put(tables, key, table)
    }
    for (const constraint of statement.constraints) table = yield* addConstraint(tables, table, constraint)
    put(tables, key, table)
  })

/** `table` with the column `definition` added (refused when it has one of that name, unless `ifNotExists`). */
const addColumn = (tables: Tables, table: Table, definition: ColumnDdl, ifNotExists: boolean) =>
  Either.gen(function* () {
    if (table.columns.some((column) => column.name === definition.name)) {
      if (ifNotExists) return table
      return yield* Either.left(`column "${definition.name}" of relation "${table.name}" already exists`)
    }
    if (table.columns.length >= columnLimit) return yield* Either.left(`tables can have at most ${columnLimit} columns`)
    const { column, constraints } = yield* columnOf(tables, table, definition)
    let next: Table = { ...table, columns: [...table.columns, column] }
    for (const constraint of constraints) next = yield* withConstraint(next, constraint)
    return next
  })

/** `table` with `constraint` added: a second primary key, or a name taken, is refused; its columns must exist. */
export const withConstraint = (table: Table, constraint: Constraint): Either.Either<Table, Reason> => {
  if (constraint.type === "primary_key" && table.constraints.some((existing) => existing.type === "primary_key")) {
    return Either.left(`multiple primary keys for table "${table.name}" are not allowed`)
  }
  if (table.constraints.some((existing) => existing.name === constraint.name)) {
    return Either.left(`relation "${constraint.name}" already exists`)
  }
  const missing = constraint.columns.find((name) => !table.columns.some((column) => column.name === name))
  if (missing !== undefined) return Either.left(`column "${missing}" named in key does not exist`)
  const columns =
    constraint.type === "primary_key"
      ? table.columns.map((column) =>
          constraint.columns.includes(column.name) ? { ...column, nullable: false } : column
        )
      : table.columns
  return Either.right({ ...table, columns, constraints: [...table.constraints, constraint] })
}

const addConstraint = (tables: Tables, table: Table, constraint: TableConstraintDdl) =>
  Either.flatMap(tableConstraint(tables, table, constraint), (made) =>
    made === undefined ? Either.right(table) : withConstraint(table, made)
  )

/** Whether `constraint` is a foreign key to `target`. */
const pointsAt = (constraint: Constraint, target: Table) =>
  constraint.referenced_table !== undefined &&
  constraint.referenced_table.schema === target.schema &&
  constraint.referenced_table.table === target.name

/**
 * The foreign keys that refer to `target` (to its `column`, when given; without a column, those of
 * other tables only: the table's own go with it), by table key and then as the table lists them.
 */
const dependents = (tables: Tables, target: Table, column?: string) => {
  const found: Array<readonly [Table, Constraint]> = []
  const targetKey = keyOf(target.schema, target.name)
  for (const key of referrersOf(tables, targetKey)) {
    if (key === targetKey && column === undefined) continue
    const table = tables.map.get(key)!
    for (const constraint of table.constraints) {
      if (!pointsAt(constraint, target)) continue
      if (column === undefined || constraint.referenced_table!.columns.includes(column)) found.push([table, constraint])
    }
  }
  return found
}

/** Drops the constraints `found` (a `CASCADE`), from their tables. */
const dropDependents = (tables: Tables, found: ReadonlyArray<readonly [Table, Constraint]>) => {
  for (const [table, constraint] of found) {
    const key = keyOf(table.schema, table.name)
    const now = tables.map.get(key)!
    put(tables, key, { ...now, constraints: now.constraints.filter((existing) => existing.name !== constraint.name) })
  }
}

const dropTables = (tables: Tables, names: ReadonlyArray<TableName>, ifExists: boolean, cascade: boolean) =>
  Either.gen(function* () {
    for (const name of names) {
      const table = tables.map.get(tableKey(name))
      if (table === undefined) {
        if (ifExists) continue
        return yield* Either.left(relationMissing(name))
      }
      const found = dependents(tables, table)
      if (found.length > 0 && !cascade) {
        return yield* Either.left(
          `cannot drop table ${table.name} because other objects depend on it (constraint ${found[0]![1].name} on table ${found[0]![0].name})`
        )
      }
      dropDependents(tables, found)
      del(tables, tableKey(name))
    }
  })

const columnMissing = (table: Table, name: string) => `column "${name}" of relation "${table.name}" does not exist`

/**
 * Rewrites the foreign keys that point at `target` (and, with `own`, the constraints of `target`'s
 * own table too) with `rewrite`: after a rename of the table or of one of its columns.
 */
const rewriteReferrers = (
  tables: Tables,
  target: Table,
  targetKey: string,
  rewrite: (constraint: Constraint, own: boolean) => Constraint
) => {
  const keys = new Set([...referrersOf(tables, targetKey), targetKey])
  for (const key of keys) {
    const other = tables.map.get(key)
    if (other === undefined) continue
    const own = key === targetKey
    put(tables, key, {
      ...other,
      constraints: other.constraints.map((constraint) =>
        own || pointsAt(constraint, target) ? rewrite(constraint, own) : constraint
      )
    })
  }
}

const alterTable = (tables: Tables, statement: Extract<StatementDdl, { type: "alter table" }>) =>
  Either.gen(function* () {
    const key = tableKey(statement.table)
    if (!tables.map.has(key)) {
      if (statement.ifExists) return
      return yield* Either.left(relationMissing(statement.table))
    }
    // The table's key: a rename changes it for the changes after it.
    let current = key
    for (const change of statement.changes) {
      const table = tables.map.get(current)!
      switch (change.type) {
        case "add column":
          put(tables, current, yield* addColumn(tables, table, change.column, change.ifNotExists))
          break
        case "drop column": {
          const name = change.column
          if (!table.columns.some((column) => column.name === name)) {
            if (change.ifExists) break
            return yield* Either.left(columnMissing(table, name))
          }
          const found = dependents(tables, table, name).filter(([other]) => other !== table)
          if (found.length > 0 && !change.cascade) {
            return yield* Either.left(
              `cannot drop column ${name} of table ${table.name} because other objects depend on it (constraint ${found[0]![1].name} on table ${found[0]![0].name})`
            )
          }
          dropDependents(tables, found)
          const now = tables.map.get(current)!
          put(tables, current, {
            ...now,
            columns: now.columns.filter((column) => column.name !== name),
            // Postgres drops the keys the column is part of with it.
            constraints: now.constraints.filter((constraint) => !constraint.columns.includes(name))
          })
          break
        }
        case "alter column": {
          const name = change.column
          const column = table.columns.find((existing) => existing.name === name)
          if (column === undefined) return yield* Either.left(columnMissing(table, name))
          const altered = alteredColumn(column, change.alter)
          put(tables, current, {
            ...table,
            columns: table.columns.map((existing) => (existing.name === name ? altered : existing))
          })
          break
        }
        case "add constraint":
          put(tables, current, yield* addConstraint(tables, table, change.constraint))
          break
        case "drop constraint": {
          const name = change.constraint
          if (!table.constraints.some((constraint) => constraint.name === name)) {
            if (change.ifExists) break
            return yield* Either.left(`constraint "${name}" of relation "${table.name}" does not exist`)
          }
          put(tables, current, {
            ...table,
            constraints: table.constraints.filter((constraint) => constraint.name !== name)
          })
          break
        }
        case "rename column": {
          const from = change.column
          const to = change.to
          if (!table.columns.some((column) => column.name === from))
            return yield* Either.left(columnMissing(table, from))
          if (table.columns.some((column) => column.name === to)) {
            return yield* Either.left(`column "${to}" of relation "${table.name}" already exists`)
          }
          const rename = (name: string) => (name === from ? to : name)
          rewriteReferrers(tables, table, current, (constraint, own) => {
            const ref = constraint.referenced_table
            const pointsHere = ref !== undefined && ref.schema === table.schema && ref.table === table.name
            return {
              ...constraint,
              ...(own ? { columns: constraint.columns.map(rename) as [string, ...Array<string>] } : {}),
              ...(pointsHere ? { referenced_table: { ...ref, columns: ref.columns.map(rename) } } : {})
            }
          })
          const now = tables.map.get(current)!
          put(tables, current, {
            ...now,
            columns: now.columns.map((column) => (column.name === from ? { ...column, name: to } : column))
          })
          break
        }
        case "rename constraint": {
          const from = change.constraint
          if (!table.constraints.some((constraint) => constraint.name === from)) {
            return yield* Either.left(`constraint "${from}" for table "${table.name}" does not exist`)
          }
          put(tables, current, {
            ...table,
            constraints: table.constraints.map((constraint) =>
              constraint.name === from ? { ...constraint, name: change.to } : constraint
            )
          })
          break
        }
        case "rename": {
          const to = change.to
          const next = keyOf(table.schema, to)
          if (tables.map.has(next)) return yield* Either.left(`relation "${to}" already exists`)
          // The foreign keys to it first, by its old name (its own among them), then the table under its new key.
          rewriteReferrers(tables, table, current, (constraint) => {
            const ref = constraint.referenced_table
            return ref !== undefined && ref.schema === table.schema && ref.table === table.name
              ? { ...constraint, referenced_table: { ...ref, table: to } }
              : constraint
          })
          const renamed = tables.map.get(current)!
          del(tables, current)
          put(tables, next, { ...renamed, name: to })
          current = next
          break
        }
      }
    }
  })

const alteredColumn = (column: Column, alter: AlterColumnDdl): Column => {
  switch (alter.type) {
    case "set type":
      return { ...column, type: alter.dataType }
    case "set default":
      return { ...column, default: alter.default }
    case "drop default": {
      const { default: _, ...rest } = column
      return rest
    }
    case "set not null":
      return { ...column, nullable: false }
    case "drop not null":
      return { ...column, nullable: true }
    case "add generated":
      return generatedColumn(column, alter.expression)
  }
}

/**
 * What a migration made: the tables after it (by schema and name), and the change from the tables
 * before it: the tables it added or changed (`changed`, as they are after it) and the ones it
 * dropped (`dropped`), a table renamed being one dropped and one added.
 */
export interface Applied {
  readonly tables: ReadonlyArray<Table>
  readonly changed: ReadonlyArray<Table>
  readonly dropped: ReadonlyArray<TableKey>
}

/**
 * `tables` after `ddl`, statement by statement (docs/contract.md §24.3): `CREATE TABLE`, `ALTER
 * TABLE` (add, drop, alter and rename columns; add, drop and rename constraints; rename the table)
 * and `DROP TABLE` change them. Refused, with Postgres's words, where Postgres would refuse (a
 * table past 1,600 columns too), or when it leaves more than {@link tableLimit} tables and more
 * than before; then nothing of `ddl` is applied. Costs the statements' own work plus a copy of the
 * table list, whatever the size of the schema.
 */
export const applyDdl = (tables: ReadonlyArray<Table>, ddl: Ddl): Either.Either<Applied, Reason> =>
  finish(applySteps(tables, ddl))

/** {@link applyDdl}, with a possible pause (`yield`) after every 10 statements. */
export function* applySteps(tables: ReadonlyArray<Table>, ddl: Ddl): Steps<Either.Either<Applied, Reason>> {
  const working: Tables = {
    map: new Map(tables.map((table) => [keyOf(table.schema, table.name), table])),
    before: new Map(),
    referrers: undefined
  }
  let done = 0
  for (const statement of ddl.statements) {
    if (++done % 10 === 0) yield
    const applied = applyStatement(working, statement)
    if (Either.isLeft(applied)) return Either.left(applied.left)
  }
  if (working.map.size > tableLimit && working.map.size > tables.length) {
    return Either.left(
      `the database would hold ${working.map.size} tables, more than the fake's limit of ${tableLimit} tables per database`
    )
  }
  const changed: Array<Table> = []
  const dropped: Array<TableKey> = []
  for (const [key, before] of working.before) {
    const after = working.map.get(key)
    if (after === undefined) {
      if (before !== undefined) dropped.push({ schema: before.schema, name: before.name })
    } else if (after !== before) {
      changed.push(after)
    }
  }
  return Either.right({ tables: withChanges(tables, changed, dropped), changed, dropped })
}

/**
 * `tables` after the SQL DDL `sql` ({@link parseDdl} then {@link applyDdl}), parsed in this thread:
 * for a seed's schema.
 */
export const migrate = (
  tables: ReadonlyArray<Table>,
  sql: string,
  parser: Parser
): Either.Either<ReadonlyArray<Table>, Reason> =>
  Either.map(
    Either.flatMap(parseDdl(sql, parser), (ddl) => applyDdl(tables, ddl)),
    (applied) => applied.tables
  )
