/**
 * The fake's opt-in rate limit, modelled on the platform's published one (docs/contract.md
 * §10.2): per account (all keys together) and per route (method and route template), sliding
 * windows on the `Clock`, so every test here runs on the `TestClock`.
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as TestClock from "effect/TestClock"
import * as FakePlatform from "../src/FakePlatform.js"
import type { Seed } from "../src/Seed.js"
import { isGeneralError, operationId, projectId, read, send } from "./helpers.js"

const otherProject = "quiet-river-118004"
const seed: Seed = {
  projects: [{ id: projectId }, { id: otherProject }],
  operations: [{ project_id: projectId, id: operationId(1), action: "create_branch" }]
}
// Asserted at the HTTP level: the client retries 429s, so what it shows depends on its retry policy.
const limited = (rateLimit: FakePlatform.RateLimit) => Effect.provide(FakePlatform.layer(seed, { rateLimit }))

const listProjects = HttpClientRequest.get("/projects")
const listKeys = HttpClientRequest.get("/api_keys")
const operationsOf = (project: string) => HttpClientRequest.get(`/projects/${project}/operations`)

/** The statuses of `count` requests sent at once with the bootstrap key. */
const statuses = (request: HttpClientRequest.HttpClientRequest, count: number) =>
  Effect.gen(function* () {
    const fake = yield* FakePlatform.FakePlatform
    const got: Array<number> = []
    for (let i = 0; i < count; i++) got.push((yield* send(fake, request, { key: fake.bootstrapKey })).status)
    return got
  })

const status = (request: HttpClientRequest.HttpClientRequest) => Effect.map(statuses(request, 1), ([status]) => status)

/** The answer to `request` with the bootstrap key: status, `Retry-After` and body. */
const answer = (request: HttpClientRequest.HttpClientRequest, requestId?: string) =>
  Effect.gen(function* () {
    const fake = yield* FakePlatform.FakePlatform
    const response = yield* send(fake, request, { key: fake.bootstrapKey, ...(requestId ? { requestId } : {}) })
    return { ...(yield* read(response)), retryAfter: response.headers["retry-after"], headers: response.headers }
  })

const times = (count: number, value: number) => Array.from({ length: count }, () => value)

describe("rate limit per route (bursts)", () => {
  it.effect(
    "platformRateLimit: 40 requests a second to one route pass, the 41st is 429 with Retry-After; another route still works",
    () =>
      Effect.gen(function* () {
        expect(yield* statuses(listProjects, 40)).toEqual(times(40, 200))
        const refused = yield* answer(listProjects, "req-429")
        expect(refused.status).toBe(429)
        expect(refused.retryAfter).toBe("1")
        expect(refused.headers["content-type"]).toContain("application/json")
        expect(isGeneralError(refused.body)).toBe(true)
        expect(refused.body.request_id).toBe("req-429")
        expect(refused.body.message).toBe("rate limit of 40 requests per 1s exceeded for GET /projects")
        // Another route has its own burst.
        expect(yield* statuses(listKeys, 40)).toEqual(times(40, 200))
        expect(yield* status(operationsOf(projectId))).toBe(200)
        // A second later the route lets requests through again.
        yield* TestClock.adjust("1 second")
        expect(yield* statuses(listProjects, 40)).toEqual(times(40, 200))
        expect(yield* status(listProjects)).toBe(429)
      }).pipe(limited(FakePlatform.platformRateLimit))
  )

  it.effect("a route is its method and template: every project's operations count together", () =>
    Effect.gen(function* () {
      expect(yield* statuses(operationsOf(projectId), 2)).toEqual([200, 200])
      expect(yield* status(operationsOf(otherProject))).toBe(429)
      // Another template under the same project is another route.
      expect(yield* status(HttpClientRequest.get(`/projects/${projectId}/operations/${operationId(1)}`))).toBe(200)
      // POST /api_keys and GET /api_keys are two routes.
      expect(yield* statuses(listKeys, 3)).toEqual([200, 200, 429])
      const create = HttpClientRequest.post("/api_keys").pipe(HttpClientRequest.bodyUnsafeJson({ key_name: "ci" }))
      expect(yield* statuses(create, 2)).toEqual([200, 200])
    }).pipe(limited({ route: { limit: 2, interval: "1 second" } }))
  )

  it.effect("the window slides: Retry-After is the whole seconds, rounded up, until the oldest request leaves it", () =>
    Effect.gen(function* () {
      expect(yield* statuses(listProjects, 1)).toEqual([200])
      yield* TestClock.adjust("3 seconds")
      expect(yield* statuses(listProjects, 1)).toEqual([200])
      yield* TestClock.adjust("1 second")
      // Two in the last 10 s: refused until the first is 10 s old, 6 s from now.
      expect((yield* answer(listProjects)).retryAfter).toBe("6")
      yield* TestClock.adjust("5500 millis")
      expect((yield* answer(listProjects)).retryAfter).toBe("1")
      yield* TestClock.adjust("500 millis")
      expect(yield* status(listProjects)).toBe(200)
      // The second request (at 3 s) is still in the window: the next one waits for it.
      expect((yield* answer(listProjects)).retryAfter).toBe("3")
    }).pipe(limited({ route: { limit: 2, interval: "10 seconds" } }))
  )
})

