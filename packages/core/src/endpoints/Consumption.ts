/**
 * The consumption endpoints: an organization's consumption history, per project and per branch,
 * and the per-project history of the legacy plans (`docs/contract.md` §23).
 *
 * @since 0.5.0
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import { Cursor, PageLimit, withMessage } from "../internal/input.js"
import { Pagination } from "../Pagination.js"
import { Timestamp } from "../Timestamp.js"
import { OrgId } from "./Projects.js"

/**
 * The granularities the published API reference lists: `hourly` (history of the last 168
 * hours), `daily` (the last 60 days) and `monthly` (the last year) (§23).
 *
 * @since 0.5.0
 * @category schemas
 */
export const KnownGranularity = Schema.Literal("hourly", "daily", "monthly")

/**
 * The granularity of a consumption history: one of {@link KnownGranularity}, or any other string
 * (open: the platform may add one; the server refuses one it does not know) (§23).
 *
 * @since 0.5.0
 * @category schemas
 */
export type Granularity = typeof KnownGranularity.Type | (string & {})

/**
 * Open enum schema of {@link Granularity}: any string, not empty.
 *
 * @since 0.5.0
 * @category schemas
 */
export const Granularity: Schema.Schema<Granularity> = Schema.Union(
  Schema.String.pipe(Schema.minLength(1)),
  KnownGranularity
).annotations({ identifier: "Granularity", ...withMessage("must be hourly, daily or monthly") })

/**
 * The metrics of the v2 consumption history (§23), their units in their names:
 * `compute_unit_seconds` (compute units × seconds), `root_branch_bytes_month`,
 * `child_branch_bytes_month`, `instant_restore_bytes_month` and `snapshot_storage_bytes_month`
 * (bytes × months), `public_network_transfer_bytes` and `private_network_transfer_bytes`
 * (bytes), `extra_branches_month` (branches beyond the plan's × months). The per-branch history
 * takes the first six only.
 *
 * @since 0.5.0
 * @category schemas
 */
export const KnownConsumptionMetric = Schema.Literal(
  "compute_unit_seconds",
  "root_branch_bytes_month",
  "child_branch_bytes_month",
  "instant_restore_bytes_month",
  "public_network_transfer_bytes",
  "private_network_transfer_bytes",
  "extra_branches_month",
  "snapshot_storage_bytes_month"
)

/**
 * A metric of the v2 consumption history: one of {@link KnownConsumptionMetric}, or any other
 * string (open: the platform adds metrics) (§23).
 *
 * @since 0.5.0
 * @category schemas
 */
export type ConsumptionMetric = typeof KnownConsumptionMetric.Type | (string & {})

/**
 * Open enum schema of {@link ConsumptionMetric}.
 *
 * @since 0.5.0
 * @category schemas
 */
export const ConsumptionMetric: Schema.Schema<ConsumptionMetric> = Schema.Union(
  Schema.String,
  KnownConsumptionMetric
).annotations({ identifier: "ConsumptionMetric" })

/**
 * The metrics of the legacy consumption history (§23): `active_time_seconds`,
 * `compute_time_seconds`, `written_data_bytes`, `synthetic_storage_size_bytes` (the four sent
 * when none is asked for), `data_storage_bytes_hour`, `logical_size_bytes` and
 * `logical_size_bytes_hour`.
 *
 * @since 0.5.0
 * @category schemas
 */
export const KnownLegacyConsumptionMetric = Schema.Literal(
  "active_time_seconds",
  "compute_time_seconds",
  "written_data_bytes",
  "synthetic_storage_size_bytes",
  "data_storage_bytes_hour",
  "logical_size_bytes",
  "logical_size_bytes_hour"
)

/**
 * A metric of the legacy consumption history: one of {@link KnownLegacyConsumptionMetric}, or any
 * other string (open) (§23).
 *
 * @since 0.5.0
 * @category schemas
 */
export type LegacyConsumptionMetric = typeof KnownLegacyConsumptionMetric.Type | (string & {})

/**
 * Open enum schema of {@link LegacyConsumptionMetric}.
 *
 * @since 0.5.0
 * @category schemas
 */
export const LegacyConsumptionMetric: Schema.Schema<LegacyConsumptionMetric> = Schema.Union(
  Schema.String,
  KnownLegacyConsumptionMetric
).annotations({ identifier: "LegacyConsumptionMetric" })

