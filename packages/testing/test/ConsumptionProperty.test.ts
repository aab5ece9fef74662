/**
 * The consumption history's compute against a model (docs/contract.md §23.4): for random runs of
 * starts, suspends and restarts of a compute endpoint over a day on the `TestClock`, the day's
 * `compute_unit_seconds` equals its size × the seconds the model says it was active, and the sum
 * of the day's hourly figures equals the daily one.
 */
import { ComputeEndpoints, Consumption } from "@dbplatform/client"
import { BranchId, ProjectId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Schedule from "effect/Schedule"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"

const second = 1_000
const hour = 3_600_000
/** A day boundary: 2026-11-02T00:00:00Z. */
const day = Date.UTC(2026, 10, 2)
const org = "org-acme-302709"
const project = ProjectId.make("spring-example-302709")
const main = BranchId.make("br-main-100001")

type Action = "start" | "suspend" | "restart"

/** A run: the compute endpoint's size, and what is done to it after each wait. */
const runs = FastCheck.sample(
  FastCheck.record({
    cu: FastCheck.constantFrom(1, 2, 4),
    steps: FastCheck.array(
      FastCheck.record({
        waitMinutes: FastCheck.integer({ min: 1, max: 240 }),
        action: FastCheck.constantFrom<Action>("start", "suspend", "restart")
      }),
      { minLength: 1, maxLength: 10 }
    )
  }),
  { numRuns: 12, seed: 20261102 }
)

/**
 * The seconds the model says the compute endpoint was active in `[day, day + 24 h)`: active from
 * `day` (its first `start_compute` ends then); a start of an idle one makes it active 3 s later,
 * a suspend of an active one idle 1 s later, a restart of an active one idle 1 s later and
 * active 3 s after that (of an idle one, a start).
 */
const modelSeconds = (steps: ReadonlyArray<{ readonly at: number; readonly action: Action }>): number => {
  let active = true
  let since = day
  let total = 0
  const close = (at: number) => {
    total += at - since
    active = false
  }
  for (const { action, at } of steps) {
    if (action === "start" && !active) {
      active = true
      since = at + 3 * second
    } else if (action === "suspend" && active) {
      close(at + second)
    } else if (action === "restart") {
      const wasActive = active
      if (wasActive) close(at + second)
      active = true
      since = at + (wasActive ? 4 : 3) * second
    }
  }
  if (active) total += day + 24 * hour - since
  return total / second
}

describe("consumption against a model of a compute endpoint's life (docs/contract.md §23.4)", () => {
  for (const [i, run] of runs.entries()) {
    it.effect(`run ${i}: ${run.steps.length} steps at ${run.cu} CU`, () =>
      Effect.gen(function* () {
        const endpoints = yield* ComputeEndpoints.ComputeEndpoints
        const consumption = yield* Consumption.Consumption
        const { endpoint } = yield* endpoints.create({
          project_id: project,
          endpoint: {
            branch_id: main,
            type: "read_write",
            autoscaling_limit_min_cu: run.cu,
            autoscaling_limit_max_cu: run.cu,
            suspend_timeout_seconds: -1
          }
        })
        yield* TestClock.adjust("3 seconds")
        const done: Array<{ readonly at: number; readonly action: Action }> = []
        for (const step of run.steps) {
          const at = (yield* TestClock.currentTimeMillis) + step.waitMinutes * 60 * second
          // Everything happens within the day.
          if (at >= day + 23 * hour) break
          yield* TestClock.setTime(at)
          const input = { project_id: project, endpoint_id: endpoint.id }
          yield* step.action === "start"
            ? endpoints.start(input)
            : step.action === "suspend"
              ? endpoints.suspend(input)
              : endpoints.restart(input)
          done.push({ at, action: step.action })
        }
        yield* TestClock.setTime(day + 24 * hour)

        const range = { org_id: org, from: DateTime.unsafeMake(day), to: DateTime.unsafeMake(day + 24 * hour) }
        const metrics = ["compute_unit_seconds"]
        const daily = yield* consumption.listProjectsPage({ ...range, granularity: "daily", metrics })
        const hourly = yield* consumption.listProjectsPage({ ...range, granularity: "hourly", metrics })
        const valuesOf = (page: typeof daily) =>
          page.projects[0]!.periods.flatMap((period) =>
            period.consumption.map((timeframe) => timeframe.metrics[0]!.value)
          )
        const expected = run.cu * modelSeconds(done)
        expect(valuesOf(daily)).toEqual([expected])
        const hours = valuesOf(hourly)
        expect(hours).toHaveLength(24)
        expect(hours.reduce((sum, value) => sum + value, 0)).toBe(expected)
      }).pipe((effect) =>
        Effect.zipRight(
          TestClock.setTime(day - 3 * second),
          Effect.provide(
            effect,
            DbPlatformTest.layer({
              seed: {
                organizations: [{ id: org, plan: "scale_v3" }],
                projects: [{ id: project, org_id: org, age: "1 day" }],
                branches: [{ project_id: project, id: main, name: "main", default: true, age: "1 day" }]
              },
              client: { retrySchedule: Schedule.stop }
            })
          )
        )
      )
    )
  }
})
