/**
 * Roles and databases in the fake's generic collections (docs/contract.md §14, §15): a seed (in
 * code and as a file) describes them, the realistic seed has them on every branch, a snapshot
 * (and its JSON, the emulator's state file), a restore, the control API and the journal carry
 * them, and a project's creation and deletion are journaled with them.
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import * as ControlApi from "../src/ControlApi.js"
import * as FakeHttpClient from "../src/FakeHttpClient.js"
import * as FakePlatform from "../src/FakePlatform.js"
import * as Seed from "../src/Seed.js"
import * as Snapshot from "../src/Snapshot.js"
import { projectId, read, send } from "./helpers.js"

const main = "br-main-100001"
const dev = "br-dev-100002"

const seed: Seed.Seed = {
  bootstrapKey: "project-data-test-key",
  projects: [{ id: projectId, history_retention_seconds: 3600 }],
  branches: [
    { project_id: projectId, id: main, name: "main", default: true },
    { project_id: projectId, id: dev, name: "dev", age: "1 hour" }
  ],
  roles: [
    { branch_id: main, name: "neondb_owner", password: "seeded-password-1" },
    { branch_id: main, name: "app" },
    { branch_id: dev, name: "neondb_owner", password: "seeded-password-1" }
  ],
  databases: [
    { branch_id: main, name: "neondb", owner_name: "neondb_owner", id: 1_234_567 },
    { branch_id: main, name: "app", owner_name: "app" },
    { branch_id: dev, name: "neondb", owner_name: "neondb_owner" }
  ]
}

/** `[name, branch, owner]` of each database, `[name, branch]` of each role, sorted. */
const names = (snapshot: Snapshot.Snapshot) => ({
  roles: snapshot.roles.map((role) => `${role.branch_id}/${role.name}`).sort(),
  databases: snapshot.databases
    .map((database) => `${database.branch_id}/${database.name}:${database.owner_name}`)
    .sort()
})

/** A snapshot but its keys, whose last use rides along unjournaled until their next change. */
const withoutKeys = ({ api_keys: _, ...rest }: Snapshot.Snapshot) => rest

