/**
 * The fake's model of a database's schema (docs/contract.md §24.3): its tables, each with its
 * columns and constraints (primary key, unique, foreign key), as `resources/Databases/kinds.ts`
 * keeps them; names and types as Postgres spells them; and the schema rendered back as SQL in one
 * deterministic form, close to `pg_dump --schema-only`'s, section by section ({@link sectionsOf}),
 * each table's rendered once and kept with it. SQL DDL changes it (`ddl.ts`). Pure functions: no
 * state, no time.
 */
import * as Effect from "effect/Effect"
import type { BinaryOperator, DataTypeDef, Expr, QName, Statement } from "pgsql-ast-parser"
import type { Steps } from "../../engine/slices.js"
import { finish } from "../../engine/slices.js"
import {
  isSorted,
  keyOf,
  type SnapshotSchemaColumn,
  type SnapshotSchemaConstraint,
  type SnapshotSchemaTable,
  sorted
} from "../Databases/kinds.js"

export { keyOf, sorted }

/** A table of the model. */
export type Table = typeof SnapshotSchemaTable.Type
/** A column of a table of the model. */
export type Column = typeof SnapshotSchemaColumn.Type
/** A constraint of a table of the model. */
export type Constraint = typeof SnapshotSchemaConstraint.Type

/**
 * What the model needs of `pgsql-ast-parser`: its `parse` (SQL text to statements; throws on
 * SQL it cannot read) and its printer of expressions, for the forms `exprOf` does not print itself.
 */
export interface Parser {
  readonly parse: (sql: string) => ReadonlyArray<Statement>
  readonly print: (expr: Expr) => string
}

/**
 * `pgsql-ast-parser`, loaded when first needed: its grammar takes a third as long to load as
 * `effect/Schema`, which a fake that never reads SQL (most tests, the emulator's start) should
 * not pay. Node keeps the module once loaded.
 */
export const loadParser: Effect.Effect<Parser> = Effect.map(
  Effect.promise(() => import("pgsql-ast-parser")),
  (module): Parser => ({ parse: module.parse, print: module.toSql.expr })
)

/** The schema a table without one is in. */
export const defaultSchema = "public"

/** The Postgres spelling of the types that have another name (`int` is `integer`), as the catalog prints them. */
const typeNames: Readonly<Record<string, string>> = {
  int: "integer",
  int4: "integer",
  int8: "bigint",
  int2: "smallint",
  serial: "integer",
  serial4: "integer",
  bigserial: "bigint",
  serial8: "bigint",
  smallserial: "smallint",
  serial2: "smallint",
  varchar: "character varying",
  char: "character",
  bpchar: "character",
  bool: "boolean",
  float8: "double precision",
  float: "double precision",
  float4: "real",
  decimal: "numeric",
  timestamptz: "timestamp with time zone",
  timestamp: "timestamp without time zone",
  timetz: "time with time zone",
  time: "time without time zone",
  varbit: "bit varying"
}

export const serials: ReadonlySet<string> = new Set([
  "serial",
  "serial4",
  "bigserial",
  "serial8",
  "smallserial",
  "serial2"
])

/** An identifier as SQL: as it is when Postgres would print it so, double-quoted otherwise. */
export const ident = (name: string): string =>
  /^[a-z_][a-z0-9_$]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`

/** A type as the catalog prints it: `integer`, `character varying(100)`, `numeric(10,2)[]`. */
export const typeOf = (type: DataTypeDef): string => {
  if (type.kind === "array") return `${typeOf(type.arrayOf)}[]`
  const name = typeNames[type.name] ?? type.name
  const qualified = type.schema === undefined || type.schema === "pg_catalog" ? name : `${ident(type.schema)}.${name}`
  if (type.config === undefined || type.config.length === 0) return qualified
  const config = `(${type.config.join(",")})`
  // `timestamp(3) with time zone`: the precision follows the first word.
  const space = qualified.indexOf(" ")
  return /^(timestamp|time) /.test(qualified)
    ? `${qualified.slice(0, space)}${config}${qualified.slice(space)}`
    : `${qualified}${config}`
}

/** An expression (a default, a generated column's) as SQL text: the common forms plainly, others as the parser prints them. */
export const exprOf = (expr: Expr, print: Parser["print"]): string => {
  switch (expr.type) {
    case "integer":
    case "numeric":
      return String(expr.value)
    case "string":
      return `'${expr.value.replace(/'/g, "''")}'`
    case "boolean":
      return expr.value ? "true" : "false"
    case "null":
      return "NULL"
    case "keyword":
      return expr.keyword.toUpperCase()
    case "ref":
      return expr.name === "*" ? "*" : ident(expr.name)
    case "call":
      return `${qualifiedName(expr.function)}(${expr.args.map((arg) => exprOf(arg, print)).join(", ")})`
    case "cast":
      return `${exprOf(expr.operand, print)}::${typeOf(expr.to)}`
    case "binary":
      return `(${exprOf(expr.left, print)} ${operatorOf(expr.op)} ${exprOf(expr.right, print)})`
    default:
      return print(expr).replace(/\s+/g, " ").trim()
  }
}

const operatorOf = (op: BinaryOperator): string => op

