/**
 * The consumption history (docs/contract.md §23) through the client's `Consumption` over the fake,
 * on the `TestClock`: the figures derive from the fake's state at the time of the request (a
 * compute endpoint's active time from its `start_compute` and `suspend_compute`, storage from its
 * branches' databases), pages follow the cursor, and the 403, 404 and 406 rules hold. Reading
 * consumption starts no operation.
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { ComputeEndpoints, Consumption, Databases } from "@dbplatform/client"
import { BranchId, ProjectId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import type * as Seed from "../src/Seed.js"
import * as SeedModule from "../src/Seed.js"
import { offers } from "../src/resources/Consumption/steps.js"
import { read, send } from "./helpers.js"

const hour = 3_600_000
/** An hour boundary: 2026-11-02T10:00:00Z. */
const H = Date.UTC(2026, 10, 2, 10)
const org = "org-acme-302709"
const free = "org-free-118737"
const project = ProjectId.make("spring-example-302709")
const main = BranchId.make("br-main-100001")

const seed: Seed.Seed = {
  organizations: [
    { id: org, name: "Acme", plan: "scale_v3" },
    { id: free, plan: "free_v3" }
  ],
  projects: [
    { id: project, org_id: org, age: "1 day" },
    { id: "free-leaf-100001", org_id: free }
  ],
  branches: [{ project_id: project, id: main, name: "main", default: true, age: "1 day" }]
}

/** `effect` over a fake of `seeded` whose clock starts at `start` (epoch ms); the client does not retry. */
const at =
  (start: number, seeded: Seed.Seed = seed) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.zipRight(
      TestClock.setTime(start),
      Effect.provide(effect, DbPlatformTest.layer({ seed: seeded, client: { retrySchedule: Schedule.stop } }))
    )

const utc = (ms: number) => DateTime.unsafeMake(ms)

/** The figures of each timeframe of the first item's first period: `[start, value]` of `metric`. */
const series = (
  periods: ReadonlyArray<{
    readonly consumption: ReadonlyArray<{
      readonly timeframe_start: DateTime.Utc
      readonly metrics: ReadonlyArray<{ readonly metric_name: string; readonly value: number }>
    }>
  }>,
  metric: string
) =>
  periods.flatMap((period) =>
    period.consumption.map((timeframe) => [
      DateTime.toEpochMillis(timeframe.timeframe_start),
      timeframe.metrics.find((value) => value.metric_name === metric)?.value
    ])
  )

/** How many operations the fake holds, once the control plane's own due by now are carried out. */
const operationsCount = Effect.flatMap(FakePlatform.FakePlatform, (fake) =>
  Effect.zipRight(
    fake.catchUp,
    Effect.map(fake.snapshot, (snapshot) => snapshot.operations.length)
  )
)

