import { ApiKeys, DbPlatform, Projects } from "@dbplatform/client"
import { ApiKeyId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as TestClock from "effect/TestClock"
import { createHash } from "node:crypto"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import type { Seed } from "../src/Seed.js"
import { projectId } from "./helpers.js"

const seed: Seed = { projects: [{ id: projectId }] }
const provideFake = Effect.provide(DbPlatformTest.layer({ seed }))

/** Runs `self` with the client services authenticated by `apiKey`, over the same fake. */
const withKey = (apiKey: Redacted.Redacted<string>) =>
  Effect.provide(DbPlatform.layer({ baseUrl: DbPlatformTest.baseUrl, apiKey }))

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex")

describe("ApiKeys", () => {
  it.effect("a created key works as a bearer until revoked, and fails with Unauthorized right after", () =>
    Effect.gen(function* () {
      const apiKeys = yield* ApiKeys.ApiKeys
      const created = yield* apiKeys.create({ key_name: "ci-pipeline" })
      expect(Redacted.isRedacted(created.key)).toBe(true)
      expect(created.name).toBe("ci-pipeline")
      expect(String(created.key)).not.toContain(Redacted.value(created.key))

      const withNew = yield* Projects.Projects.pipe(
        Effect.flatMap((projects) => projects.listPage()),
        withKey(created.key)
      )
      expect(withNew.projects.map((project) => project.id)).toEqual([projectId])

      const revoked = yield* apiKeys.revoke({ key_id: created.id })
      expect(revoked.id).toBe(created.id)
      expect(revoked.name).toBe("ci-pipeline")
      expect(revoked.revoked).toBe(true)

      // No clock advance: revocation is immediate.
      const refused = yield* Projects.Projects.pipe(
        Effect.flatMap((projects) => projects.listPage()),
        withKey(created.key),
        Effect.flip
      )
      expect(refused._tag).toBe("Unauthorized")

      const again = yield* Effect.flip(apiKeys.revoke({ key_id: created.id }))
      expect(again._tag).toBe("NotFound")

      const listed = yield* apiKeys.listPage()
      expect(listed.map((key) => key.id)).not.toContain(created.id)
      expect(listed.map((key) => key.name)).toEqual(["bootstrap"])

      // The bootstrap key still works.
      const projects = yield* Projects.Projects
      expect((yield* projects.listPage()).projects).toHaveLength(1)
    }).pipe(provideFake)
  )

  it.effect("a revoked key can no longer manage keys either", () =>
    Effect.gen(function* () {
      const apiKeys = yield* ApiKeys.ApiKeys
      const created = yield* apiKeys.create({ key_name: "temporary" })
      yield* apiKeys.revoke({ key_id: created.id })
      const error = yield* ApiKeys.ApiKeys.pipe(
        Effect.flatMap((keys) => keys.create({ key_name: "sneaky" })),
        withKey(created.key),
        Effect.flip
      )
      expect(error._tag).toBe("Unauthorized")
      const fake = yield* FakePlatform.FakePlatform
      expect((yield* fake.apiKeys).map((key) => key.name)).toEqual(["bootstrap", "temporary"])
    }).pipe(provideFake)
  )

  it.effect("revoking an unknown id is NotFound", () =>
    Effect.gen(function* () {
      const apiKeys = yield* ApiKeys.ApiKeys
      const error = yield* Effect.flip(apiKeys.revoke({ key_id: ApiKeyId.make(424242) }))
      expect(error._tag).toBe("NotFound")
      if (error._tag === "NotFound") expect(error.status).toBe(404)
    }).pipe(provideFake)
  )

  it.effect("the fake stores SHA-256 hashes of keys, never their values", () =>
    Effect.gen(function* () {
      const apiKeys = yield* ApiKeys.ApiKeys
      const fake = yield* FakePlatform.FakePlatform
      const created = yield* apiKeys.create({ key_name: "deploy" })
      const bootstrap = Redacted.value(fake.bootstrapKey)
      const value = Redacted.value(created.key)
      expect(value).not.toBe(bootstrap)

      const stored = yield* fake.apiKeys
      expect(stored).toHaveLength(2)
      const dump = JSON.stringify(stored)
      expect(dump).not.toContain(bootstrap)
      expect(dump).not.toContain(value)
      for (const key of stored) expect(key.hash).toMatch(/^[0-9a-f]{64}$/)
      expect(stored.map((key) => key.hash)).toEqual([sha256(bootstrap), sha256(value)])

      // Neither is the value part of a list item.
      const listed = yield* apiKeys.listPage()
      expect(JSON.stringify(listed)).not.toContain(value)
      expect(JSON.stringify(listed)).not.toContain(bootstrap)
    }).pipe(provideFake)
  )

  it.effect("a seeded bootstrap key value is the one that authenticates", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      expect(Redacted.value(fake.bootstrapKey)).toBe("seeded-bootstrap-value")
      const error = yield* Projects.Projects.pipe(
        Effect.flatMap((projects) => projects.listPage()),
        withKey(Redacted.make("not-the-key")),
        Effect.flip
      )
      expect(error._tag).toBe("Unauthorized")
      const projects = yield* Projects.Projects
      expect((yield* projects.listPage()).projects).toHaveLength(1)
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed: { ...seed, bootstrapKey: "seeded-bootstrap-value" } })))
  )

  it.effect("tracks last_used_at: absent until a key is used, then the time of its latest use", () =>
    Effect.gen(function* () {
      const apiKeys = yield* ApiKeys.ApiKeys
      const created = yield* apiKeys.create({ key_name: "reporting" })

      const before = yield* apiKeys.listPage()
      const createdBefore = before.find((key) => key.id === created.id)!
      expect(Option.isNone(createdBefore.last_used_at)).toBe(true)
      expect(createdBefore.created_by?.name).toBeDefined()

      yield* TestClock.adjust("90 seconds")
      yield* Projects.Projects.pipe(
        Effect.flatMap((projects) => projects.listPage()),
        withKey(created.key)
      )
      yield* TestClock.adjust("30 seconds")

      const after = yield* apiKeys.listPage()
      const usedAt = (id: number) =>
        Option.map(after.find((key) => key.id === id)!.last_used_at, DateTime.toEpochMillis)
      expect(usedAt(created.id)).toEqual(Option.some(90_000))
      // The bootstrap key was used by this very list call, at 120 s.
      const bootstrap = after.find((key) => key.name === "bootstrap")!
      expect(usedAt(bootstrap.id)).toEqual(Option.some(120_000))
    }).pipe(provideFake)
  )

  it.effect("create refuses a blank name before sending anything", () =>
    Effect.gen(function* () {
      const apiKeys = yield* ApiKeys.ApiKeys
      const fake = yield* FakePlatform.FakePlatform
      const error = yield* Effect.flip(apiKeys.create({ key_name: "  " }))
      expect(error._tag).toBe("InvalidRequest")
      const tooLong = yield* Effect.flip(apiKeys.create({ key_name: "k".repeat(65) }))
      expect(tooLong._tag).toBe("InvalidRequest")
      expect(yield* fake.requests).toEqual([])
      expect(yield* fake.apiKeys).toHaveLength(1)
    }).pipe(provideFake)
  )
})
