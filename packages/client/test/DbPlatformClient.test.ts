import {
  ApiKeyId,
  BadRequest,
  EndpointId,
  type OperationId,
  type ProjectId,
  Forbidden,
  Locked,
  NotFound,
  RateLimited,
  ServerError,
  ServiceUnavailable,
  Unauthorized,
  UnexpectedStatus
} from "@dbplatform/core"
import * as HttpClient from "@effect/platform/HttpClient"
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as ConfigError from "effect/ConfigError"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import * as util from "node:util"
import { ApiKeys, Branches, ComputeEndpoints, DbPlatform, Operations, Organizations, Projects } from "../src/index.js"
import {
  apiKeyCreated,
  baseUrl,
  operationId,
  operationItem,
  projectId,
  projectItem,
  projectsPage,
  secret
} from "./fixtures.js"
import { json, raw, type Reply, type Scripted, scripted, transportFailure } from "./scripted.js"

// --- fixtures ---------------------------------------------------------------------------------

/** Retries are off here: these tests are about what one response maps to (see Retries.test.ts). */
const layerFor = (script: Scripted) =>
  DbPlatform.layer({ baseUrl, apiKey: Redacted.make(secret), retrySchedule: Schedule.stop }).pipe(
    Layer.provide(script.layer)
  )

/** Runs `self` against the services built over the scripted client. */
const withScript =
  (script: Scripted) =>
  <A, E>(self: Effect.Effect<A, E, DbPlatform.DbPlatform>): Effect.Effect<A, E> =>
    Effect.provide(self, Layer.orDie(layerFor(script)))

/** The API key must not leak through any rendering of an error. */
const expectNoSecret = (error: unknown) => {
  expect(String(error)).not.toContain(secret)
  expect(JSON.stringify(error)).not.toContain(secret)
  expect(util.inspect(error, { depth: 10 })).not.toContain(secret)
  if (error instanceof Error) {
    expect(error.message).not.toContain(secret)
  }
}

const fieldOf = (error: unknown, field: string): unknown => (error as Record<string, unknown>)[field]

// --- statuses ---------------------------------------------------------------------------------

/** A call, the request line it sends and its endpoint's route template. */
interface Probe {
  readonly method: string
  readonly route: string
  readonly path: string
  readonly run: Effect.Effect<unknown, { readonly _tag: string; readonly message: string }, DbPlatform.DbPlatform>
}

const projectsPageProbe: Probe = {
  method: "GET",
  route: "/projects",
  path: "/projects",
  run: Effect.flatMap(Projects.Projects, (projects) => projects.listPage())
}
const operationsPageProbe: Probe = {
  method: "GET",
  route: "/projects/{project_id}/operations",
  path: "/projects/spring-example-302709/operations",
  run: Effect.flatMap(Operations.Operations, (operations) => operations.listPage({ project_id: projectId }))
}
const operationGetProbe: Probe = {
  method: "GET",
  route: "/projects/{project_id}/operations/{operation_id}",
  path: `/projects/spring-example-302709/operations/${operationId}`,
  run: Effect.flatMap(Operations.Operations, (operations) =>
    operations.get({ project_id: projectId, operation_id: operationId })
  )
}
const revokeProbe: Probe = {
  method: "DELETE",
  route: "/api_keys/{key_id}",
  path: "/api_keys/42",
  run: Effect.flatMap(ApiKeys.ApiKeys, (apiKeys) => apiKeys.revoke({ key_id: ApiKeyId.make(42) }))
}
const suspendProbe: Probe = {
  method: "POST",
  route: "/projects/{project_id}/endpoints/{endpoint_id}/suspend",
  path: "/projects/spring-example-302709/endpoints/ep-cool-darkness-123456/suspend",
  run: Effect.flatMap(ComputeEndpoints.ComputeEndpoints, (endpoints) =>
    endpoints.suspend({ project_id: projectId, endpoint_id: EndpointId.make("ep-cool-darkness-123456") })
  )
}
const branchesPageProbe: Probe = {
  method: "GET",
  route: "/projects/{project_id}/branches",
  path: "/projects/spring-example-302709/branches",
  run: Effect.flatMap(Branches.Branches, (branches) => branches.listPage({ project_id: projectId }))
}

/** Each status, the error it maps to, and a call whose endpoint answers with it. */
const statuses = [
  { status: 400, tag: "BadRequest", type: BadRequest, probe: projectsPageProbe },
  { status: 422, tag: "BadRequest", type: BadRequest, probe: projectsPageProbe },
  { status: 401, tag: "Unauthorized", type: Unauthorized, probe: projectsPageProbe },
  { status: 403, tag: "Forbidden", type: Forbidden, probe: operationsPageProbe },
  { status: 404, tag: "NotFound", type: NotFound, probe: operationGetProbe },
  { status: 423, tag: "Locked", type: Locked, probe: revokeProbe },
  { status: 423, tag: "Locked", type: Locked, probe: suspendProbe },
  { status: 429, tag: "RateLimited", type: RateLimited, probe: projectsPageProbe },
  { status: 429, tag: "RateLimited", type: RateLimited, probe: branchesPageProbe },
  { status: 500, tag: "ServerError", type: ServerError, probe: projectsPageProbe },
  { status: 502, tag: "ServerError", type: ServerError, probe: projectsPageProbe },
  { status: 504, tag: "ServerError", type: ServerError, probe: projectsPageProbe },
  { status: 503, tag: "ServiceUnavailable", type: ServiceUnavailable, probe: projectsPageProbe },
  { status: 418, tag: "UnexpectedStatus", type: UnexpectedStatus, probe: projectsPageProbe },
  // a 404 is NotFound from any endpoint, declared or not (docs/design.md §1.6)
  { status: 404, tag: "NotFound", type: NotFound, probe: projectsPageProbe },
  // other statuses an endpoint does not answer with become UnexpectedStatus, keeping what the server said
  { status: 409, tag: "UnexpectedStatus", type: UnexpectedStatus, probe: projectsPageProbe },
  { status: 403, tag: "UnexpectedStatus", type: UnexpectedStatus, probe: revokeProbe },
  { status: 423, tag: "UnexpectedStatus", type: UnexpectedStatus, probe: projectsPageProbe }
] as const

const generalError = { code: "E_TEST", message: "the server says no", request_id: "req-7f3a" }

/** How a message names each status. */
const reasons: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  418: "HTTP error",
  422: "Unprocessable Entity",
  423: "Locked",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout"
}

/**
 * Whether the status is safe to retry for the probe's method (423, 429, 503 for any; other 5xx
 * for GET). Retries are off here, so such an error says it was not retried: `retryStop`.
 */
const retryable = (status: number, method: string) =>
  status === 423 || status === 429 || status === 503 || (status >= 500 && method === "GET")
const notRetried = { _tag: "RetriesExhausted", attempts: 1 } as const

