/**
 * What a user of the client relies on when the network or the platform misbehaves: which
 * failures are sent again and when, how long a call may take, what is never sent twice, the
 * request id to quote to support, the client-side rate limit, and how waiting for operations
 * reads the platform. Everything runs in memory on the fake, driven by the `TestClock`; the
 * fake's request log (`requests`) and stored keys (`apiKeys`) are the evidence.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import { ApiKeys, type DbPlatformClient, Operations, Projects } from "@dbplatform/client"
import { type Operation, OperationFailed, OperationStillPending } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Clock from "effect/Clock"
import * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import * as Fault from "../src/Fault.js"
import type { Seed, SeedOperation } from "../src/Seed.js"
import { operationId, projectId } from "./helpers.js"

const seed: Seed = {
  projects: [{ id: projectId }],
  operations: [{ project_id: projectId, id: operationId(1), action: "create_branch", branch_id: "br-late-sun-302709" }]
}

/** Client settings beyond the base URL and key. */
type ClientOptions = Omit<DbPlatformClient.Options, "baseUrl" | "apiKey">

/** The fake seeded with `seed` (one project, one operation) and the client built with `options`. */
const withClient = (options: ClientOptions = {}, fakeSeed: Seed = seed) =>
  Effect.provide(DbPlatformTest.layer({ seed: fakeSeed, client: options }))

const fake = FakePlatform.FakePlatform
const listProjects = Effect.flatMap(Projects.Projects, (projects) => projects.listPage())
const createKey = (name: string) => Effect.flatMap(ApiKeys.ApiKeys, (apiKeys) => apiKeys.create({ key_name: name }))
const getOperation = (id = operationId(1)) =>
  Effect.flatMap(Operations.Operations, (operations) =>
    operations.get({ project_id: projectId, operation_id: id }).pipe(Effect.map(({ operation }) => operation))
  )

const projectsPath = "/api/v2/projects"
const keysPath = "/api/v2/api_keys"
const operationPath = `/api/v2/projects/${projectId}/operations/${operationId(1)}`

/** The requests the fake recorded with this method and path. */
const requestsTo = (method: string, path: string) =>
  Effect.map(fake, (platform) => platform.requests).pipe(
    Effect.flatten,
    Effect.map((requests) => requests.filter((request) => request.method === method && request.path === path))
  )

/** The names of the keys the fake stores (revoked ones included), bootstrap first. */
const storedKeyNames = Effect.flatMap(fake, (platform) =>
  Effect.map(platform.apiKeys, (keys) => keys.map((key) => key.name))
)

/** Runs `self` in a fiber while the clock moves `by`, and returns its exit. */
const withClockMoved =
  (by: Duration.DurationInput) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<Exit.Exit<A, E>, never, R> =>
    Effect.gen(function* () {
      const fiber = yield* Effect.fork(self)
      yield* TestClock.adjust(by)
      return yield* Fiber.await(fiber)
    })

