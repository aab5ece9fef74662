/**
 * Compute endpoints in memory, on the `TestClock`, through the client's `ComputeEndpoints`,
 * `Branches` and `Operations` over the fake (`DbPlatformTest.layer`), and the control plane's
 * own operations (docs/contract.md §12): an endpoint idle for its suspend timeout is suspended by
 * a `suspend_compute` no request started, a connection starts it again, `check_availability`
 * runs hourly on a branch with a compute endpoint and never on one without.
 */
import { Branches, ComputeEndpoints, Operations } from "@dbplatform/client"
import { ProjectId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import * as Snapshot from "../src/Snapshot.js"
import { projectId } from "./helpers.js"

/** A project with its default branch `main` and nothing else; the client does not retry, so each error is seen once. */
const provideFake = Effect.provide(
  DbPlatformTest.layer({ seed: { projects: [{ id: projectId }] }, client: { retrySchedule: Schedule.stop } })
)

const project = { project_id: ProjectId.make(projectId) }

/** Waits for `operations` to end, moving the `TestClock` a poll (5 s) at a time. */
const awaitAll = (answer: Operations.Awaitable) =>
  Effect.gen(function* () {
    const waiting = yield* Effect.fork(Effect.flatMap(Operations.Operations, (service) => service.awaitAll(answer)))
    for (let poll = 0; poll < 4; poll++) yield* TestClock.adjust("5 seconds")
    const { failed } = yield* Fiber.join(waiting)
    expect(failed).toEqual([])
  })

/** Every operation of the project, newest first. */
const operations = Effect.flatMap(Operations.Operations, (service) =>
  Stream.runCollect(service.list(project)).pipe(Effect.map((chunk) => Array.from(chunk)))
)

/** The requests the fake got to `path` (relative to `/api/v2`) with `method`. */
const requestsTo = (method: string, path: string) =>
  Effect.flatMap(FakePlatform.FakePlatform, (fake) => fake.requests).pipe(
    Effect.map((requests) => requests.filter((request) => request.method === method && request.path.endsWith(path)))
  )

/** Moves the `TestClock` to `at` (epoch ms; it starts at 0). */
const clockTo = (at: number) => Effect.flatMap(TestClock.currentTimeMillis, (now) => TestClock.adjust(at - now))

/** The branch `main` of the project. */
const mainBranch = Effect.flatMap(Branches.Branches, (branches) =>
  Effect.map(branches.listPage({ ...project, search: "main" }), (page) => page.branches[0]!)
)

describe("ComputeEndpoints over the fake", () => {
  it.effect("create, a second read_write refused, list, get, update, suspend, start, restart, 423, delete, 404", () =>
    Effect.gen(function* () {
      const endpoints = yield* ComputeEndpoints.ComputeEndpoints
      const main = yield* mainBranch

      // Create: `init`, with the `start_compute` that makes it active.
      const created = yield* endpoints.create({
        ...project,
        endpoint: { branch_id: main.id, type: "read_write", autoscaling_limit_max_cu: 2 }
      })
      expect(created.endpoint).toMatchObject({
        branch_id: main.id,
        type: "read_write",
        current_state: "init",
        pending_state: "active",
        autoscaling_limit_min_cu: 0.25,
        autoscaling_limit_max_cu: 2,
        suspend_timeout_seconds: 0
      })
      expect(created.operations.map((operation) => [operation.action, operation.endpoint_id])).toEqual([
        ["start_compute", created.endpoint.id]
      ])
      const params = { ...project, endpoint_id: created.endpoint.id }

      // While it starts the project is locked: a 423, as a typed error.
      const locked = yield* Effect.flip(endpoints.suspend(params))
      expect(locked._tag).toBe("Locked")
      yield* awaitAll(created.operations)
      expect((yield* endpoints.get(params)).endpoint.current_state).toBe("active")

      // A second read_write compute endpoint on the branch: 409, the branch keeps one.
      const second = yield* Effect.flip(
        endpoints.create({ ...project, endpoint: { branch_id: main.id, type: "read_write" } })
      )
      expect(second._tag).toBe("Conflict")
      expect(second.message).toContain("read_write")
      const readOnly = yield* endpoints.create({
        ...project,
        endpoint: { branch_id: main.id, type: "read_only", suspend_timeout_seconds: -1 }
      })
      yield* awaitAll(readOnly.operations)
      const listed = yield* endpoints.listPage(project)
      expect(listed.endpoints.map((endpoint) => endpoint.type).sort()).toEqual(["read_only", "read_write"])

      // Update: `apply_config`; a minimum above the maximum is a 400.
      const updated = yield* endpoints.update({ ...params, endpoint: { suspend_timeout_seconds: 600 } })
      expect(updated.endpoint.suspend_timeout_seconds).toBe(600)
      expect(updated.operations.map((operation) => operation.action)).toEqual(["apply_config"])
      yield* awaitAll(updated.operations)
      const upsideDown = yield* Effect.flip(endpoints.update({ ...params, endpoint: { autoscaling_limit_min_cu: 4 } }))
      expect(upsideDown._tag).toBe("BadRequest")

      // Suspend: `idle` once `suspend_compute` ends; suspending it again starts nothing.
      const suspended = yield* endpoints.suspend(params)
      expect(suspended.endpoint).toMatchObject({ current_state: "active", pending_state: "idle" })
      expect(suspended.operations.map((operation) => operation.action)).toEqual(["suspend_compute"])
      yield* awaitAll(suspended.operations)
      expect((yield* endpoints.get(params)).endpoint.current_state).toBe("idle")
      expect((yield* endpoints.suspend(params)).operations).toEqual([])

      // Start, then restart: `start_compute`; `suspend_compute` then `start_compute`.
      const started = yield* endpoints.start(params)
      expect(started.operations.map((operation) => operation.action)).toEqual(["start_compute"])
      yield* awaitAll(started.operations)
      expect((yield* endpoints.get(params)).endpoint.current_state).toBe("active")
      const restarted = yield* endpoints.restart(params)
      expect(restarted.operations.map((operation) => operation.action)).toEqual(["suspend_compute", "start_compute"])
      yield* awaitAll(restarted.operations)
      expect((yield* endpoints.get(params)).endpoint.current_state).toBe("active")

      // Delete: `suspend_compute` of the running compute endpoint; then 404, and None for a second delete.
      const deleted = yield* endpoints.delete(params)
      expect(Option.map(deleted, ({ operations }) => operations.map((operation) => operation.action))).toEqual(
        Option.some(["suspend_compute"])
      )
      expect((yield* Effect.flip(endpoints.get(params)))._tag).toBe("NotFound")
      yield* awaitAll(deleted)
      expect(yield* endpoints.delete(params)).toEqual(Option.none())
      // The branch can have a read_write compute endpoint again.
      const again = yield* endpoints.create({ ...project, endpoint: { branch_id: main.id, type: "read_write" } })
      expect(again.endpoint.type).toBe("read_write")
    }).pipe(provideFake)
  )

  it.effect(
    "an endpoint idle for its suspend timeout is suspended by a suspend_compute no request started; a connection starts it again",
    () =>
      Effect.gen(function* () {
        const endpoints = yield* ComputeEndpoints.ComputeEndpoints
        const fake = yield* FakePlatform.FakePlatform
        const main = yield* mainBranch
        const created = yield* endpoints.create({ ...project, endpoint: { branch_id: main.id, type: "read_write" } })
        yield* awaitAll(created.operations)
        const params = { ...project, endpoint_id: created.endpoint.id }
        const { endpoint } = yield* endpoints.get(params)
        // Active since its `start_compute` ended: the platform's default timeout (0: 300 s) counts from there.
        const activeSince = endpoint.started_at!.epochMillis
        const due = activeSince + Duration.toMillis("300 seconds")

        yield* clockTo(due - 1)
        expect((yield* endpoints.get(params)).endpoint.current_state).toBe("active")
        yield* clockTo(due + Duration.toMillis("1 minute"))
        expect((yield* endpoints.get(params)).endpoint).toMatchObject({ current_state: "idle" })

        // One suspend_compute, created when the timeout ran out, not when the request came.
        const suspends = (yield* operations).filter((operation) => operation.action === "suspend_compute")
        expect(suspends).toHaveLength(1)
        expect(suspends[0]).toMatchObject({ endpoint_id: endpoint.id, branch_id: main.id, status: "finished" })
        expect(suspends[0]!.created_at.epochMillis).toBe(due)
        expect(yield* requestsTo("POST", "/suspend")).toEqual([])

        // A connection arrives: the control plane starts it (start_compute), active once that ends.
        const connected = yield* fake.connect(endpoint.id)
        expect(connected.operations.map((operation) => operation.action)).toEqual(["start_compute"])
        yield* awaitAll(connected.operations)
        const restarted = (yield* endpoints.get(params)).endpoint
        expect(restarted.current_state).toBe("active")
        expect(yield* requestsTo("POST", "/start")).toEqual([])

        // A connection to a running compute endpoint is activity: the suspension moves with it.
        const activeAgain = restarted.started_at!.epochMillis
        yield* clockTo(activeAgain + Duration.toMillis("200 seconds"))
        expect((yield* fake.connect(endpoint.id)).operations).toEqual([])
        yield* clockTo(activeAgain + Duration.toMillis("400 seconds"))
        expect((yield* endpoints.get(params)).endpoint.current_state).toBe("active")
        yield* clockTo(activeAgain + Duration.toMillis("501 seconds"))
        expect((yield* endpoints.get(params)).endpoint.current_state).toBe("idle")
        const later = (yield* operations).filter((operation) => operation.action === "suspend_compute")
        expect(later.map((operation) => operation.created_at.epochMillis)).toEqual([
          activeAgain + Duration.toMillis("500 seconds"),
          due
        ])

        // A connection while the control plane suspends it is not lost: it starts again after.
        yield* awaitAll((yield* fake.connect(endpoint.id)).operations)
        const third = (yield* endpoints.get(params)).endpoint.started_at!.epochMillis
        yield* clockTo(third + Duration.toMillis("300 seconds") + 500)
        expect((yield* endpoints.get(params)).endpoint).toMatchObject({
          current_state: "active",
          pending_state: "idle"
        })
        const during = yield* fake.connect(endpoint.id)
        expect(during.operations.map((operation) => operation.action)).toEqual(["start_compute"])
        yield* awaitAll(during.operations)
        expect((yield* endpoints.get(params)).endpoint.current_state).toBe("active")

        // An unknown compute endpoint: a typed error.
        expect((yield* Effect.flip(fake.connect("ep-none-000000")))._tag).toBe("UnknownComputeEndpoint")
      }).pipe(provideFake)
  )

  it.effect(
    "check_availability runs hourly on a branch with a compute endpoint, never on one without, and locks nothing",
    () =>
      Effect.gen(function* () {
        const endpoints = yield* ComputeEndpoints.ComputeEndpoints
        const branches = yield* Branches.Branches
        const main = yield* mainBranch
        const bare = yield* branches.create({ ...project, branch: { name: "no-compute" } })
        yield* awaitAll(bare.operations)
        const created = yield* endpoints.create({
          ...project,
          endpoint: { branch_id: main.id, type: "read_write", suspend_timeout_seconds: -1 }
        })
        yield* awaitAll(created.operations)
        const since = created.endpoint.created_at.epochMillis
        const hour = Duration.toMillis("1 hour")
        const checks = Effect.map(operations, (all) =>
          all.filter((operation) => operation.action === "check_availability")
        )

        yield* clockTo(since + hour - 1)
        expect(yield* checks).toEqual([])
        // Exactly on the hour, a mutation of the project is not locked by the check.
        yield* clockTo(since + hour)
        const renamed = yield* branches.update({
          ...project,
          branch_id: bare.branch.id,
          branch: { name: "still-no-compute" }
        })
        expect(renamed.branch.name).toBe("still-no-compute")
        yield* clockTo(since + 2 * hour + 1)
        const done = yield* checks
        expect(
          done.map((operation) => [operation.branch_id, operation.endpoint_id, operation.created_at.epochMillis])
        ).toEqual([
          [main.id, created.endpoint.id, since + 2 * hour],
          [main.id, created.endpoint.id, since + hour]
        ])
        // The compute endpoint never suspends (-1), so the checks are all the control plane did.
        expect((yield* operations).filter((operation) => operation.action === "suspend_compute")).toEqual([])
      }).pipe(provideFake)
  )

  it.effect("the control plane's operations go through the journal: a fake restored from it does not repeat them", () =>
    Effect.gen(function* () {
      const changes: Array<Snapshot.SnapshotChange> = []
      const fake = yield* FakePlatform.make(
        {
          projects: [{ id: projectId }],
          branches: [{ project_id: projectId, id: "br-main-000001", default: true }],
          endpoints: [{ branch_id: "br-main-000001", id: "ep-main-000001" }]
        },
        { journal: { record: (recorded) => Effect.sync(() => changes.push(...recorded)), sync: Effect.void } }
      )
      const before = yield* fake.snapshot
      // A seed's compute endpoints were active when it was loaded, its branches checked then.
      yield* TestClock.adjust("2 hours")
      yield* fake.catchUp
      const actions = (snapshot: Snapshot.Snapshot) => snapshot.operations.map((operation) => operation.action)
      expect(actions(yield* fake.snapshot)).toEqual(["check_availability", "suspend_compute"])
      const recorded = changes.length
      yield* fake.catchUp
      expect(changes).toHaveLength(recorded)

      const restored = yield* FakePlatform.restore(Snapshot.applyChanges(before, changes))
      yield* restored.catchUp
      expect((yield* restored.snapshot).operations).toEqual((yield* fake.snapshot).operations)
      expect((yield* restored.snapshot).endpoints).toEqual((yield* fake.snapshot).endpoints)
    })
  )
})
