/**
 * Every answer the fake sends, for every endpoint of core's groups (`Api.endpoints`), success and
 * error, validates against the response schema of the same operation in the platform's published
 * OpenAPI v2 document (loaded from `node_modules`, validated with Ajv 8 and ajv-formats: see
 * `publishedReference.ts`).
 *
 * Each endpoint has cases (`publishedCases.ts`): requests that make the fake answer each success
 * status the endpoint declares and each error status it answers on its own (not through an
 * injected fault). The last test fails when an endpoint of `Api.endpoints`, or one of its
 * statuses, has no case.
 */
import { Api } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as FakePlatform from "../src/FakePlatform.js"
import { operationId, send } from "./helpers.js"
import { madeOncePerFile } from "./perFile.js"
import { cases, project, seed, uncovered } from "./publishedCases.js"
import { loadPublishedReference } from "./publishedReference.js"

const reference = loadPublishedReference()

/**
 * The fake of the cases' seed, made once for the file (`madeOncePerFile`), with its state then
 * (`fresh`): each case puts it back in that state first (`Service.restore`, the whole state, as a
 * fake made afresh has it), where a fake made per case cost more than its request.
 */
const shared = madeOncePerFile(
  Effect.gen(function* () {
    const fake = yield* FakePlatform.make(seed)
    return { fake, fresh: yield* fake.snapshot }
  })
)

describe("the fake's answers against the published reference", () => {
  it("finds the document and every endpoint of Api.endpoints in it", () => {
    for (const endpoint of Api.endpoints) {
      expect(reference.has(endpoint.method, endpoint.route), `${endpoint.method} ${endpoint.route}`).toBe(true)
    }
    // Formats Ajv does not know, accepted as they are (the list is documented in publishedReference.ts).
    expect([...reference.unknownFormats].sort()).toEqual(["int", "uint64"])
  })

  it("refuses an answer that breaks the document's schema", () => {
    const validate = reference.response("GET", Api.Operations.get.route, 200)!.validate!
    const operation = {
      id: operationId(1),
      project_id: project,
      action: "start_compute",
      status: "finished",
      failures_count: 0,
      created_at: "2022-11-15T20:13:35Z",
      updated_at: "2022-11-15T20:13:35Z",
      total_duration_ms: 1
    }
    expect(validate({ operation })).toBe(true)
    const { status: _, ...withoutStatus } = operation
    expect(validate({ operation: withoutStatus })).toBe(false)
    expect(validate({ operation: { ...operation, failures_count: "0" } })).toBe(false)
  })

  it.effect.each(cases.map((c) => [`${c.endpoint.name}: ${c.label} (${c.status})`, c] as const))("%s", ([, c]) =>
    Effect.gen(function* () {
      const { fake, fresh } = yield* shared
      yield* fake.restore(fresh)
      const key = Redacted.value(fake.bootstrapKey)
      const request = yield* c.request({ fake, key })
      const response = yield* send(fake, request, c.anonymous === true ? {} : { key })
      const text = yield* response.text
      expect(response.status, text).toBe(c.status)
      const published = reference.response(c.endpoint.method, c.endpoint.route, response.status)
      expect(published, `the document declares ${response.status} or default`).toBeDefined()
      if (response.status < 300) expect(published!.declaredAs).toBe(String(response.status))
      if (published!.validate === undefined) {
        // No JSON answer: none at all, or raw bytes where the document gives the media type
        // (an object's download, `application/octet-stream`, with its headers).
        if (c.endpoint.media === "bytes" && response.status < 300) {
          expect(response.headers["content-type"]).toBe("application/octet-stream")
          expect(response.headers["content-length"]).toBe(String(new TextEncoder().encode(text).length))
          expect(response.headers["content-disposition"]).toBe("attachment")
          expect(response.headers["x-content-type-options"]).toBe("nosniff")
          expect(response.headers.etag).toBeDefined()
        } else expect(text).toBe("")
        return
      }
      const valid = published!.validate(JSON.parse(text))
      expect(published!.validate.errors ?? [], text.slice(0, 2000)).toEqual([])
      expect(valid).toBe(true)
    }).pipe(Effect.scoped)
  )

  it("has a case for every endpoint of Api.endpoints and each status it answers on its own", () => {
    const missing = Api.endpoints.flatMap((endpoint) =>
      uncovered(endpoint).map((status) => `${endpoint.name} ${status}`)
    )
    expect(missing).toEqual([])
  })
})
