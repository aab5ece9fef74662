/**
 * The fake's consumption routes (docs/contract.md §23): each decodes with its entry of core's
 * `Api.Consumption` and answers a read of `steps.ts` at the time now. None changes the
 * state or starts an operation: reading consumption wakes no compute endpoint.
 */
import { Api, Pagination } from "@dbplatform/core"
import * as DateTime from "effect/DateTime"
import * as Either from "effect/Either"
import {
  computeLives,
  legacyColumns,
  organizationFor,
  type Period,
  periodsOf,
  personalOrgId,
  projectsOf,
  rangeOf,
  unknownMetric
} from "./steps.js"
import { type Handlers } from "../../engine/route.js"
import { type FakeState, itemsOf, type State, type StoredBranch } from "../../engine/state.js"
import { Status } from "../../engine/status.js"
import { at } from "../../engine/wire.js"
import { Refusal } from "../../engine/refusal.js"
import { read } from "../../engine/change.js"

/** A cursor that is not the key of an item of this list: a 400. */
const badCursor = new Refusal({ status: Status.badRequest, message: "cursor: must be a cursor from a previous page" })

/** The items of `items` after the one whose key is `cursor` (from the first without one), at most `limit`. */
const pageAfter = <A>(
  items: ReadonlyArray<A>,
  key: (item: A) => string,
  cursor: string | undefined,
  limit: number
): Either.Either<ReadonlyArray<A>, Refusal> => {
  if (cursor === undefined) return Either.right(items.slice(0, limit))
  const index = items.findIndex((item) => key(item) === cursor)
  return index < 0 ? Either.left(badCursor) : Either.right(items.slice(index + 1, index + 1 + limit))
}

/** `{ cursor }` of a page: the key of its last item; none for an empty page. */
const paginationOf = <A>(page: ReadonlyArray<A>, key: (item: A) => string) =>
  page.length === 0 ? undefined : new Pagination({ cursor: key(page[page.length - 1]!) })

/** The periods with only the `metrics` asked, as the v2 histories answer them. */
const v2Periods = (periods: ReadonlyArray<Period>, metrics: ReadonlyArray<string>) =>
  periods.map(
    (period) =>
      new Api.ConsumptionPeriod({
        period_id: period.period_id,
        period_plan: period.period_plan,
        period_start: at(period.period_start),
        ...(period.period_end === undefined ? {} : { period_end: at(period.period_end) }),
        consumption: period.consumption.map(
          (timeframe) =>
            new Api.ConsumptionTimeframe({
              timeframe_start: at(timeframe.timeframe_start),
              timeframe_end: at(timeframe.timeframe_end),
              metrics: metrics.map(
                (name) => new Api.ConsumptionMetricValue({ metric_name: name, value: timeframe.figures[name] ?? 0 })
              )
            })
        )
      })
  )

/** The periods in the legacy history's fixed columns, with the optional ones `metrics` asks. */
const legacyPeriods = (periods: ReadonlyArray<Period>, metrics: ReadonlyArray<string>) =>
  periods.map(
    (period) =>
      new Api.LegacyConsumptionPeriod({
        period_id: period.period_id,
        period_plan: period.period_plan,
        period_start: at(period.period_start),
        ...(period.period_end === undefined ? {} : { period_end: at(period.period_end) }),
        consumption: period.consumption.map(({ figures, timeframe_end, timeframe_start }) => {
          const optional = (name: "data_storage_bytes_hour" | "logical_size_bytes" | "logical_size_bytes_hour") =>
            metrics.includes(name) ? { [name]: figures[name] ?? 0 } : {}
          return new Api.LegacyConsumptionTimeframe({
            timeframe_start: at(timeframe_start),
            timeframe_end: at(timeframe_end),
            active_time_seconds: figures.active_time_seconds ?? 0,
            compute_time_seconds: figures.compute_time_seconds ?? 0,
            written_data_bytes: figures.written_data_bytes ?? 0,
            synthetic_storage_size_bytes: figures.synthetic_storage_size_bytes ?? 0,
            ...optional("data_storage_bytes_hour"),
            ...optional("logical_size_bytes"),
            ...optional("logical_size_bytes_hour")
          })
        })
      })
  )

/** The branches of `projectId`, by id. */
const branchesOf = (state: State, projectId: string): ReadonlyArray<StoredBranch> =>
  Array.from(itemsOf(state, "branches", projectId)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))

const millis = DateTime.toEpochMillis

