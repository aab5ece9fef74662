import * as Either from "effect/Either"
import type {
  AlterColumn,
  ColumnConstraint,
  CreateColumnDef,
  QName,
  Statement,
  TableConstraint
} from "pgsql-ast-parser"
import {
  type Column,
  type Constraint,
  type Parser,
  type Table,
  defaultSchema,
  exprOf,
  keyOf,
  qualifiedName,
  sorted,
  typeOf,
  serials
} from "./sql.js"

/** Why a migration is refused, in Postgres's words (`relation "users" already exists`). */
type Reason = string

/** The SQL statements of `sql`, or why they do not parse. */
export const parseDdl = (sql: string, parser: Parser): Either.Either<ReadonlyArray<Statement>, Reason> =>
  Either.try({
    try: () => parser.parse(sql),
    catch: (error) =>
      `the SQL does not parse: ${(error instanceof Error ? error.message : String(error)).split("\n")[0] ?? ""}`
  })

/** The tables, mutable while one migration is applied, and how to print an expression. */
interface Tables {
  readonly map: Map<string, Table>
  readonly print: Parser["print"]
}

const tableKey = (name: QName) => keyOf(name.schema ?? defaultSchema, name.name)

const relationMissing = (name: QName) => `relation "${qualifiedName(name)}" does not exist`

/** The table named `name`, or why not. */
const tableNamed = (tables: Tables, name: QName): Either.Either<Table, Reason> => {
  const table = tables.map.get(tableKey(name))
  return table === undefined ? Either.left(relationMissing(name)) : Either.right(table)
}

/** The constraint name Postgres gives: `{table}_{columns}_{suffix}` (`users_pkey` for a primary key). */
const constraintName = (table: string, columns: ReadonlyArray<string>, type: Constraint["type"]) =>
  type === "primary_key" ? `${table}_pkey` : `${table}_${columns.join("_")}_${type === "unique" ? "key" : "fkey"}`

/** The columns a foreign key to `target` refers to: those it names, else the target's primary key. */
const referenced = (
  tables: Tables,
  target: QName,
  named: ReadonlyArray<{ readonly name: string }>
): Either.Either<Constraint["referenced_table"], Reason> =>
  Either.flatMap(tableNamed(tables, target), (table) => {
    const columns =
      named.length > 0
        ? named.map((column) => column.name)
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
      ? Either.right({ schema: table.schema, table: table.name, columns })
      : Either.left(`there is no unique constraint matching given keys for referenced table "${table.name}"`)
  })

