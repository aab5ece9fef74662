/**
 * A branch's credentials over the fake, through the client (docs/contract.md §11.7): one created
 * (its two secrets once, `Redacted`), listed without them, revoked (still listed, no longer
 * active), revoked again (idempotent); what the platform refuses; a seed's credentials; and a
 * saved state that holds no secret.
 */
import { Credentials } from "@dbplatform/client"
import { BranchId, ProjectId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import { Snapshot } from "../src/Snapshot.js"
import { projectId } from "./helpers.js"

const main = BranchId.make("br-main-100001")
const branch = { project_id: ProjectId.make(projectId), branch_id: main }
const seededToken = `nat_live_${"5eed".repeat(16)}`

const provideFake = Effect.provide(
  DbPlatformTest.layer({
    seed: {
      projects: [{ id: projectId }],
      branches: [{ project_id: projectId, id: main, name: "main", default: true }],
      credentials: [
        { branch_id: main, api_token: seededToken, name: "seeded", scopes: ["ai_gateway:invoke"], age: "1 day" }
      ]
    },
    client: { retrySchedule: Schedule.stop }
  })
)

/** The branch's credentials, as `list` streams them. */
const listed = Effect.flatMap(Credentials.Credentials, (credentials) =>
  Effect.map(Stream.runCollect(credentials.list(branch)), (chunk) => Array.from(chunk))
)

describe("credentials over the fake (docs/contract.md §11.7)", () => {
  it.effect("created (secrets once, Redacted), listed without them, revoked: no longer active, revoked again", () =>
    Effect.gen(function* () {
      const credentials = yield* Credentials.Credentials
      const created = yield* credentials.create({
        ...branch,
        name: "ci",
        scopes: ["storage:read", "storage:write"],
        principal_type: "user"
      })
      expect(created.token_id).toMatch(/^nak_live_[0-9a-f]{32}$/)
      expect(created.token_id_short).toBe(created.token_id.slice(9, 21))
      expect(Redacted.value(created.s3_secret_access_key)).toMatch(/^nsk_live_[0-9a-f]{64}$/)
      expect(Redacted.value(created.api_token).length).toBeGreaterThan(32)
      expect(JSON.stringify(created)).not.toContain(Redacted.value(created.api_token))
      expect([created.name, created.scopes, created.branch_id]).toEqual(["ci", ["storage:read", "storage:write"], main])

      yield* TestClock.adjust("1 minute")
      const before = yield* listed
      expect(before.map((one) => [one.name, one.revoked_at])).toEqual([
        ["ci", undefined],
        ["seeded", undefined]
      ])
      const page = yield* credentials.listPage(branch)
      const wire = JSON.stringify(page)
      expect(wire).not.toContain(Redacted.value(created.api_token))
      expect(wire).not.toContain(Redacted.value(created.s3_secret_access_key))
      expect(wire).not.toContain("api_token")

      yield* credentials.revoke({ ...branch, token_id: created.token_id })
      const after = yield* listed
      const revoked = after.find((one) => one.token_id === created.token_id)!
      expect(revoked.revoked_at).toBeDefined()
      // Active: the credentials without a revoked_at.
      expect(after.filter((one) => one.revoked_at === undefined).map((one) => one.name)).toEqual(["seeded"])
      yield* TestClock.adjust("1 minute")
      yield* credentials.revoke({ ...branch, token_id: created.token_id })
      expect((yield* listed).find((one) => one.token_id === created.token_id)?.revoked_at).toEqual(revoked.revoked_at)
    }).pipe(provideFake)
  )

  it.effect(
    "refuses an unknown credential or branch (NotFound), scopes it does not take (InvalidRequest, nothing sent)",
    () =>
      Effect.gen(function* () {
        const credentials = yield* Credentials.Credentials
        const unknown = yield* Effect.flip(
          credentials.revoke({ ...branch, token_id: "nak_live_00000000000000000000000000000000" })
        )
        expect(unknown._tag).toBe("NotFound")
        const noBranch = yield* Effect.flip(
          credentials.listPage({ ...branch, branch_id: BranchId.make("br-none-100009") })
        )
        expect(noBranch._tag).toBe("NotFound")
        for (const scopes of [[], ["storage:admin"], Array.from({ length: 17 }, () => "storage:read")]) {
          const refused = yield* Effect.flip(
            credentials.create({ ...branch, scopes: scopes as Array<"storage:read">, principal_type: "user" })
          )
          expect(refused._tag).toBe("InvalidRequest")
        }
      }).pipe(provideFake)
  )

  it.effect(
    "a saved state keeps no secret (the token's SHA-256 only), loads again, and a deleted branch takes its credentials",
    () =>
      Effect.gen(function* () {
        const fake = yield* FakePlatform.FakePlatform
        const credentials = yield* Credentials.Credentials
        const created = yield* credentials.create({ ...branch, scopes: ["functions:invoke"], principal_type: "user" })
        const saved = JSON.stringify(Schema.encodeSync(Snapshot)(yield* fake.snapshot))
        for (const secret of [created.api_token, created.s3_secret_access_key]) {
          expect(saved).not.toContain(Redacted.value(secret))
        }
        expect(saved).not.toContain(seededToken)
        expect(saved).toContain(created.token_id)
        yield* fake.restore(Schema.decodeUnknownSync(Snapshot)(JSON.parse(saved)))
        expect((yield* listed).map((one) => one.scopes)).toEqual([["functions:invoke"], ["ai_gateway:invoke"]])
      }).pipe(provideFake)
  )
})
