/**
 * A hostile server or proxy: whatever it answers, every method of every service ends, with a
 * value or one of its own typed errors, never a defect and never a hang. A property test
 * (fast-check, seeded, bounded) scripts answers from deep nesting, huge arrays, truncated JSON,
 * wrong types, wrong content types, oversized and endless bodies, cycling cursors, foreign ids
 * and hangs; the cases the SDK promises most about are then checked one by one.
 */
import { ApiKeyId, Endpoint, MalformedResponse, OperationId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Chunk from "effect/Chunk"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FastCheck from "effect/FastCheck"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import * as TestContext from "effect/TestContext"
import {
  ApiKeys,
  Branches,
  Connections,
  DbPlatform,
  DbPlatformClient,
  Operations,
  Projects,
  Roles
} from "../src/index.js"
import {
  apiKeyCreated,
  baseUrl,
  branchCreated,
  branchId,
  branchItem,
  computeEndpointItem,
  operationId,
  operationItem,
  projectId,
  projectItem
} from "./fixtures.js"
import { json, raw, type Reply, type Scripted, scripted } from "./scripted.js"

// --- the methods and what each may fail with -------------------------------------------------

const callErrors = [
  "Unauthorized",
  "NotFound",
  "RateLimited",
  "ServerError",
  "ServiceUnavailable",
  "UnexpectedStatus",
  "MalformedResponse",
  "TransportError"
]
const readErrors = [...callErrors, "InvalidRequest", "NotFound", "Forbidden", "BadRequest"]

const otherOperationId = OperationId.make("0b7d3f10-8d6c-4a11-9e55-3f1c2b8a9d02")
const createdAt = DateTime.unsafeMake("2022-12-09T08:47:52.20417Z")
/** Two operations with a `created_at`, so that waits read them with one list request. */
const targets = [
  { project_id: projectId, id: operationId, created_at: createdAt },
  { project_id: projectId, id: otherOperationId, created_at: createdAt }
]

interface Method {
  readonly name: string
  readonly run: Effect.Effect<unknown, { readonly _tag: string }, DbPlatform.DbPlatform>
  /** The `_tag`s of the errors its signature names. */
  readonly errors: ReadonlyArray<string>
  /** What a success must hold, whatever the server sent. */
  readonly check?: (value: never) => boolean
}

const methods: ReadonlyArray<Method> = [
  {
    name: "ApiKeys.create",
    run: Effect.flatMap(ApiKeys.ApiKeys, (keys) => keys.create({ key_name: "ci" })),
    errors: [...callErrors, "InvalidRequest", "BadRequest", "Locked"]
  },
  {
    name: "ApiKeys.list",
    run: Effect.flatMap(ApiKeys.ApiKeys, (keys) => Stream.runCollect(keys.list())),
    errors: [...callErrors, "InvalidRequest"]
  },
  {
    name: "ApiKeys.listPage",
    run: Effect.flatMap(ApiKeys.ApiKeys, (keys) => keys.listPage()),
    errors: [...callErrors, "InvalidRequest"]
  },
  {
    name: "ApiKeys.revoke",
    run: Effect.flatMap(ApiKeys.ApiKeys, (keys) => keys.revoke({ key_id: ApiKeyId.make(165432) })),
    errors: [...callErrors, "InvalidRequest", "NotFound", "Locked"],
    check: (revoked: { id: number }) => revoked.id === 165432
  },
  {
    name: "Projects.listPage",
    run: Effect.flatMap(Projects.Projects, (projects) => projects.listPage({ limit: 10 })),
    errors: [...callErrors, "InvalidRequest", "BadRequest"],
    check: (page: { projects: ReadonlyArray<unknown> }) => page.projects.length <= 10
  },
  {
    name: "Projects.list",
    run: Effect.flatMap(Projects.Projects, (projects) => Stream.runCollect(projects.list({}, { pageSize: 10 }))),
    errors: [...callErrors, "InvalidRequest", "BadRequest"]
  },
  {
    name: "Operations.listPage",
    run: Effect.flatMap(Operations.Operations, (operations) =>
      operations.listPage({ project_id: projectId, limit: 10 })
    ),
    errors: readErrors,
    check: (page: { operations: ReadonlyArray<{ project_id: string }> }) =>
      page.operations.length <= 10 && page.operations.every((operation) => operation.project_id === projectId)
  },
  {
    name: "Operations.list",
    run: Effect.flatMap(Operations.Operations, (operations) =>
      Stream.runCollect(operations.list({ project_id: projectId }, { pageSize: 10 }))
    ),
    errors: readErrors
  },
  {
    name: "Operations.get",
    run: Effect.flatMap(Operations.Operations, (operations) =>
      operations.get({ project_id: projectId, operation_id: operationId })
    ),
    errors: readErrors,
    check: ({ operation }: { operation: { id: string; project_id: string } }) =>
      operation.id === operationId && operation.project_id === projectId
  },
  {
    name: "Operations.states",
    run: Effect.flatMap(Operations.Operations, (operations) =>
      Stream.runCollect(
        operations.states({ project_id: projectId, operation_id: operationId }, { timeout: "10 minutes" })
      )
    ),
    errors: readErrors,
    check: (states: Chunk.Chunk<{ id: string }>) =>
      Chunk.size(states) >= 1 && Chunk.every(states, (state) => state.id === operationId)
  },
  {
    name: "Operations.await",
    run: Effect.flatMap(Operations.Operations, (operations) =>
      operations.await({ project_id: projectId, operation_id: operationId })
    ),
    errors: [...readErrors, "OperationFailed", "OperationStillPending"],
    check: (operation: { id: string }) => operation.id === operationId
  },
  {
    name: "Operations.awaitAll",
    run: Effect.flatMap(Operations.Operations, (operations) => operations.awaitAll(targets)),
    errors: readErrors,
    check: (result: { operations: ReadonlyArray<{ id: string }> }) =>
      result.operations.map((operation) => operation.id).join() === [operationId, otherOperationId].join()
  },
  {
    name: "Operations.watch",
    run: Effect.flatMap(Operations.Operations, (operations) =>
      Stream.runCollect(operations.watch(targets, { timeout: "10 minutes" }))
    ),
    errors: readErrors,
    check: (states: Chunk.Chunk<{ id: string }>) =>
      Chunk.every(states, (state) => state.id === operationId || state.id === otherOperationId)
  },
  {
    name: "Branches.listPage",
    run: Effect.flatMap(Branches.Branches, (branches) => branches.listPage({ project_id: projectId, limit: 10 })),
    errors: readErrors,
    check: (page: { branches: ReadonlyArray<{ project_id: string }> }) =>
      page.branches.length <= 10 && page.branches.every((branch) => branch.project_id === projectId)
  },
  {
    name: "Branches.list",
    run: Effect.flatMap(Branches.Branches, (branches) =>
      Stream.runCollect(branches.list({ project_id: projectId }, { pageSize: 10 }))
    ),
    errors: readErrors,
    check: (branches: Chunk.Chunk<{ project_id: string }>) =>
      Chunk.every(branches, (branch) => branch.project_id === projectId)
  },
  {
    name: "Branches.create with wait",
    run: Effect.flatMap(Branches.Branches, (branches) =>
      branches.create({ project_id: projectId, branch: { name: "preview/pr-1" } }, { wait: true })
    ),
    errors: [...readErrors, "Conflict", "Locked", "OperationFailed", "OperationStillPending"],
    check: (created: { branch: { project_id: string }; operations: ReadonlyArray<{ project_id: string }> }) =>
      created.branch.project_id === projectId && created.operations.every((op) => op.project_id === projectId)
  },
  {
    name: "Branches.listEndpoints",
    run: Effect.flatMap(Branches.Branches, (branches) =>
      Stream.runCollect(branches.listEndpoints({ project_id: projectId, branch_id: branchId }))
    ),
    errors: readErrors,
    check: (endpoints: Chunk.Chunk<{ branch_id: string }>) =>
      Chunk.every(endpoints, (endpoint) => endpoint.branch_id === branchId)
  },
  {
    name: "Roles.list",
    run: Effect.flatMap(Roles.Roles, (roles) =>
      Stream.runCollect(roles.list({ project_id: projectId, branch_id: branchId }))
    ),
    errors: readErrors
  },
  {
    name: "Connections.uri",
    run: Effect.flatMap(Connections.Connections, (connections) =>
      connections.uri({ project_id: projectId, database_name: "app", role_name: "app_owner" })
    ),
    errors: readErrors
  }
]

// --- hostile answers -------------------------------------------------------------------------

/** The largest body the clients of these tests read (256 KiB), so that oversized bodies stay cheap. */
const maxResponseBytes = 256 * 1024

/** A body that never ends: 64 KiB chunks of `[` for as long as it is read. Counts what was pulled. */
const endless = () => {
  const pulled = { bytes: 0 }
  const chunk = new TextEncoder().encode("[".repeat(64 * 1024))
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled.bytes += chunk.length
      controller.enqueue(chunk)
    }
  })
  return { stream, pulled }
}