const isRunning = <A, E>(fiber: Fiber.Fiber<A, E>) => Effect.map(Fiber.poll(fiber), Option.isNone)

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe("Retry-After", () => {
  it.effect("a 429 with Retry-After: 2 on GET /projects is sent again after exactly 2 s, and the call succeeds", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.status(429, { headers: { "retry-after": "2" } }), {
        method: "GET",
        path: "/projects"
      })
      const fiber = yield* Effect.fork(listProjects)
      yield* TestClock.adjust("1999 millis")
      expect(yield* requestsTo("GET", projectsPath)).toHaveLength(1)
      expect(yield* isRunning(fiber)).toBe(true)
      yield* TestClock.adjust("1 millis")
      expect((yield* Fiber.join(fiber)).projects.map((project) => project.id)).toEqual([projectId])
      expect((yield* requestsTo("GET", projectsPath)).map((request) => request.fault)).toEqual(["Status", undefined])
    }).pipe(withClient())
  )

  it.effect("a Retry-After given as an HTTP date is waited for until that date", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      // The TestClock starts at the epoch: the server asks to come back 3 s from now.
      const date = new Date(3000).toUTCString()
      yield* platform.faults.inject(Fault.status(503, { headers: { "retry-after": date } }), { path: "/projects" })
      const fiber = yield* Effect.fork(listProjects)
      yield* TestClock.adjust("2999 millis")
      expect(yield* requestsTo("GET", projectsPath)).toHaveLength(1)
      expect(yield* isRunning(fiber)).toBe(true)
      yield* TestClock.adjust("1 millis")
      expect((yield* Fiber.join(fiber)).projects).toHaveLength(1)
      expect(yield* requestsTo("GET", projectsPath)).toHaveLength(2)
    }).pipe(withClient())
  )

  it.effect("a Retry-After longer than maxRetryAfter fails at once with RateLimited saying when to come back", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.status(429, { headers: { "retry-after": "3600" } }), { path: "/projects" })
      // No clock adjust: the call must not wait at all.
      const error = yield* Effect.flip(listProjects)
      expect(error).toBeInstanceOf(Error)
      expect({ ...error }).toMatchObject({ _tag: "RateLimited", status: 429, retryAfter: "3600" })
      expect(error.message).toContain("1h")
      expect(error.message).toContain("asked")
      expect(yield* Clock.currentTimeMillis).toBe(0)
      expect(yield* requestsTo("GET", projectsPath)).toHaveLength(1)
    }).pipe(withClient({ deadline: "30 seconds" }))
  )

  it.effect("a Retry-After past the deadline fails at once with RateLimited, the deadline named", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.status(429, { headers: { "retry-after": "3600" } }), { path: "/projects" })
      const error = yield* Effect.flip(listProjects)
      expect({ ...error }).toMatchObject({ _tag: "RateLimited", status: 429, retryAfter: "3600" })
      expect(error.message).toContain("1h")
      expect(error.message).toContain("30s deadline")
      expect(yield* Clock.currentTimeMillis).toBe(0)
      expect(yield* requestsTo("GET", projectsPath)).toHaveLength(1)
    }).pipe(withClient({ deadline: "30 seconds", maxRetryAfter: "2 hours" }))
  )
})

describe("what is never sent twice", () => {
  it.effect("a 502 on POST /api_keys after the server created the key: one POST, ServerError, one new key", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.status(502, { processed: true }), { method: "POST", path: "/api_keys" })
      const exit = yield* createKey("ci").pipe(Effect.flip, withClockMoved("1 minute"))
      expect(Exit.isSuccess(exit) && exit.value._tag).toBe("ServerError")
      expect(yield* requestsTo("POST", keysPath)).toHaveLength(1)
      expect(yield* storedKeyNames).toEqual(["bootstrap", "ci"])
    }).pipe(withClient())
  )

  it.effect("a 502 on POST /api_keys (not processed) is not retried: one POST, no key", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.status(502), { method: "POST", path: "/api_keys" })
      const exit = yield* createKey("ci").pipe(Effect.flip, withClockMoved("1 minute"))
      expect(Exit.isSuccess(exit) && exit.value._tag).toBe("ServerError")
      expect(yield* requestsTo("POST", keysPath)).toHaveLength(1)
      expect(yield* storedKeyNames).toEqual(["bootstrap"])
    }).pipe(withClient())
  )

  it.effect("a dropped connection on POST /api_keys is not retried: one POST, TransportError", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.drop, { method: "POST", path: "/api_keys" })
      const exit = yield* createKey("ci").pipe(Effect.flip, withClockMoved("1 minute"))
      expect(Exit.isSuccess(exit) && exit.value._tag).toBe("TransportError")
      expect(yield* requestsTo("POST", keysPath)).toHaveLength(1)
      expect(yield* storedKeyNames).toEqual(["bootstrap"])
    }).pipe(withClient())
  )
})

