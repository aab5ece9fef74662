/**
 * What the fake's project routes do (docs/contract.md §14): each mutation a pure step over the
 * state (`engine/state.ts` `Mutation`), its changes, its answer and the operations it starts following
 * from the same step; and the project as those routes answer it.
 *
 * - Creating a project makes its default branch (`main`) with a read_write compute endpoint (with
 *   the project's default endpoint settings), through `branches.ts` `createBranch`, then a role
 *   (`{database_name}_owner`, `neondb_owner` by default, with a generated password) and a
 *   database (`neondb`) owned by it on that branch. It starts `create_timeline` (the branch is `ready` when it ends), then
 *   `start_compute` (the compute endpoint is `active` when it ends).
 * - Changing a project's history retention starts `apply_storage_config`; a new name or default
 *   endpoint settings start nothing. A mutation of a project with a pending operation answers 423
 *   and changes nothing.
 * - Deleting a project hides it and everything under it at once (branches, compute endpoints,
 *   roles, databases, operations), so every later read of it answers 404; its compute endpoints
 *   are suspended. It is kept, with `deleted_at`, for the 7 days it can be recovered (listed by
 *   `GET /projects?recoverable=true`, brought back by `POST /projects/{project_id}/recover`), then
 *   the control plane purges it (`engine/state.ts` `cascade`; docs/contract.md §18). The delete's answer
 *   carries a `delete_tenant` operation, which no read can reach: it is of a project that is
 *   gone, so it is not kept.
 */
import { Project } from "@dbplatform/core"
import * as DateTime from "effect/DateTime"
import type { DefaultEndpointSettingsRequest, ProjectCreateRequest, ProjectUpdateRequest } from "@dbplatform/core"
import * as Either from "effect/Either"
import { createBranch, defaultBranch } from "../Branches/steps.js"
import { type Dice, databaseId, slug } from "../../engine/ids.js"
import { type Change, defaultOrgId, present, upsert } from "../../engine/kinds.js"
import { organizationImplied } from "../Organizations/steps.js"
import { isDeleted } from "../../engine/lifecycle.js"
import { type OperationToStart, startOperations, starter } from "../../engine/operations.js"
import {
  apply,
  distinctTime,
  get,
  itemsOf,
  type Mutation,
  type StoredBranch,
  type StoredDatabase,
  type StoredOperation,
  type StoredProject,
  type StoredRole,
  freshId
} from "../../engine/state.js"
import { newPassword } from "../Roles/steps.js"
import { Status } from "../../engine/status.js"
import { projectOf, type BranchCreation } from "../../engine/wire.js"
import { refused, type Refusal } from "../../engine/refusal.js"
import { unlockedProject } from "../../engine/records.js"

/**
 * What a project created without them gets (docs/contract.md §14): its region, Postgres major
 * version, history retention (seconds: a day), and the names of its default branch, and of the
 * role and database made on it.
 */
export const projectDefaults = {
  region_id: "aws-us-east-2",
  pg_version: 17,
  history_retention_seconds: 86_400,
  branch_name: "main",
  role_name: "neondb_owner",
  database_name: "neondb"
} as const

/** Compute endpoint settings, as a request gives them (each optional): core's `DefaultEndpointSettingsRequest`. */
export type EndpointSettings = typeof DefaultEndpointSettingsRequest.Type

/** A project's settings as a request gives them (docs/contract.md §22.2). */
export type Settings = NonNullable<StoredProject["settings"]>

/** The audit log levels the platform takes (docs/contract.md §22.2). */
const auditLogLevels: ReadonlyArray<string> = ["base", "extended", "full"]

/**
 * `given` over the project's settings `before` (none for a new project): each field given
 * replaces the project's (docs/contract.md §22.2). 400 for an audit log level the platform does
 * not take, for logical replication or HIPAA turned off once on (they cannot be), and for a
 * maintenance window that ends when it starts.
 */
export const settingsAfter = (
  before: Settings | undefined,
  given: Settings | undefined
): Either.Either<Settings | undefined, Refusal> => {
  if (given === undefined) return Either.right(before)
  const level = given.audit_log_level
  if (level !== undefined && !auditLogLevels.includes(level)) {
    return refused(Status.badRequest, `settings.audit_log_level: must be one of ${auditLogLevels.join(", ")}`)
  }
  for (const field of ["enable_logical_replication", "hipaa"] as const) {
    if (before?.[field] === true && given[field] === false) {
      return refused(Status.badRequest, `settings.${field}: once enabled, it cannot be disabled`)
    }
  }
  const window = given.maintenance_window
  if (window !== undefined && window.start_time === window.end_time) {
    return refused(Status.badRequest, "settings.maintenance_window: end_time must differ from start_time")
  }
  return Either.right(present({ ...before, ...present(given) }))
}