/** One answer, as data: turned into a fresh `Reply` for each request (a stream is read once). */
type Answer =
  | { readonly kind: "body"; readonly status: number; readonly body: string; readonly contentType: string }
  | { readonly kind: "empty"; readonly status: number }
  | { readonly kind: "endless"; readonly status: number }
  | { readonly kind: "hang" }

const toReply = (answer: Answer): Reply => {
  switch (answer.kind) {
    case "body":
      return raw(answer.status, answer.body, { "content-type": answer.contentType })
    case "empty":
      return raw(answer.status, null)
    case "endless":
      return raw(answer.status, endless().stream, { "content-type": "application/json" })
    case "hang":
      return { _tag: "Hang" }
  }
}

const cursors = FastCheck.option(FastCheck.constantFrom("A", "B", "2022-12-09T08:47:52.20417Z"), { nil: undefined })
const ids = FastCheck.constantFrom(operationId, otherOperationId, "5d1f5f1e-0000-4000-8000-000000000000")
const projects = FastCheck.constantFrom<string>(projectId, projectId, "autumn-field-118737")
const statuses = FastCheck.constantFrom("running", "finished", "failed", "scheduling", "paused", "skipped")

/** A well-formed operation, possibly of another id or project. */
const operation = FastCheck.tuple(ids, projects, statuses).map(([id, project, status]) => ({
  ...operationItem(1, "2022-12-09T08:47:52.20417Z", status),
  id,
  project_id: project
}))

