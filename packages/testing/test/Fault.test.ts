import * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { ApiKeys, Operations, Projects } from "@dbplatform/client"
import { ProjectId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakeHttpClient from "../src/FakeHttpClient.js"
import * as FakePlatform from "../src/FakePlatform.js"
import * as Fault from "../src/Fault.js"
import { makeRequestLog, type RecordedRequest, requestLogLimit } from "../src/engine/requestLog.js"
import type { Seed } from "../src/Seed.js"
import { isGeneralError, operationId, projectId, read, send } from "./helpers.js"

const seed: Seed = {
  projects: [{ id: projectId }],
  operations: [{ project_id: projectId, id: operationId(1), action: "create_branch", branch_id: "br-x-1" }]
}
/**
 * These tests are about what each fault does to one request and how the client maps that
 * answer to its error, so the client does not retry (the client's retries of the same faults
 * are tested in `ClientResilience.test.ts`).
 */
const provideFake = Effect.provide(DbPlatformTest.layer({ seed, client: { retrySchedule: Schedule.stop } }))
/** No retries, and no client timeout within the hour: a hang stays a hang. */
const providePatientFake = Effect.provide(
  DbPlatformTest.layer({ seed, client: { retrySchedule: Schedule.stop, requestTimeout: "1 day", deadline: "1 day" } })
)

const fake = FakePlatform.FakePlatform
const listKeys = Effect.flatMap(ApiKeys.ApiKeys, (apiKeys) => apiKeys.listPage())
const createKey = (name: string) => Effect.flatMap(ApiKeys.ApiKeys, (apiKeys) => apiKeys.create({ key_name: name }))
const listProjects = Effect.flatMap(Projects.Projects, (projects) => projects.listPage())
const getOperation = Effect.flatMap(Operations.Operations, (operations) =>
  operations.get({ project_id: projectId, operation_id: operationId(1) }).pipe(Effect.map(({ operation }) => operation))
)

describe("Fault.status", () => {
  it.effect("a 429 with an empty body and Retry-After is RateLimited with retryAfter; the next request is normal", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.status(429, { body: Fault.FaultBody.empty, headers: { "retry-after": "2" } }))
      const error = yield* Effect.flip(listKeys)
      expect(error._tag).toBe("RateLimited")
      expect(error).toMatchObject({ status: 429, retryAfter: "2", method: "GET", path: "/api_keys" })
      expect(error.message).toContain("429")
      expect((yield* listKeys).map((key) => key.name)).toEqual(["bootstrap"])
      expect((yield* platform.requests).map((request) => request.fault)).toEqual(["Status", undefined])
    }).pipe(provideFake)
  )

  it.effect("a 502 with an HTML body is a ServerError named by its status", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(
        Fault.status(502, { body: Fault.FaultBody.html("<html><body>502 Bad Gateway</body></html>") })
      )
      const error = yield* Effect.flip(listProjects)
      expect(error._tag).toBe("ServerError")
      expect(error).toMatchObject({ status: 502, method: "GET", route: "/projects" })
      expect(error).not.toHaveProperty("description")
      expect(error.message).toMatch(/^GET \/projects: 502 Bad Gateway \(request id [0-9a-f-]{36}\)/)
    }).pipe(provideFake)
  )

  it.effect("a 503 and a 504 with text bodies are ServiceUnavailable and ServerError", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.status(503, { body: Fault.FaultBody.text("upstream unavailable") }))
      yield* platform.faults.inject(Fault.status(504, { body: Fault.FaultBody.text("upstream timed out") }))
      expect((yield* Effect.flip(getOperation))._tag).toBe("ServiceUnavailable")
      const timedOut = yield* Effect.flip(getOperation)
      expect(timedOut).toMatchObject({ _tag: "ServerError", status: 504 })
      expect((yield* getOperation).id).toBe(operationId(1))
    }).pipe(provideFake)
  )

  it.effect("the bodies go out as their content types", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      const bodies = [
        [Fault.FaultBody.empty, undefined, ""],
        [Fault.FaultBody.text("slow down"), "text/plain", "slow down"],
        [Fault.FaultBody.html("<h1>502</h1>"), "text/html", "<h1>502</h1>"]
      ] as const
      for (const [body, contentType, text] of bodies) {
        yield* platform.faults.inject(Fault.status(502, { body, headers: { "x-proxy": "edge-1" } }))
        const response = yield* send(platform, HttpClientRequest.get("/projects"), { key: platform.bootstrapKey })
        expect(response.status).toBe(502)
        expect(response.headers["content-type"]).toSatisfy((value: string | undefined) =>
          contentType === undefined ? value === undefined : value!.startsWith(contentType)
        )
        expect(response.headers["x-proxy"]).toBe("edge-1")
        expect(yield* response.text).toBe(text)
      }
    }).pipe(provideFake)
  )

  it.effect("by default the body is a GeneralError naming the status and echoing X-Request-ID", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.status(500))
      const response = yield* send(platform, HttpClientRequest.get("/projects"), { requestId: "req-7" })
      expect(response.headers["content-type"]).toContain("application/json")
      const { status, body } = yield* read(response)
      expect(status).toBe(500)
      expect(isGeneralError(body)).toBe(true)
      expect(body).toEqual({ code: "", message: "status 500 (injected fault)", request_id: "req-7" })
    }).pipe(provideFake)
  )

  it.effect("a GeneralError body's code, message and request_id reach the typed error", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(
        Fault.status(423, {
          body: Fault.FaultBody.generalError({
            code: "RESOURCE_LOCKED",
            message: "project is locked",
            request_id: "r-1"
          })
        }),
        { method: "POST", path: "/api_keys" }
      )
      // POST /api_keys is an endpoint that answers 423 (another operation in progress); the client
      // types only the statuses an endpoint answers with, so a 423 on a GET would be UnexpectedStatus.
      const error = yield* Effect.flip(createKey("locked"))
      expect(error).toMatchObject({
        _tag: "Locked",
        status: 423,
        code: "RESOURCE_LOCKED",
        description: "project is locked",
        requestId: "r-1"
      })
      expect(error.message).toMatch(/^POST \/api_keys: 423 Locked: project is locked \(request id r-1\)/)
    }).pipe(provideFake)
  )

  it.effect("applies before authentication, as a proxy answers: no key still gets the fault's status", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.status(503))
      expect((yield* send(platform, HttpClientRequest.get("/projects"))).status).toBe(503)
      expect((yield* send(platform, HttpClientRequest.get("/projects"))).status).toBe(401)
      // A proxy's 401 with a good key is Unauthorized for the client all the same.
      yield* platform.faults.inject(Fault.status(401, { body: Fault.FaultBody.empty }))
      expect((yield* Effect.flip(listProjects))._tag).toBe("Unauthorized")
    }).pipe(provideFake)
  )

  it.effect("processed: POST /api_keys really creates the key while the client sees the 502", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.status(502, { processed: true }), { method: "POST", path: "/api_keys" })
      const error = yield* Effect.flip(createKey("created-behind-502"))
      expect(error).toMatchObject({ _tag: "ServerError", status: 502 })
      expect((yield* platform.apiKeys).map((key) => key.name)).toEqual(["bootstrap", "created-behind-502"])
      expect((yield* listKeys).map((key) => key.name)).toEqual(["bootstrap", "created-behind-502"])
    }).pipe(provideFake)
  )

  it.effect("not processed (the default): POST /api_keys creates nothing", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.status(503), { method: "POST", path: "/api_keys" })
      expect((yield* Effect.flip(createKey("never-created")))._tag).toBe("ServiceUnavailable")
      expect((yield* platform.apiKeys).map((key) => key.name)).toEqual(["bootstrap"])
    }).pipe(provideFake)
  )

  it("a status outside 200..599 is a RangeError", () => {
    expect(() => Fault.status(99)).toThrow(RangeError)
    expect(() => Fault.status(600)).toThrow(RangeError)
    expect(() => Fault.status(502.5)).toThrow(RangeError)
  })
})

