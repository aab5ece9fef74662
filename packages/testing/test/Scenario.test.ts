import * as HttpClient from "@effect/platform/HttpClient"
import { ApiKeys, DbPlatform, Operations, Projects } from "@dbplatform/client"
import { OperationId, type OperationFailed, ProjectId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Equal from "effect/Equal"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakeHttpClient from "../src/FakeHttpClient.js"
import * as FakePlatform from "../src/FakePlatform.js"
import type { Seed } from "../src/Seed.js"
import { operationId, projectId } from "./helpers.js"

const seed: Seed = {
  projects: [{ id: projectId }],
  operations: [{ project_id: projectId, id: operationId(1), action: "create_timeline", age: "1 day" }]
}
const provideFake = Effect.provide(DbPlatformTest.layer({ seed }))
const scenario = Effect.map(FakePlatform.FakePlatform, (fake) => fake.scenario)
const getOperation = (id: string) =>
  Effect.flatMap(Operations.Operations, (operations) =>
    operations
      .get({ project_id: projectId, operation_id: OperationId.make(id) })
      .pipe(Effect.map(({ operation }) => operation))
  )
const awaitOperation = (id: string) =>
  Effect.flatMap(Operations.Operations, (operations) =>
    operations.await({ project_id: projectId, operation_id: OperationId.make(id) })
  )
/** The client's `await` of an operation that ends badly: its `OperationFailed`, carrying the last state. */
const awaitFailure = (id: string) =>
  awaitOperation(id).pipe(
    Effect.flip,
    Effect.filterOrDieMessage((error) => error._tag === "OperationFailed", "expected OperationFailed"),
    Effect.map((error) => (error as OperationFailed).operation)
  )
const millis = (timestamp: DateTime.Utc | undefined) =>
  timestamp === undefined ? undefined : DateTime.toEpochMillis(timestamp)

describe("scenario.startOperations", () => {
  it.effect("answers a create-branch mutation's operations, which then run one after the other on the Clock", () =>
    Effect.gen(function* () {
      const { startOperations } = yield* scenario
      const started = yield* startOperations(projectId, [
        { action: "create_branch", runsFor: "3 seconds" },
        { action: "start_compute", runsFor: "5 seconds" }
      ])
      const [branch, compute] = started.operations
      expect(started.operations.map((operation) => [operation.action, operation.status])).toEqual([
        ["create_branch", "scheduling"],
        ["start_compute", "scheduling"]
      ])
      for (const operation of started.operations) {
        expect(Schema.is(OperationId)(operation.id)).toBe(true)
        expect(operation).toMatchObject({ project_id: projectId, failures_count: 0 })
      }
      expect(branch!.endpoint_id).toBeUndefined()
      expect(compute!.endpoint_id).toMatch(/^ep-[a-z]+-[a-z]+-[a-z0-9]{8}$/)
      expect(branch!.branch_id).toMatch(/^br-[a-z]+-[a-z]+-\d{6}$/)
      expect(compute!.branch_id).toBe(branch!.branch_id)

      // Listed newest first, with the seeded one after them.
      const page = yield* Effect.flatMap(Operations.Operations, (operations) =>
        operations.listPage({ project_id: projectId })
      )
      expect(page.operations.map((operation) => operation.id)).toEqual([compute!.id, branch!.id, operationId(1)])

      yield* TestClock.adjust("1 second")
      expect((yield* getOperation(branch!.id)).status).toBe("running")
      expect((yield* getOperation(compute!.id)).status).toBe("scheduling")
      yield* TestClock.adjust("2 seconds")
      expect((yield* getOperation(branch!.id)).status).toBe("finished")
      expect((yield* getOperation(compute!.id)).status).toBe("scheduling")
      yield* TestClock.adjust("1 second")
      expect((yield* getOperation(compute!.id)).status).toBe("running")

      // The client's await (5 s polls) sees start_compute finish at 8 s.
      const fiber = yield* Effect.fork(awaitOperation(compute!.id))
      yield* TestClock.adjust("5 seconds")
      const done = yield* Fiber.join(fiber)
      expect(done.status).toBe("finished")
      expect(millis(done.updated_at)).toBe(8_000)
      expect(done.total_duration_ms).toBe(8_000 - millis(done.created_at)!)
    }).pipe(provideFake)
  )

  it.effect("an operation can be started to fail, with failures_count, error and retry_at", () =>
    Effect.gen(function* () {
      const { startOperations } = yield* scenario
      const started = yield* startOperations(projectId, [
        {
          action: "start_compute",
          runsFor: "5 seconds",
          status: "failed",
          failures_count: 1,
          error: "compute start timed out",
          retryIn: "30 seconds"
        }
      ])
      const id = started.operations[0]!.id
      expect(started.operations[0]!.error).toBeUndefined()
      const fiber = yield* Effect.fork(awaitFailure(id))
      yield* TestClock.adjust("5 seconds")
      const failed = yield* Fiber.join(fiber)
      expect(failed).toMatchObject({ status: "failed", failures_count: 1, error: "compute start timed out" })
      expect(millis(failed.retry_at)).toBe(35_000)
    }).pipe(provideFake)
  )

  it.effect("fails with UnknownProject, and InvalidSeed on a bad or taken operation id", () =>
    Effect.gen(function* () {
      const { startOperations } = yield* scenario
      const unknown = yield* Effect.flip(startOperations("no-such-project", [{ action: "create_branch" }]))
      expect(unknown).toMatchObject({ _tag: "UnknownProject", projectId: "no-such-project" })
      const bad = yield* Effect.flip(
        startOperations(projectId, [
          { action: "create_branch", id: "not-a-uuid" },
          { action: "start_compute", id: operationId(1) }
        ])
      )
      expect(bad._tag).toBe("InvalidSeed")
      expect(bad.message).toContain("not-a-uuid")
      expect(bad.message).toContain("appears twice")
    }).pipe(provideFake)
  )
})

describe("scenario.failOperation and cancelOperation", () => {
  it.effect("failOperation fails a running operation now: status, failures_count + 1, error, retry_at", () =>
    Effect.gen(function* () {
      const { startOperations, failOperation } = yield* scenario
      const started = yield* startOperations(projectId, [{ action: "start_compute", runsFor: "1 minute" }])
      const id = started.operations[0]!.id
      const fiber = yield* Effect.fork(awaitFailure(id))
      yield* TestClock.adjust("5 seconds")
      const failed = yield* failOperation(projectId, id, { error: "compute start timed out", retryIn: "30 seconds" })
      expect(failed).toMatchObject({ status: "failed", failures_count: 1, error: "compute start timed out" })
      expect(millis(failed.retry_at)).toBe(35_000)
      expect(millis(failed.updated_at)).toBe(5_000)
      yield* TestClock.adjust("5 seconds")
      const seen = yield* Fiber.join(fiber)
      expect(seen).toMatchObject({ status: "failed", failures_count: 1 })
      // It stays failed: the planned end no longer happens.
      yield* TestClock.adjust("2 minutes")
      expect((yield* getOperation(id)).status).toBe("failed")
    }).pipe(provideFake)
  )

  it.effect("failOperation with status error and no retryIn sets no retry_at", () =>
    Effect.gen(function* () {
      const { startOperations, failOperation } = yield* scenario
      const started = yield* startOperations(projectId, [{ action: "apply_config", runsFor: "10 seconds" }])
      const id = started.operations[0]!.id
      const failed = yield* failOperation(projectId, id, { status: "error", error: "role synchronisation failed" })
      expect(failed).toMatchObject({ status: "error", failures_count: 1, error: "role synchronisation failed" })
      expect(failed.retry_at).toBeUndefined()
      expect((yield* getOperation(id)).status).toBe("error")
    }).pipe(provideFake)
  )

  it.effect("cancelOperation: cancelling now, cancelled after cancellingFor; the client's await ends on it", () =>
    Effect.gen(function* () {
      const { startOperations, cancelOperation } = yield* scenario
      const started = yield* startOperations(projectId, [{ action: "create_branch", runsFor: "1 minute" }])
      const id = started.operations[0]!.id
      yield* TestClock.adjust("2 seconds")
      const cancelling = yield* cancelOperation(projectId, id, { cancellingFor: "3 seconds" })
      expect(cancelling.status).toBe("cancelling")
      const fiber = yield* Effect.fork(awaitFailure(id))
      yield* TestClock.adjust("2 seconds")
      expect((yield* getOperation(id)).status).toBe("cancelling")
      yield* TestClock.adjust("5 seconds")
      const cancelled = yield* Fiber.join(fiber)
      expect(cancelled.status).toBe("cancelled")
      expect(millis(cancelled.updated_at)).toBe(5_000)
    }).pipe(provideFake)
  )

  it.effect("an ended, unknown or foreign operation is refused with a typed error", () =>
    Effect.gen(function* () {
      const { addProject, cancelOperation, failOperation } = yield* scenario
      yield* TestClock.adjust("1 minute")
      const ended = yield* Effect.flip(failOperation(projectId, operationId(1), { error: "late" }))
      expect(ended).toMatchObject({ _tag: "OperationNotPending", operationId: operationId(1), status: "finished" })
      expect((yield* Effect.flip(cancelOperation(projectId, operationId(9))))._tag).toBe("UnknownOperation")
      expect((yield* Effect.flip(cancelOperation("nope", operationId(1))))._tag).toBe("UnknownProject")
      yield* addProject({ id: "wispy-meadow-118737" })
      const foreign = yield* Effect.flip(cancelOperation("wispy-meadow-118737", operationId(1)))
      expect(foreign._tag).toBe("UnknownOperation")
    }).pipe(provideFake)
  )
})

describe("scenario.addProject and addApiKey", () => {
  it.effect("a new project is the newest listed; a bad or taken id is InvalidSeed", () =>
    Effect.gen(function* () {
      const { addProject } = yield* scenario
      const added = yield* addProject({ id: "late-river-118737", name: "ingest", pg_version: 16 })
      expect(added).toMatchObject({ id: "late-river-118737", name: "ingest", pg_version: 16 })
      const page = yield* Effect.flatMap(Projects.Projects, (projects) => projects.listPage())
      expect(page.projects.map((project) => project.id)).toEqual(["late-river-118737", projectId])
      const operations = yield* Effect.flatMap(Operations.Operations, (operations) =>
        operations.listPage({ project_id: ProjectId.make("late-river-118737") })
      )
      expect(operations.operations).toEqual([])
      expect((yield* Effect.flip(addProject({ id: "Bad_Id" })))._tag).toBe("InvalidSeed")
      expect((yield* Effect.flip(addProject({ id: projectId }))).message).toContain("appears twice")
    }).pipe(provideFake)
  )

  it.effect("a new key is answered Redacted, works as a bearer key and is listed", () =>
    Effect.gen(function* () {
      const { addApiKey } = yield* scenario
      const created = yield* addApiKey("ci")
      expect(String(created.key)).toBe("<redacted>")
      expect(Redacted.value(created.key)).toMatch(/^[0-9a-f]{64}$/)
      const listed = yield* Effect.flatMap(ApiKeys.ApiKeys, (apiKeys) => apiKeys.listPage())
      expect(listed.map((key) => key.name)).toEqual(["bootstrap", "ci"])
      const fake = yield* FakePlatform.FakePlatform
      expect((yield* fake.apiKeys).find((key) => key.id === created.id)?.hash).not.toContain(
        Redacted.value(created.key)
      )
    }).pipe(provideFake)
  )

  it.effect("the added key authenticates the real client", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const created = yield* fake.scenario.addApiKey("second")
      const page = yield* Effect.flatMap(Projects.Projects, (projects) => projects.listPage()).pipe(
        Effect.provide(
          DbPlatform.layer({ baseUrl: DbPlatformTest.baseUrl, apiKey: created.key }).pipe(
            Layer.provide(Layer.succeed(HttpClient.HttpClient, FakeHttpClient.make(fake.httpApp)))
          )
        )
      )
      expect(page.projects).toHaveLength(1)
    }).pipe(provideFake)
  )
})

