/**
 * Branch schemas under random sequences of changes (docs/contract.md §24): migrations from a pool
 * of DDL (some of which Postgres refuses in some states), branch creations from random parents
 * and restores from random sources over the fake's HTTP app, with the `TestClock` moved between
 * them. After each step: the fake's invariants hold; a refused migration changed nothing; the
 * schema the migration answered is the one read at the head; each branch's diff against its
 * parent, applied to the parent's SQL (jsdiff's `applyPatch`), gives the branch's SQL. At the end:
 * every schema read at the head after any step reads the same at that time (a branch created
 * reads its parent's past, a restored one its source's), and the journal replayed on the first
 * snapshot gives the last.
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { describe, expect, it } from "@effect/vitest"
import { applyPatch } from "diff"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as TestClock from "effect/TestClock"
import fc from "fast-check"
import type * as Seed from "../src/Seed.js"
import { projectId } from "./helpers.js"
import { exchange, journaled } from "./randomRequests.js"
import { load } from "../src/internal/kinds.js"

const main = "br-main-400001"
const dev = "br-dev-400002"

const seed: Seed.Seed = {
  projects: [{ id: projectId }],
  branches: [
    { project_id: projectId, id: main, name: "main", default: true },
    { project_id: projectId, id: dev, name: "dev", parent_id: main }
  ],
  roles: [main, dev].map((branch_id) => ({ branch_id, name: "neondb_owner" })),
  databases: [main, dev].map((branch_id) => ({
    branch_id,
    name: "neondb",
    owner_name: "neondb_owner",
    schema: "CREATE TABLE users (id bigint PRIMARY KEY, email text NOT NULL UNIQUE)"
  }))
}

/** Migrations: each applies in some states and is refused in others. */
const ddl = [
  "CREATE TABLE users (id bigint PRIMARY KEY, email text NOT NULL UNIQUE)",
  "CREATE TABLE IF NOT EXISTS users (id bigint PRIMARY KEY)",
  "CREATE TABLE posts (id serial PRIMARY KEY, author_id bigint REFERENCES users (id), body text)",
  "ALTER TABLE users ADD COLUMN name varchar(100)",
  "ALTER TABLE users DROP COLUMN name",
  "ALTER TABLE users RENAME COLUMN email TO mail",
  "ALTER TABLE users ALTER COLUMN email DROP NOT NULL",
  "ALTER TABLE posts RENAME TO articles",
  "DROP TABLE posts",
  "DROP TABLE IF EXISTS articles CASCADE",
  "DROP TABLE users",
  "DROP TABLE users CASCADE",
  "CREATE INDEX ON users (email); INSERT INTO users (id, email) VALUES (1, 'a@example.com')",
  "CREATE TABLE ("
] as const

type Step =
  | { readonly _tag: "Migrate"; readonly branch: number; readonly ddl: number }
  | { readonly _tag: "Create"; readonly parent: number }
  | {
      readonly _tag: "Restore"
      readonly branch: number
      readonly source: number
      /** Which of the branch's past reads a restore from itself goes back to. */
      readonly point: number
      /** Whether a restore from another branch keeps the branch's state under a name (required with children). */
      readonly preserve: boolean
    }
  | { readonly _tag: "Wait"; readonly millis: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      _tag: fc.constant("Migrate" as const),
      branch: fc.nat(10),
      ddl: fc.nat(ddl.length - 1)
    })
  },
  { weight: 2, arbitrary: fc.record({ _tag: fc.constant("Create" as const), parent: fc.nat(10) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      _tag: fc.constant("Restore" as const),
      branch: fc.nat(10),
      source: fc.nat(10),
      point: fc.nat(30),
      preserve: fc.boolean()
    })
  },
  {
    weight: 2,
    arbitrary: fc.record({ _tag: fc.constant("Wait" as const), millis: fc.integer({ min: 1, max: 5_000 }) })
  }
)

/** What the runs did, over all of them: each kind of outcome must have come up. */
const seen = { migrated: 0, refused: 0, created: 0, restored: 0, rewound: 0, preserved: 0, diffs: 0 }

