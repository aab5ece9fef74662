/**
 * Databases and roles of a branch through the client's `Databases` and `Roles` over the fake
 * (`DbPlatformTest.layer`), on the `TestClock` (docs/contract.md §15): a role is created with its
 * password (revealed the same, reset to another), a database owned by it; a taken name is a 409,
 * an owner the branch does not have a 404, a role that owns a database cannot be deleted (400)
 * until the database is; every change starts `apply_config` on the branch's read_write compute
 * endpoint; a change while the project is locked is a 423 that changes nothing (the client sends
 * it again until it passes); unknown names are 404 (a delete of one, a 204).
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Databases, Operations, Roles } from "@dbplatform/client"
import { BranchId, type Operation } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import { projectId, send } from "./helpers.js"

const main = BranchId.make("br-main-100001")
const endpointId = "ep-main-100001"
const bare = BranchId.make("br-bare-100002")

/** A project whose default branch `main` has a read_write compute endpoint, and a child branch without one. */
const provideFake = Effect.provide(
  DbPlatformTest.layer({
    seed: {
      projects: [{ id: projectId }],
      branches: [
        { project_id: projectId, id: main, name: "main", default: true },
        { project_id: projectId, id: bare, name: "bare", parent_id: main }
      ],
      endpoints: [{ branch_id: main, id: endpointId, type: "read_write" }]
    }
  })
)

const params = { project_id: projectId, branch_id: main }

/**
 * Waits for the operations an answer carries to end, moving the `TestClock` a poll (5 s) at a
 * time; they all finished.
 */
const awaitAll = (answer: Operations.Awaitable) =>
  Effect.gen(function* () {
    const waiting = yield* Effect.fork(Effect.flatMap(Operations.Operations, (service) => service.awaitAll(answer)))
    for (let poll = 0; poll < 3; poll++) yield* TestClock.adjust("5 seconds")
    const { failed, pending, succeeded } = yield* Fiber.join(waiting)
    expect({ failed, pending }).toEqual({ failed: [], pending: [] })
    expect(succeeded.map((operation) => operation.status)).toEqual(succeeded.map(() => "finished"))
  })

/** The one `apply_config` an answer carries, on `branch` (and its read_write endpoint, when given). */
const expectApplyConfig = (operations: ReadonlyArray<Operation>, branch: string, endpoint?: string) => {
  expect(operations).toHaveLength(1)
  expect(operations[0]).toMatchObject({ action: "apply_config", branch_id: branch })
  expect(operations[0]!.endpoint_id).toBe(endpoint)
}

