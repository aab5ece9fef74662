/**
 * Projects, as the project list reports them (`docs/contract.md` §2.4, §4, §10.4), and as the
 * project endpoints create, read, change and delete them, with their request bodies (§14).
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { AnnotationValue, Branch, BranchCreated, BranchCreateEndpoint, BranchUpdateRequest } from "./Branch.js"
import { Provisioner } from "./ComputeEndpoint.js"
import { ProjectId } from "./Ids.js"
import { ComputeUnitsInput, PostgresName, withMessage } from "./internal/input.js"
import { openEnum } from "./internal/openEnum.js"
import { Operation } from "./Operation.js"
import { Pagination } from "./Pagination.js"
import { ProjectSettings, ProjectSettingsRequest } from "./ProjectSettings.js"
import { Timestamp } from "./Timestamp.js"

/** Settings by name, both strings: Postgres's (`pg_settings`), PgBouncer's (`pgbouncer_settings`). */
const SettingsMap = Schema.Record({ key: Schema.String, value: Schema.String })

/**
 * The settings a project gives the compute endpoints created in it without their own (§14):
 * autoscaling limits in compute units (0.25 and up) and `suspend_timeout_seconds`, seconds of
 * inactivity before one is suspended (`0`: the platform's default, `-1`: never); since 0.5.0
 * `pg_settings` and `pgbouncer_settings` (name to value, both strings; PgBouncer's deprecated by
 * the platform).
 *
 * @since 0.3.0
 * @category schemas
 */
export class DefaultEndpointSettings extends Schema.Class<DefaultEndpointSettings>("DefaultEndpointSettings")({
  pg_settings: Schema.optional(SettingsMap),
  pgbouncer_settings: Schema.optional(SettingsMap),
  autoscaling_limit_min_cu: Schema.optional(Schema.Number),
  autoscaling_limit_max_cu: Schema.optional(Schema.Number),
  suspend_timeout_seconds: Schema.optional(Schema.Number)
}) {}

/**
 * The subscription types known today (§14.1, §20): `UNKNOWN` (no billing account),
 * `direct_sales`, `direct_sales_v3`, `aws_marketplace`, `free_v2`, `free_v3`, `launch`,
 * `launch_v3`, `scale`, `scale_v3`, `business`, `vercel_pg_legacy`.
 *
 * @since 0.5.0
 * @category schemas
 */
export const KnownBillingSubscriptionType = Schema.Literal(
  "UNKNOWN",
  "direct_sales",
  "direct_sales_v3",
  "aws_marketplace",
  "free_v2",
  "free_v3",
  "launch",
  "launch_v3",
  "scale",
  "scale_v3",
  "business",
  "vercel_pg_legacy"
)

/**
 * A subscription type: one of {@link KnownBillingSubscriptionType}, or any other string a newer
 * server sends (kept as is).
 *
 * @since 0.5.0
 * @category schemas
 */
export type BillingSubscriptionType = typeof KnownBillingSubscriptionType.Type | (string & {})

/**
 * Open enum schema of {@link BillingSubscriptionType}.
 *
 * @since 0.5.0
 * @category schemas
 */
export const BillingSubscriptionType: Schema.Schema<BillingSubscriptionType> = openEnum(
  KnownBillingSubscriptionType,
  "BillingSubscriptionType"
)

/**
 * The caller's permission on a project, known today (§14.1): `CAN_VIEW`, `CAN_EDIT`,
 * `CAN_MANAGE` (viewer, editor, admin).
 *
 * @since 0.5.0
 * @category schemas
 */
export const KnownProjectPermissionLevel = Schema.Literal("CAN_VIEW", "CAN_EDIT", "CAN_MANAGE")

/**
 * A project permission level: one of {@link KnownProjectPermissionLevel}, or any other string a
 * newer server sends (kept as is).
 *
 * @since 0.5.0
 * @category schemas
 */
export type ProjectPermissionLevel = typeof KnownProjectPermissionLevel.Type | (string & {})

/**
 * Open enum schema of {@link ProjectPermissionLevel}.
 *
 * @since 0.5.0
 * @category schemas
 */
export const ProjectPermissionLevel: Schema.Schema<ProjectPermissionLevel> = openEnum(
  KnownProjectPermissionLevel,
  "ProjectPermissionLevel"
)