describe("roles and databases in seeds, snapshots, the control API and the journal", () => {
  it.effect("a seed describes them; ids and passwords are generated where absent, the same each time", () =>
    Effect.gen(function* () {
      const snapshot = yield* (yield* FakePlatform.make(seed)).snapshot
      expect(names(snapshot)).toEqual({
        roles: [`${dev}/neondb_owner`, `${main}/app`, `${main}/neondb_owner`],
        databases: [`${dev}/neondb:neondb_owner`, `${main}/app:app`, `${main}/neondb:neondb_owner`]
      })
      expect(snapshot.projects[0]?.history_retention_seconds).toBe(3600)
      const app = snapshot.roles.find((role) => role.id === `${main}/app`)!
      expect(app).toMatchObject({ project_id: projectId, branch_id: main, protected: false })
      expect(app.password).toMatch(/^[A-Za-z0-9]{16}$/)
      expect(snapshot.databases.find((database) => database.name === "neondb" && database.branch_id === main)?.id).toBe(
        1_234_567
      )
      // The same seed, the same generated values.
      const again = yield* (yield* FakePlatform.make(seed)).snapshot
      expect([again.roles, again.databases]).toEqual([snapshot.roles, snapshot.databases])
      // A seed file says the same.
      const file = yield* Seed.fromJson(JSON.stringify(seed))
      expect(names(yield* (yield* FakePlatform.make(file)).snapshot)).toEqual(names(snapshot))
    })
  )

  it.effect("a database owned by no role of its branch, or a role of an unknown branch, is InvalidSeed", () =>
    Effect.gen(function* () {
      const invalid = yield* Effect.flip(
        FakePlatform.make({
          ...seed,
          roles: [...seed.roles!, { branch_id: "br-none-000000", name: "ghost" }],
          databases: [...seed.databases!, { branch_id: dev, name: "orphan", owner_name: "app" }]
        })
      )
      expect(invalid.problems).toEqual(
        expect.arrayContaining([
          "role of unknown branch br-none-000000",
          expect.stringMatching(/^database \d+: owner app is not a role of branch br-dev-100002$/)
        ])
      )
      const file = yield* Effect.flip(Seed.fromJson(JSON.stringify({ roles: [{ name: "no-branch" }] })))
      expect(file.problems[0]).toMatch(/branch_id/)
    })
  )

  it.effect(
    "the realistic seed has neondb_owner and app, neondb and app on every branch; a child's are its parent's",
    () =>
      Effect.gen(function* () {
        const snapshot = yield* (yield* FakePlatform.make(Seed.realistic())).snapshot
        expect(snapshot.branches.length).toBeGreaterThan(4)
        for (const branch of snapshot.branches) {
          const roles = snapshot.roles.filter((role) => role.branch_id === branch.id)
          const databases = snapshot.databases.filter((database) => database.branch_id === branch.id)
          expect(roles.map((role) => role.name).sort(), branch.id).toEqual(["app", "neondb_owner"])
          expect(databases.map((database) => [database.name, database.owner_name]).sort(), branch.id).toEqual([
            ["app", "app"],
            ["neondb", "neondb_owner"]
          ])
          const parent = snapshot.roles.filter((role) => role.branch_id === branch.parent_id)
          if (branch.parent_id !== undefined) {
            expect(roles.map((role) => role.password).sort()).toEqual(parent.map((role) => role.password).sort())
          }
        }
        // Passwords differ from project to project.
        expect(new Set(snapshot.roles.map((role) => role.password)).size).toBe(snapshot.projects.length * 2)
      })
  )

  it.effect("a snapshot's JSON (a state file) and a restore carry them unchanged", () =>
    Effect.gen(function* () {
      const saved = yield* (yield* FakePlatform.make(seed)).snapshot
      const text = yield* Schema.encode(Snapshot.SnapshotFromJson)(saved)
      expect(JSON.parse(text).roles).toHaveLength(3)
      const decoded = yield* Schema.decode(Snapshot.SnapshotFromJson)(text)
      expect([decoded.roles, decoded.databases]).toEqual([saved.roles, saved.databases])
      const other = yield* FakePlatform.make({})
      yield* other.restore(decoded)
      const restored = yield* other.snapshot
      expect([restored.roles, restored.databases]).toEqual([saved.roles, saved.databases])
    })
  )

  it.effect("the control API's snapshot routes and seed route carry them", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make(seed)
      const client = FakeHttpClient.make(yield* ControlApi.httpApp(fake, { token: Redacted.make("t") }))
      const call = (method: "GET" | "POST" | "PUT", path: string, body?: unknown) => {
        const request = HttpClientRequest.bearerToken(HttpClientRequest.make(method)(`http://x/_emulator${path}`), "t")
        return Effect.flatMap(
          client.execute(body === undefined ? request : HttpClientRequest.bodyUnsafeJson(request, body)),
          read
        )
      }
      const saved = (yield* call("GET", "/snapshot")).body
      expect(saved.databases).toHaveLength(3)
      expect((yield* call("POST", "/seed", { projects: [{ id: "other-river-100001" }] })).status).toBe(200)
      expect((yield* call("GET", "/snapshot")).body.roles).toEqual([])
      expect((yield* call("PUT", "/snapshot", saved)).status).toBe(200)
      const restored = (yield* call("GET", "/snapshot")).body
      expect([restored.roles, restored.databases]).toEqual([saved.roles, saved.databases])
      const { roles, databases, ...rest } = seed
      expect((yield* call("POST", "/seed", { ...rest, roles, databases })).status).toBe(200)
      expect(names(yield* fake.snapshot)).toEqual(names(yield* (yield* FakePlatform.make(seed)).snapshot))
    })
  )

  it.effect(
    "a project's creation and deletion are journaled with its role and database; replayed, they give the state",
    () =>
      Effect.gen(function* () {
        const changes: Array<Snapshot.SnapshotChange> = []
        const fake = yield* FakePlatform.make(seed, {
          journal: { record: (recorded) => Effect.sync(() => changes.push(...recorded)), sync: Effect.void }
        })
        const start = yield* fake.snapshot
        const created = yield* read(
          yield* send(
            fake,
            HttpClientRequest.post("/projects").pipe(
              HttpClientRequest.bodyUnsafeJson({ project: { name: "journaled" } })
            ),
            { key: fake.bootstrapKey }
          )
        )
        expect(created.status).toBe(201)
        const kinds = (from: number) =>
          changes.slice(from).map((change) => (change._tag === "State" ? "State" : `${change._tag} ${change.kind}`))
        expect(kinds(0)).toEqual([
          "Upsert projects",
          "Upsert branches",
          "Upsert endpoints",
          "Upsert operations",
          "Upsert operations",
          "Upsert roles",
          "Upsert databases"
        ])
        const afterCreate = yield* fake.snapshot
        // Each change as a journal line (JSON), read back and applied to the state before: the state after.
        const lines = yield* Effect.forEach(changes, (change) =>
          Effect.flatMap(Schema.encode(Schema.parseJson(Snapshot.SnapshotChange))(change), (line) =>
            Schema.decode(Schema.parseJson(Snapshot.SnapshotChange))(line)
          )
        )
        expect(withoutKeys(Snapshot.applyChanges(start, lines))).toEqual(withoutKeys(afterCreate))

        // The operations end, then the project is deleted: kept for its 7 days of recovery, its
        // compute endpoint suspended (docs/contract.md §18)...
        yield* TestClock.adjust("10 seconds")
        const from = changes.length
        const deleted = yield* read(
          yield* send(fake, HttpClientRequest.del(`/projects/${created.body.project.id}`), { key: fake.bootstrapKey })
        )
        expect(deleted.status).toBe(200)
        expect(kinds(from)).toEqual(["Upsert projects", "Upsert endpoints"])
        // ... then purged by the control plane: every item of it deleted, children first.
        yield* TestClock.adjust("7 days")
        const purgedFrom = changes.length
        yield* send(fake, HttpClientRequest.get("/projects"), { key: fake.bootstrapKey })
        expect(kinds(purgedFrom)).toEqual([
          "Delete endpoints",
          "Delete roles",
          "Delete databases",
          "Delete branches",
          "Delete operations",
          "Delete operations",
          "Delete projects"
        ])
        const end = withoutKeys(yield* fake.snapshot)
        expect(withoutKeys(Snapshot.applyChanges(afterCreate, changes.slice(from)))).toEqual(end)
        expect(end).toEqual(withoutKeys(start))
      })
  )
})
