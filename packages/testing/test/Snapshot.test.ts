import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import * as FakePlatform from "../src/FakePlatform.js"
import type { Seed } from "../src/Seed.js"
import { Snapshot, SnapshotFromJson } from "../src/Snapshot.js"
import { operationId, projectId, read, send } from "./helpers.js"

const seed: Seed = {
  bootstrapKey: "emulator-bootstrap-key",
  projects: [{ id: projectId }],
  operations: [{ project_id: projectId, id: operationId(1), action: "create_timeline", age: "1 day" }]
}

const operationsOf = (fake: FakePlatform.Service) =>
  Effect.flatMap(
    send(fake, HttpClientRequest.get(`/projects/${projectId}/operations`), { key: fake.bootstrapKey }),
    read
  )

describe("snapshot and restore", () => {
  it.effect("a restored fake has the same keys (hashes only), projects and operations, moving on with the Clock", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make(seed)
      const created = yield* fake.scenario.addApiKey("ci")
      const revoked = yield* fake.scenario.addApiKey("old")
      yield* send(fake, HttpClientRequest.del(`/api_keys/${revoked.id}`), { key: fake.bootstrapKey })
      yield* fake.scenario.addProject({ id: "late-river-118737" })
      const started = yield* fake.scenario.startOperations(projectId, [
        { action: "create_branch", runsFor: "3 seconds" },
        { action: "start_compute", runsFor: "5 seconds" }
      ])
      yield* fake.scenario.failOperation(projectId, started.operations[1]!.id, { error: "boom", retryIn: "1 minute" })
      const before = yield* operationsOf(fake)

      const json = yield* Schema.encode(SnapshotFromJson)(yield* fake.snapshot)
      expect(json).not.toContain(Redacted.value(created.key))
      expect(json).not.toContain("emulator-bootstrap-key")

      const restored = yield* FakePlatform.restore(yield* Schema.decode(SnapshotFromJson)(json), {
        bootstrapKey: "emulator-bootstrap-key"
      })
      expect(yield* restored.apiKeys).toEqual(yield* fake.apiKeys)
      expect(yield* operationsOf(restored)).toEqual(yield* operationsOf(fake))
      expect((yield* operationsOf(restored)).body.operations).toHaveLength(before.body.operations.length)
      const projects = yield* read(
        yield* send(restored, HttpClientRequest.get("/projects"), { key: restored.bootstrapKey })
      )
      expect(projects.body.projects.map((project: any) => project.id)).toEqual(["late-river-118737", projectId])
      // The created key works after the restore; the revoked one stays refused.
      expect((yield* send(restored, HttpClientRequest.get("/api_keys"), { key: created.key })).status).toBe(200)
      expect((yield* send(restored, HttpClientRequest.get("/api_keys"), { key: revoked.key })).status).toBe(401)
      // New keys do not reuse ids.
      expect((yield* restored.scenario.addApiKey("next")).id).toBeGreaterThan(revoked.id)

      yield* TestClock.adjust("3 seconds")
      const branch = (yield* operationsOf(restored)).body.operations.find((o: any) => o.action === "create_branch")
      expect(branch.status).toBe("finished")
    })
  )

  it.effect("without a known bootstrap key value, a restore adds a new bootstrap key; a revoked one is refused", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make(seed)
      const snapshot = yield* fake.snapshot
      const restored = yield* FakePlatform.restore(snapshot)
      expect((yield* restored.apiKeys).map((key) => key.name)).toEqual(["bootstrap", "bootstrap"])
      expect((yield* send(restored, HttpClientRequest.get("/projects"), { key: restored.bootstrapKey })).status).toBe(
        200
      )
      const revokedBootstrap = {
        ...snapshot,
        api_keys: snapshot.api_keys.map((key) => ({ ...key, revoked: true }))
      }
      const refused = yield* Effect.flip(
        FakePlatform.restore(revokedBootstrap, { bootstrapKey: "emulator-bootstrap-key" })
      )
      expect(refused.message).toContain("revoked")
    })
  )

  it.effect("a snapshot with repeated ids, an operation of an unknown project or a bad org_id is InvalidSeed", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make(seed)
      const snapshot = yield* fake.snapshot
      const broken: Snapshot = {
        ...snapshot,
        projects: [...snapshot.projects, snapshot.projects[0]!],
        operations: [...snapshot.operations, { ...snapshot.operations[0]!, project_id: "nope" }]
      }
      const error = yield* Effect.flip(FakePlatform.restore(broken))
      expect(error._tag).toBe("InvalidSeed")
      expect(error.problems).toHaveLength(2)
      const badOrg: Snapshot = {
        ...snapshot,
        projects: snapshot.projects.map((project, i) => (i === 0 ? { ...project, org_id: "Org One" } : project))
      }
      const refusedOrg = yield* Effect.flip(FakePlatform.restore(badOrg))
      expect(refusedOrg.problems).toEqual([
        `project ${snapshot.projects[0]!.id}: org_id must be 1 to 60 of a-z, 0-9 and -`
      ])
      const badJson = yield* Effect.flip(Schema.decode(SnapshotFromJson)('{"version":2}'))
      expect(badJson._tag).toBe("ParseError")
      expect(Schema.is(Snapshot)(snapshot)).toBe(true)
    })
  )
})
