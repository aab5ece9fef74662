/**
 * The limits of the fake's schema work (docs/contract.md §24.3, docs/design.md §6), and that its
 * cost follows the change: a migration past `DdlParser.migrationLimitBytes` is refused whole (the
 * control API answers 413 naming the limit) and changes nothing; a database holds at most
 * `DdlParser.tableLimit` tables, a seed at most `DdlParser.seedSchemaLimitBytes` of SQL; a
 * migration is journaled as the tables it changed, not as the whole schema, and a snapshot writes
 * each later version of a schema as its change; a parser given to the fake reads every migration.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import * as ControlApi from "../src/ControlApi.js"
import * as DdlParser from "../src/DdlParser.js"
import * as FakeHttpClient from "../src/FakeHttpClient.js"
import * as FakePlatform from "../src/FakePlatform.js"
import type { Seed } from "../src/Seed.js"
import * as Snapshot from "../src/Snapshot.js"
import { projectId, read } from "./helpers.js"

const main = "br-main-100001"
const token = "schema-limits-token"

/** A table of the JSON table list form, named `name`. */
const table = (name: string) => ({
  schema: "public",
  name,
  columns: [
    { name: "id", type: "bigint", nullable: false },
    { name: "body", type: "text" }
  ],
  constraints: [{ type: "primary_key", columns: ["id"] }]
})

/** A project whose default branch has the database `neondb`, its schema `schema`. */
const seedWith = (schema: NonNullable<NonNullable<Seed["databases"]>[number]["schema"]>): Seed => ({
  bootstrapKey: "schema-limits-key",
  projects: [{ id: projectId }],
  branches: [{ project_id: projectId, id: main, name: "main", default: true }],
  roles: [{ branch_id: main, name: "neondb_owner" }],
  databases: [{ branch_id: main, name: "neondb", owner_name: "neondb_owner", schema }]
})

/** The fake on `seed` with its journal's changes recorded, and its control API. */
const setup = (seed: Seed, options: FakePlatform.Options = {}) =>
  Effect.gen(function* () {
    const recorded: Array<Snapshot.SnapshotChange> = []
    const fake = yield* FakePlatform.make(seed, {
      ...options,
      journal: { record: (changes) => Effect.sync(() => void recorded.push(...changes)), sync: Effect.void }
    })
    const client = FakeHttpClient.make(yield* ControlApi.httpApp(fake, { token: Redacted.make(token) }))
    const control = yield* Effect.provideService(
      ControlApi.client({ url: `http://x${ControlApi.prefix}`, token: Redacted.make(token) }),
      HttpClient.HttpClient,
      client
    )
    const migrate = (sql: string) =>
      Effect.flatMap(
        client.execute(
          HttpClientRequest.post(
            `http://x${ControlApi.prefix}/projects/${projectId}/branches/${main}/databases/neondb/migrate`
          ).pipe(HttpClientRequest.bearerToken(token), HttpClientRequest.bodyText(JSON.stringify({ sql })))
        ),
        read
      )
    return { fake, recorded, migrate, control }
  })