/** How the fake answers each entry of `group` (core's `Api.Consumption`, or a test's change of it). */
export const consumptionHandlers = (
  fake: FakeState,
  group: typeof Api.Consumption
): Handlers<typeof Api.Consumption> => ({
  listProjects: ({ query }) =>
    read(fake, (state, now) =>
      Either.gen(function* () {
        const unknown = unknownMetric("projects", query.metrics)
        if (unknown !== undefined) return yield* Either.left(unknown)
        const range = yield* rangeOf(query.granularity, millis(query.from), millis(query.to))
        const organization = yield* organizationFor(state, query.org_id, "projects")
        const limit = query.limit ?? group.listProjects.pageLimits?.default ?? 10
        const ids = query.project_ids === undefined || query.project_ids.length === 0 ? undefined : query.project_ids
        const page = yield* pageAfter(projectsOf(state, organization.id, ids), (p) => p.id, query.cursor, limit)
        return new Api.ProjectsConsumption({
          projects: page.map((project) => {
            const branches = branchesOf(state, project.id)
            const lives = computeLives(state, project, now)
            const periods = periodsOf(state, organization, range, project.created_at, branches, lives, now, true)
            return new Api.ProjectConsumption({ project_id: project.id, periods: v2Periods(periods, query.metrics) })
          }),
          ...(page.length === 0 ? {} : { pagination: paginationOf(page, (p) => p.id) })
        })
      })
    ),
  listBranches: ({ query }) =>
    read(fake, (state, now) =>
      Either.gen(function* () {
        const unknown = unknownMetric("branches", query.metrics)
        if (unknown !== undefined) return yield* Either.left(unknown)
        const range = yield* rangeOf(query.granularity, millis(query.from), millis(query.to))
        const organization = yield* organizationFor(state, query.org_id, "branches")
        const limit = query.limit ?? group.listBranches.pageLimits?.default ?? 100
        const branchIds = query.branch_ids === undefined || query.branch_ids.length === 0 ? undefined : query.branch_ids
        const projects = projectsOf(state, organization.id, query.project_ids)
          .slice()
          .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        const rows = projects.flatMap((project) =>
          branchesOf(state, project.id)
            .filter((branch) => branchIds === undefined || branchIds.includes(branch.id))
            .map((branch) => ({ project, branch }))
        )
        const key = (row: (typeof rows)[number]) => `${row.project.id}/${row.branch.id}`
        const page = yield* pageAfter(rows, key, query.cursor, limit)
        const lives = new Map(projects.map((project) => [project.id, computeLives(state, project, now)]))
        return new Api.BranchesConsumption({
          branches: page.map(({ branch, project }) => {
            const own = (lives.get(project.id) ?? []).filter((life) => life.branchId === branch.id)
            const periods = periodsOf(state, organization, range, branch.created_at, [branch], own, now, false)
            return new Api.BranchConsumption({
              project_id: project.id,
              branch_id: branch.id,
              periods: v2Periods(periods, query.metrics)
            })
          }),
          ...(page.length === 0 ? {} : { pagination: paginationOf(page, key) })
        })
      })
    ),
  listProjectsLegacy: ({ query }) =>
    read(fake, (state, now) =>
      Either.gen(function* () {
        const asked = query.metrics ?? []
        const unknown = unknownMetric("legacy", asked)
        if (unknown !== undefined) return yield* Either.left(unknown)
        const range = yield* rangeOf(query.granularity, millis(query.from), millis(query.to))
        const organization = yield* organizationFor(state, query.org_id ?? personalOrgId, "legacy")
        const limit = query.limit ?? group.listProjectsLegacy.pageLimits?.default ?? 10
        const ids = query.project_ids === undefined || query.project_ids.length === 0 ? undefined : query.project_ids
        const page = yield* pageAfter(projectsOf(state, organization.id, ids), (p) => p.id, query.cursor, limit)
        // `include_v1_metrics` (deprecated) adds `data_storage_bytes_hour`, unless `metrics` says what to send.
        const metrics =
          asked.length > 0 ? asked : query.include_v1_metrics === true ? ["data_storage_bytes_hour"] : legacyColumns
        return new Api.LegacyProjectsConsumption({
          projects: page.map((project) => {
            const branches = branchesOf(state, project.id)
            const lives = computeLives(state, project, now)
            const periods = periodsOf(state, organization, range, project.created_at, branches, lives, now, false)
            return new Api.LegacyProjectConsumption({
              project_id: project.id,
              periods: legacyPeriods(periods, metrics)
            })
          }),
          ...(page.length === 0 ? {} : { pagination: paginationOf(page, (p) => p.id) })
        })
      })
    )
})
