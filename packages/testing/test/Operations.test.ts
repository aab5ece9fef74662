import { Operations } from "@dbplatform/client"
import { OperationFailed, OperationStillPending } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import type { Seed, SeedOperation } from "../src/Seed.js"
import { getsOf, operationId, projectId } from "./helpers.js"

const running = operationId(1)
const failed = operationId(2)
const stuck = operationId(3)
const quick = operationId(4)

const seed: Seed = {
  projects: [{ id: projectId }],
  operations: [
    {
      project_id: projectId,
      id: running,
      action: "start_compute",
      branch_id: "br-wispy-meadow-118737",
      endpoint_id: "ep-proud-mud-a5x8dq2u",
      runsFor: "12 seconds"
    },
    {
      project_id: projectId,
      id: failed,
      action: "start_compute",
      endpoint_id: "ep-proud-mud-a5x8dq2u",
      age: "1 minute",
      status: "failed",
      failures_count: 2,
      error: "compute start timed out",
      retryIn: "30 seconds"
    },
    {
      project_id: projectId,
      id: stuck,
      action: "apply_config",
      endpoint_id: "ep-proud-mud-a5x8dq2u",
      age: "1 second",
      status: "running"
    }
  ]
}

/** One operation created at the start, running for 10 seconds. */
const quickSeed: Seed = {
  projects: [{ id: projectId }],
  operations: [
    {
      project_id: projectId,
      id: quick,
      action: "create_branch",
      branch_id: "br-late-sun-302709",
      runsFor: "10 seconds"
    }
  ]
}

const provideFake = Effect.provide(DbPlatformTest.layer({ seed }))

/** The fake holding `projectId` and this one operation of it. */
const provideOnly = (operation: Omit<SeedOperation, "project_id">) =>
  Effect.provide(
    DbPlatformTest.layer({
      seed: { projects: [{ id: projectId }], operations: [{ project_id: projectId, ...operation }] }
    })
  )

describe("operations.await", () => {
  it.effect("polls every 5 seconds until the operation is finished and returns it", () =>
    Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const fake = yield* FakePlatform.FakePlatform
      const fiber = yield* Effect.fork(operations.await({ project_id: projectId, operation_id: running }))
      for (let tick = 0; tick < 3; tick++) {
        yield* TestClock.adjust("5 seconds")
      }
      const done = yield* Fiber.join(fiber)
      expect(done.id).toBe(running)
      expect(done.status).toBe("finished")
      expect(DateTime.toEpochMillis(done.updated_at) - DateTime.toEpochMillis(done.created_at)).toBe(12_000)
      // Reads at 0 s, 5 s, 10 s and 15 s: the last one finds it finished.
      expect(yield* getsOf(fake, projectId, running)).toHaveLength(4)
    }).pipe(provideFake)
  )

  it.effect("fails at once with OperationFailed carrying a failed operation and its failure details", () =>
    Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const fake = yield* FakePlatform.FakePlatform
      const error = yield* Effect.flip(operations.await({ project_id: projectId, operation_id: failed }))
      expect(error).toBeInstanceOf(OperationFailed)
      if (!(error instanceof OperationFailed)) return
      expect(error.message).toContain("compute start timed out")
      const done = error.operation
      expect(done.status).toBe("failed")
      expect(done.failures_count).toBe(2)
      expect(done.error).toBe("compute start timed out")
      expect(done.retry_at).toBeDefined()
      expect(DateTime.toEpochMillis(done.retry_at!)).toBe(30_000)
      expect(yield* getsOf(fake, projectId, failed)).toHaveLength(1)
    }).pipe(provideFake)
  )

  it.effect("fails with OperationStillPending carrying the last state when the schedule ends first", () =>
    Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const fake = yield* FakePlatform.FakePlatform
      const schedule = Schedule.spaced("5 seconds").pipe(Schedule.intersect(Schedule.recurs(2)))
      const fiber = yield* Effect.fork(
        Effect.flip(operations.await({ project_id: projectId, operation_id: stuck }, { schedule }))
      )
      for (let tick = 0; tick < 2; tick++) {
        yield* TestClock.adjust("5 seconds")
      }
      const error = yield* Fiber.join(fiber)
      expect(error).toBeInstanceOf(OperationStillPending)
      if (!(error instanceof OperationStillPending)) return
      expect(error.operation.id).toBe(stuck)
      expect(error.operation.status).toBe("running")
      // Created 1 s before the start; the last read was at 10 s.
      expect(error.operation.total_duration_ms).toBe(11_000)
      expect(yield* getsOf(fake, projectId, stuck)).toHaveLength(3)
    }).pipe(provideFake)
  )

  it.effect("an unknown operation fails with NotFound", () =>
    Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const error = yield* Effect.flip(operations.await({ project_id: projectId, operation_id: operationId(999) }))
      expect(error._tag).toBe("NotFound")
    }).pipe(provideFake)
  )
})