describe("the fake's schema limits", () => {
  it.effect(
    "refuses a migration past the size limit whole, naming the limit: 413 from the control API, nothing changed",
    () =>
      Effect.gen(function* () {
        const { fake, recorded, migrate, control } = yield* setup(
          seedWith("CREATE TABLE users (id bigint PRIMARY KEY)")
        )
        const before = yield* fake.snapshot
        const limit = DdlParser.migrationLimitBytes
        expect(limit).toBe(1024 * 1024)
        // Valid SQL one byte too long: refused before it is read.
        const statement = "CREATE TABLE posts (id bigint PRIMARY KEY);"
        const tooLarge = statement + " ".repeat(limit + 1 - statement.length)
        const error = yield* Effect.flip(fake.scenario.migrate(projectId, main, "neondb", tooLarge))
        expect(error._tag).toBe("MigrationTooLarge")
        expect(error).toMatchObject({ bytes: limit + 1, limitBytes: limit })
        expect(error.message).toBe(
          `migration refused: its SQL is ${limit + 1} bytes, more than the fake's limit of ${limit} bytes for one migration`
        )
        const answer = yield* migrate(tooLarge)
        expect(answer.status).toBe(413)
        expect(answer.body.message).toBe(error.message)
        // The control API's typed client fails with its `ControlError`, the status and the message.
        const refused = yield* Effect.flip(
          control.migrate({
            path: { project_id: projectId, branch_id: main, database_name: "neondb" },
            payload: { sql: tooLarge }
          })
        )
        expect(refused).toMatchObject({ _tag: "ControlError", status: 413, message: error.message })
        // Bytes of UTF-8, not characters: 'é' is two.
        const wide = `${statement} --${"é".repeat(Math.ceil((limit - statement.length) / 2))}`
        expect((yield* migrate(wide)).status).toBe(413)
        expect(yield* fake.snapshot).toEqual(before)
        expect(recorded).toEqual([])
        // At the limit it is read and applied.
        const atLimit = yield* migrate(statement + " ".repeat(limit - statement.length))
        expect(atLimit.status).toBe(200)
        expect(atLimit.body.json.tables.map((table: { name: string }) => table.name)).toEqual(["posts", "users"])
      })
  )

  it.effect(
    "holds at most tableLimit tables per database: a migration past it is a 400 naming the limit, a seed past it refused",
    () =>
      Effect.gen(function* () {
        const limit = DdlParser.tableLimit
        expect(limit).toBe(5000)
        const full = Array.from({ length: limit }, (_, i) => table(`t_${i}`))
        const { fake, migrate } = yield* setup(seedWith({ tables: full }))
        const before = yield* fake.snapshot
        const answer = yield* migrate("CREATE TABLE one_too_many (id integer);")
        expect(answer.status).toBe(400)
        expect(answer.body.message).toBe(
          `migration refused: the database would hold ${limit + 1} tables, more than the fake's limit of ${limit} tables per database`
        )
        expect(yield* fake.snapshot).toEqual(before)
        // A change that leaves it at the limit is applied.
        expect((yield* migrate("DROP TABLE t_0; CREATE TABLE replacement (id integer);")).status).toBe(200)

        const refused = yield* Effect.flip(FakePlatform.make(seedWith({ tables: [...full, table("one_too_many")] })))
        expect(refused.problems).toEqual([
          `database neondb of branch ${main}: ${limit + 1} tables, more than the fake's limit of ${limit} tables per database`
        ])
        const tooMuchSql = yield* Effect.flip(
          FakePlatform.make(seedWith(`-- ${"x".repeat(DdlParser.seedSchemaLimitBytes)}\nCREATE TABLE a (id int)`))
        )
        expect(tooMuchSql.problems).toEqual([
          `the SQL of the databases' schemas is ${DdlParser.seedSchemaLimitBytes + 27} bytes, more than the fake's limit of ${DdlParser.seedSchemaLimitBytes} bytes for a seed`
        ])
      })
  )

  it.effect(
    "journals a migration as the tables it changed, and a snapshot writes each later version as its change",
    () =>
      Effect.gen(function* () {
        const tables = Array.from({ length: 200 }, (_, i) => table(`t_${String(i).padStart(3, "0")}`))
        const { fake, recorded, migrate } = yield* setup(seedWith({ tables }))
        const start = yield* fake.snapshot
        yield* TestClock.adjust("1 minute")
        expect(
          (yield* migrate("ALTER TABLE t_007 ADD COLUMN title text; DROP TABLE t_100; CREATE TABLE z (id int)")).status
        ).toBe(200)
        expect(recorded).toHaveLength(1)
        const change = recorded[0]!
        expect(change).toMatchObject({ _tag: "Patch", kind: "databases" })
        if (change._tag !== "Patch") return
        const patch = change.patch as {
          readonly changed: ReadonlyArray<{ readonly name: string }>
          readonly dropped: ReadonlyArray<unknown>
        }
        expect(patch.changed.map((changed) => changed.name)).toEqual(["t_007", "z"])
        expect(patch.dropped).toEqual([{ schema: "public", name: "t_100" }])
        // Its line is a few hundred bytes, not the 200 tables.
        const line = Schema.encodeSync(Schema.parseJson(Snapshot.SnapshotChange))(change)
        expect(line.length).toBeLessThan(1000)

        // The snapshot keeps both versions; in JSON the second is its change, and it reads back whole.
        const snapshot = yield* fake.snapshot
        const json = JSON.parse(Schema.encodeSync(Snapshot.SnapshotFromJson)(snapshot))
        const history = json.databases[0].schema_history
        expect(history).toHaveLength(2)
        expect(history[0].tables).toHaveLength(200)
        expect(Object.keys(history[1]).sort()).toEqual(["at", "changed", "dropped"])
        expect(history[1].changed).toHaveLength(2)
        expect(Schema.decodeSync(Snapshot.SnapshotFromJson)(JSON.stringify(json))).toEqual(snapshot)
        // Replaying the journal on the first snapshot gives the state now.
        expect(Snapshot.applyChanges(start, recorded)).toEqual(snapshot)
      })
  )

  it.effect("reads every migration and a seed's SQL with the parser it is given, each distinct seed text once", () =>
    Effect.gen(function* () {
      const parsed: Array<string> = []
      const ddlParser: DdlParser.DdlParser = {
        parse: (sql) => Effect.tap(DdlParser.inProcess.parse(sql), () => Effect.sync(() => parsed.push(sql)))
      }
      const schema = "CREATE TABLE users (id bigint PRIMARY KEY)"
      const seed: Seed = {
        ...seedWith(schema),
        branches: [
          { project_id: projectId, id: main, name: "main", default: true },
          { project_id: projectId, id: "br-dev-100002", name: "dev", parent_id: main }
        ],
        roles: [main, "br-dev-100002"].map((branch_id) => ({ branch_id, name: "neondb_owner" })),
        databases: [main, "br-dev-100002"].map((branch_id) => ({
          branch_id,
          name: "neondb",
          owner_name: "neondb_owner",
          schema
        }))
      }
      const { fake } = yield* setup(seed, { ddlParser })
      expect(parsed).toEqual([schema])
      yield* fake.scenario.migrate(projectId, main, "neondb", "ALTER TABLE users ADD COLUMN email text")
      expect(parsed).toEqual([schema, "ALTER TABLE users ADD COLUMN email text"])
      // A reset builds the seed's state again from what was read.
      yield* fake.reset
      expect(parsed).toHaveLength(2)
    })
  )
})
