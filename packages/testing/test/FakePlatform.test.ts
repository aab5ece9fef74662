import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import * as FakePlatform from "../src/FakePlatform.js"
import type { Seed } from "../src/Seed.js"
import { isGeneralError, operationId, projectId, read, send } from "./helpers.js"

const seed: Seed = {
  projects: [{ id: projectId }, { id: "wispy-meadow-118737" }],
  operations: [
    { project_id: projectId, id: operationId(1), action: "create_branch", branch_id: "br-x-1" },
    { project_id: "wispy-meadow-118737", id: operationId(2), action: "create_branch", branch_id: "br-y-2" }
  ]
}

const provideFake = Effect.provide(FakePlatform.layer(seed))

const get = (path: string) => HttpClientRequest.get(path)

describe("authentication", () => {
  it.effect("a request without Authorization is a 401 with a GeneralError body", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const response = yield* send(fake, get("/projects"))
      const { status, body } = yield* read(response)
      expect(status).toBe(401)
      expect(response.headers["content-type"]).toContain("application/json")
      expect(isGeneralError(body)).toBe(true)
      expect(Object.keys(body).sort()).toEqual(["code", "message", "request_id"])
    }).pipe(provideFake)
  )

  it.effect("X-Request-ID is echoed as request_id", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const refused = yield* read(yield* send(fake, get("/projects"), { requestId: "abc" }))
      expect(refused.status).toBe(401)
      expect(refused.body.request_id).toBe("abc")
      const notFound = yield* read(
        yield* send(fake, get("/projects/nope/operations"), { key: fake.bootstrapKey, requestId: "req-42" })
      )
      expect(notFound.status).toBe(404)
      expect(notFound.body.request_id).toBe("req-42")
    }).pipe(provideFake)
  )

  it.effect("an invalid key or a malformed Authorization header is a 401", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      expect((yield* send(fake, get("/projects"), { key: "wrong" })).status).toBe(401)
      const basic = get("/projects").pipe(HttpClientRequest.basicAuth("user", "pass"))
      expect((yield* send(fake, basic)).status).toBe(401)
      expect((yield* send(fake, get("/projects"), { key: fake.bootstrapKey })).status).toBe(200)
    }).pipe(provideFake)
  )

  it.effect("an unknown route is a 404 GeneralError with a good key, a 401 without", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const withKey = yield* read(yield* send(fake, get("/branches"), { key: fake.bootstrapKey }))
      expect(withKey.status).toBe(404)
      expect(isGeneralError(withKey.body)).toBe(true)
      const withoutKey = yield* read(yield* send(fake, get("/branches")))
      expect(withoutKey.status).toBe(401)
      expect(isGeneralError(withoutKey.body)).toBe(true)
    }).pipe(provideFake)
  )
})

