/**
 * Malformed requests get a 4xx with a `GeneralError` body, never a 5xx: a property test
 * (fast-check, seeded and bounded) sends a few hundred of them through the in-memory app, and a
 * few examples go over a real socket where the raw request target is not normalised.
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import fc from "fast-check"
import { createServer, request as httpRequest } from "node:http"
import * as FakeHttpClient from "../src/FakeHttpClient.js"
import * as FakePlatform from "../src/FakePlatform.js"
import type { Seed } from "../src/Seed.js"
import { isGeneralError, operationId, projectId } from "./helpers.js"

const seed: Seed = {
  projects: [{ id: projectId }],
  operations: [{ project_id: projectId, id: operationId(1), action: "create_branch" }]
}

interface Malformed {
  readonly method: string
  readonly path: string
  readonly body?: string | undefined
  readonly withKey: boolean
}

const traversal = fc.constantFrom(
  "..",
  ".",
  "%2e%2e",
  "%2E%2e",
  ".%2e",
  "..%2F..%2Fapi_keys",
  "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
  "a%2Fb",
  "..%5C..%5Cwindows",
  "%5c",
  "%zz",
  "%",
  "%E0%A4%A"
)

/** A query value that is not a `limit` in 1..max. */
const badLimit = fc.oneof(
  fc.integer({ min: -1_000_000, max: 0 }).map(String),
  fc.integer({ min: 1001, max: 100_000_000 }).map(String),
  fc.double({ noInteger: true, noNaN: true }).map(String),
  fc.string({ minLength: 1 }).filter((text) => !/^\s*\d+\s*$/.test(text)),
  fc.constant("")
)

/** A query value that is not an RFC 3339 timestamp. */
const badCursor = fc.oneof(
  fc.string({ minLength: 1 }).filter((text) => !/^\d{4}-/.test(text)),
  fc.constantFrom("2024-13-01T00:00:00Z", "2024-02-30T25:61:00Z", "yesterday", "1700000000000", "null")
)

/** A body `POST /api_keys` must refuse: not JSON, or JSON without a good `key_name`. */
const badKeyBody = fc.oneof(
  fc.string().filter((text) => {
    try {
      JSON.parse(text)
      return false
    } catch {
      return true
    }
  }),
  fc
    .oneof(
      fc.constant(null),
      fc.integer(),
      fc.boolean(),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.constant(""),
      fc.constant("   "),
      fc.string({ minLength: 65, maxLength: 200 }).filter((text) => text.trim().length > 64),
      fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 })
    )
    .map((key_name) => JSON.stringify({ key_name })),
  fc
    .jsonValue()
    .filter((value) => typeof value !== "object" || value === null || Array.isArray(value))
    .map((value) => JSON.stringify(value)),
  fc.constant("{}"),
  fc.constant('{"key_name": "ok"'),
  fc.constant('{"key_name": "ok"}}')
)

/** A body over the 64 KiB limit, JSON or not. */
const hugeBody = fc
  .tuple(fc.integer({ min: FakePlatform.bodyLimitBytes + 1, max: 2 * FakePlatform.bodyLimitBytes }), fc.boolean())
  .map(([size, json]) => (json ? `{"key_name":"${"x".repeat(size)}"}` : "y".repeat(size)))

const malformed: fc.Arbitrary<Malformed> = fc.oneof(
  fc.record({
    method: fc.constant("POST"),
    path: fc.constant("/api_keys"),
    body: badKeyBody,
    withKey: fc.constant(true)
  }),
  fc.record({ method: fc.constant("POST"), path: fc.constant("/api_keys"), body: hugeBody, withKey: fc.boolean() }),
  fc.record({
    method: fc.constantFrom("GET", "POST", "DELETE", "PUT", "PATCH"),
    path: fc.array(fc.webSegment(), { minLength: 1, maxLength: 4 }).map((segments) => `/x-${segments.join("/")}`),
    body: fc.option(fc.string(), { nil: undefined }),
    withKey: fc.boolean()
  }),
  fc.record({
    method: fc.constantFrom("GET", "DELETE"),
    path: fc.oneof(
      traversal.map((id) => `/projects/${id}/operations`),
      traversal.map((id) => `/projects/${projectId}/operations/${id}`),
      traversal.map((id) => `/api_keys/${id}`),
      traversal.map((id) => `/projects/${id}`)
    ),
    withKey: fc.constant(true)
  }),
  fc.record({
    method: fc.constant("GET"),
    path: fc.oneof(
      badLimit.map((limit) => `/projects?limit=${encodeURIComponent(limit)}`),
      badLimit.map((limit) => `/projects/${projectId}/operations?limit=${encodeURIComponent(limit)}`),
      badCursor.map((cursor) => `/projects?cursor=${encodeURIComponent(cursor)}`),
      badCursor.map((cursor) => `/projects/${projectId}/operations?limit=5&cursor=${encodeURIComponent(cursor)}`),
      fc.constant("/projects?limit=1&limit=2")
    ),
    withKey: fc.constant(true)
  }),
  fc.record({
    method: fc.constantFrom("PUT", "PATCH", "DELETE", "POST"),
    path: fc.constantFrom(
      "/projects",
      `/projects/${projectId}/operations`,
      `/projects/${projectId}/operations/${operationId(1)}`
    ),
    withKey: fc.constant(true)
  }),
  fc.record({
    method: fc.constantFrom("PUT", "PATCH", "GET"),
    path: fc.constant("/api_keys/1000001"),
    withKey: fc.constant(true)
  }),
  fc.record({
    method: fc.constantFrom("GET", "POST", "DELETE"),
    path: fc.constantFrom("/projects", "/api_keys", `/projects/${projectId}/operations`),
    withKey: fc.constant(false)
  })
)