/** Bodies a proxy or the API answers an error with; only the GeneralError one fills fields. */
const bodyKinds: ReadonlyArray<{ readonly kind: string; readonly reply: (status: number) => Reply }> = [
  { kind: "an empty body", reply: (status) => raw(status, null) },
  { kind: "an empty body typed as JSON", reply: (status) => raw(status, "", { "content-type": "application/json" }) },
  {
    kind: "a text/plain body",
    reply: (status) =>
      raw(status, "upstream connect error or disconnect/reset before headers", {
        "content-type": "text/plain; charset=utf-8"
      })
  },
  {
    kind: "an HTML page",
    reply: (status) =>
      raw(status, "<html><head><title>Oops</title></head><body><h1>Gateway trouble</h1><hr>nginx</body></html>", {
        "content-type": "text/html"
      })
  },
  { kind: "JSON that is not a GeneralError", reply: (status) => json(status, { error: "nope", detail: 42 }) }
]

describe("error statuses", () => {
  for (const { status, tag, type, probe } of statuses) {
    describe(`${status} on ${probe.method} ${probe.path} -> ${tag}`, () => {
      it.effect("with a JSON GeneralError body: code, description, requestId, status, method, route, path", () => {
        const script = scripted([json(status, generalError)])
        return Effect.gen(function* () {
          const error = yield* Effect.flip(probe.run)
          expect(error._tag).toBe(tag)
          expect(error).toBeInstanceOf(type)
          expect(error).toMatchObject({
            status,
            method: probe.method,
            route: probe.route,
            path: probe.path,
            code: "E_TEST",
            description: "the server says no",
            requestId: "req-7f3a"
          })
          expect(fieldOf(error, "retryStop")).toEqual(retryable(status, probe.method) ? notRetried : undefined)
          // The message names the path sent, ids filled in; the route template is a field.
          expect(error.message).toBe(
            `${probe.method} ${probe.path}: ${status} ${reasons[status]}: the server says no (request id req-7f3a)${
              status === 404 ? `; sent to ${baseUrl}${probe.path}` : ""
            }${retryable(status, probe.method) ? "; not retried: the retry schedule ended" : ""}`
          )
          expect(script.requests).toHaveLength(1)
          expectNoSecret(error)
        }).pipe(withScript(script))
      })

      for (const { kind, reply } of bodyKinds) {
        it.effect(`with ${kind}: the message names the status and the request`, () => {
          const script = scripted([reply(status)])
          return Effect.gen(function* () {
            const error = yield* Effect.flip(probe.run)
            expect(error._tag).toBe(tag)
            expect(error).toBeInstanceOf(type)
            expect(error).toMatchObject({ status, method: probe.method, route: probe.route, path: probe.path })
            expect(error.message).toContain(`${probe.method} ${probe.path}: ${status} ${reasons[status]}`)
            expect(error.message).not.toContain("<")
            expect(fieldOf(error, "code")).toBeUndefined()
            expect(fieldOf(error, "description")).toBeUndefined()
            // without a request_id from the server, the error keeps the X-Request-ID the client sent
            expect(fieldOf(error, "requestId")).toBe(script.requests[0]?.headers["x-request-id"])
            expect(script.requests).toHaveLength(1)
            expectNoSecret(error)
          }).pipe(withScript(script))
        })
      }
    })
  }

  it.effect('a GeneralError with an empty code and message keeps code "" and names the status', () => {
    const script = scripted([json(404, { code: "", message: "" })])
    return Effect.gen(function* () {
      const error = yield* Effect.flip(operationGetProbe.run)
      expect(error._tag).toBe("NotFound")
      expect(fieldOf(error, "code")).toBe("")
      expect(fieldOf(error, "description")).toBeUndefined()
      expect(fieldOf(error, "path")).toBe(operationGetProbe.path)
      expect(error.message).toBe(
        `GET ${operationGetProbe.path}: 404 Not Found (request id ${script.requests[0]?.headers["x-request-id"]}); sent to ${baseUrl}${operationGetProbe.path}`
      )
    }).pipe(withScript(script))
  })

  // A base URL without the version segment: every route is unknown to the server.
  for (const [label, withoutVersion] of [
    ["the server's root", "http://fake.test"],
    ["a trailing slash", "http://fake.test/"],
    ["a path of its own", "http://fake.test/platform"]
  ] as const) {
    it.effect(
      `a 404 "route not found" with a base URL at ${label}, no /api/v2: the URL sent and the missing segment`,
      () => {
        const script = scripted([json(404, { code: "", message: "route not found" })])
        return Effect.gen(function* () {
          const error = yield* Effect.flip(Effect.flatMap(Projects.Projects, (projects) => projects.listPage()))
          const base = withoutVersion.replace(/\/$/, "")
          expect(error._tag).toBe("NotFound")
          expect(error).toMatchObject({ status: 404, path: "/projects", baseUrl: base })
          expect(error.message).toBe(
            `GET /projects: 404 Not Found: route not found (request id ${script.requests[0]?.headers["x-request-id"]}); sent to ${base}/projects: the base URL ${base} does not end with the API's version segment /api/v2 (is it ${base}/api/v2?)`
          )
          expect(script.requests[0]?.url).toBe(`${base}/projects`)
          expectNoSecret(error)
        }).pipe(
          Effect.provide(
            Layer.orDie(
              DbPlatform.layer({
                baseUrl: withoutVersion,
                apiKey: Redacted.make(secret),
                retrySchedule: Schedule.stop
              }).pipe(Layer.provide(script.layer))
            )
          )
        )
      }
    )
  }

  it.effect(
    'the same 404 from a wrong base URL is NotFound on every endpoint: catchTag("NotFound") catches it on GET /projects and on a branches call',
    () => {
      // A base URL without /api/v2: the server knows none of the routes, and answers every call 404.
      const wrongBaseUrl = "http://fake.test"
      const script = scripted(() => json(404, { code: "", message: "route not found" }))
      return Effect.gen(function* () {
        const projects = yield* Projects.Projects
        const branches = yield* Branches.Branches
        // Each `catchTag("NotFound", ...)` typechecks only because NotFound is in the method's error type.
        const onProjects = yield* projects.listPage().pipe(
          Effect.andThen(() => "answered"),
          Effect.catchTag("NotFound", (error) => Effect.succeed(`NotFound: ${error.message}`))
        )
        const onBranches = yield* branches.listPage({ project_id: projectId }).pipe(
          Effect.andThen(() => "answered"),
          Effect.catchTag("NotFound", (error) => Effect.succeed(`NotFound: ${error.message}`))
        )
        const onProjectsStream = yield* Stream.runDrain(projects.list()).pipe(
          Effect.andThen(() => "answered"),
          Effect.catchTag("NotFound", (error) => Effect.succeed(`NotFound: ${error.message}`))
        )
        const hint = `the base URL ${wrongBaseUrl} does not end with the API's version segment /api/v2`
        expect(onProjects).toMatch(/^NotFound: GET \/projects: 404 Not Found: route not found/)
        expect(onProjects).toContain(hint)
        expect(onProjectsStream).toMatch(/^NotFound: GET \/projects: 404 Not Found/)
        expect(onBranches).toMatch(
          /^NotFound: GET \/projects\/spring-example-302709\/branches: 404 Not Found: route not found/
        )
        expect(onBranches).toContain(hint)
        expect(script.requests.map((request) => request.url)).toEqual([
          `${wrongBaseUrl}/projects`,
          `${wrongBaseUrl}/projects/spring-example-302709/branches`,
          `${wrongBaseUrl}/projects?limit=100`
        ])
        // The message names the path sent, never the query.
        expect(onProjectsStream).not.toContain("limit")
      }).pipe(
        Effect.provide(
          Layer.orDie(
            DbPlatform.layer({
              baseUrl: wrongBaseUrl,
              apiKey: Redacted.make(secret),
              retrySchedule: Schedule.stop
            }).pipe(Layer.provide(script.layer))
          )
        )
      )
    }
  )

  it.effect("only a 404 names the URL: a 403 on the same base URL does not", () => {
    const script = scripted([json(403, { code: "", message: "forbidden" })])
    return Effect.gen(function* () {
      const error = yield* Effect.flip(operationGetProbe.run)
      expect(error.message).not.toContain("sent to")
      expect(error.message).not.toContain("http://")
    }).pipe(withScript(script))
  })

  it.effect("the request id comes from the X-Request-ID header when the body has none", () => {
    const script = scripted([
      raw(502, "<html>bad gateway</html>", { "content-type": "text/html", "x-request-id": "hdr-1" })
    ])
    return Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const error = yield* Effect.flip(projects.listPage())
      expect(error).toMatchObject({ _tag: "ServerError", requestId: "hdr-1" })
    }).pipe(withScript(script))
  })

  it.effect("a 409 on POST /api_keys (not one of its statuses) names POST and /api_keys", () => {
    const script = scripted([json(409, { code: "CONFLICT", message: "key name taken" })])
    return Effect.gen(function* () {
      const apiKeys = yield* ApiKeys.ApiKeys
      const error = yield* Effect.flip(apiKeys.create({ key_name: "ci" }))
      expect(error).toMatchObject({
        _tag: "UnexpectedStatus",
        status: 409,
        method: "POST",
        route: "/api_keys",
        path: "/api_keys",
        code: "CONFLICT",
        description: "key name taken"
      })
      expect(error.message).toBe(
        `POST /api_keys: 409 Conflict: key name taken (request id ${script.requests[0]?.headers["x-request-id"]})`
      )
      expectNoSecret(error)
    }).pipe(withScript(script))
  })

  it.effect("a 404 on DELETE /api_keys/{id} names DELETE and the key's path", () => {
    const script = scripted([json(404, { code: "", message: "API key not found" })])
    return Effect.gen(function* () {
      const apiKeys = yield* ApiKeys.ApiKeys
      const error = yield* Effect.flip(apiKeys.revoke({ key_id: ApiKeyId.make(42) }))
      expect(error).toMatchObject({
        _tag: "NotFound",
        method: "DELETE",
        route: "/api_keys/{key_id}",
        path: "/api_keys/42",
        code: "",
        description: "API key not found"
      })
    }).pipe(withScript(script))
  })

  it.effect("an error's path has no query string", () => {
    const script = scripted([raw(500, null)])
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const error = yield* Effect.flip(
        operations.listPage({ project_id: projectId, limit: 5, cursor: "2022-12-09T08:47:52.20417Z" })
      )
      expect(error).toMatchObject({
        _tag: "ServerError",
        method: "GET",
        route: "/projects/{project_id}/operations",
        path: "/projects/spring-example-302709/operations"
      })
    }).pipe(withScript(script))
  })
})

