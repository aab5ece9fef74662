/**
 * A database's schema as a JSON table list gives it (a seed's `schema`, docs/contract.md §24.3),
 * read into the fake's model of a schema. Pure functions: no state, no time.
 */
import * as Either from "effect/Either"
import { constraintName, withConstraint } from "./ddl.js"
import { type Reason, tableLimit } from "./parse.js"
import { keyOf, sorted, type Table } from "./sql.js"

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
    if (tables.size > tableLimit) {
      return yield* Either.left(
        `${tables.size} tables, more than the fake's limit of ${tableLimit} tables per database`
      )
    }
    return sorted(tables.values())
  })
