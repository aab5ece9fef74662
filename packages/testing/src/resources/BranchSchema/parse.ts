/**
 * SQL DDL as a migration gives it, read (docs/contract.md §24.3): {@link parseDdl} parses the text
 * with `pgsql-ast-parser` and keeps of it only what changes tables, as plain data ({@link Ddl}:
 * names, types and expressions already printed), so that it can run in a worker thread and cross
 * to the thread that keeps the state at the cost of the change, not of the parse tree
 * (`ddl.ts` applies it). The limits on what the fake reads and keeps are here too. Pure
 * functions: no state, no time.
 */
import * as Either from "effect/Either"
import type {
  AlterColumn,
  ColumnConstraint,
  CreateColumnDef,
  QName,
  Statement,
  TableAlteration,
  TableConstraint
} from "pgsql-ast-parser"
import { exprOf, type Parser, serials, typeOf } from "./sql.js"

/** Why a migration is refused, in Postgres's words (`relation "users" already exists`). */
export type Reason = string

/**
 * The largest migration the fake applies (`Scenario.migrate`, the control API's `migrate`), in
 * bytes of UTF-8: 1 MiB. Parsing is the costly part of a migration (about 100 to 250 kB a second
 * on a 2-core machine, slower for long expressions); this bounds it to seconds.
 */
export const migrationLimitBytes = 1024 * 1024

/**
 * The most SQL a seed's databases may give as their `schema`, in bytes of UTF-8, each distinct
 * text counted once (a text given for several databases is parsed once): 4 MiB.
 */
export const seedSchemaLimitBytes = 4 * 1024 * 1024

/** The most tables a database of the fake holds: 5,000. A migration or seed past it is refused. */
export const tableLimit = 5000

/** The most columns a table holds, as in Postgres: 1,600. */
export const columnLimit = 1600

/** The size of `text` in bytes of UTF-8, counted only as far as needed to tell whether it is over `limit`. */
export const overLimit = (text: string, limit: number): number | undefined => {
  if (text.length <= limit / 3) return undefined
  if (text.length > limit) return new TextEncoder().encode(text).length
  const bytes = new TextEncoder().encode(text).length
  return bytes > limit ? bytes : undefined
}

/** A table as a statement names it: its schema when given (`public` otherwise). */
export interface TableName {
  readonly schema?: string | undefined
  readonly name: string
}

/** A table that a foreign key refers to, and the columns it names (its primary key when none). */
export interface Reference {
  readonly foreignTable: TableName
  readonly foreignColumns: ReadonlyArray<string>
}

/** A column constraint of a statement, with its expressions printed. */
export type ColumnConstraintDdl =
  | { readonly type: "not null" | "null" | "check" }
  | { readonly type: "default"; readonly default: string }
  /** `GENERATED ALWAYS AS (expression) STORED`, or an identity column without one. */
  | { readonly type: "add generated"; readonly expression?: string | undefined }
  | { readonly type: "primary key" | "unique"; readonly name?: string | undefined }
  | ({ readonly type: "reference"; readonly name?: string | undefined } & Reference)

/** A column as a statement defines it: its type as the catalog prints it, and whether it is a `serial`. */
export interface ColumnDdl {
  readonly name: string
  readonly type: string
  readonly serial: boolean
  readonly constraints: ReadonlyArray<ColumnConstraintDdl>
}

/** A table constraint of a statement (a `CHECK` is kept only as such: the model has no checks). */
export type TableConstraintDdl =
  | { readonly type: "check" }
  | {
      readonly type: "primary key" | "unique"
      readonly name?: string | undefined
      readonly columns: ReadonlyArray<string>
    }
  | ({
      readonly type: "foreign key"
      readonly name?: string | undefined
      readonly columns: ReadonlyArray<string>
    } & Reference)

