/**
 * A project's whole life in memory, on the `TestClock`, through the client's `Projects`,
 * `Branches` and `Operations` over the fake (`DbPlatformTest.layer`, docs/contract.md §14):
 * create a project (its default branch, compute endpoint, role, database and connection URI
 * come with it), see it listed at once, wait for its operations, give its default branch a role
 * and a database, branch it, change its history retention (`apply_storage_config`), delete it
 * (`delete_tenant`) and see every read of it answer 404. And the shared preload libraries the fake
 * offers a project, by its Postgres major (§14.5).
 */
import { Branches, Databases, Operations, Projects, Roles } from "@dbplatform/client"
import { ProjectId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import { awaitAll } from "./helpers.js"

/** An account with one project of its own and one shared with it. */
const provideFake = Effect.provide(
  DbPlatformTest.layer({
    seed: { projects: [{ id: "spring-example-302709" }, { id: "shared-leaf-100001", shared: true }] }
  })
)

/** The ids of every project `GET /projects` lists (all pages). */
const listedIds = Effect.flatMap(Projects.Projects, (projects) =>
  Effect.map(Stream.runCollect(projects.list()), (listed) => Chunk.toArray(listed).map((project) => project.id))
)

describe("Projects over the fake", () => {
  it.effect("create, list, await, add a role and a database, branch, change the retention, delete: 404 after", () =>
    Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const branches = yield* Branches.Branches
      const operations = yield* Operations.Operations
      const roles = yield* Roles.Roles
      const databases = yield* Databases.Databases
      const fake = yield* FakePlatform.FakePlatform

      // Create: the project, its default branch `main` with a read_write compute endpoint, the
      // role `neondb_owner` (its password shown this once) and the database `neondb` it owns.
      const created = yield* projects.create({
        project: { name: "ci-run-42", pg_version: 16, history_retention_seconds: 3600 }
      })
      const project_id: ProjectId = created.project.id
      expect(created.project).toMatchObject({ name: "ci-run-42", pg_version: 16, history_retention_seconds: 3600 })
      expect(created.branch).toMatchObject({ project_id, name: "main", default: true, current_state: "init" })
      expect(created.endpoints).toMatchObject([
        { branch_id: created.branch.id, type: "read_write", current_state: "init" }
      ])
      expect(created.roles.map((role) => role.name)).toEqual(["neondb_owner"])
      const password = Redacted.value(created.roles[0]!.password!)
      expect(password).toMatch(/^[A-Za-z0-9]{16}$/)
      expect(created.databases).toMatchObject([{ name: "neondb", owner_name: "neondb_owner" }])
      const [connection] = created.connection_uris ?? []
      expect(Redacted.value(connection!.connection_uri)).toBe(
        `postgresql://neondb_owner:${password}@${created.endpoints[0]!.host}/neondb?sslmode=require`
      )
      expect(created.operations.map((operation) => operation.action)).toEqual(["create_timeline", "start_compute"])

      // Listed at once, among the account's own (not among the shared ones).
      expect(yield* listedIds).toEqual([project_id, "spring-example-302709"])
      expect(Chunk.toArray(yield* Stream.runCollect(projects.listShared())).map((project) => project.id)).toEqual([
        "shared-leaf-100001"
      ])

      // The operations end one after the other: the branch is ready, its compute endpoint active.
      const succeeded = yield* awaitAll(created.operations)
      expect(succeeded.map((operation) => operation.status)).toEqual(["finished", "finished"])
      const params = { project_id }
      expect((yield* projects.get(params)).project).toMatchObject({ id: project_id, name: "ci-run-42" })
      const branch = { project_id, branch_id: created.branch.id }
      expect((yield* branches.get(branch)).branch.current_state).toBe("ready")
      expect((yield* branches.listEndpointsPage(branch)).endpoints).toMatchObject([{ current_state: "active" }])

      // A role and a database on the default branch: each an apply_config on its compute endpoint.
      const role = yield* roles.create({ ...branch, role: { name: "app" } })
      yield* awaitAll(role.operations)
      const database = yield* databases.create({ ...branch, database: { name: "app", owner_name: "app" } })
      expect(database.operations).toMatchObject([{ action: "apply_config", endpoint_id: created.endpoints[0]!.id }])
      yield* awaitAll(database.operations)

      // Branch it: the child starts with copies of its parent's roles and databases.
      const child = yield* branches.create({ ...params, branch: { name: "child" } })
      expect(child.branch.parent_id).toBe(created.branch.id)
      yield* awaitAll(child.operations)
      const onChild = { project_id, branch_id: child.branch.id }
      const names = (items: ReadonlyArray<{ readonly name: string }>) => items.map((item) => item.name).sort()
      expect(names((yield* roles.listPage(onChild)).roles)).toEqual(["app", "neondb_owner"])
      expect(names((yield* databases.listPage(onChild)).databases)).toEqual(["app", "neondb"])
      expect((yield* databases.get({ ...onChild, database_name: "app" })).database).toMatchObject({
        branch_id: child.branch.id,
        owner_name: "app"
      })

      // A new history retention: apply_storage_config, and the project says so.
      const updated = yield* projects.update({ ...params, project: { history_retention_seconds: 7200 } })
      expect(updated.project.history_retention_seconds).toBe(7200)
      expect(updated.operations.map((operation) => operation.action)).toEqual(["apply_storage_config"])
      yield* awaitAll(updated.operations)
      // A new name alone starts nothing.
      const renamed = yield* projects.update({ ...params, project: { name: "ci-run-42b" } })
      expect(renamed.operations).toEqual([])
      expect((yield* projects.get(params)).project).toMatchObject({
        name: "ci-run-42b",
        history_retention_seconds: 7200
      })

      // Delete: the project as it was, its data deleted by delete_tenant.
      const deleted = yield* projects.delete(params)
      expect(deleted.project.id).toBe(project_id)
      expect(deleted.operations?.map((operation) => operation.action)).toEqual(["delete_tenant"])

      // Every read of it answers 404; the list no longer has it; nothing of it is left in the fake.
      const notFound = <A, E extends { readonly _tag: string }, R>(read: Effect.Effect<A, E, R>) =>
        Effect.map(Effect.flip(read), (error) => error._tag)
      expect(
        yield* Effect.all([
          notFound(projects.get(params)),
          notFound(projects.update({ ...params, project: { name: "again" } })),
          notFound(projects.delete(params)),
          notFound(branches.listPage(params)),
          notFound(branches.get(branch)),
          notFound(branches.listEndpointsPage(branch)),
          notFound(roles.listPage(branch)),
          notFound(databases.get({ ...branch, database_name: "app" })),
          notFound(operations.listPage({ project_id })),
          notFound(operations.get({ project_id, operation_id: created.operations[0]!.id })),
          notFound(operations.get({ project_id, operation_id: deleted.operations![0]!.id }))
        ])
      ).toEqual(Array.from({ length: 11 }, () => "NotFound"))
      expect(yield* listedIds).toEqual(["spring-example-302709"])
      // Kept for its 7 days of recovery (docs/contract.md §18), then nothing of it is left in the fake.
      yield* TestClock.adjust("7 days")
      expect(yield* listedIds).toEqual(["spring-example-302709"])
      const after = yield* fake.snapshot
      for (const kind of ["branches", "endpoints", "roles", "databases", "operations"] as const) {
        expect(
          after[kind].filter((item) => item.project_id === project_id),
          kind
        ).toEqual([])
      }
    }).pipe(provideFake)
  )

  it.effect("the shared preload libraries: a fixed list per Postgres major, 404 once the project is deleted", () =>
    Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const names = (project_id: ProjectId) =>
        Effect.map(Stream.runCollect(projects.listAvailablePreloadLibraries({ project_id })), (libraries) =>
          Chunk.toArray(libraries).map((library) => library.library_name)
        )
      // The seed's project is on 17 (the default): pg_stat_statements, the one default, first.
      const seeded = ProjectId.make("spring-example-302709")
      const { libraries } = yield* projects.listAvailablePreloadLibrariesPage({ project_id: seeded })
      expect(libraries?.[0]).toEqual({
        library_name: "pg_stat_statements",
        description: expect.any(String),
        is_default: true,
        is_experimental: false,
        version: "1.11"
      })
      expect(libraries?.filter((library) => library.is_default).map((library) => library.library_name)).toEqual([
        "pg_stat_statements"
      ])
      expect(libraries?.filter((library) => library.is_experimental).map((library) => library.library_name)).toEqual([
        "anon"
      ])
      expect(yield* names(seeded)).toEqual([
        "pg_stat_statements",
        "timescaledb",
        "pg_cron",
        "pg_partman_bgw",
        "pgaudit",
        "anon"
      ])
      // On 18, neither timescaledb nor anon; each library's version is that major's.
      const created = yield* projects.create({ project: { pg_version: 18 } })
      const on18 = created.project.id
      expect(yield* names(on18)).toEqual(["pg_stat_statements", "pg_cron", "pg_partman_bgw", "pgaudit"])
      const versions = (yield* projects.listAvailablePreloadLibrariesPage({ project_id: on18 })).libraries?.map(
        (library) => library.version
      )
      expect(versions).toEqual(["1.12", "1.6", "5.2.4", "18.0"])
      // A deleted project, and one that never was: NotFound, as every read of a project.
      yield* awaitAll(created.operations)
      yield* projects.delete({ project_id: on18 })
      const notFound = (project_id: ProjectId) =>
        Effect.map(Effect.flip(projects.listAvailablePreloadLibrariesPage({ project_id })), (error) => error._tag)
      expect([yield* notFound(on18), yield* notFound(ProjectId.make("no-such-project"))]).toEqual([
        "NotFound",
        "NotFound"
      ])
    }).pipe(provideFake)
  )
})
