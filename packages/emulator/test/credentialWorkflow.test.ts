/**
 * A branch's credential used with a real S3 client (docs/contract.md §11.7, §28.7) against the
 * shipped emulator: objects uploaded through presigned URLs, a credential created with
 * `storage:read`, its S3 keys (access key id: its `token_id`; secret: its
 * `s3_secret_access_key`) given to `@aws-sdk/client-s3` as the branch's `GET .../storage` says
 * (its `s3_endpoint` as the endpoint, which carries the branch as the first segment of its path
 * where the platform names it in the host; its `region`; path style), objects listed with
 * ListObjectsV2 (pages, folders) and read with GetObject, each request signed by the SDK with AWS
 * Signature V4 and verified by the emulator; a credential with `storage:write` only puts an
 * object (PutObject) and is refused a list (403 `AccessDenied`); a wrong secret is refused (403
 * `SignatureDoesNotMatch`); then the credential revoked, and the same list refused (403
 * `InvalidAccessKeyId`). Neither secret is in the request log (the `Authorization` header keeps its
 * scheme only) nor in the emulator's output.
 */
import {
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  paginateListObjectsV2,
  S3Client,
  S3ServiceException
} from "@aws-sdk/client-s3"
import { describe, expect, it } from "vitest"
import { type Json, withWorkflow } from "./workflow.js"

const apiKey = "credential-workflow-key"
const token = "credential-workflow-control-token"
const project = "credential-workflow"
const main = "br-main-100001"

/** How an S3 call failed: its HTTP status and S3's error `Code` (the SDK's `name` of it). */
const refusal = async (call: Promise<unknown>) => {
  const error = await call.then(
    () => undefined,
    (error: unknown) => error
  )
  expect(error).toBeInstanceOf(S3ServiceException)
  const s3 = error as S3ServiceException
  return [s3.$metadata.httpStatusCode, s3.name]
}