describe("rate limit per account (per minute)", () => {
  it.effect(
    "platformRateLimit: 700 requests in a minute pass (35 a second, under the burst limit); then every route is 429 until the minute has passed",
    () =>
      Effect.gen(function* () {
        for (let second = 0; second < 20; second++) {
          expect(yield* statuses(second % 2 === 0 ? listProjects : operationsOf(projectId), 35)).toEqual(times(35, 200))
          yield* TestClock.adjust("1 second")
        }
        // 700 requests since 0 s; now 20 s: the first leave the window at 60 s.
        for (const request of [listProjects, listKeys, operationsOf(otherProject)]) {
          const refused = yield* answer(request)
          expect(refused.status).toBe(429)
          expect(refused.retryAfter).toBe("40")
          expect(refused.body.message).toBe("rate limit of 700 requests per 1m exceeded for this account")
        }
        yield* TestClock.adjust("39 seconds")
        expect((yield* answer(listKeys)).retryAfter).toBe("1")
        yield* TestClock.adjust("1 second")
        // The 35 requests of second 0 have left the window: 35 pass, the 36th does not.
        expect(yield* statuses(listKeys, 36)).toEqual([...times(35, 200), 429])
      }).pipe(limited(FakePlatform.platformRateLimit))
  )

  it.effect("the account limit counts every key of the account together", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const other = yield* fake.scenario.addApiKey("other")
      expect(yield* statuses(listProjects, 2)).toEqual([200, 200])
      expect((yield* send(fake, listKeys, { key: other.key })).status).toBe(200)
      expect((yield* send(fake, listKeys, { key: other.key })).status).toBe(429)
    }).pipe(limited({ account: { limit: 3, interval: "1 minute" } }))
  )
})

describe("what the rate limit counts", () => {
  it.effect("a refused request is not carried out nor counted: POST /api_keys creates no key", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const create = HttpClientRequest.post("/api_keys").pipe(HttpClientRequest.bodyUnsafeJson({ key_name: "ci" }))
      expect(yield* statuses(create, 5)).toEqual([200, 200, 200, 429, 429])
      expect((yield* fake.apiKeys).map((key) => key.name)).toEqual(["bootstrap", "ci", "ci", "ci"])
      yield* TestClock.adjust("10 seconds")
      expect(yield* statuses(create, 4)).toEqual([200, 200, 200, 429])
    }).pipe(limited({ account: { limit: 3, interval: "10 seconds" } }))
  )

  it.effect("the limit is checked before the request is read: past it, a bad query is 429, not 400", () =>
    Effect.gen(function* () {
      expect(yield* status(listProjects)).toBe(200)
      expect(yield* status(HttpClientRequest.get("/projects?limit=0"))).toBe(429)
    }).pipe(limited({ route: { limit: 1, interval: "1 second" } }))
  )

  it.effect("requests without a valid key (401) and to unknown routes (404) are not counted", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      for (let i = 0; i < 5; i++) expect((yield* send(fake, listProjects, { key: "wrong" })).status).toBe(401)
      expect(yield* statuses(HttpClientRequest.get("/nowhere"), 5)).toEqual(times(5, 404))
      expect(yield* statuses(listProjects, 3)).toEqual([200, 200, 429])
    }).pipe(limited({ account: { limit: 2, interval: "1 minute" } }))
  )

  it.effect("without rateLimit there is no limit", () =>
    Effect.gen(function* () {
      expect(yield* statuses(listProjects, 100)).toEqual(times(100, 200))
    }).pipe(Effect.provide(FakePlatform.layer(seed)))
  )
})

describe("rateLimit settings", () => {
  it.effect("both numbers are settable: 3 a minute per account, 1 a second per route", () =>
    Effect.gen(function* () {
      expect(yield* statuses(listProjects, 2)).toEqual([200, 429])
      expect((yield* answer(listProjects)).body.message).toBe(
        "rate limit of 1 requests per 1s exceeded for GET /projects"
      )
      expect(yield* status(listKeys)).toBe(200)
      yield* TestClock.adjust("1 second")
      expect(yield* status(listProjects)).toBe(200)
      const refused = yield* answer(operationsOf(projectId))
      expect(refused.body.message).toBe("rate limit of 3 requests per 1m exceeded for this account")
      // The first request was at 0 s; it is 1 s now.
      expect(refused.retryAfter).toBe("59")
    }).pipe(limited({ account: { limit: 3, interval: "1 minute" }, route: { limit: 1, interval: "1 second" } }))
  )

  it.effect(
    "neither account nor route, a limit below 1 or not an integer, an interval not > 0 or infinite: dies with IllegalArgumentException saying why",
    () =>
      Effect.gen(function* () {
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{}, "rateLimit needs account, route or both"],
          // The 0.1 shape, one per-key window: refused, not read as something else.
          [{ limit: 40, interval: "1 second" }, "rateLimit needs account, route or both"],
          [{ account: { limit: 0, interval: "1 minute" } }, "rateLimit.account: limit must be an integer >= 1"],
          [{ route: { limit: 1.5, interval: "1 second" } }, "rateLimit.route: limit must be an integer >= 1"],
          [{ route: { limit: 40, interval: 0 } }, "interval a finite duration > 0"],
          [{ account: { limit: 700, interval: "forever" } }, "interval a finite duration > 0"],
          [{ account: { limit: 700, interval: Number.POSITIVE_INFINITY } }, "interval a finite duration > 0"],
          [{ route: "40/1s" }, "rateLimit.route must be { limit, interval }"]
        ]
        for (const [rateLimit, message] of cases) {
          const exit = yield* Effect.exit(FakePlatform.make(seed, { rateLimit: rateLimit as FakePlatform.RateLimit }))
          expect(Exit.isFailure(exit) && String(exit.cause)).toContain("IllegalArgumentException")
          expect(Exit.isFailure(exit) && String(exit.cause)).toContain(message)
        }
      })
  )
})