describe("scenario at one instant", () => {
  it.effect("an operation started with others can be failed or cancelled at the same Clock time", () =>
    Effect.gen(function* () {
      const { cancelOperation, failOperation, startOperations } = yield* scenario
      const started = yield* startOperations(projectId, [
        { action: "create_branch", runsFor: "1 minute" },
        { action: "start_compute", runsFor: "1 minute" },
        { action: "apply_config", runsFor: "1 minute" }
      ])
      const [, second, third] = started.operations
      expect((yield* failOperation(projectId, second!.id, { error: "no capacity" })).status).toBe("failed")
      expect((yield* getOperation(second!.id)).status).toBe("failed")
      expect((yield* cancelOperation(projectId, third!.id)).status).toBe("cancelling")
      expect((yield* getOperation(third!.id)).status).toBe("cancelling")
    }).pipe(provideFake)
  )
})

describe("scenario answers", () => {
  it.effect("are the values the client decodes from the fake's answers (Equal.equals), not look-alikes", () =>
    Effect.gen(function* () {
      const { addProject, startOperations } = yield* scenario
      const added = yield* addProject({ id: "late-river-118737", org_id: "org-late-river-118737" })
      const [listed] = (yield* Effect.flatMap(Projects.Projects, (projects) => projects.listPage({ limit: 1 })))
        .projects
      expect(Equal.equals(added, listed)).toBe(true)
      const started = yield* startOperations(projectId, [
        { action: "create_branch", runsFor: "3 seconds" },
        { action: "start_compute", runsFor: "3 seconds" }
      ])
      for (const operation of started.operations) {
        expect(Equal.equals(operation, yield* getOperation(operation.id))).toBe(true)
      }
    }).pipe(provideFake)
  )
})
