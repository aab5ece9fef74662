/**
 * The snapshot routes (docs/contract.md §19) as a user meets them, as `BranchesProperty.test.ts`
 * does for branches: random sequences of requests to the fake's HTTP app (snapshots of known,
 * unknown and restored branches, now, at a past time or outside the history; renames and deletes
 * of snapshots; restores, finalized at once or not, with fresh, taken or no names; finalizes of
 * restored and other branches; backup schedules, some with a frequency the platform does not
 * know), with the `TestClock` moved between them by seconds and by tens of minutes, so that
 * operations end, locks lift, and the control plane takes scheduled snapshots and deletes expired
 * ones. After each request: the fake's invariants hold, in its state and through the public API
 * (one default branch, no snapshot listed past its expiry, restored branches as their status
 * says); the answer's status is one its endpoint declares and the one a model of the rules
 * expects; a refused request changed nothing; a 423 comes exactly when the project had a pending
 * operation. At the end, the journal replayed on the first snapshot gives the last.
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Api, type Endpoint } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as TestClock from "effect/TestClock"
import fc from "fast-check"
import type * as Seed from "../src/Seed.js"
import * as Snapshot from "../src/Snapshot.js"
import { declares, exchange, getOk, journaled, withoutLastUse } from "./randomRequests.js"
import { load } from "../src/internal/kinds.js"

const projectIds = ["spring-example-302709", "autumn-lake-302710"] as const

/** Each project: `main` (its default, with a read_write compute endpoint, a role and a database) and `dev`, a child of it. */
const seedOf = (projects: number): Seed.Seed => {
  const ids = projectIds.slice(0, projects)
  return {
    projects: ids.map((id) => ({ id })),
    branches: ids.flatMap((project, i) => [
      { project_id: project, id: `br-main-30000${i}`, name: "main", default: true },
      { project_id: project, id: `br-dev-30000${i}`, name: "dev", parent_id: `br-main-30000${i}` }
    ]),
    endpoints: ids.map((_, i) => ({ branch_id: `br-main-30000${i}`, type: "read_write" as const })),
    roles: ids.map((_, i) => ({ branch_id: `br-main-30000${i}`, name: "app_owner", password: `npg_Pr0p${i}` })),
    databases: ids.map((_, i) => ({ branch_id: `br-main-30000${i}`, name: "app", owner_name: "app_owner" }))
  }
}

/** Which item a step acts on: one of the project's (`pick` chooses), or one no project has. */
type Target = "any" | "unknown"

/** A name to give: a fresh one from a small pool (so they collide), one a branch has, or none. */
type Name = { readonly fresh: string } | { readonly taken: true } | undefined

type Step =
  | {
      readonly _tag: "Take"
      readonly project: number
      readonly target: Target
      readonly pick: number
      readonly at: "now" | "earlier" | "outside"
    }
  | { readonly _tag: "Rename"; readonly project: number; readonly target: Target; readonly pick: number }
  | { readonly _tag: "Delete"; readonly project: number; readonly target: Target; readonly pick: number }
  | {
      readonly _tag: "Restore"
      readonly project: number
      readonly target: Target
      readonly pick: number
      readonly name: Name
      readonly finalize: boolean
    }
  | {
      readonly _tag: "Finalize"
      /** Seconds to wait first (a restored branch is looked at before it is finalized). */
      readonly after: number
      readonly project: number
      readonly target: Target | "restored"
      readonly pick: number
      readonly name: Name
    }
  | {
      readonly _tag: "Schedule"
      readonly project: number
      readonly target: Target
      readonly pick: number
      readonly frequency: "hourly" | "daily" | "fortnightly" | "none"
      readonly hour: number
    }
  | { readonly _tag: "Wait"; readonly seconds: number }

