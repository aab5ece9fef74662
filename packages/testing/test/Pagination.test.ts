import * as HttpClient from "@effect/platform/HttpClient"
import { DbPlatform, Operations, Projects } from "@dbplatform/client"
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import fc from "fast-check"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import { itemsBefore, snapshotOf } from "../src/engine/state.js"
import type { Seed } from "../src/Seed.js"
import { capturingClient, operationId, projectId } from "./helpers.js"
import { empty, stateOf } from "../src/internal/kinds.js"

/** One project with `count` operations, each 61.237 s older than the one before. */
const seedWith = (count: number): Seed => ({
  projects: [{ id: projectId }],
  operations: Array.from({ length: count }, (_, i) => ({
    project_id: projectId,
    id: operationId(i + 1),
    action: i % 2 === 0 ? "check_availability" : "suspend_compute",
    endpoint_id: "ep-proud-mud-a5x8dq2u",
    branch_id: "br-wispy-meadow-118737",
    age: Duration.millis(60_000 + i * 61_237)
  }))
})

const operationsPath = `/api/v2/projects/${projectId}/operations`

describe("operations.list", () => {
  it.effect("walks every page: all operations once, newest first, the cursor of each page sent on the next", () =>
    Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const fake = yield* FakePlatform.FakePlatform
      const all = Chunk.toReadonlyArray(
        yield* Stream.runCollect(operations.list({ project_id: projectId }, { pageSize: 10 }))
      )

      expect(all).toHaveLength(25)
      expect(new Set(all.map((operation) => operation.id)).size).toBe(25)
      expect(new Set(all.map((operation) => operation.id))).toEqual(
        new Set(Array.from({ length: 25 }, (_, i) => operationId(i + 1)))
      )
      const times = all.map((operation) => DateTime.toEpochMillis(operation.created_at))
      for (let i = 1; i < times.length; i++) expect(times[i]!).toBeLessThan(times[i - 1]!)

      const requests = (yield* fake.requests).filter((request) => request.path === operationsPath)
      expect(requests).toHaveLength(3)
      expect(requests[0]!.query).toEqual({ limit: "10" })
      expect(requests[1]!.query).toEqual({ limit: "10", cursor: DateTime.formatIso(all[9]!.created_at) })
      expect(requests[2]!.query).toEqual({ limit: "10", cursor: DateTime.formatIso(all[19]!.created_at) })
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed: seedWith(25) })))
  )

  it.effect("sends the cursor URL-encoded on the wire", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const urls: Array<string> = []
      const client = DbPlatform.layer({ baseUrl: DbPlatformTest.baseUrl, apiKey: fake.bootstrapKey }).pipe(
        Layer.provide(Layer.succeed(HttpClient.HttpClient, capturingClient(fake, urls)))
      )
      const all = yield* Operations.Operations.pipe(
        Effect.flatMap((operations) => Stream.runCollect(operations.list({ project_id: projectId }, { pageSize: 10 }))),
        Effect.provide(client)
      )
      expect(Chunk.size(all)).toBe(25)
      expect(urls).toHaveLength(3)
      const cursor = DateTime.formatIso(Chunk.unsafeGet(all, 9).created_at)
      expect(cursor).toContain(":")
      const search = new URL(urls[1]!).search
      expect(search).toContain(`cursor=${cursor.replaceAll(":", "%3A")}`)
      expect(search).not.toContain(":")
      expect(new URL(urls[2]!).search).not.toContain(":")
    }).pipe(Effect.provide(FakePlatform.layer(seedWith(25))))
  )

  it.effect("a count divisible by the page size ends on an empty page and still returns every operation", () =>
    Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const fake = yield* FakePlatform.FakePlatform
      const all = yield* Stream.runCollect(operations.list({ project_id: projectId }, { pageSize: 10 }))
      expect(Chunk.size(all)).toBe(20)
      expect(new Set(Chunk.toReadonlyArray(all).map((operation) => operation.id)).size).toBe(20)
      const requests = (yield* fake.requests).filter((request) => request.path === operationsPath)
      expect(requests).toHaveLength(3)
      expect(requests[2]!.query.cursor).toBe(DateTime.formatIso(Chunk.unsafeGet(all, 19).created_at))
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed: seedWith(20) })))
  )

  it.effect("fetches only the pages the consumer pulls", () =>
    Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const fake = yield* FakePlatform.FakePlatform
      const first = yield* Stream.runCollect(
        operations.list({ project_id: projectId }, { pageSize: 10 }).pipe(Stream.take(5))
      )
      expect(Chunk.toReadonlyArray(first).map((operation) => operation.id)).toEqual([1, 2, 3, 4, 5].map(operationId))
      const requests = (yield* fake.requests).filter((request) => request.path === operationsPath)
      expect(requests).toEqual([
        { method: "GET", path: operationsPath, query: { limit: "10" }, headers: expect.any(Object) }
      ])
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed: seedWith(25) })))
  )

  it.effect("without a limit, one page holds every operation and still carries a cursor", () =>
    Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const page = yield* operations.listPage({ project_id: projectId })
      expect(page.operations).toHaveLength(25)
      expect(page.pagination?.cursor).toBe(DateTime.formatIso(page.operations[24]!.created_at))
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed: seedWith(25) })))
  )
})