/** Bodies of the right shape for some endpoint, with hostile values where it matters. */
const shaped: FastCheck.Arbitrary<unknown> = FastCheck.oneof(
  operation.map((op) => ({ operation: op })),
  FastCheck.tuple(FastCheck.array(operation, { maxLength: 14 }), cursors).map(([operations, cursor]) => ({
    operations,
    ...(cursor === undefined ? {} : { pagination: { cursor } })
  })),
  FastCheck.tuple(FastCheck.integer({ min: 0, max: 14 }), cursors).map(([count, cursor]) => ({
    projects: Array.from({ length: count }, (_, i) => projectItem(`project-${i}`)),
    ...(cursor === undefined ? {} : { pagination: { cursor } }),
    applications: {},
    integrations: {}
  })),
  FastCheck.integer({ min: 1, max: 200_000 }).map((id) => ({
    ...apiKeyCreated,
    id,
    created_by: apiKeyCreated.created_by,
    last_used_from_addr: "",
    revoked: true
  })),
  FastCheck.constant({ ...apiKeyCreated }),
  FastCheck.constant([]),
  FastCheck.tuple(FastCheck.array(projects, { maxLength: 12 }), cursors).map(([owners, next]) => ({
    branches: owners.map((owner, i) => branchItem(`br-${i}`, { project_id: owner })),
    annotations: {},
    ...(next === undefined ? {} : { pagination: { next } })
  })),
  FastCheck.tuple(projects, FastCheck.array(operation, { maxLength: 3 })).map(([owner, operations]) => ({
    ...branchCreated,
    branch: { ...branchCreated.branch, project_id: owner },
    operations
  })),
  FastCheck.array(FastCheck.constantFrom(branchId, "br-other-branch-1"), { maxLength: 3 }).map((branches) => ({
    endpoints: branches.map((branch) => computeEndpointItem(branch)),
    roles: branches.map((branch) => ({
      branch_id: branch,
      name: "app_owner",
      created_at: "2022-11-30T19:09:48Z",
      updated_at: "2022-11-30T19:09:48Z"
    }))
  }))
)