describe("matching and times", () => {
  it.effect("times: 2 faults two requests; the third is normal again", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.status(503), { times: 2 })
      expect((yield* Effect.flip(listProjects))._tag).toBe("ServiceUnavailable")
      expect((yield* Effect.flip(listProjects))._tag).toBe("ServiceUnavailable")
      expect((yield* listProjects).projects).toHaveLength(1)
    }).pipe(provideFake)
  )

  it.effect("a fault on POST /api_keys does not hit GET /api_keys", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.status(429), { method: "post", path: "/api_keys" })
      expect(yield* listKeys).toHaveLength(1)
      expect(yield* listProjects).toBeDefined()
      expect((yield* Effect.flip(createKey("limited")))._tag).toBe("RateLimited")
      expect((yield* createKey("allowed")).name).toBe("allowed")
    }).pipe(provideFake)
  )

  it.effect("a route template matches any value of its {params}, and only that route", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.status(503), { path: "/projects/{project_id}/operations/{operation_id}" })
      const operations = yield* Operations.Operations
      expect((yield* operations.listPage({ project_id: projectId })).operations).toHaveLength(1)
      expect(yield* listProjects).toBeDefined()
      expect((yield* Effect.flip(getOperation))._tag).toBe("ServiceUnavailable")
      // An unknown project matches the template too: the fault answers first.
      yield* platform.faults.inject(Fault.status(503), { path: "/projects/{project_id}/operations" })
      const other = yield* Effect.flip(operations.listPage({ project_id: ProjectId.make("no-such-project") }))
      expect(other._tag).toBe("ServiceUnavailable")
    }).pipe(provideFake)
  )

  it.effect("faults matching one request are taken in injection order", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.status(429), { path: "/projects" })
      yield* platform.faults.inject(Fault.status(503))
      yield* platform.faults.inject(Fault.status(502), { path: "/projects" })
      expect((yield* Effect.flip(listProjects))._tag).toBe("RateLimited")
      expect((yield* Effect.flip(listProjects))._tag).toBe("ServiceUnavailable")
      expect((yield* Effect.flip(listProjects))._tag).toBe("ServerError")
      expect((yield* listProjects).projects).toHaveLength(1)
    }).pipe(provideFake)
  )

  it.effect("times: Infinity lasts until clear", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.status(503), { times: Number.POSITIVE_INFINITY })
      for (let i = 0; i < 5; i++) {
        expect((yield* Effect.flip(listProjects))._tag).toBe("ServiceUnavailable")
      }
      yield* platform.faults.clear
      expect((yield* listProjects).projects).toHaveLength(1)
    }).pipe(provideFake)
  )

  it.effect("bad times or path are defects", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      for (const options of [{ times: 0 }, { times: 1.5 }, { path: "projects" }, { path: "/projects?limit=1" }]) {
        const exit = yield* Effect.exit(platform.faults.inject(Fault.hang, options))
        expect(
          Exit.isFailure(exit) && Exit.causeOption(exit).pipe(Option.exists((cause) => cause._tag === "Die"))
        ).toBe(true)
      }
      expect((yield* listProjects).projects).toHaveLength(1)
    }).pipe(provideFake)
  )
})

