/**
 * The fake's consumption history (docs/contract.md §23): figures derived from its own state at
 * the time of the request, never stored. Pure reads: nothing here changes the state or starts an
 * operation (reading consumption wakes no compute endpoint).
 *
 * - **Compute.** A compute endpoint is active from the end of each finished `start_compute` to
 *   the end of the next finished `suspend_compute` (the operations kind keeps them, for deleted
 *   compute endpoints too), and, for one that still exists, from its `active_at` while its state
 *   says `active` (a seeded one has no operation). Active seconds are that time;
 *   `compute_unit_seconds` are those seconds × its size in compute units: the fake's computes
 *   carry no load, so they run at their minimum, `autoscaling_limit_min_cu` (for a deleted one,
 *   its project's default minimum, 0.25 by default).
 * - **Storage.** A branch holds {@link databaseBytes} per database, from the database's creation
 *   (or the branch's, for a copy). A root branch (no parent) bills all of it; a child branch the
 *   databases its parent has none of the same name (what it shares with its parent is the
 *   parent's). Byte-months count a month as {@link monthMillis}.
 * - **Branches.** `extra_branches_month`: a project's branches beyond {@link includedBranches},
 *   × months.
 * - **Zero** for what the fake has no notion of: data written, network transfer, the history
 *   kept for instant restore, snapshots.
 */
import { Api } from "@dbplatform/core"
import * as Either from "effect/Either"
import { hashOf, seededDice, uuid } from "../../engine/ids.js"
import { defaultOrgId } from "../../engine/kinds.js"
import { endOf, stepAt } from "../../engine/operations.js"
import {
  get,
  itemsOf,
  type State,
  type StoredBranch,
  type StoredOrganization,
  type StoredProject
} from "../../engine/state.js"
import { Status } from "../../engine/status.js"
import { endpointStateAt } from "../../engine/wire.js"
import { accountUser } from "../../engine/caller.js"
import { Refusal } from "../../engine/refusal.js"

/** 403: the organization's plan does not offer this history. */
const forbidden = 403
/** 406: the range is longer than the granularity allows. */
const notAcceptable = 406

const hour = 3_600_000
const day = 24 * hour

/** What the fake counts a database as: 8 MiB, about the size of an empty Postgres database. */
export const databaseBytes = 8 * 1024 * 1024

/** A month, for byte-months and branch-months: 730 hours (a year's 8 760 over twelve). */
export const monthMillis = 730 * hour

/** The branches of a project a plan includes; `extra_branches_month` counts those beyond. */
export const includedBranches = 10

/** A granularity the fake knows. */
export type Granularity = "hourly" | "daily" | "monthly"

/** Which history: per project (v2), per branch (v2), or the legacy per-project one. */
export type History = "projects" | "branches" | "legacy"

/** The metrics each history reports (the published reference's lists). */
export const metricsOf: { readonly [H in History]: ReadonlyArray<string> } = {
  // Core's list of the project metrics; a branch's are its first six (no extra branches nor snapshots).
  projects: Api.KnownConsumptionMetric.literals,
  branches: Api.KnownConsumptionMetric.literals.slice(0, 6),
  legacy: [
    "active_time_seconds",
    "compute_time_seconds",
    "written_data_bytes",
    "synthetic_storage_size_bytes",
    "data_storage_bytes_hour",
    "logical_size_bytes",
    "logical_size_bytes_hour"
  ]
}

/** The legacy columns every timeframe has, whatever `metrics` asks. */
export const legacyColumns = metricsOf.legacy.slice(0, 4)

/**
 * Whether `plan` offers `history` (the fake's rule, from the published reference's words): the
 * v2 project history on the Launch, Scale, Agent, Business and Enterprise plans (`launch`,
 * `launch_v3`, `scale`, `scale_v3`, `business`, `agent…`, `enterprise…`, `direct_sales…`); the
 * v2 branch history on the paid usage-based ones only, today's plans (`launch_v3`, `scale_v3`,
 * `direct_sales_v3`, `agent…`, `enterprise…`); the legacy history on the legacy Scale, Business
 * and Enterprise plans (`scale`, `business`, `direct_sales`, `enterprise`: not Agent, a plan of
 * today, nor a `_v3` one). Free plans (`free_v2`, `free_v3`) and the others the document names
 * (`UNKNOWN`, `aws_marketplace`, `vercel_pg_legacy`) have none.
 */
