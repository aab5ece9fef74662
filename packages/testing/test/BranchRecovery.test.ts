/**
 * Branch recovery in memory, on the `TestClock`, through the client over the fake
 * (docs/contract.md §18.3): a branch deleted is listed with its `recovery`, recovered with its
 * compute endpoint (idle), roles and databases, its connection string unchanged; an expiring
 * branch deleted by its expiry comes back without an expiry; what the platform refuses is refused.
 */
import { Branches, Connections, Databases, Operations, Projects, Roles } from "@dbplatform/client"
import { type ProjectId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import { Snapshot } from "../src/Snapshot.js"

/** An empty account; the client does not retry, so each error is seen once. */
const provideFake = Effect.provide(DbPlatformTest.layer({ client: { retrySchedule: Schedule.stop } }))

/** Waits for `answer`'s operations to end, moving the `TestClock` a poll (5 s) at a time. */
const awaitAll = (answer: Operations.Awaitable) =>
  Effect.gen(function* () {
    const waiting = yield* Effect.fork(Effect.flatMap(Operations.Operations, (service) => service.awaitAll(answer)))
    for (let poll = 0; poll < 6; poll++) yield* TestClock.adjust("5 seconds")
    const { failed } = yield* Fiber.join(waiting)
    expect(failed).toEqual([])
  })

/** A new project, ready, and a branch `preview` of its default one with a compute endpoint, ready. */
const projectWithPreview = (branch: { readonly name: string; readonly expires_at?: DateTime.Utc }) =>
  Effect.gen(function* () {
    const projects = yield* Projects.Projects
    const branches = yield* Branches.Branches
    const made = yield* projects.create({ project: {} })
    yield* awaitAll(made)
    const project_id: ProjectId = made.project.id
    const ready = yield* Effect.fork(branches.createReady({ project_id, branch }))
    for (let poll = 0; poll < 6; poll++) yield* TestClock.adjust("5 seconds")
    const { branch: preview, endpoint } = yield* Fiber.join(ready)
    return { project_id, branch_id: preview.id, endpoint_id: endpoint!.id }
  })

describe("branch recovery over the fake (docs/contract.md §18.3)", () => {
  it.effect(
    "delete a branch, list it with include_deleted, recover it: endpoint idle, roles, databases, URI unchanged",
    () =>
      Effect.gen(function* () {
        const branches = yield* Branches.Branches
        const connections = yield* Connections.Connections
        const ids = yield* projectWithPreview({ name: "preview/pr-9" })
        const { project_id, branch_id } = ids
        const roles = yield* (yield* Roles.Roles).listPage({ project_id, branch_id })
        const databases = yield* (yield* Databases.Databases).listPage({ project_id, branch_id })
        const role_name = roles.roles[0]!.name
        const database_name = databases.databases[0]!.name
        const uriBefore = yield* connections.uri({ project_id, branch_id, role_name, database_name })

        const deleted = yield* branches.delete({ project_id, branch_id })
        yield* awaitAll(deleted)
        expect((yield* Effect.flip(branches.get({ project_id, branch_id })))._tag).toBe("NotFound")
        const listed = yield* Stream.runCollect(branches.list({ project_id, include_deleted: true }))
        const candidate = Array.from(listed).find((branch) => branch.id === branch_id)
        expect(candidate?.recovery?.deletion_method).toBe("user")

        const recovered = yield* branches.recover({ project_id, branch_id })
        expect(recovered.branch.id).toBe(branch_id)
        expect(recovered.branch.name).toBe("preview/pr-9")
        expect(recovered.endpoints?.map((endpoint) => [endpoint.id, endpoint.current_state])).toEqual([
          [ids.endpoint_id, "idle"]
        ])
        expect((yield* branches.get({ project_id, branch_id })).branch.current_state).toBe("ready")
        const rolesAfter = yield* (yield* Roles.Roles).listPage({ project_id, branch_id })
        expect(rolesAfter.roles.map((role) => role.name)).toEqual(roles.roles.map((role) => role.name))
        const databasesAfter = yield* (yield* Databases.Databases).listPage({ project_id, branch_id })
        expect(databasesAfter.databases.map((database) => database.name)).toEqual(
          databases.databases.map((database) => database.name)
        )
        const uriAfter = yield* connections.uri({ project_id, branch_id, role_name, database_name })
        expect(Redacted.value(uriAfter.uri)).toBe(Redacted.value(uriBefore.uri))
        // No longer a candidate: recovered once.
        const again = yield* Effect.flip(branches.recover({ project_id, branch_id }))
        expect(again._tag).toBe("Conflict")
      }).pipe(provideFake)
  )

  it.effect("an expiring branch deleted by its expiry comes back without one; after 7 days it is gone (404)", () =>
    Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const now = yield* TestClock.currentTimeMillis
      const expires_at = DateTime.unsafeMake(Math.floor((now + 3_600_000) / 1000) * 1000)
      const { project_id, branch_id } = yield* projectWithPreview({ name: "preview/ttl", expires_at })
      yield* TestClock.adjust("2 hours")
      const listed = yield* Stream.runCollect(branches.list({ project_id, include_deleted: true }))
      expect(Array.from(listed).find((branch) => branch.id === branch_id)?.recovery?.deletion_method).toBe("ttl")
      const recovered = yield* branches.recover({ project_id, branch_id })
      expect(recovered.branch.expires_at).toBeUndefined()
      yield* TestClock.adjust("2 days")
      expect((yield* branches.get({ project_id, branch_id })).branch.name).toBe("preview/ttl")

      const deleted = yield* branches.delete({ project_id, branch_id })
      yield* awaitAll(deleted)
      yield* TestClock.adjust("7 days")
      expect((yield* Effect.flip(branches.recover({ project_id, branch_id })))._tag).toBe("NotFound")
    }).pipe(provideFake)
  )

  it.effect("refused: a hard-deleted branch (404), a name taken since (409), a parent still deleted (400)", () =>
    Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const { project_id, branch_id } = yield* projectWithPreview({ name: "preview/a" })
      yield* awaitAll(yield* branches.delete({ project_id, branch_id, hard_delete: true }))
      expect((yield* Effect.flip(branches.recover({ project_id, branch_id })))._tag).toBe("NotFound")

      const other = yield* branches.create({ project_id, branch: { name: "preview/b" } })
      yield* awaitAll(other)
      const child = yield* branches.create({ project_id, branch: { name: "preview/c", parent_id: other.branch.id } })
      yield* awaitAll(child)
      yield* awaitAll(yield* branches.delete({ project_id, branch_id: child.branch.id }))
      yield* awaitAll(yield* branches.delete({ project_id, branch_id: other.branch.id }))
      const orphan = yield* Effect.flip(branches.recover({ project_id, branch_id: child.branch.id }))
      expect(orphan._tag).toBe("BadRequest")
      yield* awaitAll(yield* branches.create({ project_id, branch: { name: "preview/b" } }))
      const taken = yield* Effect.flip(branches.recover({ project_id, branch_id: other.branch.id }))
      expect(taken._tag).toBe("Conflict")
    }).pipe(provideFake)
  )

  it.effect(
    "a deleted branch's endpoints, roles and databases are in a saved state, and a saved state gives them back",
    () =>
      Effect.gen(function* () {
        const fake = yield* FakePlatform.FakePlatform
        const branches = yield* Branches.Branches
        const { project_id, branch_id, endpoint_id } = yield* projectWithPreview({ name: "preview/saved" })
        yield* awaitAll(yield* branches.delete({ project_id, branch_id }))
        const saved = yield* fake.snapshot
        const kept = saved.deleted_branches.find((branch) => branch.id === branch_id)!
        expect(kept.kept_endpoints?.map((endpoint) => endpoint.id)).toEqual([endpoint_id])
        expect(kept.kept_roles?.length).toBeGreaterThan(0)
        expect(kept.kept_databases?.length).toBeGreaterThan(0)
        // A state saved before 0.5.0 kept none of them: it still loads, and recovers the branch alone.
        const older = {
          ...saved,
          deleted_branches: saved.deleted_branches.map(
            ({ kept_endpoints: _, kept_roles: __, kept_databases: ___, ...branch }) => branch
          )
        }
        yield* fake.restore(
          Schema.decodeUnknownSync(Snapshot)(JSON.parse(JSON.stringify(Schema.encodeSync(Snapshot)(older))))
        )
        const recovered = yield* branches.recover({ project_id, branch_id })
        expect(recovered.endpoints).toEqual([])
      }).pipe(provideFake)
  )
})
