/**
 * Projects, as the project list reports them (`docs/contract.md` §2.4, §4, §10.4).
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { ProjectId } from "./Ids.js"
import { Pagination } from "./Pagination.js"
import { Timestamp } from "./Timestamp.js"

/**
 * Item of `GET /projects`. The fields of §2.4 are required but `locked`, which §10.4 does not
 * list among the fields a real server always sends; the fields a real server also sends
 * are optional, so that a server sending only §2.4 decodes too. Unknown fields are ignored.
 *
 * Units, which the contract leaves open and the deployed API's reference states (observed
 * behaviour, §10.4): `cpu_used_sec` and `active_time` in seconds; `branch_logical_size_limit` in MiB;
 * `branch_logical_size_limit_bytes` in bytes; `pg_version` is the major version (14..18).
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
  compute_last_active_at: Schema.optional(Timestamp)
}) {}

/**
 * Answer of `GET /projects`: `{ projects, pagination?, unavailable_project_ids? }`. Other
 * fields a real server sends (`applications`, `integrations`) are ignored.
 *
 * @since 0.1.0
 * @category schemas
 */
export class ProjectsPage extends Schema.Class<ProjectsPage>("ProjectsPage")({
  projects: Schema.Array(Project),
  pagination: Schema.optional(Pagination),
  unavailable_project_ids: Schema.optional(Schema.Array(Schema.String))
}) {}