/** Bodies no endpoint answers with. */
const hostileText: FastCheck.Arbitrary<string> = FastCheck.oneof(
  FastCheck.integer({ min: 1000, max: 20_000 }).map((depth) => "[".repeat(depth) + "]".repeat(depth)),
  FastCheck.integer({ min: 1000, max: 20_000 }).map((depth) => `{"operation":${"[".repeat(depth)}`),
  FastCheck.integer({ min: 1000, max: 20_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`),
  FastCheck.integer({ min: 1000, max: 60_000 }).map((n) => `{"operations":[${"1,".repeat(n)}1]}`),
  FastCheck.integer({ min: 100, max: 600 }).map(
    (n) => `{"projects":[${`${JSON.stringify(projectItem("x"))},`.repeat(n)}null]}`
  ),
  FastCheck.json({ maxDepth: 4 }),
  FastCheck.tuple(shaped, FastCheck.nat()).map(([value, cut]) => {
    const text = JSON.stringify(value)
    return text.slice(0, cut % Math.max(1, text.length))
  }),
  FastCheck.constantFrom("<html><body>502 Bad Gateway</body></html>", "", "null", "\u0000\uffff", '"Bearer ')
)

const answer: FastCheck.Arbitrary<Answer> = FastCheck.oneof(
  {
    weight: 4,
    arbitrary: FastCheck.tuple(
      FastCheck.constantFrom(200, 200, 200, 404, 429, 503),
      shaped,
      FastCheck.constantFrom("application/json", "text/html")
    ).map(
      ([status, value, contentType]): Answer => ({ kind: "body", status, body: JSON.stringify(value), contentType })
    )
  },
  {
    weight: 4,
    arbitrary: FastCheck.tuple(
      FastCheck.constantFrom(200, 200, 400, 401, 423, 500, 502, 302, 418),
      hostileText,
      FastCheck.constantFrom("application/json", "text/plain", "")
    ).map(([status, body, contentType]): Answer => ({ kind: "body", status, body, contentType }))
  },
  {
    weight: 1,
    arbitrary: FastCheck.constantFrom(200, 204, 502).map((status): Answer => ({ kind: "empty", status }))
  },
  {
    weight: 1,
    arbitrary: FastCheck.constantFrom(200, 500).map((status): Answer => ({ kind: "endless", status }))
  },
  { weight: 1, arbitrary: FastCheck.constant<Answer>({ kind: "hang" }) }
)

// --- running a method against a script -------------------------------------------------------

const layerFor = (script: Scripted, options: Partial<DbPlatformClient.Options> = {}) =>
  Layer.orDie(
    DbPlatform.layer({ baseUrl, apiKey: Redacted.make("secret-key"), maxResponseBytes, ...options }).pipe(
      Layer.provide(script.layer)
    )
  )

/** The most virtual time a call may take here: past every deadline, timeout and schedule. */
const rounds = 200

/**
 * Runs `method` to its end on the `TestClock`, a minute at a time: its exit, or `None` when it
 * had not ended after {@link rounds} minutes (a hang).
 */
const runToEnd = <A, E>(run: Effect.Effect<A, E, DbPlatform.DbPlatform>, script: Scripted) =>
  Effect.gen(function* () {
    const fiber = yield* Effect.fork(Effect.provide(run, layerFor(script)))
    for (let round = 0; round < rounds && Option.isNone(yield* Fiber.poll(fiber)); round++) {
      yield* TestClock.adjust("1 minute")
    }
    const exit = yield* Fiber.poll(fiber)
    if (Option.isNone(exit)) yield* Fiber.interrupt(fiber)
    return exit
  })

/** What went wrong with one run, or `undefined` when it ended as its signature says. */
const verdict = (method: Method, exit: Option.Option<Exit.Exit<unknown, { readonly _tag: string }>>) => {
  if (Option.isNone(exit)) return "hang"
  return Exit.match(exit.value, {
    onSuccess: (value) => (method.check === undefined || method.check(value as never) ? undefined : "wrong success"),
    onFailure: (cause) => {
      if (Cause.isDie(cause)) return `defect: ${Cause.pretty(cause).slice(0, 300)}`
      const failure = Cause.failureOption(cause)
      if (Option.isNone(failure)) return `no failure: ${Cause.pretty(cause).slice(0, 300)}`
      return method.errors.includes(failure.value._tag) ? undefined : `undeclared error ${failure.value._tag}`
    }
  })
}

describe("a hostile server", () => {
  it("every method ends with a value or one of its typed errors: no defect, no hang, no success about another id", {
    timeout: 120_000
  }, async () => {
    const problems: Array<string> = []
    await FastCheck.assert(
      FastCheck.asyncProperty(
        FastCheck.constantFrom(...methods),
        FastCheck.array(answer, { minLength: 1, maxLength: 4 }),
        async (method, answers) => {
          const script = scripted((_, index) => toReply(answers[index % answers.length]!))
          const exit = await Effect.runPromise(
            runToEnd(method.run, script).pipe(Effect.provide(TestContext.TestContext))
          )
          const problem = verdict(method, exit)
          if (problem !== undefined) problems.push(`${method.name}: ${problem}`)
          return problem === undefined
        }
      ),
      { seed: 20261123, numRuns: 250, endOnFailure: true }
    )
    expect(problems).toEqual([])
  })
})

// --- the promises, one by one -----------------------------------------------------------------

const pageOfOperations = (count: number, cursor: string) =>
  json(200, {
    operations: Array.from({ length: count }, (_, i) => operationItem(i % 10)),
    pagination: { cursor }
  })
const pageOfProjects = (count: number, cursor: string) =>
  json(200, {
    projects: Array.from({ length: count }, (_, i) => projectItem(`project-${i}`)),
    pagination: { cursor },
    applications: {},
    integrations: {}
  })

const failureOf = <A, E>(run: Effect.Effect<A, E, DbPlatform.DbPlatform>, script: Scripted) =>
  Effect.gen(function* () {
    const exit = yield* runToEnd(run, script)
    expect(Option.isSome(exit)).toBe(true)
    const ended = Option.getOrThrow(exit)
    expect(Exit.isFailure(ended) && Cause.isDie(ended.cause)).toBe(false)
    return Exit.isFailure(ended) ? Option.getOrUndefined(Cause.failureOption(ended.cause)) : undefined
  })

describe("cursors", () => {
  const listOperations = Effect.flatMap(Operations.Operations, (operations) =>
    Stream.runCollect(operations.list({ project_id: projectId }, { pageSize: 10 }))
  )
  const listProjects = Effect.flatMap(Projects.Projects, (projects) =>
    Stream.runCollect(projects.list({}, { pageSize: 10 }))
  )

  it.effect("a cycle A → B → A fails at the repeat, 3 requests in all, with MalformedResponse saying so", () =>
    Effect.gen(function* () {
      const walks: ReadonlyArray<
        readonly [Effect.Effect<unknown, { readonly _tag: string }, DbPlatform.DbPlatform>, typeof pageOfOperations]
      > = [
        [listOperations, pageOfOperations],
        [listProjects, pageOfProjects]
      ]
      for (const [run, page] of walks) {
        const script = scripted([page(10, "A"), page(10, "B"), page(10, "A"), page(10, "C")])
        const error = yield* failureOf(run, script)
        expect(error).toMatchObject({
          _tag: "MalformedResponse",
          status: 200,
          description: expect.stringContaining('the server sent the cursor "A" a second time, after 3 pages')
        })
        expect(error instanceof MalformedResponse && error.message).toContain(
          'the 200 answer cannot be used: the server sent the cursor "A" a second time'
        )
        expect(script.requests).toHaveLength(3)
        expect(new URL(script.requests[2]!.url).searchParams.get("cursor")).toBe("B")
      }
    })
  )

  it.effect("a cursor answered with itself fails at once instead of ending quietly with a repeated page", () =>
    Effect.gen(function* () {
      const script = scripted([pageOfOperations(10, "A"), pageOfOperations(10, "A")])
      const error = yield* failureOf(listOperations, script)
      expect(error).toMatchObject({ _tag: "MalformedResponse", path: `/projects/${projectId}/operations` })
      expect(script.requests).toHaveLength(2)
    })
  )

  it.effect("a short page ends the walk whatever its cursor; each stream run starts a new walk", () =>
    Effect.gen(function* () {
      const script = scripted([pageOfOperations(10, "A"), pageOfOperations(3, "A")])
      const stream = Effect.flatMap(Operations.Operations, (operations) =>
        Effect.succeed(operations.list({ project_id: projectId }, { pageSize: 10 }))
      )
      const exit = yield* runToEnd(
        Effect.flatMap(stream, (operations) =>
          Effect.zip(Stream.runCollect(operations), Stream.runCollect(operations))
        ),
        scripted((_, index) => (index % 2 === 0 ? pageOfOperations(10, "A") : pageOfOperations(3, "A")))
      )
      expect(
        Option.map(
          exit,
          Exit.map(([first, second]) => [Chunk.size(first), Chunk.size(second)])
        )
      ).toEqual(Option.some(Exit.succeed([13, 13])))
      const once = yield* runToEnd(listOperations, script)
      expect(Option.map(once, Exit.map(Chunk.size))).toEqual(Option.some(Exit.succeed(13)))
    })
  )

  it.effect("a page with more items than the limit sent is a MalformedResponse, for pages and streams", () =>
    Effect.gen(function* () {
      const page = Effect.flatMap(Operations.Operations, (operations) =>
        operations.listPage({ project_id: projectId, limit: 5 })
      )
      const pageError = yield* failureOf(page, scripted([pageOfOperations(6, "A")]))
      expect(pageError).toMatchObject({
        _tag: "MalformedResponse",
        route: "/projects/{project_id}/operations",
        description: "the page has 6 items, more than the limit of 5"
      })
      expect(pageError?.message).toMatch(
        /^GET \/projects\/spring-example-302709\/operations: the 200 answer cannot be used: the page has 6 items, more than the limit of 5 \(request id [0-9a-f-]{36}\)$/
      )
      expect(yield* failureOf(listProjects, scripted([pageOfProjects(11, "A")]))).toMatchObject({
        _tag: "MalformedResponse",
        description: "the page has 11 items, more than the limit of 10"
      })
      // Without a limit, the server's largest page (400) is the limit of a projects page.
      const unlimited = Effect.flatMap(Projects.Projects, (projects) => projects.listPage())
      expect(yield* failureOf(unlimited, scripted([pageOfProjects(401, "A")]))).toMatchObject({
        _tag: "MalformedResponse",
        description: "the page has 401 items, more than the limit of 400"
      })
    })
  )
})

describe("bodies", () => {
  it.effect("5000 nested [ as the body of any method is a MalformedResponse, never a defect", () =>
    Effect.gen(function* () {
      for (const method of methods) {
        const script = scripted([raw(200, "[".repeat(5000) + "]".repeat(5000), { "content-type": "application/json" })])
        const error = yield* failureOf(method.run, script)
        expect({ method: method.name, tag: error?._tag }).toEqual({ method: method.name, tag: "MalformedResponse" })
      }
    })
  )

  it.effect("a deep value inside a right envelope is named by its path, not printed", () =>
    Effect.gen(function* () {
      const deep = `{"operation":${"[".repeat(5000)}${"]".repeat(5000)}}`
      const error = yield* failureOf(
        Effect.flatMap(Operations.Operations, (operations) =>
          operations.get({ project_id: projectId, operation_id: operationId })
        ),
        scripted([raw(200, deep)])
      )
      expect(error).toMatchObject({
        _tag: "MalformedResponse",
        description: "the body does not match: operation: expected an object"
      })
      expect(error?.message).toContain(
        `GET /projects/${projectId}/operations/${operationId}: the 200 answer cannot be used: the body does not match: operation: expected an object`
      )
    })
  )

  it.effect("an endless body stops being read just past maxResponseBytes and fails with MalformedResponse", () =>
    Effect.gen(function* () {
      const body = endless()
      const script = scripted([raw(200, body.stream)])
      const error = yield* failureOf(
        Effect.flatMap(Projects.Projects, (projects) => projects.listPage()),
        script
      )
      expect(error).toMatchObject({
        _tag: "MalformedResponse",
        description: "the body is larger than 256 KiB; reading stopped there"
      })
      expect(script.requests).toHaveLength(1)
      // What was pulled: the cap, one chunk past it, and what the stream buffers ahead.
      expect(body.pulled.bytes).toBeLessThanOrEqual(maxResponseBytes + 3 * 64 * 1024)
    })
  )

  it.effect(
    "a Content-Length over the cap fails before the body is read; an error body over 64 KiB leaves the status to decide",
    () =>
      Effect.gen(function* () {
        const body = endless()
        const error = yield* failureOf(
          Effect.flatMap(Projects.Projects, (projects) => projects.listPage()),
          scripted([raw(200, body.stream, { "content-length": String(768 * 1024 * 1024) })])
        )
        expect(error).toMatchObject({ _tag: "MalformedResponse" })
        expect(body.pulled.bytes).toBeLessThanOrEqual(64 * 1024)
        const big = JSON.stringify({ code: "x", message: "m".repeat(70 * 1024) })
        const status = yield* failureOf(
          Effect.flatMap(Projects.Projects, (projects) => projects.listPage()),
          scripted([raw(400, big)])
        )
        expect(status).toMatchObject({ _tag: "BadRequest", status: 400, route: "/projects" })
        expect(status && "code" in status ? status.code : undefined).toBeUndefined()
        expect(status && "description" in status ? status.description : undefined).toBeUndefined()
        expect(status?.message).toMatch(/^GET \/projects: 400 Bad Request \(request id [0-9a-f-]{36}\)$/)
      })
  )

  it.effect("a body that arrived is decoded after the request timeout: slow decoding is never 'no response'", () =>
    Effect.gen(function* () {
      const client = yield* DbPlatformClient.DbPlatformClient
      const SlowToDecode = Schema.transformOrFail(Schema.Struct({ n: Schema.Number }), Schema.Number, {
        strict: true,
        decode: ({ n }) => Effect.as(Effect.sleep("5 minutes"), n),
        encode: (n) => Effect.succeed({ n })
      })
      const { slow } = Endpoint.group("Test", {
        slow: Endpoint.make({ method: "GET", route: "/slow", success: SlowToDecode, errors: [] })
      })
      const fiber = yield* Effect.fork(client.execute(slow, {}))
      yield* TestClock.adjust("6 minutes")
      expect(yield* Fiber.join(fiber)).toBe(1)
    }).pipe(Effect.provide(layerFor(scripted([json(200, { n: 1 })]), { requestTimeout: "1 second" })))
  )
})

describe("waits never report an operation they did not read", () => {
  const other = { ...operationItem(1, "2022-12-09T08:47:52.20417Z", "finished"), id: otherOperationId }

  it.effect("get, states and await fail with MalformedResponse on an answer about another operation", () =>
    Effect.gen(function* () {
      for (const name of ["Operations.get", "Operations.states", "Operations.await"]) {
        const method = methods.find((m) => m.name === name)!
        const error = yield* failureOf(method.run, scripted([json(200, { operation: other })]))
        expect({
          name,
          error: error?._tag,
          description: error && "description" in error ? error.description : ""
        }).toEqual({
          name,
          error: "MalformedResponse",
          description: `the answer is about operation_id ${otherOperationId}, not ${operationId}`
        })
      }
    })
  )

  it.effect("awaitAll and watch: a list of other operations falls back to reading each; a foreign answer fails", () =>
    Effect.gen(function* () {
      const foreign = { ...other, id: "5d1f5f1e-0000-4000-8000-000000000000" }
      const script = scripted((request) =>
        request.url.endsWith("/operations?limit=14")
          ? json(200, { operations: [foreign], pagination: { cursor: "A" } })
          : json(200, { operation: foreign })
      )
      for (const name of ["Operations.awaitAll", "Operations.watch"]) {
        const method = methods.find((m) => m.name === name)!
        const error = yield* failureOf(method.run, script)
        expect({ name, error: error?._tag }).toEqual({ name, error: "MalformedResponse" })
      }
    })
  )

  it.effect("a list page holding another project's operation is a MalformedResponse", () =>
    Effect.gen(function* () {
      const stranger = { ...operationItem(1), project_id: "autumn-field-118737" }
      const error = yield* failureOf(
        Effect.flatMap(Operations.Operations, (operations) => operations.listPage({ project_id: projectId })),
        scripted([json(200, { operations: [stranger] })])
      )
      expect(error).toMatchObject({ _tag: "MalformedResponse" })
      expect(error && "description" in error ? error.description : "").toBe(
        `the answer holds an item (${stranger.id}) of project_id autumn-field-118737, not ${projectId}`
      )
    })
  )

  it.effect("revoke fails with MalformedResponse when the answer is about another key", () =>
    Effect.gen(function* () {
      const error = yield* failureOf(
        Effect.flatMap(ApiKeys.ApiKeys, (keys) => keys.revoke({ key_id: ApiKeyId.make(165432) })),
        scripted([
          json(200, {
            ...apiKeyCreated,
            id: 7,
            last_used_from_addr: "",
            revoked: true
          })
        ])
      )
      expect(error).toMatchObject({
        _tag: "MalformedResponse",
        description: "the answer is about key_id 7, not 165432"
      })
    })
  )
})
