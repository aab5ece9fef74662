/**
 * The control API (`ControlApi.httpApp`) in memory: every route, its refusals, and that it
 * changes the same fake the platform's routes serve; its answers byte for byte as a curl user
 * reads them; its declaration (`ControlApi.EmulatorControl`) against what the server routes, and
 * its typed client (`ControlApi.client`). Time moves with TestClock under a `ControlledClock`.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as TestClock from "effect/TestClock"
import * as ControlApi from "../src/ControlApi.js"
import * as ControlledClock from "../src/ControlledClock.js"
import * as FakeHttpClient from "../src/FakeHttpClient.js"
import * as FakePlatform from "../src/FakePlatform.js"
import type { Seed } from "../src/Seed.js"
import type { SnapshotChange } from "../src/Snapshot.js"
import { isGeneralError, operationId, projectId, read, send } from "./helpers.js"

const token = "control-test-token"
const seed: Seed = {
  bootstrapKey: "control-test-key",
  projects: [{ id: projectId }],
  operations: [{ project_id: projectId, id: operationId(1), action: "create_timeline", age: "1 day" }]
}

/** A fake on a controlled clock (over the TestClock), its control app, and a `call` to it. */
const setup = (options: FakePlatform.Options = {}, from: Seed = seed) =>
  Effect.gen(function* () {
    const clock = yield* ControlledClock.make
    const fake = yield* FakePlatform.make(from, { clock, ...options })
    const app = yield* ControlApi.httpApp(fake, { token: Redacted.make(token) })
    const client = FakeHttpClient.make(app)
    const call = (
      method: "GET" | "POST" | "PUT" | "DELETE",
      path: string,
      body?: unknown,
      credential: string | null = token
    ) => {
      let request = HttpClientRequest.make(method)(`http://x${ControlApi.prefix}${path}`)
      if (credential !== null) request = HttpClientRequest.bearerToken(request, credential)
      if (body !== undefined) {
        request = HttpClientRequest.bodyText(request, typeof body === "string" ? body : JSON.stringify(body))
      }
      return Effect.flatMap(client.execute(request), read)
    }
    const api = (path: string) =>
      Effect.flatMap(send(fake, HttpClientRequest.get(path), { key: fake.bootstrapKey }), read)
    return { fake, clock, call, api }
  })