describe("what is retried", () => {
  for (const status of [423, 429, 503]) {
    it.effect(`a ${status} on POST /api_keys (not carried out) is retried; the key is created once`, () =>
      Effect.gen(function* () {
        const platform = yield* fake
        yield* platform.faults.inject(Fault.status(status), { method: "POST", path: "/api_keys", times: 2 })
        const exit = yield* withClockMoved("10 seconds")(createKey("ci"))
        expect(Exit.isSuccess(exit) && exit.value.name).toBe("ci")
        expect((yield* requestsTo("POST", keysPath)).map((request) => request.fault)).toEqual([
          "Status",
          "Status",
          undefined
        ])
        expect(yield* storedKeyNames).toEqual(["bootstrap", "ci"])
      }).pipe(withClient())
    )
  }

  for (const [label, fault] of [
    ["500", Fault.status(500)],
    ["502", Fault.status(502)],
    ["504", Fault.status(504)],
    ["a dropped connection", Fault.drop]
  ] as const) {
    it.effect(`${label} on a GET is retried and the call succeeds`, () =>
      Effect.gen(function* () {
        const platform = yield* fake
        yield* platform.faults.inject(fault, { method: "GET" })
        const exit = yield* withClockMoved("10 seconds")(getOperation())
        expect(Exit.isSuccess(exit) && exit.value.id).toBe(operationId(1))
        expect((yield* requestsTo("GET", operationPath)).map((request) => request.fault)).toEqual([
          fault._tag,
          undefined
        ])
      }).pipe(withClient())
    )
  }

  for (const [status, tag] of [
    [400, "BadRequest"],
    [401, "Unauthorized"],
    [404, "NotFound"]
  ] as const) {
    it.effect(`${status} on a GET is not retried: ${tag} after one request`, () =>
      Effect.gen(function* () {
        const platform = yield* fake
        yield* platform.faults.inject(Fault.status(status), { method: "GET" })
        const exit = yield* getOperation().pipe(Effect.flip, withClockMoved("1 minute"))
        expect(Exit.isSuccess(exit) && exit.value._tag).toBe(tag)
        expect(yield* requestsTo("GET", operationPath)).toHaveLength(1)
      }).pipe(withClient())
    )
  }

  it.effect("backoff is bounded: 4 503s in a row, the call succeeds within 0.5 + 1 + 2 + 4 = 7.5 s", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.status(503), { path: "/projects", times: 4 })
      const fiber = yield* Effect.fork(listProjects)
      yield* TestClock.adjust("7500 millis")
      const exit = yield* Fiber.poll(fiber)
      expect(Option.isSome(exit) && Exit.isSuccess(exit.value)).toBe(true)
      expect(yield* requestsTo("GET", projectsPath)).toHaveLength(5)
    }).pipe(withClient())
  )

  it.effect("503 forever: ServiceUnavailable after 5 attempts (4 retries), within 7.5 s", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.status(503), { path: "/projects", times: Number.POSITIVE_INFINITY })
      const fiber = yield* Effect.fork(Effect.flip(listProjects))
      yield* TestClock.adjust("7500 millis")
      const exit = yield* Fiber.poll(fiber)
      expect(Option.isSome(exit) && Exit.isSuccess(exit.value) && exit.value.value._tag).toBe("ServiceUnavailable")
      yield* TestClock.adjust("1 minute")
      expect(yield* requestsTo("GET", projectsPath)).toHaveLength(5)
    }).pipe(withClient())
  )
})

