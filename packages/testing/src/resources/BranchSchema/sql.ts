/**
 * The fake's model of a database's schema (docs/contract.md §24.3): its tables, each with its
 * columns and constraints (primary key, unique, foreign key), as `resources/Databases/kinds.ts`
 * keeps them; names and types as Postgres spells them; and the schema rendered back as SQL in one
 * deterministic form, close to `pg_dump --schema-only`'s. SQL DDL changes it (`ddl.ts`). Pure
 * functions: no state, no time.
 */
import * as Effect from "effect/Effect"
import type { BinaryOperator, DataTypeDef, Expr, QName, Statement } from "pgsql-ast-parser"
import type { SnapshotSchemaColumn, SnapshotSchemaConstraint, SnapshotSchemaTable } from "../Databases/kinds.js"

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

/** `schema.name` of a table, as a key and in messages. */
export const keyOf = (schema: string, name: string) => `${schema}.${name}`

/** Tables in the order they are shown: by schema, then name. */
export const sorted = (tables: Iterable<Table>): ReadonlyArray<Table> =>
  Array.from(tables).sort((a, b) => (keyOf(a.schema, a.name) < keyOf(b.schema, b.name) ? -1 : 1))

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
 * The schema as SQL text, deterministic, in the order and form of `pg_dump --schema-only`: a
 * `CREATE TABLE` per table (by schema and name, columns in order), then the primary keys and
 * unique constraints, then the foreign keys, each an `ALTER TABLE ONLY ... ADD CONSTRAINT` (by
 * table, then name), between the dump's opening and closing comments.
 */
export const renderSql = (tables: ReadonlyArray<Table>): string => {
  const ordered = sorted(tables)
  const parts: Array<string> = ["--\n-- PostgreSQL database dump\n--\n"]
  for (const table of ordered) {
    parts.push(
      `CREATE TABLE ${ident(table.schema)}.${ident(table.name)} (\n${table.columns.map(columnSql).join(",\n")}\n);\n`
    )
  }
  const byName = (a: Constraint, b: Constraint) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
  for (const keys of [false, true]) {
    for (const table of ordered) {
      for (const constraint of [...table.constraints].sort(byName)) {
        if ((constraint.type === "foreign_key") === keys) parts.push(constraintSql(table, constraint))
      }
    }
  }
  parts.push("--\n-- PostgreSQL database dump complete\n--\n")
  return parts.join("\n")
}
