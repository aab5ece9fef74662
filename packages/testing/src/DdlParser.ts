/**
 * How the fake reads SQL DDL (docs/contract.md §24.3): a migration (`Scenario.migrate`, the
 * control API's `migrate`) and a seed's database `schema` given as SQL. Parsing is the costly part
 * of schema work (`pgsql-ast-parser`, about 100 to 250 kB of SQL a second on a 2-core machine,
 * slower for long expressions), so it is done apart: the text is parsed into {@link ParsedDdl}
 * (plain data: the statements that change tables) before the fake's state is taken, and the change
 * is then applied at once, at a cost that grows with the migration, not with the schema.
 *
 * In process (`DbPlatformTest`, `FakePlatform.make`), the fake parses in the thread that calls it
 * ({@link inProcess}): synchronous and deterministic, as tests on the `TestClock` need. The
 * emulator gives `FakePlatform.Options.ddlParser` a parser that runs in a worker thread, so that
 * one long parse does not hold up the requests it answers meanwhile, and stops with it.
 *
 * The limits on what the fake reads and keeps are here too: {@link migrationLimitBytes},
 * {@link seedSchemaLimitBytes}, {@link tableLimit}.
 *
 * @since 0.6.0
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ddl from "./resources/BranchSchema/parse.js"
import { loadParser } from "./resources/BranchSchema/sql.js"
import { InvalidMigration } from "./Scenario.js"

/**
 * SQL DDL as the fake reads it: the statements that change tables, in order, as plain data (names,
 * types and expressions already printed), what `structuredClone` copies, so that a worker thread
 * can send it back. Its shape is the fake's own and may change with any version: hand what a
 * parser answers to the fake as it is.
 *
 * @since 0.6.0
 * @category models
 */
export type ParsedDdl = ddl.Ddl

/**
 * Reads SQL DDL for the fake (`FakePlatform.Options.ddlParser`): `parse` answers the text's
 * {@link ParsedDdl}, or fails with `InvalidMigration` saying why it cannot be read (`the SQL does
 * not parse: ...`, in the parser's words). It must not read or change anything else: the same
 * text always gives the same answer.
 *
 * @since 0.6.0
 * @category models
 */
export interface DdlParser {
  readonly parse: (sql: string) => Effect.Effect<ParsedDdl, InvalidMigration>
}

/**
 * The parser that runs in the calling thread: `pgsql-ast-parser`, loaded with a dynamic `import()`
 * the first time it is used. What the fake uses unless given another; what a worker thread runs.
 *
 * @since 0.6.0
 * @category constructors
 */
export const inProcess: DdlParser = {
  parse: (sql) =>
    Effect.flatMap(loadParser, (parser) =>
      Either.mapLeft(ddl.parseDdl(sql, parser), (reason) => new InvalidMigration({ reason }))
    )
}

/**
 * The largest migration the fake applies, in bytes of UTF-8: 1 MiB (1,048,576). A larger one is
 * refused whole with `Scenario.MigrationTooLarge` (the control API answers 413), before it is read.
 *
 * @since 0.6.0
 * @category limits
 */
export const migrationLimitBytes: number = ddl.migrationLimitBytes

/**
 * The most SQL a seed may give as its databases' `schema`, in bytes of UTF-8, each distinct text
 * counted once (a text given to several databases is parsed once): 4 MiB (4,194,304). Past it the
 * seed is refused (`InvalidSeed`, naming the limit; the control API answers 400).
 *
 * @since 0.6.0
 * @category limits
 */
export const seedSchemaLimitBytes: number = ddl.seedSchemaLimitBytes

/**
 * The most tables a database of the fake holds: 5,000. A migration that would leave more (and more
 * than before it) is refused with `InvalidMigration` naming the limit, a seed with more with
 * `InvalidSeed`. A table holds at most 1,600 columns, as in Postgres.
 *
 * @since 0.6.0
 * @category limits
 */
export const tableLimit: number = ddl.tableLimit
