/**
 * A branch's and a project's lifecycle in memory, on the `TestClock`, through the client over
 * the fake (docs/contract.md §18): a preview branch that expires (deleted by the control plane at
 * the sweep after its `expires_at`, with its operations), an expiry cleared, schema-only and
 * point-in-time branches, one created archived, and a deleted project recovered within its 7
 * days and gone after them.
 */
import { Branches, Operations, Projects } from "@dbplatform/client"
import { type Branch, ProjectId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import { projectId } from "./helpers.js"

/** A project with its default branch `main`; the client does not retry, so each error is seen once. */
const provideFake = Effect.provide(
  DbPlatformTest.layer({ seed: { projects: [{ id: projectId }] }, client: { retrySchedule: Schedule.stop } })
)

const project = { project_id: ProjectId.make(projectId) }

/** Waits for `answer`'s operations to end, moving the `TestClock` a poll (5 s) at a time. */
const awaitAll = (answer: Operations.Awaitable) =>
  Effect.gen(function* () {
    const waiting = yield* Effect.fork(Effect.flatMap(Operations.Operations, (service) => service.awaitAll(answer)))
    for (let poll = 0; poll < 6; poll++) yield* TestClock.adjust("5 seconds")
    const { failed } = yield* Fiber.join(waiting)
    expect(failed).toEqual([])
  })

/** The time now plus `millis` (may be negative), to the second (an `expires_at` is whole seconds). */
const millisFromNow = (millis: number) =>
  Effect.map(TestClock.currentTimeMillis, (now) => DateTime.unsafeMake(Math.floor((now + millis) / 1000) * 1000))

/** The time now plus `duration`, to the second. */
const inFromNow = (duration: Duration.DurationInput) => millisFromNow(Duration.toMillis(duration))

/** Every operation of the project, newest first. */
const operationsOf = (project_id: ProjectId) =>
  Effect.flatMap(Operations.Operations, (service) =>
    Stream.runCollect(service.list({ project_id })).pipe(Effect.map((chunk) => Array.from(chunk)))
  )

/** The project's branch names, sorted. */
const branchNames = (project_id: ProjectId) =>
  Effect.flatMap(Branches.Branches, (branches) =>
    Effect.map(branches.listPage({ project_id }), (page) => page.branches.map((branch) => branch.name).sort())
  )

describe("Branch lifecycle over the fake", () => {
  it.effect("a preview branch expiring in 7 days is there after 6 and gone after 8, with its operations", () =>
    Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const projects = yield* Projects.Projects
      const made = yield* projects.create({ project: {} })
      yield* awaitAll(made)
      const project = { project_id: made.project.id }
      const expiresAt = yield* inFromNow("7 days")
      const ready = yield* Effect.fork(
        branches.createReady({ ...project, branch: { name: "preview/pr-7", expires_at: expiresAt } })
      )
      for (let poll = 0; poll < 6; poll++) yield* TestClock.adjust("5 seconds")
      const { branch, endpoint } = yield* Fiber.join(ready)
      expect(branch.expires_at).toEqual(expiresAt)
      expect(branch.ttl_interval_seconds).toBe(7 * 24 * 3600)

      yield* TestClock.adjust("6 days")
      const after6 = yield* branches.get({ ...project, branch_id: branch.id })
      expect(after6.branch.name).toBe("preview/pr-7")

      yield* TestClock.adjust("2 days")
      const gone = yield* Effect.flip(branches.get({ ...project, branch_id: branch.id }))
      expect(gone._tag).toBe("NotFound")
      expect(yield* branchNames(project.project_id)).toEqual(["main"])
      const count = yield* branches.count(project)
      expect(count.count).toBe(1)
      expect((yield* Effect.flip(branches.listEndpointsPage({ ...project, branch_id: branch.id })))._tag).toBe(
        "NotFound"
      )

      // Deleted by the control plane as a request's delete is: `suspend_compute`, then `delete_timeline`,
      // at the first 10-minute sweep at or after `expires_at`.
      const ops = (yield* operationsOf(project.project_id)).filter((operation) => operation.branch_id === branch.id)
      const [deleteTimeline, suspend] = ops
      expect([deleteTimeline?.action, suspend?.action]).toEqual(["delete_timeline", "suspend_compute"])
      expect(suspend?.endpoint_id).toBe(endpoint.id)
      expect(ops.every((operation) => operation.status === "finished")).toBe(true)
      const sweep = Duration.toMillis("10 minutes")
      const expected = Math.ceil(DateTime.toEpochMillis(expiresAt) / sweep) * sweep
      expect(DateTime.toEpochMillis(suspend!.created_at)).toBe(expected)
    }).pipe(provideFake)
  )

  it.effect("a seed's branch may expire (expiresIn), and an archived one is archived", () =>
    Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const listed = (yield* branches.listPage(project)).branches
      const preview = listed.find((branch) => branch.name === "preview")!
      expect(preview.expires_at).toEqual(DateTime.unsafeMake(Duration.toMillis("1 hour")))
      expect(preview.ttl_interval_seconds).toBe(3600)
      expect(listed.find((branch) => branch.name === "cold")?.current_state).toBe("archived")
      yield* TestClock.adjust("59 minutes")
      expect(yield* branchNames(project.project_id)).toEqual(["cold", "main", "preview"])
      yield* TestClock.adjust("2 minutes")
      expect(yield* branchNames(project.project_id)).toEqual(["cold", "main"])
    }).pipe(
      Effect.provide(
        DbPlatformTest.layer({
          seed: {
            projects: [{ id: projectId }],
            branches: [
              { project_id: projectId, name: "main", default: true },
              { project_id: projectId, name: "preview", expiresIn: "1 hour" },
              { project_id: projectId, name: "cold", archived: true }
            ]
          }
        })
      )
    )
  )

  it.effect("an update clears the expiry and the branch stays; a new one resets its TTL", () =>
    Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const created = yield* branches.create({
        ...project,
        branch: { name: "preview/pr-8", expires_at: yield* inFromNow("1 hour") }
      })
      yield* awaitAll(created)
      const later = yield* inFromNow("2 hours")
      const moved = yield* branches.update({ ...project, branch_id: created.branch.id, branch: { expires_at: later } })
      expect(moved.branch.expires_at).toEqual(later)
      expect(moved.branch.ttl_interval_seconds).toBe(2 * 3600)
      const cleared = yield* branches.update({ ...project, branch_id: created.branch.id, branch: { expires_at: null } })
      expect(cleared.branch.expires_at).toBeUndefined()
      expect(cleared.branch.ttl_interval_seconds).toBeUndefined()
      expect(cleared.operations).toEqual([])
      yield* TestClock.adjust("30 days")
      const kept = yield* branches.get({ ...project, branch_id: created.branch.id })
      expect(kept.branch.name).toBe("preview/pr-8")
    }).pipe(provideFake)
  )

  it.effect("refuses an expiry in the past, on the default branch, and an expiring branch as the default", () =>
    Effect.gen(function* () {
      const branches = yield* Branches.Branches
      yield* TestClock.adjust("1 hour")
      const past = yield* Effect.flip(
        branches.create({ ...project, branch: { expires_at: yield* millisFromNow(-60_000) } })
      )
      expect(past._tag).toBe("BadRequest")
      expect(past.message).toContain("expires_at must be in the future")
      const main = (yield* branches.listPage(project)).branches[0]!
      const onDefault = yield* Effect.flip(
        branches.update({ ...project, branch_id: main.id, branch: { expires_at: yield* inFromNow("1 day") } })
      )
      expect(onDefault._tag).toBe("BadRequest")
      const expiring = yield* branches.create({ ...project, branch: { expires_at: yield* inFromNow("1 day") } })
      yield* awaitAll(expiring)
      const made = yield* Effect.flip(branches.setAsDefault({ ...project, branch_id: expiring.branch.id }))
      expect(made._tag).toBe("BadRequest")
      // Fractional seconds are taken, as the document's date-time and the platform's own CLI have them.
      const at = DateTime.add(yield* inFromNow("1 day"), { millis: 123 })
      const precise = yield* branches.create({ ...project, branch: { expires_at: at } })
      expect(Math.floor(DateTime.toEpochMillis(precise.branch.expires_at!) / 1000)).toBe(
        Math.floor(DateTime.toEpochMillis(at) / 1000)
      )
    }).pipe(provideFake)
  )

  it.effect("an expiring parent waits for its children; it goes at the sweep after its last child", () =>
    Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const parent = yield* branches.create({
        ...project,
        branch: { name: "p", expires_at: yield* inFromNow("1 hour") }
      })
      yield* awaitAll(parent)
      const child = yield* branches.create({
        ...project,
        branch: { name: "c", parent_id: parent.branch.id, expires_at: yield* inFromNow("3 hours") }
      })
      yield* awaitAll(child)
      yield* TestClock.adjust("2 hours")
      expect(yield* branchNames(project.project_id)).toEqual(["c", "main", "p"])
      yield* TestClock.adjust("2 hours")
      expect(yield* branchNames(project.project_id)).toEqual(["main"])
    }).pipe(provideFake)
  )

  it.effect("schema-only: the source's roles and databases, no parent link; point in time within the window", () =>
    Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const branches = yield* Branches.Branches
      yield* TestClock.adjust("1 hour")
      const made = yield* projects.create({ project: { history_retention_seconds: 3600 } })
      yield* awaitAll(made)
      const project_id = made.project.id
      const schemaOnly = yield* branches.create({
        project_id,
        branch: { name: "schema", init_source: "schema-only" }
      })
      expect(schemaOnly.branch.parent_id).toBeUndefined()
      expect(schemaOnly.branch.parent_timestamp).toBeUndefined()
      expect(schemaOnly.branch.init_source).toBe("schema-only")
      expect(schemaOnly.branch.default).toBe(false)
      expect(schemaOnly.roles.map((role) => role.name)).toEqual(made.roles.map((role) => role.name))
      expect(schemaOnly.databases.map((database) => database.name)).toEqual(["neondb"])
      yield* awaitAll(schemaOnly)

      yield* TestClock.adjust("30 minutes")
      const at = DateTime.unsafeMake((yield* TestClock.currentTimeMillis) - Duration.toMillis("20 minutes"))
      const pitr = yield* branches.create({ project_id, branch: { name: "pitr", parent_timestamp: at } })
      const lsn = pitr.branch.parent_lsn
      expect(pitr.branch.parent_timestamp).toEqual(at)
      expect(pitr.branch.parent_id).toBe(made.branch.id)
      expect(lsn).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/)
      yield* awaitAll(pitr)
      // The same point by its LSN.
      const byLsn = yield* branches.create({ project_id, branch: { name: "lsn", parent_lsn: lsn! } })
      expect(byLsn.branch.parent_timestamp).toEqual(at)
      yield* awaitAll(byLsn)

      // Outside the window (an hour): a 400, and nothing is created.
      const old = DateTime.unsafeMake((yield* TestClock.currentTimeMillis) - Duration.toMillis("2 hours"))
      const outside = yield* Effect.flip(branches.create({ project_id, branch: { parent_timestamp: old } }))
      expect(outside._tag).toBe("BadRequest")
      expect(outside.message).toContain("history window")
      const future = yield* Effect.flip(branches.create({ project_id, branch: { parent_lsn: "FF/0" } }))
      expect(future._tag).toBe("BadRequest")
      const both = yield* Effect.flip(
        branches.create({ project_id, branch: { parent_lsn: lsn!, parent_timestamp: at } })
      )
      expect(both._tag).toBe("BadRequest")
      const malformed = yield* Effect.flip(branches.create({ project_id, branch: { parent_lsn: "nope" } }))
      expect(malformed._tag).toBe("InvalidRequest")
      expect(yield* branchNames(project_id)).toEqual(["lsn", "main", "pitr", "schema"])

      // The schema-only branch's source can be deleted: it is not its parent.
      const archived = yield* branches.create({ project_id, branch: { name: "cold", archived: true } })
      yield* awaitAll(archived)
      const cold = yield* branches.get({ project_id, branch_id: archived.branch.id })
      expect(cold.branch.current_state).toBe("archived")
    }).pipe(provideFake)
  )

  it.effect("a deleted project is recoverable for 7 days, with its branches and idle compute endpoints", () =>
    Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const branches = yield* Branches.Branches
      const made = yield* projects.create({ project: { name: "to-recover" } })
      yield* awaitAll(made)
      const project_id = made.project.id
      const extra = yield* branches.create({
        project_id,
        branch: { name: "dev" },
        endpoints: [{ type: "read_write" }]
      })
      yield* awaitAll(extra)

      yield* projects.delete({ project_id })
      expect((yield* Effect.flip(projects.get({ project_id })))._tag).toBe("NotFound")
      expect((yield* Effect.flip(branches.listPage({ project_id })))._tag).toBe("NotFound")
      const live = yield* projects.listPage({})
      expect(live.projects.map((listed) => listed.id)).not.toContain(project_id)
      const recoverable = yield* projects.listPage({ recoverable: true })
      expect(recoverable.projects.map((listed) => listed.id)).toEqual([project_id])
      const listed = recoverable.projects[0]!
      expect(DateTime.distance(listed.deleted_at!, listed.recoverable_until!)).toBe(Duration.toMillis("7 days"))

      yield* TestClock.adjust("6 days")
      const recovered = yield* projects.recover({ project_id })
      expect(recovered.project.id).toBe(project_id)
      expect(recovered.branches.map((branch: Branch) => branch.name).sort()).toEqual(["dev", "main"])
      const endpoints = (yield* branches.listEndpointsPage({ project_id, branch_id: extra.branch.id })).endpoints
      expect(endpoints.map((endpoint) => endpoint.current_state)).toEqual(["idle"])
      expect((yield* projects.get({ project_id })).project.name).toBe("to-recover")
      expect((yield* projects.listPage({ recoverable: true })).projects).toEqual([])
      const again = yield* Effect.flip(projects.recover({ project_id }))
      expect(again._tag).toBe("Conflict")

      // Deleted again and left 7 days: purged, not recoverable.
      yield* projects.delete({ project_id })
      yield* TestClock.adjust("7 days")
      expect((yield* projects.listPage({ recoverable: true })).projects).toEqual([])
      const late = yield* Effect.flip(projects.recover({ project_id }))
      expect(late._tag).toBe("NotFound")
      const fake = yield* FakePlatform.FakePlatform
      const snapshot = yield* fake.snapshot
      expect(snapshot.projects.map((kept) => kept.id)).not.toContain(project_id)
      expect(snapshot.branches.filter((branch) => branch.project_id === project_id)).toEqual([])
    }).pipe(provideFake)
  )
})