const target = fc.constantFrom<Target>("any", "any", "any", "unknown")
const project = fc.nat(1)
const pick = fc.nat(20)
const name: fc.Arbitrary<Name> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.record({ fresh: fc.constantFrom("look", "main", "dev", "before", "after", "check") }) },
  { weight: 1, arbitrary: fc.constant({ taken: true as const }) }
)

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      _tag: fc.constant("Take" as const),
      project,
      target,
      pick,
      at: fc.constantFrom<"now" | "earlier" | "outside">("now", "now", "earlier", "outside")
    })
  },
  { weight: 2, arbitrary: fc.record({ _tag: fc.constant("Rename" as const), project, target, pick }) },
  { weight: 2, arbitrary: fc.record({ _tag: fc.constant("Delete" as const), project, target, pick }) },
  {
    weight: 4,
    arbitrary: fc.record({
      _tag: fc.constant("Restore" as const),
      project,
      target,
      pick,
      name,
      finalize: fc.constantFrom(false, false, true)
    })
  },
  {
    weight: 4,
    arbitrary: fc.record({
      _tag: fc.constant("Finalize" as const),
      after: fc.constantFrom(0, 5, 5),
      project,
      target: fc.constantFrom<Target | "restored">("restored", "restored", "restored", "any", "unknown"),
      pick,
      name
    })
  },
  {
    weight: 2,
    arbitrary: fc.record({
      _tag: fc.constant("Schedule" as const),
      project,
      target,
      pick,
      frequency: fc.constantFrom<"hourly" | "daily" | "fortnightly" | "none">(
        "hourly",
        "hourly",
        "daily",
        "fortnightly",
        "none"
      ),
      hour: fc.nat(23)
    })
  },
  {
    weight: 8,
    arbitrary: fc.record({
      _tag: fc.constant("Wait" as const),
      seconds: fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 600, max: 4_800 }))
    })
  }
)

type StoredBranch = Snapshot.Snapshot["branches"][number]

/** One request, its endpoint, the statuses the rules allow, and whether a lock refuses it. */
interface Planned {
  readonly project: string
  readonly endpoint: Endpoint.Endpoint
  readonly request: Effect.Effect<HttpClientRequest.HttpClientRequest>
  readonly allowed: ReadonlyArray<number>
  readonly lockable: boolean
  readonly succeeded: (answer: any, after: Snapshot.Snapshot) => void
}

const json = (request: HttpClientRequest.HttpClientRequest, body: unknown) =>
  Effect.orDie(HttpClientRequest.bodyJson(request, body))

/** The success status, unless a refusal applies: then any that does. */
const outcome = (success: number, refusals: ReadonlyArray<readonly [applies: boolean, status: number]>) => {
  const applying = refusals.filter(([applies]) => applies).map(([, status]) => status)
  return applying.length > 0 ? applying : [success]
}

const among = <A>(items: ReadonlyArray<A>, i: number): A | undefined => items[i % Math.max(1, items.length)]