describe("Consumption over the fake (docs/contract.md §23)", () => {
  it.effect("an endpoint started, the clock advanced an hour: the hour's compute is CU × 3600", () =>
    Effect.gen(function* () {
      const endpoints = yield* ComputeEndpoints.ComputeEndpoints
      const consumption = yield* Consumption.Consumption
      // Created 3 s before the hour: its `start_compute` runs 3 s, so it is active from H on.
      const created = yield* endpoints.create({
        project_id: project,
        endpoint: {
          branch_id: main,
          type: "read_write",
          autoscaling_limit_min_cu: 0.5,
          autoscaling_limit_max_cu: 2,
          suspend_timeout_seconds: -1
        }
      })
      expect(created.operations.map((operation) => operation.action)).toEqual(["start_compute"])
      yield* TestClock.adjust("3 seconds")
      yield* TestClock.adjust("1 hour")
      const before = yield* operationsCount

      const range = { org_id: org, from: utc(H), to: utc(H + hour), granularity: "hourly" } as const
      const page = yield* consumption.listProjectsPage({ ...range, metrics: ["compute_unit_seconds"] })
      expect(page.projects.map((item) => item.project_id)).toEqual([project])
      const [period] = page.projects[0]!.periods
      expect(period!.period_plan).toBe("scale_v3")
      expect(DateTime.formatIso(period!.period_start)).toBe("2026-11-01T00:00:00.000Z")
      expect(period!.period_end).toBeUndefined()
      expect(series(page.projects[0]!.periods, "compute_unit_seconds")).toEqual([[H, 1800]])

      // The branch's history holds the same compute; the hour before it, none.
      const branches = yield* consumption.listBranchesPage({
        ...range,
        from: utc(H - hour),
        project_ids: [project],
        metrics: ["compute_unit_seconds", "root_branch_bytes_month"]
      })
      expect(branches.branches.map((item) => [item.project_id, item.branch_id])).toEqual([[project, main]])
      expect(series(branches.branches[0]!.periods, "compute_unit_seconds")).toEqual([
        [H - hour, 0],
        [H, 1800]
      ])

      // Reading consumption started nothing: the endpoint is still active, no operation was added.
      expect(yield* operationsCount).toBe(before)
      const { endpoint } = yield* endpoints.get({ project_id: project, endpoint_id: created.endpoint.id })
      expect(endpoint.current_state).toBe("active")
    }).pipe(at(H - 3_000))
  )

  it.effect("a suspended endpoint counts until its suspend_compute ended", () =>
    Effect.gen(function* () {
      const endpoints = yield* ComputeEndpoints.ComputeEndpoints
      const consumption = yield* Consumption.Consumption
      yield* endpoints.create({
        project_id: project,
        endpoint: { branch_id: main, type: "read_write", autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 1 }
      })
      // Active from H; suspended by the control plane after 300 s idle, by a `suspend_compute` of 1 s.
      yield* TestClock.adjust("1 hour")
      yield* TestClock.adjust("3 seconds")
      const page = yield* consumption.listProjectsPage({
        org_id: org,
        from: utc(H),
        to: utc(H + hour),
        granularity: "hourly",
        metrics: ["compute_unit_seconds"]
      })
      expect(series(page.projects[0]!.periods, "compute_unit_seconds")).toEqual([[H, 301]])
    }).pipe(at(H - 3_000))
  )

  it.effect("storage: 8 MiB per database of a root branch, as byte-months; a child bills only its own", () =>
    Effect.gen(function* () {
      const consumption = yield* Consumption.Consumption
      const databases = yield* Databases.Databases
      yield* TestClock.adjust("1 hour")
      // A database created on `dev` at H + 1 h: the child's own for the hour after.
      yield* databases.create({
        project_id: project,
        branch_id: BranchId.make("br-dev-100002"),
        database: { name: "orders", owner_name: "neondb_owner" }
      })
      yield* TestClock.adjust("1 hour")
      const page = yield* consumption.listBranchesPage({
        org_id: org,
        from: utc(H),
        to: utc(H + 2 * hour),
        granularity: "hourly",
        project_ids: [project],
        metrics: ["root_branch_bytes_month", "child_branch_bytes_month"]
      })
      const byBranch = Object.fromEntries(
        page.branches.map((item) => [
          item.branch_id,
          [series(item.periods, "root_branch_bytes_month"), series(item.periods, "child_branch_bytes_month")]
        ])
      )
      const hourOf8MiB = Math.round((8 * 1024 * 1024) / 730)
      expect(byBranch[main]).toEqual([
        [
          [H, hourOf8MiB],
          [H + hour, hourOf8MiB]
        ],
        [
          [H, 0],
          [H + hour, 0]
        ]
      ])
      expect(byBranch["br-dev-100002"]).toEqual([
        [
          [H, 0],
          [H + hour, 0]
        ],
        [
          [H, 0],
          [H + hour, hourOf8MiB]
        ]
      ])
    }).pipe(
      at(H, {
        ...seed,
        branches: [
          ...(seed.branches ?? []),
          { project_id: project, id: "br-dev-100002", name: "dev", parent_id: main }
        ],
        roles: [main, "br-dev-100002"].map((branch_id) => ({ branch_id, name: "neondb_owner", password: "npg_0wner" })),
        databases: [main, "br-dev-100002"].map((branch_id, i) => ({
          branch_id,
          id: 1_000_001 + i,
          name: "neondb",
          owner_name: "neondb_owner",
          age: "1 day"
        }))
      })
    )
  )

  it.effect("a Stream of consumption pages follows the cursor on the TestClock, newest project first", () =>
    Effect.gen(function* () {
      const consumption = yield* Consumption.Consumption
      const fake = yield* FakePlatform.FakePlatform
      const input = {
        org_id: org,
        from: utc(H - 24 * hour),
        to: utc(H),
        granularity: "daily",
        metrics: ["compute_unit_seconds", "extra_branches_month"]
      } as const
      const streamed = yield* Stream.runCollect(consumption.listProjects(input, { pageSize: 2 }))
      const ids = Chunk.toReadonlyArray(streamed).map((item) => item.project_id)
      expect(ids).toEqual(["p-five-100005", "p-four-100004", "p-three-100003", "p-two-100002", "p-one-100001"])
      const requests = (yield* fake.requests).filter(
        (request) => request.path === "/api/v2/consumption_history/v2/projects"
      )
      expect(requests.length).toBe(3)
      // Each item has its day, in the period of November 2026.
      for (const item of streamed) {
        expect(item.periods.map((period) => DateTime.formatIso(period.period_start))).toEqual([
          "2026-11-01T00:00:00.000Z"
        ])
        expect(item.periods[0]!.consumption.map((timeframe) => DateTime.formatIso(timeframe.timeframe_start))).toEqual([
          "2026-11-01T00:00:00.000Z"
        ])
      }
      // A page on its own: its cursor gives the next one.
      const first = yield* consumption.listProjectsPage({ ...input, limit: 2 })
      const second = yield* consumption.listProjectsPage({ ...input, limit: 2, cursor: first.pagination!.cursor })
      expect(second.projects.map((item) => item.project_id)).toEqual(["p-three-100003", "p-two-100002"])
      // The branches' history pages the same way, by project id then branch id.
      const branches = yield* Stream.runCollect(
        consumption.listBranches({ ...input, project_ids: ids, metrics: ["compute_unit_seconds"] }, { pageSize: 2 })
      )
      expect(Chunk.toReadonlyArray(branches).map((item) => item.project_id)).toEqual([...ids].sort())
    }).pipe(
      at(H, {
        organizations: [{ id: org, plan: "launch_v3" }],
        projects: ["one", "two", "three", "four", "five"].map((name, i) => ({
          id: `p-${name}-10000${i + 1}`,
          org_id: org,
          age: `${10 - i} days`
        }))
      })
    )
  )

  it.effect("406 for a range longer than the granularity allows; the longest range is answered", () =>
    Effect.gen(function* () {
      const consumption = yield* Consumption.Consumption
      const ask = (granularity: "hourly" | "daily" | "monthly", from: number) =>
        consumption.listProjectsPage({
          org_id: org,
          from: utc(from),
          to: utc(H),
          granularity,
          metrics: ["compute_unit_seconds"]
        })
      for (const [granularity, longest, tooLong] of [
        ["hourly", H - 168 * hour, H - 169 * hour],
        ["daily", H - 60 * 24 * hour, H - 61 * 24 * hour],
        ["monthly", Date.UTC(2025, 10, 1), Date.UTC(2025, 9, 1)]
      ] as const) {
        const error = yield* Effect.flip(ask(granularity, tooLong))
        expect(error._tag).toBe("NotAcceptable")
        expect(error.message).toContain("406 Not Acceptable")
        const page = yield* ask(granularity, longest)
        expect(page.projects.map((item) => item.project_id)).toEqual([project])
      }
      const branches = yield* Effect.flip(
        consumption.listBranchesPage({
          org_id: org,
          project_ids: [project],
          from: utc(H - 169 * hour),
          to: utc(H),
          granularity: "hourly",
          metrics: ["compute_unit_seconds"]
        })
      )
      expect(branches._tag).toBe("NotAcceptable")
    }).pipe(at(H))
  )

  it.effect("403 on a free plan (and the legacy history on a usage-based one), 404 outside the organization", () =>
    Effect.gen(function* () {
      const consumption = yield* Consumption.Consumption
      const range = { from: utc(H - hour), to: utc(H), granularity: "hourly" } as const
      const metrics = ["compute_unit_seconds"]
      const onFree = yield* Effect.flip(consumption.listProjectsPage({ ...range, org_id: free, metrics }))
      expect(onFree._tag).toBe("Forbidden")
      expect(onFree.message).toContain("free_v3")
      const branchesOnFree = yield* Effect.flip(
        consumption.listBranchesPage({ ...range, org_id: free, project_ids: ["free-leaf-100001"], metrics })
      )
      expect(branchesOnFree._tag).toBe("Forbidden")
      const legacy = yield* Effect.flip(consumption.listProjectsLegacyPage({ ...range, org_id: org }))
      expect(legacy._tag).toBe("Forbidden")
      const stranger = yield* Effect.flip(
        consumption.listProjectsPage({ ...range, org_id: "org-other-000001", metrics })
      )
      expect(stranger._tag).toBe("NotFound")
    }).pipe(at(H))
  )

  it.effect(
    "the realistic account's organization, on today's Scale (scale_v3), has both v2 histories, not the legacy one",
    () => {
      const realistic = SeedModule.realistic({ operationsPerProject: 5, pending: 0 })
      const acme = realistic.organizations![0]!
      const first = realistic.projects![0]!.id
      return Effect.gen(function* () {
        expect(acme.plan).toBe("scale_v3")
        const consumption = yield* Consumption.Consumption
        const range = { org_id: acme.id, from: utc(H - hour), to: utc(H), granularity: "hourly" } as const
        const branches = yield* consumption.listBranchesPage({
          ...range,
          project_ids: [first],
          metrics: ["root_branch_bytes_month"]
        })
        expect(branches.branches.length).toBeGreaterThan(0)
        expect(branches.branches.every((branch) => branch.project_id === first)).toBe(true)
        const projects = yield* consumption.listProjectsPage({ ...range, metrics: ["compute_unit_seconds"] })
        expect(projects.projects.length).toBeGreaterThan(0)
        const legacy = yield* Effect.flip(consumption.listProjectsLegacyPage(range))
        expect(legacy._tag).toBe("Forbidden")
      }).pipe(at(H, realistic))
    }
  )

  it("which plan offers which history: the published document's words, for every plan name it lists and Agent", () => {
    // [plan, v2 projects, v2 branches, legacy]. The document: v2 projects on Launch, Scale, Agent,
    // Business and Enterprise; v2 branches on the paid usage-based Launch, Scale, Agent and
    // Enterprise (today's `_v3` plans; `direct_sales` is Enterprise); legacy on the legacy Scale,
    // Business and Enterprise.
    const table: ReadonlyArray<readonly [string, boolean, boolean, boolean]> = [
      ["UNKNOWN", false, false, false],
      ["free_v2", false, false, false],
      ["free_v3", false, false, false],
      ["launch", true, false, false],
      ["launch_v3", true, true, false],
      ["scale", true, false, true],
      ["scale_v3", true, true, false],
      ["business", true, false, true],
      ["direct_sales", true, false, true],
      ["direct_sales_v3", true, true, false],
      ["agent", true, true, false],
      ["aws_marketplace", false, false, false],
      ["vercel_pg_legacy", false, false, false]
    ]
    for (const [plan, projects, branches, legacy] of table) {
      expect([offers("projects", plan), offers("branches", plan), offers("legacy", plan)], plan).toEqual([
        projects,
        branches,
        legacy
      ])
    }
  })

  it.effect("the legacy history: fixed columns, the optional ones when asked, on a legacy plan", () =>
    Effect.gen(function* () {
      const consumption = yield* Consumption.Consumption
      const range = { org_id: org, from: utc(H - hour), to: utc(H), granularity: "hourly" } as const
      const plain = yield* consumption.listProjectsLegacyPage(range)
      const [timeframe] = plain.projects[0]!.periods[0]!.consumption
      expect(timeframe).toMatchObject({ active_time_seconds: 0, compute_time_seconds: 0, written_data_bytes: 0 })
      expect(timeframe!.synthetic_storage_size_bytes).toBe(8 * 1024 * 1024)
      expect(timeframe!.logical_size_bytes).toBeUndefined()
      const asked = yield* consumption.listProjectsLegacyPage({
        ...range,
        metrics: ["logical_size_bytes", "logical_size_bytes_hour"]
      })
      expect(asked.projects[0]!.periods[0]!.consumption[0]).toMatchObject({
        logical_size_bytes: 8 * 1024 * 1024,
        logical_size_bytes_hour: 8 * 1024 * 1024
      })
    }).pipe(
      at(H, {
        organizations: [{ id: org, plan: "scale" }],
        projects: [{ id: project, org_id: org, age: "1 day" }],
        branches: [{ project_id: project, id: main, name: "main", default: true, age: "1 day" }],
        roles: [{ branch_id: main, name: "neondb_owner", password: "npg_0wner" }],
        databases: [{ branch_id: main, id: 1_000_001, name: "neondb", owner_name: "neondb_owner", age: "1 day" }]
      })
    )
  )

  it.effect("the fake takes list parameters repeated or comma-separated, and refuses a metric it does not report", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const key = Redacted.value(fake.bootstrapKey)
      const base = `org_id=${org}&from=2026-11-02T09:00:00Z&to=2026-11-02T10:00:00Z&granularity=hourly`
      const ask = (query: string) =>
        Effect.flatMap(
          send(fake, HttpClientRequest.get(`/consumption_history/v2/branches?${base}&${query}`), { key }),
          read
        )
      const repeated = yield* ask(`project_ids=${project}&metrics=compute_unit_seconds&metrics=root_branch_bytes_month`)
      const joined = yield* ask(`project_ids=${project}&metrics=compute_unit_seconds,root_branch_bytes_month`)
      expect(repeated.status).toBe(200)
      expect(repeated.body).toEqual(joined.body)
      expect(
        repeated.body.branches[0].periods[0].consumption[0].metrics.map((metric: any) => metric.metric_name)
      ).toEqual(["compute_unit_seconds", "root_branch_bytes_month"])
      const refused = yield* ask(`project_ids=${project}&metrics=extra_branches_month`)
      expect(refused.status).toBe(400)
      expect(refused.body.message).toContain("extra_branches_month")
      const none = yield* ask("metrics=compute_unit_seconds")
      expect(none.status).toBe(400)
      expect(none.body.message).toContain("project_ids")
    }).pipe(Effect.scoped, at(H))
  )
})