describe("Retry-After", () => {
  it.effect("429 with Retry-After in seconds -> retryAfter", () => {
    const script = scripted([json(429, { code: "", message: "rate limit exceeded" }, { "retry-after": "30" })])
    return Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const error = yield* Effect.flip(projects.listPage())
      expect(error).toMatchObject({ _tag: "RateLimited", retryAfter: "30", description: "rate limit exceeded" })
    }).pipe(withScript(script))
  })

  it.effect("429 from a proxy (empty body) with Retry-After -> retryAfter", () => {
    const script = scripted([raw(429, null, { "Retry-After": "2" })])
    return Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const error = yield* Effect.flip(projects.listPage())
      expect(error).toMatchObject({ _tag: "RateLimited", retryAfter: "2" })
    }).pipe(withScript(script))
  })

  it.effect("503 with Retry-After as an HTTP date -> retryAfter, kept as sent", () => {
    const date = "Wed, 21 Oct 2015 07:28:00 GMT"
    const script = scripted([raw(503, "<html>down</html>", { "content-type": "text/html", "retry-after": date })])
    return Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const error = yield* Effect.flip(projects.listPage())
      expect(error).toMatchObject({ _tag: "ServiceUnavailable", retryAfter: date })
    }).pipe(withScript(script))
  })

  it.effect("429 without Retry-After -> retryAfter undefined", () => {
    const script = scripted([raw(429, null)])
    return Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const error = yield* Effect.flip(projects.listPage())
      expect(error._tag).toBe("RateLimited")
      expect(fieldOf(error, "retryAfter")).toBeUndefined()
    }).pipe(withScript(script))
  })
})

// --- malformed success bodies and transport failures -----------------------------------------