describe("bad ids and parameters", () => {
  const cases: ReadonlyArray<readonly [string, string, number]> = [
    ["unknown project", "/projects/no-such-project/operations", 404],
    ["unknown project (one operation)", `/projects/no-such-project/operations/${operationId(1)}`, 404],
    ["project id out of pattern", "/projects/Bad_ID/operations", 400],
    ["operation id not a UUID", `/projects/${projectId}/operations/not-a-uuid`, 400],
    ["unknown operation", `/projects/${projectId}/operations/${operationId(77)}`, 404],
    ["another project's operation", `/projects/${projectId}/operations/${operationId(2)}`, 404],
    ["limit=0", `/projects/${projectId}/operations?limit=0`, 400],
    ["limit=1001", `/projects/${projectId}/operations?limit=1001`, 400],
    ["limit=abc", `/projects/${projectId}/operations?limit=abc`, 400],
    ["limit=-1", `/projects/${projectId}/operations?limit=-1`, 400],
    ["limit=2.5", `/projects/${projectId}/operations?limit=2.5`, 400],
    ["cursor not a timestamp", `/projects/${projectId}/operations?limit=5&cursor=yesterday`, 400],
    ["cursor a bare number", `/projects/${projectId}/operations?limit=5&cursor=1`, 400],
    ["cursor a year", `/projects/${projectId}/operations?limit=5&cursor=2022`, 400],
    [
      "cursor an HTTP date",
      `/projects/${projectId}/operations?cursor=Tue%2C%2015%20Nov%202022%2008%3A12%3A31%20GMT`,
      400
    ],
    ["projects cursor not a timestamp", "/projects?cursor=nope", 400],
    ["limit=1e2", `/projects/${projectId}/operations?limit=1e2`, 400],
    ["projects limit=401", "/projects?limit=401", 400],
    ["projects limit=0", "/projects?limit=0", 400],
    ["key_id not an integer", "/api_keys/abc", 400]
  ]
  for (const [name, path, expected] of cases) {
    it.effect(`${name} -> ${expected}`, () =>
      Effect.gen(function* () {
        const fake = yield* FakePlatform.FakePlatform
        const request = path.startsWith("/api_keys") ? HttpClientRequest.del(path) : get(path)
        const { status, body } = yield* read(yield* send(fake, request, { key: fake.bootstrapKey }))
        expect(status).toBe(expected)
        expect(isGeneralError(body)).toBe(true)
      }).pipe(provideFake)
    )
  }

  it.effect("the limits' bounds are accepted", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      for (const path of [
        `/projects/${projectId}/operations?limit=1`,
        `/projects/${projectId}/operations?limit=1000`,
        "/projects?limit=1",
        "/projects?limit=400"
      ]) {
        expect((yield* send(fake, get(path), { key: fake.bootstrapKey })).status).toBe(200)
      }
    }).pipe(provideFake)
  )
})

describe("POST /api_keys", () => {
  const post = (body: string) =>
    HttpClientRequest.post("/api_keys").pipe(HttpClientRequest.bodyText(body, "application/json"))

  const refused: ReadonlyArray<readonly [string, string]> = [
    ["a body that is not JSON", "{not json"],
    ["no key_name", "{}"],
    ["an empty key_name", `{"key_name":""}`],
    ["a blank key_name", `{"key_name":"   "}`],
    ["a key_name that is not a string", `{"key_name":42}`],
    ["a 65-character key_name", JSON.stringify({ key_name: "k".repeat(65) })]
  ]
  for (const [name, body] of refused) {
    it.effect(`refuses ${name} with a 400 and creates no key`, () =>
      Effect.gen(function* () {
        const fake = yield* FakePlatform.FakePlatform
        const answer = yield* read(yield* send(fake, post(body), { key: fake.bootstrapKey }))
        expect(answer.status).toBe(400)
        expect(isGeneralError(answer.body)).toBe(true)
        expect(yield* fake.apiKeys).toHaveLength(1)
      }).pipe(provideFake)
    )
  }

  it.effect("accepts a 64-character key_name: 200 with id, key, name, created_at and created_by", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const name = "k".repeat(64)
      const answer = yield* read(
        yield* send(fake, post(JSON.stringify({ key_name: name })), { key: fake.bootstrapKey })
      )
      expect(answer.status).toBe(200)
      expect(answer.body).toMatchObject({ name, created_at: "1970-01-01T00:00:00.000Z" })
      expect(typeof answer.body.id).toBe("number")
      expect(typeof answer.body.key).toBe("string")
      expect(typeof answer.body.created_by).toBe("string")
      expect(yield* fake.apiKeys).toHaveLength(2)
    }).pipe(provideFake)
  )

  it.effect("reads a streamed request body too (the in-memory client forwards every body kind)", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const body = Stream.make(new TextEncoder().encode(`{"key_name":`), new TextEncoder().encode(`"streamed"}`))
      const request = HttpClientRequest.post("/api_keys").pipe(
        HttpClientRequest.bodyStream(body, { contentType: "application/json" })
      )
      const answer = yield* read(yield* send(fake, request, { key: fake.bootstrapKey }))
      expect(answer.status).toBe(200)
      expect(answer.body.name).toBe("streamed")
      expect((yield* fake.apiKeys).map((key) => key.name)).toEqual(["bootstrap", "streamed"])
    }).pipe(provideFake)
  )

  it.effect("without a key it is a 401 and creates nothing", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      expect((yield* send(fake, post(`{"key_name":"x"}`))).status).toBe(401)
      expect(yield* fake.apiKeys).toHaveLength(1)
    }).pipe(provideFake)
  )
})

