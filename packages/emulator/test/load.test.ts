import * as NodeContext from "@effect/platform-node/NodeContext"
import { Seed } from "@dbplatform/testing"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Emulator from "../src/Emulator.js"
import * as Load from "../src/Load.js"

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
    }).pipe(Effect.provide(Emulator.layer({ seed: Seed.realistic() })), Effect.provide(NodeContext.layer))
  )
})
