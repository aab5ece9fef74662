/**
 * The kinds of record of the Projects group the fake keeps (`engine/kinds.ts`): each one's shape as a
 * `Snapshot` holds it, and its entry of the table of kinds (`internal/kinds.ts`).
 */
import {
  Api,
  DecodeIssue,
  DefaultEndpointSettingsRequest,
  Project as WireProject,
  ProjectId,
  ProjectSettingsRequest
} from "@dbplatform/core"
import * as Schema from "effect/Schema"
import * as Struct from "effect/Struct"
import { defaultOrgId, kind, newestFirst, refusalOf, SnapshotTime } from "../../engine/kinds.js"

/**
 * A project (the fields the fake keeps; the others are derived when it is listed). Since 0.3.0
 * also, each optional (a project saved before has the defaults): `updated_at` (its
 * `created_at`), `history_retention_seconds` (86 400: a day) and `default_endpoint_settings`
 * (those of a compute endpoint created without settings: 0.25 compute units, suspend timeout 0;
 * since 0.5.0 also the `pg_settings` and `pgbouncer_settings` its new compute endpoints get).
 * Since 0.5.0, `deleted_at`: a deleted project is kept, with everything under it, hidden from
 * every read but `GET /projects?recoverable=true`, until it is recovered or its 7 days of
 * recovery pass (docs/contract.md §18). Core's `Project` as the fake keeps it: the fields it
 * keeps (those derived when listed are not), `id` a plain string its `check` reads (a bad one
 * is a problem of a seed named with the others, not a failure to decode), times in epoch ms,
 * and its settings as requests gave them.
 */
export const SnapshotProject = Schema.Struct({
  id: Schema.String,
  ...Struct.pick(WireProject.fields, "name", "region_id", "platform_id", "provisioner", "pg_version", "org_id"),
  shared: Schema.optional(Schema.Boolean),
  created_at: SnapshotTime,
  updated_at: Schema.optional(SnapshotTime),
  history_retention_seconds: Schema.optional(Schema.Int.pipe(Schema.between(0, 2_592_000))),
  default_endpoint_settings: Schema.optional(
    Schema.Struct({
      autoscaling_limit_min_cu: Schema.optional(Schema.Number),
      autoscaling_limit_max_cu: Schema.optional(Schema.Number),
      suspend_timeout_seconds: Schema.optional(Schema.Int),
      // Since 0.5.0, as a request gave them (core's schema of them).
      ...DefaultEndpointSettingsRequest.pick("pg_settings", "pgbouncer_settings").fields
    })
  ),
  /** Since 0.5.0: the project's settings as requests gave them (docs/contract.md §22.2); none: absent. */
  settings: Schema.optional(Schema.typeSchema(ProjectSettingsRequest)),
  /**
   * Since 0.5.0: the integration installed on the project (`github`, `vercel`), which a transfer
   * between organizations refuses (docs/contract.md §22.4); the fake installs none itself.
   */
  integration: Schema.optional(Schema.String),
  deleted_at: Schema.optional(SnapshotTime),
  /**
   * Since 0.5.0: whether the platform keeps the passwords of the project's roles, so that it can
   * reveal them (docs/contract.md §14.2, §15.2); absent: it does.
   */
  store_passwords: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "SnapshotProject" })

type Project = typeof SnapshotProject.Type

const projectProblems = (project: Project): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const refused = refusalOf(ProjectId, project.id)
  if (refused !== undefined) problems.push(`project "${DecodeIssue.excerpt(project.id)}": ${refused}`)
  const org = project.org_id === undefined ? undefined : refusalOf(Api.OrgId, project.org_id)
  if (org !== undefined) problems.push(`project ${project.id}: org_id ${org}`)
  // A seed built in code may hold anything.
  if (project.shared !== undefined && typeof project.shared !== "boolean") {
    problems.push(`project ${project.id}: shared must be true or false, got ${typeof project.shared}`)
  }
  return problems
}

export const projects = kind({
  label: "project",
  schema: SnapshotProject,
  id: Schema.String,
  idOf: (project) => project.id,
  rank: newestFirst,
  check: projectProblems,
  // A project saved without `org_id` (before 0.2.0) belongs to the default organization.
  upgrade: (project) => (project.org_id === undefined ? { ...project, org_id: defaultOrgId } : project)
})

declare module "../../engine/kinds.js" {
  interface Kinds {
    readonly projects: typeof projects
  }
}