describe("response shapes", () => {
  it.effect("GET /api_keys is a bare array whose created_by is an object; no key values", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const { status, body } = yield* read(yield* send(fake, get("/api_keys"), { key: fake.bootstrapKey }))
      expect(status).toBe(200)
      expect(Array.isArray(body)).toBe(true)
      expect(body).toHaveLength(1)
      expect(body[0]).toMatchObject({ name: "bootstrap", last_used_from_addr: "" })
      expect(typeof body[0].created_by).toBe("object")
      expect(typeof body[0].created_by.id).toBe("string")
      expect(typeof body[0].created_by.name).toBe("string")
      expect(body[0]).not.toHaveProperty("key")
    }).pipe(provideFake)
  )

  it.effect("DELETE /api_keys/{id} answers with revoked: true and created_by as a uuid string", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const [bootstrap] = yield* fake.apiKeys
      const { status, body } = yield* read(
        yield* send(fake, HttpClientRequest.del(`/api_keys/${bootstrap!.id}`), { key: fake.bootstrapKey })
      )
      expect(status).toBe(200)
      expect(body).toMatchObject({ id: bootstrap!.id, name: "bootstrap", revoked: true })
      expect(body.created_by).toMatch(/^[0-9a-f-]{36}$/)
      // Revoking the key used for the request locks the account out from then on.
      expect((yield* send(fake, get("/projects"), { key: fake.bootstrapKey })).status).toBe(401)
      expect((yield* fake.apiKeys)[0]!.revoked).toBe(true)
    }).pipe(provideFake)
  )

  it.effect("the fake records every request with its method, path, decoded query and headers, the key redacted", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      yield* send(fake, get(`/projects/${projectId}/operations?limit=5&cursor=2024-01-01T00%3A00%3A00Z`), {
        key: fake.bootstrapKey,
        requestId: "req-1"
      })
      yield* send(fake, get("/projects"))
      const requests = yield* fake.requests
      expect(requests).toEqual([
        {
          method: "GET",
          path: `/api/v2/projects/${projectId}/operations`,
          query: { limit: "5", cursor: "2024-01-01T00:00:00Z" },
          headers: expect.objectContaining({ authorization: "Bearer <redacted>", "x-request-id": "req-1" })
        },
        { method: "GET", path: "/api/v2/projects", query: {}, headers: expect.any(Object) }
      ])
      expect(requests[1]!.headers).not.toHaveProperty("authorization")
      expect(requests.every((request) => request.fault === undefined)).toBe(true)
      expect(JSON.stringify(requests)).not.toContain(Redacted.value(fake.bootstrapKey))
    }).pipe(provideFake)
  )
})

describe("the request log keeps no credential", () => {
  it.effect("a key sent in a cookie, a proxy credential or an API key header is redacted; the names stay", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const key = Redacted.value(fake.bootstrapKey)
      // What the official CLI sends: the key as a bearer token and in two cookies.
      yield* send(
        fake,
        get("/projects").pipe(
          HttpClientRequest.setHeaders({
            cookie: `zenith=${key}; keycloak_token=${key}`,
            "proxy-authorization": `Basic ${key}`,
            "x-api-key": key,
            "x-trace": "t-1"
          })
        ),
        { key: fake.bootstrapKey }
      )
      const [request] = yield* fake.requests
      expect(request!.headers).toMatchObject({
        authorization: "Bearer <redacted>",
        cookie: "zenith=<redacted>; keycloak_token=<redacted>",
        "proxy-authorization": "Basic <redacted>",
        "x-api-key": "<redacted>",
        "x-trace": "t-1"
      })
      expect(JSON.stringify(yield* fake.requests)).not.toContain(key.slice(0, 16))
    }).pipe(provideFake)
  )
})