describe("Fault.delay", () => {
  it.effect("answers normally once the Clock has advanced by the duration", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.delay("2 seconds"))
      const fiber = yield* Effect.fork(listProjects)
      yield* TestClock.adjust("1999 millis")
      expect(Option.isNone(yield* Fiber.poll(fiber))).toBe(true)
      expect((yield* platform.requests).map((request) => request.fault)).toEqual(["Delay"])
      yield* TestClock.adjust("1 millis")
      expect((yield* Fiber.join(fiber)).projects).toHaveLength(1)
    }).pipe(provideFake)
  )
})

describe("Fault.hang", () => {
  it.effect("never answers; interrupting the caller ends it, and the next request is answered", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.hang)
      const fiber = yield* Effect.fork(listProjects)
      yield* TestClock.adjust("1 hour")
      expect(Option.isNone(yield* Fiber.poll(fiber))).toBe(true)
      const exit = yield* Fiber.interrupt(fiber)
      expect(Exit.isInterrupted(exit)).toBe(true)
      expect((yield* listProjects).projects).toHaveLength(1)
      expect((yield* platform.requests).map((request) => request.fault)).toEqual(["Hang", undefined])
    }).pipe(providePatientFake)
  )

  it.effect("a client timeout ends it with the caller's own error", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.hang)
      const fiber = yield* Effect.fork(listProjects.pipe(Effect.timeout("30 seconds"), Effect.flip))
      yield* TestClock.adjust("30 seconds")
      expect((yield* Fiber.join(fiber))._tag).toBe("TimeoutException")
    }).pipe(providePatientFake)
  )
})