/** What `POST /projects` creates: core's body's `project`. */
export type ProjectToCreate = (typeof ProjectCreateRequest.Type)["project"]

/**
 * The default endpoint settings a creation asks for: `default_endpoint_settings`, its limits
 * those of the deprecated top-level `autoscaling_limit_min_cu` and `autoscaling_limit_max_cu`
 * where it has none.
 */
const endpointSettingsOf = (request: ProjectToCreate): EndpointSettings | undefined => {
  const settings = present({
    autoscaling_limit_min_cu: request.autoscaling_limit_min_cu,
    autoscaling_limit_max_cu: request.autoscaling_limit_max_cu,
    ...present(request.default_endpoint_settings ?? {})
  })
  return Object.keys(settings).length === 0 ? undefined : settings
}

/** 400 when the settings' minimum is above their maximum (compute units). */
const checkSettings = (settings: EndpointSettings | undefined): Either.Either<void, Refusal> => {
  const min = settings?.autoscaling_limit_min_cu
  const max = settings?.autoscaling_limit_max_cu
  return min !== undefined && max !== undefined && min > max
    ? refused(
        Status.badRequest,
        `default_endpoint_settings: autoscaling_limit_min_cu (${min}) must not be more than autoscaling_limit_max_cu (${max})`
      )
    : Either.void
}

/**
 * Creates a project (docs/contract.md §14) with the defaults of {@link projectDefaults}, a
 * fresh id like the platform's (`spring-example-302709`), its default branch, compute endpoint,
 * role and database; 400 for default endpoint settings whose minimum is above their maximum.
 */
export const createProject =
  (request: ProjectToCreate, dice: Dice): Mutation<BranchCreation, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const endpointSettings = endpointSettingsOf(request)
      yield* checkSettings(endpointSettings)
      const settings = yield* settingsAfter(undefined, request.settings)
      const id = freshId(state, "projects", () => slug(dice))
      const created = distinctTime(state, "projects", "", now)
      const region = request.region_id ?? projectDefaults.region_id
      const project: StoredProject = present({
        id,
        name: request.name ?? id,
        region_id: region,
        platform_id: region.split("-")[0]!,
        provisioner: request.provisioner ?? "k8s-neonvm",
        pg_version: request.pg_version ?? projectDefaults.pg_version,
        org_id: request.org_id ?? defaultOrgId,
        created_at: created,
        updated_at: created,
        history_retention_seconds: request.history_retention_seconds ?? projectDefaults.history_retention_seconds,
        default_endpoint_settings: endpointSettings,
        settings,
        store_passwords: request.store_passwords
      })
      const withProject = apply(state, upsert("projects", project))
      const made = yield* createBranch(
        id,
        {
          name: request.branch?.name ?? projectDefaults.branch_name,
          annotation_value: request.branch?.annotations,
          endpoints: [{ type: "read_write" }],
          action: "create_timeline"
        },
        dice
      )(withProject, now)
      const { branch } = made.answer
      const databaseName = request.branch?.database_name ?? projectDefaults.database_name
      // The document: `{database_name}_owner` when no role name is given.
      const roleName = request.branch?.role_name ?? `${databaseName}_owner`
      const role: StoredRole = {
        id: `${branch.id}/${roleName}`,
        project_id: id,
        branch_id: branch.id,
        name: roleName,
        password: newPassword(dice),
        protected: false,
        created_at: branch.created_at,
        updated_at: branch.created_at
      }
      const database: StoredDatabase = {
        id: freshId(state, "databases", () => databaseId(dice)),
        project_id: id,
        branch_id: branch.id,
        name: databaseName,
        owner_name: roleName,
        created_at: branch.created_at,
        updated_at: branch.created_at
      }
      return {
        changes: [
          ...organizationImplied(state, project.org_id ?? defaultOrgId, created),
          upsert("projects", project),
          ...made.changes,
          upsert("roles", role),
          upsert("databases", database)
        ],
        answer: {
          project,
          branch,
          endpoints: made.answer.endpoints,
          roles: [role],
          databases: [database],
          operations: made.answer.operations
        }
      }
    })

/** What `PATCH /projects/{project_id}` changes: core's body's `project`. */
export type ProjectToUpdate = (typeof ProjectUpdateRequest.Type)["project"]

/** What a project mutation answers: the project and the operations it started. */
export interface ProjectChange {
  readonly project: StoredProject
  readonly operations: ReadonlyArray<StoredOperation>
}

/** The history retention of a project, in seconds. */
const retentionOf = (project: StoredProject): number =>
  project.history_retention_seconds ?? projectDefaults.history_retention_seconds