/** The request `step` makes of the state `snapshot` at `now` (epoch ms). */
const plan = (
  step: Exclude<Step, { _tag: "Wait" }>,
  snapshot: Snapshot.Snapshot,
  projects: number,
  now: number
): Planned => {
  const project = projectIds[step.project % projects]!
  const base = `/projects/${project}`
  const branches = snapshot.branches.filter((branch) => branch.project_id === project)
  const snapshots = snapshot.branch_snapshots.filter((taken) => taken.project_id === project)
  const nameOf = (name: Name, i: number) =>
    name === undefined ? undefined : "fresh" in name ? name.fresh : among(branches, i)!.name
  const nameTaken = (name: string | undefined) => name !== undefined && branches.some((branch) => branch.name === name)
  const branch: StoredBranch | undefined =
    step._tag === "Finalize" && step.target === "restored"
      ? (among(
          branches.filter((branch) => branch.restore_status === "restored"),
          step.pick
        ) ?? among(branches, step.pick))
      : step.target === "unknown"
        ? undefined
        : among(branches, step.pick)
  const branchId = branch?.id ?? "br-none-000000"
  const taken = step.target === "unknown" ? undefined : among(snapshots, step.pick)
  const snapshotId = taken?.id ?? "snap-none-000000"
  switch (step._tag) {
    case "Take": {
      const query =
        step.at === "now"
          ? ""
          : step.at === "earlier"
            ? `?timestamp=${new Date(Math.max(now - 2000, branch?.created_at ?? now)).toISOString().slice(0, 19)}Z`
            : "?lsn=F%2F0"
      return {
        project,
        endpoint: Api.Snapshots.create,
        request: Effect.succeed(HttpClientRequest.post(`${base}/branches/${branchId}/snapshot${query}`)),
        lockable: branch !== undefined,
        allowed: branch === undefined ? [404] : step.at === "outside" ? [400] : [200],
        succeeded: (answer: any, after: Snapshot.Snapshot) => {
          expect(answer.snapshot).toMatchObject({ source_branch_id: branchId, manual: true })
          expect(answer.operations.map((operation: any) => operation.action)).toEqual(["create_timeline"])
          expect(after.branch_snapshots.map((kept) => kept.id)).toContain(answer.snapshot.id)
        }
      }
    }
    case "Rename":
      return {
        project,
        endpoint: Api.Snapshots.update,
        request: json(HttpClientRequest.patch(`${base}/snapshots/${snapshotId}`), { snapshot: { name: "renamed" } }),
        lockable: taken !== undefined,
        allowed: taken === undefined ? [404] : [200],
        succeeded: (answer: any) => expect(answer.snapshot).toMatchObject({ id: snapshotId, name: "renamed" })
      }
    case "Delete":
      return {
        project,
        endpoint: Api.Snapshots.delete,
        request: Effect.succeed(HttpClientRequest.del(`${base}/snapshots/${snapshotId}`)),
        lockable: taken !== undefined,
        allowed: taken === undefined ? [404] : [202],
        succeeded: (answer: any, after: Snapshot.Snapshot) => {
          expect(answer.operations.map((operation: any) => operation.action)).toEqual(["delete_timeline"])
          expect(after.branch_snapshots.map((kept) => kept.id)).not.toContain(snapshotId)
        }
      }
    case "Restore": {
      const newName = nameOf(step.name, step.pick + 1)
      const target = branches.find((kept) => kept.id === taken?.source_branch_id)
      return {
        project,
        endpoint: Api.Snapshots.restore,
        request: json(HttpClientRequest.post(`${base}/snapshots/${snapshotId}/restore`), {
          ...(newName === undefined ? {} : { name: newName }),
          finalize_restore: step.finalize
        }),
        lockable: taken !== undefined,
        allowed:
          taken === undefined
            ? [404]
            : outcome(200, [
                [target === undefined, 404],
                [nameTaken(newName), 409]
              ]),
        succeeded: (answer: any, after: Snapshot.Snapshot) => {
          expect(answer.branch).toMatchObject({
            restore_status: step.finalize ? "finalized" : "restored",
            restored_from: snapshotId,
            restored_as: target!.id
          })
          const restored = after.branches.find((kept) => kept.id === answer.branch.id)!
          // The snapshot's roles and databases, as items of the new branch.
          expect(
            after.databases
              .filter((database) => database.branch_id === restored.id)
              .map((database) => database.name)
              .sort()
          ).toEqual(taken!.databases.map((database) => database.name).sort())
          if (step.finalize) {
            expect(restored).toMatchObject({ name: target!.name, default: target!.default })
            expect(after.endpoints.filter((endpoint) => endpoint.branch_id === target!.id)).toEqual([])
          }
        }
      }
    }
    case "Finalize": {
      const renamed = nameOf(step.name, step.pick + 1)
      const replaced = branches.find((kept) => kept.id === branch?.restored_as)
      const moving = snapshot.endpoints.filter((endpoint) => endpoint.branch_id === replaced?.id)
      return {
        project,
        endpoint: Api.Snapshots.finalizeRestore,
        request: json(
          HttpClientRequest.post(`${base}/branches/${branchId}/finalize_restore`),
          renamed === undefined ? {} : { name: renamed }
        ),
        lockable: branch !== undefined,
        allowed:
          branch === undefined
            ? [404]
            : outcome(200, [
                [branch.restore_status !== "restored", 400],
                [branch.restore_status === "restored" && nameTaken(renamed), 409]
              ]),
        succeeded: (_answer: any, after: Snapshot.Snapshot) => {
          const finalized = after.branches.find((kept) => kept.id === branchId)!
          expect(finalized).toMatchObject({
            name: replaced!.name,
            default: replaced!.default,
            restore_status: "finalized"
          })
          const old = after.branches.find((kept) => kept.id === replaced!.id)!
          expect(old.default).toBe(false)
          if (renamed !== undefined) expect(old.name).toBe(renamed)
          expect(
            after.endpoints
              .filter((endpoint) => endpoint.branch_id === branchId)
              .map((endpoint) => endpoint.id)
              .sort()
          ).toEqual(moving.map((endpoint) => endpoint.id).sort())
        }
      }
    }
    case "Schedule": {
      const schedule =
        step.frequency === "none"
          ? []
          : [{ frequency: step.frequency, hour: step.hour, retention_seconds: 3600 + step.pick * 600 }]
      return {
        project,
        endpoint: Api.Snapshots.setBackupSchedule,
        request: json(HttpClientRequest.put(`${base}/branches/${branchId}/backup_schedule`), { schedule }),
        lockable: branch !== undefined,
        allowed: branch === undefined ? [404] : step.frequency === "fortnightly" ? [400] : [200],
        succeeded: (_answer: any, after: Snapshot.Snapshot) =>
          expect(after.backup_schedules.find((kept) => kept.branch_id === branchId)?.schedule ?? []).toEqual(schedule)
      }
    }
  }
}