export const offers = (history: History, plan: string): boolean => {
  const family = plan.replace(/_v\d+$/, "")
  switch (history) {
    case "projects":
      return ["launch", "scale", "business", "direct_sales", "agent", "enterprise"].includes(family)
    case "branches":
      return (
        ["launch_v3", "scale_v3", "direct_sales_v3"].includes(plan) || family === "agent" || family === "enterprise"
      )
    case "legacy":
      return ["scale", "business", "direct_sales", "enterprise"].includes(plan)
  }
}

/** How far back each granularity reaches: 168 hours, 60 days, 12 months. */
const window: { readonly [G in Granularity]: string } = {
  hourly: "168 hours",
  daily: "60 days",
  monthly: "1 year"
}

/** The start of the timeframe of `granularity` that holds `at` (UTC). */
export const floorTo = (granularity: Granularity, at: number): number => {
  switch (granularity) {
    case "hourly":
      return Math.floor(at / hour) * hour
    case "daily":
      return Math.floor(at / day) * day
    case "monthly": {
      const date = new Date(at)
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1)
    }
  }
}

/** The start of the timeframe after the one starting at `start`. */
const nextOf = (granularity: Granularity, start: number): number => {
  switch (granularity) {
    case "hourly":
      return start + hour
    case "daily":
      return start + day
    case "monthly": {
      const date = new Date(start)
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)
    }
  }
}

/** How many timeframes of `granularity` at most one request spans. */
const most: { readonly [G in Granularity]: number } = { hourly: 168, daily: 60, monthly: 12 }

/** A range asked for, rounded down to its granularity. */
export interface Range {
  readonly granularity: Granularity
  readonly from: number
  readonly to: number
}

/**
 * The range asked for, rounded down to `granularity`: 400 for a granularity the fake does not
 * know or a `to` before `from`; 406 for more timeframes than the granularity allows (168 hours,
 * 60 days, 12 months).
 */
export const rangeOf = (granularity: string, from: number, to: number): Either.Either<Range, Refusal> => {
  if (granularity !== "hourly" && granularity !== "daily" && granularity !== "monthly") {
    return Either.left(
      new Refusal({ status: Status.badRequest, message: "granularity: must be hourly, daily or monthly" })
    )
  }
  if (to < from) return Either.left(new Refusal({ status: Status.badRequest, message: "to: must not be before from" }))
  const start = floorTo(granularity, from)
  const end = floorTo(granularity, to)
  let count = 0
  for (let at = start; at < end && count <= most[granularity]; at = nextOf(granularity, at)) count++
  if (count > most[granularity]) {
    return Either.left(
      new Refusal({
        status: notAcceptable,
        message: `the range from ${new Date(start).toISOString()} to ${new Date(end).toISOString()} is longer than ${window[granularity]}, the most ${granularity} history one request answers`
      })
    )
  }
  return Either.right({ granularity, from: start, to: end })
}

/** The metrics of `asked` that `history` does not report: a 400 naming the first. */
export const unknownMetric = (history: History, asked: ReadonlyArray<string>): Refusal | undefined => {
  const metric = asked.find((name) => !metricsOf[history].includes(name))
  return metric === undefined
    ? undefined
    : new Refusal({
        status: Status.badRequest,
        message: `metrics: ${JSON.stringify(metric)} is not one this endpoint reports (${metricsOf[history].join(", ")})`
      })
}

/**
 * The organization `orgId` if the account's user is a member of it, else a 404; then a 403 if
 * its plan does not offer `history` ({@link offers}).
 */
export const organizationFor = (
  state: State,
  orgId: string,
  history: History
): Either.Either<StoredOrganization, Refusal> => {
  const organization = get(state, "organizations", orgId)
  let member = false
  if (organization !== undefined) {
    for (const item of itemsOf(state, "members", orgId)) if (item.user_id === accountUser.id) member = true
  }
  if (organization === undefined || !member) {
    return Either.left(
      new Refusal({ status: Status.notFound, message: `the account is not a member of organization ${orgId}` })
    )
  }
  return offers(history, organization.plan)
    ? Either.right(organization)
    : Either.left(
        new Refusal({
          status: forbidden,
          message: `the ${history === "branches" ? "branch" : "project"} consumption history is not available on the ${organization.plan} plan`
        })
      )
}

