import { OperationId, ProjectId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Clock from "effect/Clock"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import { DbPlatform, Operations } from "../src/index.js"
import { json, type Recorded, raw, scripted } from "./scripted.js"

const baseUrl = "http://fake.test/api/v2"
const projectA = ProjectId.make("spring-example-302709")
const projectB = ProjectId.make("autumn-field-118737")

/** A project's operations as a server holds them, newest first; tests change `status` between rounds. */
interface Row {
  id: string
  project_id: string
  status: string
  created_at: string
}

const row = (project: string, n: number, status = "running"): Row => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
  project_id: project,
  status,
  // later n = newer
  created_at: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString()
})

const wire = (r: Row) => ({
  ...r,
  action: "start_compute",
  failures_count: r.status === "failed" ? 1 : 0,
  updated_at: r.created_at,
  ...(r.status === "failed" ? { error: "compute did not start" } : {})
})

/**
 * Answers list reads from `rows` like the API (newest first, `limit` and `cursor` honoured), and
 * single reads from `singles` (`rows` unless given).
 */
const server = (rows: Array<Row>, singles: Array<Row> = rows) =>
  scripted((request: Recorded) => {
    const url = new URL(request.url)
    const single = url.pathname.match(/\/projects\/([^/]+)\/operations\/([^/]+)$/)
    if (single !== null) {
      const found = singles.find((r) => r.project_id === single[1] && r.id === single[2])
      return found === undefined ? raw(404, null) : json(200, { operation: wire(found) })
    }
    const list = url.pathname.match(/\/projects\/([^/]+)\/operations$/)
    if (list !== null) {
      const limit = Number(url.searchParams.get("limit") ?? "1000")
      const cursor = url.searchParams.get("cursor")
      const page = rows
        .filter((r) => r.project_id === list[1] && (cursor === null || Date.parse(r.created_at) < Date.parse(cursor)))
        .sort((a, b) => b.created_at.localeCompare(a.created_at))
        .slice(0, limit)
      return json(200, { operations: page.map(wire), pagination: { cursor: page.at(-1)?.created_at ?? "" } })
    }
    return raw(404, null)
  })

const ref = (r: Row) => ({
  project_id: ProjectId.make(r.project_id),
  id: OperationId.make(r.id),
  created_at: undefined
})

const withServer = (script: ReturnType<typeof server>) =>
  Effect.provide(DbPlatform.layer({ baseUrl, apiKey: Redacted.make("secret-key") }).pipe(Layer.provide(script.layer)))

const kinds = (requests: ReadonlyArray<Recorded>) =>
  requests.map((request) => {
    const url = new URL(request.url)
    return url.pathname.endsWith("/operations") ? `list ${url.searchParams.get("limit")}` : "get"
  })

/** The `cursor` a list request sent, if any. */
const cursorOf = (request: Recorded | undefined) =>
  request === undefined ? undefined : new URL(request.url).searchParams.get("cursor")