/**
 * The owner of a project, as a project read alone names it (§14.1): `email` and `name`, the
 * owner's `branches_limit` (a count) and `subscription_type` ({@link BillingSubscriptionType}).
 *
 * @since 0.5.0
 * @category schemas
 */
export class ProjectOwner extends Schema.Class<ProjectOwner>("ProjectOwner")({
  email: Schema.String,
  name: Schema.String,
  branches_limit: Schema.Int,
  subscription_type: BillingSubscriptionType
}) {}

/**
 * Item of `GET /projects`. The fields of §2.4 are required but `locked`, which §10.4 does not
 * list among the fields a real server always sends; the fields a real server also sends
 * are optional, so that a server sending only §2.4 decodes too. Unknown fields are ignored.
 *
 * Units, which the contract leaves open and the deployed API's reference states (observed
 * behaviour, §10.4): `cpu_used_sec` and `active_time` in seconds; `branch_logical_size_limit` in MiB;
 * `branch_logical_size_limit_bytes` in bytes; `pg_version` is the major version (14..18);
 * `history_retention_seconds` in seconds.
 *
 * Since 0.3.0 it also decodes the fields a project has where it is read one at a time
 * (`GET /projects/{project_id}` and the other project endpoints, §14), all optional, since the
 * list does not send them: `default_endpoint_settings`, the usage of the current consumption
 * period (`consumption_period_start` to `consumption_period_end`): `active_time_seconds` and
 * `compute_time_seconds` in seconds, `written_data_bytes` and `data_transfer_bytes` in bytes,
 * `data_storage_bytes_hour` in byte-hours.
 *
 * Since 0.5.0 it also decodes `settings`, the project's settings (IP allow list, blocked
 * connections, quotas...: `ProjectSettings`, §22.2), optional.
 * Since 0.5.0, a deleted project listed with `recoverable=true` (§18) has `deleted_at` and
 * `recoverable_until` (7 days after it): until then `POST /projects/{project_id}/recover` brings
 * it back.
 *
 * Since 0.5.0 also, all optional: `maintenance_starts_at` (maintenance mode from then),
 * `maintenance_scheduled_for` (a brief restart of its computes around then; a project read alone),
 * `synthetic_storage_size` (bytes), `quota_reset_at` (deprecated by the platform:
 * `consumption_period_end`), `org_name`, `hipaa_enabled_at`, `effective_project_permission` (the
 * caller's, {@link ProjectPermissionLevel}; a `null` is read as absent), and `owner`
 * ({@link ProjectOwner}; a project read alone).
 *
 * @since 0.1.0
 * @category schemas
 */
export class Project extends Schema.Class<Project>("Project")({
  id: ProjectId,
  name: Schema.String,
  platform_id: Schema.String,
  region_id: Schema.String,
  provisioner: Schema.String,
  pg_version: Schema.Int,
  locked: Schema.optional(Schema.Boolean),
  cpu_used_sec: Schema.Number,
  branch_logical_size_limit: Schema.Number,
  proxy_host: Schema.String,
  created_at: Timestamp,
  updated_at: Timestamp,
  branch_logical_size_limit_bytes: Schema.optional(Schema.Number),
  active_time: Schema.optional(Schema.Number),
  store_passwords: Schema.optional(Schema.Boolean),
  creation_source: Schema.optional(Schema.String),
  owner_id: Schema.optional(Schema.String),
  org_id: Schema.optional(Schema.String),
  history_retention_seconds: Schema.optional(Schema.Number),
  compute_last_active_at: Schema.optional(Timestamp),
  default_endpoint_settings: Schema.optional(DefaultEndpointSettings),
  active_time_seconds: Schema.optional(Schema.Number),
  compute_time_seconds: Schema.optional(Schema.Number),
  written_data_bytes: Schema.optional(Schema.Number),
  data_transfer_bytes: Schema.optional(Schema.Number),
  data_storage_bytes_hour: Schema.optional(Schema.Number),
  consumption_period_start: Schema.optional(Timestamp),
  consumption_period_end: Schema.optional(Timestamp),
  settings: Schema.optional(ProjectSettings),
  // A real server sends `null` for a project that is not deleted: read as absent.
  deleted_at: Schema.optionalWith(Timestamp, { nullable: true }),
  recoverable_until: Schema.optionalWith(Timestamp, { nullable: true }),
  maintenance_starts_at: Schema.optional(Timestamp),
  maintenance_scheduled_for: Schema.optional(Timestamp),
  synthetic_storage_size: Schema.optional(Schema.Number),
  quota_reset_at: Schema.optional(Timestamp),
  org_name: Schema.optional(Schema.String),
  hipaa_enabled_at: Schema.optional(Timestamp),
  effective_project_permission: Schema.optionalWith(ProjectPermissionLevel, { nullable: true }),
  owner: Schema.optional(ProjectOwner)
}) {}