/** The organization the legacy history reads when no `org_id` is sent: the account's own, the fake's default. */
export const personalOrgId = defaultOrgId

/** The projects of organization `orgId`, newest first (those shared with the account are another's), `ids` only when given. */
export const projectsOf = (
  state: State,
  orgId: string,
  ids: ReadonlyArray<string> | undefined
): ReadonlyArray<StoredProject> =>
  Array.from(itemsOf(state, "projects", "")).filter(
    (project) => project.org_id === orgId && project.shared !== true && (ids === undefined || ids.includes(project.id))
  )

/** Half-open spans of time, epoch ms. */
type Span = readonly [start: number, end: number]

/** How long `spans` overlap `[start, end)`, ms. */
const overlap = (spans: ReadonlyArray<Span>, start: number, end: number): number => {
  let total = 0
  for (const [a, b] of spans) total += Math.max(0, Math.min(b, end) - Math.max(a, start))
  return total
}

/** One compute endpoint's life in a project, as the fake reconstructs it. */
interface ComputeLife {
  readonly branchId: string | undefined
  /** Its size while active, compute units. */
  readonly cu: number
  readonly active: ReadonlyArray<Span>
}

/**
 * Every compute endpoint of `project` that ever ran, deleted ones too, with the spans it was
 * active by `now` (see the module's description).
 */
export const computeLives = (state: State, project: StoredProject, now: number): ReadonlyArray<ComputeLife> => {
  const events = new Map<string, { branchId: string | undefined; cu: number; at: Array<readonly [number, boolean]> }>()
  const defaultCu = project.default_endpoint_settings?.autoscaling_limit_min_cu ?? 0.25
  const of = (id: string, branchId: string | undefined) => {
    let found = events.get(id)
    if (found === undefined) {
      found = { branchId, cu: defaultCu, at: [] }
      events.set(id, found)
    }
    return found
  }
  for (const operation of itemsOf(state, "operations", project.id)) {
    const up = operation.action === "start_compute"
    if (operation.endpoint_id === undefined || (!up && operation.action !== "suspend_compute")) continue
    if (stepAt(operation, now).status !== "finished") continue
    of(operation.endpoint_id, operation.branch_id).at.push([endOf(operation), up])
  }
  for (const branch of itemsOf(state, "branches", project.id)) {
    for (const endpoint of itemsOf(state, "endpoints", branch.id)) {
      const life = of(endpoint.id, endpoint.branch_id)
      life.branchId = endpoint.branch_id
      life.cu = endpoint.autoscaling_limit_min_cu
      if (endpoint.active_at <= now && endpointStateAt(endpoint, now).current === "active") {
        life.at.push([endpoint.active_at, true])
      }
      if (endpoint.suspended_at !== undefined && endpoint.suspended_at <= now)
        life.at.push([endpoint.suspended_at, false])
    }
  }
  return Array.from(events.values(), ({ at, branchId, cu }) => {
    // Earliest first; at the same time, a suspension before a start (a restart).
    at.sort((a, b) => a[0] - b[0] || Number(a[1]) - Number(b[1]))
    const active: Array<Span> = []
    let since: number | undefined
    for (const [time, up] of at) {
      if (up && since === undefined) since = time
      if (!up && since !== undefined) {
        active.push([since, time])
        since = undefined
      }
    }
    if (since !== undefined) active.push([since, now])
    return { branchId, cu, active }
  })
}

/** The spans a branch holds each of its billed databases (see the module's description), and its full logical size's. */
const storageOf = (state: State, branch: StoredBranch) => {
  const parentNames = new Set<string>()
  if (branch.parent_id !== undefined) {
    for (const database of itemsOf(state, "databases", branch.parent_id)) parentNames.add(database.name)
  }
  const logical: Array<Span> = []
  const billed: Array<Span> = []
  for (const database of itemsOf(state, "databases", branch.id)) {
    const span: Span = [Math.max(database.created_at, branch.created_at), Number.POSITIVE_INFINITY]
    logical.push(span)
    if (!parentNames.has(database.name)) billed.push(span)
  }
  return { logical, billed, root: branch.parent_id === undefined }
}

