/**
 * Connection strings and what a branch creation copies (docs/contract.md §13.1, §13.2), through
 * the client's `Branches` and `Connections` over the fake: a child branch starts with copies of
 * its parent's roles and databases, its creation answers `connection_uris` when it creates a
 * `read_write` compute endpoint, and `GET /projects/{project_id}/connection_uri` builds a URI
 * from a compute endpoint's host, a role and its password, and a database.
 */
import { Branches, Connections } from "@dbplatform/client"
import { BranchId, EndpointId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import { addRolesAndDatabases, projectId } from "./helpers.js"

const main = BranchId.make("br-main-100001")
const mainEndpoint = EndpointId.make("ep-main-100001")
const dev = BranchId.make("br-dev-100002")
/** A password that a URI must carry URL-encoded. */
const ownerPassword = "npg_0wn/er+Pa55"
const host = (endpoint: string) => `${endpoint}.aws-us-east-2.dbplatform.test`

/** `main` (with a read_write compute endpoint, two roles and two databases) and `dev`, its child without any. */
const provideFake = Effect.provide(
  DbPlatformTest.layer({
    seed: {
      projects: [{ id: projectId, region_id: "aws-us-east-2" }],
      branches: [
        { project_id: projectId, id: main, name: "main", default: true },
        { project_id: projectId, id: dev, name: "dev", parent_id: main }
      ],
      endpoints: [{ branch_id: main, id: mainEndpoint, type: "read_write" }]
    }
  })
)

const withRolesAndDatabases = Effect.flatMap(FakePlatform.FakePlatform, (fake) =>
  addRolesAndDatabases(
    fake,
    [
      { branch_id: main, name: "neondb_owner", password: ownerPassword },
      { branch_id: main, name: "reader", password: "npg_r3ader" }
    ],
    [
      { branch_id: main, id: 2_000_001, name: "neondb", owner_name: "neondb_owner" },
      { branch_id: main, id: 2_000_002, name: "reports", owner_name: "reader" }
    ]
  )
)

describe("a branch creation copies its parent's roles and databases", () => {
  it.effect("answers them, and connection_uris through its read_write compute endpoint, one per database", () =>
    Effect.gen(function* () {
      yield* withRolesAndDatabases
      const branches = yield* Branches.Branches
      const fake = yield* FakePlatform.FakePlatform
      const created = yield* branches.create({
        project_id: projectId,
        branch: { name: "preview", parent_id: main },
        endpoints: [{ type: "read_write" }]
      })
      const child = created.branch.id
      const endpoint = created.endpoints[0]!.id
      expect(created.roles.map((role) => [role.branch_id, role.name, role.password])).toEqual([
        [child, "neondb_owner", undefined],
        [child, "reader", undefined]
      ])
      expect(created.databases.map((database) => [database.branch_id, database.name, database.owner_name])).toEqual([
        [child, "neondb", "neondb_owner"],
        [child, "reports", "reader"]
      ])
      // New ids, not the parent's.
      for (const database of created.databases) expect([2_000_001, 2_000_002]).not.toContain(database.id)
      expect(
        (created.connection_uris ?? []).map((details) => ({
          uri: Redacted.value(details.connection_uri),
          ...details.connection_parameters,
          password: Redacted.value(details.connection_parameters.password)
        }))
      ).toEqual([
        {
          uri: `postgresql://neondb_owner:npg_0wn%2Fer%2BPa55@${host(endpoint)}/neondb?sslmode=require`,
          database: "neondb",
          role: "neondb_owner",
          host: host(endpoint),
          pooler_host: host(`${endpoint}-pooler`),
          password: ownerPassword
        },
        {
          uri: `postgresql://reader:npg_r3ader@${host(endpoint)}/reports?sslmode=require`,
          database: "reports",
          role: "reader",
          host: host(endpoint),
          pooler_host: host(`${endpoint}-pooler`),
          password: "npg_r3ader"
        }
      ])

      // The copies are the child's own: its id in theirs, the parent's passwords.
      const snapshot = yield* fake.snapshot
      expect(snapshot.roles.filter((role) => role.branch_id === child).map((role) => [role.id, role.password])).toEqual(
        [
          [`${child}/neondb_owner`, ownerPassword],
          [`${child}/reader`, "npg_r3ader"]
        ]
      )
    }).pipe(provideFake)
  )

  it.effect(
    "answers no connection_uris without a read_write compute endpoint, nor from a parent without databases",
    () =>
      Effect.gen(function* () {
        yield* withRolesAndDatabases
        const branches = yield* Branches.Branches
        const params = { project_id: projectId }
        const bare = yield* branches.create({ ...params, branch: { name: "bare", parent_id: main } })
        yield* TestClock.adjust("10 seconds")
        expect(bare.roles).toHaveLength(2)
        expect(bare.databases).toHaveLength(2)
        expect(bare.connection_uris).toBeUndefined()
        const readOnly = yield* branches.create({
          ...params,
          branch: { name: "replica", parent_id: main },
          endpoints: [{ type: "read_only" }]
        })
        expect(readOnly.connection_uris).toBeUndefined()
        yield* TestClock.adjust("10 seconds")
        const empty = yield* branches.create({
          ...params,
          branch: { name: "empty", parent_id: dev },
          endpoints: [{ type: "read_write" }]
        })
        expect([empty.roles, empty.databases, empty.connection_uris]).toEqual([[], [], undefined])
      }).pipe(provideFake)
  )

  it.effect(
    "later changes on either side leave the other's as they are; a restore replaces, a preserved branch keeps",
    () =>
      Effect.gen(function* () {
        yield* withRolesAndDatabases
        const branches = yield* Branches.Branches
        const fake = yield* FakePlatform.FakePlatform
        const params = { project_id: projectId }
        /** Lets the pending operations end: the next mutation is not locked (423). */
        const settle = TestClock.adjust("10 seconds")
        const ofBranch = (branch: string) =>
          Effect.map(fake.snapshot, (snapshot) => ({
            roles: snapshot.roles
              .filter((role) => role.branch_id === branch)
              .map(({ name, password }) => ({ name, password })),
            databases: snapshot.databases
              .filter((database) => database.branch_id === branch)
              .map(({ id, name, owner_name }) => ({ id, name, owner_name }))
          }))
        const parentBefore = yield* ofBranch(main)
        const child = (yield* branches.create({ ...params, branch: { name: "copy", parent_id: main } })).branch.id
        yield* settle
        const copied = yield* ofBranch(child)
        expect(copied.roles).toEqual(parentBefore.roles)

        // The parent restored from `dev` (no roles, no databases): its own become copies of dev's,
        // none; the child's stay as they were. It has children: its state before is kept under a
        // name (required), with copies of its roles and databases.
        yield* branches.restore({
          ...params,
          branch_id: main,
          source_branch_id: dev,
          preserve_under_name: "main-before"
        })
        yield* settle
        expect(yield* ofBranch(main)).toEqual({ roles: [], databases: [] })
        expect(yield* ofBranch(child)).toEqual(copied)
        const mainBefore = (yield* fake.snapshot).branches.find((branch) => branch.name === "main-before")!
        const keptOfMain = yield* ofBranch(mainBefore.id)
        expect(keptOfMain.roles).toEqual(parentBefore.roles)
        expect(keptOfMain.databases.map(({ name, owner_name }) => ({ name, owner_name }))).toEqual(
          parentBefore.databases.map(({ name, owner_name }) => ({ name, owner_name }))
        )

        // The child restored from `dev`, its data before kept under another name: the preserved
        // branch holds copies of what the child had (new database ids), the child none.
        const restored = yield* branches.restore({
          ...params,
          branch_id: child,
          source_branch_id: dev,
          preserve_under_name: "copy-before"
        })
        yield* settle
        expect(restored.operations.map((operation) => operation.action)).toEqual(["create_branch"])
        const preserved = (yield* fake.snapshot).branches.find((branch) => branch.name === "copy-before")!
        const kept = yield* ofBranch(preserved.id)
        expect(kept.roles).toEqual(copied.roles)
        expect(kept.databases.map(({ name, owner_name }) => ({ name, owner_name }))).toEqual(
          copied.databases.map(({ name, owner_name }) => ({ name, owner_name }))
        )
        for (const database of kept.databases) expect(copied.databases.map(({ id }) => id)).not.toContain(database.id)
        expect(yield* ofBranch(child)).toEqual({ roles: [], databases: [] })

        // The restored child is a child of the preserved branch: it goes first. Deleting the
        // preserved branch then takes its copies, and nothing of another branch.
        const blocked = yield* Effect.flip(branches.delete({ ...params, branch_id: BranchId.make(preserved.id) }))
        expect(blocked._tag).toBe("BadRequest")
        yield* branches.delete({ ...params, branch_id: child })
        yield* settle
        yield* branches.delete({ ...params, branch_id: BranchId.make(preserved.id) })
        expect(yield* ofBranch(preserved.id)).toEqual({ roles: [], databases: [] })
        expect(yield* ofBranch(mainBefore.id)).toEqual(keptOfMain)
        expect((yield* fake.snapshot).roles.filter((role) => role.branch_id !== mainBefore.id)).toEqual([])
      }).pipe(provideFake)
  )
})

describe("GET /projects/{project_id}/connection_uri", () => {
  it.effect("builds the URI from the compute endpoint's host, the role and its password, and the database", () =>
    Effect.gen(function* () {
      yield* withRolesAndDatabases
      const connections = yield* Connections.Connections
      const uri = (query: Omit<Parameters<typeof connections.uri>[0], "project_id">) =>
        Effect.map(connections.uri({ project_id: projectId, ...query }), (answer) => Redacted.value(answer.uri))
      const owner = { database_name: "neondb", role_name: "neondb_owner" }
      const direct = `postgresql://neondb_owner:npg_0wn%2Fer%2BPa55@${host(mainEndpoint)}/neondb?sslmode=require`
      // The default branch and its read_write compute endpoint, unless named.
      expect(yield* uri(owner)).toBe(direct)
      expect(yield* uri({ ...owner, branch_id: main })).toBe(direct)
      expect(yield* uri({ ...owner, endpoint_id: mainEndpoint })).toBe(direct)
      expect(yield* uri({ ...owner, pooled: true })).toBe(
        `postgresql://neondb_owner:npg_0wn%2Fer%2BPa55@${host(`${mainEndpoint}-pooler`)}/neondb?sslmode=require`
      )
      expect(yield* uri({ database_name: "reports", role_name: "reader", pooled: false })).toBe(
        `postgresql://reader:npg_r3ader@${host(mainEndpoint)}/reports?sslmode=require`
      )
      // Any role of the branch to any of its databases.
      expect(yield* uri({ database_name: "reports", role_name: "neondb_owner" })).toContain("/reports?")

      const refused = (query: Omit<Parameters<typeof connections.uri>[0], "project_id">) =>
        Effect.map(Effect.flip(uri(query)), (error) => [error._tag, "description" in error ? error.description : ""])
      expect(yield* refused({ ...owner, role_name: "nobody" })).toEqual(["NotFound", "role not found"])
      expect(yield* refused({ ...owner, database_name: "nothing" })).toEqual(["NotFound", "database not found"])
      expect(yield* refused({ ...owner, branch_id: BranchId.make("br-none-000000") })).toEqual([
        "NotFound",
        "branch not found"
      ])
      expect(yield* refused({ ...owner, endpoint_id: EndpointId.make("ep-none-000000") })).toEqual([
        "NotFound",
        "compute endpoint not found"
      ])
      // A compute endpoint of another branch than the one named.
      expect(yield* refused({ ...owner, branch_id: dev, endpoint_id: mainEndpoint })).toEqual([
        "NotFound",
        `compute endpoint ${mainEndpoint} on branch ${dev} not found`
      ])
      // `dev` has no compute endpoint (and no roles).
      expect(yield* refused({ ...owner, branch_id: dev })).toEqual([
        "NotFound",
        `compute endpoint of branch ${dev} not found`
      ])
      expect((yield* Effect.flip(uri({ ...owner, role_name: "" })))._tag).toBe("InvalidRequest")
    }).pipe(provideFake)
  )
})
