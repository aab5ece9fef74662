/**
 * The emulator's control API through its typed client (`ControlApi.client` of
 * `@dbplatform/testing`), against the shipped command running as a process, as an Effect test
 * of a program that takes a URL would drive it: freeze and advance the clock, load a seed,
 * inject a fault and see the platform's routes answer it, read the request log, and get each
 * refusal as a `ControlError` with its status. The same routes answer `fetch` as they always
 * did (`http-only.test.mjs` calls every one of them that way).
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { ControlApi } from "@dbplatform/testing"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll } from "vitest"
import { send, start } from "./spawned.js"

const dir = mkdtempSync(join(tmpdir(), "dbplatform-control-client-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const apiKey = "control-client-key"
const token = "control-client-control-token"
const project = "control-client-project"

/** The emulator on a seed of one project, stopped (SIGTERM, exit 0) with the scope. */
const emulator = Effect.acquireRelease(
  Effect.promise(() => {
    const seed = join(dir, "seed.json")
    writeFileSync(seed, JSON.stringify({ projects: [{ id: project }] }))
    return start(["--seed", seed, "--port", "0"], { DBPLATFORM_EMULATOR_KEY: apiKey, DBPLATFORM_EMULATOR_TOKEN: token })
  }),
  (running) =>
    Effect.promise(async () => {
      running.child.kill("SIGTERM")
      expect(await running.exited).toBe(0)
    })
)

describe("the emulator's control API through its typed client", () => {
  it.scopedLive("freezes and advances the clock, loads a seed, injects a fault, reads the request log", () =>
    Effect.gen(function* () {
      const running = yield* emulator
      const control = yield* ControlApi.client({ url: running.controlUrl, token: Redacted.make(token) })
      /** `GET path` of the platform's routes with the account's key, by `fetch`. */
      const api = (path: string) => Effect.promise(() => send("GET", `${running.baseUrl}${path}`, apiKey))

      // The clock: frozen where it stands, then moved at once.
      const frozen = yield* control.freeze()
      expect(frozen.frozen).toBe(true)
      const advanced = yield* control.advance({ payload: { by: "10 minutes" } })
      expect(advanced).toEqual({
        now: new Date(frozen.now_ms + 600_000).toISOString(),
        now_ms: frozen.now_ms + 600_000,
        frozen: true
      })
      // The same route read by `fetch`, as curl or Python reads it: the same answer.
      expect((yield* Effect.promise(() => send("GET", `${running.controlUrl}/clock`, token))).body).toEqual(advanced)

      // A seed replaces the account's projects; the platform's routes serve it at once.
      const seeded = yield* control.seed({
        payload: { projects: [{ id: "first-river-1" }, { id: "second-river-2", name: "second" }] }
      })
      expect(seeded).toEqual({ api_keys: 1, projects: 2, operations: 0 })
      const listed = yield* api("/projects")
      expect(listed.body.projects.map((p: { id: string }) => p.id).sort()).toEqual(["first-river-1", "second-river-2"])

      // A fault: the next GET /projects gets a 503, the one after it the real answer.
      const pending = yield* control.injectFault({
        payload: { fault: { _tag: "Status", status: 503 }, method: "GET", path: "/projects", times: 1 }
      })
      expect(pending).toMatchObject({ method: "GET", path: "/projects", remaining: 1 })
      expect((yield* control.faults()).faults).toHaveLength(1)
      expect((yield* api("/projects")).status).toBe(503)
      expect((yield* api("/projects")).status).toBe(200)
      expect((yield* control.faults()).faults).toEqual([])

      // The request log: the last two requests, the fault named, the key redacted.
      const log = yield* control.requests({ urlParams: { limit: 2 } })
      expect(log.requests.map((request) => [request.method, request.path, request.fault ?? null])).toEqual([
        ["GET", "/api/v2/projects", "Status"],
        ["GET", "/api/v2/projects", null]
      ])
      expect(log.requests[0]!.headers.authorization).toBe("Bearer <redacted>")
      expect(JSON.stringify(log)).not.toContain(apiKey)

      // Refusals come back as ControlErrors, with the answer's status and GeneralError body.
      const unknown = yield* Effect.flip(control.connect({ path: { endpoint_id: "ep-none-000000" } }))
      expect(unknown).toMatchObject({ _tag: "ControlError", status: 404 })
      expect(unknown._tag === "ControlError" && unknown.message).toMatch(/ep-none-000000/)
      const stranger = yield* ControlApi.client({ url: running.controlUrl, token: Redacted.make(apiKey) })
      expect(yield* Effect.flip(stranger.clock())).toMatchObject({ _tag: "ControlError", status: 401 })
      // A limit the declaration refuses is not sent at all.
      expect((yield* Effect.flip(control.requests({ urlParams: { limit: 0 } })))._tag).toBe("ParseError")

      // A reset puts back the seed file the emulator started from, and the clock on real time.
      expect(yield* control.reset()).toEqual({ api_keys: 1, projects: 1, operations: 0 })
      expect((yield* control.clock()).frozen).toBe(false)
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )
})