/** The figures of one timeframe, by metric name, for what `branches` and `lives` hold. */
const figures = (
  state: State,
  branches: ReadonlyArray<StoredBranch>,
  lives: ReadonlyArray<ComputeLife>,
  start: number,
  end: number,
  now: number,
  extraBranches: boolean
): Readonly<Record<string, number>> => {
  const until = Math.min(end, now)
  let activeMs = 0
  let cuMs = 0
  for (const life of lives) {
    const ms = overlap(life.active, start, until)
    activeMs += ms
    cuMs += ms * life.cu
  }
  let rootByteMs = 0
  let childByteMs = 0
  let logicalByteMs = 0
  let billedBytes = 0
  let logicalBytes = 0
  for (const branch of branches) {
    const { billed, logical, root } = storageOf(state, branch)
    const billedMs = overlap(billed, start, until) * databaseBytes
    if (root) rootByteMs += billedMs
    else childByteMs += billedMs
    logicalByteMs += overlap(logical, start, until) * databaseBytes
    billedBytes += billed.filter(([a]) => a < until).length * databaseBytes
    logicalBytes += logical.filter(([a]) => a < until).length * databaseBytes
  }
  let extraBranchMs = 0
  if (extraBranches) {
    // Branches by creation, oldest first: the ones past the included count are extra from their creation.
    const created = branches.map((branch) => branch.created_at).sort((a, b) => a - b)
    extraBranchMs = overlap(
      created.slice(includedBranches).map((at): Span => [at, Number.POSITIVE_INFINITY]),
      start,
      until
    )
  }
  return {
    compute_unit_seconds: Math.round(cuMs / 1000),
    root_branch_bytes_month: Math.round(rootByteMs / monthMillis),
    child_branch_bytes_month: Math.round(childByteMs / monthMillis),
    instant_restore_bytes_month: 0,
    public_network_transfer_bytes: 0,
    private_network_transfer_bytes: 0,
    extra_branches_month: Math.round(extraBranchMs / monthMillis),
    snapshot_storage_bytes_month: 0,
    active_time_seconds: Math.round(activeMs / 1000),
    compute_time_seconds: Math.round(cuMs / 1000),
    written_data_bytes: 0,
    synthetic_storage_size_bytes: billedBytes,
    data_storage_bytes_hour: Math.round((rootByteMs + childByteMs) / hour),
    logical_size_bytes: logicalBytes,
    logical_size_bytes_hour: Math.round(logicalByteMs / hour)
  }
}

/** One billing period and its timeframes, each with its figures. */
export interface Period {
  readonly period_id: string
  readonly period_plan: string
  readonly period_start: number
  readonly period_end: number | undefined
  readonly consumption: ReadonlyArray<{
    readonly timeframe_start: number
    readonly timeframe_end: number
    readonly figures: Readonly<Record<string, number>>
  }>
}

/**
 * The billing periods of `range` (calendar months, UTC; `period_end` only for one already over by
 * `now`), each with the timeframes of `range` in it that start before `now` and end after
 * `since` (what existed before is not listed), oldest first: the history of what `branches` and
 * `lives` hold. The period's id is a UUID, the same for the same organization and month.
 */
export const periodsOf = (
  state: State,
  organization: StoredOrganization,
  range: Range,
  since: number,
  branches: ReadonlyArray<StoredBranch>,
  lives: ReadonlyArray<ComputeLife>,
  now: number,
  extraBranches: boolean
): ReadonlyArray<Period> => {
  const periods: Array<Period & { consumption: Array<Period["consumption"][number]> }> = []
  for (let start = range.from; start < range.to && start < now; start = nextOf(range.granularity, start)) {
    const end = nextOf(range.granularity, start)
    if (end <= since) continue
    const month = floorTo("monthly", start)
    let period = periods[periods.length - 1]
    if (period === undefined || period.period_start !== month) {
      const monthEnd = nextOf("monthly", month)
      period = {
        period_id: uuid(seededDice(hashOf(`${organization.id}/${month}`))),
        period_plan: organization.plan,
        period_start: month,
        period_end: monthEnd <= now ? monthEnd : undefined,
        consumption: []
      }
      periods.push(period)
    }
    period.consumption.push({
      timeframe_start: start,
      timeframe_end: end,
      figures: figures(state, branches, lives, start, end, now, extraBranches)
    })
  }
  return periods
}