/**
 * A list query parameter: an array of `item` in the input, sent as one comma-separated value
 * (`metrics=compute_unit_seconds,extra_branches_month`), one of the two forms the published
 * reference gives (the fake also takes the other, the parameter repeated), `min` to `max` items
 * (no most when `max` is absent). An empty string is no item.
 */
const CommaSeparated = <A>(item: Schema.Schema<A, string>, what: string, min: number, max?: number) =>
  Schema.transform(
    Schema.String,
    Schema.Array(Schema.String).pipe(
      Schema.filter((items) => items.length >= min && (max === undefined || items.length <= max), {
        message: () => ({
          message:
            max === undefined
              ? `must hold ${min} or more ${what}, separated by commas`
              : `must hold ${min} to ${max} ${what}, separated by commas`,
          override: true
        })
      })
    ),
    {
      strict: true,
      decode: (text) => (text === "" ? [] : text.split(",")),
      encode: (items) => items.join(",")
    }
  ).pipe(Schema.compose(Schema.Array(item)))

/** A project id in a list: `^[a-z0-9-]{1,60}$`. */
const ProjectIdItem = Schema.String.pipe(Schema.pattern(/^[a-z0-9-]{1,60}$/)).annotations(
  withMessage("each must be 1 to 60 of a-z, 0-9 and -")
)

/** A branch id in a list: `^[a-z0-9-]{1,60}$`. */
const BranchIdItem = Schema.String.pipe(Schema.pattern(/^[a-z0-9-]{1,60}$/)).annotations(
  withMessage("each must be 1 to 60 of a-z, 0-9 and -")
)

/** A metric in a list: not empty. */
const MetricItem = <A extends string>(schema: Schema.Schema<A>) =>
  Schema.compose(Schema.String.pipe(Schema.minLength(1)).annotations(withMessage("each must not be empty")), schema)

/**
 * The page size of `GET /consumption_history/v2/projects` and of the legacy
 * `GET /consumption_history/projects`: 1 to 100 projects, 10 when no `limit` is sent (§23).
 *
 * @since 0.5.0
 * @category endpoints
 */
export const consumptionProjectsPageLimits: Endpoint.PageLimits = { max: 100, default: 10 }

/**
 * The page size of `GET /consumption_history/v2/branches`: 1 to 1000 branches, 100 when no
 * `limit` is sent (§23).
 *
 * @since 0.5.0
 * @category endpoints
 */
export const consumptionBranchesPageLimits: Endpoint.PageLimits = { max: 1000, default: 100 }

/**
 * One metric's value over a timeframe (§23): `metric_name` and `value`, an integer in the
 * metric's unit (its name says which: `compute_unit_seconds` are compute units × seconds,
 * `_bytes_month` bytes × months, `_bytes` bytes). Decoded as a number: a value past 2^53 loses
 * precision.
 *
 * @since 0.5.0
 * @category schemas
 */
export class ConsumptionMetricValue extends Schema.Class<ConsumptionMetricValue>("ConsumptionMetricValue")({
  metric_name: ConsumptionMetric,
  value: Schema.Number
}) {}

/**
 * The consumption of one timeframe (an hour, a day or a month, as the granularity asked):
 * `timeframe_start`, `timeframe_end` and the `metrics` asked for (§23). The published reference
 * marks none of them required; a timeframe without `metrics` decodes as none.
 *
 * @since 0.5.0
 * @category schemas
 */
export class ConsumptionTimeframe extends Schema.Class<ConsumptionTimeframe>("ConsumptionTimeframe")({
  timeframe_start: Timestamp,
  timeframe_end: Timestamp,
  metrics: Schema.optionalWith(Schema.Array(ConsumptionMetricValue), { default: () => [] })
}) {}

/**
 * One billing period of a consumption history (§23): `period_id` (a UUID), `period_plan` (the
 * plan billed in it, e.g. `scale`), `period_start`, `period_end` (past periods only) and its
 * timeframes in ascending time, `consumption`.
 *
 * @since 0.5.0
 * @category schemas
 */
export class ConsumptionPeriod extends Schema.Class<ConsumptionPeriod>("ConsumptionPeriod")({
  period_id: Schema.String,
  period_plan: Schema.String,
  period_start: Timestamp,
  period_end: Schema.optional(Timestamp),
  consumption: Schema.Array(ConsumptionTimeframe)
}) {}

/**
 * The consumption history of one project: `project_id` and its billing `periods` (§23).
 *
 * @since 0.5.0
 * @category schemas
 */
export class ProjectConsumption extends Schema.Class<ProjectConsumption>("ProjectConsumption")({
  project_id: Schema.String,
  periods: Schema.Array(ConsumptionPeriod)
}) {}