describe("malformed requests", () => {
  it.live(
    "a few hundred malformed requests all get a 4xx GeneralError; the fake then answers a good request",
    () =>
      Effect.gen(function* () {
        const fake = yield* FakePlatform.make(seed)
        const http = FakeHttpClient.make(fake.httpApp)
        const keysBefore = yield* fake.apiKeys
        const statuses = new Map<number, number>()
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(malformed, async (request) => {
              let built = HttpClientRequest.make(request.method as "GET")(`http://x/api/v2${request.path}`)
              if (request.withKey) built = HttpClientRequest.bearerToken(built, fake.bootstrapKey)
              if (request.body !== undefined && request.method !== "GET")
                built = HttpClientRequest.bodyText(built, request.body, "application/json")
              const answer = await Effect.runPromise(
                Effect.flatMap(http.execute(built), (response) =>
                  Effect.map(response.text, (text) => ({ status: response.status, text }))
                )
              )
              statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
              expect(answer.status, `${request.method} ${request.path}`).toBeGreaterThanOrEqual(400)
              expect(answer.status, `${request.method} ${request.path}`).toBeLessThan(500)
              expect(isGeneralError(JSON.parse(answer.text))).toBe(true)
            }),
            { numRuns: 300, seed: 302709 }
          )
        )
        // Each family of refusal was met.
        for (const status of [400, 401, 404, 413]) expect(statuses.get(status) ?? 0).toBeGreaterThan(0)
        expect(yield* fake.apiKeys).toEqual(keysBefore)
        const good = yield* http.execute(
          HttpClientRequest.get("http://x/api/v2/projects").pipe(HttpClientRequest.bearerToken(fake.bootstrapKey))
        )
        expect(good.status).toBe(200)
      }),
    60_000
  )
})

/** Sends a raw request (target not normalised) to the fake served on loopback. */
const raw = (
  port: number,
  options: {
    readonly method: string
    readonly path: string
    readonly headers?: Record<string, string>
    readonly body?: string | Uint8Array
    readonly chunked?: boolean
  }
) =>
  Effect.async<{ readonly status: number; readonly body: string }, Error>((resume) => {
    const request = httpRequest(
      { host: "127.0.0.1", port, method: options.method, path: options.path, headers: options.headers },
      (response) => {
        let body = ""
        response.setEncoding("utf8")
        response.on("data", (chunk) => {
          body += chunk
        })
        response.on("end", () => resume(Effect.succeed({ status: response.statusCode!, body })))
      }
    )
    request.on("error", (error) => resume(Effect.fail(error)))
    if (options.body !== undefined && options.chunked === true) {
      // Written in pieces without a Content-Length: the fake must stop reading past the limit.
      const body = typeof options.body === "string" ? Buffer.from(options.body) : options.body
      for (let offset = 0; offset < body.length; offset += 16 * 1024)
        request.write(body.subarray(offset, offset + 16 * 1024))
      request.end()
    } else {
      request.end(options.body)
    }
  })

describe("malformed requests over a real socket (raw request targets)", () => {
  const served = FakePlatform.layerServer.pipe(
    Layer.provideMerge(FakePlatform.layer(seed)),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
  )

  it.live(
    "dot segments and encoded slashes are 400; oversized bodies 413, declared or streamed; the server lives on",
    () =>
      Effect.gen(function* () {
        const fake = yield* FakePlatform.FakePlatform
        const baseUrl = yield* FakePlatform.serverBaseUrl
        const port = Number(new URL(baseUrl).port)
        const authorization = `Bearer ${Redacted.value(fake.bootstrapKey)}`
        for (const path of [
          "/api/v2/projects/../api_keys",
          "/api/v2/projects/%2e%2e/api_keys",
          "/api/v2/projects/..%2f..%2fetc/operations",
          `/api/v2/projects/${projectId}/operations/..%2F..%2F..%2Fapi_keys`,
          "/api/v2/api_keys/../../etc/passwd",
          "/api/v2/api_keys/%zz"
        ]) {
          const answer = yield* raw(port, { method: "GET", path, headers: { authorization } })
          expect(answer.status, path).toBe(400)
          expect(isGeneralError(JSON.parse(answer.body))).toBe(true)
        }
        const big = `{"key_name":"${"x".repeat(FakePlatform.bodyLimitBytes)}"}`
        const declared = yield* raw(port, {
          method: "POST",
          path: "/api/v2/api_keys",
          headers: {
            authorization,
            "content-type": "application/json",
            "content-length": String(Buffer.byteLength(big))
          },
          body: big
        })
        expect(declared.status).toBe(413)
        expect(isGeneralError(JSON.parse(declared.body))).toBe(true)
        const streamed = yield* raw(port, {
          method: "POST",
          path: "/api/v2/api_keys",
          headers: { authorization, "content-type": "application/json", "transfer-encoding": "chunked" },
          body: big,
          chunked: true
        })
        expect(streamed.status).toBe(413)
        const ok = yield* raw(port, { method: "GET", path: "/api/v2/projects", headers: { authorization } })
        expect(ok.status).toBe(200)
        expect((yield* fake.apiKeys).map((key) => key.name)).toEqual(["bootstrap"])
      }).pipe(Effect.provide(served))
  )
})
