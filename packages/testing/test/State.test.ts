/**
 * `FakePlatform.Service.reset`, `load` and `restore`: the state of a running fake replaced, the
 * bootstrap key kept valid, a refused change leaving the state as it was; `faults.list`.
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import * as FakePlatform from "../src/FakePlatform.js"
import * as Fault from "../src/Fault.js"
import { projectId, read, send } from "./helpers.js"

const seed = { bootstrapKey: "state-test-key", projects: [{ id: projectId }] }
const projectIds = (fake: FakePlatform.Service) =>
  Effect.map(
    Effect.flatMap(send(fake, HttpClientRequest.get("/projects"), { key: fake.bootstrapKey }), read),
    ({ body }) => body.projects.map((project: { readonly id: string }) => project.id)
  )

describe("FakePlatform state", () => {
  it.effect("reset builds the seed again at the Clock's time now, with the same bootstrap key", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make(seed)
      yield* fake.scenario.addProject({ id: "added-later-1" })
      const revoked = yield* fake.scenario.addApiKey("to go")
      yield* TestClock.adjust("1 hour")
      yield* fake.reset
      expect(yield* projectIds(fake)).toEqual([projectId])
      const snapshot = yield* fake.snapshot
      expect(snapshot.api_keys.map((key) => [key.id, key.name])).toEqual([[1_000_001, "bootstrap"]])
      expect(snapshot.projects[0]!.created_at).toBe(3_600_000 - 30 * 24 * 3_600_000)
      const old = yield* Effect.flatMap(send(fake, HttpClientRequest.get("/projects"), { key: revoked.key }), read)
      expect(old.status).toBe(401)
    })
  )

  it.effect("load and restore refuse what they cannot serve and leave the state as it was", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make(seed)
      const before = yield* fake.snapshot
      const bad = yield* Effect.flip(fake.load({ projects: [{ id: "Bad Id" }] }))
      expect(bad.problems[0]).toMatch(/Bad Id/)
      const otherKey = yield* Effect.flip(fake.load({ bootstrapKey: "another" }))
      expect(otherKey.problems[0]).toMatch(/bootstrapKey differs/)
      // A snapshot in which the bootstrap key is revoked would lock the test out.
      const bootstrap = before.api_keys[0]!
      const locked = yield* Effect.flip(fake.restore({ ...before, api_keys: [{ ...bootstrap, revoked: true }] }))
      expect(locked.problems[0]).toMatch(/revoked/)
      expect(yield* fake.snapshot).toEqual(before)
      // The same seed with its own bootstrapKey is fine.
      yield* fake.load({ ...seed, projects: [{ id: "loaded-1" }] })
      expect(yield* projectIds(fake)).toEqual(["loaded-1"])
    })
  )

  it.effect("faults.list shows the pending faults in injection order with what is left of each", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make(seed)
      yield* fake.faults.inject(Fault.status(503), { method: "get", path: "/projects", times: 2 })
      yield* fake.faults.inject(Fault.drop, { times: Number.POSITIVE_INFINITY })
      yield* send(fake, HttpClientRequest.get("/projects"), { key: fake.bootstrapKey })
      expect(yield* fake.faults.list).toEqual([
        { fault: Fault.status(503), method: "GET", path: "/projects", remaining: 1 },
        { fault: Fault.drop, method: undefined, path: undefined, remaining: Number.POSITIVE_INFINITY }
      ])
      yield* fake.faults.clear
      expect(yield* fake.faults.list).toEqual([])
    })
  )
})
