/**
 * The one calling style of every service (issue 28, `docs/design.md` §1.3): nothing a caller sends
 * is dropped (a key an endpoint does not take is refused, naming it, before anything is sent);
 * `{ wait: true }` makes a mutation answer once its operations have finished; `awaitAll` takes
 * any answer that carries operations; `list` is a `Stream` on every service and `<key>Page` its
 * one request.
 */
import { Api, Endpoint, EndpointId } from "@dbplatform/core"
import * as DateTime from "effect/DateTime"
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as SchemaAST from "effect/SchemaAST"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import {
  ApiKeys,
  BranchSchema,
  BranchAuth,
  Branches,
  ComputeEndpoints,
  Connections,
  Credentials,
  DataApi,
  Databases,
  DbPlatform,
  Functions,
  Jwks,
  Buckets,
  Storage,
  AiGateway,
  Operations,
  ProjectPermissions,
  OrganizationApiKeys,
  Projects,
  Organizations,
  Regions,
  Roles,
  Consumption,
  Users,
  ProjectTransfers,
  VpcEndpoints,
  Snapshots
} from "../src/index.js"
import {
  annotationOf,
  baseUrl,
  branchCreated,
  branchId,
  branchItem,
  computeEndpointItem,
  operationItem,
  projectId,
  projectItem,
  secret
} from "./fixtures.js"
import { json, type Recorded, raw, type Reply, type Scripted, scripted } from "./scripted.js"

const layerFor = (script: Scripted) =>
  Layer.orDie(
    DbPlatform.layer({ baseUrl, apiKey: Redacted.make(secret), retrySchedule: Schedule.stop }).pipe(
      Layer.provide(script.layer)
    )
  )

const params = { project_id: projectId, branch_id: branchId }
const at = "2022-11-30T19:09:48Z"

/** A billing period of a consumption history, with one timeframe. */
const consumptionPeriod = {
  period_id: "79ec829f-1828-4006-ac82-9f1828a0067d",
  period_plan: "scale",
  period_start: at,
  consumption: [
    { timeframe_start: at, timeframe_end: at, metrics: [{ metric_name: "compute_unit_seconds", value: 100 }] }
  ]
}

/** A request's method, path under the base URL, and query. */
const line = (request: Recorded) => {
  const url = new URL(request.url)
  return `${request.method} ${url.pathname.replace("/api/v2", "")}${url.search}`
}

// --- nothing dropped ---------------------------------------------------------------------------

