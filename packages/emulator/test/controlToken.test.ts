/**
 * A control token given to the emulator must be usable as one: not empty, no whitespace, and
 * not the bootstrap API key (one credential would then open both the platform's routes and the
 * control API). Refused when the layer is built, with a reason that never holds the token.
 */
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
        ["", "is empty or holds whitespace"],
        ["two words", "is empty or holds whitespace"],
        [bootstrapKey, "is the bootstrap API key"]
      ] as const) {
        const error = yield* Effect.flip(build(token))
        expect(error._tag).toBe("InvalidControlToken")
        expect(error.message).toContain(reason)
        if (token !== "") expect(error.message).not.toContain(token)
      }
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