describe("awaitAll", () => {
  it.effect("nothing to wait for: an empty result and no request", () => {
    const script = server([])
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const result = yield* operations.awaitAll([])
      expect(result).toEqual({ operations: [], succeeded: [], failed: [], pending: [] })
      expect(script.requests).toHaveLength(0)
    }).pipe(withServer(script))
  })

  it.effect("ids only: the first round reads each one, later rounds one list request per project", () => {
    const rows = [row(projectA, 1), row(projectA, 2), row(projectA, 3), row(projectB, 4)]
    const script = server(rows)
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const fiber = yield* Effect.fork(operations.awaitAll(rows.map(ref)))
      yield* TestClock.adjust("1 millis")
      expect(kinds(script.requests)).toEqual(["get", "get", "get", "get"])
      rows[0]!.status = "finished"
      yield* TestClock.adjust("5 seconds")
      // project A: three pending -> one list from just above the newest; project B: one -> a single read
      expect(kinds(script.requests).slice(4).sort()).toEqual(["get", "list 1000"])
      const list = script.requests.slice(4).find((request) => request.url.includes("limit="))
      expect(cursorOf(list)).toBe(new Date(Date.parse(rows[2]!.created_at) + 1).toISOString())
      yield* TestClock.adjust("5 seconds")
      // the first one ended: two left in A
      expect(kinds(script.requests).slice(6).sort()).toEqual(["get", "list 1000"])
      for (const r of rows) r.status = r === rows[1] ? "failed" : "finished"
      yield* TestClock.adjust("5 seconds")
      expect(script.requests).toHaveLength(10)
      const result = yield* Fiber.join(fiber)
      expect(result.operations.map((operation) => operation.id)).toEqual(rows.map((r) => r.id))
      expect(result.succeeded.map((operation) => operation.id)).toEqual([rows[0]!.id, rows[2]!.id, rows[3]!.id])
      expect(result.failed).toMatchObject([{ id: rows[1]!.id, status: "failed", error: "compute did not start" }])
      expect(result.pending).toEqual([])
    }).pipe(withServer(script))
  })

  it.effect(
    "a round follows the cursor from the newest pending operation to the oldest: 1 + ⌈spread / 1000⌉ requests, the last one left read on its own",
    () => {
      // 3500 operations; pending: 2 newer than the rest (above them: 300 finished), and 3 spread
      // over the next 2200: the spread from the newest pending to the oldest is 2203 operations
      const rows = Array.from({ length: 3500 }, (_, n) => row(projectA, n, "finished"))
      const pendingAt = [3199, 3198, 2500, 1800, 997]
      for (const n of pendingAt) rows[n]!.status = "running"
      const script = server(rows)
      return Effect.gen(function* () {
        const operations = yield* Operations.Operations
        const pending = pendingAt.map((n) => ({
          ...ref(rows[n]!),
          created_at: DateTime.unsafeMake(rows[n]!.created_at)
        }))
        const fiber = yield* Effect.fork(operations.awaitAll(pending))
        yield* TestClock.adjust("1 millis")
        const spread = 3199 - 997 + 1
        // Two pages hold four of them; the last one left (997) is read on its own, not by a third page.
        expect(kinds(script.requests)).toEqual(["list 1000", "list 1000", "get"])
        expect(script.requests.length).toBeLessThanOrEqual(1 + Math.ceil(spread / 1000))
        // it starts just above the newest pending one, not at the top of the list, then follows the server's cursors
        expect(cursorOf(script.requests[0])).toBe(new Date(Date.parse(rows[3199]!.created_at) + 1).toISOString())
        expect(cursorOf(script.requests[1])).toBe(rows[2200]!.created_at)
        expect(new URL(script.requests[2]!.url).pathname).toContain(rows[997]!.id)
        // 997 ended since: this round still reads it (it was running when last read), alone again
        rows[997]!.status = "finished"
        yield* TestClock.adjust("5 seconds")
        expect(kinds(script.requests).slice(3)).toEqual(["list 1000", "list 1000", "get"])
        for (const n of [1800, 2500]) rows[n]!.status = "finished"
        yield* TestClock.adjust("5 seconds")
        // 997 ended last round and is not read again; one page from 3199 holds 3199, 3198 and 2500, and 1800 is read alone
        expect(kinds(script.requests).slice(6)).toEqual(["list 1000", "get"])
        for (const r of rows) r.status = "finished"
        yield* TestClock.adjust("5 seconds")
        const result = yield* Fiber.join(fiber)
        expect(result.succeeded).toHaveLength(5)
      }).pipe(withServer(script))
    }
  )

  it.effect("pages that hold none of them do not end the walk early: the round still costs one page per 1000", () => {
    // 4000 operations; pending: 3900, then 101 and 100, three pages further down
    const rows = Array.from({ length: 4000 }, (_, n) => row(projectA, n, "finished"))
    const pendingAt = [3900, 101, 100]
    for (const n of pendingAt) rows[n]!.status = "running"
    const script = server(rows)
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const pending = pendingAt.map((n) => ({ ...ref(rows[n]!), created_at: DateTime.unsafeMake(rows[n]!.created_at) }))
      const fiber = yield* Effect.fork(operations.awaitAll(pending))
      yield* TestClock.adjust("1 millis")
      expect(kinds(script.requests)).toEqual(["list 1000", "list 1000", "list 1000", "list 1000"])
      for (const r of rows) r.status = "finished"
      yield* TestClock.adjust("5 seconds")
      expect((yield* Fiber.join(fiber)).succeeded).toHaveLength(3)
    }).pipe(withServer(script))
  })

  it.effect("an operation the pages do not hold (e.g. deleted from the list) is read on its own", () => {
    const all = Array.from({ length: 40 }, (_, n) => row(projectA, n, "finished"))
    for (const n of [0, 38, 39]) all[n]!.status = "running"
    // the list no longer holds the oldest, but a single read still answers it
    const script = server(all.slice(1), all)
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const pending = [0, 38, 39].map((n) => ({ ...ref(all[n]!), created_at: DateTime.unsafeMake(all[n]!.created_at) }))
      const fiber = yield* Effect.fork(operations.awaitAll(pending))
      yield* TestClock.adjust("1 millis")
      expect(kinds(script.requests)).toEqual(["list 1000", "get"])
      expect(new URL(script.requests[1]!.url).pathname).toContain(all[0]!.id)
      for (const r of all) r.status = "finished"
      yield* TestClock.adjust("5 seconds")
      expect((yield* Fiber.join(fiber)).succeeded).toHaveLength(3)
    }).pipe(withServer(script))
  })

  it.effect("a server that ignores the cursor fails the wait with MalformedResponse instead of walking on", () => {
    const rows = Array.from({ length: 2500 }, (_, n) => row(projectA, n, "finished"))
    for (const n of [2400, 10]) rows[n]!.status = "running"
    // answers every list request with the newest 1000, whatever the cursor
    const script = scripted((request) => {
      const page = [...rows].reverse().slice(0, 1000)
      return request.url.includes("limit=")
        ? json(200, { operations: page.map(wire), pagination: { cursor: page.at(-1)!.created_at } })
        : raw(404, null)
    })
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const pending = [2400, 10].map((n) => ({
        ...ref(rows[n]!),
        created_at: DateTime.unsafeMake(rows[n]!.created_at)
      }))
      const error = yield* Effect.flip(operations.awaitAll(pending))
      expect(error._tag).toBe("MalformedResponse")
      expect(error.message).toContain("holds operation")
      expect(script.requests).toHaveLength(1)
    }).pipe(withServer(script))
  })

  it.effect(
    "a walk whose pages stop getting older (cursors a microsecond apart) stops at the second page, then reads singly",
    () => {
      const rows = Array.from({ length: 2500 }, (_, n) => row(projectA, n))
      const [newer, older] = [rows[2400]!, rows[10]!]
      const at = Date.parse(newer.created_at)
      // Full pages of operations all created in the newer one's millisecond, each with a cursor a
      // microsecond older than the last: never repeated, never older than a millisecond before.
      let pages = 0
      const script = scripted((request) => {
        const url = new URL(request.url)
        if (url.pathname.endsWith("/operations")) {
          pages++
          const page = Array.from({ length: 1000 }, (_, n) => ({
            ...row(projectA, 10_000 + n, "finished"),
            created_at: newer.created_at
          }))
          const micros = String(999 - pages).padStart(3, "0")
          const cursor = `${new Date(at).toISOString().slice(0, -1)}${micros}Z`
          return json(200, { operations: page.map(wire), pagination: { cursor } })
        }
        const found = rows.find((r) => url.pathname.endsWith(r.id))
        return found === undefined ? raw(404, null) : json(200, { operation: wire(found) })
      })
      return Effect.gen(function* () {
        const operations = yield* Operations.Operations
        const pending = [newer, older].map((r) => ({ ...ref(r), created_at: DateTime.unsafeMake(r.created_at) }))
        const fiber = yield* Effect.fork(operations.awaitAll(pending))
        yield* TestClock.adjust("1 second")
        expect(kinds(script.requests)).toEqual(["list 1000", "list 1000", "get", "get"])
        newer.status = "finished"
        older.status = "finished"
        yield* TestClock.adjust("5 seconds")
        expect((yield* Fiber.join(fiber)).succeeded).toHaveLength(2)
      }).pipe(withServer(script))
    }
  )

  it.effect("waiting on many projects sends no more than 40 requests to a route in any second", () => {
    // 120 projects with one pending operation each: 120 single reads a round
    const rows = Array.from({ length: 120 }, (_, n) => row(`project-${String(n).padStart(3, "0")}`, n))
    const script = server(rows)
    const times: Array<number> = []
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const fiber = yield* Effect.fork(operations.awaitAll(rows.map(ref)))
      for (let step = 0; step < 70; step++) {
        const before = script.requests.length
        yield* TestClock.adjust("100 millis")
        const now = yield* Clock.currentTimeMillis
        for (let i = before; i < script.requests.length; i++) times.push(now)
      }
      expect(script.requests).toHaveLength(120)
      for (const at of times) {
        expect(times.filter((t) => t >= at && t < at + 1000).length).toBeLessThanOrEqual(40)
      }
      for (const r of rows) r.status = "finished"
      yield* TestClock.adjust("10 seconds")
      expect((yield* Fiber.join(fiber)).succeeded).toHaveLength(120)
    }).pipe(withServer(script))
  })

  it.effect("two waits at once share one budget of 40 requests a second to a route", () => {
    // Two waits of 60 projects each, one pending operation per project: 120 single reads in all
    const rows = Array.from({ length: 120 }, (_, n) => row(`project-${String(n).padStart(3, "0")}`, n))
    const script = server(rows)
    const times: Array<number> = []
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const waits = yield* Effect.fork(
        Effect.all([operations.awaitAll(rows.slice(0, 60).map(ref)), operations.awaitAll(rows.slice(60).map(ref))], {
          concurrency: 2
        })
      )
      for (let step = 0; step < 70; step++) {
        const before = script.requests.length
        yield* TestClock.adjust("100 millis")
        const now = yield* Clock.currentTimeMillis
        for (let i = before; i < script.requests.length; i++) times.push(now)
      }
      expect(script.requests).toHaveLength(120)
      for (const at of times) {
        expect(times.filter((t) => t >= at && t < at + 1000).length).toBeLessThanOrEqual(40)
      }
      for (const r of rows) r.status = "finished"
      yield* TestClock.adjust("10 seconds")
      const [first, second] = yield* Fiber.join(waits)
      expect(first.succeeded.length + second.succeeded.length).toBe(120)
    }).pipe(withServer(script))
  })

  it.effect("the same operation given twice is read and reported once", () => {
    const rows = [row(projectA, 1, "finished")]
    const script = server(rows)
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const result = yield* operations.awaitAll([ref(rows[0]!), ref(rows[0]!)])
      expect(result.operations).toHaveLength(1)
      expect(script.requests).toHaveLength(1)
    }).pipe(withServer(script))
  })

  it.effect("at the timeout, what has not ended is reported pending, and no read starts after it", () => {
    const rows = [row(projectA, 1), row(projectA, 2)]
    const script = server(rows)
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const fiber = yield* Effect.fork(operations.awaitAll(rows.map(ref), { timeout: "12 seconds" }))
      rows[0]!.status = "finished"
      yield* TestClock.adjust("12 seconds")
      const result = yield* Fiber.join(fiber)
      expect(result.succeeded.map((operation) => operation.id)).toEqual([rows[0]!.id])
      expect(result.pending.map((operation) => operation.id)).toEqual([rows[1]!.id])
      // reads at 0, 5 and 10 s; the next would start at 15 s
      const count = script.requests.length
      yield* TestClock.adjust("1 minute")
      expect(script.requests).toHaveLength(count)
    }).pipe(withServer(script))
  })

  it.effect("a read that fails fails the wait with its error", () => {
    const rows = [row(projectA, 1)]
    const script = server(rows)
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const error = yield* Effect.flip(
        operations.awaitAll([{ ...ref(rows[0]!), id: OperationId.make("00000000-0000-4000-8000-999999999999") }])
      )
      expect(error._tag).toBe("NotFound")
    }).pipe(withServer(script))
  })
})