describe("a key an endpoint does not take is refused, naming it, and nothing is sent", () => {
  it.effect("a body field the schema lacks, built in a variable (it typechecks): branch.expires_in", () => {
    const script = scripted([json(201, branchCreated)])
    return Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const branch = { name: "preview/x", expires_in: "7 days" }
      const error = yield* Effect.flip(branches.create({ project_id: projectId, branch }))
      expect(error._tag).toBe("InvalidRequest")
      expect(error.message).toMatch(/^POST \/projects\/\{project_id\}\/branches: /)
      expect(error.message).toContain("branch.expires_in")
      // With `wait`, the same: refused before anything is sent, nothing waited for.
      const waited = yield* Effect.flip(branches.create({ project_id: projectId, branch }, { wait: true }))
      expect(waited._tag).toBe("InvalidRequest")
      expect(waited.message).toContain("branch.expires_in")
      expect(script.requests).toHaveLength(0)
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("a nested field the schema lacks, deeper down: endpoints.0.autoscaling_limit", () => {
    const script = scripted([json(201, branchCreated)])
    return Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const endpoint = { type: "read_write" as const, autoscaling_limit: 2 }
      const error = yield* Effect.flip(branches.create({ project_id: projectId, endpoints: [endpoint] }))
      expect(error._tag).toBe("InvalidRequest")
      expect(error.message).toContain("endpoints.0.autoscaling_limit")
      expect(script.requests).toHaveLength(0)
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("a top-level key no part has, on a one-request method and on a list's Stream: bogus", () => {
    const script = scripted([json(200, { projects: [], applications: {}, integrations: {} })])
    return Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const branches = yield* Branches.Branches
      const operations = yield* Operations.Operations
      const query = { search: "preview", bogus: 1 }
      const errors = [
        yield* Effect.flip(projects.listPage({ ...{ search: "x" }, ...{ bogus: 1 } })),
        yield* Effect.flip(projects.listPage(query)),
        yield* Effect.flip(Stream.runDrain(projects.list(query))),
        yield* Effect.flip(Stream.runDrain(branches.list({ project_id: projectId, ...query }))),
        yield* Effect.flip(branches.count({ project_id: projectId, ...query })),
        yield* Effect.flip(operations.listPage({ project_id: projectId, ...query }))
      ]
      expect(errors.map((error) => [error._tag, error.message])).toEqual([
        ["InvalidRequest", "GET /projects: bogus: is not a field this endpoint takes"],
        ["InvalidRequest", "GET /projects: bogus: is not a field this endpoint takes"],
        ["InvalidRequest", "GET /projects: bogus: is not a field this endpoint takes"],
        ["InvalidRequest", "GET /projects/{project_id}/branches: bogus: is not a field this endpoint takes"],
        ["InvalidRequest", "GET /projects/{project_id}/branches/count: bogus: is not a field this endpoint takes"],
        [
          "InvalidRequest",
          "GET /projects/{project_id}/operations: search: is not a field this endpoint takes; bogus: is not a field this endpoint takes"
        ]
      ])
      expect(script.requests).toHaveLength(0)
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("a key of another endpoint is refused too: org_id on listShared, a path id on apiKeys.create", () => {
    const script = scripted([json(200, { projects: [], applications: {}, integrations: {} })])
    return Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const apiKeys = yield* ApiKeys.ApiKeys
      const shared = { search: "x", org_id: "org-acme" }
      const key = { key_name: "ci", project_id: projectId }
      const errors = [yield* Effect.flip(projects.listSharedPage(shared)), yield* Effect.flip(apiKeys.create(key))]
      expect(errors.map((error) => error.message)).toEqual([
        "GET /projects/shared: org_id: is not a field this endpoint takes",
        "POST /api_keys: project_id: is not a field this endpoint takes"
      ])
      expect(script.requests).toHaveLength(0)
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("a key given as undefined is left out, as an absent one: nothing to refuse", () => {
    const script = scripted([json(200, { projects: [], applications: {}, integrations: {} })])
    return Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const query: { readonly search?: string | undefined; readonly cursor?: string | undefined } = {
        search: "a",
        cursor: undefined
      }
      yield* projects.listPage(query)
      expect(script.requests.map(line)).toEqual(["GET /projects?search=a"])
    }).pipe(Effect.provide(layerFor(script)))
  })
})

// --- { wait } on mutations -------------------------------------------------------------------

/**
 * A server that answers a branch creation with `branchCreated` (two operations, `running` and
 * `scheduling`), reads of the project's operations with their state in `status` now, and a read
 * of the branch with it `ready`.
 */
const creationServer = (status: Record<string, string>) =>
  scripted((request): Reply => {
    const url = new URL(request.url)
    if (request.method === "POST") return json(201, branchCreated)
    const operations = branchCreated.operations.map((operation) => ({
      ...operation,
      status: status[operation.id] ?? operation.status,
      ...(status[operation.id] === "failed" ? { error: "compute did not start", failures_count: 1 } : {})
    }))
    if (url.pathname.endsWith("/operations")) return json(200, { operations, pagination: { cursor: at } })
    if (url.pathname.endsWith(`/branches/${branchId}`)) {
      return json(200, { branch: branchItem(branchId, { current_state: "ready" }), annotation: annotationOf() })
    }
    const one = operations.find((operation) => url.pathname.endsWith(`/operations/${operation.id}`))
    return one === undefined ? raw(404, null) : json(200, { operation: one })
  })

/**
 * How `self` failed, or `undefined` when it succeeded: a success is not a test failure's value
 * (what `Effect.flip` would make it), which vitest cannot report (it hangs on an answer's schema
 * classes).
 */
const failureOf = <A, E>(self: Effect.Effect<A, E>): Effect.Effect<E | undefined> =>
  Effect.match(self, { onFailure: (error) => error, onSuccess: () => undefined })

const [createBranch, startCompute] = branchCreated.operations.map((operation) => operation.id) as [string, string]
const creation = { project_id: projectId, branch: { name: "preview/pr-42" } }

describe("{ wait: true } on a mutation", () => {
  it.effect("answers only once its operations finished, with them as they ended and the branch read again", () => {
    const status: Record<string, string> = {}
    const script = creationServer(status)
    return Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const fiber = yield* Effect.fork(branches.create(creation, { wait: true }))
      yield* TestClock.adjust("1 millis")
      // Sent, and its operations read once: still running, so no answer yet.
      expect(script.requests.map((request) => request.method)).toEqual(["POST", "GET"])
      expect(Option.isNone(yield* Fiber.poll(fiber))).toBe(true)
      yield* TestClock.adjust("4 seconds")
      expect(script.requests).toHaveLength(2)
      status[createBranch] = "finished"
      status[startCompute] = "finished"
      yield* TestClock.adjust("1 second")
      const created = yield* Fiber.join(fiber)
      expect(created.branch.id).toBe(branchId)
      expect(created.operations.map((operation) => [operation.action, operation.status])).toEqual([
        ["create_branch", "finished"],
        ["start_compute", "finished"]
      ])
      expect(created.branch.current_state).toBe("ready")
      expect(script.requests.map(line)).toEqual([
        `POST /projects/${projectId}/branches`,
        `GET /projects/${projectId}/operations?limit=1000&cursor=2022-11-30T19%3A09%3A48.001Z`,
        `GET /projects/${projectId}/operations?limit=1000&cursor=2022-11-30T19%3A09%3A48.001Z`,
        `GET /projects/${projectId}/branches/${branchId}`
      ])
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("fails with OperationFailed carrying the operation when one ends failed", () => {
    const status: Record<string, string> = {}
    const script = creationServer(status)
    return Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const fiber = yield* Effect.fork(failureOf(branches.create(creation, { wait: true })))
      yield* TestClock.adjust("1 millis")
      status[createBranch] = "finished"
      status[startCompute] = "failed"
      yield* TestClock.adjust("5 seconds")
      const error = yield* Fiber.join(fiber)
      expect(error?._tag).toBe("OperationFailed")
      expect(error).toMatchObject({ operation: { id: startCompute, status: "failed", action: "start_compute" } })
      expect(script.requests).toHaveLength(3)
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("{ wait: { timeout } } fails with OperationStillPending once the timeout passed first", () => {
    const script = creationServer({})
    return Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const fiber = yield* Effect.fork(failureOf(branches.create(creation, { wait: { timeout: "7 seconds" } })))
      yield* TestClock.adjust("7 seconds")
      const error = yield* Fiber.join(fiber)
      expect(error?._tag).toBe("OperationStillPending")
      expect(error).toMatchObject({ operation: { status: "running" } })
      // Read at 0 and 5 s; none after the timeout.
      expect(script.requests).toHaveLength(3)
      yield* TestClock.adjust("1 minute")
      expect(script.requests).toHaveLength(3)
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("without wait (and with wait: false), answers at once and reads no operation", () => {
    const script = creationServer({})
    return Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const created = yield* branches.create(creation)
      const again = yield* branches.create(creation, { wait: false })
      expect(created.operations.map((operation) => operation.status)).toEqual(["running", "scheduling"])
      expect(again.branch.id).toBe(branchId)
      yield* TestClock.adjust("1 minute")
      expect(script.requests.map((request) => request.method)).toEqual(["POST", "POST"])
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("on every service: one operation is read on its own; a delete answered 204 has nothing to wait for", () => {
    const running = { ...operationItem(1, at, "running"), action: "apply_config" }
    let reads = 0
    const script = scripted((request): Reply => {
      const path = new URL(request.url).pathname
      if (request.method === "POST") {
        return json(201, {
          role: { branch_id: branchId, name: "app", created_at: at, updated_at: at },
          operations: [running]
        })
      }
      if (request.method === "DELETE") return raw(204, null)
      if (path.endsWith("/roles/app")) {
        return json(200, { role: { branch_id: branchId, name: "app", created_at: at, updated_at: at } })
      }
      reads++
      return path.endsWith(`/operations/${running.id}`)
        ? json(200, { operation: { ...running, status: reads < 2 ? "running" : "finished" } })
        : raw(404, null)
    })
    return Effect.gen(function* () {
      const roles = yield* Roles.Roles
      const computeEndpoints = yield* ComputeEndpoints.ComputeEndpoints
      const fiber = yield* Effect.fork(roles.create({ ...params, role: { name: "app" } }, { wait: true }))
      yield* TestClock.adjust("5 seconds")
      const created = yield* Fiber.join(fiber)
      expect(created.role.name).toBe("app")
      const deleted = yield* computeEndpoints.delete(
        { project_id: projectId, endpoint_id: EndpointId.make("ep-cool-darkness-123456") },
        { wait: true }
      )
      expect(deleted).toEqual(Option.none())
      expect(script.requests.map(line)).toEqual([
        `POST /projects/${projectId}/branches/${branchId}/roles`,
        `GET /projects/${projectId}/operations/${running.id}`,
        `GET /projects/${projectId}/operations/${running.id}`,
        `GET /projects/${projectId}/branches/${branchId}/roles/app`,
        `DELETE /projects/${projectId}/endpoints/ep-cool-darkness-123456`
      ])
    }).pipe(Effect.provide(layerFor(script)))
  })
})

/** Whether every value of `ast` (its decoded side) holds an `operations` array: an answer that carries operations. */
const carriesOperations = (ast: SchemaAST.AST): boolean => {
  const type = SchemaAST.typeAST(ast)
  switch (type._tag) {
    // A schema class (its fields), or an `Option` of an answer (a delete's).
    case "Declaration":
      return type.typeParameters.some(carriesOperations)
    case "TypeLiteral":
      return type.propertySignatures.some((property) => property.name === "operations" && !property.isOptional)
    case "Refinement":
      return carriesOperations(type.from)
    default:
      return false
  }
}

describe("which methods take { wait }", () => {
  it("exactly the entries that are not lists and whose answer carries operations set startsOperations", () => {
    // What the methods' types read as starting operations (`Resource.Method`) is what waits at run time.
    const read = Api.endpoints.map((endpoint) => [
      endpoint.name,
      endpoint.list === undefined && carriesOperations(endpoint.success.ast)
    ])
    expect(read).toEqual(Api.endpoints.map((endpoint) => [endpoint.name, endpoint.startsOperations]))
    // Not vacuous: a creation and a delete (an Option) start operations; a page of them, and a
    // deletion whose answer may hold none, do not.
    expect(Object.fromEntries(read)).toMatchObject({
      "Branches.create": true,
      "Roles.delete": true,
      "Operations.list": false,
      "Projects.delete": false
    })
  })

  it.effect("a read given { wait } (from a variable: its type takes none) ignores it and answers at once", () => {
    const script = scripted([json(200, { branch: branchItem(), annotation: annotationOf() })])
    return Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const get: (input: typeof params, options: { readonly wait: boolean }) => Effect.Effect<unknown, unknown> =
        branches.get
      yield* get(params, { wait: true })
      yield* TestClock.adjust("1 minute")
      expect(script.requests.map(line)).toEqual([`GET /projects/${projectId}/branches/${branchId}`])
    }).pipe(Effect.provide(layerFor(script)))
  })
})

// --- awaitAll takes any answer that carries operations ----------------------------------------

describe("operations.awaitAll", () => {
  const finished = branchCreated.operations.map((operation) => ({ ...operation, status: "finished" }))

  it.effect("takes a delete's Option answer, as it came: Some waits for its operations", () => {
    const deleted = {
      branch: branchItem(),
      operations: [
        { ...operationItem(1, at), action: "suspend_compute" },
        { ...operationItem(2, at), action: "delete_timeline", endpoint_id: undefined }
      ]
    }
    const script = scripted((request) =>
      request.method === "DELETE"
        ? json(200, deleted)
        : json(200, { operations: deleted.operations, pagination: { cursor: at } })
    )
    return Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const operations = yield* Operations.Operations
      const answer = yield* branches.delete(params)
      expect(Option.isSome(answer)).toBe(true)
      const result = yield* operations.awaitAll(answer)
      expect(result.succeeded.map((operation) => operation.action)).toEqual(["suspend_compute", "delete_timeline"])
      expect(script.requests.map((request) => request.method)).toEqual(["DELETE", "GET"])
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("takes Option.none() (a delete answered 204): resolves with nothing, and sends no request", () => {
    const script = scripted([raw(204, null)])
    return Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const operations = yield* Operations.Operations
      expect(yield* operations.awaitAll(Option.none())).toEqual({
        operations: [],
        succeeded: [],
        failed: [],
        pending: []
      })
      expect(script.requests).toHaveLength(0)
      const answer = yield* branches.delete(params)
      expect(yield* operations.awaitAll(answer)).toMatchObject({ operations: [] })
      expect(script.requests.map((request) => request.method)).toEqual(["DELETE"])
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("takes a create's answer directly, and its operations as they are too", () => {
    const script = scripted((request) =>
      request.method === "POST"
        ? json(201, branchCreated)
        : json(200, { operations: finished, pagination: { cursor: at } })
    )
    return Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const operations = yield* Operations.Operations
      const created = yield* branches.create(creation)
      const whole = yield* operations.awaitAll(created)
      const parts = yield* operations.awaitAll(created.operations)
      expect(whole.succeeded.map((operation) => operation.id)).toEqual([createBranch, startCompute])
      expect(parts).toEqual(whole)
      expect(script.requests.map((request) => request.method)).toEqual(["POST", "GET", "GET"])
    }).pipe(Effect.provide(layerFor(script)))
  })
})

// --- list and <key>Page, on every service ------------------------------------------------------

/** The ids a list endpoint's path may take, by parameter name. */
const ids: Readonly<Record<string, string>> = {
  project_id: projectId,
  branch_id: branchId,
  org_id: "org-acme-302709",
  region_id: "aws-us-east-2",
  bucket_name: "assets"
}

/** `n` items of each list endpoint, as its answer holds them, and the cursor to the next page. */
const answers: Readonly<Record<string, (n: number, cursor: string | undefined) => unknown>> = {
  "ApiKeys.list": (n) =>
    Array.from({ length: n }, (_, i) => ({ id: i, name: `key ${i}`, created_at: at, last_used_from_addr: "" })),
  "Projects.list": (n, cursor) => ({
    projects: Array.from({ length: n }, (_, i) => projectItem(`project-${i}`)),
    ...(cursor === undefined ? {} : { pagination: { cursor } }),
    applications: {},
    integrations: {}
  }),
  "Projects.listShared": (n, cursor) => answers["Projects.list"]!(n, cursor),
  "Projects.listAdvisorIssues": (n) => ({
    issues: Array.from({ length: n }, (_, i) => ({
      name: "no_primary_key",
      title: "No Primary Key",
      level: "INFO",
      facing: "INTERNAL",
      categories: ["PERFORMANCE"],
      description: "Detects tables without a primary key.",
      detail: `Table \`public.t${i}\` does not have a primary key.`,
      remediation: "https://neon.com/docs/data-api/database-advisor",
      metadata: { schema: "public", name: `t${i}` },
      cache_key: `no_primary_key_public_t${i}`
    }))
  }),
  "Projects.listAvailablePreloadLibraries": (n) => ({
    libraries: Array.from({ length: n }, (_, i) => ({
      library_name: i === 0 ? "pg_stat_statements" : "pg_cron",
      description: "a shared preload library",
      is_default: i === 0,
      is_experimental: false,
      version: "1.6"
    }))
  }),
  "Operations.list": (n, cursor) => ({
    operations: Array.from({ length: n }, (_, i) => operationItem(i, at)),
    ...(cursor === undefined ? {} : { pagination: { cursor } })
  }),
  "Branches.list": (n, next) => ({
    branches: Array.from({ length: n }, (_, i) => branchItem(`br-${i}`)),
    annotations: {},
    pagination: next === undefined ? {} : { next }
  }),
  "Branches.listEndpoints": (n) => ({ endpoints: Array.from({ length: n }, () => computeEndpointItem()) }),
  "ComputeEndpoints.list": (n) => ({ endpoints: Array.from({ length: n }, () => computeEndpointItem()) }),
  "Databases.list": (n) => ({
    databases: Array.from({ length: n }, (_, i) => ({
      id: i,
      branch_id: branchId,
      name: `db${i}`,
      owner_name: "app_owner",
      created_at: at,
      updated_at: at
    }))
  }),
  "Roles.list": (n) => ({
    roles: Array.from({ length: n }, (_, i) => ({
      branch_id: branchId,
      name: `role${i}`,
      created_at: at,
      updated_at: at
    }))
  }),
  "Regions.list": (n) => ({
    regions: Array.from({ length: n }, (_, i) => ({
      region_id: `aws-region-${i}`,
      name: `Region ${i}`,
      default: i === 0,
      geo_lat: "",
      geo_long: ""
    }))
  }),
  "Consumption.listProjects": (n, cursor) => ({
    projects: Array.from({ length: n }, (_, i) => ({ project_id: `project-${i}`, periods: [consumptionPeriod] })),
    ...(cursor === undefined ? {} : { pagination: { cursor } })
  }),
  "Consumption.listBranches": (n, cursor) => ({
    branches: Array.from({ length: n }, (_, i) => ({
      project_id: `project-${i}`,
      branch_id: `br-${i}`,
      periods: [consumptionPeriod]
    })),
    ...(cursor === undefined ? {} : { pagination: { cursor } })
  }),
  "Consumption.listProjectsLegacy": (n, cursor) => ({
    projects: Array.from({ length: n }, (_, i) => ({
      project_id: `project-${i}`,
      periods: [
        {
          ...consumptionPeriod,
          consumption: [
            {
              timeframe_start: at,
              timeframe_end: at,
              active_time_seconds: 1,
              compute_time_seconds: 1,
              written_data_bytes: 0,
              synthetic_storage_size_bytes: 0
            }
          ]
        }
      ]
    })),
    ...(cursor === undefined ? {} : { pagination: { cursor } })
  }),
  "Users.listOrganizations": (n) => ({
    organizations: Array.from({ length: n }, (_, i) => ({
      id: `org-${i}`,
      name: `Org ${i}`,
      handle: `org-${i}`,
      plan: "scale",
      managed_by: "console",
      created_at: at,
      updated_at: at
    }))
  }),
  "Organizations.listMembers": (n, next) => ({
    members: Array.from({ length: n }, (_, i) => ({
      member: {
        id: `5fee13ac-957b-40cd-8de0-4d494cc28e2${i}`,
        user_id: `6df052ac-ca9a-4321-8963-b6507b2d7de${i}`,
        org_id: "org-acme-302709",
        role: "member",
        joined_at: at
      },
      user: { email: `user${i}@example.com` }
    })),
    pagination:
      next === undefined
        ? { sort_by: "joined_at", sort_order: "desc" }
        : { next, sort_by: "joined_at", sort_order: "desc" }
  }),
  "Organizations.listInvitations": (n) => ({
    invitations: Array.from({ length: n }, (_, i) => ({
      id: `db8faf32-b07f-4b0f-94c8-5c288909f5d${i}`,
      email: `invited${i}@example.com`,
      org_id: "org-acme-302709",
      invited_by: "b107d689-6dd2-4c9a-8b9e-0b25e457cf56",
      invited_at: at,
      role: "member"
    }))
  }),
  "ProjectPermissions.list": (n) => ({
    project_permissions: Array.from({ length: n }, (_, i) => ({
      id: `permission-${i}`,
      granted_to_email: `user${i}@example.com`,
      granted_at: at
    }))
  }),
  "VpcEndpoints.list": (n) => ({
    endpoints: Array.from({ length: n }, (_, i) => ({ vpc_endpoint_id: `vpce-${i}`, label: `vpc ${i}` }))
  }),
  "VpcEndpoints.listAll": (n) => ({
    endpoints: Array.from({ length: n }, (_, i) => ({
      vpc_endpoint_id: `vpce-${i}`,
      label: `vpc ${i}`,
      region_id: "aws-us-east-2"
    }))
  }),
  "VpcEndpoints.listRestrictions": (n) => answers["VpcEndpoints.list"]!(n, undefined),
  "OrganizationApiKeys.list": (n) =>
    Array.from({ length: n }, (_, i) => ({
      id: i,
      name: `key ${i}`,
      created_at: at,
      last_used_from_addr: "",
      ...(i === 0 ? { project_id: projectId } : {})
    })),
  "Snapshots.list": (n) => ({
    snapshots: Array.from({ length: n }, (_, i) => ({ id: `snap-${i}`, name: `snapshot ${i}`, created_at: at }))
  }),
  "BranchAuth.listDomains": (n) => ({
    domains: Array.from({ length: n }, (_, i) => ({
      domain: `https://app${i}.example.com`,
      auth_provider: "better_auth"
    }))
  }),
  "BranchAuth.listOAuthProviders": (n) => ({
    providers: Array.from({ length: n }, (_, i) => ({ id: i === 0 ? "google" : "github", type: "shared" }))
  }),
  "Jwks.list": (n) => ({
    jwks: Array.from({ length: n }, (_, i) => ({
      id: `jwks-${i}`,
      project_id: projectId,
      jwks_url: "https://auth.example.com/jwks",
      provider_name: "Clerk",
      created_at: at,
      updated_at: at
    }))
  }),
  "Credentials.list": (n) => ({
    credentials: Array.from({ length: n }, (_, i) => ({
      token_id: `nak_live_${String(i).padStart(32, "0")}`,
      token_id_short: String(i).padStart(12, "0"),
      scopes: ["storage:read"],
      principal_type: "user",
      created_at: at
    }))
  }),
  "Functions.list": (n, next) => ({
    functions: Array.from({ length: n }, (_, i) => ({
      id: `fn-${i}`,
      slug: `fn${i}`,
      name: `fn${i}`,
      invocation_url: "",
      created_at: at
    })),
    pagination: next === undefined ? {} : { next }
  }),
  "Buckets.list": (n) => ({
    buckets: Array.from({ length: n }, (_, i) => ({ name: `bucket-${i}`, access_level: "private", created_at: at }))
  }),
  "Buckets.listObjects": (n, next) => ({
    folders: [],
    objects: Array.from({ length: n }, (_, i) => ({
      key: `docs/${next ?? "last"}-${i}.txt`,
      size: 3,
      last_modified: at,
      etag: '"0123456789abcdef0123456789abcdef"'
    })),
    prefix: "",
    ...(next === undefined ? { next_cursor: "" } : { next_cursor: next }),
    is_truncated: next !== undefined
  })
}

/** The query inputs a list endpoint requires, by name (its `metrics` go on the wire comma-separated). */
const requiredQuery: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  "Consumption.listProjects": {
    org_id: "org-acme-302709",
    from: DateTime.unsafeMake(at),
    to: DateTime.unsafeMake(at),
    granularity: "daily",
    metrics: ["compute_unit_seconds", "root_branch_bytes_month"]
  },
  "Consumption.listBranches": {
    org_id: "org-acme-302709",
    project_ids: [projectId],
    from: DateTime.unsafeMake(at),
    to: DateTime.unsafeMake(at),
    granularity: "daily",
    metrics: ["compute_unit_seconds", "root_branch_bytes_month"]
  },
  "Consumption.listProjectsLegacy": {
    from: DateTime.unsafeMake(at),
    to: DateTime.unsafeMake(at),
    granularity: "daily",
    metrics: ["compute_unit_seconds", "root_branch_bytes_month"]
  }
}

/** A method's answer, if it is a `Stream` (an `Effect` is a `Stream` too: it is not one of them). */
const isStream = (value: unknown): value is Stream.Stream<unknown, unknown> =>
  !Effect.isEffect(value) && typeof value === "object" && value !== null && Stream.StreamTypeId in value

/** A method's answer, if it is an `Effect`: one request. */
const isEffect = (value: unknown): value is Effect.Effect<unknown, unknown> => Effect.isEffect(value)

/** Calls the method `name` of `methods` with `args`. */
const call = (methods: ReadonlyMap<string, unknown>, name: string, ...args: ReadonlyArray<unknown>): unknown => {
  const method = methods.get(name)
  expect({ name, method: typeof method }).toEqual({ name, method: "function" })
  return typeof method === "function" ? method(...args) : undefined
}

/** The list endpoints of every group, with the group's name and the key of their method. */
const lists = Object.entries(Api.groups).flatMap(([group, entries]) =>
  Object.entries<Endpoint.Endpoint>(entries).flatMap(([key, endpoint]) =>
    endpoint.list === undefined ? [] : [{ group, key, endpoint }]
  )
)

/** The tag of every service of the client, by the name of its group in `Api.groups` (the tests below check they match). */
const serviceTags = {
  ApiKeys: ApiKeys.ApiKeys,
  Projects: Projects.Projects,
  Operations: Operations.Operations,
  Branches: Branches.Branches,
  ComputeEndpoints: ComputeEndpoints.ComputeEndpoints,
  Connections: Connections.Connections,
  Databases: Databases.Databases,
  Roles: Roles.Roles,
  Regions: Regions.Regions,
  Consumption: Consumption.Consumption,
  Users: Users.Users,
  Organizations: Organizations.Organizations,
  ProjectPermissions: ProjectPermissions.ProjectPermissions,
  VpcEndpoints: VpcEndpoints.VpcEndpoints,
  ProjectTransfers: ProjectTransfers.ProjectTransfers,
  OrganizationApiKeys: OrganizationApiKeys.OrganizationApiKeys,
  BranchSchema: BranchSchema.BranchSchema,
  Snapshots: Snapshots.Snapshots,
  DataApi: DataApi.DataApi,
  BranchAuth: BranchAuth.BranchAuth,
  Jwks: Jwks.Jwks,
  Credentials: Credentials.Credentials,
  Functions: Functions.Functions,
  Buckets: Buckets.Buckets,
  Storage: Storage.Storage,
  AiGateway: AiGateway.AiGateway
}

describe("list is a Stream on every service, <key>Page one request", () => {
  it("every group has its list endpoints here (a new one needs an answer above)", () => {
    expect(lists.map(({ endpoint }) => endpoint.name).sort()).toEqual(Object.keys(answers).sort())
  })

  for (const { endpoint, group, key } of lists) {
    const paged = endpoint.list?.cursor !== undefined
    it.effect(
      `${endpoint.name}: ${key} streams ${paged ? "page after page" : "one answer"}, ${key}Page is one request`,
      () => {
        // The first page: two items and a cursor; the page after it: one item, the last.
        const script = scripted((request) => {
          const cursor = new URL(request.url).searchParams.get("cursor")
          return json(200, cursor === null ? answers[endpoint.name]!(2, "c-1") : answers[endpoint.name]!(1, undefined))
        })
        return Effect.gen(function* () {
          const services = yield* Effect.all(serviceTags)
          expect(Object.keys(services).sort()).toEqual(Object.keys(Api.groups).sort())
          const methods = new Map<string, unknown>(
            Object.entries(Object.entries(services).find(([name]) => name === group)![1])
          )
          const input: Record<string, string> = {}
          const query = requiredQuery[endpoint.name] ?? {}
          for (const [name, part] of endpoint.parts) {
            if (part !== "params") continue
            expect({ name, fixture: ids[name] !== undefined }).toEqual({ name, fixture: true })
            input[name] = ids[name]!
          }

          const list = call(methods, key, { ...input, ...query }, { pageSize: 2 })
          expect(isStream(list)).toBe(true)
          if (!isStream(list)) return
          // Nothing is sent before the stream runs.
          expect(script.requests).toHaveLength(0)
          const items = yield* Stream.runCollect(list)
          expect(Chunk.size(items)).toBe(paged ? 3 : 2)
          expect(script.requests).toHaveLength(paged ? 2 : 1)
          if (paged) expect(new URL(script.requests[1]!.url).searchParams.get("cursor")).toBe("c-1")

          const page = call(methods, `${key}Page`, { ...input, ...query })
          expect(isEffect(page)).toBe(true)
          if (!isEffect(page)) return
          const before = script.requests.length
          const answer = yield* page
          expect(script.requests).toHaveLength(before + 1)
          expect(endpoint.list!.items(answer)).toHaveLength(2)
          const sent = script.requests[before]!
          if (requiredQuery[endpoint.name] === undefined) {
            expect(line(sent)).toBe(`${endpoint.method} ${Endpoint.path(endpoint.route, input)}`)
          } else {
            // A list query parameter goes as one comma-separated value.
            expect(new URL(sent.url).pathname).toBe(`/api/v2${Endpoint.path(endpoint.route, input)}`)
            expect(new URL(sent.url).searchParams.getAll("metrics")).toEqual([
              "compute_unit_seconds,root_branch_bytes_month"
            ])
          }
        }).pipe(Effect.provide(layerFor(script)))
      }
    )
  }

  it.effect("no method but a list's has a <key>Page", () =>
    Effect.gen(function* () {
      const services = yield* Effect.all(serviceTags)
      const pages = Object.entries(services).flatMap(([group, service]) =>
        Object.keys(service)
          .filter((name) => name.endsWith("Page"))
          .map((name) => `${group}.${name}`)
      )
      expect(pages.sort()).toEqual(lists.map(({ group, key }) => `${group}.${key}Page`).sort())
    }).pipe(Effect.provide(layerFor(scripted([raw(500, null)]))))
  )
})
