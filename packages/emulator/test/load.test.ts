import * as NodeContext from "@effect/platform-node/NodeContext"
import { Seed } from "@dbplatform/testing"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Emulator from "../src/Emulator.js"
import * as Load from "../src/Load.js"

// The bounded form of `pnpm --filter @dbplatform/emulator load` (200 clients for 10 s against the
// built emulator in its own process): here 200 clients for 2 s, the emulator in this process.
describe("load", () => {
  it.live(
    "200 concurrent clients for 2 s: every request answered 200, every created key listed",
    () =>
      Effect.gen(function* () {
        const emulator = yield* Emulator.Emulator
        const report = yield* Load.run({
          baseUrl: emulator.baseUrl,
          apiKey: emulator.bootstrapKey,
          clients: 200,
          duration: "2 seconds"
        })
        console.log(`bounded load test (in-process emulator):\n${Load.format(report)}`)
        expect(report.unanswered).toBe(0)
        expect(Object.keys(report.byStatus)).toEqual(["200"])
        expect(report.answered).toBeGreaterThan(200)
        expect(report.keysCreated).toBeGreaterThan(0)
        expect(report.keysListed).toBe(report.keysCreated)
        expect(Load.isClean(report)).toBe(true)
      }).pipe(Effect.provide(Emulator.layer({ seed: Seed.realistic() })), Effect.provide(NodeContext.layer)),
    30_000
  )
})