describe("the request log keeps no credential in the path", () => {
  it.effect(
    "a path segment that is an API key of the account, or shaped like a key or a token, is redacted as a query credential is",
    () =>
      Effect.gen(function* () {
        // A key of words, which no shape gives away: redacted as a key the fake knows.
        const fake = yield* FakePlatform.make({ ...seed, bootstrapKey: "plain-words-key" })
        const serverKey = `ssk_${"0123456789abcdef".repeat(2)}`
        const token = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEyMyJ9.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg"
        const paths = [
          "/nope/plain-words-key",
          `/nope/${serverKey}`,
          `/projects/${projectId}/branches/${encodeURIComponent(token)}`,
          `/projects/${projectId}/branches/br-wispy-meadow-118737`,
          `/projects/${projectId}/operations/${operationId(1)}`,
          "/projects/ep-proud-mud-a5x8dq2u/branches/br-x-1/databases/orders_2024_archive"
        ]
        for (const path of paths) yield* send(fake, get(path), { key: fake.bootstrapKey })
        expect((yield* fake.requests).map((request) => request.path)).toEqual([
          "/api/v2/nope/<redacted>",
          "/api/v2/nope/<redacted>",
          `/api/v2/projects/${projectId}/branches/<redacted>`,
          // The API's ids and names stay.
          `/api/v2/projects/${projectId}/branches/br-wispy-meadow-118737`,
          `/api/v2/projects/${projectId}/operations/${operationId(1)}`,
          "/api/v2/projects/ep-proud-mud-a5x8dq2u/branches/br-x-1/databases/orders_2024_archive"
        ])
        const log = JSON.stringify(yield* fake.requests)
        for (const secret of ["plain-words-key", serverKey, token.slice(0, 20)]) expect(log).not.toContain(secret)
      })
  )
})

describe("seeds", () => {
  it.effect("a seed with bad, repeated or orphan ids fails with InvalidSeed naming each problem", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        FakePlatform.make({
          projects: [{ id: "Bad_ID" }, { id: projectId }, { id: projectId }],
          operations: [
            { project_id: projectId, id: "not-a-uuid", action: "start_compute" },
            { project_id: projectId, id: operationId(1), action: "start_compute" },
            { project_id: projectId, id: operationId(1), action: "start_compute" },
            { project_id: "no-such-project", action: "start_compute" }
          ]
        })
      )
      expect(error._tag).toBe("InvalidSeed")
      expect(error.problems).toEqual([
        'project "Bad_ID": a project id is 1 to 60 of a-z, 0-9 and -',
        `project id ${projectId} appears twice`,
        'operation "not-a-uuid": expected OperationId',
        `operation id ${operationId(1)} appears twice`,
        "operation of unknown project no-such-project"
      ])
      expect(error.message).toContain("invalid seed: ")
    })
  )

  it.effect("projects carry org_id: the seed's, or the fake's one organization; GET /projects filters by it", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make({
        projects: [{ id: "billing-1", org_id: "org-billing-302709" }, { id: "web-2" }]
      })
      yield* fake.scenario.addProject({ id: "ingest-3", org_id: "org-billing-302709" })
      const list = (query: string) =>
        Effect.map(
          Effect.flatMap(send(fake, HttpClientRequest.get(`/projects${query}`), { key: fake.bootstrapKey }), read),
          (answer) => answer.body.projects.map((project: any) => `${project.id} ${project.org_id}`)
        )
      // Newest first: seeded projects of the same age are a millisecond apart, in seed order.
      expect(yield* list("")).toEqual([
        "ingest-3 org-billing-302709",
        "web-2 org-dbplatform-000000",
        "billing-1 org-billing-302709"
      ])
      expect(yield* list("?org_id=org-billing-302709")).toEqual([
        "ingest-3 org-billing-302709",
        "billing-1 org-billing-302709"
      ])
      const bad = yield* Effect.flip(FakePlatform.make({ projects: [{ id: "web-2", org_id: "Org One" }] }))
      expect(bad.problems).toEqual(["project web-2: org_id must be 1 to 60 of a-z, 0-9 and -"])
    })
  )
})