describe("await", () => {
  it.effect("returns the operation once finished; a skipped one counts as done well", () => {
    const rows = [row(projectA, 1), row(projectA, 2, "skipped")]
    const script = server(rows)
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const fiber = yield* Effect.fork(
        operations.await({ project_id: projectA, operation_id: OperationId.make(rows[0]!.id) })
      )
      yield* TestClock.adjust("5 seconds")
      rows[0]!.status = "finished"
      yield* TestClock.adjust("5 seconds")
      expect(yield* Fiber.join(fiber)).toMatchObject({ id: rows[0]!.id, status: "finished" })
      expect(script.requests).toHaveLength(3)
      expect(
        yield* operations.await({ project_id: projectA, operation_id: OperationId.make(rows[1]!.id) })
      ).toMatchObject({ status: "skipped" })
    }).pipe(withServer(script))
  })

  for (const status of ["failed", "error", "cancelled"]) {
    it.effect(`fails with OperationFailed carrying the operation when it ends ${status}`, () => {
      const rows = [row(projectA, 1, status)]
      const script = server(rows)
      return Effect.gen(function* () {
        const operations = yield* Operations.Operations
        const error = yield* Effect.flip(
          operations.await({ project_id: projectA, operation_id: OperationId.make(rows[0]!.id) })
        )
        expect(error._tag).toBe("OperationFailed")
        expect(error).toMatchObject({ operation: { id: rows[0]!.id, status } })
        expect(error.message).toContain(status)
      }).pipe(withServer(script))
    })
  }

  it.effect("at the timeout fails with OperationStillPending carrying the last state read", () => {
    const rows = [row(projectA, 1, "scheduling")]
    const script = server(rows)
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const fiber = yield* Effect.fork(
        Effect.flip(
          operations.await(
            { project_id: projectA, operation_id: OperationId.make(rows[0]!.id) },
            { timeout: "7 seconds" }
          )
        )
      )
      yield* TestClock.adjust("1 second")
      rows[0]!.status = "running"
      yield* TestClock.adjust("6 seconds")
      const error = yield* Fiber.join(fiber)
      expect(error).toMatchObject({ _tag: "OperationStillPending", operation: { status: "running" } })
      expect(script.requests).toHaveLength(2)
    }).pipe(withServer(script))
  })
})

