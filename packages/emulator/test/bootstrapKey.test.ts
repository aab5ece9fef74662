/**
 * A bootstrap key given to the emulator (`DBPLATFORM_EMULATOR_KEY`, `Options.bootstrapKey`): it
 * must be one an HTTP header can carry, and it is valid at every start, even when an earlier run
 * revoked it through the API, so that a state file the emulator wrote always loads.
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
import { Emulator, StateFile } from "../src/index.js"

const bootstrapKey = "a-fixed-bootstrap-key"

/** `method url` with the key, answering the status and the JSON body. */
const send = (method: string, url: string, key: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, { method, headers: { authorization: `Bearer ${key}` } })
    return { status: response.status, body: (await response.json()) as any }
  })

/** Runs `use` on an emulator started with the fixed key on `statePath`, then stops it. */
const run = <A>(statePath: string, use: (emulator: Emulator.Service) => Effect.Effect<A>) =>
  Effect.flatMap(Emulator.Emulator, use).pipe(
    Effect.provide(Emulator.layer({ statePath, bootstrapKey: Redacted.make(bootstrapKey) })),
    Effect.provide(NodeContext.layer)
  )

const stateDir = Effect.acquireRelease(
  Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "dbplatform-bootstrap-"))),
  (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
)

describe("Emulator.layer's bootstrap key", () => {
  it.scoped(
    "revoked through the API, it is valid again at the next start with the same key: the state file loads",
    () =>
      Effect.gen(function* () {
        const statePath = path.join(yield* stateDir, "state.json")
        yield* run(statePath, (emulator) =>
          Effect.gen(function* () {
            const keys = yield* send("GET", `${emulator.baseUrl}/api_keys`, bootstrapKey)
            const bootstrap = keys.body.find((key: any) => key.name === "bootstrap")
            const revoked = yield* send("DELETE", `${emulator.baseUrl}/api_keys/${bootstrap.id}`, bootstrapKey)
            expect(revoked.status).toBe(200)
            expect(revoked.body.revoked).toBe(true)
            // Revoked for the rest of this run, as the platform does.
            expect((yield* send("GET", `${emulator.baseUrl}/projects`, bootstrapKey)).status).toBe(401)
          })
        )
        // The revocation was saved...
        const saved = Option.getOrThrow(yield* StateFile.load(statePath))
        expect(saved.api_keys.find((key) => key.name === "bootstrap")?.revoked).toBe(true)
        // ...and the next start on that file, with the same key, serves it with the key valid again.
        const restarted = yield* run(statePath, (emulator) =>
          Effect.gen(function* () {
            expect(emulator.restored).toBe(true)
            return yield* send("GET", `${emulator.baseUrl}/api_keys`, bootstrapKey)
          })
        )
        expect(restarted.status).toBe(200)
        expect(restarted.body.map((key: any) => key.name)).toEqual(["bootstrap"])
        // The same key record (its id kept), saved valid.
        const after = Option.getOrThrow(yield* StateFile.load(statePath))
        // (The realistic account's organization keys beside it are not the bootstrap key's concern.)
        const personal = (snapshot: typeof after) => snapshot.api_keys.filter((key) => key.org_id === undefined)
        expect(personal(after).map((key) => [key.id, key.revoked])).toEqual([[personal(saved)[0]!.id, false]])
      }).pipe(Effect.provide(NodeContext.layer))
  )

  it.scoped("one an HTTP header cannot carry is refused before the state file is touched, never printing it", () =>
    Effect.gen(function* () {
      const dir = yield* stateDir
      for (const key of ["", "k x", "tab\tkey", "key\n", "\u043a\u043b\u044e\u0447"]) {
        const error = yield* Effect.flip(
          Layer.build(Emulator.layer({ statePath: path.join(dir, "state.json"), bootstrapKey: Redacted.make(key) }))
        )
        expect(error._tag).toBe("InvalidBootstrapKey")
        expect(error.message).toContain("the bootstrap key (DBPLATFORM_EMULATOR_KEY)")
        expect(error.message).toContain("could not be sent in a header")
        if (key.trim() !== "") expect(error.message).not.toContain(key)
      }
      // A seed's key too (a seed file refuses only an empty one, or spaces around it).
      const error = yield* Effect.flip(
        Layer.build(Emulator.layer({ statePath: path.join(dir, "state.json"), seed: { bootstrapKey: "k x" } }))
      )
      expect(error.message).toBe(
        "the bootstrap key (the seed's bootstrapKey) is empty or holds a character other than printable ASCII (no spaces): it could not be sent in a header"
      )
      expect(fs.readdirSync(dir)).toEqual([])
    }).pipe(Effect.provide(NodeContext.layer))
  )
})
