import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { DbPlatformTest, FakeHttpClient, FakePlatform, Fault, Seed } from "@dbplatform/testing"
import { describe, expect, it } from "@effect/vitest"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Emulator from "../src/Emulator.js"
import * as Load from "../src/Load.js"

/** The in-memory fake (realistic seed) and an `HttpClient` that sends it every request, no network. */
const InMemory = FakeHttpClient.layer.pipe(Layer.provideMerge(FakePlatform.layer(Seed.realistic())))

// The bounded form of `pnpm --filter @dbplatform/emulator load` (200 clients for 10 s against the
// built emulator in its own process, the volume and throughput figures): here the emulator runs in
// this process and the run is bounded by work, not time, so it asserts exact counts on any machine.
describe("load", () => {
  it.live("20 concurrent clients, 10 requests each: every request answered 200, every created key listed", () =>
    Effect.gen(function* () {
      const emulator = yield* Emulator.Emulator
      const report = yield* Load.run({
        baseUrl: emulator.baseUrl,
        apiKey: emulator.bootstrapKey,
        clients: 20,
        requests: 10
      })
      expect(report.unanswered).toBe(0)
      expect(report.answered).toBe(200)
      expect(report.byStatus).toEqual({ 200: 200 })
      // Each client's tenth request creates a key.
      expect(report.keysCreated).toBe(20)
      expect(report.keysListed).toBe(20)
      expect(Load.isClean(report)).toBe(true)
    }).pipe(
      Effect.provide(Emulator.layer({ seed: Seed.realistic() })),
      Effect.provide(NodeHttpClient.layerUndici),
      Effect.provide(NodeContext.layer)
    )
  )

  it.effect("counts answers by status and requests without an answer; a run with either is not clean", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      // Only key creations are POSTs: the first two get no answer, the next three a 503, the
      // next one a 200 whose body is not a key.
      yield* fake.faults.inject(Fault.drop, { method: "POST", times: 2 })
      yield* fake.faults.inject(Fault.status(503), { method: "POST", times: 3 })
      yield* fake.faults.inject(Fault.malformedJson, { method: "POST" })
      const report = yield* Load.run({
        baseUrl: DbPlatformTest.baseUrl,
        apiKey: fake.bootstrapKey,
        clients: 8,
        requests: 10
      })
      expect(report.unanswered).toBe(2)
      expect(report.unansweredSamples).toHaveLength(2)
      expect(report.unansweredSamples[0]).toMatch(/dropped/)
      expect(report.answered).toBe(78)
      expect(report.byStatus).toEqual({ 200: 74, "200 malformed": 1, 503: 3 })
      expect(report.keysCreated).toBe(2)
      expect(report.keysListed).toBe(2)
      expect(Load.isClean(report)).toBe(false)
      const lines = Load.format(report).split("\n")
      // No time passes on the TestClock (throughput is then Infinity): the throughput line is left out.
      expect([lines[0], lines[1], lines[3]]).toEqual([
        "clients: 8, elapsed: 0.00 s",
        "answered: 78 (200: 74, 503: 3, 200 malformed: 1), unanswered: 2",
        "keys created: 2, keys listed: 2"
      ])
    }).pipe(Effect.provide(InMemory))
  )

  it.effect("with a duration, clients stop sending once the Clock is past it", () => {
    // A clock that moves only when told to: the TestClock's `adjust` waits for every fiber to
    // be suspended, which clients busy with the in-memory fake never are.
    let now = 0
    const clock: Clock.Clock = {
      [Clock.ClockTypeId]: Clock.ClockTypeId,
      unsafeCurrentTimeMillis: () => now,
      unsafeCurrentTimeNanos: () => BigInt(now) * 1_000_000n,
      currentTimeMillis: Effect.sync(() => now),
      currentTimeNanos: Effect.sync(() => BigInt(now) * 1_000_000n),
      sleep: () => Effect.never
    }
    return Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const run = yield* Effect.fork(
        Load.run({ baseUrl: DbPlatformTest.baseUrl, apiKey: fake.bootstrapKey, clients: 4, duration: "10 seconds" })
      )
      // Once the clients are sending (a key created), ten seconds pass.
      yield* Effect.repeat(fake.requests, { until: (requests) => requests.some(({ method }) => method === "POST") })
      now += 10_000
      const report = yield* Fiber.join(run)
      expect(report.elapsedMs).toBe(10_000)
      expect(report.answered).toBeGreaterThanOrEqual(10)
      expect(Load.isClean(report)).toBe(true)
    }).pipe(Effect.withClock(clock), Effect.provide(InMemory))
  })

  it.effect("fails with LoadError when the setup cannot list projects", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      yield* fake.faults.inject(Fault.status(500), { method: "GET" })
      const error = yield* Effect.flip(Load.run({ baseUrl: DbPlatformTest.baseUrl, apiKey: fake.bootstrapKey }))
      expect(error._tag).toBe("LoadError")
      expect(error.message).toMatch(/^GET \/projects: /)
    }).pipe(Effect.provide(InMemory))
  )
})