describe("operations.poll", () => {
  it.effect("emits every state read, in order, and ends with the finished one", () =>
    Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const fiber = yield* Effect.fork(
        Stream.runCollect(operations.states({ project_id: projectId, operation_id: running }))
      )
      for (let tick = 0; tick < 3; tick++) {
        yield* TestClock.adjust("5 seconds")
      }
      const states = Chunk.toReadonlyArray(yield* Fiber.join(fiber))
      expect(states.map((operation) => operation.status)).toEqual(["scheduling", "running", "running", "finished"])
      expect(states.map((operation) => operation.total_duration_ms)).toEqual([0, 5_000, 10_000, 12_000])
    }).pipe(provideFake)
  )
})

describe("operations advance with the Clock", () => {
  it.effect("scheduling, then running, then finished once runsFor has passed", () =>
    Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const { operation: atStart } = yield* operations.get({ project_id: projectId, operation_id: quick })
      expect(atStart.status).toBe("scheduling")
      expect(atStart.endpoint_id).toBeUndefined()
      expect(atStart.branch_id).toBe("br-late-sun-302709")

      yield* TestClock.adjust("2 seconds")
      const { operation: later } = yield* operations.get({ project_id: projectId, operation_id: quick })
      expect(later.status).toBe("running")

      yield* TestClock.adjust("8 seconds")
      const { operation: done } = yield* operations.get({ project_id: projectId, operation_id: quick })
      expect(done.status).toBe("finished")
      expect(DateTime.toEpochMillis(done.updated_at)).toBe(DateTime.toEpochMillis(done.created_at) + 10_000)
      expect(done.total_duration_ms).toBe(10_000)

      // Listing shows the same state as reading it.
      const page = yield* operations.listPage({ project_id: projectId })
      const listed = Option.fromNullable(page.operations.find((operation) => operation.id === quick))
      expect(Option.map(listed, (operation) => operation.status)).toEqual(Option.some("finished"))
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed: quickSeed })))
  )

  it.effect("a pending end status is never left", () =>
    Effect.gen(function* () {
      const operations = yield* Operations.Operations
      yield* TestClock.adjust("1 hour")
      const { operation } = yield* operations.get({ project_id: projectId, operation_id: stuck })
      expect(operation.status).toBe("running")
    }).pipe(provideFake)
  )

  it.effect("an operation seeded to end cancelling reaches cancelling and stays there", () =>
    Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const id = operationId(9)
      const states: Array<string> = []
      for (let second = 0; second <= 20; second += 5) {
        states.push((yield* operations.get({ project_id: projectId, operation_id: id })).operation.status)
        yield* TestClock.adjust("5 seconds")
      }
      expect(states).toEqual(["scheduling", "running", "cancelling", "cancelling", "cancelling"])
    }).pipe(provideOnly({ id: operationId(9), action: "start_compute", runsFor: "10 seconds", status: "cancelling" }))
  )

  it.effect("error and retry_at appear once the operation has failed, not while it runs", () =>
    Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const id = operationId(10)
      const { operation: early } = yield* operations.get({ project_id: projectId, operation_id: id })
      expect(early.status).toBe("scheduling")
      expect(early.error).toBeUndefined()
      expect(early.retry_at).toBeUndefined()
      yield* TestClock.adjust("10 seconds")
      const { operation: late } = yield* operations.get({ project_id: projectId, operation_id: id })
      expect(late.status).toBe("failed")
      expect(late.error).toBe("compute start timed out")
      expect(Option.map(Option.fromNullable(late.retry_at), DateTime.toEpochMillis)).toEqual(Option.some(60_000))
    }).pipe(
      provideOnly({
        id: operationId(10),
        action: "start_compute",
        runsFor: "5 seconds",
        status: "failed",
        failures_count: 1,
        error: "compute start timed out",
        retryIn: "1 minute"
      })
    )
  )
})
