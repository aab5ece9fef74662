/**
 * The branch schema endpoints (docs/contract.md §24) through the client's `BranchSchema` over the
 * fake, on the `TestClock`: a migration review in memory (a preview branch starts with its
 * parent's schema, a migration changes it, the diff against the parent is exactly the change, a
 * point in time before it reads the old schema), seeds given as SQL or JSON, and the refusals.
 */
import { BranchSchema, Branches } from "@dbplatform/client"
import { BranchId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import { projectId } from "./helpers.js"

const main = BranchId.make("br-main-100001")

const usersDdl = "CREATE TABLE users (id serial PRIMARY KEY, email text NOT NULL UNIQUE);"

/** A project whose default branch `main` has the database `neondb` with a `users` table. */
const provideFake = Effect.provide(
  DbPlatformTest.layer({
    seed: {
      projects: [{ id: projectId }],
      branches: [{ project_id: projectId, id: main, name: "main", default: true }],
      roles: [{ branch_id: main, name: "neondb_owner" }],
      databases: [{ branch_id: main, name: "neondb", owner_name: "neondb_owner", schema: usersDdl }]
    }
  })
)

/** The SQL the fake answers for the seeded `users` table alone. */
const usersSql = [
  "--",
  "-- PostgreSQL database dump",
  "--",
  "",
  "CREATE TABLE public.users (",
  "    id integer DEFAULT nextval('users_id_seq'::regclass) NOT NULL,",
  "    email text NOT NULL",
  ");",
  "",
  "ALTER TABLE ONLY public.users",
  "    ADD CONSTRAINT users_email_key UNIQUE (email);",
  "",
  "ALTER TABLE ONLY public.users",
  "    ADD CONSTRAINT users_pkey PRIMARY KEY (id);",
  "",
  "--",
  "-- PostgreSQL database dump complete",
  "--",
  ""
].join("\n")

describe("BranchSchema", () => {
  it.effect("reviews a preview branch's migration: the diff against the parent is exactly the change", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const branches = yield* Branches.Branches
      const schema = yield* BranchSchema.BranchSchema
      yield* TestClock.adjust("1 hour")
      const created = yield* branches.create({ project_id: projectId, branch: { name: "preview", parent_id: main } })
      const preview = created.branch.id
      const at = { project_id: projectId, db_name: "neondb" }

      // The preview branch starts with its parent's schema: no difference.
      expect((yield* schema.get({ ...at, branch_id: preview })).sql).toBe(usersSql)
      expect(yield* schema.compare({ ...at, branch_id: preview })).toEqual({ diff: "" })

      yield* TestClock.adjust("10 minutes")
      const before = yield* DateTime.now
      yield* TestClock.adjust("1 minute")
      const migrated = yield* fake.scenario.migrate(
        projectId,
        preview,
        "neondb",
        "ALTER TABLE users ADD COLUMN name varchar(100);\nCREATE TABLE posts (id bigint PRIMARY KEY, author_id int NOT NULL REFERENCES users (id), body text);"
      )
      expect(migrated.json.tables.map((table) => table.name)).toEqual(["posts", "users"])
      yield* TestClock.adjust("1 minute")

      const { diff } = yield* schema.compare({ ...at, branch_id: preview })
      const now = DateTime.formatIso(yield* DateTime.now)
      expect(diff).toBe(
        [
          "===================================================================",
          `--- ${main}/neondb\t${now}`,
          `+++ ${preview}/neondb\t${now}`,
          "@@ -1,18 +1,31 @@",
          " --",
          " -- PostgreSQL database dump",
          " --",
          " ",
          "+CREATE TABLE public.posts (",
          "+    id bigint NOT NULL,",
          "+    author_id integer NOT NULL,",
          "+    body text",
          "+);",
          "+",
          " CREATE TABLE public.users (",
          "     id integer DEFAULT nextval('users_id_seq'::regclass) NOT NULL,",
          "-    email text NOT NULL",
          "+    email text NOT NULL,",
          "+    name character varying(100)",
          " );",
          " ",
          "+ALTER TABLE ONLY public.posts",
          "+    ADD CONSTRAINT posts_pkey PRIMARY KEY (id);",
          "+",
          " ALTER TABLE ONLY public.users",
          "     ADD CONSTRAINT users_email_key UNIQUE (email);",
          " ",
          " ALTER TABLE ONLY public.users",
          "     ADD CONSTRAINT users_pkey PRIMARY KEY (id);",
          " ",
          "+ALTER TABLE ONLY public.posts",
          "+    ADD CONSTRAINT posts_author_id_fkey FOREIGN KEY (author_id) REFERENCES public.users(id);",
          "+",
          " --",
          " -- PostgreSQL database dump complete",
          " --",
          ""
        ].join("\n")
      )

      // A point in time before the migration reads the old schema, by timestamp and by LSN.
      expect((yield* schema.get({ ...at, branch_id: preview, timestamp: before })).sql).toBe(usersSql)
      const beforeLsn = FakePlatform.lsnAt(before)
      expect((yield* schema.get({ ...at, branch_id: preview, lsn: beforeLsn })).sql).toBe(usersSql)
      expect((yield* schema.get({ ...at, branch_id: preview, lsn: migrated.lsn })).sql).not.toBe(usersSql)
      // The preview against its own past at the same point: the same change.
      const own = yield* schema.compare({ ...at, branch_id: preview, base_branch_id: preview, base_timestamp: before })
      expect(own.diff?.split("\n").filter((line) => /^[-+][^-+]/.test(line))).toEqual(
        diff?.split("\n").filter((line) => /^[-+][^-+]/.test(line))
      )
      // The parent is unchanged, and its JSON is the platform's shape.
      expect((yield* schema.get({ ...at, branch_id: main })).sql).toBe(usersSql)
      const json = yield* schema.get({ ...at, branch_id: main, format: "json" })
      expect(json.sql).toBeUndefined()
      expect(json.json?.tables).toEqual([
        {
          schema: "public",
          name: "users",
          columns: [
            { name: "id", type: "integer", nullable: false, generated: false },
            { name: "email", type: "text", nullable: false, generated: false }
          ],
          constraints: [
            { type: "primary_key", columns: ["id"], name: "users_pkey" },
            { type: "unique", columns: ["email"], name: "users_email_key" }
          ]
        }
      ])
    }).pipe(provideFake)
  )

  it.effect("refuses a point given both ways, out of the history window or ahead of now, and unknown names", () =>
    Effect.gen(function* () {
      const schema = yield* BranchSchema.BranchSchema
      yield* TestClock.adjust("2 days")
      const at = { project_id: projectId, branch_id: main, db_name: "neondb" }
      const now = yield* DateTime.now
      const refused = (answer: Effect.Effect<unknown, { readonly _tag: string; readonly message: string }>) =>
        Effect.map(Effect.flip(answer), (error) => ({ tag: error._tag, message: error.message }))

      const both = yield* refused(schema.get({ ...at, lsn: "0/0", timestamp: now }))
      expect(both.tag).toBe("BadRequest")
      expect(both.message).toContain("lsn and timestamp cannot be specified at the same time")
      const ahead = yield* refused(schema.get({ ...at, timestamp: DateTime.addDuration(now, "1 second") }))
      expect(ahead).toMatchObject({ tag: "BadRequest" })
      expect(ahead.message).toContain("timestamp is ahead of the branch's head")
      // The project keeps a day of history (the default): two days back is outside it.
      const old = yield* refused(schema.get({ ...at, timestamp: DateTime.subtractDuration(now, "36 hours") }))
      expect(old.message).toContain("outside the project's history retention window")
      const oldBase = yield* refused(
        schema.compare({
          ...at,
          base_branch_id: main,
          base_lsn: FakePlatform.lsnAt(DateTime.subtractDuration(now, "2 days"))
        })
      )
      expect(oldBase.message).toContain("base_lsn is outside")
      // A malformed LSN or format is refused before sending.
      const malformed = yield* refused(schema.get({ ...at, lsn: "not-an-lsn" }))
      expect(malformed.tag).toBe("InvalidRequest")
      // @ts-expect-error: a format the endpoint does not take
      expect((yield* refused(schema.get({ ...at, format: "yaml" }))).tag).toBe("InvalidRequest")

      expect(yield* refused(schema.get({ ...at, db_name: "nothing" }))).toMatchObject({ tag: "NotFound" })
      expect(yield* refused(schema.get({ ...at, branch_id: BranchId.make("br-none-100009") }))).toMatchObject({
        tag: "NotFound"
      })
      // The default branch has no parent: a comparison needs a base.
      const noBase = yield* refused(schema.compare(at))
      expect(noBase.tag).toBe("BadRequest")
      expect(noBase.message).toContain("base_branch_id")
      expect(yield* refused(schema.compare({ ...at, base_branch_id: BranchId.make("br-none-100009") }))).toMatchObject({
        tag: "NotFound"
      })
      // Its own past, a day back and a second ago: no change since the seed.
      expect(
        yield* schema.compare({ ...at, base_branch_id: main, base_timestamp: DateTime.subtractDuration(now, "1 day") })
      ).toEqual({
        diff: ""
      })
    }).pipe(provideFake)
  )

  it.effect("refuses a migration Postgres would refuse, and changes nothing; unknown names are typed errors", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const schema = yield* BranchSchema.BranchSchema
      const before = yield* fake.snapshot
      for (const [sql, reason] of [
        ["CREATE TABLE users (id int)", 'relation "users" already exists'],
        [
          "ALTER TABLE users ADD COLUMN name text; ALTER TABLE users DROP COLUMN nope",
          'column "nope" of relation "users" does not exist'
        ],
        ["CREATE TABLE posts (author_id int REFERENCES authors (id))", 'relation "authors" does not exist'],
        [
          "CREATE TABLE posts (author_email text REFERENCES users (email), author_id int REFERENCES users (email, id))",
          'there is no unique constraint matching given keys for referenced table "users"'
        ],
        [
          "CREATE TABLE posts (author_id int REFERENCES users (id)); DROP TABLE users",
          "cannot drop table users because other objects depend on it"
        ],
        ["CREATE TABLE (", "the SQL does not parse"]
      ] as const) {
        const error = yield* Effect.flip(fake.scenario.migrate(projectId, main, "neondb", sql))
        expect(error._tag).toBe("InvalidMigration")
        expect(error.message).toContain(reason)
      }
      // Nothing of a refused migration is applied, not even its first statements.
      expect(yield* fake.snapshot).toEqual(before)
      expect((yield* schema.get({ project_id: projectId, branch_id: main, db_name: "neondb" })).sql).toBe(usersSql)

      expect((yield* Effect.flip(fake.scenario.migrate("nowhere-100001", main, "neondb", "SELECT 1")))._tag).toBe(
        "UnknownProject"
      )
      const unknown = yield* Effect.flip(fake.scenario.migrate(projectId, main, "nothing", "SELECT 1"))
      expect(unknown._tag).toBe("UnknownDatabase")
      expect(unknown.message).toBe(`no database nothing on branch ${main} of project ${projectId} in the fake platform`)
    }).pipe(provideFake)
  )

  it.effect(
    "applies Postgres's rules: cascades, renames that follow foreign keys, statements that change no table",
    () =>
      Effect.gen(function* () {
        const fake = yield* FakePlatform.FakePlatform
        const schema = yield* BranchSchema.BranchSchema
        const at = { project_id: projectId, branch_id: main, db_name: "neondb", format: "json" as const }
        yield* fake.scenario.migrate(
          projectId,
          main,
          "neondb",
          `BEGIN;
        CREATE TABLE app.posts (id bigint GENERATED ALWAYS AS IDENTITY, author_id integer, title text DEFAULT 'untitled', slug text GENERATED ALWAYS AS (lower(title)) STORED, CONSTRAINT posts_pk PRIMARY KEY (id), FOREIGN KEY (author_id) REFERENCES users (id));
        CREATE INDEX posts_author ON app.posts (author_id);
        INSERT INTO users (email) VALUES ('a@example.com');
        ALTER TABLE users RENAME COLUMN id TO user_id;
        ALTER TABLE users RENAME TO people;
        ALTER TABLE people ALTER COLUMN email DROP NOT NULL, ALTER COLUMN email TYPE varchar(320);
        COMMIT;`
        )
        const { json } = yield* schema.get(at)
        expect(json?.tables.map((table) => `${table.schema}.${table.name}`)).toEqual(["app.posts", "public.people"])
        const posts = json!.tables[0]!
        expect(posts.columns).toEqual([
          { name: "id", type: "bigint", nullable: false, generated: false },
          { name: "author_id", type: "integer", nullable: true, generated: false },
          { name: "title", type: "text", nullable: true, generated: false },
          { name: "slug", type: "text", nullable: true, generated: true }
        ])
        expect(posts.constraints).toEqual([
          { type: "primary_key", columns: ["id"], name: "posts_pk" },
          {
            type: "foreign_key",
            columns: ["author_id"],
            name: "posts_author_id_fkey",
            referenced_table: { schema: "public", table: "people", columns: ["user_id"] }
          }
        ])
        expect(json!.tables[1]!.columns.map((column) => [column.name, column.type, column.nullable])).toEqual([
          ["user_id", "integer", false],
          ["email", "character varying(320)", true]
        ])
        // Dropping the referenced table needs CASCADE, which drops the foreign key with it.
        expect((yield* Effect.flip(fake.scenario.migrate(projectId, main, "neondb", "DROP TABLE people")))._tag).toBe(
          "InvalidMigration"
        )
        yield* fake.scenario.migrate(projectId, main, "neondb", "DROP TABLE people CASCADE")
        const after = yield* schema.get(at)
        expect(after.json?.tables.map((table) => table.name)).toEqual(["posts"])
        expect(after.json?.tables[0]?.constraints?.map((constraint) => constraint.name)).toEqual(["posts_pk"])
        expect((yield* schema.get({ ...at, format: "sql" })).sql).toContain(
          "    title text DEFAULT 'untitled',\n    slug text GENERATED ALWAYS AS (lower(title)) STORED\n);\n"
        )
      }).pipe(provideFake)
  )

  it.effect("takes a seed's schema as a JSON table list, and refuses a seed whose SQL does not apply", () =>
    Effect.gen(function* () {
      const seed = {
        projects: [{ id: projectId }],
        branches: [{ project_id: projectId, id: main, name: "main", default: true }],
        roles: [{ branch_id: main, name: "neondb_owner" }],
        databases: [
          {
            branch_id: main,
            name: "neondb",
            owner_name: "neondb_owner",
            schema: {
              tables: [
                {
                  schema: "public",
                  name: "users",
                  columns: [
                    { name: "id", type: "integer", nullable: false },
                    { name: "email", type: "text" }
                  ],
                  constraints: [{ type: "primary_key", columns: ["id"] }]
                }
              ]
            }
          }
        ]
      }
      const schema = yield* Effect.provide(
        Effect.flatMap(BranchSchema.BranchSchema, (service) =>
          service.get({ project_id: projectId, branch_id: main, db_name: "neondb", format: "json" })
        ),
        DbPlatformTest.layer({ seed })
      )
      expect(schema.json?.tables).toEqual([
        {
          schema: "public",
          name: "users",
          columns: [
            { name: "id", type: "integer", nullable: false, generated: false },
            { name: "email", type: "text", nullable: true, generated: false }
          ],
          constraints: [{ type: "primary_key", columns: ["id"], name: "users_pkey" }]
        }
      ])
      const refused = yield* Effect.flip(
        FakePlatform.make({
          ...seed,
          databases: [{ ...seed.databases[0]!, schema: "CREATE TABLE a (id int); CREATE TABLE a (id int)" }]
        })
      )
      expect(refused.problems).toEqual([`database neondb of branch ${main}: relation "a" already exists`])
    })
  )

  it.effect(
    "a restored branch takes its source's schema; a snapshot keeps the history, and one saved before loads",
    () =>
      Effect.gen(function* () {
        const fake = yield* FakePlatform.FakePlatform
        const branches = yield* Branches.Branches
        const schema = yield* BranchSchema.BranchSchema
        const created = yield* branches.create({ project_id: projectId, branch: { name: "preview", parent_id: main } })
        const preview = created.branch.id
        yield* TestClock.adjust("1 minute")
        yield* fake.scenario.migrate(projectId, main, "neondb", "DROP TABLE users")
        yield* TestClock.adjust("1 minute")
        const at = { project_id: projectId, db_name: "neondb" }
        expect((yield* schema.compare({ ...at, branch_id: preview })).diff).toContain("+CREATE TABLE public.users (")
        yield* branches.restore({ project_id: projectId, branch_id: preview, source_branch_id: main })
        yield* TestClock.adjust("1 minute")
        expect(yield* schema.compare({ ...at, branch_id: preview })).toEqual({ diff: "" })

        // A snapshot restored holds the history: the past reads as it was.
        const snapshot = yield* fake.snapshot
        const minuteAgo = DateTime.subtractDuration(yield* DateTime.now, "150 seconds")
        yield* fake.reset
        yield* fake.restore(snapshot)
        expect((yield* schema.get({ ...at, branch_id: main, timestamp: minuteAgo })).sql).toBe(usersSql)
        // A snapshot saved before schemas were kept: its databases have no tables.
        yield* fake.restore({
          ...snapshot,
          databases: snapshot.databases.map(({ schema_history: _, ...database }) => database)
        })
        expect((yield* schema.get({ ...at, branch_id: main, format: "json" })).json).toEqual({ tables: [] })
        // A history out of order cannot be read by time: such a snapshot is refused.
        const database = snapshot.databases.find((database) => database.branch_id === main)!
        const refused = yield* Effect.flip(
          fake.restore({
            ...snapshot,
            databases: snapshot.databases.map((other) =>
              other === database ? { ...other, schema_history: [...(other.schema_history ?? [])].reverse() } : other
            )
          })
        )
        expect(refused.problems).toEqual([`database ${database.id}: its schema_history is not in ascending time`])
      }).pipe(provideFake)
  )
})
