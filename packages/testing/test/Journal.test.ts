import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as FakePlatform from "../src/FakePlatform.js"
import type { SnapshotChange } from "../src/Snapshot.js"
import { isGeneralError, projectId, read, send } from "./helpers.js"

const seed = { bootstrapKey: "journal-test-key", projects: [{ id: projectId }] }

/** A journal that keeps the changes it is told, and whose `sync` waits for `durable` when set. */
const recording = (sync: Effect.Effect<void, { readonly message: string }> = Effect.void) => {
  const changes: Array<SnapshotChange> = []
  /** The changes of each `record` call. */
  const commits: Array<ReadonlyArray<SnapshotChange>> = []
  const journal: FakePlatform.Journal = {
    record: (recorded) =>
      Effect.sync(() => {
        commits.push(recorded)
        changes.push(...recorded)
      }),
    sync
  }
  return { changes, commits, journal }
}

describe("FakePlatform journal", () => {
  it.effect("is told each change with the whole record after it, in order; reads are not changes", () =>
    Effect.gen(function* () {
      const { changes, commits, journal } = recording()
      const fake = yield* FakePlatform.make(seed, { journal })
      expect(changes).toEqual([])
      const created = yield* read(
        yield* send(
          fake,
          HttpClientRequest.post("/api_keys").pipe(HttpClientRequest.bodyUnsafeJson({ key_name: "ci" })),
          {
            key: fake.bootstrapKey
          }
        )
      )
      yield* send(fake, HttpClientRequest.get("/projects"), { key: fake.bootstrapKey })
      yield* send(fake, HttpClientRequest.get("/api_keys"), { key: fake.bootstrapKey })
      yield* send(fake, HttpClientRequest.del(`/api_keys/${created.body.id}`), { key: fake.bootstrapKey })
      yield* fake.scenario.addProject({ id: "late-river-118737" })
      const started = yield* fake.scenario.startOperations(projectId, [{ action: "create_branch", runsFor: "1 hour" }])
      const operationId = started.operations[0]!.id
      yield* fake.scenario.failOperation(projectId, operationId, { error: "boom", retryIn: "1 minute" })

      expect(changes.map((change) => (change._tag === "State" ? "State" : `${change._tag} ${change.kind}`))).toEqual([
        "Upsert api_keys",
        "Upsert api_keys",
        "Upsert projects",
        // A new project comes with its default branch.
        "Upsert branches",
        "Upsert operations",
        "Upsert operations"
      ])
      expect(changes[0]).toMatchObject({ item: { id: created.body.id, name: "ci", revoked: false } })
      expect(changes[1]).toMatchObject({ item: { id: created.body.id, revoked: true } })
      expect(changes[2]).toMatchObject({ item: { id: "late-river-118737" } })
      expect(changes[3]).toMatchObject({ item: { project_id: "late-river-118737", name: "main", default: true } })
      // The failure's fields are in the same change as its new steps.
      expect(changes[5]).toMatchObject({
        item: { id: operationId, failures_count: 1, error: "boom", retry_at: expect.any(Number) }
      })
      // One `record` per mutation, with all its changes: the project and its default branch together.
      expect(commits.map((commit) => commit.length)).toEqual([1, 1, 2, 1, 1])
      const snapshot = yield* fake.snapshot
      expect(snapshot.operations.find((operation) => operation.id === operationId)).toEqual(
        (changes[5] as Extract<SnapshotChange, { _tag: "Upsert" }>).item
      )
    })
  )

  it.effect("a request and a scenario call are answered only once sync has succeeded", () =>
    Effect.gen(function* () {
      const durable = yield* Deferred.make<void>()
      const { changes, journal } = recording(Deferred.await(durable))
      const fake = yield* FakePlatform.make(seed, { journal })
      const request = yield* Effect.fork(
        send(fake, HttpClientRequest.post("/api_keys").pipe(HttpClientRequest.bodyUnsafeJson({ key_name: "ci" })), {
          key: fake.bootstrapKey
        })
      )
      const scenario = yield* Effect.fork(fake.scenario.addApiKey("scenario"))
      // Let both run up to their sync (the request reads its body first): turns of the event loop, no timer.
      for (let turn = 0; changes.length < 2 && turn < 10_000; turn++) {
        yield* Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))
      }
      // Both changes are made in memory, neither is answered yet.
      expect(changes).toHaveLength(2)
      expect(Option.isNone(yield* Fiber.poll(request))).toBe(true)
      expect(Option.isNone(yield* Fiber.poll(scenario))).toBe(true)
      yield* Deferred.succeed(durable, undefined)
      expect((yield* Fiber.join(request)).status).toBe(200)
      expect((yield* Fiber.join(scenario)).name).toBe("scenario")
    })
  )

  it.effect("when sync fails, a request is answered 503 with a GeneralError (never 200), a scenario call dies", () =>
    Effect.gen(function* () {
      const { changes, journal } = recording(Effect.fail({ message: "no space left on device" }))
      const fake = yield* FakePlatform.make(seed, { journal })
      const refused = yield* read(
        yield* send(
          fake,
          HttpClientRequest.post("/api_keys").pipe(HttpClientRequest.bodyUnsafeJson({ key_name: "ci" })),
          {
            key: fake.bootstrapKey
          }
        )
      )
      expect(refused.status).toBe(503)
      expect(isGeneralError(refused.body)).toBe(true)
      expect(refused.body.message).toContain("no space left on device")
      expect(changes).toHaveLength(1)
      const exit = yield* Effect.exit(fake.scenario.addProject({ id: "late-river-118737" }))
      expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
    })
  )
})
