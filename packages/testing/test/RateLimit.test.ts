import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as TestClock from "effect/TestClock"
import * as FakePlatform from "../src/FakePlatform.js"
import type { Seed } from "../src/Seed.js"
import { isGeneralError, projectId, read, send } from "./helpers.js"

const seed: Seed = { projects: [{ id: projectId }] }
// Asserted at the HTTP level: the client retries 429s, so what it shows depends on its retry policy.
const provideLimited = Effect.provide(FakePlatform.layer(seed, { rateLimit: { limit: 3, interval: "10 seconds" } }))

const listProjects = HttpClientRequest.get("/projects")

describe("per-key rate limit (opt-in)", () => {
  it.effect(
    "past limit requests in the window: 429, a GeneralError and Retry-After in seconds; then allowed again",
    () =>
      Effect.gen(function* () {
        const fake = yield* FakePlatform.FakePlatform
        for (let i = 0; i < 3; i++) {
          expect((yield* send(fake, listProjects, { key: fake.bootstrapKey })).status).toBe(200)
        }
        const limited = yield* send(fake, listProjects, { key: fake.bootstrapKey, requestId: "req-429" })
        const { status, body } = yield* read(limited)
        expect(status).toBe(429)
        expect(limited.headers["retry-after"]).toBe("10")
        expect(limited.headers["content-type"]).toContain("application/json")
        expect(isGeneralError(body)).toBe(true)
        expect(body.request_id).toBe("req-429")
        expect(body.message).toContain("rate limit")

        yield* TestClock.adjust("4 seconds")
        expect((yield* send(fake, listProjects, { key: fake.bootstrapKey })).headers["retry-after"]).toBe("6")
        yield* TestClock.adjust("5500 millis")
        expect((yield* send(fake, listProjects, { key: fake.bootstrapKey })).headers["retry-after"]).toBe("1")
        yield* TestClock.adjust("500 millis")
        expect((yield* send(fake, listProjects, { key: fake.bootstrapKey })).status).toBe(200)
      }).pipe(provideLimited)
  )

  it.effect("a refused request is not carried out: POST /api_keys creates no key", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const create = HttpClientRequest.post("/api_keys").pipe(HttpClientRequest.bodyUnsafeJson({ key_name: "ci" }))
      const statuses: Array<number> = []
      for (let i = 0; i < 5; i++) statuses.push((yield* send(fake, create, { key: fake.bootstrapKey })).status)
      expect(statuses).toEqual([200, 200, 200, 429, 429])
      expect((yield* fake.apiKeys).map((key) => key.name)).toEqual(["bootstrap", "ci", "ci", "ci"])
    }).pipe(provideLimited)
  )

  it.effect("the limit is per key; requests without a valid key are 401 and not counted", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const other = yield* fake.scenario.addApiKey("other")
      for (let i = 0; i < 5; i++) expect((yield* send(fake, listProjects, { key: "wrong" })).status).toBe(401)
      for (let i = 0; i < 3; i++) yield* send(fake, listProjects, { key: fake.bootstrapKey })
      expect((yield* send(fake, listProjects, { key: fake.bootstrapKey })).status).toBe(429)
      expect((yield* send(fake, listProjects, { key: other.key })).status).toBe(200)
    }).pipe(provideLimited)
  )

  it.effect("without rateLimit there is no limit", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      for (let i = 0; i < 50; i++)
        expect((yield* send(fake, listProjects, { key: fake.bootstrapKey })).status).toBe(200)
    }).pipe(Effect.provide(FakePlatform.layer(seed)))
  )

  it.effect("a limit below 1, not an integer, or an empty interval dies with IllegalArgumentException", () =>
    Effect.gen(function* () {
      const rateLimits: ReadonlyArray<FakePlatform.RateLimit> = [
        { limit: 0, interval: "1 second" },
        { limit: 1.5, interval: "1 second" },
        { limit: 1, interval: 0 }
      ]
      for (const rateLimit of rateLimits) {
        const exit = yield* Effect.exit(FakePlatform.make(seed, { rateLimit }))
        expect(Exit.isFailure(exit) && String(exit.cause)).toContain("IllegalArgumentException")
      }
    })
  )
})
