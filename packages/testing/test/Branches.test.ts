/**
 * The preview-branch workflow in memory, on the `TestClock`, through the client's `Branches`
 * and `Operations` over the fake (`DbPlatformTest.layer`): create a branch with a read_write
 * compute endpoint, wait for its operations, read it, rename it (a taken name is a 409, sent
 * once; a rename while another operation runs is a 423 the client retries until it passes),
 * count and list, delete it, wait for the deletion, and see it gone.
 */
import { Branches } from "@dbplatform/client"
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as HashMap from "effect/HashMap"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import * as Random from "effect/Random"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import { awaitAll, projectId } from "./helpers.js"

/** A project with its default branch `main` and nothing else. */
const provideFake = Effect.provide(DbPlatformTest.layer({ seed: { projects: [{ id: projectId }] } }))

/** The requests the fake got with `method` to `path` (relative to `/api/v2`). */
const requestsTo = (method: string, path: string) =>
  Effect.map(FakePlatform.FakePlatform, (fake) => fake.requests).pipe(
    Effect.flatten,
    Effect.map((requests) =>
      requests.filter((request) => request.method === method && request.path === `/api/v2${path}`)
    )
  )

describe("Branches over the fake", () => {
  it.effect(
    "create with a compute endpoint, await, read, rename (409 once, 423 retried), count, list, delete, await, gone",
    () =>
      Effect.gen(function* () {
        const branches = yield* Branches.Branches
        const fake = yield* FakePlatform.FakePlatform

        // Create: the branch and its compute endpoint start `init`, with the operations that make them.
        const created = yield* branches.create({
          project_id: projectId,
          branch: { name: "preview-pr-42" },
          endpoints: [{ type: "read_write" }]
        })
        expect(created.branch).toMatchObject({ name: "preview-pr-42", current_state: "init", default: false })
        expect(created.endpoints).toMatchObject([{ type: "read_write", current_state: "init" }])
        expect(created.operations.map((operation) => operation.action)).toEqual(["create_branch", "start_compute"])
        const succeeded = yield* awaitAll(created.operations)
        expect(succeeded.map((operation) => operation.status)).toEqual(["finished", "finished"])

        // Read: ready, its compute endpoint active.
        const params = { project_id: projectId, branch_id: created.branch.id }
        const path = `/projects/${projectId}/branches/${created.branch.id}`
        expect((yield* branches.get(params)).branch).toMatchObject({ id: params.branch_id, current_state: "ready" })
        const { endpoints } = yield* branches.listEndpointsPage(params)
        expect(endpoints).toMatchObject([
          { id: created.endpoints[0]!.id, branch_id: params.branch_id, type: "read_write", current_state: "active" }
        ])

        // Rename: no operation.
        const renamed = yield* branches.update({ ...params, branch: { name: "preview-pr-42-b" } })
        expect(renamed.branch.name).toBe("preview-pr-42-b")
        expect(renamed.operations).toEqual([])

        // A taken name: 409 Conflict, not retried (one request).
        const patchesBefore = (yield* requestsTo("PATCH", path)).length
        const conflict = yield* Effect.flip(branches.update({ ...params, branch: { name: "main" } }))
        expect(conflict._tag).toBe("Conflict")
        expect((yield* requestsTo("PATCH", path)).length).toBe(patchesBefore + 1)

        // Another branch's creation runs 2 s: meanwhile the project is locked, a rename is a 423,
        // and the client sends it again (with backoff, on the TestClock) until it passes.
        const other = yield* branches.create({ project_id: projectId, branch: { name: "other" } })
        const retried: Array<unknown> = []
        const recordRetries = Logger.make(({ annotations, message }) => {
          if (String(message).startsWith("retrying Branches.update")) retried.push(HashMap.get(annotations, "status"))
        })
        const renaming = yield* Effect.fork(
          branches
            .update({ ...params, branch: { name: "preview-pr-42-c" } })
            .pipe(Effect.provide(Logger.add(recordRetries)), Logger.withMinimumLogLevel(LogLevel.Debug))
        )
        yield* TestClock.adjust("0 millis")
        // The first attempt was answered and changed nothing; the call goes on.
        expect((yield* requestsTo("PATCH", path)).length).toBe(patchesBefore + 2)
        expect((yield* fake.snapshot).branches.find((branch) => branch.id === params.branch_id)?.name).toBe(
          "preview-pr-42-b"
        )
        expect(Option.isNone(yield* Fiber.poll(renaming))).toBe(true)
        for (let step = 0; step < 40 && Option.isNone(yield* Fiber.poll(renaming)); step++) {
          yield* TestClock.adjust("250 millis")
        }
        expect((yield* Fiber.join(renaming)).branch.name).toBe("preview-pr-42-c")
        // The fake answered 423 to each attempt but the last (the client logged each retry with it).
        const attempts = (yield* requestsTo("PATCH", path)).length - patchesBefore - 1
        expect(attempts).toBeGreaterThanOrEqual(2)
        expect(retried).toEqual(Array.from({ length: attempts - 1 }, () => Option.some(423)))
        yield* awaitAll(other.operations)

        // Count and list (one branch a page): main, other and ours.
        expect(yield* branches.count({ project_id: projectId })).toEqual({ count: 3 })
        const listed = yield* Stream.runCollect(branches.list({ project_id: projectId }, { pageSize: 1 }))
        expect(
          Chunk.toArray(listed)
            .map((branch) => branch.name)
            .sort()
        ).toEqual(["main", "other", "preview-pr-42-c"])
        const pages = yield* requestsTo("GET", `/projects/${projectId}/branches`)
        expect(pages.map((page) => page.query.limit)).toEqual(["1", "1", "1"])

        // Delete: its compute endpoint goes with it; suspend_compute, then delete_timeline.
        const deleted = yield* branches.delete(params)
        expect(Option.map(deleted, ({ branch }) => branch.id)).toEqual(Option.some(params.branch_id))
        expect(Option.map(deleted, ({ operations }) => operations.map((operation) => operation.action))).toEqual(
          Option.some(["suspend_compute", "delete_timeline"])
        )
        expect(yield* awaitAll(deleted)).toHaveLength(2)

        // Gone: a 404 to read it or its compute endpoints; deleting it again answers None (a 204).
        expect((yield* Effect.flip(branches.get(params)))._tag).toBe("NotFound")
        expect((yield* Effect.flip(branches.listEndpointsPage(params)))._tag).toBe("NotFound")
        expect(yield* branches.count({ project_id: projectId })).toEqual({ count: 2 })
        expect(yield* branches.delete(params)).toEqual(Option.none())
        expect((yield* fake.snapshot).endpoints).toEqual([])
      }).pipe(
        provideFake,
        // The retry policy's waits are drawn at random (full jitter): all four retries may fall
        // within the 2 s lock, and the call give up. A fixed seed makes the run the same each time.
        Effect.withRandom(Random.make(20261124))
      )
  )
})