describe("Fault.drop", () => {
  it.effect("the client gets a TransportError and nothing was carried out", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.drop, { method: "POST" })
      const error = yield* Effect.flip(createKey("dropped"))
      expect(error).toMatchObject({ _tag: "TransportError", method: "POST", path: "/api_keys" })
      expect((yield* platform.apiKeys).map((key) => key.name)).toEqual(["bootstrap"])
    }).pipe(provideFake)
  )

  it.effect("FakeHttpClient fails with a RequestError of reason Transport", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.drop)
      const error = yield* Effect.flip(
        FakeHttpClient.make(platform.httpApp).execute(HttpClientRequest.get("http://x/api/v2/projects"))
      )
      expect(error).toBeInstanceOf(HttpClientError.RequestError)
      expect(error).toMatchObject({ _tag: "RequestError", reason: "Transport" })
    }).pipe(provideFake)
  )
})

describe("Fault.malformedJson", () => {
  it.effect("a 200 whose body is not JSON is a MalformedResponse", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      yield* platform.faults.inject(Fault.malformedJson, { path: "/projects/{project_id}/operations/{operation_id}" })
      const error = yield* Effect.flip(getOperation)
      expect(error).toMatchObject({ _tag: "MalformedResponse", status: 200 })
      expect(error.message).toContain("not JSON")
      const response = yield* send(platform, HttpClientRequest.get("/projects"), { key: platform.bootstrapKey })
      expect(response.status).toBe(200)
      yield* platform.faults.inject(Fault.malformedJson)
      const raw = yield* send(platform, HttpClientRequest.get("/projects"), { key: platform.bootstrapKey })
      expect(raw.status).toBe(200)
      expect(raw.headers["content-type"]).toContain("application/json")
      const text = yield* raw.text
      expect(() => JSON.parse(text)).toThrow(SyntaxError)
    }).pipe(provideFake)
  )
})

describe("the request log", () => {
  it.effect("has every header, lower-cased, the fault's tag, and never a key's value", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      const created = yield* createKey("ci")
      yield* platform.faults.inject(Fault.status(502, { processed: true }), { method: "POST" })
      yield* Effect.flip(createKey("behind-502"))
      yield* send(platform, HttpClientRequest.get("/projects").pipe(HttpClientRequest.setHeader("X-Trace", "t-1")), {
        key: created.key
      })
      yield* send(platform, HttpClientRequest.get("/projects"), { key: "a-wrong-key-value" })

      const requests = yield* platform.requests
      expect(requests.map((request) => [request.method, request.path, request.fault])).toEqual([
        ["POST", "/api/v2/api_keys", undefined],
        ["POST", "/api/v2/api_keys", "Status"],
        ["GET", "/api/v2/projects", undefined],
        ["GET", "/api/v2/projects", undefined]
      ])
      expect(requests[0]!.headers).toMatchObject({
        authorization: "Bearer <redacted>",
        accept: "application/json",
        "content-type": "application/json"
      })
      expect(requests[2]!.headers).toMatchObject({ authorization: "Bearer <redacted>", "x-trace": "t-1" })
      expect(requests[3]!.headers.authorization).toBe("Bearer <redacted>")
      for (const request of requests) {
        expect(Object.keys(request.headers).every((name) => name === name.toLowerCase())).toBe(true)
      }
      const logged = JSON.stringify(requests)
      expect(logged).not.toContain(Redacted.value(platform.bootstrapKey))
      expect(logged).not.toContain(Redacted.value(created.key))
      expect(logged).not.toContain("a-wrong-key-value")
    }).pipe(provideFake)
  )

  it.effect("records every request served, oldest first, faulted or not", () =>
    Effect.gen(function* () {
      const platform = yield* fake
      const client = FakeHttpClient.make(platform.httpApp)
      yield* platform.faults.inject(Fault.status(503, { body: Fault.FaultBody.empty }), { times: 3 })
      for (let i = 0; i < 5; i++) {
        yield* client.execute(HttpClientRequest.get(`http://x/api/v2/projects?n=${i}`))
      }
      const requests = yield* platform.requests
      expect(requests.map((request) => [request.query.n, request.fault])).toEqual([
        ["0", "Status"],
        ["1", "Status"],
        ["2", "Status"],
        ["3", undefined],
        ["4", undefined]
      ])
    }).pipe(provideFake)
  )

  // The bound is the log's own: filled directly, 10 005 records cost a few milliseconds where
  // 10 005 requests through the fake cost seconds (and more on a busy machine).
  it.effect("keeps the last 10 000 requests", () =>
    Effect.gen(function* () {
      expect(requestLogLimit).toBe(10_000)
      const log = yield* makeRequestLog
      const record = (i: number): RecordedRequest => ({
        method: "GET",
        path: "/api/v2/projects",
        query: { n: String(i) },
        headers: {}
      })
      for (let i = 0; i < 10_005; i++) yield* log.add(record(i))
      const requests = yield* log.all
      expect(requests).toHaveLength(10_000)
      expect(requests[0]!.query.n).toBe("5")
      expect(requests[9_999]!.query.n).toBe("10004")
      yield* log.clear
      expect(yield* log.all).toEqual([])
    })
  )
})