describe("branch schemas, random migrations, creations and restores", () => {
  it.effect.prop(
    "keep the invariants, refuse without a change, diff so that the patch gives the branch, read the past as it was, and the journal replays",
    [fc.array(step, { minLength: 1, maxLength: 25, size: "max" })],
    ([steps]) =>
      Effect.gen(function* () {
        const { fake, key, replays } = yield* journaled(seed)
        const call = (request: HttpClientRequest.HttpClientRequest) => exchange(fake, request, key)
        const schemaOf = (branch: string, at?: number) =>
          Effect.gen(function* () {
            const time = at === undefined ? "" : `&timestamp=${DateTime.formatIso(DateTime.unsafeMake(at))}`
            const answer = yield* call(
              HttpClientRequest.get(`/projects/${projectId}/branches/${branch}/schema?db_name=neondb${time}`)
            )
            expect(answer.status, JSON.stringify(answer.body)).toBe(200)
            return answer.body.sql as string
          })
        /** Each branch's parent, and what it read at its head after each step: `[time, sql]`. */
        const parents = new Map<string, string | undefined>([
          [main, undefined],
          [dev, main]
        ])
        const past = new Map<string, Array<readonly [number, string]>>()
        const record = Effect.gen(function* () {
          const now = yield* TestClock.currentTimeMillis
          for (const branch of parents.keys()) {
            const reads = past.get(branch) ?? []
            reads.push([now, yield* schemaOf(branch)])
            past.set(branch, reads)
          }
        })
        const branchAt = (i: number) => Array.from(parents.keys())[i % parents.size]!
        /** How many restores have preserved a branch: each under a name of its own. */
        let kept = 0

        yield* record
        for (const step of steps) {
          yield* TestClock.adjust(step._tag === "Wait" ? step.millis : 1)
          const context = JSON.stringify(step)
          if (step._tag === "Migrate") {
            const branch = branchAt(step.branch)
            const before = yield* fake.snapshot
            const migrated = yield* Effect.either(fake.scenario.migrate(projectId, branch, "neondb", ddl[step.ddl]!))
            if (Either.isLeft(migrated)) {
              seen.refused += 1
              expect(migrated.left._tag, context).toBe("InvalidMigration")
              expect(yield* fake.snapshot, context).toEqual(before)
            } else {
              seen.migrated += 1
              const read = yield* call(
                HttpClientRequest.get(`/projects/${projectId}/branches/${branch}/schema?db_name=neondb&format=json`)
              )
              expect(read.body.json, context).toEqual(JSON.parse(JSON.stringify(migrated.right.json)))
              expect(DateTime.toEpochMillis(migrated.right.timestamp)).toBe(yield* TestClock.currentTimeMillis)
            }
          } else if (step._tag === "Create") {
            const parent = branchAt(step.parent)
            const created = yield* call(
              yield* Effect.orDie(
                HttpClientRequest.bodyJson(HttpClientRequest.post(`/projects/${projectId}/branches`), {
                  branch: { parent_id: parent }
                })
              )
            )
            expect([201, 423], context).toContain(created.status)
            if (created.status === 201) {
              seen.created += 1
              const id: string = created.body.branch.id
              parents.set(id, parent)
              // A new branch reads its parent's past: what the parent read then.
              past.set(id, [...(past.get(parent) ?? [])])
            }
          } else if (step._tag === "Restore") {
            const branch = branchAt(step.branch)
            const source = branchAt(step.source)
            const self = source === branch
            const children = Array.from(parents).filter(([, parent]) => parent === branch)
            // From its own history: a point (one of its past reads) and a name that keeps its state
            // before; with children, the name (§11.5).
            const reads = past.get(branch) ?? []
            const [pointAt, pointSql] = reads[step.point % reads.length]!
            const preserve = self || children.length > 0 || step.preserve ? `kept-${++kept}` : undefined
            const headBefore = yield* schemaOf(branch)
            const restored = yield* call(
              yield* Effect.orDie(
                HttpClientRequest.bodyJson(
                  HttpClientRequest.post(`/projects/${projectId}/branches/${branch}/restore`),
                  {
                    source_branch_id: source,
                    ...(self ? { source_timestamp: DateTime.formatIso(DateTime.unsafeMake(pointAt)) } : {}),
                    ...(preserve === undefined ? {} : { preserve_under_name: preserve })
                  }
                )
              )
            )
            expect([200, 423], context).toContain(restored.status)
            if (restored.status === 200) {
              seen.restored += 1
              // Restored from another branch: it reads the source's past; from itself, its own
              // past, and from now on what it read at the point.
              if (self) {
                seen.rewound += 1
                expect(yield* schemaOf(branch), context).toBe(pointSql)
              } else past.set(branch, [...(past.get(source) ?? [])])
              if (preserve !== undefined) {
                seen.preserved += 1
                // The preserved branch keeps the state before (and its past), in the branch's
                // place: its children and the restored branch are its children.
                const preservedId: string = restored.body.branch.parent_id
                expect(preservedId, context).not.toBe(parents.get(branch))
                expect(yield* schemaOf(preservedId), context).toBe(headBefore)
                parents.set(preservedId, parents.get(branch))
                past.set(preservedId, [...reads])
                for (const [child] of children) parents.set(child, preservedId)
                parents.set(branch, preservedId)
              }
            }
          }
          const loaded = load(yield* fake.snapshot)
          expect(Either.isLeft(loaded) ? loaded.left : [], context).toEqual([])
          yield* record
          // The diff against the parent, applied to the parent's SQL, gives the branch's.
          for (const [branch, parent] of parents) {
            if (parent === undefined) continue
            const compared = yield* call(
              HttpClientRequest.get(`/projects/${projectId}/branches/${branch}/compare_schema?db_name=neondb`)
            )
            expect(compared.status, context).toBe(200)
            const ours = yield* schemaOf(branch)
            const theirs = yield* schemaOf(parent)
            if (compared.body.diff === "") expect(ours, context).toBe(theirs)
            else {
              seen.diffs += 1
              expect(applyPatch(theirs, compared.body.diff), context).toBe(ours)
            }
          }
        }
        // Every head read after a step reads the same at its time.
        for (const [branch, reads] of past) {
          for (const [at, sql] of reads) expect(yield* schemaOf(branch, at), `${branch} at ${at}`).toBe(sql)
        }
        yield* replays
      }),
    // A fixed seed: a failure prints it and the path of the shrunk case (`fastCheck.path` replays it).
    { fastCheck: { seed: 2426, numRuns: 10 } }
  )

  it("came across every kind of outcome", () => {
    for (const [outcome, count] of Object.entries(seen)) expect(count, outcome).toBeGreaterThan(0)
  })
})
