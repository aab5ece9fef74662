/**
 * Every answer the fake sends, for every endpoint of core's table, success and error, validates
 * against the response schema of the same operation in the platform's published OpenAPI v2
 * document (loaded from `node_modules`, validated with Ajv 8 and ajv-formats: see `publishedReference.ts`).
 *
 * Each endpoint has cases below: requests that make the fake answer each success status the
 * endpoint declares and each error status it answers on its own (not through an injected fault).
 * The last test fails when an endpoint of the table, or one of its statuses, has no case.
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Endpoint } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as FakePlatform from "../src/FakePlatform.js"
import type * as Seed from "../src/Seed.js"
import { operationId, send } from "./helpers.js"
import { loadPublishedReference } from "./publishedReference.js"

const reference = loadPublishedReference()

const project = "spring-example-302709"
const pendingProject = "bold-river-120001"

const seed: Seed.Seed = {
  projects: [
    { id: project, name: "spring example" },
    { id: "shared-leaf-100001", shared: true },
    { id: pendingProject }
  ],
  operations: [
    { project_id: project, id: operationId(1), action: "create_timeline", age: "1 hour" },
    {
      project_id: project,
      id: operationId(2),
      action: "start_compute",
      age: "10 minutes",
      status: "failed",
      error: "no"
    },
    { project_id: pendingProject, id: operationId(3), action: "start_compute", runsFor: "1 hour" }
  ]
}

/** What a case may use: the fake, and its bootstrap key's value. */
interface Fixture {
  readonly fake: FakePlatform.Service
  readonly key: string
}

/** One request to one endpoint of the table. */
interface Case {
  readonly endpoint: Endpoint.Endpoint
  readonly label: string
  readonly status: number
  /** The request, relative to the base URL. */
  readonly request: (fixture: Fixture) => Effect.Effect<HttpClientRequest.HttpClientRequest>
  /** Sent without a key (a 401). */
  readonly anonymous?: boolean
}

const get = (path: string) => Effect.succeed(HttpClientRequest.get(path))

const cases: ReadonlyArray<Case> = [
  {
    endpoint: Endpoint.createApiKey,
    label: "a key created",
    status: 200,
    request: () =>
      HttpClientRequest.post("/api_keys").pipe(HttpClientRequest.bodyJson({ key_name: "ci" }), Effect.orDie)
  },
  {
    endpoint: Endpoint.createApiKey,
    label: "no key_name",
    status: 400,
    request: () => HttpClientRequest.post("/api_keys").pipe(HttpClientRequest.bodyJson({}), Effect.orDie)
  },
  {
    endpoint: Endpoint.createApiKey,
    label: "no API key",
    status: 401,
    anonymous: true,
    request: () =>
      HttpClientRequest.post("/api_keys").pipe(HttpClientRequest.bodyJson({ key_name: "ci" }), Effect.orDie)
  },
  { endpoint: Endpoint.listApiKeys, label: "the keys", status: 200, request: () => get("/api_keys") },
  {
    endpoint: Endpoint.revokeApiKey,
    label: "a key revoked",
    status: 200,
    request: ({ fake }) =>
      Effect.map(fake.scenario.addApiKey("to revoke"), (key) => HttpClientRequest.del(`/api_keys/${key.id}`))
  },
  {
    endpoint: Endpoint.revokeApiKey,
    label: "an unknown key",
    status: 404,
    request: () => get("/api_keys/42").pipe(Effect.map(HttpClientRequest.setMethod("DELETE")))
  },
  {
    endpoint: Endpoint.revokeApiKey,
    label: "a key id that is not a number",
    status: 400,
    request: () => Effect.succeed(HttpClientRequest.del("/api_keys/abc"))
  },
  { endpoint: Endpoint.listProjects, label: "a page", status: 200, request: () => get("/projects?limit=2") },
  {
    endpoint: Endpoint.listProjects,
    label: "a limit too large",
    status: 400,
    request: () => get("/projects?limit=401")
  },
  { endpoint: Endpoint.listSharedProjects, label: "a page", status: 200, request: () => get("/projects/shared") },
  {
    endpoint: Endpoint.listSharedProjects,
    label: "a bad cursor",
    status: 400,
    request: () => get("/projects/shared?cursor=nope")
  },
  {
    endpoint: Endpoint.listOperations,
    label: "a page",
    status: 200,
    request: () => get(`/projects/${project}/operations?limit=5`)
  },
  {
    endpoint: Endpoint.listOperations,
    label: "a pending one",
    status: 200,
    request: () => get(`/projects/${pendingProject}/operations`)
  },
  {
    endpoint: Endpoint.listOperations,
    label: "an unknown project",
    status: 404,
    request: () => get("/projects/no-such-project/operations")
  },
  {
    endpoint: Endpoint.listOperations,
    label: "a limit of 0",
    status: 400,
    request: () => get(`/projects/${project}/operations?limit=0`)
  },
  {
    endpoint: Endpoint.getOperation,
    label: "a finished one",
    status: 200,
    request: () => get(`/projects/${project}/operations/${operationId(1)}`)
  },
  {
    endpoint: Endpoint.getOperation,
    label: "a failed one",
    status: 200,
    request: () => get(`/projects/${project}/operations/${operationId(2)}`)
  },
  {
    endpoint: Endpoint.getOperation,
    label: "an unknown operation",
    status: 404,
    request: () => get(`/projects/${project}/operations/${operationId(99)}`)
  },
  {
    endpoint: Endpoint.getOperation,
    label: "an id that is not a UUID",
    status: 400,
    request: () => get(`/projects/${project}/operations/nope`)
  }
]