describe("where a fault applies", () => {
  /** Status of `method path` sent with the bootstrap key straight to the fake's HTTP app. */
  const statusOf = (platform: FakePlatform.Service, request: HttpClientRequest.HttpClientRequest) =>
    Effect.map(send(platform, request, { key: platform.bootstrapKey }), (response) => response.status)

  it.effect("a route template of core's groups, in the contract's spelling, matches any value of its {params}", () =>
    Effect.gen(function* () {
      const platform = yield* FakePlatform.make(seed)
      yield* platform.faults.inject(Fault.status(503), { method: "DELETE", path: "/api_keys/{key_id}", times: 2 })
      expect(yield* statusOf(platform, HttpClientRequest.del("/api_keys/1000001"))).toBe(503)
      expect(yield* statusOf(platform, HttpClientRequest.del("/api_keys/-7"))).toBe(503)
      expect(yield* statusOf(platform, HttpClientRequest.get("/api_keys"))).toBe(200)
      // Used up: an id of no key is a 404 again (any safe integer is a good id, docs/contract.md §10.3).
      expect(yield* statusOf(platform, HttpClientRequest.del("/api_keys/-7"))).toBe(404)
    })
  )

  it.effect("a literal path matches that path only", () =>
    Effect.gen(function* () {
      const platform = yield* FakePlatform.make(seed)
      yield* platform.faults.inject(Fault.status(502), { path: `/projects/${projectId}/operations/${operationId(2)}` })
      expect(
        yield* statusOf(platform, HttpClientRequest.get(`/projects/${projectId}/operations/${operationId(1)}`))
      ).toBe(200)
      expect(
        yield* statusOf(platform, HttpClientRequest.get(`/projects/${projectId}/operations/${operationId(2)}`))
      ).toBe(502)
    })
  )

  it.effect("a template that is no endpoint's route dies with an IllegalArgumentException naming the templates", () =>
    Effect.gen(function* () {
      const platform = yield* FakePlatform.make(seed)
      for (const path of ["/projects/:project_id/operations", "/projects/{id}/operations", "/branches/{branch_id}"]) {
        const exit = yield* Effect.exit(platform.faults.inject(Fault.status(503), { path }))
        const defect = Exit.isFailure(exit) ? Option.getOrUndefined(Cause.dieOption(exit.cause)) : undefined
        expect(defect, path).toBeInstanceOf(Cause.IllegalArgumentException)
        expect((defect as Error).message).toContain("/projects/{project_id}/operations/{operation_id}")
      }
      // Nothing was injected.
      expect(yield* statusOf(platform, HttpClientRequest.get(`/projects/${projectId}/operations`))).toBe(200)
    })
  )
})
