/**
 * A control token given to the emulator must be usable as one: not empty, no whitespace, and
 * not the bootstrap API key, nothing but printable ASCII (one credential would then open both the platform's routes and the
 * control API). Refused when the layer is built, with a reason that never holds the token.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { Emulator } from "../src/index.js"

const bootstrapKey = "emulator-bootstrap-key-for-this-test"

const build = (controlToken: string) =>
  Layer.build(
    Emulator.layer({ bootstrapKey: Redacted.make(bootstrapKey), controlToken: Redacted.make(controlToken) })
  ).pipe(Effect.scoped, Effect.provide(NodeContext.layer))

describe("Emulator.layer's control token", () => {
  it.effect("refuses an empty token, one with whitespace, and the bootstrap key, never printing it", () =>
    Effect.gen(function* () {
      for (const [token, reason] of [
        ["", "is empty or holds a character other than printable ASCII"],
        ["two words", "is empty or holds a character other than printable ASCII"],
        ["\u0442\u043e\u043a\u0435\u043d", "is empty or holds a character other than printable ASCII"],
        [bootstrapKey, "is the bootstrap API key"]
      ] as const) {
        const error = yield* Effect.flip(build(token))
        expect(error._tag).toBe("InvalidControlToken")
        expect(error.message).toContain(reason)
        if (token !== "") expect(error.message).not.toContain(token)
      }
    })
  )

  it.effect("refused before the state file is touched: no journal is left behind", () =>
    Effect.gen(function* () {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dbplatform-token-"))
      const statePath = path.join(dir, "state.json")
      const error = yield* Effect.flip(
        Layer.build(
          Emulator.layer({
            statePath,
            bootstrapKey: Redacted.make(bootstrapKey),
            controlToken: Redacted.make(bootstrapKey)
          })
        ).pipe(Effect.scoped, Effect.provide(NodeContext.layer))
      )
      expect(error._tag).toBe("InvalidControlToken")
      expect(fs.readdirSync(dir)).toEqual([])
      fs.rmSync(dir, { recursive: true, force: true })
    })
  )

  it.effect("serves with a token of its own", () =>
    Effect.gen(function* () {
      const emulator = yield* Emulator.Emulator
      expect(Option.map(emulator.controlToken, Redacted.value)).toEqual(Option.some("a-control-token-of-its-own"))
    }).pipe(
      Effect.provide(
        Emulator.layer({
          bootstrapKey: Redacted.make(bootstrapKey),
          controlToken: Redacted.make("a-control-token-of-its-own")
        })
      ),
      Effect.provide(NodeContext.layer)
    )
  )
})
