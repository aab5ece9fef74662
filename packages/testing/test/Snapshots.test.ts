/**
 * Snapshots (docs/contract.md §19) in memory, on the `TestClock`, through the client's
 * `Snapshots`, `Branches` and `Databases` over the fake: snapshot a branch, change it, restore the
 * snapshot to a new branch and find the data as it was there, finalize and see the compute
 * endpoint moved and the names swapped; a backup schedule's snapshot appears when the clock passes
 * its hour and is gone after its retention; snapshots at a timestamp or an LSN hold the data of
 * that point.
 */
import { Branches, Databases, Operations, Snapshots } from "@dbplatform/client"
import { BranchId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import { lsnAt, timeOfLsn } from "../src/engine/lsn.js"
import { latestOccurrence, nextOccurrence } from "../src/resources/Snapshots/steps.js"
import { projectId } from "./helpers.js"

const main = BranchId.make("br-main-100001")
const mainEndpoint = "ep-main-100001"

/** A project whose default branch `main` has a read_write compute endpoint (never suspended), the role `app_owner` and the database `app`. */
const provideFake = Effect.provide(
  DbPlatformTest.layer({
    seed: {
      projects: [{ id: projectId }],
      branches: [{ project_id: projectId, id: main, name: "main", default: true }],
      endpoints: [{ branch_id: main, id: mainEndpoint, type: "read_write", suspend_timeout_seconds: -1 }],
      roles: [{ branch_id: main, name: "app_owner", password: "npg_app0wner" }],
      databases: [{ branch_id: main, name: "app", owner_name: "app_owner" }]
    }
  })
)

/** `call` (a method called with `{ wait: true }`) run while the `TestClock` moves 20 s, a poll (5 s) at a time. */
const waited = <A, E, R>(call: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const fiber = yield* Effect.fork(call)
    for (let poll = 0; poll < 4; poll++) yield* TestClock.adjust("5 seconds")
    return yield* Fiber.join(fiber)
  })

/** The names of a branch's databases, sorted. */
const databaseNames = (branch_id: BranchId) =>
  Effect.flatMap(Databases.Databases, (databases) =>
    Effect.map(databases.listPage({ project_id: projectId, branch_id }), (page) =>
      page.databases.map((database) => database.name).sort()
    )
  )