/**
 * Error statuses an endpoint declares that the fake never answers on its own (only an injected
 * `Fault` or a rate limit does), by endpoint name: 403 (the fake's account sees all it holds),
 * and 423 for API keys (a key is never locked in the fake).
 */
const neverSentUnprompted: Readonly<Record<string, ReadonlyArray<string>>> = {
  "ApiKeys.create": ["Locked"],
  "ApiKeys.revoke": ["Locked"],
  "Operations.list": ["Forbidden"],
  "Operations.get": ["Forbidden"]
}

const statusOf: Readonly<Record<string, number>> = {
  BadRequest: 400,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  Locked: 423
}

/** The success statuses of `endpoint` (200 for an endpoint that declares none). */
const successStatuses = (endpoint: Endpoint.Endpoint): ReadonlyArray<number> =>
  (endpoint as { readonly statuses?: ReadonlyArray<number> }).statuses ?? [200]

describe("the fake's answers against the published reference", () => {
  it("finds the document and every endpoint of the table in it", () => {
    for (const endpoint of Endpoint.all) {
      expect(reference.has(endpoint.method, endpoint.route), `${endpoint.method} ${endpoint.route}`).toBe(true)
    }
    // Formats Ajv does not know, accepted as they are (the list is documented in publishedReference.ts).
    expect([...reference.unknownFormats].sort()).toEqual(["int", "uint64"])
  })

  it("refuses an answer that breaks the document's schema", () => {
    const validate = reference.response("GET", Endpoint.getOperation.route, 200)!.validate!
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
      const fake = yield* FakePlatform.make(seed)
      const key = Redacted.value(fake.bootstrapKey)
      const request = yield* c.request({ fake, key })
      const response = yield* send(fake, request, c.anonymous === true ? {} : { key })
      const text = yield* response.text
      expect(response.status, text).toBe(c.status)
      const published = reference.response(c.endpoint.method, c.endpoint.route, response.status)
      expect(published, `the document declares ${response.status} or default`).toBeDefined()
      if (response.status < 300) expect(published!.declaredAs).toBe(String(response.status))
      if (published!.validate === undefined) {
        expect(text).toBe("")
        return
      }
      const valid = published!.validate(JSON.parse(text))
      expect(published!.validate.errors ?? [], text.slice(0, 2000)).toEqual([])
      expect(valid).toBe(true)
    }).pipe(Effect.scoped)
  )

  it("has a case for every endpoint of the table and each status it answers on its own", () => {
    const missing: Array<string> = []
    for (const endpoint of Endpoint.all) {
      const covered = new Set(cases.filter((c) => c.endpoint === endpoint).map((c) => c.status))
      const never = new Set(neverSentUnprompted[endpoint.name] ?? [])
      const wanted = [
        ...successStatuses(endpoint),
        ...endpoint.errors.filter((tag) => !never.has(tag)).map((tag) => statusOf[tag]!)
      ]
      for (const status of wanted) if (!covered.has(status)) missing.push(`${endpoint.name} ${status}`)
    }
    expect(missing).toEqual([])
  })
})
