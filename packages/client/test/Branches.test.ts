import { BranchId, Endpoint } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import * as util from "node:util"
import { Branches, DbPlatform, Operations } from "../src/index.js"
import {
  annotationOf,
  baseUrl,
  branchCreated,
  branchId,
  branchItem,
  computeEndpointItem,
  operationItem,
  projectId,
  rolePassword,
  secret
} from "./fixtures.js"
import { json, raw, type Scripted, scripted } from "./scripted.js"

/** The services over `script`; `retrySchedule` is the default policy unless given. */
const layerFor = (script: Scripted, retrySchedule?: Schedule.Schedule<unknown, any>) =>
  Layer.orDie(
    DbPlatform.layer({ baseUrl, apiKey: Redacted.make(secret), retrySchedule }).pipe(Layer.provide(script.layer))
  )

const params = { project_id: projectId, branch_id: branchId }
const branchUrl = `${baseUrl}/projects/${projectId}/branches/${branchId}`
const noRetries = Schedule.stop

describe("Branches", () => {
  it.effect("create: POST with the body, a 201 answer decoded, secrets Redacted, its operations awaited", () => {
    const started = branchCreated.operations.map((operation) => ({ ...operation, status: "finished" }))
    const script = scripted((request) =>
      request.method === "POST"
        ? json(201, branchCreated)
        : json(200, { operations: started, pagination: { cursor: "2022-11-30T19:09:48Z" } })
    )
    return Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const created = yield* branches.create({
        project_id: projectId,
        branch: { name: "preview/pr-42" },
        endpoints: [{ type: "read_write", autoscaling_limit_max_cu: 1 }]
      })
      expect(script.requests[0]).toMatchObject({ method: "POST", url: `${baseUrl}/projects/${projectId}/branches` })
      expect(JSON.parse(script.requests[0]?.body ?? "")).toEqual({
        branch: { name: "preview/pr-42" },
        endpoints: [{ type: "read_write", autoscaling_limit_max_cu: 1 }]
      })
      expect(created.branch.current_state).toBe("init")
      expect(created.endpoints.map((endpoint) => endpoint.id)).toEqual(["ep-cool-darkness-123456"])
      expect(created.operations.map((operation) => operation.action)).toEqual(["create_branch", "start_compute"])
      expect(Redacted.value(created.connection_uris![0]!.connection_parameters.password)).toBe(rolePassword)
      expect(util.inspect(created, { depth: 10 }) + JSON.stringify(created)).not.toContain(rolePassword)
      // The answer itself goes straight into awaitAll.
      const waited = yield* Operations.Operations.pipe(Effect.flatMap((operations) => operations.awaitAll(created)))
      expect(waited.succeeded).toHaveLength(2)
    }).pipe(Effect.provide(layerFor(script, noRetries)))
  })

  it.effect("create with no body sends {}", () => {
    const script = scripted([json(201, branchCreated)])
    return Effect.gen(function* () {
      yield* Effect.flatMap(Branches.Branches, (branches) => branches.create({ project_id: projectId }))
      expect(script.requests[0]?.body).toBe("{}")
    }).pipe(Effect.provide(layerFor(script, noRetries)))
  })

  it.effect("update: PATCH to the branch's path with the body", () => {
    const script = scripted([json(200, { branch: branchItem(branchId, { name: "renamed" }), operations: [] })])
    return Effect.gen(function* () {
      const updated = yield* Effect.flatMap(Branches.Branches, (branches) =>
        branches.update({ ...params, branch: { name: "renamed" } })
      )
      expect(script.requests[0]).toMatchObject({ method: "PATCH", url: branchUrl })
      expect(JSON.parse(script.requests[0]?.body ?? "")).toEqual({ branch: { name: "renamed" } })
      expect(updated.branch.name).toBe("renamed")
      expect(updated.operations).toEqual([])
    }).pipe(Effect.provide(layerFor(script, noRetries)))
  })

  it.effect(
    "lifecycle fields (§18): expires_at as an RFC 3339 timestamp (fractional seconds too), null clears it, a point in time and init_source",
    () => {
      const updated = json(200, { branch: branchItem(), operations: [] })
      const script = scripted([json(201, branchCreated), updated, updated])
      return Effect.gen(function* () {
        const branches = yield* Branches.Branches
        const expires_at = DateTime.unsafeMake("2025-06-09T18:02:16Z")
        const parent_timestamp = DateTime.unsafeMake("2025-06-01T00:00:00.250Z")
        yield* branches.create({
          project_id: projectId,
          branch: { name: "preview/pr-9", expires_at, init_source: "schema-only", parent_timestamp, archived: false }
        })
        expect(JSON.parse(script.requests[0]?.body ?? "")).toEqual({
          branch: {
            name: "preview/pr-9",
            expires_at: "2025-06-09T18:02:16.000Z",
            init_source: "schema-only",
            parent_timestamp: "2025-06-01T00:00:00.250Z",
            archived: false
          }
        })
        yield* branches.update({ ...params, branch: { expires_at: null } })
        expect(JSON.parse(script.requests[1]?.body ?? "")).toEqual({ branch: { expires_at: null } })
        // A time with milliseconds is sent as it is (the document's date-time; the platform's CLI sends them).
        yield* branches.update({ ...params, branch: { expires_at: DateTime.unsafeMake(1_750_000_000_001) } })
        expect(JSON.parse(script.requests[2]?.body ?? "")).toEqual({
          branch: { expires_at: "2025-06-15T15:06:40.001Z" }
        })
        // An LSN the platform does not take: refused, nothing sent.
        const refused = yield* Effect.flip(branches.create({ project_id: projectId, branch: { parent_lsn: "0/XYZ" } }))
        expect(refused._tag).toBe("InvalidRequest")
        expect(refused.message).toContain("log sequence number")
        expect(script.requests).toHaveLength(3)
      }).pipe(Effect.provide(layerFor(script, noRetries)))
    }
  )

  it.effect("delete: DELETE with no body; a 200 is Some with its operations, a 204 None", () => {
    const deleted = {
      branch: branchItem(),
      operations: [
        { ...operationItem(1), action: "suspend_compute" },
        { ...operationItem(2), action: "delete_timeline", endpoint_id: undefined }
      ]
    }
    const script = scripted([json(200, deleted), raw(204, null)])
    return Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const first = yield* branches.delete(params)
      expect(script.requests[0]).toMatchObject({ method: "DELETE", url: branchUrl, body: undefined })
      expect(Endpoint.operationsOf(first).map((operation) => operation.action)).toEqual([
        "suspend_compute",
        "delete_timeline"
      ])
      const second = yield* branches.delete(params)
      expect(second).toEqual(Option.none())
      expect(Endpoint.operationsOf(second)).toEqual([])
    }).pipe(Effect.provide(layerFor(script, noRetries)))
  })

  it.effect("an empty 200 body is None for delete, and MalformedResponse where an answer is needed", () => {
    const script = scripted([raw(200, ""), raw(200, "")])
    return Effect.gen(function* () {
      const branches = yield* Branches.Branches
      expect(yield* branches.delete(params)).toEqual(Option.none())
      const error = yield* Effect.flip(branches.get(params))
      expect(error).toMatchObject({ _tag: "MalformedResponse", description: "the body is empty" })
    }).pipe(Effect.provide(layerFor(script, noRetries)))
  })

  it.effect("restore and setAsDefault: POST to their paths", () => {
    const answer = json(200, { branch: branchItem(branchId, { default: true }), operations: [] })
    const script = scripted([answer, answer])
    return Effect.gen(function* () {
      const branches = yield* Branches.Branches
      yield* branches.restore({ ...params, source_branch_id: BranchId.make("br-aged-salad-637688") })
      const made = yield* branches.setAsDefault(params)
      expect(script.requests.map((request) => `${request.method} ${request.url} ${request.body}`)).toEqual([
        `POST ${branchUrl}/restore {"source_branch_id":"br-aged-salad-637688"}`,
        `POST ${branchUrl}/set_as_default undefined`
      ])
      expect(made.branch.default).toBe(true)
    }).pipe(Effect.provide(layerFor(script, noRetries)))
  })

  it.effect("a 423 on create is retried, and the create then succeeds", () => {
    const script = scripted([
      json(423, { code: "", message: "project already has running conflicting operations" }),
      json(201, branchCreated)
    ])
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(
        Effect.flatMap(Branches.Branches, (branches) => branches.create({ project_id: projectId }))
      )
      yield* TestClock.adjust("1 minute")
      const created = yield* Fiber.join(fiber)
      expect(created.branch.id).toBe(branchId)
      expect(script.requests.map((request) => request.method)).toEqual(["POST", "POST"])
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("a 409 on a taken name is Conflict, and not retried", () => {
    const script = scripted([json(409, { code: "", message: "branch with name preview already exists" })])
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(
        Effect.flip(
          Effect.flatMap(Branches.Branches, (branches) =>
            branches.create({ project_id: projectId, branch: { name: "preview" } })
          )
        )
      )
      yield* TestClock.adjust("1 minute")
      const error = yield* Fiber.join(fiber)
      expect(error._tag).toBe("Conflict")
      expect(error.message).toContain("branch with name preview already exists")
      expect(script.requests).toHaveLength(1)
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("an answer about another branch is MalformedResponse", () => {
    const other = branchItem("br-other-branch-1")
    const script = scripted([
      json(200, { branch: other, annotation: annotationOf(other.id) }),
      json(200, { branch: other, operations: [] }),
      json(200, { branch: other, operations: [] }),
      json(200, { endpoints: [computeEndpointItem("br-other-branch-1")] })
    ])
    return Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const errors = [
        yield* Effect.flip(branches.get(params)),
        yield* Effect.flip(branches.update({ ...params, branch: { protected: true } })),
        yield* Effect.flip(branches.delete(params)),
        yield* Effect.flip(branches.listEndpointsPage(params))
      ]
      expect(errors.map((error) => error._tag)).toEqual([
        "MalformedResponse",
        "MalformedResponse",
        "MalformedResponse",
        "MalformedResponse"
      ])
      expect(errors[0]?.message).toContain(`the answer is about branch_id br-other-branch-1, not ${branchId}`)
      expect(errors[1]?.message).toContain(`the answer is about branch_id br-other-branch-1, not ${branchId}`)
      expect(errors[2]?.message).toContain(`the answer is about branch_id br-other-branch-1, not ${branchId}`)
      expect(errors[3]?.message).toContain(
        `the answer holds an item (ep-cool-darkness-123456) of branch_id br-other-branch-1, not ${branchId}`
      )
    }).pipe(Effect.provide(layerFor(script, noRetries)))
  })

  it.effect("an answer about another project is MalformedResponse, for every method (the generic check)", () => {
    const stranger = "autumn-field-118737"
    const foreignBranch = branchItem(branchId, { project_id: stranger })
    const foreignEndpoint = { ...computeEndpointItem(), project_id: stranger }
    const foreignOperation = { ...operationItem(1), project_id: stranger }
    const script = scripted([
      json(200, { branches: [branchItem("br-a"), { ...branchItem("br-b"), project_id: stranger }], annotations: {} }),
      json(200, { branches: [foreignBranch], annotations: {} }),
      json(200, { branch: foreignBranch, annotation: annotationOf() }),
      json(201, { ...branchCreated, branch: { ...branchCreated.branch, project_id: stranger } }),
      json(200, { branch: branchItem(), operations: [foreignOperation] }),
      json(200, { endpoints: [foreignEndpoint] })
    ])
    return Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const errors = [
        yield* Effect.flip(branches.listPage({ project_id: projectId })),
        yield* Effect.flip(Stream.runDrain(branches.list({ project_id: projectId }))),
        yield* Effect.flip(branches.get(params)),
        yield* Effect.flip(branches.create({ project_id: projectId })),
        yield* Effect.flip(branches.update({ ...params, branch: { name: "renamed" } })),
        yield* Effect.flip(branches.listEndpointsPage(params))
      ]
      expect(errors.map((error) => error._tag)).toEqual(Array.from({ length: 6 }, () => "MalformedResponse"))
      expect(errors.map((error) => error.message)).toEqual([
        expect.stringContaining(`the answer holds an item (br-b) of project_id ${stranger}, not ${projectId}`),
        expect.stringContaining(`the answer holds an item (${branchId}) of project_id ${stranger}, not ${projectId}`),
        expect.stringContaining(`the answer holds an item (${branchId}) of project_id ${stranger}, not ${projectId}`),
        expect.stringContaining(`the answer holds an item (${branchId}) of project_id ${stranger}, not ${projectId}`),
        expect.stringContaining(
          `the answer holds an item (${foreignOperation.id}) of project_id ${stranger}, not ${projectId}`
        ),
        expect.stringContaining(
          `the answer holds an item (ep-cool-darkness-123456) of project_id ${stranger}, not ${projectId}`
        )
      ])
    }).pipe(Effect.provide(layerFor(script, noRetries)))
  })

  it.effect("count: GET .../branches/count with search", () => {
    const script = scripted([json(200, { count: 3 })])
    return Effect.gen(function* () {
      const counted = yield* Effect.flatMap(Branches.Branches, (branches) =>
        branches.count({ project_id: projectId, search: "preview/" })
      )
      expect(counted.count).toBe(3)
      expect(script.requests[0]).toMatchObject({
        method: "GET",
        url: `${baseUrl}/projects/${projectId}/branches/count?search=preview%2F`
      })
    }).pipe(Effect.provide(layerFor(script, noRetries)))
  })

  it.effect("an id the table refuses is InvalidRequest, and nothing is sent", () => {
    const script = scripted([json(200, {})])
    return Effect.gen(function* () {
      const error = yield* Effect.flip(
        Effect.flatMap(Branches.Branches, (branches) =>
          branches.get({ project_id: projectId, branch_id: BranchId.make("Not_An_Id") })
        )
      )
      expect(error._tag).toBe("InvalidRequest")
      expect(error.message).toContain("branch_id: must be 1 to 60 of a-z, 0-9 and -")
      expect(script.requests).toHaveLength(0)
    }).pipe(Effect.provide(layerFor(script, noRetries)))
  })
})