/** A change of `ALTER COLUMN`. */
export type AlterColumnDdl =
  | { readonly type: "set type"; readonly dataType: string }
  | { readonly type: "set default"; readonly default: string }
  | { readonly type: "drop default" | "set not null" | "drop not null" }
  | { readonly type: "add generated"; readonly expression?: string | undefined }

/** A change of `ALTER TABLE` (a change of owner, which the model does not keep, is left out). */
export type AlterDdl =
  | { readonly type: "add column"; readonly column: ColumnDdl; readonly ifNotExists: boolean }
  | { readonly type: "drop column"; readonly column: string; readonly ifExists: boolean; readonly cascade: boolean }
  | { readonly type: "alter column"; readonly column: string; readonly alter: AlterColumnDdl }
  | { readonly type: "add constraint"; readonly constraint: TableConstraintDdl }
  | { readonly type: "drop constraint"; readonly constraint: string; readonly ifExists: boolean }
  | { readonly type: "rename column"; readonly column: string; readonly to: string }
  | { readonly type: "rename constraint"; readonly constraint: string; readonly to: string }
  | { readonly type: "rename"; readonly to: string }

/** A statement that changes tables; `like` marks a `CREATE TABLE ... (LIKE ...)`, which the model refuses. */
export type StatementDdl =
  | {
      readonly type: "create table"
      readonly name: TableName
      readonly ifNotExists: boolean
      readonly like: boolean
      readonly columns: ReadonlyArray<ColumnDdl>
      readonly constraints: ReadonlyArray<TableConstraintDdl>
    }
  | {
      readonly type: "alter table"
      readonly table: TableName
      readonly ifExists: boolean
      readonly changes: ReadonlyArray<AlterDdl>
    }
  | {
      readonly type: "drop table"
      readonly names: ReadonlyArray<TableName>
      readonly ifExists: boolean
      readonly cascade: boolean
    }

/**
 * SQL DDL as the model reads it: the statements that change tables, in order, as plain data
 * (what `structuredClone` copies: a worker thread can send it). Statements that change no table
 * (data, indexes, comments, extensions, transactions) are left out.
 */
export interface Ddl {
  readonly statements: ReadonlyArray<StatementDdl>
}

const tableNameOf = (name: QName): TableName =>
  name.schema === undefined ? { name: name.name } : { schema: name.schema, name: name.name }

const referenceOf = (reference: {
  readonly foreignTable: QName
  readonly foreignColumns: ReadonlyArray<{ readonly name: string }>
}): Reference => ({
  foreignTable: tableNameOf(reference.foreignTable),
  foreignColumns: reference.foreignColumns.map((column) => column.name)
})

const columnConstraintOf = (constraint: ColumnConstraint, print: Parser["print"]): ColumnConstraintDdl => {
  const name = constraint.constraintName?.name
  switch (constraint.type) {
    case "not null":
    case "null":
    case "check":
      return { type: constraint.type }
    case "default":
      return { type: "default", default: exprOf(constraint.default, print) }
    case "add generated":
      return {
        type: "add generated",
        expression: constraint.expression === undefined ? undefined : exprOf(constraint.expression, print)
      }
    case "primary key":
    case "unique":
      return { type: constraint.type, name }
    case "reference":
      return { type: "reference", name, ...referenceOf(constraint) }
  }
}

const columnOfDef = (definition: CreateColumnDef, print: Parser["print"]): ColumnDdl => {
  const type = definition.dataType
  return {
    name: definition.name.name,
    type: typeOf(type),
    serial: type.kind !== "array" && type.schema === undefined && serials.has(type.name),
    constraints: (definition.constraints ?? []).map((constraint) => columnConstraintOf(constraint, print))
  }
}

const tableConstraintOf = (constraint: TableConstraint): TableConstraintDdl => {
  const name = constraint.constraintName?.name
  switch (constraint.type) {
    case "check":
      return { type: "check" }
    case "primary key":
    case "unique":
      return { type: constraint.type, name, columns: constraint.columns.map((column) => column.name) }
    case "foreign key":
      return {
        type: "foreign key",
        name,
        columns: constraint.localColumns.map((column) => column.name),
        ...referenceOf(constraint)
      }
  }
}

