/**
 * A branch's object storage through the client over the fake (docs/contract.md §28): a preview
 * branch with a bucket, an object uploaded through a presigned URL, listed, downloaded, deleted
 * by prefix; a child branch sees its parent's objects as of its creation; presigned URLs expire
 * on the fake's clock and answer S3's errors; storage and AI gateway answers.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { AiGateway, Branches, Buckets, Storage } from "@dbplatform/client"
import { BranchId, ProjectId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import type { Seed } from "../src/Seed.js"
import { read, send } from "./helpers.js"

const project_id = ProjectId.make("bucket-project-000001")
const seed = { projects: [{ id: project_id, name: "storage" }] }
const seeded: Seed = {
  projects: [{ id: project_id, name: "storage" }],
  branches: [
    { project_id, id: "br-main-000001", name: "main", default: true, age: "2 hours" },
    { project_id, id: "br-child-000002", name: "child", parent_id: "br-main-000001", age: "1 hour" }
  ],
  buckets: [
    {
      branch_id: "br-main-000001",
      name: "seeded",
      age: "90 minutes",
      objects: [
        { key: "a.txt", content: "a" },
        { key: "b.bin", content_base64: new Uint8Array([1, 2, 3]) }
      ]
    }
  ]
}
const bytes = (text: string) => new TextEncoder().encode(text)
const text = (body: Uint8Array) => new TextDecoder().decode(body)

/** The branch id of the project's default branch. */
const defaultBranch = Effect.flatMap(Branches.Branches, (branches) =>
  Effect.map(branches.listPage({ project_id }), (page) => page.branches.find((branch) => branch.default)!.id)
)

/** Uploads `body` as `key` through a presigned `PUT`, as a browser or `curl` would. */
const upload = (branch_id: BranchId, bucket_name: string, key: string, body: Uint8Array, content_type = "text/plain") =>
  Effect.gen(function* () {
    const buckets = yield* Buckets.Buckets
    const presigned = yield* buckets.presignObject({
      project_id,
      branch_id,
      bucket_name,
      object_key: key,
      operation: "upload",
      content_type
    })
    expect(presigned.method).toBe("PUT")
    expect(presigned.headers).toEqual({ "Content-Type": content_type })
    const response = yield* HttpClient.execute(
      HttpClientRequest.put(Redacted.value(presigned.url)).pipe(
        HttpClientRequest.bodyUint8Array(body, content_type),
        HttpClientRequest.setHeaders(presigned.headers)
      )
    )
    return response.status
  })

const keysOf = (branch_id: BranchId, bucket_name: string, prefix?: string) =>
  Effect.flatMap(Buckets.Buckets, (buckets) =>
    Effect.map(
      Stream.runCollect(buckets.listObjects({ project_id, branch_id, bucket_name, prefix }, { pageSize: 2 })),
      (objects) => Chunk.toReadonlyArray(objects).map((object) => object.key)
    )
  )