describe("a credential's S3 keys over the emulator, with @aws-sdk/client-s3", () => {
  it("created, lists a bucket's objects (ListObjectsV2 signed with SigV4), revoked: refused; no storage:read: refused", async () => {
    const seed = {
      projects: [{ id: project, name: "credentials", region_id: "aws-us-east-2" }],
      branches: [{ project_id: project, id: main, name: "main", default: true }]
    }
    await withWorkflow({ apiKey, token, project, seed, params: { branch_id: main } }, async ({ call, running }) => {
      await call("POST", "/projects/{project_id}/branches/{branch_id}/buckets", 201, { body: { name: "assets" } })
      for (const key of ["site/a.txt", "site/b.txt", "notes.md"]) {
        const url = await call(
          "POST",
          "/projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key}/presign",
          200,
          {
            params: { bucket_name: "assets", object_key: encodeURIComponent(key) },
            body: { operation: "upload", content_type: "text/plain" }
          }
        )
        const put = await fetch(url.url, { method: "PUT", headers: url.headers, body: `content of ${key}` })
        expect(put.status, await put.clone().text()).toBe(200)
      }
      const storage = await call("GET", "/projects/{project_id}/branches/{branch_id}/storage", 200)
      expect(storage).toMatchObject({ region: "us-east-2", force_path_style: true })
      expect(storage.s3_endpoint).toBe(`${new URL(running.baseUrl).origin}/_storage/${main}`)

      const credentials = "/projects/{project_id}/branches/{branch_id}/credentials"
      const create = (scopes: Array<string>): Promise<Json> =>
        call("POST", credentials, 201, { body: { name: scopes.join(" "), scopes, principal_type: "user" } })
      const s3With = (created: Json) =>
        new S3Client({
          endpoint: storage.s3_endpoint,
          region: storage.region,
          forcePathStyle: storage.force_path_style,
          credentials: { accessKeyId: created.token_id, secretAccessKey: created.s3_secret_access_key },
          maxAttempts: 1
        })
      const reader = await create(["storage:read"])
      const s3 = s3With(reader)

      const all = await s3.send(new ListObjectsV2Command({ Bucket: "assets" }))
      expect(all.Contents?.map((object) => [object.Key, object.Size])).toEqual([
        ["notes.md", 19],
        ["site/a.txt", 21],
        ["site/b.txt", 21]
      ])
      expect([all.KeyCount, all.IsTruncated, all.Contents?.[0]?.ETag]).toEqual([
        3,
        false,
        expect.stringMatching(/^"[0-9a-f]{32}"$/)
      ])
      // Pages of one under a prefix, by the SDK's paginator (continuation tokens); folders at a delimiter.
      const pages = []
      for await (const page of paginateListObjectsV2(
        { client: s3, pageSize: 1 },
        { Bucket: "assets", Prefix: "site/" }
      )) {
        pages.push(page.Contents?.map((object) => object.Key))
      }
      expect(pages).toEqual([["site/a.txt"], ["site/b.txt"]])
      const folded = await s3.send(new ListObjectsV2Command({ Bucket: "assets", Delimiter: "/" }))
      expect([folded.Contents?.map((object) => object.Key), folded.CommonPrefixes]).toEqual([
        ["notes.md"],
        [{ Prefix: "site/" }]
      ])
      const object = await s3.send(new GetObjectCommand({ Bucket: "assets", Key: "site/a.txt" }))
      expect(await object.Body?.transformToString()).toBe("content of site/a.txt")
      expect(await refusal(s3.send(new ListObjectsV2Command({ Bucket: "missing" })))).toEqual([404, "NoSuchBucket"])

      // Without storage:read; with a wrong secret.
      const writer = await create(["storage:write"])
      expect(await refusal(s3With(writer).send(new ListObjectsV2Command({ Bucket: "assets" })))).toEqual([
        403,
        "AccessDenied"
      ])
      // With storage:write, PutObject (the SDK's signed body and checksum); the reader lists it.
      const put = await s3With(writer).send(
        new PutObjectCommand({
          Bucket: "assets",
          Key: "up/by-sdk.txt",
          Body: "put by the SDK",
          ContentType: "text/plain"
        })
      )
      expect(put.ETag).toMatch(/^"[0-9a-f]{32}"$/)
      const uploaded = await s3.send(new GetObjectCommand({ Bucket: "assets", Key: "up/by-sdk.txt" }))
      expect([await uploaded.Body?.transformToString(), uploaded.ContentType]).toEqual(["put by the SDK", "text/plain"])
      expect(await refusal(s3.send(new PutObjectCommand({ Bucket: "assets", Key: "x", Body: "x" })))).toEqual([
        403,
        "AccessDenied"
      ])
      const forged = s3With({ ...reader, s3_secret_access_key: `nsk_live_${"0".repeat(64)}` })
      expect(await refusal(forged.send(new ListObjectsV2Command({ Bucket: "assets" })))).toEqual([
        403,
        "SignatureDoesNotMatch"
      ])

      // Revoked: listed with its revoked_at, and its keys no longer list.
      await call("DELETE", `${credentials}/{token_id}`, 204, { params: { token_id: reader.token_id } })
      const listed = await call("GET", credentials, 200)
      expect(listed.credentials.find((one: Json) => one.token_id === reader.token_id).revoked_at).toBeDefined()
      expect(await refusal(s3.send(new ListObjectsV2Command({ Bucket: "assets" })))).toEqual([
        403,
        "InvalidAccessKeyId"
      ])

      // The request log keeps the Authorization header's scheme only; no secret anywhere it or the output shows.
      const log = await running.control((c) => c.requests({ urlParams: { limit: 100 } }))
      const dataPlane = log.requests.filter(
        (request) => request.path.startsWith("/_storage/") && request.method === "GET"
      )
      expect(dataPlane.length).toBeGreaterThanOrEqual(9)
      expect(new Set(dataPlane.map((request) => request.headers.authorization))).toEqual(
        new Set(["AWS4-HMAC-SHA256 <redacted>"])
      )
      const shown = [JSON.stringify(log), running.stderr()].join("\n")
      for (const created of [reader, writer]) {
        for (const secret of [created.api_token, created.s3_secret_access_key]) {
          expect(secret.length).toBeGreaterThan(32)
          expect(shown).not.toContain(secret)
          expect(shown).not.toContain(secret.slice(-24))
        }
      }
      s3.destroy()
    })
  })
})