describe("deadline and request timeout", () => {
  it.effect("deadline 3 s, 503 forever: ServiceUnavailable before 3 s, no request sent after the deadline", () => {
    const sentAt: Array<number> = []
    const timed: ClientOptions = {
      deadline: "3 seconds",
      transformClient: HttpClient.tapRequest(() => Effect.map(Clock.currentTimeMillis, (now) => sentAt.push(now)))
    }
    return Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.status(503), { path: "/projects", times: Number.POSITIVE_INFINITY })
      const fiber = yield* Effect.fork(Effect.flip(listProjects))
      for (let elapsed = 0; elapsed < 3000; elapsed += 100) {
        yield* TestClock.adjust("100 millis")
      }
      const exit = yield* Fiber.poll(fiber)
      expect(Option.isSome(exit)).toBe(true)
      expect((yield* Fiber.join(fiber))._tag).toBe("ServiceUnavailable")
      yield* TestClock.adjust("1 minute")
      const sent = yield* requestsTo("GET", projectsPath)
      expect(sent.length).toBeGreaterThanOrEqual(2)
      expect(sentAt).toHaveLength(sent.length)
      expect(sentAt.every((at) => at < 3000)).toBe(true)
    }).pipe(withClient(timed))
  })

  it.effect("deadline 3 s, a retry every second: requests at 0, 1 and 2 s, and the error names the deadline", () => {
    const sentAt: Array<number> = []
    const timed: ClientOptions = {
      deadline: "3 seconds",
      retrySchedule: Schedule.spaced("1 second"),
      transformClient: HttpClient.tapRequest(() => Effect.map(Clock.currentTimeMillis, (now) => sentAt.push(now)))
    }
    return Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.status(503), { path: "/projects", times: Number.POSITIVE_INFINITY })
      const fiber = yield* Effect.fork(Effect.flip(listProjects))
      yield* TestClock.adjust("2 seconds")
      const error = yield* Fiber.join(fiber)
      expect({ ...error }).toMatchObject({ _tag: "ServiceUnavailable", status: 503 })
      expect(error.message).toContain("would pass the call's 3s deadline")
      yield* TestClock.adjust("1 minute")
      expect(sentAt).toEqual([0, 1000, 2000])
      expect(yield* requestsTo("GET", projectsPath)).toHaveLength(3)
    }).pipe(withClient(timed))
  })

  it.effect("a hung request with requestTimeout 1 s and no retries fails after 1 s with TransportError", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.hang, { method: "GET" })
      const fiber = yield* Effect.fork(Effect.flip(listProjects))
      yield* TestClock.adjust("999 millis")
      expect(yield* isRunning(fiber)).toBe(true)
      yield* TestClock.adjust("1 millis")
      const error = yield* Fiber.join(fiber)
      expect({ ...error }).toMatchObject({ _tag: "TransportError", method: "GET", path: "/projects" })
      expect(error.message).toContain("no complete response within 1s")
      expect(yield* requestsTo("GET", projectsPath)).toHaveLength(1)
    }).pipe(withClient({ requestTimeout: "1 second", retrySchedule: Schedule.stop }))
  )

  it.effect("with the client's defaults, a server that never answers fails a GET after 30 s, sent once", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.hang, { method: "GET" })
      const fiber = yield* Effect.fork(Effect.flip(listProjects))
      yield* TestClock.adjust("29999 millis")
      expect(yield* isRunning(fiber)).toBe(true)
      yield* TestClock.adjust("1 millis")
      expect(yield* isRunning(fiber)).toBe(false)
      const error = yield* Fiber.join(fiber)
      expect({ ...error }).toMatchObject({ _tag: "TransportError", method: "GET", path: "/projects" })
      expect(error.message).toContain("no complete response within 30s")
      expect(yield* requestsTo("GET", projectsPath)).toHaveLength(1)
    }).pipe(withClient())
  )

  it.effect("a hung GET with retries on: aborted after the timeout, sent again, and the call succeeds", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.hang, { method: "GET" })
      const fiber = yield* Effect.fork(listProjects)
      yield* TestClock.adjust("1 second")
      // The first backoff is at most 500 ms.
      yield* TestClock.adjust("500 millis")
      const exit = yield* Fiber.poll(fiber)
      expect(Option.isSome(exit) && Exit.isSuccess(exit.value)).toBe(true)
      expect((yield* requestsTo("GET", projectsPath)).map((request) => request.fault)).toEqual(["Hang", undefined])
    }).pipe(withClient({ requestTimeout: "1 second" }))
  )

  it.effect("interrupting a call hung on the server ends it", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.hang)
      const fiber = yield* Effect.fork(listProjects)
      yield* TestClock.adjust("10 seconds")
      expect(yield* isRunning(fiber)).toBe(true)
      const exit = yield* Fiber.interrupt(fiber)
      expect(Exit.isInterrupted(exit)).toBe(true)
      yield* TestClock.adjust("1 minute")
      expect((yield* requestsTo("GET", projectsPath)).map((request) => request.fault)).toEqual(["Hang"])
    }).pipe(withClient())
  )
})

describe("request headers", () => {
  it.effect("X-Request-ID: a UUID per call, the same on its retries, and the one a 404 reports", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.status(503), { path: "/projects" })
      yield* withClockMoved("10 seconds")(listProjects)
      yield* listProjects
      const notFound = yield* Effect.flip(getOperation(operationId(999)))
      if (notFound._tag !== "NotFound") return expect.fail(`expected NotFound, got ${notFound._tag}`)

      const requests = yield* platform.requests
      expect(requests).toHaveLength(4)
      const ids = requests.map((request) => request.headers["x-request-id"] ?? "")
      for (const id of ids) expect(id).toMatch(uuid)
      // The 503 and its retry are one call; the second list is another call.
      expect(ids[1]).toBe(ids[0])
      expect(new Set(ids).size).toBe(3)
      expect(notFound.requestId).toBe(ids[3])
      for (const request of requests) {
        expect(request.headers["user-agent"]).toMatch(/^dbplatform-effect\//)
      }
    }).pipe(withClient())
  )
})

