/**
 * The contract suite: the same assertions, at the HTTP level and through the SDK client, run
 * against the fake in memory (`FakeHttpClient`) and served on a real loopback socket
 * (`NodeHttpServer` + `FetchHttpClient`). What they assert is `docs/contract.md` §10: limits and
 * defaults per route, newest-first order, the cursor, the last page, the error bodies, the
 * shapes of the API key routes, the id patterns.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { ApiKeys, DbPlatform, Operations, Projects } from "@dbplatform/client"
import { Api, type Endpoint, fromResponse, Operation, ProjectId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { createServer } from "node:http"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakeHttpClient from "../src/FakeHttpClient.js"
import * as FakePlatform from "../src/FakePlatform.js"
import { router } from "../src/internal/routes.js"
import { stateOfSeed } from "../src/internal/seed.js"
import { makeFakeState } from "../src/engine/state.js"
import { controlPlane } from "../src/internal/duties.js"
import * as Seed from "../src/Seed.js"
import { operationId } from "./helpers.js"
import { refusalResponse } from "../src/engine/route.js"

/** 12 projects (more than one default page), 41 operations each, none pending. */
const realistic = Seed.realistic({ projects: 12, operationsPerProject: 40, pending: 0 })
/** And 12 projects of other accounts shared with this one (docs/contract.md §10.6), one with operations. */
const seed: Seed.Seed = {
  ...realistic,
  projects: [
    ...realistic.projects!,
    ...Array.from(
      { length: 12 },
      (_, i): Seed.SeedProject => ({
        id: `shared-project-${String(i).padStart(2, "0")}`,
        name: i % 2 === 0 ? `partner-${i}` : `vendor-${i}`,
        shared: true,
        age: `${i + 1} days`
      })
    )
  ],
  operations: [
    ...realistic.operations!,
    { project_id: "shared-project-00", id: operationId(9001), action: "start_compute", age: "1 hour" }
  ]
}
const firstProject = ProjectId.make(seed.projects![0]!.id)

/** Where the suite sends its requests: a base URL, an `HttpClient` that reaches it, and the fake behind it. */
class Target extends Context.Tag("contract/Target")<
  Target,
  { readonly baseUrl: string; readonly http: HttpClient.HttpClient; readonly fake: FakePlatform.Service }
>() {}

const inMemory = Layer.effect(
  Target,
  Effect.map(FakePlatform.make(seed), (fake) => ({
    baseUrl: DbPlatformTest.baseUrl,
    http: FakeHttpClient.make(fake.httpApp),
    fake
  }))
)

const onLoopbackSocket = Layer.effect(
  Target,
  Effect.all({ baseUrl: FakePlatform.serverBaseUrl, http: HttpClient.HttpClient, fake: FakePlatform.FakePlatform })
).pipe(
  Layer.provide(FakePlatform.layerServer),
  Layer.provide(FetchHttpClient.layer),
  Layer.provideMerge(FakePlatform.layer(seed)),
  Layer.provide(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
)

interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: any
}

/** Sends `method path` (relative to the base URL) with the bootstrap key unless `key` says otherwise. */
const call = (
  method: "GET" | "POST" | "DELETE",
  path: string,
  options: {
    readonly key?: string | Redacted.Redacted<string> | null
    readonly json?: unknown
    readonly requestId?: string
  } = {}
) =>
  Effect.gen(function* () {
    const { baseUrl, http, fake } = yield* Target
    let request = HttpClientRequest.make(method)(`${baseUrl}${path}`).pipe(HttpClientRequest.acceptJson)
    const key = options.key === undefined ? fake.bootstrapKey : options.key
    if (key !== null) request = HttpClientRequest.bearerToken(request, key)
    if (options.json !== undefined) request = HttpClientRequest.bodyUnsafeJson(request, options.json)
    if (options.requestId !== undefined)
      request = HttpClientRequest.setHeader(request, "x-request-id", options.requestId)
    const response = yield* http.execute(request)
    const text = yield* response.text
    return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text) }
  }) as Effect.Effect<Answer, unknown, Target>