/** The model's constraint for a table constraint of the DDL (none for a CHECK, which the model does not keep). */
const tableConstraint = (
  tables: Tables,
  table: Table,
  constraint: TableConstraint
): Either.Either<Constraint | undefined, Reason> => {
  switch (constraint.type) {
    case "check":
      return Either.right(undefined)
    case "primary key":
    case "unique": {
      const type = constraint.type === "unique" ? "unique" : "primary_key"
      const columns = constraint.columns.map((column) => column.name)
      return Either.right({
        type,
        name: constraint.constraintName?.name ?? constraintName(table.name, columns, type),
        columns: columns as [string, ...Array<string>]
      })
    }
    case "foreign key": {
      const columns = constraint.localColumns.map((column) => column.name)
      return Either.map(referenced(tables, constraint.foreignTable, constraint.foreignColumns), (referenced_table) => ({
        type: "foreign_key" as const,
        name: constraint.constraintName?.name ?? constraintName(table.name, columns, "foreign_key"),
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
  definition: CreateColumnDef
): Either.Either<{ readonly column: Column; readonly constraints: ReadonlyArray<Constraint> }, Reason> =>
  Either.gen(function* () {
    const name = definition.name.name
    const type = definition.dataType
    const serial = type.kind !== "array" && type.schema === undefined && serials.has(type.name)
    let column: Column = {
      name,
      type: typeOf(type),
      nullable: !serial,
      ...(serial ? { default: `nextval('${table.name}_${name}_seq'::regclass)` } : {})
    }
    const constraints: Array<Constraint> = []
    for (const constraint of definition.constraints ?? []) {
      column = yield* withColumnConstraint(tables, table, column, constraint, constraints)
    }
    return { column, constraints }
  })

/** `column` with an inline constraint applied; a key it declares is added to `constraints`. */
const withColumnConstraint = (
  tables: Tables,
  table: Table,
  column: Column,
  constraint: ColumnConstraint,
  constraints: Array<Constraint>
): Either.Either<Column, Reason> => {
  const named = constraint.constraintName?.name
  switch (constraint.type) {
    case "not null":
      return Either.right({ ...column, nullable: false })
    case "null":
      return Either.right({ ...column, nullable: true })
    case "default":
      return Either.right({ ...column, default: exprOf(constraint.default, tables.print) })
    case "check":
      return Either.right(column)
    case "add generated":
      return Either.right(generatedColumn(column, constraint, tables.print))
    case "primary key":
    case "unique": {
      const type = constraint.type === "unique" ? "unique" : "primary_key"
      constraints.push({ type, name: named ?? constraintName(table.name, [column.name], type), columns: [column.name] })
      return Either.right(type === "primary_key" ? { ...column, nullable: false } : column)
    }
    case "reference":
      return Either.map(referenced(tables, constraint.foreignTable, constraint.foreignColumns), (referenced_table) => {
        constraints.push({
          type: "foreign_key",
          name: named ?? constraintName(table.name, [column.name], "foreign_key"),
          columns: [column.name],
          referenced_table
        })
        return column
      })
  }
}

/** A generated column (`GENERATED ALWAYS AS (expr) STORED`) or an identity column (not null, no expression kept). */
const generatedColumn = (
  column: Column,
  generated: Extract<AlterColumn, { type: "add generated" }>,
  print: Parser["print"]
): Column => {
  const { default: _, ...rest } = column
  return generated.expression === undefined
    ? { ...rest, nullable: false }
    : { ...rest, generated: exprOf(generated.expression, print) }
}

/** The tables after `statement`; statements that change no table (DML, indexes, comments...) leave them as they are. */
const applyStatement = (tables: Tables, statement: Statement): Either.Either<void, Reason> => {
  switch (statement.type) {
    case "create table":
      return createTable(tables, statement)
    case "alter table":
      return alterTable(tables, statement)
    case "drop table":
      return dropTables(tables, statement.names, statement.ifExists === true, statement.cascade === "cascade")
    default:
      return Either.void
  }
}

const createTable = (tables: Tables, statement: Extract<Statement, { type: "create table" }>) =>
  Either.gen(function* () {
    const key = tableKey(statement.name)
    if (tables.map.has(key)) {
      if (statement.ifNotExists === true) return
      return yield* Either.left(`relation "${statement.name.name}" already exists`)
    }
    let table: Table = {
      schema: statement.name.schema ?? defaultSchema,
      name: statement.name.name,
      columns: [],
      constraints: []
    }
    // The table is there while its own columns are read: a foreign key may refer to it.
    for (const definition of statement.columns) {
      if (definition.kind !== "column") {
        return yield* Either.left("CREATE TABLE ... (LIKE ...) is not modelled by the fake")
      }
      table = yield* addColumn(tables, table, definition, false)
      tables.map.set(key, table)
    }
    tables.map.set(key, table)
    for (const constraint of statement.constraints ?? []) table = yield* addConstraint(tables, table, constraint)
    tables.map.set(key, table)
  })

/** `table` with the column `definition` added (refused when it has one of that name, unless `ifNotExists`). */
const addColumn = (tables: Tables, table: Table, definition: CreateColumnDef, ifNotExists: boolean) =>
  Either.gen(function* () {
    if (table.columns.some((column) => column.name === definition.name.name)) {
      if (ifNotExists) return table
      return yield* Either.left(`column "${definition.name.name}" of relation "${table.name}" already exists`)
    }
    const { column, constraints } = yield* columnOf(tables, table, definition)
    let next: Table = { ...table, columns: [...table.columns, column] }
    for (const constraint of constraints) next = yield* withConstraint(next, constraint)
    return next
  })

/** `table` with `constraint` added: a second primary key, or a name taken, is refused; its columns must exist. */
const withConstraint = (table: Table, constraint: Constraint): Either.Either<Table, Reason> => {
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

const addConstraint = (tables: Tables, table: Table, constraint: TableConstraint) =>
  Either.flatMap(tableConstraint(tables, table, constraint), (made) =>
    made === undefined ? Either.right(table) : withConstraint(table, made)
  )

/**
 * The foreign keys that refer to `target` (to its `column`, when given; without a column, those of
 * other tables only: the table's own go with it).
 */
const dependents = (tables: Tables, target: Table, column?: string) => {
  const found: Array<readonly [Table, Constraint]> = []
  for (const table of tables.map.values()) {
    for (const constraint of table.constraints) {
      const to = constraint.referenced_table
      if (to === undefined || to.schema !== target.schema || to.table !== target.name) continue
      if (table.schema === target.schema && table.name === target.name && column === undefined) continue
      if (column === undefined || to.columns.includes(column)) found.push([table, constraint])
    }
  }
  return found
}

/** Drops the constraints `found` (a `CASCADE`), from their tables. */
const dropDependents = (tables: Tables, found: ReadonlyArray<readonly [Table, Constraint]>) => {
  for (const [table, constraint] of found) {
    const now = tables.map.get(keyOf(table.schema, table.name))!
    tables.map.set(keyOf(table.schema, table.name), {
      ...now,
      constraints: now.constraints.filter((existing) => existing.name !== constraint.name)
    })
  }
}

const dropTables = (tables: Tables, names: ReadonlyArray<QName>, ifExists: boolean, cascade: boolean) =>
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
      tables.map.delete(tableKey(name))
    }
  })

const columnMissing = (table: Table, name: string) => `column "${name}" of relation "${table.name}" does not exist`

const alterTable = (tables: Tables, statement: Extract<Statement, { type: "alter table" }>) =>
  Either.gen(function* () {
    const key = tableKey(statement.table)
    if (!tables.map.has(key)) {
      if (statement.ifExists === true) return
      return yield* Either.left(relationMissing(statement.table))
    }
    // The table's key: a rename changes it for the changes after it.
    let target = key
    for (const change of statement.changes) {
      const table = tables.map.get(target)!
      const current = keyOf(table.schema, table.name)
      switch (change.type) {
        case "add column":
          tables.map.set(current, yield* addColumn(tables, table, change.column, change.ifNotExists === true))
          break
        case "drop column": {
          const name = change.column.name
          if (!table.columns.some((column) => column.name === name)) {
            if (change.ifExists === true) break
            return yield* Either.left(columnMissing(table, name))
          }
          const found = dependents(tables, table, name).filter(([other]) => other !== table)
          if (found.length > 0 && change.behaviour !== "cascade") {
            return yield* Either.left(
              `cannot drop column ${name} of table ${table.name} because other objects depend on it (constraint ${found[0]![1].name} on table ${found[0]![0].name})`
            )
          }
          dropDependents(tables, found)
          const now = tables.map.get(current)!
          tables.map.set(current, {
            ...now,
            columns: now.columns.filter((column) => column.name !== name),
            // Postgres drops the keys the column is part of with it.
            constraints: now.constraints.filter((constraint) => !constraint.columns.includes(name))
          })
          break
        }
        case "alter column": {
          const name = change.column.name
          const column = table.columns.find((existing) => existing.name === name)
          if (column === undefined) return yield* Either.left(columnMissing(table, name))
          const altered = alteredColumn(column, change.alter, tables.print)
          tables.map.set(current, {
            ...table,
            columns: table.columns.map((existing) => (existing.name === name ? altered : existing))
          })
          break
        }
        case "add constraint":
          tables.map.set(current, yield* addConstraint(tables, table, change.constraint))
          break
        case "drop constraint": {
          const name = change.constraint.name
          if (!table.constraints.some((constraint) => constraint.name === name)) {
            if (change.ifExists === true) break
            return yield* Either.left(`constraint "${name}" of relation "${table.name}" does not exist`)
          }
          tables.map.set(current, {
            ...table,
            constraints: table.constraints.filter((constraint) => constraint.name !== name)
          })
          break
        }
        case "rename column": {
          const from = change.column.name
          const to = change.to.name
          if (!table.columns.some((column) => column.name === from))
            return yield* Either.left(columnMissing(table, from))
          if (table.columns.some((column) => column.name === to)) {
            return yield* Either.left(`column "${to}" of relation "${table.name}" already exists`)
          }
          const rename = (name: string) => (name === from ? to : name)
          for (const [key, other] of Array.from(tables.map)) {
            tables.map.set(key, {
              ...other,
              constraints: other.constraints.map((constraint) => {
                const ref = constraint.referenced_table
                const pointsHere = ref !== undefined && ref.schema === table.schema && ref.table === table.name
                return {
                  ...constraint,
                  ...(other === table ? { columns: constraint.columns.map(rename) as [string, ...Array<string>] } : {}),
                  ...(pointsHere ? { referenced_table: { ...ref, columns: ref.columns.map(rename) } } : {})
                }
              })
            })
          }
          const now = tables.map.get(current)!
          tables.map.set(current, {
            ...now,
            columns: now.columns.map((column) => (column.name === from ? { ...column, name: to } : column))
          })
          break
        }
        case "rename constraint": {
          const from = change.constraint.name
          if (!table.constraints.some((constraint) => constraint.name === from)) {
            return yield* Either.left(`constraint "${from}" for table "${table.name}" does not exist`)
          }
          tables.map.set(current, {
            ...table,
            constraints: table.constraints.map((constraint) =>
              constraint.name === from ? { ...constraint, name: change.to.name } : constraint
            )
          })
          break
        }
        case "rename": {
          const to = change.to.name
          const next = keyOf(table.schema, to)
          if (tables.map.has(next)) return yield* Either.left(`relation "${to}" already exists`)
          tables.map.delete(current)
          tables.map.set(next, { ...table, name: to })
          for (const [key, other] of Array.from(tables.map)) {
            tables.map.set(key, {
              ...other,
              constraints: other.constraints.map((constraint) => {
                const ref = constraint.referenced_table
                return ref !== undefined && ref.schema === table.schema && ref.table === table.name
                  ? { ...constraint, referenced_table: { ...ref, table: to } }
                  : constraint
              })
            })
          }
          target = next
          break
        }
        case "owner":
          break
      }
    }
  })

const alteredColumn = (column: Column, alter: AlterColumn, print: Parser["print"]): Column => {
  switch (alter.type) {
    case "set type":
      return { ...column, type: typeOf(alter.dataType) }
    case "set default":
      return { ...column, default: exprOf(alter.default, print) }
    case "drop default": {
      const { default: _, ...rest } = column
      return rest
    }
    case "set not null":
      return { ...column, nullable: false }
    case "drop not null":
      return { ...column, nullable: true }
    case "add generated":
      return generatedColumn(column, alter, print)
  }
}

/**
 * `tables` after the SQL DDL `sql`, statement by statement (docs/contract.md §24.3): `CREATE
 * TABLE`, `ALTER TABLE` (add, drop, alter and rename columns; add, drop and rename constraints;
 * rename the table) and `DROP TABLE` change them; other statements (data, indexes, comments,
 * extensions, transactions) leave them as they are. Reason, with Postgres's words, where
 * Postgres would refuse; then nothing of `sql` is applied.
 */
export const migrate = (
  tables: ReadonlyArray<Table>,
  sql: string,
  parser: Parser
): Either.Either<ReadonlyArray<Table>, Reason> =>
  Either.flatMap(parseDdl(sql, parser), (statements) => {
    const working: Tables = {
      map: new Map(tables.map((table) => [keyOf(table.schema, table.name), table])),
      print: parser.print
    }
    for (const statement of statements) {
      const applied = applyStatement(working, statement)
      if (Either.isLeft(applied)) return Either.left(applied.left)
    }
    return Either.right(sorted(working.map.values()))
  })

/** A table as a JSON table list gives it (a seed's): constraints named as Postgres would name them when they have no name. */
export interface JsonTable {
  readonly schema: string
  readonly name: string
  readonly columns: ReadonlyArray<{
    readonly name: string
    readonly type: string
    readonly nullable?: boolean | undefined
    readonly generated?: boolean | undefined
  }>
  readonly constraints?:
    | ReadonlyArray<{
        readonly type: string
        readonly columns: ReadonlyArray<string>
        readonly name?: string | undefined
        readonly referenced_table?:
          | { readonly schema: string; readonly table: string; readonly columns: ReadonlyArray<string> }
          | undefined
      }>
    | undefined
}

/**
 * The model of a JSON table list: each column nullable unless it says not, a `generated` one
 * generated from an expression the list does not give (`NULL`), constraints of the three kinds
 * the model keeps (another kind is refused), named as Postgres names them when unnamed.
 */
export const tablesOfJson = (json: ReadonlyArray<JsonTable>): Either.Either<ReadonlyArray<Table>, Reason> =>
  Either.gen(function* () {
    const tables = new Map<string, Table>()
    for (const given of json) {
      const key = keyOf(given.schema, given.name)
      if (tables.has(key)) return yield* Either.left(`table ${key} appears twice`)
      let table: Table = {
        schema: given.schema,
        name: given.name,
        columns: given.columns.map((column) => ({
          name: column.name,
          type: column.type,
          nullable: column.nullable ?? true,
          ...(column.generated === true ? { generated: "NULL" } : {})
        })),
        constraints: []
      }
      for (const constraint of given.constraints ?? []) {
        const { type } = constraint
        if (type !== "primary_key" && type !== "unique" && type !== "foreign_key") {
          return yield* Either.left(`table ${key}: constraint type ${type} is not one the fake keeps`)
        }
        const [first, ...rest] = constraint.columns
        if (first === undefined) return yield* Either.left(`table ${key}: a constraint has no columns`)
        table = yield* Either.mapLeft(
          withConstraint(table, {
            type,
            name: constraint.name ?? constraintName(given.name, constraint.columns, type),
            columns: [first, ...rest],
            ...(constraint.referenced_table === undefined ? {} : { referenced_table: constraint.referenced_table })
          }),
          (refusal) => `table ${key}: ${refusal}`
        )
      }
      tables.set(key, table)
    }
    return sorted(tables.values())
  })