describe("Snapshots over the fake", () => {
  it.effect(
    "snapshot, change, restore to a new branch (old data there), finalize (endpoint moved, names swapped)",
    () =>
      Effect.gen(function* () {
        const snapshots = yield* Snapshots.Snapshots
        const branches = yield* Branches.Branches
        const databases = yield* Databases.Databases
        yield* TestClock.adjust("1 hour")

        // Snapshot `main` now: `create_timeline`, waited for.
        const taken = yield* waited(
          snapshots.create({ project_id: projectId, branch_id: main, name: "before-migration" }, { wait: true })
        )
        expect(taken.snapshot).toMatchObject({ name: "before-migration", source_branch_id: main, manual: true })
        expect(taken.operations.map((operation) => operation.action)).toEqual(["create_timeline"])
        const listed = yield* snapshots.listPage({ project_id: projectId })
        expect(listed.snapshots.map((snapshot) => snapshot.id)).toEqual([taken.snapshot.id])

        // Change `main`: a database added after the snapshot.
        yield* waited(
          databases.create(
            { project_id: projectId, branch_id: main, database: { name: "added", owner_name: "app_owner" } },
            { wait: true }
          )
        )
        expect(yield* databaseNames(main)).toEqual(["added", "app"])

        // Restore to a new branch to look at: `restored`, from the snapshot, standing in for `main`.
        const restored = yield* waited(
          snapshots.restore(
            { project_id: projectId, snapshot_id: taken.snapshot.id, name: "main-before-migration" },
            { wait: true }
          )
        )
        expect(restored.branch).toMatchObject({
          name: "main-before-migration",
          restore_status: "restored",
          restored_from: taken.snapshot.id,
          restored_as: main,
          default: false
        })
        expect(restored.operations.map((operation) => operation.action)).toEqual(["create_branch"])
        const restoredId = restored.branch.id
        // The old data's marker: the database added later is not there.
        expect(yield* databaseNames(restoredId)).toEqual(["app"])
        expect((yield* branches.get({ project_id: projectId, branch_id: restoredId })).branch.current_state).toBe(
          "ready"
        )

        // Finalize: the compute endpoint moves (restarted), the names swap, the default moves.
        const finalized = yield* waited(
          snapshots.finalizeRestore({ project_id: projectId, branch_id: restoredId }, { wait: true })
        )
        expect(finalized.operations.map((operation) => `${operation.action} ${operation.endpoint_id}`)).toEqual([
          `suspend_compute ${mainEndpoint}`,
          `start_compute ${mainEndpoint}`
        ])
        const after = (yield* branches.get({ project_id: projectId, branch_id: restoredId })).branch
        expect(after).toMatchObject({ name: "main", default: true, restore_status: "finalized", restored_as: main })
        const original = (yield* branches.get({ project_id: projectId, branch_id: main })).branch
        expect(original.name).toMatch(/^main_old_\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
        expect(original.default).toBe(false)
        const moved = yield* branches.listEndpointsPage({ project_id: projectId, branch_id: restoredId })
        expect(moved.endpoints.map((endpoint) => [endpoint.id, endpoint.current_state])).toEqual([
          [mainEndpoint, "active"]
        ])
        expect((yield* branches.listEndpointsPage({ project_id: projectId, branch_id: main })).endpoints).toEqual([])

        // A second finalize is refused: already finalized.
        const again = yield* Effect.flip(snapshots.finalizeRestore({ project_id: projectId, branch_id: restoredId }))
        expect(again._tag).toBe("BadRequest")
        expect(again.message).toContain("already finalized")
      }).pipe(provideFake)
  )

  it.effect("restore with finalize_restore: true does both at once, and names the original as asked", () =>
    Effect.gen(function* () {
      const snapshots = yield* Snapshots.Snapshots
      const branches = yield* Branches.Branches
      yield* TestClock.adjust("1 hour")
      const taken = yield* waited(snapshots.create({ project_id: projectId, branch_id: main }, { wait: true }))
      expect(taken.snapshot.name).toBe("main-1970-01-01T01:00:00Z")
      const restored = yield* waited(
        snapshots.restore(
          { project_id: projectId, snapshot_id: taken.snapshot.id, finalize_restore: true },
          { wait: true }
        )
      )
      expect(restored.branch).toMatchObject({ name: "main", default: true, restore_status: "finalized" })
      expect(restored.endpoints?.map((endpoint) => endpoint.id)).toEqual([mainEndpoint])
      expect(restored.operations.map((operation) => operation.action)).toEqual([
        "create_branch",
        "suspend_compute",
        "start_compute"
      ])
      expect((yield* branches.get({ project_id: projectId, branch_id: main })).branch.name).toMatch(/^main_old_/)
    }).pipe(provideFake)
  )

  it.effect("rename and delete a snapshot; delete answers 202 with delete_timeline, and it is gone", () =>
    Effect.gen(function* () {
      const snapshots = yield* Snapshots.Snapshots
      yield* TestClock.adjust("1 hour")
      const taken = yield* waited(snapshots.create({ project_id: projectId, branch_id: main }, { wait: true }))
      const renamed = yield* snapshots.update({
        project_id: projectId,
        snapshot_id: taken.snapshot.id,
        snapshot: { name: "kept" }
      })
      expect(renamed.snapshot).toMatchObject({ id: taken.snapshot.id, name: "kept" })
      const deleted = yield* waited(
        snapshots.delete({ project_id: projectId, snapshot_id: taken.snapshot.id }, { wait: true })
      )
      expect(deleted.operations.map((operation) => operation.action)).toEqual(["delete_timeline"])
      expect((yield* snapshots.listPage({ project_id: projectId })).snapshots).toEqual([])
      const gone = yield* Effect.flip(snapshots.delete({ project_id: projectId, snapshot_id: taken.snapshot.id }))
      expect(gone._tag).toBe("NotFound")
    }).pipe(provideFake)
  )

  it.effect("a snapshot at a timestamp or an LSN holds the data of that point; outside the history it is a 400", () =>
    Effect.gen(function* () {
      const snapshots = yield* Snapshots.Snapshots
      const databases = yield* Databases.Databases
      yield* TestClock.adjust("1 hour")
      const before = yield* waited(snapshots.create({ project_id: projectId, branch_id: main }, { wait: true }))
      yield* TestClock.adjust("10 minutes")
      yield* waited(
        databases.create(
          { project_id: projectId, branch_id: main, database: { name: "later", owner_name: "app_owner" } },
          { wait: true }
        )
      )
      yield* TestClock.adjust("10 minutes")
      // At the first snapshot's time: `later` is not there; at its LSN: the same point.
      const atTime = yield* waited(
        snapshots.create(
          { project_id: projectId, branch_id: main, timestamp: before.snapshot.timestamp! },
          { wait: true }
        )
      )
      expect(atTime.snapshot.lsn).toBe(before.snapshot.lsn)
      const atLsn = yield* waited(
        snapshots.create({ project_id: projectId, branch_id: main, lsn: before.snapshot.lsn! }, { wait: true })
      )
      expect(atLsn.snapshot.timestamp).toEqual(before.snapshot.timestamp)
      const restored = yield* waited(
        snapshots.restore({ project_id: projectId, snapshot_id: atLsn.snapshot.id }, { wait: true })
      )
      expect(yield* databaseNames(restored.branch.id)).toEqual(["app"])
      // Both at once: refused before sending; in the future, or before the branch: a 400 of the fake.
      const both = yield* Effect.flip(
        snapshots.create({
          project_id: projectId,
          branch_id: main,
          lsn: "0/1000000",
          timestamp: before.snapshot.timestamp!
        })
      )
      expect(both._tag).toBe("InvalidRequest")
      expect(both.message).toContain("lsn and timestamp")
      const future = yield* Effect.flip(snapshots.create({ project_id: projectId, branch_id: main, lsn: "F/0" }))
      expect(future._tag).toBe("BadRequest")
      expect(future.message).toContain("outside the branch's history")
    }).pipe(provideFake)
  )

  it.effect(
    "a backup schedule's snapshot appears when the clock passes its hour, and is gone after its retention",
    () =>
      Effect.gen(function* () {
        const snapshots = yield* Snapshots.Snapshots
        const operations = yield* Operations.Operations
        const schedule = [{ frequency: "daily", hour: 10, retention_seconds: 7200 }] as const
        yield* snapshots.setBackupSchedule({ project_id: projectId, branch_id: main, schedule })
        expect((yield* snapshots.getBackupSchedule({ project_id: projectId, branch_id: main })).schedule).toEqual(
          schedule
        )

        yield* TestClock.adjust("599 minutes")
        expect((yield* snapshots.listPage({ project_id: projectId })).snapshots).toEqual([])

        yield* TestClock.adjust("2 minutes")
        const [scheduled, ...others] = (yield* snapshots.listPage({ project_id: projectId })).snapshots
        expect(others).toEqual([])
        expect(scheduled).toMatchObject({ manual: false, source_branch_id: main })
        expect(scheduled?.created_at.epochMillis).toBe(10 * 3_600_000)
        expect(scheduled?.expires_at?.epochMillis).toBe(12 * 3_600_000)

        yield* TestClock.adjust("118 minutes")
        expect((yield* snapshots.listPage({ project_id: projectId })).snapshots).toHaveLength(1)
        yield* TestClock.adjust("2 minutes")
        expect((yield* snapshots.listPage({ project_id: projectId })).snapshots).toEqual([])

        // Both done by the control plane, at their times (to the millisecond: an hourly
        // `check_availability` took 10:00:00.000), as operations of the project.
        const page = yield* operations.listPage({ project_id: projectId })
        const done = page.operations
          .filter((operation) => operation.action === "create_timeline" || operation.action === "delete_timeline")
          .map((operation) => `${operation.action} ${Math.floor(operation.created_at.epochMillis / 3_600_000)}`)
        expect(done).toEqual(["delete_timeline 12", "create_timeline 10"])

        // The next day's at 10:00 again; an empty schedule takes no more.
        yield* TestClock.adjust("22 hours")
        expect((yield* snapshots.listPage({ project_id: projectId })).snapshots).toHaveLength(1)
        yield* snapshots.setBackupSchedule({ project_id: projectId, branch_id: main, schedule: [] })
        expect((yield* snapshots.getBackupSchedule({ project_id: projectId, branch_id: main })).schedule).toEqual([])
      }).pipe(provideFake)
  )
})

describe("the fake's schedule times and LSNs", () => {
  const hour = 3_600_000
  const day = 24 * hour
  // 1970-01-01 was a Thursday.
  it("finds each frequency's latest and next time, UTC", () => {
    const t = Date.UTC(2026, 10, 26, 22, 30)
    expect(new Date(latestOccurrence({ frequency: "hourly" }, t)!).toISOString()).toBe("2026-11-26T22:00:00.000Z")
    expect(new Date(latestOccurrence({ frequency: "daily", hour: 23 }, t)!).toISOString()).toBe(
      "2026-11-25T23:00:00.000Z"
    )
    // 2026-11-26 is a Thursday: the latest Monday is the 23rd.
    expect(new Date(latestOccurrence({ frequency: "weekly", day: 1, hour: 3 }, t)!).toISOString()).toBe(
      "2026-11-23T03:00:00.000Z"
    )
    expect(new Date(latestOccurrence({ frequency: "weekly", day: 4, hour: 23 }, t)!).toISOString()).toBe(
      "2026-11-19T23:00:00.000Z"
    )
    expect(new Date(latestOccurrence({ frequency: "monthly", day: 31 }, t)!).toISOString()).toBe(
      "2026-10-31T00:00:00.000Z"
    )
    expect(new Date(nextOccurrence({ frequency: "monthly", day: 31 }, t)!).toISOString()).toBe(
      "2026-11-30T00:00:00.000Z"
    )
    expect(new Date(latestOccurrence({ frequency: "yearly", month: 12, day: 25 }, t)!).toISOString()).toBe(
      "2025-12-25T00:00:00.000Z"
    )
    expect(nextOccurrence({ frequency: "daily", hour: 10 }, 10 * hour)).toBe(day + 10 * hour)
    expect(latestOccurrence({ frequency: "fortnightly" }, t)).toBeUndefined()
  })

  it("reads back the time of an LSN it wrote", () => {
    const created = Date.UTC(2026, 0, 1)
    for (const after of [0, 1, 999, 86_400_000, 30 * 86_400_000]) {
      expect(timeOfLsn(lsnAt(created + after))).toBe(created + after)
    }
    expect(lsnAt(0)).toBe("0/0")
    expect(lsnAt(1)).toBe("0/100")
    expect(timeOfLsn("not an lsn")).toBeUndefined()
  })
})