/**
 * The kinds of application or integration a project may have installed, known today (§10.4):
 * `vercel`, `github`, `datadog`, `opentelemetry`.
 *
 * @since 0.5.0
 * @category schemas
 */
export const KnownApplicationType = Schema.Literal("vercel", "github", "datadog", "opentelemetry")

/**
 * An application type: one of {@link KnownApplicationType}, or any other string a newer server
 * sends (kept as is).
 *
 * @since 0.5.0
 * @category schemas
 */
export type ApplicationType = typeof KnownApplicationType.Type | (string & {})

/**
 * Open enum schema of {@link ApplicationType}.
 *
 * @since 0.5.0
 * @category schemas
 */
export const ApplicationType: Schema.Schema<ApplicationType> = openEnum(KnownApplicationType, "ApplicationType")

/** Project id to the applications (or integrations) installed on it. */
const InstalledByProject = Schema.Record({ key: Schema.String, value: Schema.Array(ApplicationType) })

/**
 * Answer of `GET /projects` and `GET /projects/shared`: `{ projects, pagination?,
 * unavailable_project_ids? }` (§4, §10.4, §10.6). Since 0.5.0 also `applications` and
 * `integrations`, the {@link ApplicationType}s installed on each project of the page, by project
 * id: the platform's published reference gives them to `GET /projects` always and to the shared
 * list never; optional, so that the shape of §4 (`projects` only) decodes too.
 *
 * @since 0.1.0
 * @category schemas
 */
export class ProjectsPage extends Schema.Class<ProjectsPage>("ProjectsPage")({
  projects: Schema.Array(Project),
  pagination: Schema.optional(Pagination),
  unavailable_project_ids: Schema.optional(Schema.Array(Schema.String)),
  applications: Schema.optional(InstalledByProject),
  integrations: Schema.optional(InstalledByProject)
}) {}

/**
 * Answer of `GET /projects/{project_id}`: `{ project }` (§14).
 *
 * @since 0.3.0
 * @category schemas
 */
export class ProjectEnvelope extends Schema.Class<ProjectEnvelope>("ProjectEnvelope")({
  project: Project
}) {}

/**
 * Answer of `PATCH /projects/{project_id}`: `{ project, operations }`, the project as changed
 * and the operations the change started (`apply_storage_config` for a new history retention;
 * possibly none) (§14).
 *
 * @since 0.3.0
 * @category schemas
 */
export class ProjectOperations extends Schema.Class<ProjectOperations>("ProjectOperations")({
  project: Project,
  operations: Schema.Array(Operation)
}) {}

/**
 * Answer of `DELETE /projects/{project_id}`: `{ project }`, the project as it was (§14).
 * `operations` is what the fake of `@dbplatform/testing` adds: the `delete_tenant` that deletes
 * the project's data. It cannot be awaited (its project is gone: a read of it answers 404), and
 * the published answer does not have it: absent from a real server.
 *
 * @since 0.3.0
 * @category schemas
 */
export class ProjectDeleted extends Schema.Class<ProjectDeleted>("ProjectDeleted")({
  project: Project,
  operations: Schema.optional(Schema.Array(Operation))
}) {}

/**
 * Answer of `POST /projects` (201): the project, its default branch, the read_write compute
 * endpoint on it, the role and the database created with it, the connection URIs to that
 * database (secrets `Redacted`), and the operations started: `create_timeline`, then
 * `start_compute` (§14).
 *
 * @since 0.3.0
 * @category schemas
 */
export class ProjectCreated extends Schema.Class<ProjectCreated>("ProjectCreated")({
  project: Project,
  // The fields of a branch creation's answer: the default branch is created as any branch is.
  ...BranchCreated.fields
}) {}

/**
 * Answer of `POST /projects/{project_id}/recover` (§18): `{ project, branches }`, the project
 * brought back and its branches (their compute endpoints `idle`); it starts no operations.
 *
 * @since 0.5.0
 * @category schemas
 */