/** Runs `self` with the SDK client over the target's `HttpClient`, authenticated by the bootstrap key. */
const withSdk = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.flatMap(Target, ({ baseUrl, http, fake }) =>
    Effect.provide(
      self,
      DbPlatform.layer({ baseUrl, apiKey: fake.bootstrapKey }).pipe(
        Layer.provide(Layer.succeed(HttpClient.HttpClient, http))
      )
    )
  )

const expectGeneralError = (answer: Answer, status: number) => {
  expect(answer.status).toBe(status)
  expect(answer.headers["content-type"]).toContain("application/json")
  expect(answer.body).toEqual({ code: expect.any(String), message: expect.any(String), request_id: expect.any(String) })
  expect(answer.body.message.length).toBeGreaterThan(0)
}

const millis = (timestamp: string) => Date.parse(timestamp)
const isNewestFirst = (items: ReadonlyArray<{ readonly created_at: string }>) =>
  items.every((item, i) => i === 0 || millis(items[i - 1]!.created_at) > millis(item.created_at))
const fractionalTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+Z$/
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const targets = [
  ["in memory (FakeHttpClient)", inMemory],
  ["on a loopback socket (NodeHttpServer + fetch)", onLoopbackSocket]
] as const

for (const [name, target] of targets) {
  describe(`contract: ${name}`, () => {
    const test = (title: string, body: Effect.Effect<void, unknown, Target>) =>
      it.live(title, () => Effect.provide(body, target))

    test(
      "GET /projects: 200, newest first, 10 by default, limit 1..400, cursor on every page",
      Effect.gen(function* () {
        const first = yield* call("GET", "/projects")
        expect(first.status).toBe(200)
        expect(first.body.projects).toHaveLength(10)
        expect(isNewestFirst(first.body.projects)).toBe(true)
        expect(first.body.pagination.cursor).toMatch(fractionalTimestamp)
        expect(first.body.pagination.cursor).toBe(first.body.projects[9].created_at)
        for (const project of first.body.projects) expect(project.id).toMatch(/^[a-z0-9-]{1,60}$/)
        const rest = yield* call("GET", `/projects?limit=10&cursor=${encodeURIComponent(first.body.pagination.cursor)}`)
        expect(rest.body.projects).toHaveLength(2)
        expect(rest.body.pagination.cursor).toBe(rest.body.projects[1].created_at)
        const all = yield* call("GET", "/projects?limit=400")
        expect(all.body.projects.map((p: any) => p.id)).toEqual(
          [...first.body.projects, ...rest.body.projects].map((p: any) => p.id)
        )
        expect(all.body).toMatchObject({ applications: {}, integrations: {} })
        for (const limit of ["0", "401", "ten", "1.5", "-1"])
          expectGeneralError(yield* call("GET", `/projects?limit=${limit}`), 400)
      })
    )

    test(
      "every error status the fake answers on a route is one its endpoint declares, or one of every endpoint",
      Effect.gen(function* () {
        const common = new Set(["Unauthorized", "RateLimited", "ServerError", "ServiceUnavailable"])
        const unknownOperation = "00000000-0000-4000-8000-000000000000"
        const requests: ReadonlyArray<readonly [Endpoint.Endpoint, "GET" | "POST" | "DELETE", string, unknown?]> = [
          [Api.ApiKeys.create, "POST", "/api_keys", {}],
          [Api.ApiKeys.create, "POST", "/api_keys", { key_name: " " }],
          [Api.ApiKeys.create, "POST", "/api_keys", { key_name: "x".repeat(65) }],
          [Api.ApiKeys.revoke, "DELETE", "/api_keys/abc"],
          [Api.ApiKeys.revoke, "DELETE", "/api_keys/-7"],
          [Api.Projects.list, "GET", "/projects?limit=0"],
          [Api.Projects.list, "GET", "/projects?cursor=yesterday"],
          [Api.Projects.list, "GET", "/projects?org_id=Org&timeout=1"],
          [Api.Projects.listShared, "GET", "/projects/shared?limit=401"],
          [Api.Projects.listShared, "GET", "/projects/shared?cursor="],
          [Api.Operations.list, "GET", "/projects/Bad_Id/operations"],
          [Api.Operations.list, "GET", "/projects/no-such-project/operations"],
          [Api.Operations.list, "GET", `/projects/${firstProject}/operations?limit=1001`],
          [Api.Operations.get, "GET", `/projects/${firstProject}/operations/not-a-uuid`],
          [Api.Operations.get, "GET", `/projects/${firstProject}/operations/${unknownOperation}`]
        ]
        for (const [endpoint, method, path, json] of requests) {
          for (const auth of [{}, { key: null }]) {
            const answer = yield* call(method, path, { ...auth, ...(json === undefined ? {} : { json }) })
            const error = fromResponse({ method, route: endpoint.route, path, status: answer.status })
            const declared = common.has(error._tag) || (endpoint.errors as ReadonlyArray<string>).includes(error._tag)
            expect({ endpoint: endpoint.name, path, status: answer.status, declared }).toEqual({
              endpoint: endpoint.name,
              path,
              status: answer.status,
              declared: true
            })
          }
        }
      })
    )

    test(
      "GET /projects/shared answers like GET /projects: newest first, 10 by default, limit 1..400, cursor, search (docs/contract.md §10.6)",
      Effect.gen(function* () {
        const own = yield* call("GET", "/projects?limit=400")
        const first = yield* call("GET", "/projects/shared")
        expect(first.status).toBe(200)
        expect(first.body.projects.map((p: any) => p.id)).toEqual(
          Array.from({ length: 10 }, (_, i) => `shared-project-${String(i).padStart(2, "0")}`)
        )
        expect(isNewestFirst(first.body.projects)).toBe(true)
        expect(first.body.pagination.cursor).toBe(first.body.projects[9].created_at)
        // The same fields as a project of the account's own; another owner.
        expect(Object.keys(first.body.projects[0]).sort()).toEqual(Object.keys(own.body.projects[0]).sort())
        expect(first.body.projects[0].owner_id).not.toBe(own.body.projects[0].owner_id)
        const rest = yield* call(
          "GET",
          `/projects/shared?limit=10&cursor=${encodeURIComponent(first.body.pagination.cursor)}`
        )
        expect(rest.body.projects.map((p: any) => p.id)).toEqual(["shared-project-10", "shared-project-11"])
        // Neither list holds a project of the other.
        const ownIds = new Set(own.body.projects.map((p: any) => p.id))
        expect(own.body.projects).toHaveLength(12)
        for (const p of [...first.body.projects, ...rest.body.projects]) expect(ownIds.has(p.id)).toBe(false)
        expect((yield* call("GET", "/projects/shared?search=vendor&limit=400")).body.projects).toHaveLength(6)
        expect((yield* call("GET", "/projects/shared?limit=400&timeout=100")).body.projects).toHaveLength(12)
        // A shared project's operations are read as any other's; `/projects/{project_id}/...` routes are not shadowed.
        const operations = yield* call("GET", "/projects/shared-project-00/operations")
        expect(operations.body.operations.map((o: any) => o.id)).toEqual([operationId(9001)])
        for (const query of ["limit=0", "limit=401", "cursor=yesterday", "timeout=99"])
          expectGeneralError(yield* call("GET", `/projects/shared?${query}`), 400)
        expectGeneralError(yield* call("GET", "/projects/shared", { key: null }), 401)
        // Through the SDK: the page and the stream.
        const sdk = yield* withSdk(
          Effect.gen(function* () {
            const projects = yield* Projects.Projects
            const page = yield* projects.listSharedPage({ limit: 5, search: "partner" })
            const all = yield* Stream.runCollect(projects.listShared({}, { pageSize: 5 }))
            return { page: page.projects.map((p) => p.id), all: Chunk.toReadonlyArray(all).map((p) => p.id) }
          })
        )
        expect(sdk.page).toEqual([
          "shared-project-00",
          "shared-project-02",
          "shared-project-04",
          "shared-project-06",
          "shared-project-08"
        ])
        expect(sdk.all).toEqual([...first.body.projects, ...rest.body.projects].map((p: any) => p.id))
      })
    )

    test(
      "GET /projects: org_id filters by organization, timeout 100..30000 is accepted (docs/contract.md §10.4)",
      Effect.gen(function* () {
        const first = yield* call("GET", "/projects?limit=400")
        const orgId = first.body.projects[0].org_id
        expect(orgId).toMatch(/^[a-z0-9-]{1,60}$/)
        const ofOrg = yield* call("GET", `/projects?limit=400&org_id=${orgId}`)
        expect(ofOrg.body.projects.map((p: any) => p.id)).toEqual(
          first.body.projects.filter((p: any) => p.org_id === orgId).map((p: any) => p.id)
        )
        expect((yield* call("GET", "/projects?org_id=org-nobody-000000")).body.projects).toEqual([])
        expect((yield* call("GET", "/projects?timeout=100")).body.projects).toHaveLength(10)
        expect((yield* call("GET", "/projects?timeout=30000")).status).toBe(200)
        for (const query of ["org_id=Org%20One", "org_id=", "timeout=99", "timeout=30001", "timeout=1s"])
          expectGeneralError(yield* call("GET", `/projects?${query}`), 400)
      })
    )

    test(
      "GET operations: all by default, limit 1..1000, newest first, created_at cursor (URL-encoded), short and empty last pages",
      Effect.gen(function* () {
        const path = `/projects/${firstProject}/operations`
        const all = yield* call("GET", path)
        expect(all.status).toBe(200)
        expect(all.body.operations).toHaveLength(41)
        expect(isNewestFirst(all.body.operations)).toBe(true)
        expect(all.body.pagination.cursor).toMatch(fractionalTimestamp)
        for (const operation of all.body.operations) {
          expect(operation.id).toMatch(uuid)
          expect(operation).toMatchObject({ project_id: firstProject, failures_count: expect.any(Number) })
          expect(typeof operation.total_duration_ms).toBe("number")
          if (operation.action === "create_branch") expect(operation.endpoint_id).toBeUndefined()
        }
        const walked: Array<string> = []
        let cursor: string | undefined
        let pages = 0
        while (true) {
          const page = yield* call(
            "GET",
            `${path}?limit=15${cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
          )
          pages += 1
          walked.push(...page.body.operations.map((operation: any) => operation.id))
          expect(page.body.pagination.cursor).toMatch(fractionalTimestamp)
          if (page.body.operations.length < 15) break
          expect(page.body.pagination.cursor).toBe(page.body.operations[14].created_at)
          cursor = page.body.pagination.cursor
        }
        expect(pages).toBe(3)
        expect(walked).toEqual(all.body.operations.map((operation: any) => operation.id))
        // After the last item: an empty page, still with a cursor.
        const lastCreated = all.body.operations[40].created_at
        const empty = yield* call("GET", `${path}?limit=5&cursor=${encodeURIComponent(lastCreated)}`)
        expect(empty.body.operations).toEqual([])
        expect(empty.body.pagination.cursor).toMatch(fractionalTimestamp)
        expect((yield* call("GET", `${path}?limit=1000`)).body.operations).toHaveLength(41)
        for (const query of ["limit=1001", "limit=0", "cursor=yesterday", "cursor=2024-13-01T00:00:00Z"]) {
          expectGeneralError(yield* call("GET", `${path}?${query}`), 400)
        }
      })
    )

    test(
      "GET one operation: { operation }; an unknown project or operation is 404, a bad id 400",
      Effect.gen(function* () {
        const all = yield* call("GET", `/projects/${firstProject}/operations?limit=1`)
        const id = all.body.operations[0].id
        const one = yield* call("GET", `/projects/${firstProject}/operations/${id}`)
        expect(one.status).toBe(200)
        expect(one.body).toEqual({ operation: all.body.operations[0] })
        expectGeneralError(yield* call("GET", `/projects/no-such-project-1/operations/${id}`), 404)
        expectGeneralError(yield* call("GET", `/projects/${firstProject}/operations/${crypto.randomUUID()}`), 404)
        expectGeneralError(yield* call("GET", "/projects/no-such-project-1/operations"), 404)
        expectGeneralError(yield* call("GET", `/projects/${firstProject}/operations/not-a-uuid`), 400)
        expectGeneralError(yield* call("GET", "/projects/Not_A_Project/operations"), 400)
      })
    )

    test(
      "API keys: POST is 200 with created_by a uuid; GET a bare array with created_by an object; revoke, then 404",
      Effect.gen(function* () {
        const created = yield* call("POST", "/api_keys", { json: { key_name: "contract" } })
        expect(created.status).toBe(200)
        expect(created.body).toMatchObject({ id: expect.any(Number), key: expect.any(String), name: "contract" })
        expect(created.body.created_by).toMatch(uuid)
        const listed = yield* call("GET", "/api_keys")
        expect(listed.status).toBe(200)
        expect(Array.isArray(listed.body)).toBe(true)
        const item = listed.body.find((key: any) => key.id === created.body.id)
        expect(item).toMatchObject({
          name: "contract",
          created_by: { id: created.body.created_by, name: expect.any(String) },
          // never used yet: sent as null, as the deployed API does (§10.3)
          last_used_at: null,
          last_used_from_addr: ""
        })
        expect(item).not.toHaveProperty("key")
        expect((yield* call("GET", "/api_keys", { key: created.body.key })).status).toBe(200)
        const revoked = yield* call("DELETE", `/api_keys/${created.body.id}`)
        expect(revoked.status).toBe(200)
        expect(revoked.body).toMatchObject({ id: created.body.id, revoked: true, created_by: created.body.created_by })
        expectGeneralError(yield* call("DELETE", `/api_keys/${created.body.id}`), 404)
        expectGeneralError(yield* call("DELETE", "/api_keys/999999999"), 404)
        expectGeneralError(yield* call("DELETE", "/api_keys/abc"), 400)
        // A key id is any safe integer (§10.3): 0 and negative ids are unknown keys, not malformed ones.
        expectGeneralError(yield* call("DELETE", "/api_keys/0"), 404)
        expectGeneralError(yield* call("DELETE", "/api_keys/-7"), 404)
        expectGeneralError(yield* call("DELETE", "/api_keys/1.5"), 400)
        expectGeneralError(yield* call("POST", "/api_keys", { json: {} }), 400)
        expectGeneralError(yield* call("POST", "/api_keys", { json: { key_name: "x".repeat(65) } }), 400)
        expectGeneralError(yield* call("GET", "/api_keys", { key: created.body.key }), 401)
      })
    )

    test(
      "401 for a missing, unknown or revoked key on every route; X-Request-ID echoed as request_id; unknown routes 404",
      Effect.gen(function* () {
        for (const [method, path] of [
          ["GET", "/api_keys"],
          ["POST", "/api_keys"],
          ["DELETE", "/api_keys/1"],
          ["GET", "/projects"],
          ["GET", `/projects/${firstProject}/operations`]
        ] as const) {
          expectGeneralError(yield* call(method, path, { key: null }), 401)
          expectGeneralError(yield* call(method, path, { key: "not-a-key" }), 401)
        }
        const echoed = yield* call("GET", "/projects", { key: null, requestId: "contract-42" })
        expect(echoed.body.request_id).toBe("contract-42")
        expectGeneralError(yield* call("GET", "/branches"), 404)
        expectGeneralError(yield* call("GET", "/projects/x/y/z/w"), 404)
      })
    )

    test(
      "through the SDK client: every project and operation streamed, a key created, used and revoked, typed errors",
      withSdk(
        Effect.gen(function* () {
          const projects = yield* Projects.Projects
          const operations = yield* Operations.Operations
          const apiKeys = yield* ApiKeys.ApiKeys
          expect(Chunk.size(yield* Stream.runCollect(projects.list()))).toBe(12)
          const streamed = yield* Stream.runCollect(operations.list({ project_id: firstProject }, { pageSize: 7 }))
          expect(Chunk.size(streamed)).toBe(41)
          const created = yield* apiKeys.create({ key_name: "sdk" })
          expect((yield* apiKeys.listPage()).map((key) => key.name)).toContain("sdk")
          expect((yield* apiKeys.revoke({ key_id: created.id })).revoked).toBe(true)
          expect((yield* Effect.flip(apiKeys.revoke({ key_id: created.id })))._tag).toBe("NotFound")
          const missing = yield* Effect.flip(operations.listPage({ project_id: ProjectId.make("no-such-project-1") }))
          expect(missing).toMatchObject({ _tag: "NotFound", status: 404 })
          const wrongKey = yield* Target.pipe(
            Effect.flatMap(({ baseUrl, http }) =>
              Effect.flatMap(Projects.Projects, (projects) => projects.listPage()).pipe(
                Effect.provide(
                  DbPlatform.layer({ baseUrl, apiKey: Redacted.make("wrong") }).pipe(
                    Layer.provide(Layer.succeed(HttpClient.HttpClient, http))
                  )
                )
              )
            ),
            Effect.flip
          )
          expect(wrongKey._tag).toBe("Unauthorized")
        })
      )
    )
  })
}

/**
 * The fake is driven by the groups it is given (core's `Api.groups` by default): a field renamed
 * in an answer schema, or another default page size, changes what it sends (docs/design.md §1).
 */
describe("the fake follows the groups it is given", () => {
  const seeded = Effect.flatMap(
    stateOfSeed(
      {
        projects: [{ id: "a-project-1" }, { id: "a-project-2" }, { id: "a-project-3" }],
        operations: [{ project_id: "a-project-1", id: operationId(1), action: "create_branch", status: "failed" }]
      },
      0
    ),
    (state) => makeFakeState(state, undefined, controlPlane)
  )
  /** The JSON answer of the routes of `groups` to `GET path` (no authentication: routes only). */
  const answerOf = (groups: Api.Groups, path: string) =>
    Effect.gen(function* () {
      const app = yield* HttpRouter.toHttpApp(router(yield* seeded, groups))
      const client = FakeHttpClient.make(Effect.catchTags(app, { RouteNotFound: Effect.die, Refusal: refusalResponse }))
      const response = yield* client.execute(HttpClientRequest.get(`http://x/api/v2${path}`))
      return { status: response.status, body: (yield* response.json) as any }
    })
  const operationPath = `/projects/a-project-1/operations/${operationId(1)}`

  it.effect("an answer schema with `status` sent as `state`: the fake sends `state`", () =>
    Effect.gen(function* () {
      // The same Type as core's operation, with `status` encoded under the key `state`.
      const RenamedOperation = Schema.Struct({
        ...Operation.fields,
        status: Schema.propertySignature(Operation.fields.status).pipe(Schema.fromKey("state"))
      })
      const get = { ...Api.Operations.get, success: Schema.Struct({ operation: RenamedOperation }) }
      const before = yield* answerOf(Api.groups, operationPath)
      const after = yield* answerOf({ ...Api.groups, Operations: { ...Api.Operations, get } }, operationPath)
      expect(before.body.operation.status).toBe("scheduling")
      expect(after.body.operation).not.toHaveProperty("status")
      const { state, ...rest } = after.body.operation
      expect(state).toBe("scheduling")
      expect({ ...rest, status: state }).toEqual(before.body.operation)
    })
  )

  it.effect("another default page size: the fake's pages follow it", () =>
    Effect.gen(function* () {
      const list = { ...Api.Projects.list, pageLimits: { max: 400, default: 2 } }
      expect((yield* answerOf(Api.groups, "/projects")).body.projects).toHaveLength(3)
      expect(
        (yield* answerOf({ ...Api.groups, Projects: { ...Api.Projects, list } }, "/projects")).body.projects
      ).toHaveLength(2)
    })
  )
})