describe("MalformedResponse", () => {
  it.effect("a 200 whose body is not JSON", () => {
    const script = scripted([raw(200, "<html>maintenance</html>", { "content-type": "text/html" })])
    return Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const error = yield* Effect.flip(projects.listPage())
      expect(error).toMatchObject({
        _tag: "MalformedResponse",
        status: 200,
        method: "GET",
        route: "/projects",
        path: "/projects",
        description: "the body is not JSON"
      })
      expect(error.message).toBe(
        `GET /projects: the 200 answer cannot be used: the body is not JSON (request id ${script.requests[0]?.headers["x-request-id"]})`
      )
      expectNoSecret(error)
    }).pipe(withScript(script))
  })

  it.effect("a 200 with JSON of the wrong shape names the offending field", () => {
    const script = scripted([json(200, { ...apiKeyCreated, id: "seven" })])
    return Effect.gen(function* () {
      const apiKeys = yield* ApiKeys.ApiKeys
      const error = yield* Effect.flip(apiKeys.create({ key_name: "ci" }))
      expect(error).toMatchObject({ _tag: "MalformedResponse", status: 200, method: "POST", path: "/api_keys" })
      expect(fieldOf(error, "description")).toMatch(/^the body does not match: id: expected /)
      expect(error.message).not.toContain("seven")
      expect(error.message).not.toContain(apiKeyCreated.key)
      expectNoSecret(error)
    }).pipe(withScript(script))
  })

  it.effect("a 200 whose list item misses a required field names it", () => {
    const { status: _status, ...noStatus } = operationItem(1)
    const script = scripted([json(200, { operations: [operationItem(2), noStatus] })])
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const error = yield* Effect.flip(operations.listPage({ project_id: projectId }))
      expect(error).toMatchObject({
        _tag: "MalformedResponse",
        status: 200,
        method: "GET",
        path: "/projects/spring-example-302709/operations"
      })
      expect(fieldOf(error, "description")).toBe("the body does not match: operations.1.status: is missing")
    }).pipe(withScript(script))
  })

  it.effect("unknown fields, an unknown action and an unknown status still decode", () => {
    const item = { ...operationItem(1), action: "brand_new_action", status: "paused", shiny: { x: 1 } }
    const script = scripted([json(200, { operations: [item], pagination: { cursor: "c" }, extra: true })])
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const page = yield* operations.listPage({ project_id: projectId })
      expect(page.operations).toHaveLength(1)
      expect(page.operations[0]).toMatchObject({ action: "brand_new_action", status: "paused" })
      expect(page.pagination?.cursor).toBe("c")
    }).pipe(withScript(script))
  })

  it.effect("a 200 of another object shape names the missing fields without the body", () => {
    const script = scripted([json(200, { api_key: apiKeyCreated })])
    return Effect.gen(function* () {
      const apiKeys = yield* ApiKeys.ApiKeys
      const error = yield* Effect.flip(apiKeys.create({ key_name: "ci" }))
      expect(error._tag).toBe("MalformedResponse")
      expect(fieldOf(error, "description")).toBe("the body does not match: id: is missing; key: is missing")
      expect(error.message).not.toContain(apiKeyCreated.key)
    }).pipe(withScript(script))
  })

  // A body may hold a created key's value: a MalformedResponse names paths and expectations, never values.
  it.effect("a 200 of the wrong type at the top level does not copy the body into the message", () => {
    const script = scripted([json(200, [apiKeyCreated])])
    return Effect.gen(function* () {
      const apiKeys = yield* ApiKeys.ApiKeys
      const error = yield* Effect.flip(apiKeys.create({ key_name: "ci" }))
      expect(error._tag).toBe("MalformedResponse")
      expect(error.message).not.toContain(apiKeyCreated.key)
    }).pipe(withScript(script))
  })
})

describe("TransportError", () => {
  it.effect("a GET that gets no response -> TransportError with method and path", () => {
    const script = scripted([transportFailure(new Error("connect ECONNREFUSED 127.0.0.1:443"))])
    return Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const error = yield* Effect.flip(projects.listPage({ limit: 10 }))
      expect(error).toMatchObject({ _tag: "TransportError", method: "GET", route: "/projects", path: "/projects" })
      expect(fieldOf(error, "description")).toContain("connect ECONNREFUSED 127.0.0.1:443")
      // a GET is safe to retry; with retries off, the error says it was not retried
      expect(fieldOf(error, "retryStop")).toEqual({ _tag: "RetriesExhausted", attempts: 1 })
      const requestId = script.requests[0]?.headers["x-request-id"]
      expect(fieldOf(error, "requestId")).toBe(requestId)
      expect(error.message).toBe(
        `GET /projects: no response: ${fieldOf(error, "description")} (request id ${requestId}); not retried: the retry schedule ended`
      )
      expect(script.requests).toHaveLength(1)
      expectNoSecret(error)
    }).pipe(withScript(script))
  })

  it.effect("a POST that gets no response -> TransportError with POST and /api_keys", () => {
    const script = scripted([transportFailure(new Error("socket hang up"))])
    return Effect.gen(function* () {
      const apiKeys = yield* ApiKeys.ApiKeys
      const error = yield* Effect.flip(apiKeys.create({ key_name: "ci" }))
      expect(error).toMatchObject({ _tag: "TransportError", method: "POST", route: "/api_keys", path: "/api_keys" })
      expect(fieldOf(error, "description")).toContain("socket hang up")
      // a POST with no response is not safe to retry: no retryStop, and the message says nothing of retries
      expect(fieldOf(error, "retryStop")).toBeUndefined()
      expect(error.message).toMatch(/^POST \/api_keys: no response: .*socket hang up \(request id [0-9a-f-]{36}\)$/)
      expectNoSecret(error)
    }).pipe(withScript(script))
  })

  it.effect("a transport message quoting the key keeps its words, not the key", () => {
    const cause = new TypeError("fetch failed", {
      cause: new Error(`Headers.append: "Bearer ${secret}" is an invalid header value (${encodeURIComponent(secret)})`)
    })
    const script = scripted([transportFailure(cause)])
    return Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const error = yield* Effect.flip(projects.listPage())
      expect(fieldOf(error, "description")).toContain(
        'fetch failed: Headers.append: "Bearer <redacted>" is an invalid header value'
      )
      expect(error.message).toContain('fetch failed: Headers.append: "Bearer <redacted>" is an invalid header value')
      // the cause keeps the transport's chain, names and messages, with the key taken out
      const kept = fieldOf(error, "cause")
      expect(kept).toBeInstanceOf(Error)
      expect(kept).toMatchObject({ name: "TypeError", message: "fetch failed" })
      const inner = (kept as Error).cause
      expect(inner).toBeInstanceOf(Error)
      expect((inner as Error).message).toContain('Headers.append: "Bearer <redacted>" is an invalid header value')
      expect(util.inspect(kept, { depth: 10 })).not.toContain(secret)
      expectNoSecret(error)
    }).pipe(withScript(script))
  })

  it.effect("a body repeating the key many times leaves no part of it, wherever the message is cut", () => {
    // Each copy shortens once scrubbed: a cut made before scrubbing would bring a split copy into the kept text.
    const key = `dbp_${"l0ngk3y".repeat(28)}`
    const message = `${key} `.repeat(300)
    const script = scripted([json(401, { code: "", message })])
    return Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const error = yield* Effect.flip(projects.listPage())
      const description = fieldOf(error, "description") as string
      expect(description.length).toBeLessThanOrEqual(501)
      expect(description).toMatch(/^<redacted> <redacted> /)
      for (const text of [description, error.message, JSON.stringify(error)]) {
        expect(text).not.toContain(key.slice(0, 8))
      }
    }).pipe(
      Effect.provide(
        Layer.orDie(DbPlatform.layer({ baseUrl, apiKey: Redacted.make(key) }).pipe(Layer.provide(script.layer)))
      )
    )
  })
})

// --- input refused before sending ------------------------------------------------------------