describe("client-side rate limit", () => {
  it.effect("limit 2 per second: of 5 concurrent calls, 2 go at once, the rest as the clock moves 1 s, 2 s", () =>
    Effect.gen(function* () {
      const fiber = yield* Effect.fork(
        Effect.all(
          Array.from({ length: 5 }, () => listProjects),
          { concurrency: 5 }
        )
      )
      const sent = Effect.map(requestsTo("GET", projectsPath), (requests) => requests.length)
      yield* TestClock.adjust("0 millis")
      expect(yield* sent).toBe(2)
      yield* TestClock.adjust("999 millis")
      // At most `limit` requests in any `interval` (the option's documented contract).
      expect(yield* sent).toBe(2)
      yield* TestClock.adjust("1 millis")
      expect(yield* sent).toBe(4)
      yield* TestClock.adjust("1 second")
      expect(yield* sent).toBe(5)
      expect(yield* Fiber.join(fiber)).toHaveLength(5)
    }).pipe(withClient({ rateLimit: { limit: 2, interval: "1 second" } }))
  )
})

/**
 * How many operations the batching tests wait for: enough that one request per operation and
 * one per round are far apart, few enough that each test stays cheap on a busy machine.
 */
const many = 40
/** `many` operations of one project, ending 10 s to 60 s after the start; every tenth fails. */
const manyOperations: ReadonlyArray<SeedOperation> = Array.from({ length: many }, (_, i) => ({
  project_id: projectId,
  id: operationId(1000 + i),
  action: "start_compute",
  endpoint_id: "ep-proud-mud-a5x8dq2u",
  runsFor: `${10_000 + i * 1250} millis`,
  ...(i % 10 === 7 ? { status: "failed", failures_count: 2, error: "compute start timed out" } : {})
}))
const manySeed: Seed = { projects: [{ id: projectId }], operations: manyOperations }

/** When an operation of `manyOperations` ends: the fake creates the i-th at i ms (distinct times). */
const endsAt = (i: number) => i + 10_000 + i * 1250

describe("operations.awaitAll", () => {
  it.effect(`${many} operations of one project: one list request per round, not ${many}; all reported at the end`, () =>
    Effect.gen(function* () {
      const platform = yield* fake
      const operations = yield* Operations.Operations
      const page = yield* operations.listPage({ project_id: projectId, limit: 1000 })
      expect(page.operations).toHaveLength(many)
      const before = (yield* platform.requests).length

      const fiber = yield* Effect.fork(operations.awaitAll(page.operations))
      const perRound: Array<number> = []
      let seen = before
      for (let round = 0; round < 14 && (yield* isRunning(fiber)); round++) {
        yield* TestClock.adjust(round === 0 ? "0 millis" : "5 seconds")
        const now = (yield* platform.requests).length
        perRound.push(now - seen)
        seen = now
      }
      const result = yield* Fiber.join(fiber)
      // Rounds at 0, 5, ..., 60 s: the last operation ends at 58.789 s.
      expect(perRound.length).toBeGreaterThanOrEqual(13)
      expect(perRound.every((count) => count <= 3)).toBe(true)
      expect(seen - before).toBeLessThanOrEqual(3 * 13)
      const reads = (yield* platform.requests).slice(before)
      expect(reads.every((request) => request.path === `/api/v2/projects/${projectId}/operations`)).toBe(true)

      expect(result.operations).toHaveLength(many)
      expect(result.pending).toHaveLength(0)
      expect(result.succeeded.length + result.failed.length).toBe(many)
      const failedIds = manyOperations.filter((operation) => operation.status === "failed").map((o) => o.id)
      expect(result.failed.map((operation) => operation.id).sort()).toEqual([...failedIds].sort())
      for (const operation of result.failed) {
        expect(operation).toMatchObject({ status: "failed", failures_count: 2, error: "compute start timed out" })
      }
    }).pipe(withClient({}, manySeed))
  )

  it.effect("with a timeout shorter than the longest operation, those still running are pending", () =>
    Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const page = yield* operations.listPage({ project_id: projectId, limit: 1000 })
      const fiber = yield* Effect.fork(operations.awaitAll(page.operations, { timeout: "30 seconds" }))
      yield* TestClock.adjust("30 seconds")
      const result = yield* Fiber.join(fiber)
      // The last round read at 30 s.
      const ended = new Set(manyOperations.filter((_, i) => endsAt(i) <= 30_000).map((operation) => operation.id))
      expect(ended.size).toBeGreaterThan(0)
      expect(ended.size).toBeLessThan(many)
      expect(result.pending.map((operation) => operation.id).sort()).toEqual(
        manyOperations
          .map((operation) => operation.id!)
          .filter((id) => !ended.has(id))
          .sort()
      )
      expect(result.pending.every((operation) => operation.status === "running")).toBe(true)
      expect(result.succeeded.length + result.failed.length).toBe(ended.size)
    }).pipe(withClient({}, manySeed))
  )
})

