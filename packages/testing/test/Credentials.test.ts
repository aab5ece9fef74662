/**
 * A branch's credentials over the fake, through the client (docs/contract.md §11.7): one created
 * (its two secrets once, `Redacted`), listed without them, revoked (still listed, no longer
 * active), revoked again (idempotent); what the platform refuses; a seed's credentials; a
 * saved state that holds no bearer token; and the credential's S3 keys listing a bucket on the
 * fake's data plane with ListObjectsV2 signed by AWS Signature V4, refused once revoked or
 * expired, without `storage:read` or on another branch.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Buckets, Credentials, Storage } from "@dbplatform/client"
import { BranchId, ProjectId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import { Snapshot } from "../src/Snapshot.js"
import { elements, projectId, s3Get } from "./helpers.js"

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
    "a saved state keeps no bearer token (its SHA-256 only), the S3 secret (as a role's password), loads again, and a deleted branch takes its credentials",
    () =>
      Effect.gen(function* () {
        const fake = yield* FakePlatform.FakePlatform
        const credentials = yield* Credentials.Credentials
        const created = yield* credentials.create({ ...branch, scopes: ["functions:invoke"], principal_type: "user" })
        const saved = JSON.stringify(Schema.encodeSync(Snapshot)(yield* fake.snapshot))
        expect(saved).not.toContain(Redacted.value(created.api_token))
        // The S3 secret is kept, to recompute S3 signatures (docs/contract.md §11.7): a state with credentials is a secret.
        expect(saved).toContain(Redacted.value(created.s3_secret_access_key))
        expect(saved).not.toContain(seededToken)
        expect(saved).toContain(created.token_id)
        yield* fake.restore(Schema.decodeUnknownSync(Snapshot)(JSON.parse(saved)))
        expect((yield* listed).map((one) => one.scopes)).toEqual([["functions:invoke"], ["ai_gateway:invoke"]])
      }).pipe(provideFake)
  )
})

describe("a credential's S3 keys on the data plane (docs/contract.md §11.7, §28.7)", () => {
  const dev = BranchId.make("br-dev-100002")
  const provideStorage = Effect.provide(
    DbPlatformTest.layer({
      seed: {
        projects: [{ id: projectId, region_id: "aws-us-east-2" }],
        branches: [
          { project_id: projectId, id: main, name: "main", default: true },
          { project_id: projectId, id: dev, name: "dev", parent_id: main }
        ]
      },
      client: { retrySchedule: Schedule.stop }
    })
  )

  it.effect(
    "created with storage:read, lists a bucket's objects with ListObjectsV2 signed by SigV4; revoked, refused (403 InvalidAccessKeyId)",
    () =>
      Effect.gen(function* () {
        const buckets = yield* Buckets.Buckets
        const credentials = yield* Credentials.Credentials
        yield* buckets.create({ ...branch, name: "assets" })
        for (const key of ["site/a.txt", "site/b.txt", "notes.md"]) {
          const presigned = yield* buckets.presignObject({
            ...branch,
            bucket_name: "assets",
            object_key: key,
            operation: "upload",
            content_type: "text/plain"
          })
          const put = yield* HttpClient.execute(
            HttpClientRequest.put(Redacted.value(presigned.url)).pipe(
              HttpClientRequest.bodyText(`content of ${key}`, "text/plain"),
              HttpClientRequest.setHeaders(presigned.headers)
            )
          )
          expect(put.status).toBe(200)
        }
        const storage = yield* (yield* Storage.Storage).get(branch)
        expect([storage.region, storage.force_path_style]).toEqual(["us-east-2", true])
        const reader = yield* credentials.create({
          ...branch,
          name: "reader",
          scopes: ["storage:read"],
          principal_type: "user"
        })
        const keys = { accessKeyId: reader.token_id, secretAccessKey: Redacted.value(reader.s3_secret_access_key) }

        const all = yield* s3Get(storage, keys, "/assets", { "list-type": "2" })
        expect([all.status, all.keys]).toEqual([200, ["notes.md", "site/a.txt", "site/b.txt"]])
        expect(all.body).toContain("<KeyCount>3</KeyCount>")
        expect(elements(all.body, "Size")).toEqual(["19", "21", "21"])
        // A page of one under a prefix, then the next by its continuation token; folders at a delimiter.
        const first = yield* s3Get(storage, keys, "/assets", { "list-type": "2", prefix: "site/", "max-keys": "1" })
        expect([first.keys, first.next !== undefined, elements(first.body, "IsTruncated")]).toEqual([
          ["site/a.txt"],
          true,
          ["true"]
        ])
        const second = yield* s3Get(storage, keys, "/assets", {
          "list-type": "2",
          prefix: "site/",
          "max-keys": "1",
          "continuation-token": first.next!
        })
        expect([second.keys, second.next]).toEqual([["site/b.txt"], undefined])
        const folded = yield* s3Get(storage, keys, "/assets", { "list-type": "2", delimiter: "/" })
        expect([folded.keys, folded.prefixes]).toEqual([["notes.md"], ["site/"]])
        // GetObject with the same keys; a bucket the branch has not, S3's 404.
        const object = yield* s3Get(storage, keys, "/assets/site/a.txt")
        expect([object.status, object.body]).toEqual([200, "content of site/a.txt"])
        expect((yield* s3Get(storage, keys, "/missing", { "list-type": "2" })).code).toBe("NoSuchBucket")

        // A wrong secret, an unknown key id: refused.
        const forged = yield* s3Get(storage, { ...keys, secretAccessKey: `nsk_live_${"0".repeat(64)}` }, "/assets", {
          "list-type": "2"
        })
        expect([forged.status, forged.code]).toEqual([403, "SignatureDoesNotMatch"])
        const unknown = yield* s3Get(storage, { ...keys, accessKeyId: `nak_live_${"0".repeat(32)}` }, "/assets", {
          "list-type": "2"
        })
        expect([unknown.status, unknown.code]).toEqual([403, "InvalidAccessKeyId"])

        yield* credentials.revoke({ ...branch, token_id: reader.token_id })
        const revoked = yield* s3Get(storage, keys, "/assets", { "list-type": "2" })
        expect([revoked.status, revoked.code, revoked.keys]).toEqual([403, "InvalidAccessKeyId", []])
      }).pipe(provideStorage)
  )

  it.effect("a credential past its expires_at is refused (403 InvalidAccessKeyId), on the fake's clock", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const credentials = yield* Credentials.Credentials
      yield* (yield* Buckets.Buckets).create({ ...branch, name: "assets" })
      const created = yield* credentials.create({ ...branch, scopes: ["storage:read"], principal_type: "user" })
      // The API sets no expiry: a saved state with one, restored.
      const saved = yield* fake.snapshot
      const expiresAt = (yield* Clock.currentTimeMillis) + 60_000
      yield* fake.restore({
        ...saved,
        credentials: saved.credentials.map((one) =>
          one.token_id === created.token_id ? { ...one, expires_at: expiresAt } : one
        )
      })
      const storage = yield* (yield* Storage.Storage).get(branch)
      const keys = { accessKeyId: created.token_id, secretAccessKey: Redacted.value(created.s3_secret_access_key) }
      expect((yield* s3Get(storage, keys, "/assets", { "list-type": "2" })).status).toBe(200)
      yield* TestClock.adjust("60 seconds")
      const expired = yield* s3Get(storage, keys, "/assets", { "list-type": "2" })
      expect([expired.status, expired.code]).toEqual([403, "InvalidAccessKeyId"])
    }).pipe(provideStorage)
  )

  it.effect("a credential without storage:read, or another branch's, is refused (403 AccessDenied)", () =>
    Effect.gen(function* () {
      const buckets = yield* Buckets.Buckets
      const credentials = yield* Credentials.Credentials
      yield* buckets.create({ ...branch, name: "assets" })
      const storage = yield* (yield* Storage.Storage).get(branch)
      const keysOf = (created: { readonly token_id: string; readonly s3_secret_access_key: Redacted.Redacted }) => ({
        accessKeyId: created.token_id,
        secretAccessKey: Redacted.value(created.s3_secret_access_key)
      })
      const writer = yield* credentials.create({
        ...branch,
        scopes: ["storage:write", "ai_gateway:invoke"],
        principal_type: "user"
      })
      const writerList = yield* s3Get(storage, keysOf(writer), "/assets", { "list-type": "2" })
      expect([writerList.status, writerList.code]).toEqual([403, "AccessDenied"])
      const elsewhere = yield* credentials.create({
        ...branch,
        branch_id: dev,
        scopes: ["storage:read"],
        principal_type: "user"
      })
      const otherBranch = yield* s3Get(storage, keysOf(elsewhere), "/assets", { "list-type": "2" })
      expect([otherBranch.status, otherBranch.code]).toEqual([403, "AccessDenied"])
      // Its own branch's endpoint lists its own branch's bucket.
      yield* buckets.create({ ...branch, branch_id: dev, name: "assets" })
      const devStorage = yield* (yield* Storage.Storage).get({ ...branch, branch_id: dev })
      const own = yield* s3Get(devStorage, keysOf(elsewhere), "/assets", { "list-type": "2" })
      expect([own.status, own.keys]).toEqual([200, []])
      // The request log keeps the Authorization header's scheme only.
      const logged = (yield* (yield* FakePlatform.FakePlatform).requests).filter((request) =>
        request.path.startsWith("/_storage/")
      )
      expect(logged.map((request) => request.headers.authorization)).toEqual([
        "AWS4-HMAC-SHA256 <redacted>",
        "AWS4-HMAC-SHA256 <redacted>",
        "AWS4-HMAC-SHA256 <redacted>"
      ])
    }).pipe(provideStorage)
  )
})