describe("Branches.list", () => {
  const page = (ids: ReadonlyArray<string>, next?: string) => ({
    branches: ids.map((id) => branchItem(id)),
    annotations: {},
    pagination: { ...(next === undefined ? {} : { next }), sort_by: "name", sort_order: "asc" }
  })

  it.effect("walks pagination.next over three pages and stops", () => {
    const script = scripted([
      json(200, page(["br-a", "br-b"], "cursor-1")),
      json(200, page(["br-c", "br-d"], "cursor-2")),
      json(200, page(["br-e", "br-f"]))
    ])
    return Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const all = yield* Stream.runCollect(
        branches.list({ project_id: projectId, sort_by: "name", sort_order: "asc" }, { pageSize: 2 })
      )
      expect(Chunk.toReadonlyArray(all).map((branch) => branch.id)).toEqual([
        "br-a",
        "br-b",
        "br-c",
        "br-d",
        "br-e",
        "br-f"
      ])
      const sent = script.requests.map((request) => {
        const url = new URL(request.url)
        return { path: url.pathname, query: Object.fromEntries(url.searchParams) }
      })
      const path = `/api/v2/projects/${projectId}/branches`
      const query = { sort_by: "name", sort_order: "asc", limit: "2" }
      expect(sent).toEqual([
        { path, query },
        { path, query: { ...query, cursor: "cursor-1" } },
        { path, query: { ...query, cursor: "cursor-2" } }
      ])
    }).pipe(Effect.provide(layerFor(script, noRetries)))
  })

  it.effect("a cursor sent twice is MalformedResponse, and nothing more is fetched", () => {
    const script = scripted([
      json(200, page(["br-a", "br-b"], "cursor-1")),
      json(200, page(["br-c", "br-d"], "cursor-1"))
    ])
    return Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const error = yield* Effect.flip(Stream.runDrain(branches.list({ project_id: projectId }, { pageSize: 2 })))
      expect(error._tag).toBe("MalformedResponse")
      expect(error.message).toContain("a second time")
      expect(script.requests).toHaveLength(2)
    }).pipe(Effect.provide(layerFor(script, noRetries)))
  })

  it.effect("a page longer than pageSize is MalformedResponse; so is one longer than the limit of listPage", () => {
    const script = scripted([json(200, page(["br-a", "br-b", "br-c"], "cursor-1"))])
    return Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const streamed = yield* Effect.flip(Stream.runDrain(branches.list({ project_id: projectId }, { pageSize: 2 })))
      expect(streamed.message).toContain("the page has 3 items, more than the limit of 2")
      const paged = yield* Effect.flip(branches.listPage({ project_id: projectId, limit: 2 }))
      expect(paged._tag).toBe("MalformedResponse")
      expect(paged.message).toContain("the page has 3 items, more than the limit of 2")
      // Without a limit, the server sends every branch: no page is too long.
      const whole = yield* branches.listPage({ project_id: projectId })
      expect(whole.branches).toHaveLength(3)
    }).pipe(Effect.provide(layerFor(script, noRetries)))
  })
})
