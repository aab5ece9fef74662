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
})
