/**
 * A branch's object storage (docs/contract.md §28) against the shipped emulator, driven by plain
 * `fetch` as a CI job in any language would: a preview branch with a bucket, objects uploaded
 * through presigned `PUT` URLs the emulator itself serves (with the bound `Content-Type`), listed
 * (a page, folders), downloaded (raw bytes with their headers), deleted by prefix; a child branch
 * made from the preview sees its objects as of its creation, not what the preview writes after;
 * a presigned download of an object deleted since answers S3's 404, and one past its expiry
 * S3's 403, on the emulator's clock (frozen and moved by the control API). Every JSON answer is
 * validated against the published schema of its operation (`publishedReference.ts`).
 */
import { describe, expect, it } from "vitest"
import { type Json, withWorkflow } from "./workflow.js"

const apiKey = "bucket-workflow-key"
const token = "bucket-workflow-control-token"
const project = "bucket-workflow"
const main = "br-main-100001"

const bytes = (text: string) => new TextEncoder().encode(text)

describe("a branch's buckets over the emulator, with fetch alone", () => {
  it("uploads through presigned URLs, lists, downloads, deletes by prefix; a child sees the objects as of its creation", async () => {
    const seed = {
      projects: [{ id: project, name: "buckets", region_id: "aws-us-east-2" }],
      branches: [{ project_id: project, id: main, name: "main", default: true }]
    }
    await withWorkflow({ apiKey, token, project, seed }, async ({ call, control, running }) => {
      await control((c) => c.freeze())
      const advance = (ms: number) => control((c) => c.advance({ payload: { by: ms } }))
      const created = await call("POST", "/projects/{project_id}/branches", 201, {
        body: { branch: { name: "preview/pr-7", parent_id: main } }
      })
      const preview: string = created.branch.id
      const onPreview = { branch_id: preview }
      const bucket = await call("POST", "/projects/{project_id}/branches/{branch_id}/buckets", 201, {
        params: onPreview,
        body: { name: "assets" }
      })
      expect(bucket.bucket).toMatchObject({ name: "assets", access_level: "private" })

      const presign = (branch_id: string, key: string, body: Json) =>
        call(
          "POST",
          "/projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key}/presign",
          200,
          {
            params: { branch_id, bucket_name: "assets", object_key: encodeURIComponent(key) },
            body
          }
        )
      const upload = async (branch_id: string, key: string, text: string) => {
        const url = await presign(branch_id, key, { operation: "upload", content_type: "text/plain" })
        expect(url.method).toBe("PUT")
        expect(url.url.startsWith(`${new URL(running.baseUrl).origin}/`)).toBe(true)
        const put = await fetch(url.url, { method: "PUT", headers: url.headers, body: bytes(text) })
        expect(put.status, await put.clone().text()).toBe(200)
        expect(put.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/)
      }
      for (const key of ["site/img/a.png", "site/img/b.png", "site/index.html"]) {
        await upload(preview, key, `content of ${key}`)
      }
      await advance(1_000)

      const objects = "/projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects"
      const listed = await call("GET", objects, 200, {
        params: { ...onPreview, bucket_name: "assets" },
        query: "?prefix=site/&delimiter=/"
      })
      expect(listed.folders).toEqual(["site/img/"])
      expect(listed.objects.map((object: Json) => object.key)).toEqual(["site/index.html"])
      const firstPage = await call("GET", objects, 200, {
        params: { ...onPreview, bucket_name: "assets" },
        query: "?limit=2"
      })
      expect(firstPage.is_truncated).toBe(true)
      const secondPage = await call("GET", objects, 200, {
        params: { ...onPreview, bucket_name: "assets" },
        query: `?limit=2&cursor=${encodeURIComponent(firstPage.next_cursor)}`
      })
      expect([...firstPage.objects, ...secondPage.objects].map((object: Json) => object.key)).toEqual([
        "site/img/a.png",
        "site/img/b.png",
        "site/index.html"
      ])

      // The download: raw bytes and their headers, the key's `/` sent as %2F.
      const download = (branch_id: string, key: string) =>
        fetch(
          `${running.baseUrl}/projects/${project}/branches/${branch_id}/buckets/assets/objects/${encodeURIComponent(key)}/download`,
          { headers: { authorization: `Bearer ${apiKey}` } }
        )
      const got = await download(preview, "site/img/a.png")
      expect(got.status).toBe(200)
      expect(got.headers.get("content-type")).toBe("application/octet-stream")
      expect(got.headers.get("content-disposition")).toBe("attachment")
      expect(got.headers.get("x-content-type-options")).toBe("nosniff")
      expect(await got.text()).toBe("content of site/img/a.png")

      // A child branch of the preview (once the preview's creation has finished), then the preview
      // changes: the child keeps what it saw.
      await advance(60_000)
      const child: string = (
        await call("POST", "/projects/{project_id}/branches", 201, {
          body: { branch: { name: "preview/pr-7-child", parent_id: preview } }
        })
      ).branch.id
      await advance(1_000)
      await upload(preview, "site/index.html", "a new index")
      const deleted = await call(
        "DELETE",
        "/projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects-by-prefix",
        200,
        { params: { ...onPreview, bucket_name: "assets" }, query: "?prefix=site/img/" }
      )
      expect(deleted).toEqual({ deleted: 2 })
      const onPreviewNow = await call("GET", objects, 200, { params: { ...onPreview, bucket_name: "assets" } })
      expect(onPreviewNow.objects.map((object: Json) => object.key)).toEqual(["site/index.html"])
      const onChild = await call("GET", objects, 200, { params: { branch_id: child, bucket_name: "assets" } })
      expect(onChild.objects.map((object: Json) => object.key)).toEqual([
        "site/img/a.png",
        "site/img/b.png",
        "site/index.html"
      ])
      expect(await (await download(child, "site/index.html")).text()).toBe("content of site/index.html")
      expect(await (await download(preview, "site/index.html")).text()).toBe("a new index")
      // A prefix delete on the child touches only what it stored itself: nothing.
      expect(
        await call(
          "DELETE",
          "/projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects-by-prefix",
          200,
          { params: { branch_id: child, bucket_name: "assets" }, query: "?prefix=site/" }
        )
      ).toEqual({ deleted: 0 })

      // A presigned download: served, then S3's 404 once deleted, then S3's 403 once expired.
      const url = await presign(preview, "site/index.html", { operation: "download", expires_in_seconds: 60 })
      expect(url.method).toBe("GET")
      expect(await (await fetch(url.url)).text()).toBe("a new index")
      await call(
        "DELETE",
        "/projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key}",
        204,
        {
          params: { ...onPreview, bucket_name: "assets", object_key: encodeURIComponent("site/index.html") }
        }
      )
      const gone = await fetch(url.url)
      expect(gone.status).toBe(404)
      expect(await gone.text()).toContain("<Code>NoSuchKey</Code>")
      await advance(61_000)
      const expired = await fetch(url.url)
      expect(expired.status).toBe(403)
      expect(await expired.text()).toContain("<Code>AccessDenied</Code>")

      // The branch's S3 endpoint and AI gateway.
      const storage = await call("GET", "/projects/{project_id}/branches/{branch_id}/storage", 200, {
        params: onPreview
      })
      expect(storage).toMatchObject({ enabled: true, region: "us-east-2", force_path_style: true })
      const gateway = await call("GET", "/projects/{project_id}/branches/{branch_id}/ai_gateway", 200, {
        params: onPreview
      })
      expect(gateway.enabled).toBe(true)
      const missing = await fetch(`${running.baseUrl}/projects/${project}/branches/br-none-000000/storage`, {
        headers: { authorization: `Bearer ${apiKey}` }
      })
      expect(missing.status).toBe(404)
      expect(await missing.json()).toMatchObject({ code: "STORAGE_NOT_ENABLED", reason: "branch_not_found" })

      // The request log never holds a presigned URL's signature.
      const signature = new URL(url.url).searchParams.get("X-Amz-Signature")!
      const log = await fetch(`${new URL(running.baseUrl).origin}/_emulator/requests`, {
        headers: { authorization: `Bearer ${token}` }
      })
      const text = await log.text()
      expect(log.status, text.slice(0, 200)).toBe(200)
      expect(text).toContain("/_storage/")
      expect(text).not.toContain(signature)
    })
  })
})