describe("watch", () => {
  it.effect("emits each operation's first state, then only status changes, and ends when all ended", () => {
    const rows = [row(projectA, 1, "scheduling"), row(projectA, 2, "running")]
    const script = server(rows)
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const fiber = yield* Effect.fork(
        Stream.runCollect(operations.watch(rows.map(ref))).pipe(
          Effect.map((chunk) =>
            Chunk.toArray(chunk).map((operation) => `${operation.id.slice(-1)} ${operation.status}`)
          )
        )
      )
      yield* TestClock.adjust("5 seconds") // nothing changed
      rows[0]!.status = "running"
      yield* TestClock.adjust("5 seconds")
      rows[0]!.status = "finished"
      rows[1]!.status = "finished"
      yield* TestClock.adjust("5 seconds")
      expect(yield* Fiber.join(fiber)).toEqual(["1 scheduling", "2 running", "1 running", "1 finished", "2 finished"])
    }).pipe(withServer(script))
  })
})

describe("a wait's timeout counts from its start", () => {
  it.effect("a first read that takes longer than the timeout is the only read", () => {
    const pending = wire(row(projectA, 1))
    // The first read gets a 503 asking for 8 s, then its answer: the read ends at 8 s, past the 5 s timeout.
    const script = scripted([raw(503, null, { "retry-after": "8" }), json(200, { operation: pending })])
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const fiber = yield* Effect.fork(
        Effect.flip(
          operations.await(
            { project_id: projectA, operation_id: OperationId.make(pending.id) },
            { timeout: "5 seconds" }
          )
        )
      )
      yield* TestClock.adjust("1 minute")
      const error = yield* Fiber.join(fiber)
      expect(error._tag).toBe("OperationStillPending")
      expect(script.requests).toHaveLength(2)
    }).pipe(
      Effect.provide(
        DbPlatform.layer({ baseUrl, apiKey: Redacted.make("k") }).pipe(Layer.provide(script.layer), Layer.orDie)
      )
    )
  })
})