export class ProjectRecovered extends Schema.Class<ProjectRecovered>("ProjectRecovered")({
  project: Project,
  branches: Schema.Array(Branch)
}) {}

/**
 * A shared preload library a project may enable (§14.5): its name (`library_name`, what
 * `settings.preload_libraries.enabled_libraries` takes), what it does (`description`), whether
 * the platform loads it when the project uses the defaults (`is_default`), whether it is
 * experimental (`is_experimental`), and its `version` (as the platform spells it).
 *
 * @since 0.5.0
 * @category schemas
 */
export class AvailablePreloadLibrary extends Schema.Class<AvailablePreloadLibrary>("AvailablePreloadLibrary")({
  library_name: Schema.String,
  description: Schema.String,
  is_default: Schema.Boolean,
  is_experimental: Schema.Boolean,
  version: Schema.String
}) {}

/**
 * Answer of `GET /projects/{project_id}/available_preload_libraries` (§14.5): `{ libraries? }`,
 * the shared preload libraries available for the project's Postgres version.
 *
 * @since 0.5.0
 * @category schemas
 */
export class AvailablePreloadLibraries extends Schema.Class<AvailablePreloadLibraries>("AvailablePreloadLibraries")({
  libraries: Schema.optional(Schema.Array(AvailablePreloadLibrary))
}) {}

/**
 * A category of an advisor's issue known today (§14.6): `SECURITY`, `PERFORMANCE`.
 *
 * @since 0.5.0
 * @category schemas
 */
export const KnownAdvisorCategory = Schema.Literal("SECURITY", "PERFORMANCE")

/**
 * A category of an advisor's issue: one of {@link KnownAdvisorCategory}, or any other string a
 * newer server sends (kept as is).
 *
 * @since 0.5.0
 * @category schemas
 */
export type AdvisorCategory = typeof KnownAdvisorCategory.Type | (string & {})

/**
 * Open enum schema of {@link AdvisorCategory}.
 *
 * @since 0.5.0
 * @category schemas
 */
export const AdvisorCategory: Schema.Schema<AdvisorCategory> = openEnum(KnownAdvisorCategory, "AdvisorCategory")

/**
 * Whether an advisor's issue is exposed through the Data API (`EXTERNAL`) or internal only
 * (`INTERNAL`), known today (§14.6).
 *
 * @since 0.5.0
 * @category schemas
 */
export const KnownAdvisorFacing = Schema.Literal("EXTERNAL", "INTERNAL")

/**
 * Open enum schema of an issue's `facing`: {@link KnownAdvisorFacing} or any other string.
 *
 * @since 0.5.0
 * @category schemas
 */
export const AdvisorFacing: Schema.Schema<typeof KnownAdvisorFacing.Type | (string & {})> = openEnum(
  KnownAdvisorFacing,
  "AdvisorFacing"
)

/**
 * One issue the project's advisor found (§14.6): `name` (the check's id, e.g.
 * `rls_disabled_in_public`), `title`, `level` (`ERROR`, `WARN` or `INFO`, a string), `facing`,
 * `categories`, `description` (what the check detects), `detail` (this occurrence), `remediation`
 * (a documentation URL), `metadata` (free-form, per check) and `cache_key`.
 *
 * @since 0.5.0
 * @category schemas
 */
export class AdvisorIssue extends Schema.Class<AdvisorIssue>("AdvisorIssue")({
  name: Schema.String,
  title: Schema.String,
  level: Schema.String,
  facing: AdvisorFacing,
  categories: Schema.Array(AdvisorCategory),
  description: Schema.String,
  detail: Schema.String,
  remediation: Schema.String,
  metadata: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  cache_key: Schema.String
}) {}

/**
 * Answer of `GET /projects/{project_id}/advisors` (§14.6): `{ issues }`.
 *
 * @since 0.5.0
 * @category schemas
 */
export class AdvisorIssues extends Schema.Class<AdvisorIssues>("AdvisorIssues")({
  issues: Schema.Array(AdvisorIssue)
}) {}

/** A project name: 1 to 256 characters (as a branch name). */
const ProjectName = BranchUpdateRequest.fields.branch.fields.name

/** History retention: 0 to 2 592 000 seconds (30 days). */
const HistoryRetention = Schema.optional(
  Schema.Int.pipe(Schema.between(0, 2_592_000)).annotations(
    withMessage("must be an integer from 0 to 2592000 (seconds)")
  )
)