export const qualifiedName = (name: QName): string =>
  name.schema === undefined ? ident(name.name) : `${ident(name.schema)}.${ident(name.name)}`

const columnSql = (column: Column): string =>
  [
    `    ${ident(column.name)} ${column.type}`,
    column.generated === undefined ? "" : ` GENERATED ALWAYS AS (${column.generated}) STORED`,
    column.default === undefined ? "" : ` DEFAULT ${column.default}`,
    column.nullable ? "" : " NOT NULL"
  ].join("")

const constraintSql = (table: Table, constraint: Constraint): string => {
  const columns = constraint.columns.map(ident).join(", ")
  const body =
    constraint.type === "primary_key"
      ? `PRIMARY KEY (${columns})`
      : constraint.type === "unique"
        ? `UNIQUE (${columns})`
        : `FOREIGN KEY (${columns}) REFERENCES ${ident(constraint.referenced_table!.schema)}.${ident(constraint.referenced_table!.table)}(${constraint.referenced_table!.columns.map(ident).join(", ")})`
  return `ALTER TABLE ONLY ${ident(table.schema)}.${ident(table.name)}\n    ADD CONSTRAINT ${ident(constraint.name)} ${body};\n`
}

/**
 * A part of the schema as SQL text, as {@link sectionsOf} lists them: its place in the dump
 * (`order`: the part, 0 the opening comment, 1 a table, 2 a primary key or unique constraint, 3 a
 * foreign key, 4 the closing comment; then the table's `schema.name` and the constraint's name),
 * its lines without their newlines (the blank line after it included), and the table it is of:
 * two sections of the same table object are the same.
 */
export interface Section {
  readonly order: readonly [part: number, table: string, name: string]
  readonly lines: ReadonlyArray<string>
  readonly table: Table | undefined
}

const opening: Section = {
  order: [0, "", ""],
  lines: ["--", "-- PostgreSQL database dump", "--", ""],
  table: undefined
}

const closing: Section = {
  order: [4, "", ""],
  lines: ["--", "-- PostgreSQL database dump complete", "--"],
  table: undefined
}

/** The sections of one table: its `CREATE TABLE`, its keys and its foreign keys, each by name. */
interface TableSections {
  readonly create: Section
  readonly keys: ReadonlyArray<Section>
  readonly foreignKeys: ReadonlyArray<Section>
}

/** The sections of each table rendered so far: a table is immutable, and a version shares most of them with the last. */
const rendered = new WeakMap<Table, TableSections>()

const byName = (a: Constraint, b: Constraint) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)

const sectionsOfTable = (table: Table): TableSections => {
  const cached = rendered.get(table)
  if (cached !== undefined) return cached
  const key = keyOf(table.schema, table.name)
  const create: Section = {
    order: [1, key, ""],
    lines: [
      `CREATE TABLE ${ident(table.schema)}.${ident(table.name)} (`,
      // No columns: an empty line between the parentheses, as the columns joined make it.
      ...(table.columns.length === 0
        ? [""]
        : table.columns.map((column, i) => `${columnSql(column)}${i < table.columns.length - 1 ? "," : ""}`)),
      ");",
      ""
    ],
    table
  }
  const constraint = (part: number, made: Constraint): Section => ({
    order: [part, key, made.name],
    lines: [...constraintSql(table, made).slice(0, -1).split("\n"), ""],
    table
  })
  const ordered = [...table.constraints].sort(byName)
  const sections: TableSections = {
    create,
    keys: ordered.filter((made) => made.type !== "foreign_key").map((made) => constraint(2, made)),
    foreignKeys: ordered.filter((made) => made.type === "foreign_key").map((made) => constraint(3, made))
  }
  rendered.set(table, sections)
  return sections
}

/**
 * The schema as SQL text in sections, in the order of `pg_dump --schema-only` (see
 * {@link renderSql}): what the diff of two schemas walks side by side. A table's sections are
 * rendered once and kept with it.
 */
export const sectionsOf = (tables: ReadonlyArray<Table>): ReadonlyArray<Section> => finish(sectionSteps(tables))

/** {@link sectionsOf}, with a possible pause (`yield`) after every 50 tables rendered. */
export function* sectionSteps(tables: ReadonlyArray<Table>): Steps<ReadonlyArray<Section>> {
  const ordered: Array<TableSections> = []
  for (const table of isSorted(tables) ? tables : sorted(tables)) {
    if (ordered.length % 50 === 49) yield
    ordered.push(sectionsOfTable(table))
  }
  return [
    opening,
    ...ordered.map((table) => table.create),
    ...ordered.flatMap((table) => table.keys),
    ...ordered.flatMap((table) => table.foreignKeys),
    closing
  ]
}

/**
 * The schema as SQL text, deterministic, in the order and form of `pg_dump --schema-only`: a
 * `CREATE TABLE` per table (by schema and name, columns in order), then the primary keys and
 * unique constraints, then the foreign keys, each an `ALTER TABLE ONLY ... ADD CONSTRAINT` (by
 * table, then name), between the dump's opening and closing comments.
 */
export const renderSql = (tables: ReadonlyArray<Table>): string => {
  const lines: Array<string> = []
  for (const section of sectionsOf(tables)) for (const line of section.lines) lines.push(line)
  lines.push("")
  return lines.join("\n")
}
