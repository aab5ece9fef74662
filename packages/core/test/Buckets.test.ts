/**
 * The Buckets group's declarations (docs/contract.md §28): an object key with `/` goes as one
 * path segment, a download's answer of bytes is read from its body and headers (and written back
 * the same way by the fake), a prefix delete takes only a folder, and an object list's page
 * counts its folders against its limit.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { Api, Endpoint } from "../src/index.js"

const branch = { project_id: "spring-example-302709", branch_id: "br-main-100001" } as const

describe("Buckets", () => {
  it("sends an object key with / as one path segment, %2F", () => {
    const encoded = Endpoint.encode(Api.Buckets.getObject, {
      ...branch,
      bucket_name: "assets",
      object_key: "a/b c.txt"
    } as any)
    expect(Either.getOrThrow(encoded).path).toBe(
      "/projects/spring-example-302709/branches/br-main-100001/buckets/assets/objects/a%2Fb%20c.txt/download"
    )
    expect(Api.Buckets.getObject.media).toBe("bytes")
    expect(Api.Buckets.list.media).toBe("json")
  })

  it("reads a download's bytes and headers, and writes them back the same", () => {
    const body = new Uint8Array([1, 2, 3])
    const answer: Endpoint.Bytes = {
      body,
      headers: {
        "content-length": "3",
        etag: '"abc"',
        "content-type": "application/octet-stream",
        "content-disposition": "attachment",
        "x-content-type-options": "nosniff",
        "x-request-id": "r-1"
      }
    }
    const content = Schema.decodeUnknownSync(Api.Buckets.getObject.success)(answer)
    expect(content).toMatchObject({
      content_length: 3,
      etag: '"abc"',
      content_disposition: "attachment",
      x_content_type_options: "nosniff"
    })
    expect(Array.from(content.body)).toEqual([1, 2, 3])
    const written = Schema.encodeSync(Api.Buckets.getObject.success)(content)
    expect(written.headers).toEqual({
      "content-length": "3",
      etag: '"abc"',
      "content-type": "application/octet-stream",
      "content-disposition": "attachment",
      "x-content-type-options": "nosniff"
    })
  })

  it("deletes by prefix only a folder: ending with /, no control characters", () => {
    const input = (prefix: string) => ({ ...branch, bucket_name: "assets", prefix }) as any
    expect(Either.isRight(Endpoint.encode(Api.Buckets.deleteObjectsByPrefix, input("docs/")))).toBe(true)
    expect(Either.isLeft(Endpoint.encode(Api.Buckets.deleteObjectsByPrefix, input("docs")))).toBe(true)
    expect(Either.isLeft(Endpoint.encode(Api.Buckets.deleteObjectsByPrefix, input("do\ncs/")))).toBe(true)
  })

  it("counts a page's folders against its limit, and follows next_cursor while truncated", () => {
    const page = Schema.decodeUnknownSync(Api.Buckets.listObjects.success)({
      folders: ["a/"],
      objects: [{ key: "b", size: 1, last_modified: "2026-11-28T12:00:00Z", etag: '"e"' }],
      prefix: "",
      next_cursor: "b",
      is_truncated: true
    })
    expect(Api.Buckets.listObjects.list.size?.(page)).toBe(2)
    expect(Api.Buckets.listObjects.list.cursor?.(page)).toBe("b")
    expect(Api.Buckets.listObjects.list.cursor?.({ ...page, is_truncated: false, next_cursor: "" })).toBeUndefined()
    expect(Endpoint.problem(Api.Buckets.listObjects, { ...branch, bucket_name: "x", limit: 1 } as any, page)).toContain(
      "more than the limit of 1"
    )
  })
})
