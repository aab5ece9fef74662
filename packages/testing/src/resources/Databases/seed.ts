/**
 * The Databases group's part of a seed (its databases and their schemas): its schema, in a seed file as in code, derived
 * from the kind the fake keeps (`kinds.ts`), with times relative to the start. `Seed.ts`
 * assembles the parts and documents them.
 */
import * as Schema from "effect/Schema"
import { SeedDuration } from "../../engine/seed.js"
import { SnapshotDatabase } from "./kinds.js"

const database = SnapshotDatabase.fields

/** `Seed.SeedSchemaJson` (documented there). */
export const SeedSchemaJson = Schema.Struct({
  tables: Schema.Array(
    Schema.Struct({
      schema: Schema.String,
      name: Schema.String,
      columns: Schema.Array(
        Schema.Struct({
          name: Schema.String,
          type: Schema.String,
          nullable: Schema.optional(Schema.Boolean),
          generated: Schema.optional(Schema.Boolean)
        })
      ),
      constraints: Schema.optional(
        Schema.Array(
          Schema.Struct({
            type: Schema.String,
            columns: Schema.Array(Schema.String),
            name: Schema.optional(Schema.String),
            referenced_table: Schema.optional(
              Schema.Struct({ schema: Schema.String, table: Schema.String, columns: Schema.Array(Schema.String) })
            )
          })
        )
      )
    })
  )
}).annotations({ identifier: "SeedSchemaJson" })

/** `Seed.SeedDatabaseFile` (documented there). */
export const SeedDatabaseFile = Schema.Struct({
  branch_id: database.branch_id,
  name: database.name.pipe(Schema.minLength(1), Schema.maxLength(63)),
  owner_name: database.owner_name,
  /** A positive integer unique in the account; generated when absent (the same for the same seed). */
  id: Schema.optional(database.id),
  /** How long before the start it was created; with its branch when absent. */
  age: Schema.optional(SeedDuration),
  /**
   * Its schema (since 0.5.0; no tables when absent), in force from its creation: SQL DDL text
   * (`CREATE TABLE ...`; docs/contract.md §24.3 says which statements change it), or a JSON table
   * list as `GET .../schema?format=json` answers it (`{ tables }`).
   */
  schema: Schema.optional(Schema.Union(Schema.String, SeedSchemaJson))
}).annotations({ identifier: "SeedDatabase" })