describe("InvalidRequest: nothing is sent", () => {
  const names: ReadonlyArray<readonly [string, string]> = [
    ["an empty name", ""],
    ["a blank name", "   "],
    ["a 65-character name", "k".repeat(65)]
  ]
  for (const [label, name] of names) {
    it.effect(`ApiKeys.create with ${label}`, () => {
      const script = scripted([json(200, apiKeyCreated)])
      return Effect.gen(function* () {
        const apiKeys = yield* ApiKeys.ApiKeys
        const error = yield* Effect.flip(apiKeys.create({ key_name: name }))
        expect(error._tag).toBe("InvalidRequest")
        expect(error.message).toMatch(/key_name/)
        expect(script.requests).toHaveLength(0)
        expectNoSecret(error)
      }).pipe(withScript(script))
    })
  }

  const operationLimits: ReadonlyArray<number> = [0, 1001, -1, 1.5, Number.NaN]
  for (const limit of operationLimits) {
    it.effect(`Operations.page with limit ${limit}`, () => {
      const script = scripted([json(200, { operations: [] })])
      return Effect.gen(function* () {
        const operations = yield* Operations.Operations
        const error = yield* Effect.flip(operations.listPage({ project_id: projectId, limit }))
        expect(error._tag).toBe("InvalidRequest")
        expect(error.message).toMatch(/limit|integer/)
        expect(script.requests).toHaveLength(0)
      }).pipe(withScript(script))
    })
  }

  const projectLimits: ReadonlyArray<number> = [0, 401]
  for (const limit of projectLimits) {
    it.effect(`Projects.page with limit ${limit}`, () => {
      const script = scripted([json(200, projectsPage)])
      return Effect.gen(function* () {
        const projects = yield* Projects.Projects
        const error = yield* Effect.flip(projects.listPage({ limit }))
        expect(error._tag).toBe("InvalidRequest")
        expect(error.message).toBe("GET /projects: limit: must be an integer from 1 to 400")
        expect(script.requests).toHaveLength(0)
      }).pipe(withScript(script))
    })
  }

  it.effect("Operations.page with limit 1001: the message names the field and the range", () => {
    const script = scripted([json(200, { operations: [] })])
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const error = yield* Effect.flip(operations.listPage({ project_id: projectId, limit: 1001 }))
      expect(error).toMatchObject({
        _tag: "InvalidRequest",
        message: "GET /projects/{project_id}/operations: limit: must be an integer from 1 to 1000"
      })
      expect(script.requests).toHaveLength(0)
    }).pipe(withScript(script))
  })

  it.effect("ApiKeys.revoke with an id that is not an integer", () => {
    const script = scripted([json(200, apiKeyCreated)])
    return Effect.gen(function* () {
      const apiKeys = yield* ApiKeys.ApiKeys
      const error = yield* Effect.flip(apiKeys.revoke({ key_id: 1.5 as ApiKeyId }))
      expect(error).toMatchObject({
        _tag: "InvalidRequest",
        message: "DELETE /api_keys/{key_id}: key_id: must be an integer"
      })
      expect(script.requests).toHaveLength(0)
    }).pipe(withScript(script))
  })

  it.effect("Operations.get with a project id or an operation id the API cannot take", () => {
    const script = scripted([json(200, { operation: { ...operationItem(1), id: operationId } })])
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const badProject = yield* Effect.flip(
        operations.get({ project_id: "Spring_Example" as ProjectId, operation_id: operationId })
      )
      expect(badProject).toMatchObject({
        _tag: "InvalidRequest",
        message: "GET /projects/{project_id}/operations/{operation_id}: project_id: must be 1 to 60 of a-z, 0-9 and -"
      })
      const badOperation = yield* Effect.flip(
        operations.get({ project_id: projectId, operation_id: "not-a-uuid" as OperationId })
      )
      expect(badOperation).toMatchObject({
        _tag: "InvalidRequest",
        message: "GET /projects/{project_id}/operations/{operation_id}: operation_id: must be a UUID"
      })
      expect(script.requests).toHaveLength(0)
    }).pipe(withScript(script))
  })

  const badOrgIds: ReadonlyArray<readonly [string, string]> = [
    ["upper case", "Acme"],
    ["an underscore", "acme_org"],
    ["an empty id", ""],
    ["61 characters", "o".repeat(61)]
  ]
  for (const [label, org_id] of badOrgIds) {
    it.effect(`Projects.listPage and Projects.list with an org_id of ${label}`, () => {
      const script = scripted([json(200, projectsPage)])
      return Effect.gen(function* () {
        const projects = yield* Projects.Projects
        const pageError = yield* Effect.flip(projects.listPage({ org_id }))
        const listError = yield* Effect.flip(Stream.runCollect(projects.list({ org_id })))
        for (const error of [pageError, listError]) {
          expect(error._tag).toBe("InvalidRequest")
          expect(error.message).toBe("GET /projects: org_id: must be 1 to 60 of a-z, 0-9 and -")
        }
        expect(script.requests).toHaveLength(0)
      }).pipe(withScript(script))
    })
  }

  // `timeout` is the wire's: a number of milliseconds, 100 to 30 000, whole.
  const badTimeouts: ReadonlyArray<readonly [string, number]> = [
    ["0", 0],
    ["99 ms", 99],
    ["30.001 s", 30_001],
    ["1 minute", 60_000],
    ["infinity", Number.POSITIVE_INFINITY],
    ["1234.4 ms (not whole)", 1234.4]
  ]
  for (const [label, timeout] of badTimeouts) {
    it.effect(`Projects.listPage and Projects.list with a timeout of ${label}`, () => {
      const script = scripted([json(200, projectsPage)])
      return Effect.gen(function* () {
        const projects = yield* Projects.Projects
        const pageError = yield* Effect.flip(projects.listPage({ timeout }))
        const listError = yield* Effect.flip(Stream.runCollect(projects.list({ timeout })))
        for (const error of [pageError, listError]) {
          expect(error._tag).toBe("InvalidRequest")
          expect(error.message).toBe("GET /projects: timeout: must be an integer from 100 to 30000 (milliseconds)")
        }
        expect(script.requests).toHaveLength(0)
      }).pipe(withScript(script))
    })
  }

  // The caller wrote `pageSize`: the error names it, not the `limit` it would have been sent as.
  for (const pageSize of [100_000, 0, 2.5]) {
    it.effect(`every list with pageSize ${pageSize}: InvalidRequest naming pageSize, nothing sent`, () => {
      const script = scripted([json(200, projectsPage)])
      return Effect.gen(function* () {
        const operations = yield* Operations.Operations
        const projects = yield* Projects.Projects
        const branches = yield* Branches.Branches
        const refused: ReadonlyArray<
          readonly [string, number, Effect.Effect<void, { readonly _tag: string; readonly message: string }>]
        > = [
          [
            "GET /projects/{project_id}/operations",
            1000,
            Stream.runDrain(operations.list({ project_id: projectId }, { pageSize }))
          ],
          ["GET /projects", 400, Stream.runDrain(projects.list({}, { pageSize }))],
          ["GET /projects/shared", 400, Stream.runDrain(projects.listShared({}, { pageSize }))],
          [
            "GET /projects/{project_id}/branches",
            10_000,
            Stream.runDrain(branches.list({ project_id: projectId }, { pageSize }))
          ]
        ]
        for (const [call, max, drain] of refused) {
          const error = yield* Effect.flip(drain)
          expect(error._tag).toBe("InvalidRequest")
          expect(error.message).toBe(`${call}: pageSize: must be an integer from 1 to ${max}, got ${pageSize}`)
        }
        expect(script.requests).toHaveLength(0)
      }).pipe(withScript(script))
    })
  }

  it.effect("the largest limits are accepted and sent", () => {
    const script = scripted((request) =>
      request.url.includes("/operations") ? json(200, { operations: [] }) : json(200, projectsPage)
    )
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const projects = yield* Projects.Projects
      yield* operations.listPage({ project_id: projectId, limit: 1000 })
      yield* projects.listPage({ limit: 400 })
      yield* operations.listPage({ project_id: projectId, limit: 1 })
      expect(script.requests.map((r) => new URL(r.url).searchParams.get("limit"))).toEqual(["1000", "400", "1"])
    }).pipe(withScript(script))
  })
})