describe("the snapshot routes, random requests over the fake's HTTP app", () => {
  /** What the runs met, by `endpoint status`, and `scheduled` once a listing held a scheduled snapshot: the last test checks the runs met each rule. */
  const met = new Set<string>()

  it.effect.prop(
    "keep the invariants, answer declared statuses as the rules say, change nothing when refused, lock exactly while an operation is pending, and the journal replays",
    [fc.integer({ min: 1, max: 2 }), fc.array(step, { minLength: 1, maxLength: 40, size: "max" })],
    ([projects, steps]) =>
      Effect.gen(function* () {
        const { fake, key, replays } = yield* journaled(seedOf(projects))
        const get = (endpoint: Endpoint.Endpoint, path: string) => getOk(fake, key, path, endpoint)
        /** Whether project `id` has a pending operation; the control plane catches up first, as before any request. */
        const pending = (id: string) =>
          Effect.map(get(Api.Operations.list, `/projects/${id}/operations`), ({ operations }) =>
            (operations as ReadonlyArray<{ status: string; action: string }>).some(
              (operation) =>
                operation.action !== "check_availability" &&
                (operation.status === "scheduling" || operation.status === "running")
            )
          )
        const checkInvariants = (checked: ReadonlyArray<string>) =>
          Effect.gen(function* () {
            // A request first: the control plane catches up, so the state read is the one the API shows.
            yield* pending(checked[0]!)
            const snapshot = yield* fake.snapshot
            const loaded = load(snapshot)
            expect(Either.isLeft(loaded) ? loaded.left : []).toEqual([])
            const now = yield* Clock.currentTimeMillis
            for (const id of checked) {
              const { snapshots } = yield* get(Api.Snapshots.list, `/projects/${id}/snapshots`)
              expect(snapshots.map((listed: any) => listed.id).sort()).toEqual(
                snapshot.branch_snapshots
                  .filter((kept) => kept.project_id === id)
                  .map((kept) => kept.id)
                  .sort()
              )
              for (const listed of snapshots) {
                if (listed.manual === false) met.add("scheduled")
                if (listed.expires_at !== undefined) expect(Date.parse(listed.expires_at)).toBeGreaterThan(now)
              }
              const { branches } = yield* get(Api.Branches.list, `/projects/${id}/branches`)
              expect(branches.filter((branch: any) => branch.default)).toHaveLength(1)
              for (const branch of branches) {
                if (branch.restore_status === undefined) continue
                expect(["restored", "finalized"]).toContain(branch.restore_status)
                expect(branch.restored_from).toMatch(/^snap-/)
              }
            }
          })

        const all = projectIds.slice(0, projects)
        yield* checkInvariants(all)
        for (const step of steps) {
          if (step._tag === "Wait") {
            yield* TestClock.adjust(`${step.seconds} seconds`)
            continue
          }
          if (step._tag === "Finalize" && step.after > 0) yield* TestClock.adjust(`${step.after} seconds`)
          // The control plane catches up first (a request to the project), so that the plan and
          // `before` are the state the request meets: what it changes is its own.
          const locked = yield* pending(projectIds[step.project % projects]!)
          const before = yield* fake.snapshot
          const planned = plan(step, before, projects, yield* Clock.currentTimeMillis)
          const request = yield* planned.request
          const response = yield* exchange(fake, request, key)
          const after = yield* fake.snapshot
          const context = `${request.method} ${request.url} ${JSON.stringify(step)}: ${response.status} ${response.text}`
          expect(declares(planned.endpoint, response.status), context).toBe(true)
          met.add(`${planned.endpoint.name} ${response.status}`)
          expect(response.status === 423, context).toBe(locked && planned.lockable)
          if (response.status !== 423) expect(planned.allowed, context).toContain(response.status)
          if (response.status >= 400) {
            expect(withoutLastUse(after), context).toEqual(withoutLastUse(before))
            continue
          }
          planned.succeeded(response.body, after)
          yield* checkInvariants([planned.project])
        }
        yield* checkInvariants(all)
        yield* replays
      }),
    // A fixed seed: a failure prints it and the path of the shrunk case. Fifteen runs of up to 40
    // requests and waits, some seconds.
    { fastCheck: { seed: 2126, numRuns: 15 } }
  )

  it("met every rule: each endpoint's success and refusals, a 423, and a scheduled snapshot", () => {
    expect([...met].sort()).toEqual(
      expect.arrayContaining([
        "Snapshots.create 200",
        "Snapshots.create 400",
        "Snapshots.create 404",
        "Snapshots.update 200",
        "Snapshots.delete 202",
        "Snapshots.restore 200",
        "Snapshots.restore 409",
        "Snapshots.finalizeRestore 200",
        "Snapshots.finalizeRestore 400",
        "Snapshots.setBackupSchedule 200",
        "Snapshots.setBackupSchedule 400",
        "scheduled"
      ])
    )
    expect([...met].some((seen) => seen.endsWith(" 423"))).toBe(true)
  })
})