const alterColumnOf = (alter: AlterColumn, print: Parser["print"]): AlterColumnDdl => {
  switch (alter.type) {
    case "set type":
      return { type: "set type", dataType: typeOf(alter.dataType) }
    case "set default":
      return { type: "set default", default: exprOf(alter.default, print) }
    case "add generated":
      return {
        type: "add generated",
        expression: alter.expression === undefined ? undefined : exprOf(alter.expression, print)
      }
    default:
      return { type: alter.type }
  }
}

const alterationOf = (change: TableAlteration, print: Parser["print"]): AlterDdl | undefined => {
  switch (change.type) {
    case "add column":
      return { type: "add column", column: columnOfDef(change.column, print), ifNotExists: change.ifNotExists === true }
    case "drop column":
      return {
        type: "drop column",
        column: change.column.name,
        ifExists: change.ifExists === true,
        cascade: change.behaviour === "cascade"
      }
    case "alter column":
      return { type: "alter column", column: change.column.name, alter: alterColumnOf(change.alter, print) }
    case "add constraint":
      return { type: "add constraint", constraint: tableConstraintOf(change.constraint) }
    case "drop constraint":
      return { type: "drop constraint", constraint: change.constraint.name, ifExists: change.ifExists === true }
    case "rename column":
      return { type: "rename column", column: change.column.name, to: change.to.name }
    case "rename constraint":
      return { type: "rename constraint", constraint: change.constraint.name, to: change.to.name }
    case "rename":
      return { type: "rename", to: change.to.name }
    case "owner":
      return undefined
  }
}

/** `statement` as the model reads it, or `undefined` for a statement that changes no table. */
const statementOf = (statement: Statement, print: Parser["print"]): StatementDdl | undefined => {
  switch (statement.type) {
    case "create table": {
      const like = statement.columns.some((definition) => definition.kind !== "column")
      return {
        type: "create table",
        name: tableNameOf(statement.name),
        ifNotExists: statement.ifNotExists === true,
        like,
        columns: like
          ? []
          : statement.columns.flatMap((definition) =>
              definition.kind === "column" ? [columnOfDef(definition, print)] : []
            ),
        constraints: (statement.constraints ?? []).map(tableConstraintOf)
      }
    }
    case "alter table":
      return {
        type: "alter table",
        table: tableNameOf(statement.table),
        ifExists: statement.ifExists === true,
        changes: statement.changes.flatMap((change) => {
          const lowered = alterationOf(change, print)
          return lowered === undefined ? [] : [lowered]
        })
      }
    case "drop table":
      return {
        type: "drop table",
        names: statement.names.map(tableNameOf),
        ifExists: statement.ifExists === true,
        cascade: statement.cascade === "cascade"
      }
    default:
      return undefined
  }
}

/**
 * The SQL DDL `sql` as the model reads it ({@link Ddl}), or why not: it does not parse, or an
 * expression in it is nested deeper than the printer can follow. The costly step of a migration,
 * proportional to the text; no table is read.
 */
export const parseDdl = (sql: string, parser: Parser): Either.Either<Ddl, Reason> =>
  Either.try({
    try: () => parser.parse(sql),
    catch: (error) =>
      `the SQL does not parse: ${(error instanceof Error ? error.message : String(error)).split("\n")[0] ?? ""}`
  }).pipe(
    Either.flatMap((statements) =>
      Either.try({
        try: (): Ddl => ({
          statements: statements.flatMap((statement) => {
            const lowered = statementOf(statement, parser.print)
            return lowered === undefined ? [] : [lowered]
          })
        }),
        catch: (error) =>
          error instanceof RangeError
            ? "the SQL does not parse: an expression is nested too deeply"
            : `the SQL does not parse: ${error instanceof Error ? error.message : String(error)}`
      })
    )
  )
