/**
 * `Branches.createReady` over the fake on the `TestClock` (docs/contract.md §13.3): one call
 * creates a branch with a `read_write` compute endpoint, waits for its operations with one list
 * request a round for both, and answers the branch `ready`, the compute endpoint `active` and the
 * connection string `Redacted`; an operation that fails or outlasts the timeout is a typed error;
 * a creation sent again with the same name never makes a second branch, and `onConflict: "reuse"`
 * answers the first one.
 */
import { Branches } from "@dbplatform/client"
import { BranchId, EndpointId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import type { Seed } from "../src/Seed.js"
import { addRolesAndDatabases, projectId } from "./helpers.js"

const main = BranchId.make("br-main-100001")

const fakeSeed: Seed = {
  projects: [{ id: projectId, region_id: "aws-us-east-2" }],
  branches: [{ project_id: projectId, id: main, name: "main", default: true }],
  endpoints: [{ branch_id: main, id: EndpointId.make("ep-main-100001"), type: "read_write" }]
}

const provideFake = Effect.provide(DbPlatformTest.layer({ seed: fakeSeed }))

const password = "npg_Pr3view+Pa55"

const withOwner = Effect.flatMap(FakePlatform.FakePlatform, (fake) =>
  addRolesAndDatabases(
    fake,
    [{ branch_id: main, name: "neondb_owner", password }],
    [{ branch_id: main, id: 3_000_001, name: "neondb", owner_name: "neondb_owner" }]
  )
)

/** The requests the fake got, as `METHOD path?query` relative to `/api/v2`, from the `from`th on. */
const requestsFrom = (from: number) =>
  Effect.map(
    Effect.flatMap(FakePlatform.FakePlatform, (fake) => fake.requests),
    (requests) =>
      requests.slice(from).map((request) => {
        const query = new URLSearchParams(request.query).toString()
        return `${request.method} ${request.path.replace("/api/v2", "")}${query === "" ? "" : `?${query}`}`
      })
  )

/** Runs `effect` in a fiber, moving the `TestClock` a second at a time until it ends (at most `seconds`). */
const run = <A, E, R>(effect: Effect.Effect<A, E, R>, seconds = 60) =>
  Effect.gen(function* () {
    const fiber = yield* Effect.fork(effect)
    for (let second = 0; second < seconds && Option.isNone(yield* Fiber.poll(fiber)); second++) {
      yield* TestClock.adjust("1 second")
    }
    return yield* Fiber.join(fiber)
  })

/** A poll round every second. */
const everySecond = { schedule: Schedule.spaced("1 second") }

describe("Branches.createReady", () => {
  it.effect(
    "answers once create_branch and start_compute have finished: ready, active, the URI from the creation's answer",
    () =>
      Effect.gen(function* () {
        yield* withOwner
        const branches = yield* Branches.Branches
        const before = (yield* requestsFrom(0)).length
        const ready = yield* run(
          branches.createReady(
            { project_id: projectId, branch: { name: "preview/pr-42" }, endpoint: { suspend_timeout_seconds: 300 } },
            everySecond
          )
        )
        expect(ready.created).toBe(true)
        expect(ready.branch).toMatchObject({ name: "preview/pr-42", current_state: "ready", parent_id: main })
        expect(ready.endpoint).toMatchObject({
          branch_id: ready.branch.id,
          type: "read_write",
          current_state: "active",
          suspend_timeout_seconds: 300
        })
        expect(ready.operations.map((operation) => [operation.action, operation.status])).toEqual([
          ["create_branch", "finished"],
          ["start_compute", "finished"]
        ])
        expect(Redacted.value(ready.connectionUri)).toBe(
          `postgresql://neondb_owner:npg_Pr3view%2BPa55@${ready.endpoint.host}/neondb?sslmode=require`
        )

        // One request a poll round for both operations (the list, never one per operation), and
        // no connection_uri request: the creation's answer had it.
        const sent = yield* requestsFrom(before)
        const polls = sent.filter((request) => request.startsWith(`GET /projects/${projectId}/operations`))
        expect(sent[0]).toBe(`POST /projects/${projectId}/branches`)
        expect(polls.length).toBeGreaterThanOrEqual(2)
        // A round every second for 5 s: while both are pending (create_branch ends at 2 s), one list
        // request answers for both; then one read of start_compute alone.
        const startCompute = ready.operations[1]!.id
        expect(polls).toEqual([
          ...Array.from({ length: 3 }, () => expect.stringMatching(/\/operations\?limit=1000&cursor=/)),
          ...Array.from({ length: 3 }, () => `GET /projects/${projectId}/operations/${startCompute}`)
        ])
        expect(sent.slice(-2).sort()).toEqual([
          `GET /projects/${projectId}/branches/${ready.branch.id}`,
          `GET /projects/${projectId}/branches/${ready.branch.id}/endpoints`
        ])
        expect(sent).toHaveLength(1 + polls.length + 2)
      }).pipe(provideFake)
  )

  it.effect("asks for the pooled URI, or another role, with one connection_uri request", () =>
    Effect.gen(function* () {
      yield* withOwner
      const branches = yield* Branches.Branches
      const before = (yield* requestsFrom(0)).length
      const ready = yield* run(
        branches.createReady(
          { project_id: projectId, branch: { name: "pooled" }, connection: { pooled: true } },
          everySecond
        )
      )
      expect(Redacted.value(ready.connectionUri)).toBe(
        `postgresql://neondb_owner:npg_Pr3view%2BPa55@${ready.endpoint.id}-pooler.aws-us-east-2.dbplatform.test/neondb?sslmode=require`
      )
      const uriRequests = (yield* requestsFrom(before)).filter((request) => request.includes("/connection_uri"))
      expect(uriRequests).toEqual([
        `GET /projects/${projectId}/connection_uri?database_name=neondb&role_name=neondb_owner&branch_id=${ready.branch.id}&endpoint_id=${ready.endpoint.id}&pooled=true`
      ])
      const other = yield* Effect.flip(
        run(
          branches.createReady(
            { project_id: projectId, branch: { name: "other-role" }, connection: { role_name: "nobody" } },
            everySecond
          )
        )
      )
      expect(other._tag).toBe("NotFound")
    }).pipe(provideFake)
  )

  it.effect(
    "sent again with the same name: a Conflict and no second branch; with onConflict reuse, the first one",
    () =>
      Effect.gen(function* () {
        yield* withOwner
        const branches = yield* Branches.Branches
        const input = {
          project_id: projectId,
          branch: { name: "preview/pr-7", parent_id: main },
          connection: { database_name: "neondb", role_name: "neondb_owner" }
        }
        const first = yield* run(branches.createReady(input, everySecond))
        const again = yield* Effect.flip(run(branches.createReady(input, everySecond)))
        expect(again._tag).toBe("Conflict")
        const reused = yield* run(branches.createReady({ ...input, onConflict: "reuse" }, everySecond))
        expect(reused.created).toBe(false)
        expect(reused.branch.id).toBe(first.branch.id)
        expect(reused.endpoint.id).toBe(first.endpoint.id)
        // What the first call waited for, read again: its create_branch and start_compute, finished.
        expect(reused.operations.map((operation) => [operation.action, operation.status]).sort()).toEqual([
          ["create_branch", "finished"],
          ["start_compute", "finished"]
        ])
        expect(Redacted.value(reused.connectionUri)).toBe(Redacted.value(first.connectionUri))
        expect((yield* branches.count({ project_id: projectId, search: "pr-7" })).count).toBe(1)

        // Another parent: not the branch asked for, the 409 stands.
        const otherParent = yield* Effect.flip(
          run(
            branches.createReady(
              { ...input, branch: { ...input.branch, parent_id: first.branch.id }, onConflict: "reuse" },
              everySecond
            )
          )
        )
        expect(otherParent._tag).toBe("Conflict")
        // Reuse needs a name: refused before anything is sent.
        expect((yield* Effect.flip(branches.createReady({ project_id: projectId, onConflict: "reuse" })))._tag).toBe(
          "InvalidRequest"
        )
      }).pipe(provideFake)
  )

  it.effect("reuses a branch being created: its 423 retried until its operations end, then the 409 reuses it", () =>
    Effect.gen(function* () {
      yield* withOwner
      const branches = yield* Branches.Branches
      const created = yield* branches.create({
        project_id: projectId,
        branch: { name: "racing" },
        endpoints: [{ type: "read_write" }]
      })
      const reused = yield* run(
        branches.createReady(
          {
            project_id: projectId,
            branch: { name: "racing" },
            connection: { database_name: "neondb", role_name: "neondb_owner" },
            onConflict: "reuse"
          },
          everySecond
        )
      )
      expect(reused.created).toBe(false)
      expect(reused.branch).toMatchObject({ id: created.branch.id, current_state: "ready" })
      expect(reused.endpoint.current_state).toBe("active")
      expect(reused.operations.map((operation) => operation.id).sort()).toEqual(
        created.operations.map((operation) => operation.id).sort()
      )
      expect(Redacted.value(reused.connectionUri)).toBe(Redacted.value(created.connection_uris![0]!.connection_uri))
    }).pipe(
      Effect.provide(
        DbPlatformTest.layer({
          seed: fakeSeed,
          client: { retrySchedule: Schedule.spaced("1 second").pipe(Schedule.intersect(Schedule.recurs(20))) }
        })
      )
    )
  )

  it.effect("fails with OperationFailed or OperationStillPending, naming the branch left in place", () =>
    Effect.gen(function* () {
      yield* withOwner
      const branches = yield* Branches.Branches
      const fake = yield* FakePlatform.FakePlatform
      const late = yield* Effect.flip(
        run(
          branches.createReady(
            { project_id: projectId, branch: { name: "late" } },
            { ...everySecond, timeout: "3 seconds" }
          )
        )
      )
      expect(late._tag).toBe("OperationStillPending")
      const lateBranch = late._tag === "OperationStillPending" ? late.operation.branch_id : undefined
      expect((yield* branches.get({ project_id: projectId, branch_id: lateBranch! })).branch.name).toBe("late")
      yield* TestClock.adjust("10 seconds")

      // The compute endpoint's start fails: failed as soon as the wait reads it.
      const failing = yield* Effect.fork(
        branches.createReady({ project_id: projectId, branch: { name: "failing" } }, everySecond)
      )
      yield* TestClock.adjust("1 second")
      const snapshot = yield* fake.snapshot
      const branch = snapshot.branches.find((branch) => branch.name === "failing")!
      const startCompute = snapshot.operations.find(
        (operation) => operation.action === "start_compute" && operation.branch_id === branch.id
      )!
      yield* Effect.orDie(fake.scenario.failOperation(projectId, startCompute.id, { error: "compute start timed out" }))
      for (let second = 0; second < 10 && Option.isNone(yield* Fiber.poll(failing)); second++) {
        yield* TestClock.adjust("1 second")
      }
      const failed = yield* Effect.flip(Fiber.join(failing))
      expect(failed._tag).toBe("OperationFailed")
      if (failed._tag === "OperationFailed") {
        expect(failed.operation).toMatchObject({ action: "start_compute", status: "failed" })
        expect(failed.message).toContain("compute start timed out")
      }
      // Sent again to reuse it: the branch never came up, so the same failure, not a branch to use.
      const again = yield* Effect.flip(
        run(
          branches.createReady(
            {
              project_id: projectId,
              branch: { name: "failing" },
              connection: { database_name: "neondb", role_name: "neondb_owner" },
              onConflict: "reuse"
            },
            everySecond
          )
        )
      )
      expect(again._tag).toBe("OperationFailed")
      if (again._tag === "OperationFailed") expect(again.operation.id).toBe(startCompute.id)
    }).pipe(provideFake)
  )

  it.effect("a branch without a database: InvalidRequest naming the branch, which is ready", () =>
    Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const error = yield* Effect.flip(
        run(branches.createReady({ project_id: projectId, branch: { name: "no-database" } }, everySecond))
      )
      expect(error._tag).toBe("InvalidRequest")
      expect(error.message).toMatch(
        /^Branches\.createReady: branch br-[a-z0-9-]+ is ready, but has no database to connect to: name connection\.database_name and connection\.role_name$/
      )
    }).pipe(provideFake)
  )
})