describe("projects", () => {
  const twelve: Seed = {
    projects: Array.from({ length: 12 }, (_, i) => ({
      id: `project-${String(i).padStart(2, "0")}`,
      age: `${10 + i} days`
    }))
  }

  it.effect("list walks all pages: every project once, newest first", () =>
    Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const fake = yield* FakePlatform.FakePlatform
      const all = Chunk.toReadonlyArray(yield* Stream.runCollect(projects.list({}, { pageSize: 5 })))
      expect(all.map((project) => project.id)).toEqual(
        Array.from({ length: 12 }, (_, i) => `project-${String(i).padStart(2, "0")}`)
      )
      const requests = (yield* fake.requests).filter((request) => request.path === "/api/v2/projects")
      expect(requests.map((request) => request.query)).toEqual([
        { limit: "5" },
        { limit: "5", cursor: DateTime.formatIso(all[4]!.created_at) },
        { limit: "5", cursor: DateTime.formatIso(all[9]!.created_at) }
      ])
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed: twelve })))
  )

  it.effect("listPage() without a limit gets the server's default of 10", () =>
    Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const page = yield* projects.listPage()
      expect(page.projects).toHaveLength(10)
      expect(page.projects[0]!.id).toBe("project-00")
      expect(page.pagination?.cursor).toBe(DateTime.formatIso(page.projects[9]!.created_at))
      const next = yield* projects.listPage({ cursor: page.pagination!.cursor })
      expect(next.projects.map((project) => project.id)).toEqual(["project-10", "project-11"])
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed: twelve })))
  )
})

describe("the order of operations and the cursor", () => {
  /** Walks every operation of the project at `pageSize`, with the client, newest first. */
  const walk = (pageSize: number) =>
    Effect.flatMap(Operations.Operations, (operations) =>
      Effect.map(Stream.runCollect(operations.list({ project_id: projectId }, { pageSize })), Chunk.toReadonlyArray)
    )
  const timesOf = (all: ReadonlyArray<{ readonly created_at: DateTime.Utc }>) =>
    all.map((operation) => DateTime.toEpochMillis(operation.created_at))

  it("the cursor lookup (in the tree) starts where a scan would, with equal created_at times too", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 60 }),
        fc.integer({ min: -1, max: 42 }),
        (times, cursor) => {
          const list = [...times].sort((a, b) => b - a).map((created_at) => ({ created_at }))
          const scanned = list.findIndex((item) => item.created_at < cursor)
          const state = stateOf({
            ...snapshotOf(empty),
            operations: times.map((created_at, i) => ({
              id: operationId(i + 1),
              project_id: projectId,
              action: "start_compute",
              created_at,
              steps: [{ at: created_at, status: "finished" }],
              failures_count: 0
            }))
          })
          const found = Array.from(itemsBefore(state, "operations", projectId, cursor), (item) => item.created_at)
          expect(found).toEqual(list.slice(scanned < 0 ? list.length : scanned).map((item) => item.created_at))
        }
      ),
      { seed: 302709, numRuns: 500 }
    )
  })

  it.effect(
    "operations a seed creates at the same time, in any order, get distinct times and are walked each once, newest first",
    () =>
      Effect.gen(function* () {
        const all = yield* walk(7)
        expect(all).toHaveLength(30)
        expect(new Set(all.map((operation) => operation.id)).size).toBe(30)
        const times = timesOf(all)
        for (let i = 1; i < times.length; i++) expect(times[i]!).toBeLessThan(times[i - 1]!)
      }).pipe(
        Effect.provide(
          DbPlatformTest.layer({
            seed: {
              projects: [{ id: projectId }],
              // Three groups of ten created at the same moment, the groups given oldest, newest, middle.
              operations: Array.from({ length: 30 }, (_, i) => ({
                project_id: projectId,
                id: operationId(i + 1),
                action: "start_compute",
                age: `${[3, 1, 2][Math.floor(i / 10)]} hours`
              }))
            }
          })
        )
      )
  )

  it.effect("operations a scenario starts after the seed come first, newest first, and a walk sees each once", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      yield* TestClock.adjust("1 hour")
      const first = yield* fake.scenario.startOperations(projectId, [
        { action: "create_branch" },
        { action: "start_compute" },
        { action: "apply_config" }
      ])
      yield* TestClock.adjust("1 minute")
      const second = yield* fake.scenario.startOperations(projectId, [
        { action: "suspend_compute" },
        { action: "start_compute" }
      ])
      const all = yield* walk(4)
      expect(all).toHaveLength(30)
      expect(new Set(all.map((operation) => operation.id)).size).toBe(30)
      const times = timesOf(all)
      for (let i = 1; i < times.length; i++) expect(times[i]!).toBeLessThan(times[i - 1]!)
      // Started together, they are created a millisecond apart, the last one started the newest.
      expect(all.slice(0, 5).map((operation) => operation.id)).toEqual(
        [...first.operations, ...second.operations].reverse().map((operation) => operation.id)
      )
      expect(all.slice(5).map((operation) => operation.id)).toEqual(
        Array.from({ length: 25 }, (_, i) => operationId(i + 1))
      )
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed: seedWith(25) })))
  )
})
