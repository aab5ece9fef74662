/**
 * A wait answers the truth (`docs/design.md` §1.3), through the client over the fake on the
 * `TestClock`: every method whose entry reads its resource back (core's `readBack`), called with
 * `{ wait: true }`, answers its operations as they ended (`finished`, `skipped`) and its resource
 * as a GET reads it once they have: a branch `ready`, a compute endpoint `active`.
 */
import { Branches, ComputeEndpoints, Databases, Operations, Projects, Roles, Snapshots } from "@dbplatform/client"
import { isSucceeded, type Operation } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"

/** `call` (a method called with `{ wait: true }`) run while the `TestClock` moves 30 s, a poll (5 s) at a time. */
const waited = <A, E, R>(call: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const fiber = yield* Effect.fork(call)
    for (let poll = 0; poll < 6; poll++) yield* TestClock.adjust("5 seconds")
    return yield* Fiber.join(fiber)
  })

/** The resource without the secret only a creation or a reset shows. */
const shown = (resource: object) => {
  const { password: _, ...rest } = resource as { readonly password?: unknown }
  return rest
}

/** The statuses the operations ended with: each `finished` or `skipped`, and at least one. */
const ended = (operations: ReadonlyArray<Operation>) => {
  expect(operations.length).toBeGreaterThan(0)
  expect(operations.filter((operation) => !isSucceeded(operation))).toEqual([])
}

describe("{ wait: true } over the fake", () => {
  it.effect("answers every read-back resource as a GET reads it after the wait, its operations ended", () =>
    Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const branches = yield* Branches.Branches
      const endpoints = yield* ComputeEndpoints.ComputeEndpoints
      const roles = yield* Roles.Roles
      const databases = yield* Databases.Databases
      const snapshots = yield* Snapshots.Snapshots
      const operations = yield* Operations.Operations

      // Projects.create and update.
      const project = yield* waited(projects.create({ project: { name: "waits" } }, { wait: true }))
      ended(project.operations)
      const project_id = project.project.id
      expect(project.project).toEqual((yield* projects.get({ project_id })).project)
      const retention = yield* waited(
        projects.update({ project_id, project: { history_retention_seconds: 3600 } }, { wait: true })
      )
      ended(retention.operations)
      expect(retention.project).toEqual((yield* projects.get({ project_id })).project)
      const main = project.branch.id

      // Branches.create: the branch ready, where the creation answered it init.
      const dev = yield* waited(
        branches.create(
          { project_id, branch: { name: "dev", parent_id: main }, endpoints: [{ type: "read_write" }] },
          { wait: true }
        )
      )
      ended(dev.operations)
      expect(dev.branch.current_state).toBe("ready")
      const branch_id = dev.branch.id
      expect(dev.branch).toEqual((yield* branches.get({ project_id, branch_id })).branch)
      const restored = yield* waited(
        branches.restore({ project_id, branch_id, source_branch_id: main }, { wait: true })
      )
      ended(restored.operations)
      expect(restored.branch).toEqual((yield* branches.get({ project_id, branch_id })).branch)
      const renamed = yield* waited(
        branches.update({ project_id, branch_id, branch: { name: "dev-2" } }, { wait: true })
      )
      expect(renamed.branch).toEqual((yield* branches.get({ project_id, branch_id })).branch)
      const byDefault = yield* waited(branches.setAsDefault({ project_id, branch_id }, { wait: true }))
      expect(byDefault.branch).toEqual((yield* branches.get({ project_id, branch_id })).branch)
      expect(byDefault.branch.default).toBe(true)

      // ComputeEndpoints: create (active, where the creation answered it init), update, suspend, start, restart.
      const readOnly = yield* waited(
        endpoints.create({ project_id, endpoint: { branch_id: main, type: "read_only" } }, { wait: true })
      )
      ended(readOnly.operations)
      expect(readOnly.endpoint.current_state).toBe("active")
      const endpoint = { project_id, endpoint_id: dev.endpoints[0]!.id }
      for (const change of [
        endpoints.update({ ...endpoint, endpoint: { suspend_timeout_seconds: 600 } }, { wait: true }),
        endpoints.suspend(endpoint, { wait: true }),
        endpoints.start(endpoint, { wait: true }),
        endpoints.restart(endpoint, { wait: true })
      ]) {
        const changed = yield* waited(change)
        ended(changed.operations)
        expect(changed.endpoint).toEqual((yield* endpoints.get(endpoint)).endpoint)
      }
      expect((yield* endpoints.get(endpoint)).endpoint.current_state).toBe("active")

      // Roles: the password a creation and a reset show once is kept.
      const onDev = { project_id, branch_id }
      const role = yield* waited(roles.create({ ...onDev, role: { name: "migrator" } }, { wait: true }))
      ended(role.operations)
      expect(role.role.password).toBeDefined()
      expect(shown(role.role)).toEqual(shown((yield* roles.get({ ...onDev, role_name: "migrator" })).role))
      const reset = yield* waited(roles.resetPassword({ ...onDev, role_name: "migrator" }, { wait: true }))
      ended(reset.operations)
      expect(reset.role.password).toBeDefined()
      expect(shown(reset.role)).toEqual(shown((yield* roles.get({ ...onDev, role_name: "migrator" })).role))

      // Databases: create, rename (read back by its new name).
      const shop = yield* waited(
        databases.create({ ...onDev, database: { name: "shop", owner_name: "migrator" } }, { wait: true })
      )
      ended(shop.operations)
      expect(shop.database).toEqual((yield* databases.get({ ...onDev, database_name: "shop" })).database)
      const store = yield* waited(
        databases.update({ ...onDev, database_name: "shop", database: { name: "store" } }, { wait: true })
      )
      ended(store.operations)
      expect(store.database).toEqual((yield* databases.get({ ...onDev, database_name: "store" })).database)

      // Snapshots.restore: the branch it made, ready.
      const taken = yield* waited(snapshots.create({ project_id, branch_id: main }, { wait: true }))
      const back = yield* waited(
        snapshots.restore({ project_id, snapshot_id: taken.snapshot.id, name: "main-then" }, { wait: true })
      )
      ended(back.operations)
      expect(back.branch.current_state).toBe("ready")
      expect(back.branch).toEqual((yield* branches.get({ project_id, branch_id: back.branch.id })).branch)

      // Whatever the waits read, nothing is left running.
      const running = yield* operations.listPage({ project_id, limit: 100 })
      expect(running.operations.filter((operation) => !isSucceeded(operation))).toEqual([])
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed: {} })))
  )
})