// --- what goes on the wire -------------------------------------------------------------------

describe("requests", () => {
  it.effect("carry the call's span as traceparent, unless propagation is turned off", () => {
    const script = scripted([json(200, projectsPage)])
    return Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const span = yield* projects.listPage().pipe(Effect.zipRight(Effect.currentSpan), Effect.withSpan("caller"))
      const traceparent = script.requests[0]?.headers.traceparent ?? ""
      expect(traceparent).toMatch(new RegExp(`^00-${span.traceId}-[0-9a-f]{16}-01$`))
      expect(traceparent).not.toContain(span.spanId)
      yield* projects.listPage().pipe(Effect.locally(HttpClient.currentTracerPropagation, false))
      expect(script.requests[1]?.headers.traceparent).toBeUndefined()
    }).pipe(withScript(script))
  })

  it.effect("carry the bearer token and Accept, and go under the base URL", () => {
    const script = scripted([json(200, projectsPage)])
    return Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const page = yield* projects.listPage()
      expect(page.projects.map((p) => p.id)).toEqual(["spring-example-302709"])
      expect(script.requests).toHaveLength(1)
      const [request] = script.requests
      expect(request).toMatchObject({
        method: "GET",
        url: "http://fake.test/api/v2/projects",
        headers: { authorization: "Bearer secret-key", accept: "application/json" },
        body: undefined
      })
    }).pipe(withScript(script))
  })

  it.effect('POST /api_keys sends {"key_name":"ci"} as JSON and returns the key as Redacted', () => {
    const script = scripted([json(200, apiKeyCreated)])
    return Effect.gen(function* () {
      const apiKeys = yield* ApiKeys.ApiKeys
      const created = yield* apiKeys.create({ key_name: "ci" })
      expect(created.id).toBe(165432)
      expect(Redacted.value(created.key)).toBe("dbp_live_0123456789abcdef")
      expect(String(created.key)).not.toContain("dbp_live")
      const [request] = script.requests
      expect(request).toMatchObject({
        method: "POST",
        url: "http://fake.test/api/v2/api_keys",
        headers: {
          authorization: "Bearer secret-key",
          accept: "application/json",
          "content-type": "application/json"
        }
      })
      expect(request!.body).toBe('{"key_name":"ci"}')
    }).pipe(withScript(script))
  })

  // Since 0.4 the input is what goes on the wire: a name is sent as given, never changed.
  it.effect(
    "ApiKeys.create sends the name as given, 64 characters allowed; one with spaces around it is refused, not trimmed",
    () => {
      const script = scripted([json(200, apiKeyCreated)])
      return Effect.gen(function* () {
        const apiKeys = yield* ApiKeys.ApiKeys
        yield* apiKeys.create({ key_name: "ci" })
        yield* apiKeys.create({ key_name: "k".repeat(64) })
        const padded = yield* Effect.flip(apiKeys.create({ key_name: "  ci  " }))
        expect(padded._tag).toBe("InvalidRequest")
        expect(padded.message).toMatch(/^POST \/api_keys: key_name: must not start or end with spaces$/)
        expect(script.requests.map((r) => r.body)).toEqual([
          '{"key_name":"ci"}',
          JSON.stringify({ key_name: "k".repeat(64) })
        ])
      }).pipe(withScript(script))
    }
  )

  it.effect("GET /api_keys decodes the bare array; DELETE /api_keys/{id} revokes", () => {
    const listItem = {
      id: 42,
      name: "ci",
      created_at: "2022-11-15T20:13:35Z",
      created_by: { id: "1232111b-2ea1-4d5a-b5c4-6ea0bda8ed2a", name: "Ada", image: "" },
      last_used_at: null,
      last_used_from_addr: ""
    }
    const revoked = {
      ...listItem,
      created_by: "1232111b-2ea1-4d5a-b5c4-6ea0bda8ed2a",
      last_used_at: "2022-12-09T08:47:52.20417Z",
      last_used_from_addr: "192.0.2.1",
      revoked: true
    }
    const script = scripted([json(200, [listItem]), json(200, revoked)])
    return Effect.gen(function* () {
      const apiKeys = yield* ApiKeys.ApiKeys
      const keys = yield* apiKeys.listPage()
      expect(keys.map((k) => k.id)).toEqual([42])
      const result = yield* apiKeys.revoke({ key_id: ApiKeyId.make(42) })
      expect(result.revoked).toBe(true)
      expect(script.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
        "GET http://fake.test/api/v2/api_keys",
        "DELETE http://fake.test/api/v2/api_keys/42"
      ])
      for (const request of script.requests) {
        expect(request.headers.authorization).toBe("Bearer secret-key")
      }
    }).pipe(withScript(script))
  })

  it.effect("key ids are any safe integer: a list with ids 0 and -3 decodes, and -3 is revoked by its id", () => {
    const item = (id: number) => ({
      id,
      name: `key ${id}`,
      created_at: "2022-11-15T20:13:35Z",
      last_used_at: null,
      last_used_from_addr: ""
    })
    const script = scripted([json(200, [item(0), item(-3), item(165432)]), json(200, { ...item(-3), revoked: true })])
    return Effect.gen(function* () {
      const apiKeys = yield* ApiKeys.ApiKeys
      const listed = yield* Stream.runCollect(apiKeys.list())
      expect(Chunk.toReadonlyArray(listed).map((k) => k.id)).toEqual([0, -3, 165432])
      expect((yield* apiKeys.revoke({ key_id: ApiKeyId.make(-3) })).id).toBe(-3)
      expect(script.requests[1]!.url).toBe("http://fake.test/api/v2/api_keys/-3")
    }).pipe(withScript(script))
  })

  it.effect("the operations cursor is sent URL-encoded in the query", () => {
    const script = scripted([json(200, { operations: [operationItem(1)] })])
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      yield* operations.listPage({ project_id: projectId, limit: 2, cursor: "2022-12-09T08:47:52.20417Z" })
      const [request] = script.requests
      expect(request!.url).toContain("http://fake.test/api/v2/projects/spring-example-302709/operations?")
      expect(request!.url).toContain("cursor=2022-12-09T08%3A47%3A52.20417Z")
      expect(request!.url).toContain("limit=2")
      expect(new URL(request!.url).searchParams.get("cursor")).toBe("2022-12-09T08:47:52.20417Z")
    }).pipe(withScript(script))
  })

  it.effect("Operations.page without a limit sends no limit", () => {
    const script = scripted([json(200, { operations: [] })])
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      yield* operations.listPage({ project_id: projectId })
      expect(script.requests[0]!.url).toBe("http://fake.test/api/v2/projects/spring-example-302709/operations")
    }).pipe(withScript(script))
  })

  it.effect("Projects.page sends search and cursor encoded", () => {
    const script = scripted([json(200, projectsPage)])
    return Effect.gen(function* () {
      const projects = yield* Projects.Projects
      yield* projects.listPage({ limit: 5, search: "spring ex&ample", cursor: "a/b" })
      const url = new URL(script.requests[0]!.url)
      expect(url.pathname).toBe("/api/v2/projects")
      expect(url.searchParams.get("search")).toBe("spring ex&ample")
      expect(url.searchParams.get("cursor")).toBe("a/b")
      expect(url.searchParams.get("limit")).toBe("5")
    }).pipe(withScript(script))
  })

  it.effect("Projects.listPage sends org_id and timeout (milliseconds) as given; the bounds are accepted", () => {
    const script = scripted([json(200, projectsPage)])
    return Effect.gen(function* () {
      const projects = yield* Projects.Projects
      yield* projects.listPage({ org_id: "org-acme-123", timeout: 2500 })
      yield* projects.listPage({ org_id: "o".repeat(60), timeout: 100 })
      yield* projects.listPage({ timeout: 30_000 })
      yield* projects.listPage({ timeout: 1234 })
      const queries = script.requests.map((r) => Object.fromEntries(new URL(r.url).searchParams))
      expect(queries).toEqual([
        { org_id: "org-acme-123", timeout: "2500" },
        { org_id: "o".repeat(60), timeout: "100" },
        { timeout: "30000" },
        { timeout: "1234" }
      ])
    }).pipe(withScript(script))
  })

  it.effect("Projects.list sends org_id, timeout and search on every page", () => {
    const script = scripted([
      json(200, { ...projectsPage, projects: [projectItem("a-1")], pagination: { cursor: "a-1" } }),
      json(200, { ...projectsPage, projects: [], pagination: { cursor: "a-1-next" } })
    ])
    return Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const all = yield* Stream.runCollect(
        projects.list({ org_id: "org-acme", timeout: 5000, search: "a" }, { pageSize: 1 })
      )
      expect(Chunk.toReadonlyArray(all).map((p) => p.id)).toEqual(["a-1"])
      const queries = script.requests.map((r) => Object.fromEntries(new URL(r.url).searchParams))
      expect(queries).toEqual([
        { limit: "1", search: "a", org_id: "org-acme", timeout: "5000" },
        { limit: "1", cursor: "a-1", search: "a", org_id: "org-acme", timeout: "5000" }
      ])
    }).pipe(withScript(script))
  })

  it.effect("Operations.get reads /projects/{project_id}/operations/{operation_id}", () => {
    const script = scripted([json(200, { operation: { ...operationItem(1), id: operationId } })])
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const { operation } = yield* operations.get({ project_id: projectId, operation_id: operationId })
      expect(operation.id).toBe(operationId)
      expect(script.requests[0]!.url).toBe(
        `http://fake.test/api/v2/projects/spring-example-302709/operations/${operationId}`
      )
    }).pipe(withScript(script))
  })

  it.effect("Operations.list follows the cursor, encoded, and stops on a short page", () => {
    const cursor1 = "2022-12-09T08:47:52.20417Z"
    const cursor2 = "2022-12-08T10:00:00Z"
    const script = scripted([
      json(200, { operations: [operationItem(1), operationItem(2, cursor1)], pagination: { cursor: cursor1 } }),
      json(200, { operations: [operationItem(3, cursor2)], pagination: { cursor: cursor2 } })
    ])
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const all = yield* Stream.runCollect(operations.list({ project_id: projectId }, { pageSize: 2 }))
      expect(Chunk.toReadonlyArray(all).map((o) => o.id.slice(-2))).toEqual(["01", "02", "03"])
      expect(script.requests).toHaveLength(2)
      expect(script.requests[0]!.url).toBe("http://fake.test/api/v2/projects/spring-example-302709/operations?limit=2")
      expect(script.requests[1]!.url).toBe(
        "http://fake.test/api/v2/projects/spring-example-302709/operations?limit=2&cursor=2022-12-09T08%3A47%3A52.20417Z"
      )
    }).pipe(withScript(script))
  })

  it.effect("Projects.list stops on an empty page", () => {
    const script = scripted([
      json(200, { ...projectsPage, projects: [projectItem("a-1")], pagination: { cursor: "a-1" } }),
      json(200, { ...projectsPage, projects: [], pagination: { cursor: "a-1-next" } })
    ])
    return Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const all = yield* Stream.runCollect(projects.list({}, { pageSize: 1 }))
      expect(Chunk.toReadonlyArray(all).map((p) => p.id)).toEqual(["a-1"])
      expect(script.requests).toHaveLength(2)
      expect(new URL(script.requests[1]!.url).searchParams.get("cursor")).toBe("a-1")
    }).pipe(withScript(script))
  })

  it.effect("Operations.await polls until a terminal status", () => {
    const script = scripted([
      json(200, { operation: { ...operationItem(1, undefined, "scheduling"), id: operationId } }),
      json(200, { operation: { ...operationItem(1, undefined, "running"), id: operationId } }),
      json(200, { operation: { ...operationItem(1, undefined, "finished"), id: operationId } })
    ])
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const fiber = yield* Effect.fork(operations.await({ project_id: projectId, operation_id: operationId }))
      yield* TestClock.adjust("10 seconds")
      const operation = yield* Fiber.join(fiber)
      expect(operation.status).toBe("finished")
      expect(script.requests).toHaveLength(3)
    }).pipe(withScript(script))
  })

  it.effect("Operations.await fails with OperationStillPending when the schedule ends first", () => {
    const script = scripted([json(200, { operation: { ...operationItem(1, undefined, "running"), id: operationId } })])
    return Effect.gen(function* () {
      const operations = yield* Operations.Operations
      const error = yield* Effect.flip(
        operations.await({ project_id: projectId, operation_id: operationId }, { schedule: Schedule.recurs(1) })
      )
      expect(error._tag).toBe("OperationStillPending")
      expect(error).toMatchObject({ operation: { status: "running" } })
      expect(script.requests).toHaveLength(2)
    }).pipe(withScript(script))
  })
})