/**
 * Renames a project, changes its history retention or its default compute endpoint settings
 * (merged into those it has; 400 when the minimum ends up above the maximum) (docs/contract.md
 * §14). A new retention starts `apply_storage_config` (on the default branch); the rest none.
 */
export const updateProject =
  (projectId: string, update: ProjectToUpdate, dice: Dice): Mutation<ProjectChange, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const project = yield* unlockedProject(state, projectId, now)
      const settings =
        update.default_endpoint_settings === undefined
          ? project.default_endpoint_settings
          : present({ ...project.default_endpoint_settings, ...present(update.default_endpoint_settings) })
      yield* checkSettings(settings)
      const projectSettings = yield* settingsAfter(project.settings, update.settings)
      const retention = update.history_retention_seconds
      const changed: StoredProject = present({
        ...project,
        name: update.name ?? project.name,
        history_retention_seconds: retention ?? project.history_retention_seconds,
        default_endpoint_settings: settings,
        settings: projectSettings,
        updated_at: Math.max(now, project.updated_at ?? project.created_at)
      })
      const starts: Array<OperationToStart> =
        retention === undefined || retention === retentionOf(project)
          ? []
          : [starter(state, dice)("apply_storage_config", defaultBranch(state, projectId)?.id ?? "")]
      const started = startOperations(state, projectId, starts, now)
      return {
        changes: [upsert("projects", changed), ...started.changes],
        answer: { project: changed, operations: started.operations }
      }
    })

/**
 * Deletes a project and everything under it (docs/contract.md §14, §18): 404 for an unknown one,
 * 423 while it has a pending operation. It is kept with `deleted_at` for its recovery window,
 * hidden from every read, its compute endpoints suspended now. Answers the project as it was and
 * its `delete_tenant` operation, as it is at the deletion (not kept: its project is gone).
 */
export const deleteProject =
  (projectId: string, dice: Dice): Mutation<ProjectChange, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const project = yield* unlockedProject(state, projectId, now)
      // Of the project's data, not of one branch: no `branch_id`.
      const tenant = { ...starter(state, dice)("delete_tenant", ""), branch_id: undefined }
      const { operations } = startOperations(state, projectId, [tenant], now)
      const changes: Array<Change> = [upsert("projects", { ...project, deleted_at: now })]
      for (const branch of itemsOf(state, "branches", projectId)) {
        for (const endpoint of itemsOf(state, "endpoints", branch.id)) {
          const running = endpoint.suspended_at === undefined || endpoint.suspended_at < endpoint.active_at
          if (running)
            changes.push(upsert("endpoints", { ...endpoint, suspended_at: Math.max(now, endpoint.active_at) }))
        }
      }
      return { changes, answer: { project, operations } }
    })

/** What a recovery answers: the project and its branches. */
export interface ProjectRecovery {
  readonly project: StoredProject
  readonly branches: ReadonlyArray<StoredBranch>
}

/**
 * Recovers a deleted project within its 7 days (docs/contract.md §18): it and everything under
 * it are back as they were at its deletion, its compute endpoints `idle` (a connection or a
 * start wakes them); no operation. 404 for a project the account does not have (never, or
 * purged after its window), 409 for one that is not deleted.
 */
export const recoverProject =
  (projectId: string): Mutation<ProjectRecovery, Refusal> =>
  (state, now) => {
    const project = get(state, "projects", projectId)
    if (project === undefined) return refused(Status.notFound, "project not found")
    if (!isDeleted(project)) return refused(Status.conflict, `project ${projectId} is not deleted`)
    const { deleted_at: _, ...kept } = project
    const recovered: StoredProject = { ...kept, updated_at: Math.max(now, project.updated_at ?? project.created_at) }
    return Either.right({
      changes: [upsert("projects", recovered)],
      answer: { project: recovered, branches: Array.from(itemsOf(state, "branches", projectId)) }
    })
  }

/** The first millisecond of the calendar month (UTC) of `now`, and of the month after it. */
const monthOf = (now: number) => {
  const start = DateTime.startOf(DateTime.unsafeMake(now), "month")
  return [start, DateTime.add(start, { months: 1 })] as const
}

/**
 * A project as a real server answers it alone (`GET /projects/{project_id}` and the other
 * project endpoints, docs/contract.md §14): as listed (`engine/wire.ts` `projectOf`), with the usage
 * of the current consumption period (the calendar month of `now`; all 0 in the fake).
 */
export const projectAt = (project: StoredProject, now: number): Project => {
  const [start, end] = monthOf(now)
  return new Project(
    {
      ...projectOf(project),
      active_time_seconds: 0,
      compute_time_seconds: 0,
      written_data_bytes: 0,
      data_transfer_bytes: 0,
      data_storage_bytes_hour: 0,
      consumption_period_start: start,
      consumption_period_end: end
    },
    true
  )
}