describe("Databases and Roles over the fake", () => {
  it.effect("a role with its password, a database owned by it, 409, 404, the owner kept until the database goes", () =>
    Effect.gen(function* () {
      const roles = yield* Roles.Roles
      const databases = yield* Databases.Databases

      // A role: its password, Redacted, this once; apply_config on the branch's read_write endpoint.
      const created = yield* roles.create({ ...params, role: { name: "app" } })
      expect(created.role).toMatchObject({ branch_id: main, name: "app", protected: false })
      const password = created.role.password
      expect(password !== undefined && Redacted.value(password).length >= 16).toBe(true)
      expectApplyConfig(created.operations, main, endpointId)
      yield* awaitAll(created.operations)

      // Read and list it: no password there; reveal answers the one created.
      const role = { ...params, role_name: "app" }
      expect((yield* roles.get(role)).role.password).toBeUndefined()
      expect((yield* roles.listPage(params)).roles.map((listed) => [listed.name, listed.password])).toEqual([
        ["app", undefined]
      ])
      const revealed = yield* roles.revealPassword(role)
      expect(Redacted.value(revealed.password)).toBe(Redacted.value(password!))

      // A taken name: 409, not retried.
      expect((yield* Effect.flip(roles.create({ ...params, role: { name: "app" } })))._tag).toBe("Conflict")

      // A database owned by a role the branch does not have: 404, nothing created.
      const unknownOwner = yield* Effect.flip(
        databases.create({ ...params, database: { name: "shop", owner_name: "nobody" } })
      )
      expect(unknownOwner._tag).toBe("NotFound")
      expect(unknownOwner.message).toContain('role "nobody" not found')
      expect((yield* databases.listPage(params)).databases).toEqual([])

      // A database owned by the role.
      const shop = yield* databases.create({ ...params, database: { name: "shop", owner_name: "app" } })
      expect(shop.database).toMatchObject({ branch_id: main, name: "shop", owner_name: "app" })
      expect(Number.isInteger(shop.database.id) && shop.database.id > 0).toBe(true)
      expectApplyConfig(shop.operations, main, endpointId)
      yield* awaitAll(shop.operations)
      const database = { ...params, database_name: "shop" }
      expect((yield* databases.get(database)).database).toEqual(shop.database)
      expect(
        (yield* Effect.flip(databases.create({ ...params, database: { name: "shop", owner_name: "app" } })))._tag
      ).toBe("Conflict")

      // The role owns it: it cannot be deleted (400) until the database is.
      const owns = yield* Effect.flip(roles.delete(role))
      expect(owns._tag).toBe("BadRequest")
      expect(owns.message).toContain('role "app" owns database "shop"')
      expect((yield* roles.listPage(params)).roles.map((listed) => listed.name)).toEqual(["app"])

      // Rename the database; an unknown owner is a 404 and changes nothing.
      const renamed = yield* databases.update({ ...database, database: { name: "store" } })
      expect(renamed.database).toMatchObject({ id: shop.database.id, name: "store", owner_name: "app" })
      expectApplyConfig(renamed.operations, main, endpointId)
      yield* awaitAll(renamed.operations)
      const store = { ...params, database_name: "store" }
      expect((yield* Effect.flip(databases.update({ ...store, database: { owner_name: "nobody" } })))._tag).toBe(
        "NotFound"
      )
      expect((yield* Effect.flip(databases.get(database)))._tag).toBe("NotFound")

      // Delete the database, then the role: both answer apply_config; a second delete is a 204 (None).
      const deleted = yield* databases.delete(store)
      expect(Option.map(deleted, (answer) => answer.database.name)).toEqual(Option.some("store"))
      yield* awaitAll(deleted)
      expect(Option.isNone(yield* databases.delete(store))).toBe(true)
      const gone = yield* roles.delete(role)
      expect(Option.map(gone, (answer) => answer.role.name)).toEqual(Option.some("app"))
      expectApplyConfig(Option.getOrThrow(gone).operations, main, endpointId)
      yield* awaitAll(gone)
      expect(Option.isNone(yield* roles.delete(role))).toBe(true)
      expect((yield* Effect.flip(roles.get(role)))._tag).toBe("NotFound")
      expect((yield* Effect.flip(roles.revealPassword(role)))._tag).toBe("NotFound")
    }).pipe(provideFake)
  )

  it.effect(
    "reset gives a role another password, which reveal answers; no read_write endpoint: apply_config on the branch",
    () =>
      Effect.gen(function* () {
        const roles = yield* Roles.Roles
        const on = { project_id: projectId, branch_id: bare }
        const created = yield* roles.create({ ...on, role: { name: "ci" } })
        expectApplyConfig(created.operations, bare)
        expect(created.operations[0]!.endpoint_id).toBeUndefined()
        yield* awaitAll(created.operations)
        const role = { ...on, role_name: "ci" }
        const reset = yield* roles.resetPassword(role)
        expectApplyConfig(reset.operations, bare)
        const before = Redacted.value(created.role.password!)
        const after = Redacted.value(reset.role.password!)
        expect(after).not.toBe(before)
        expect(Redacted.value((yield* roles.revealPassword(role)).password)).toBe(after)
        // The role is on its branch only.
        expect((yield* roles.listPage(params)).roles).toEqual([])
      }).pipe(provideFake)
  )

  it.effect(
    "a change while the project is locked is a 423 that changes nothing; the client sends it again until it passes",
    () =>
      Effect.gen(function* () {
        const fake = yield* FakePlatform.FakePlatform
        const roles = yield* Roles.Roles
        yield* fake.scenario.startOperations(projectId, [{ action: "apply_config", runsFor: "1 second" }])

        const response = yield* send(
          fake,
          yield* HttpClientRequest.post(`/projects/${projectId}/branches/${main}/roles`).pipe(
            HttpClientRequest.bodyJson({ role: { name: "locked" } })
          ),
          { key: fake.bootstrapKey }
        )
        expect(response.status).toBe(423)
        expect((yield* fake.snapshot).roles).toEqual([])

        const creating = yield* Effect.fork(roles.create({ ...params, role: { name: "locked" } }))
        for (let step = 0; step < 40 && Option.isNone(yield* Fiber.poll(creating)); step++) {
          yield* TestClock.adjust("250 millis")
        }
        expect((yield* Fiber.join(creating)).role.name).toBe("locked")
        expect((yield* fake.snapshot).roles.map((role) => role.name)).toEqual(["locked"])
      }).pipe(provideFake)
  )

  it.effect("unknown projects, branches and names are 404", () =>
    Effect.gen(function* () {
      const roles = yield* Roles.Roles
      const databases = yield* Databases.Databases
      const elsewhere = { project_id: projectId, branch_id: BranchId.make("br-none-000000") }
      expect((yield* Effect.flip(roles.listPage(elsewhere)))._tag).toBe("NotFound")
      expect((yield* Effect.flip(databases.listPage(elsewhere)))._tag).toBe("NotFound")
      expect((yield* Effect.flip(roles.create({ ...elsewhere, role: { name: "x" } })))._tag).toBe("NotFound")
      expect((yield* Effect.flip(roles.delete({ ...elsewhere, role_name: "x" })))._tag).toBe("NotFound")
      expect((yield* Effect.flip(databases.get({ ...params, database_name: "none" })))._tag).toBe("NotFound")
      expect((yield* Effect.flip(roles.resetPassword({ ...params, role_name: "none" })))._tag).toBe("NotFound")
      // A name longer than 63 bytes is refused before anything is sent.
      expect((yield* Effect.flip(roles.create({ ...params, role: { name: "r".repeat(64) } })))._tag).toBe(
        "InvalidRequest"
      )
    }).pipe(provideFake)
  )
})