const waitSeed: Seed = {
  projects: [{ id: projectId }],
  operations: [
    { project_id: projectId, id: operationId(1), action: "create_branch", runsFor: "8 seconds" },
    {
      project_id: projectId,
      id: operationId(2),
      action: "start_compute",
      endpoint_id: "ep-proud-mud-a5x8dq2u",
      runsFor: "13 seconds",
      status: "failed",
      failures_count: 3,
      error: "compute start timed out"
    },
    { project_id: projectId, id: operationId(3), action: "apply_config", runsFor: "21 seconds" },
    { project_id: projectId, id: operationId(4), action: "import_data", runsFor: "10 minutes" }
  ]
}

describe("operations.await", () => {
  it.effect("returns a finished operation", () =>
    Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const exit = yield* withClockMoved("10 seconds")(
        operations.await({ project_id: projectId, operation_id: operationId(1) })
      )
      expect(Exit.isSuccess(exit) && exit.value.status).toBe("finished")
    }).pipe(withClient({}, waitSeed))
  )

  it.effect("fails with OperationFailed carrying the error and failures_count of a failed one", () =>
    Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const exit = yield* withClockMoved("15 seconds")(
        Effect.flip(operations.await({ project_id: projectId, operation_id: operationId(2) }))
      )
      const error = Exit.isSuccess(exit) ? exit.value : undefined
      expect(error).toBeInstanceOf(OperationFailed)
      if (!(error instanceof OperationFailed)) return
      expect(error.operation).toMatchObject({
        id: operationId(2),
        status: "failed",
        failures_count: 3,
        error: "compute start timed out"
      })
      expect(error.message).toContain("compute start timed out")
    }).pipe(withClient({}, waitSeed))
  )

  it.effect("timeout 12 s on a long one: OperationStillPending with the last state read, no read after 12 s", () =>
    Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const path = `/api/v2/projects/${projectId}/operations/${operationId(4)}`
      const fiber = yield* Effect.fork(
        Effect.flip(
          operations.await({ project_id: projectId, operation_id: operationId(4) }, { timeout: "12 seconds" })
        )
      )
      yield* TestClock.adjust("12 seconds")
      const error = yield* Fiber.join(fiber)
      expect(error).toBeInstanceOf(OperationStillPending)
      if (!(error instanceof OperationStillPending)) return
      // Reads at 0, 5 and 10 s; one at 15 s would start after the timeout.
      const { created_at, total_duration_ms } = error.operation
      expect(error.operation).toMatchObject({ id: operationId(4), status: "running" })
      expect(DateTime.toEpochMillis(created_at) + total_duration_ms!).toBe(10_000)
      yield* TestClock.adjust("1 minute")
      expect(yield* requestsTo("GET", path)).toHaveLength(3)
    }).pipe(withClient({}, waitSeed))
  )
})

describe("operations.watch", () => {
  it.effect("emits each operation's first state, then only its status changes, in order; ends when all ended", () =>
    Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const all = (yield* operations.listPage({ project_id: projectId })).operations
      const watched = [1, 2, 3].map((n) => all.find((operation) => operation.id === operationId(n))!)
      const fiber = yield* Effect.fork(Stream.runCollect(operations.watch(watched)))
      yield* TestClock.adjust("30 seconds")
      const states = Chunk.toReadonlyArray(yield* Fiber.join(fiber))
      const show = (operation: Operation) => `${operation.id.slice(-1)} ${operation.status}`
      // Rounds at 0 s (all scheduling), 5 s (all running), 10 s (1 ended), 15 s (2 ended), 20 s, 25 s (3 ended).
      expect(states.map(show)).toEqual([
        "1 scheduling",
        "2 scheduling",
        "3 scheduling",
        "1 running",
        "2 running",
        "3 running",
        "1 finished",
        "2 failed",
        "3 finished"
      ])
    }).pipe(withClient({}, waitSeed))
  )
})