describe("ControlApi", () => {
  it.effect("answers 401 without the control token, with an account's API key, and with a wrong token", () =>
    Effect.gen(function* () {
      const { call } = yield* setup()
      for (const credential of [null, "control-test-key", "not-the-token"]) {
        const answer = yield* call("GET", "/faults", undefined, credential)
        expect(answer.status).toBe(401)
        expect(isGeneralError(answer.body)).toBe(true)
        expect(answer.body.message).toMatch(/control token/)
      }
      expect((yield* call("GET", "/nothing-here")).status).toBe(404)
    })
  )

  it.effect(
    "starts operations, fails and cancels them, with the platform's wire format; a clock advance plays them out",
    () =>
      Effect.gen(function* () {
        const { call, api } = yield* setup()
        yield* call("POST", "/clock/freeze")
        const started = yield* call("POST", `/projects/${projectId}/operations`, {
          operations: [
            { action: "create_branch", runsFor: "10 minutes" },
            { action: "start_compute", runsFor: 5_000 },
            { action: "apply_config" }
          ]
        })
        expect(started.status).toBe(201)
        const [branch, compute, config] = started.body.operations
        expect(started.body.operations.map((operation: any) => operation.status)).toEqual([
          "scheduling",
          "scheduling",
          "scheduling"
        ])
        expect(typeof branch.created_at).toBe("string")
        const failed = yield* call("POST", `/projects/${projectId}/operations/${compute.id}/fail`, {
          error: "compute start timed out",
          retryIn: "30 seconds"
        })
        expect(failed.status).toBe(200)
        expect(failed.body).toMatchObject({ id: compute.id, status: "failed", failures_count: 1 })
        const cancelled = yield* call("POST", `/projects/${projectId}/operations/${config.id}/cancel`, {})
        expect(cancelled.body).toMatchObject({ id: config.id, status: "cancelling" })
        // Ended: it can no longer fail (409); unknown ids are 404.
        expect((yield* call("POST", `/projects/${projectId}/operations/${compute.id}/cancel`)).status).toBe(409)
        expect((yield* call("POST", `/projects/${projectId}/operations/${operationId(99)}/cancel`)).status).toBe(404)
        expect(
          (yield* call("POST", "/projects/no-such-project/operations", { operations: [{ action: "x" }] })).status
        ).toBe(404)
        // The TestClock moving does not move a frozen clock; an advance does.
        yield* TestClock.adjust("1 hour")
        expect((yield* api(`/projects/${projectId}/operations/${branch.id}`)).body.operation.status).toBe("scheduling")
        const advanced = yield* call("POST", "/clock/advance", { by: "10 minutes" })
        expect(advanced.body.frozen).toBe(true)
        expect((yield* api(`/projects/${projectId}/operations/${branch.id}`)).body.operation.status).toBe("finished")
        expect((yield* api(`/projects/${projectId}/operations/${config.id}`)).body.operation.status).toBe("cancelled")
      })
  )

  it.effect(
    "materialises the control plane's operations before its routes; a connection to an idle compute endpoint starts it",
    () =>
      Effect.gen(function* () {
        const endpointId = "ep-main-000001"
        const { call } = yield* setup(
          {},
          {
            ...seed,
            branches: [{ project_id: projectId, id: "br-main-000001", default: true }],
            endpoints: [{ branch_id: "br-main-000001", id: endpointId }]
          }
        )
        yield* call("POST", "/clock/freeze")
        yield* call("POST", "/clock/advance", { by: "6 minutes" })
        // No request to the platform's routes came: the snapshot holds the suspension all the same.
        const snapshot = yield* call("GET", "/snapshot")
        expect(snapshot.body.operations.map((operation: any) => operation.action)).toContain("suspend_compute")
        const connected = yield* call("POST", `/endpoints/${endpointId}/connect`)
        expect(connected.status).toBe(200)
        expect(connected.body.endpoint).toMatchObject({
          id: endpointId,
          current_state: "idle",
          pending_state: "active"
        })
        expect(connected.body.operations.map((operation: any) => operation.action)).toEqual(["start_compute"])
        const unknown = yield* call("POST", "/endpoints/ep-none-000000/connect")
        expect(unknown.status).toBe(404)
        expect(unknown.body.message).toMatch(/ep-none-000000/)
      })
  )

  it.effect("refuses bodies that do not decode with a 400 naming the field, never a 5xx", () =>
    Effect.gen(function* () {
      const { call } = yield* setup()
      const cases: Array<[string, string, unknown]> = [
        ["POST", `/projects/${projectId}/operations`, { operations: [] }],
        ["POST", `/projects/${projectId}/operations`, { operations: [{ action: "create_branch", runsFor: "soon" }] }],
        ["POST", "/faults", { fault: { _tag: "Status", status: 99 } }],
        ["POST", "/faults", { fault: { _tag: "Explode" } }],
        ["POST", "/faults", { fault: { _tag: "Drop" }, path: "/projects/:project_id" }],
        ["POST", "/faults", { fault: { _tag: "Drop" }, times: 0 }],
        ["POST", "/clock/advance", { by: -5 }],
        ["POST", "/clock/advance", { by: "-5 minutes" }],
        ["POST", "/clock/advance", "{not json"],
        ["POST", "/api_keys", { name: "ci", extra: true }],
        ["POST", "/seed", { projects: [{ id: "Not A Valid Id" }] }],
        ["POST", "/seed", { bootstrapKey: "another-key" }],
        ["PUT", "/snapshot", { version: 2 }],
        ["POST", "/projects", { id: projectId }]
      ]
      for (const [method, path, body] of cases) {
        const answer = yield* call(method as "POST", path, body)
        expect([method, path, answer.status]).toEqual([method, path, 400])
        expect(isGeneralError(answer.body)).toBe(true)
      }
      expect((yield* call("GET", "/requests?limit=0")).status).toBe(400)
      const tooLarge = yield* call("POST", "/seed", `{"projects":[${'{"id":"a"},'.repeat(3_100_000)}{"id":"b"}]}`)
      expect(tooLarge.status).toBe(413)
      expect(isGeneralError(tooLarge.body)).toBe(true)
    })
  )

  it.effect(
    "injects faults by method, route template and count; lists and clears them; the request log names them",
    () =>
      Effect.gen(function* () {
        const { call, api, fake } = yield* setup()
        const injected = yield* call("POST", "/faults", {
          fault: { _tag: "Status", status: 503, body: { _tag: "Empty" }, headers: { "retry-after": "2" } },
          method: "get",
          path: "/projects/{project_id}/operations",
          times: 2
        })
        expect(injected.status).toBe(201)
        yield* call("POST", "/faults", { fault: { _tag: "Delay", duration: "2 seconds" }, times: "unlimited" })
        const listed = yield* call("GET", "/faults")
        expect(listed.body.faults).toEqual([
          {
            fault: {
              _tag: "Status",
              status: 503,
              body: { _tag: "Empty" },
              headers: { "retry-after": "2" },
              processed: false
            },
            method: "GET",
            path: "/projects/{project_id}/operations",
            remaining: 2
          },
          { fault: { _tag: "Delay", duration: 2000 }, method: null, path: null, remaining: "unlimited" }
        ])
        const first = yield* send(fake, HttpClientRequest.get(`/projects/${projectId}/operations`), {
          key: fake.bootstrapKey
        })
        expect(first.status).toBe(503)
        expect((yield* call("GET", "/faults")).body.faults[0].remaining).toBe(1)
        expect((yield* call("DELETE", "/faults")).body).toEqual({ faults: [] })
        expect((yield* api(`/projects/${projectId}/operations`)).status).toBe(200)
        const log = yield* call("GET", "/requests?limit=2")
        expect(log.body.requests.map((request: any) => [request.path, request.fault ?? null])).toEqual([
          [`/api/v2/projects/${projectId}/operations`, "Status"],
          [`/api/v2/projects/${projectId}/operations`, null]
        ])
        expect(log.body.requests[0].headers.authorization).toBe("Bearer <redacted>")
        expect(JSON.stringify(log.body)).not.toContain("control-test-key")
      })
  )

  it.effect("reset puts back the seed (keys, projects, operations), clears faults and the log, resumes the clock", () =>
    Effect.gen(function* () {
      const { call, api, fake } = yield* setup()
      const before = (yield* call("GET", "/snapshot")).body
      const key = yield* call("POST", "/api_keys", { name: "ci" })
      expect(key.status).toBe(201)
      expect(key.body.key).toMatch(/^[0-9a-f]{64}$/)
      expect((yield* call("POST", "/projects", { id: "late-river-118737", name: "late" })).status).toBe(201)
      yield* call("POST", "/faults", { fault: { _tag: "Hang" }, path: "/api_keys" })
      yield* call("POST", "/clock/freeze")
      yield* call("POST", "/clock/advance", { by: 60_000 })
      yield* api("/projects")
      const reset = yield* call("POST", "/reset")
      expect(reset.body).toEqual({ api_keys: 1, projects: 1, operations: 1 })
      const after = (yield* call("GET", "/snapshot")).body
      expect(after.projects.map((project: any) => project.id)).toEqual([projectId])
      expect(after.api_keys.map((key: any) => key.name)).toEqual(["bootstrap"])
      expect(after.next_key_id).toBe(before.next_key_id)
      expect((yield* call("GET", "/faults")).body.faults).toEqual([])
      expect((yield* call("GET", "/requests")).body.requests).toEqual([])
      expect((yield* call("GET", "/clock")).body.frozen).toBe(false)
      // The key added before the reset is gone; the bootstrap key still works.
      const old = yield* Effect.flatMap(send(fake, HttpClientRequest.get("/projects"), { key: key.body.key }), read)
      expect(old.status).toBe(401)
      expect((yield* api("/projects")).status).toBe(200)
    })
  )

  it.effect("loads a seed file and restores a snapshot into the running fake; the bootstrap key stays valid", () =>
    Effect.gen(function* () {
      const { call, api } = yield* setup()
      const saved = (yield* call("GET", "/snapshot")).body
      const loaded = yield* call("POST", "/seed", {
        projects: [{ id: "first-river-1" }, { id: "second-river-2" }],
        operations: [{ project_id: "first-river-1", action: "start_compute" }]
      })
      expect(loaded.body).toEqual({ api_keys: 1, projects: 2, operations: 1 })
      expect((yield* api("/projects")).body.projects.map((project: any) => project.id).sort()).toEqual([
        "first-river-1",
        "second-river-2"
      ])
      const restored = yield* call("PUT", "/snapshot", saved)
      expect(restored.body).toEqual({ api_keys: 1, projects: 1, operations: 1 })
      expect((yield* api("/projects")).body.projects.map((project: any) => project.id)).toEqual([projectId])
      const now = (yield* call("GET", "/snapshot")).body
      expect([now.projects, now.operations, now.api_keys.map((key: any) => key.hash)]).toEqual([
        saved.projects,
        saved.operations,
        saved.api_keys.map((key: any) => key.hash)
      ])
    })
  )

  it.effect(
    "with a journal, a reset, a load and a restore are each recorded as the whole new state before they answer",
    () =>
      Effect.gen(function* () {
        const changes: Array<SnapshotChange> = []
        let syncs = 0
        const journal: FakePlatform.Journal = {
          record: (recorded) => Effect.sync(() => changes.push(...recorded)),
          sync: Effect.sync(() => {
            syncs += 1
          })
        }
        const { call, fake } = yield* setup({ journal })
        yield* call("POST", "/seed", { projects: [{ id: "first-river-1" }] })
        yield* call("POST", "/reset")
        expect(changes.map((change) => change._tag)).toEqual(["State", "State"])
        expect(syncs).toBe(2)
        const last = changes[1]!
        expect(last._tag === "State" && last.snapshot).toEqual(yield* fake.snapshot)
        // A journal that cannot save: the change is not acknowledged.
        const failing = yield* setup({
          journal: { record: () => Effect.void, sync: Effect.fail({ message: "disk full" }) }
        })
        const refused = yield* failing.call("POST", "/reset")
        expect(refused.status).toBe(503)
        expect(refused.body.message).toBe("the change could not be saved: disk full")
        expect((yield* failing.call("POST", "/api_keys", { name: "ci" })).status).toBe(503)
      })
  )

  it.effect("clock routes answer 409 on a fake without a controlled clock", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make(seed)
      const app = yield* ControlApi.httpApp(fake, { token: Redacted.make(token) })
      const answer = yield* read(
        yield* FakeHttpClient.make(app).execute(
          HttpClientRequest.post(`http://x/_emulator/clock/freeze`).pipe(HttpClientRequest.bearerToken(token))
        )
      )
      expect(answer.status).toBe(409)
      expect(answer.body.message).toMatch(/TestClock/)
    })
  )

  it.effect("answers byte for byte as a curl or Python user reads them: bodies, statuses and content types", () =>
    Effect.gen(function* () {
      const { fake } = yield* setup()
      const client = FakeHttpClient.make(yield* ControlApi.httpApp(fake, { token: Redacted.make(token) }))
      const raw = (method: "GET" | "POST" | "DELETE", path: string, body?: string, credential = token) =>
        Effect.gen(function* () {
          let request = HttpClientRequest.make(method)(`http://x/_emulator${path}`).pipe(
            HttpClientRequest.bearerToken(credential),
            HttpClientRequest.setHeader("x-request-id", "req-1")
          )
          if (body !== undefined) request = HttpClientRequest.bodyText(request, body, "text/plain")
          const response = yield* client.execute(request)
          return [response.status, response.headers["content-type"], yield* response.text]
        })
      const json = "application/json"
      expect(yield* raw("GET", "/clock")).toEqual([
        200,
        json,
        '{"now":"1970-01-01T00:00:00.000Z","now_ms":0,"frozen":false}'
      ])
      expect(yield* raw("POST", "/clock/freeze")).toEqual([
        200,
        json,
        '{"now":"1970-01-01T00:00:00.000Z","now_ms":0,"frozen":true}'
      ])
      expect(yield* raw("POST", "/clock/advance", '{"by":"6 minutes"}')).toEqual([
        200,
        json,
        '{"now":"1970-01-01T00:06:00.000Z","now_ms":360000,"frozen":true}'
      ])
      expect(
        yield* raw("POST", "/faults", '{"fault":{"_tag":"Delay","duration":"2 seconds"},"times":"unlimited"}')
      ).toEqual([
        201,
        json,
        '{"fault":{"_tag":"Delay","duration":2000},"method":null,"path":null,"remaining":"unlimited"}'
      ])
      expect(yield* raw("DELETE", "/faults")).toEqual([200, json, '{"faults":[]}'])
      expect(yield* raw("POST", "/seed", '{"projects":[{"id":"first-river-1"}]}')).toEqual([
        200,
        json,
        '{"api_keys":1,"projects":1,"operations":0}'
      ])
      expect(yield* raw("POST", "/clock/advance", '{"by":-5}')).toEqual([
        400,
        json,
        '{"code":"","message":"by: expected NonNegative, got -5","request_id":"req-1"}'
      ])
      expect(yield* raw("GET", "/requests?limit=0")).toEqual([
        400,
        json,
        '{"code":"","message":"limit: must be an integer from 1 to 10000","request_id":"req-1"}'
      ])
      expect(yield* raw("GET", "/faults", undefined, "control-test-key")).toEqual([
        401,
        json,
        '{"code":"","message":"the control API needs its control token (Authorization: Bearer <token>), not an API key","request_id":"req-1"}'
      ])
      for (const [method, path] of [
        ["GET", "/nothing-here"],
        ["GET", "/reset"],
        ["GET", ""]
      ] as const) {
        expect(yield* raw(method, path)).toEqual([
          404,
          json,
          '{"code":"","message":"control route not found","request_id":"req-1"}'
        ])
      }
    })
  )

  it.effect("serves every route its declaration (ControlApi.EmulatorControl) names, under /_emulator", () =>
    Effect.gen(function* () {
      const { call } = yield* setup()
      const declared: Array<string> = []
      HttpApi.reflect(ControlApi.EmulatorControl, {
        onGroup: () => {},
        onEndpoint: ({ endpoint }) => declared.push(`${endpoint.method} ${endpoint.path}`)
      })
      expect(declared).toHaveLength(19)
      for (const route of declared) {
        const [method, template] = route.split(" ") as ["GET" | "POST" | "PUT" | "DELETE", string]
        expect(template.startsWith(`${ControlApi.prefix}/`)).toBe(true)
        const path = template.slice(ControlApi.prefix.length).replace(/:(\w+)/g, "x-$1")
        const answer = yield* call(method, path, method === "GET" || method === "DELETE" ? undefined : "{}")
        expect([route, answer.body.message]).not.toEqual([route, "control route not found"])
      }
    })
  )

  it.effect(
    "its typed client (ControlApi.client) freezes and advances the clock, seeds, injects a fault and reads the request log",
    () =>
      Effect.gen(function* () {
        const { fake, api } = yield* setup()
        const app = yield* ControlApi.httpApp(fake, { token: Redacted.make(token) })
        const control = yield* ControlApi.client({ url: "http://x/_emulator/", token: Redacted.make(token) }).pipe(
          Effect.provideService(HttpClient.HttpClient, FakeHttpClient.make(app))
        )
        expect(yield* control.freeze()).toEqual({ now: "1970-01-01T00:00:00.000Z", now_ms: 0, frozen: true })
        expect(yield* control.advance({ payload: { by: "10 minutes" } })).toMatchObject({
          now_ms: 600_000,
          frozen: true
        })
        expect(yield* control.advance({ payload: { by: 1_000 } })).toMatchObject({ now_ms: 601_000 })
        const seeded = yield* control.seed({
          payload: {
            projects: [{ id: projectId }, { id: "second-river-2" }],
            operations: [{ project_id: projectId, id: operationId(1), action: "start_compute", runsFor: "1 minute" }]
          }
        })
        expect(seeded).toEqual({ api_keys: 1, projects: 2, operations: 1 })
        const pending = yield* control.injectFault({
          payload: { fault: { _tag: "Status", status: 503 }, method: "GET", path: "/projects/{project_id}/operations" }
        })
        expect(pending).toMatchObject({ method: "GET", path: "/projects/{project_id}/operations", remaining: 1 })
        expect((yield* control.faults()).faults).toHaveLength(1)
        const first = yield* send(fake, HttpClientRequest.get(`/projects/${projectId}/operations`), {
          key: fake.bootstrapKey
        })
        expect(first.status).toBe(503)
        const log = yield* control.requests({ urlParams: { limit: 1 } })
        expect(log.requests.map((request) => [request.method, request.path, request.fault])).toEqual([
          ["GET", `/api/v2/projects/${projectId}/operations`, "Status"]
        ])
        expect((yield* control.clearFaults()).faults).toEqual([])
        // The operation runs on the frozen clock: it ends when the client advances it.
        const started = yield* control.startOperations({
          path: { project_id: projectId },
          payload: { operations: [{ action: "create_branch", runsFor: "1 minute" }] }
        })
        expect(started.operations[0]!.status).toBe("scheduling")
        yield* control.advance({ payload: { by: "10 minutes" } })
        const operation = started.operations[0]!.id
        expect((yield* api(`/projects/${projectId}/operations/${operation}`)).body.operation.status).toBe("finished")
        expect((yield* control.snapshot()).operations.map((stored) => stored.id)).toContain(operation)
        // Refusals are ControlErrors with the answer's status and GeneralError body.
        const unknown = yield* Effect.flip(
          control.cancelOperation({
            path: { project_id: "no-such-project", operation_id: operationId(9) },
            payload: {}
          })
        )
        expect(unknown).toMatchObject({ _tag: "ControlError", status: 404 })
        const ended = yield* Effect.flip(
          control.failOperation({
            path: { project_id: projectId, operation_id: started.operations[0]!.id },
            payload: { error: "too late" }
          })
        )
        expect(ended).toMatchObject({ _tag: "ControlError", status: 409 })
        const wrong = yield* ControlApi.client({
          url: "http://x/_emulator",
          token: Redacted.make("not-the-token")
        }).pipe(Effect.provideService(HttpClient.HttpClient, FakeHttpClient.make(app)))
        expect(yield* Effect.flip(wrong.clock())).toMatchObject({ _tag: "ControlError", status: 401 })
        // A path parameter is sent percent-encoded: the server reads the id as it was given.
        const odd = yield* Effect.flip(control.connect({ path: { endpoint_id: "ep-none/000000 x" } }))
        expect(odd).toMatchObject({ status: 404, message: "no compute endpoint ep-none/000000 x in the fake platform" })
        expect((yield* control.reset()).projects).toBe(1)
      })
  )
})
