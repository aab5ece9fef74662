import { DbPlatform } from "@dbplatform/client"
import { DbPlatformTest, FakeHttpClient, FakePlatform, Seed } from "@dbplatform/testing"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as TestClock from "effect/TestClock"
import { afterEach, vi } from "vitest"
import { tour } from "../src/Tour.js"

afterEach(() => {
  vi.restoreAllMocks()
})

/** Runs the tour against the in-memory fake, advancing the TestClock 5 s per poll. */
const runTour = (clientFor: boolean) =>
  Effect.gen(function* () {
    const lines: Array<string> = []
    vi.spyOn(console, "log").mockImplementation((...args: Array<unknown>) => {
      lines.push(args.join(" "))
    })
    const fake = yield* FakePlatform.FakePlatform
    const keysUsed: Array<string> = []
    const forKey = (apiKey: Redacted.Redacted<string>) => {
      keysUsed.push(Redacted.value(apiKey))
      return DbPlatform.layer({ baseUrl: DbPlatformTest.baseUrl, apiKey }).pipe(
        Layer.provide(FakeHttpClient.layer),
        Layer.provide(Layer.succeed(FakePlatform.FakePlatform, fake))
      )
    }
    const requests = Effect.map(fake.requests, (log) => log.length)
    const fiber = yield* Effect.fork(tour(clientFor ? { clientFor: forKey, requests } : { requests }))
    for (let tick = 0; tick < 4; tick++) yield* TestClock.adjust("5 seconds")
    yield* Fiber.join(fiber)
    return { lines, fake, keysUsed }
  }).pipe(Effect.provide(DbPlatformTest.layer({ seed: Seed.realistic({ operationsPerProject: 120 }) })))

describe("the demo tour", () => {
  it.effect("creates a key, pages operations, waits for the pending ones and sees the revoked key refused", () =>
    Effect.gen(function* () {
      const { lines, fake, keysUsed } = yield* runTour(true)
      const output = lines.join("\n")
      expect(output).toMatch(/Created API key \d+ "demo-tour": value <redacted>/)
      expect(output).toContain("Projects (4):")
      // create_timeline + 120 past + 3 pending operations in the first project, in pages of 50.
      expect(output).toMatch(/Operations of [a-z0-9-]+: 124 in 3 pages of up to 50/)
      expect(output).toContain("Waiting for 3 pending operations")
      // One line per poll round, from the wait's own schedule: elapsed time (TestClock), how many
      // still pending, and the requests the wait sent (one list request a round answers for all).
      const rounds = lines.filter((line) => / round \d+: /.test(line))
      expect(rounds).toEqual([
        "  + 0 s  round 1: 3 of 3 still pending, 1 request so far",
        "  + 5 s  round 2: 3 of 3 still pending, 2 requests so far",
        "  +10 s  round 3: 2 of 3 still pending, 3 requests so far",
        "  +15 s  round 4: 0 of 3 still pending, 4 requests so far"
      ])
      // A round's line comes after the status changes that round read.
      expect(lines.indexOf(rounds[2]!)).toBeGreaterThan(
        lines.findIndex((line) => /^ {2}\+10 s {2}\w+ .* finished$/.test(line))
      )
      expect(output).toMatch(/All 3 ended: \w+ finished, \w+ finished, \w+ finished/)
      expect(output).toContain("The new key works: it lists 4 projects")
      expect(output).toMatch(/The next request with it is refused: Unauthorized: GET \/projects: 401 Unauthorized/)
      expect(lines.at(-1)).toBe("Tour complete.")
      // The created key was used (twice: once accepted, once refused), and its value never
      // reaches the output, nor does the bootstrap key's.
      expect(keysUsed).toHaveLength(2)
      expect(keysUsed[0]).toMatch(/^[0-9a-f]{64}$/)
      expect(output).not.toContain(keysUsed[0]!)
      expect(output).not.toContain(Redacted.value(fake.bootstrapKey))
      const stored = yield* fake.apiKeys
      expect(stored.map((key) => [key.name, key.revoked])).toEqual([
        ["bootstrap", false],
        ["demo-tour", true]
      ])
    })
  )

  it.effect("statuses beyond the contract's four are named, with the section that explains them", () =>
    Effect.gen(function* () {
      const { lines } = yield* runTour(false)
      // The realistic seed's first project has cancelled, skipped and error operations.
      expect(lines).toContain(
        "  (skipped, cancelled and error: statuses the deployed platform answers beyond the contract's four (docs/contract.md, section 10.5): skipped ended well; cancelled and error ended badly.)"
      )
      // The wait's end names none: its operations all finished.
      expect(lines.filter((line) => line.includes("beyond the contract"))).toHaveLength(1)
    })
  )

  it.effect("read-only, it creates and revokes nothing", () =>
    Effect.gen(function* () {
      const { lines, fake } = yield* runTour(false)
      expect(lines.join("\n")).not.toContain("Created API key")
      expect(lines.at(-1)).toBe("Tour complete.")
      const posts = (yield* fake.requests).filter((request) => request.method !== "GET")
      expect(posts).toEqual([])
    })
  )
})