/**
 * The default compute endpoint settings of a request body (§14): autoscaling limits in compute
 * units (0.25 and up), `suspend_timeout_seconds` from -1 to 604 800; since 0.5.0 `pg_settings` and
 * `pgbouncer_settings` (name to value, both strings; PgBouncer's deprecated by the platform).
 *
 * @since 0.3.0
 * @category schemas
 */
export const DefaultEndpointSettingsRequest = Schema.Struct({
  autoscaling_limit_min_cu: BranchCreateEndpoint.fields.autoscaling_limit_min_cu,
  autoscaling_limit_max_cu: BranchCreateEndpoint.fields.autoscaling_limit_max_cu,
  suspend_timeout_seconds: BranchCreateEndpoint.fields.suspend_timeout_seconds,
  pg_settings: Schema.optional(SettingsMap),
  pgbouncer_settings: Schema.optional(SettingsMap)
}).annotations({ identifier: "DefaultEndpointSettingsRequest" })

/** A region or organization id: `^[a-z0-9-]{1,60}$`. */
const Slug = Schema.optional(
  Schema.String.pipe(Schema.pattern(/^[a-z0-9-]{1,60}$/)).annotations(withMessage("must be 1 to 60 of a-z, 0-9 and -"))
)

/**
 * Body of `POST /projects` (§14): `{ project: { ... } }`, every field optional: `name` (1 to
 * 256 characters; the project's id when absent), `region_id` (`aws-us-east-2` when absent),
 * `pg_version` (14 to 18; 17 when absent), `history_retention_seconds` (0 to 2 592 000;
 * 86 400 when absent), `default_endpoint_settings`, `org_id`, `settings` (since 0.5.0:
 * `ProjectSettingsRequest`, §22.2), and `branch`: the default
 * branch's `name` (`main`), and the names of the role and database created on it
 * (`role_name`, `database_name`: 1 to 63 bytes; `neondb_owner` and `neondb`). Since 0.5.0 also
 * `provisioner`, `store_passwords` (whether the platform keeps the roles' passwords, so that it
 * can reveal them), `branch.annotations` (the default branch's annotation), and the deprecated
 * `autoscaling_limit_min_cu` and `autoscaling_limit_max_cu` (compute units, 0.25 and up: those of
 * `default_endpoint_settings` take their place).
 *
 * @since 0.3.0
 * @category schemas
 */
export const ProjectCreateRequest = Schema.Struct({
  project: Schema.Struct({
    name: ProjectName,
    region_id: Slug,
    pg_version: Schema.optional(
      Schema.Int.pipe(Schema.between(14, 18)).annotations(withMessage("must be an integer from 14 to 18"))
    ),
    history_retention_seconds: HistoryRetention,
    default_endpoint_settings: Schema.optional(DefaultEndpointSettingsRequest),
    org_id: Slug,
    settings: Schema.optional(ProjectSettingsRequest),
    branch: Schema.optional(
      Schema.Struct({
        name: ProjectName,
        role_name: Schema.optional(PostgresName),
        database_name: Schema.optional(PostgresName),
        annotations: Schema.optional(AnnotationValue)
      })
    ),
    provisioner: Schema.optional(Provisioner),
    store_passwords: Schema.optional(Schema.Boolean),
    autoscaling_limit_min_cu: Schema.optional(ComputeUnitsInput),
    autoscaling_limit_max_cu: Schema.optional(ComputeUnitsInput)
  })
}).annotations({ identifier: "ProjectCreateRequest" })

/**
 * Body of `PATCH /projects/{project_id}` (§14): `{ project: { name?, history_retention_seconds?,
 * default_endpoint_settings?, settings? } }`, the fields to change (a name of 1 to 256 characters, a
 * retention of 0 to 2 592 000 seconds; since 0.5.0 `settings`, `ProjectSettingsRequest`: each
 * field given replaces the project's, §22.2).
 *
 * @since 0.3.0
 * @category schemas
 */
export const ProjectUpdateRequest = Schema.Struct({
  project: Schema.Struct({
    name: ProjectName,
    history_retention_seconds: HistoryRetention,
    default_endpoint_settings: Schema.optional(DefaultEndpointSettingsRequest),
    settings: Schema.optional(ProjectSettingsRequest)
  })
}).annotations({ identifier: "ProjectUpdateRequest" })