describe("Buckets", () => {
  it.effect("a preview branch's bucket: upload through a presigned URL, list, download, delete by prefix", () =>
    Effect.gen(function* () {
      const buckets = yield* Buckets.Buckets
      const branches = yield* Branches.Branches
      const main = yield* defaultBranch
      const preview = (yield* branches.create({ project_id, branch: { name: "preview/pr-1", parent_id: main } })).branch
        .id
      const created = yield* buckets.create({ project_id, branch_id: preview, name: "assets" })
      expect(created.bucket.access_level).toBe("private")
      for (const key of ["app/avatars/a.png", "app/avatars/b.png", "app/logo.svg", "readme.txt"]) {
        expect(yield* upload(preview, "assets", key, bytes(`content of ${key}`))).toBe(200)
      }
      expect(yield* keysOf(preview, "assets")).toEqual([
        "app/avatars/a.png",
        "app/avatars/b.png",
        "app/logo.svg",
        "readme.txt"
      ])
      const folders = yield* buckets.listObjectsPage({
        project_id,
        branch_id: preview,
        bucket_name: "assets",
        prefix: "app/",
        delimiter: "/"
      })
      expect(folders.folders).toEqual(["app/avatars/"])
      expect(folders.objects.map((object) => object.key)).toEqual(["app/logo.svg"])
      const content = yield* buckets.getObject({
        project_id,
        branch_id: preview,
        bucket_name: "assets",
        object_key: "app/avatars/a.png"
      })
      expect(text(content.body)).toBe("content of app/avatars/a.png")
      expect(content.content_length).toBe(content.body.length)
      expect(content.content_disposition).toBe("attachment")
      expect(content.x_content_type_options).toBe("nosniff")
      expect(content.etag).toMatch(/^"[0-9a-f]{32}"$/)
      const deleted = yield* buckets.deleteObjectsByPrefix({
        project_id,
        branch_id: preview,
        bucket_name: "assets",
        prefix: "app/avatars/"
      })
      expect(deleted.deleted).toBe(2)
      expect(yield* keysOf(preview, "assets")).toEqual(["app/logo.svg", "readme.txt"])
      yield* buckets.deleteObject({ project_id, branch_id: preview, bucket_name: "assets", object_key: "readme.txt" })
      expect(yield* keysOf(preview, "assets")).toEqual(["app/logo.svg"])
      const missing = yield* Effect.flip(
        buckets.getObject({ project_id, branch_id: preview, bucket_name: "assets", object_key: "readme.txt" })
      )
      expect(missing._tag).toBe("NotFound")
      // The main branch never saw the preview's bucket.
      expect((yield* buckets.listPage({ project_id, branch_id: main })).buckets).toEqual([])
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed })))
  )

  it.effect("a child branch sees its parent's objects as of its creation; its deletes leave the parent's", () =>
    Effect.gen(function* () {
      const buckets = yield* Buckets.Buckets
      const branches = yield* Branches.Branches
      const main = yield* defaultBranch
      yield* buckets.create({ project_id, branch_id: main, name: "data" })
      yield* upload(main, "data", "docs/one.txt", bytes("one, first"))
      yield* upload(main, "data", "docs/two.txt", bytes("two"))
      yield* TestClock.adjust(Duration.seconds(1))
      const child = (yield* branches.create({ project_id, branch: { name: "child", parent_id: main } })).branch.id
      yield* TestClock.adjust(Duration.seconds(1))
      // The parent changes after the branch point: the child does not see it.
      yield* upload(main, "data", "docs/one.txt", bytes("one, second"))
      yield* upload(main, "data", "docs/three.txt", bytes("three"))
      yield* buckets.deleteObject({ project_id, branch_id: main, bucket_name: "data", object_key: "docs/two.txt" })
      expect(yield* keysOf(child, "data")).toEqual(["docs/one.txt", "docs/two.txt"])
      const one = yield* buckets.getObject({
        project_id,
        branch_id: child,
        bucket_name: "data",
        object_key: "docs/one.txt"
      })
      expect(text(one.body)).toBe("one, first")
      expect(yield* keysOf(main, "data")).toEqual(["docs/one.txt", "docs/three.txt"])
      const listed = yield* buckets.listPage({ project_id, branch_id: child })
      expect(listed.buckets.map((bucket) => bucket.name)).toEqual(["data"])
      // Prefix delete on the child: only what it stored itself.
      yield* upload(child, "data", "docs/own.txt", bytes("own"))
      const deleted = yield* buckets.deleteObjectsByPrefix({
        project_id,
        branch_id: child,
        bucket_name: "data",
        prefix: "docs/"
      })
      expect(deleted.deleted).toBe(1)
      expect(yield* keysOf(child, "data")).toEqual(["docs/one.txt", "docs/two.txt"])
      // Deleting an inherited object hides it on the child only.
      yield* buckets.deleteObject({ project_id, branch_id: child, bucket_name: "data", object_key: "docs/one.txt" })
      expect(yield* keysOf(child, "data")).toEqual(["docs/two.txt"])
      const mainOne = yield* buckets.getObject({
        project_id,
        branch_id: main,
        bucket_name: "data",
        object_key: "docs/one.txt"
      })
      expect(text(mainOne.body)).toBe("one, second")
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed })))
  )

  it.effect("a presigned URL expires on the fake's clock, binds its Content-Type, and 404s a deleted object", () =>
    Effect.gen(function* () {
      const buckets = yield* Buckets.Buckets
      const main = yield* defaultBranch
      yield* buckets.create({ project_id, branch_id: main, name: "b" })
      yield* upload(main, "b", "k", bytes("v"))
      const download = yield* buckets.presignObject({
        project_id,
        branch_id: main,
        bucket_name: "b",
        object_key: "k",
        operation: "download",
        expires_in_seconds: 60
      })
      expect(download.method).toBe("GET")
      expect(download.headers).toEqual({})
      const got = yield* HttpClient.get(Redacted.value(download.url))
      expect(got.status).toBe(200)
      expect(text(new Uint8Array(yield* got.arrayBuffer))).toBe("v")
      // A PUT with another Content-Type than the one signed is refused.
      const up = yield* buckets.presignObject({
        project_id,
        branch_id: main,
        bucket_name: "b",
        object_key: "k",
        operation: "upload",
        content_type: "text/plain"
      })
      const wrong = yield* HttpClient.execute(
        HttpClientRequest.put(Redacted.value(up.url)).pipe(HttpClientRequest.bodyUint8Array(bytes("x"), "image/png"))
      )
      expect(wrong.status).toBe(403)
      expect(yield* wrong.text).toContain("<Code>SignatureDoesNotMatch</Code>")
      yield* buckets.deleteObject({ project_id, branch_id: main, bucket_name: "b", object_key: "k" })
      const gone = yield* HttpClient.get(Redacted.value(download.url))
      expect(gone.status).toBe(404)
      expect(yield* gone.text).toContain("<Code>NoSuchKey</Code>")
      yield* TestClock.adjust(Duration.seconds(61))
      const expired = yield* HttpClient.get(Redacted.value(download.url))
      expect(expired.status).toBe(403)
      expect(yield* expired.text).toContain("Request has expired")
      // The URL is a secret: it shows as <redacted>, and the request log keeps no signature.
      expect(String(download.url)).toBe("<redacted>")
      const fake = yield* FakePlatform.FakePlatform
      const logged = JSON.stringify(yield* fake.requests)
      const signature = new URL(Redacted.value(download.url)).searchParams.get("X-Amz-Signature")!
      expect(logged).not.toContain(signature)
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed })))
  )

  it.effect("an object key with / goes as one path segment (%2F)", () =>
    Effect.gen(function* () {
      const buckets = yield* Buckets.Buckets
      const main = yield* defaultBranch
      yield* buckets.create({ project_id, branch_id: main, name: "b" })
      yield* upload(main, "b", "a/b/c d.txt", bytes("nested"))
      const content = yield* buckets.getObject({
        project_id,
        branch_id: main,
        bucket_name: "b",
        object_key: "a/b/c d.txt"
      })
      expect(text(content.body)).toBe("nested")
      const fake = yield* FakePlatform.FakePlatform
      const paths = (yield* fake.requests).map((request) => request.path)
      expect(paths).toContain(
        `/api/v2/projects/${project_id}/branches/${main}/buckets/b/objects/a%2Fb%2Fc%20d.txt/download`
      )
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed })))
  )

  it.effect("storage and AI gateway: a branch's endpoints, and the platform's 404 reason for an unknown branch", () =>
    Effect.gen(function* () {
      const storage = yield* Storage.Storage
      const gateway = yield* AiGateway.AiGateway
      const main = yield* defaultBranch
      const s3 = yield* storage.get({ project_id, branch_id: main })
      expect(s3.enabled).toBe(true)
      expect(s3.force_path_style).toBe(true)
      expect(s3.region).not.toBe("")
      expect(s3.s3_endpoint).toContain(main)
      const ai = yield* gateway.get({ project_id, branch_id: main })
      expect(ai.enabled).toBe(true)
      expect(ai.base_url).toContain(main)
      const missing = yield* Effect.flip(storage.get({ project_id, branch_id: BranchId.make("br-missing-000000") }))
      expect(missing._tag).toBe("NotFound")
      const fake = yield* FakePlatform.FakePlatform
      for (const [path, code] of [
        ["storage", "STORAGE_NOT_ENABLED"],
        ["ai_gateway", "AI_GATEWAY_NOT_ENABLED"]
      ] as const) {
        const { body, status } = yield* Effect.flatMap(
          send(fake, HttpClientRequest.get(`/projects/${project_id}/branches/br-missing-000000/${path}`), {
            key: fake.bootstrapKey
          }),
          read
        )
        expect(status).toBe(404)
        expect(body).toMatchObject({ code, reason: "branch_not_found" })
      }
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed })))
  )

  it.effect("a seed describes buckets and objects; a child branch of the seed sees its parent's", () =>
    Effect.gen(function* () {
      const buckets = yield* Buckets.Buckets
      const child = BranchId.make("br-child-000002")
      expect((yield* buckets.listPage({ project_id, branch_id: child })).buckets.map((bucket) => bucket.name)).toEqual([
        "seeded"
      ])
      expect(yield* keysOf(child, "seeded")).toEqual(["a.txt", "b.bin"])
      const content = yield* buckets.getObject({
        project_id,
        branch_id: child,
        bucket_name: "seeded",
        object_key: "b.bin"
      })
      expect(Array.from(content.body)).toEqual([1, 2, 3])
      const invalid = yield* Effect.flip(
        FakePlatform.make({
          ...seeded,
          buckets: [{ branch_id: "br-none-000000", name: "orphan" }]
        })
      )
      expect(invalid.problems.join("; ")).toContain("br-none-000000")
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed: seeded })))
  )
})