/**
 * The consumption history of one branch: `project_id`, `branch_id` and its billing `periods`
 * (§23).
 *
 * @since 0.5.0
 * @category schemas
 */
export class BranchConsumption extends Schema.Class<BranchConsumption>("BranchConsumption")({
  project_id: Schema.String,
  branch_id: Schema.String,
  periods: Schema.Array(ConsumptionPeriod)
}) {}

/**
 * Answer of `GET /consumption_history/v2/projects`: `{ projects, pagination? }`, one page of
 * projects; pass `pagination.cursor` back as `cursor` for the next (§23).
 *
 * @since 0.5.0
 * @category schemas
 */
export class ProjectsConsumption extends Schema.Class<ProjectsConsumption>("ProjectsConsumption")({
  projects: Schema.Array(ProjectConsumption),
  pagination: Schema.optional(Pagination)
}) {}

/**
 * Answer of `GET /consumption_history/v2/branches`: `{ branches, pagination? }`, one page of
 * branches; pass `pagination.cursor` back as `cursor` for the next (§23).
 *
 * @since 0.5.0
 * @category schemas
 */
export class BranchesConsumption extends Schema.Class<BranchesConsumption>("BranchesConsumption")({
  branches: Schema.Array(BranchConsumption),
  pagination: Schema.optional(Pagination)
}) {}

/**
 * The consumption of one timeframe in the legacy history, in fixed columns (§23): seconds the
 * compute endpoints were active (`active_time_seconds`), CPU seconds they used
 * (`compute_time_seconds`), bytes written (`written_data_bytes`) and stored
 * (`synthetic_storage_size_bytes`); and when asked for, `data_storage_bytes_hour` (bytes × hours),
 * `logical_size_bytes` and `logical_size_bytes_hour`.
 *
 * @since 0.5.0
 * @category schemas
 */
export class LegacyConsumptionTimeframe extends Schema.Class<LegacyConsumptionTimeframe>("LegacyConsumptionTimeframe")({
  timeframe_start: Timestamp,
  timeframe_end: Timestamp,
  active_time_seconds: Schema.Number,
  compute_time_seconds: Schema.Number,
  written_data_bytes: Schema.Number,
  synthetic_storage_size_bytes: Schema.Number,
  data_storage_bytes_hour: Schema.optional(Schema.Number),
  logical_size_bytes: Schema.optional(Schema.Number),
  logical_size_bytes_hour: Schema.optional(Schema.Number)
}) {}

/**
 * One billing period of the legacy history: as {@link ConsumptionPeriod}, its timeframes in
 * fixed columns (§23).
 *
 * @since 0.5.0
 * @category schemas
 */
export class LegacyConsumptionPeriod extends Schema.Class<LegacyConsumptionPeriod>("LegacyConsumptionPeriod")({
  period_id: Schema.String,
  period_plan: Schema.String,
  period_start: Timestamp,
  period_end: Schema.optional(Timestamp),
  consumption: Schema.Array(LegacyConsumptionTimeframe)
}) {}

/**
 * The legacy consumption history of one project: `project_id` and its billing `periods` (§23).
 *
 * @since 0.5.0
 * @category schemas
 */
export class LegacyProjectConsumption extends Schema.Class<LegacyProjectConsumption>("LegacyProjectConsumption")({
  project_id: Schema.String,
  periods: Schema.Array(LegacyConsumptionPeriod)
}) {}

/**
 * Answer of `GET /consumption_history/projects`: `{ projects, pagination? }` (§23).
 *
 * @since 0.5.0
 * @category schemas
 */
export class LegacyProjectsConsumption extends Schema.Class<LegacyProjectsConsumption>("LegacyProjectsConsumption")({
  projects: Schema.Array(LegacyProjectConsumption),
  pagination: Schema.optional(Pagination)
}) {}

/** What every consumption history asks: the range, rounded down to the granularity, and the granularity. */
const range = {
  from: Timestamp,
  to: Timestamp,
  granularity: Granularity
}

/**
 * The consumption endpoints (§23). None of them wakes a compute endpoint.
 *
 * @since 0.5.0
 * @category endpoints
 */