// --- configuration ---------------------------------------------------------------------------

describe("DbPlatform.layerConfig", () => {
  const provider = (entries: Record<string, string>) => ConfigProvider.fromMap(new Map(Object.entries(entries)))

  it.effect("reads DBPLATFORM_BASE_URL and DBPLATFORM_API_KEY (Effect.withConfigProvider)", () => {
    const script = scripted([json(200, projectsPage)])
    return Effect.gen(function* () {
      const projects = yield* Projects.Projects
      yield* projects.listPage()
      expect(script.requests[0]).toMatchObject({
        url: "https://config.test/api/v2/projects",
        headers: { authorization: "Bearer key-from-config", accept: "application/json" }
      })
    }).pipe(
      Effect.provide(DbPlatform.layerConfig().pipe(Layer.provide(script.layer))),
      Effect.withConfigProvider(
        provider({ DBPLATFORM_BASE_URL: "https://config.test/api/v2", DBPLATFORM_API_KEY: "key-from-config" })
      )
    )
  })

  it.effect(
    "DBPLATFORM_ORG_ID: sent as org_id where an endpoint's query takes one and the call names none (§20, §21)",
    () => {
      const organization = {
        id: "org-other-100001",
        name: "Other",
        handle: "other",
        plan: "scale",
        managed_by: "console",
        created_at: "2026-11-01T00:00:00Z",
        updated_at: "2026-11-01T00:00:00Z"
      }
      const script = scripted([json(200, projectsPage), json(200, projectsPage), json(200, organization)])
      return Effect.gen(function* () {
        const projects = yield* Projects.Projects
        const organizations = yield* Organizations.Organizations
        yield* projects.listPage()
        yield* projects.listPage({ org_id: "org-other-100001" })
        yield* organizations.get({ org_id: "org-other-100001" })
        expect(script.requests.map((request) => request.url)).toEqual([
          "https://config.test/api/v2/projects?org_id=org-acme-302709",
          "https://config.test/api/v2/projects?org_id=org-other-100001",
          "https://config.test/api/v2/organizations/org-other-100001"
        ])
      }).pipe(
        Effect.provide(DbPlatform.layerConfig().pipe(Layer.provide(script.layer))),
        Effect.withConfigProvider(
          provider({
            DBPLATFORM_BASE_URL: "https://config.test/api/v2",
            DBPLATFORM_API_KEY: "key-from-config",
            DBPLATFORM_ORG_ID: "org-acme-302709"
          })
        )
      )
    }
  )

  it.effect("reads the settings through Layer.setConfigProvider; a trailing slash is dropped", () => {
    const script = scripted([json(200, apiKeyCreated)])
    const layer = DbPlatform.layerConfig().pipe(
      Layer.provide(script.layer),
      Layer.provide(
        Layer.setConfigProvider(
          provider({ DBPLATFORM_BASE_URL: "https://config.test/api/v2/", DBPLATFORM_API_KEY: "key-from-layer" })
        )
      )
    )
    return Effect.gen(function* () {
      const apiKeys = yield* ApiKeys.ApiKeys
      yield* apiKeys.create({ key_name: "ci" })
      expect(script.requests[0]).toMatchObject({
        method: "POST",
        url: "https://config.test/api/v2/api_keys",
        headers: { authorization: "Bearer key-from-layer" }
      })
    }).pipe(Effect.provide(layer))
  })

  /** The error building the Layer from `entries` fails with, once nothing was sent and it holds no secret. */
  const layerFailure = (entries: Record<string, string>) => {
    const script = scripted([json(200, projectsPage)])
    return Effect.gen(function* () {
      const error = yield* Effect.flip(
        Projects.Projects.pipe(
          Effect.flatMap((projects) => projects.listPage()),
          Effect.provide(DbPlatform.layerConfig().pipe(Layer.provide(script.layer)))
        )
      )
      expect(script.requests).toHaveLength(0)
      expectNoSecret(error)
      return error
    }).pipe(Effect.withConfigProvider(provider(entries)))
  }

  const failures: ReadonlyArray<readonly [string, Record<string, string>]> = [
    ["a missing base URL", { DBPLATFORM_API_KEY: secret }],
    ["a base URL that is not a URL", { DBPLATFORM_BASE_URL: "not a url", DBPLATFORM_API_KEY: secret }],
    ["a missing API key", { DBPLATFORM_BASE_URL: "https://config.test/api/v2" }]
  ]
  for (const [label, entries] of failures) {
    it.effect(`fails with a ConfigError on ${label}, sending nothing`, () =>
      Effect.map(layerFailure(entries), (error) => expect(ConfigError.isConfigError(error)).toBe(true))
    )
  }

  for (const [label, baseUrl, reason] of [
    ["a user name and password", "https://ci-user:s3cret-pass@config.test/api/v2", "holds a user name or password"],
    ["a query", "https://config.test/api/v2?token=s3cret-pass", "holds a query or a fragment"],
    ["a fragment", "https://config.test/api/v2#s3cret-pass", "holds a query or a fragment"],
    ["another scheme", "ftp://config.test/api/v2", "is not http: or https:"]
  ] as const) {
    it.effect(
      `fails with InvalidBaseUrl on a base URL with ${label}, sending nothing and naming it by its origin and path only`,
      () =>
        Effect.gen(function* () {
          const error = yield* layerFailure({ DBPLATFORM_BASE_URL: baseUrl, DBPLATFORM_API_KEY: secret })
          expect(error).toMatchObject({ _tag: "InvalidBaseUrl" })
          expect(error.message).toContain(reason)
          expect(error.message).not.toContain("s3cret-pass")
          expect(error.message).not.toContain("ci-user")
        })
    )
  }

  it.effect("fails with InvalidApiKey on a key read with its trailing newline, sending nothing", () =>
    Effect.gen(function* () {
      const error = yield* layerFailure({
        DBPLATFORM_BASE_URL: "https://config.test/api/v2",
        DBPLATFORM_API_KEY: `${secret}\n`
      })
      expect(error).toMatchObject({ _tag: "InvalidApiKey" })
      expect(error.message).toContain(`a line feed (U+000A) at position ${secret.length + 1}`)
    })
  )
})