export const Consumption = Endpoint.group("Consumption", {
  /**
   * `GET /consumption_history/v2/projects`: one page of the consumption history of the projects of
   * organization `org_id`, newest project first, `{ projects: [{ project_id, periods }],
   * pagination }` (§23). Query: `from` and `to` (rounded down to the granularity), `granularity`
   * (`hourly` for at most 168 hours, `daily` 60 days, `monthly` a year), `org_id`, `metrics` (1 or
   * or more, sent comma-separated), `project_ids` (up to 100; absent: every project of the
   * organization), `limit` (1 to 100 projects, 10 by default) and `cursor`. 403 where the
   * organization's plan does not offer it, 404 when the account is not a member of `org_id`, 406
   * for a range longer than the granularity allows, 400 for a query the server refuses.
   */
  listProjects: Endpoint.make({
    method: "GET",
    route: "/consumption_history/v2/projects",
    query: Schema.Struct({
      cursor: Schema.optional(Cursor),
      limit: Schema.optional(PageLimit(consumptionProjectsPageLimits)),
      project_ids: Schema.optional(CommaSeparated(ProjectIdItem, "project ids", 0, 100)),
      ...range,
      org_id: OrgId,
      metrics: CommaSeparated(MetricItem(ConsumptionMetric), "metrics", 1)
    }),
    success: ProjectsConsumption,
    errors: ["BadRequest", "Forbidden", "NotFound", "NotAcceptable"],
    pageLimits: consumptionProjectsPageLimits,
    list: { items: (page) => page.projects, cursor: (page) => page.pagination?.cursor }
  }),
  /**
   * `GET /consumption_history/v2/branches`: one page of the consumption history of the branches
   * of the projects `project_ids` (1 to 100) of organization `org_id`, by project id then branch
   * id, `{ branches: [{ project_id, branch_id, periods }], pagination }` (§23). Query: as
   * `listProjects`, `metrics` among the first six only (not `extra_branches_month` nor
   * `snapshot_storage_bytes_month`), `branch_ids` (up to 100; absent: every branch of the
   * projects), `limit` 1 to 1000 branches (100 by default). 403 where the organization's plan does
   * not offer it, 404 when the account is not a member of `org_id`, 406 for a range longer than the
   * granularity allows, 400 for a query the server refuses.
   */
  listBranches: Endpoint.make({
    method: "GET",
    route: "/consumption_history/v2/branches",
    query: Schema.Struct({
      cursor: Schema.optional(Cursor),
      limit: Schema.optional(PageLimit(consumptionBranchesPageLimits)),
      project_ids: CommaSeparated(ProjectIdItem, "project ids", 1, 100),
      branch_ids: Schema.optional(CommaSeparated(BranchIdItem, "branch ids", 0, 100)),
      ...range,
      org_id: OrgId,
      metrics: CommaSeparated(MetricItem(ConsumptionMetric), "metrics", 1)
    }),
    success: BranchesConsumption,
    errors: ["BadRequest", "Forbidden", "NotFound", "NotAcceptable"],
    pageLimits: consumptionBranchesPageLimits,
    list: { items: (page) => page.branches, cursor: (page) => page.pagination?.cursor }
  }),
  /**
   * `GET /consumption_history/projects`: one page of the consumption history of the legacy plans,
   * per project, in fixed columns, `{ projects: [{ project_id, periods }], pagination }` (§23).
   * Query: `from`, `to`, `granularity` as `listProjects`; `org_id` (absent: the account's own
   * projects), `project_ids`, `limit` (1 to 100, 10 by default), `cursor`, `metrics` (absent: the
   * four fixed columns), `include_v1_metrics` (deprecated: adds `data_storage_bytes_hour` when no
   * `metrics` are given). 403 where the plan does not offer it, 404 when the account is not a
   * member of `org_id`, 406 for a range longer than the granularity allows, 400 for a query the
   * server refuses.
   */
  listProjectsLegacy: Endpoint.make({
    method: "GET",
    route: "/consumption_history/projects",
    query: Schema.Struct({
      cursor: Schema.optional(Cursor),
      limit: Schema.optional(PageLimit(consumptionProjectsPageLimits)),
      project_ids: Schema.optional(CommaSeparated(ProjectIdItem, "project ids", 0, 100)),
      ...range,
      org_id: Schema.optional(OrgId),
      include_v1_metrics: Schema.optional(Schema.BooleanFromString.annotations(withMessage("must be true or false"))),
      metrics: Schema.optional(CommaSeparated(MetricItem(LegacyConsumptionMetric), "metrics", 0))
    }),
    success: LegacyProjectsConsumption,
    errors: ["BadRequest", "Forbidden", "NotFound", "NotAcceptable"],
    pageLimits: consumptionProjectsPageLimits,
    list: { items: (page) => page.projects, cursor: (page) => page.pagination?.cursor }
  })
})
