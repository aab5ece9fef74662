/**
 * The fake's answers as core's typed values (`Operation`, `Project`, `ApiKey`...), which the
 * routes encode with the endpoint's `success` schema (`docs/design.md` §1): what the fake sends
 * is what core declares, which is what the published document declares (`docs/design.md` §1.4).
 */
import {
  ApiKey,
  ApiKeyCreated,
  ApiKeyCreator,
  ApiKeyId,
  ApiKeyRevoked,
  BranchId,
  EndpointId,
  GeneralError,
  isPending,
  Operation,
  OperationEnvelope,
  OperationId,
  OperationsPage,
  OperationsStarted,
  Pagination,
  Project,
  ProjectId,
  ProjectsPage,
  Annotation,
  Branch,
  BranchCreated,
  BranchEnvelope,
  BranchesCount,
  BranchesPage,
  BranchOperations,
  BranchRecovery,
  ComputeEndpoint,
  ComputeEndpoints,
  ComputeEndpointSettings,
  type ConnectionDetails,
  CursorPagination,
  Database,
  DefaultEndpointSettings,
  ProjectSettings,
  Role
} from "@dbplatform/core"
import * as DateTime from "effect/DateTime"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { present } from "./kinds.js"
import { recoverableUntil, recoveryWindow } from "./lifecycle.js"
import { stepAt } from "./operations.js"
import type {
  StoredBranch,
  StoredDatabase,
  StoredEndpoint,
  StoredKey,
  StoredOperation,
  StoredProject,
  StoredRole
} from "./state.js"
import { accountUser } from "./caller.js"

/**
 * The uuid of the fake account's user (`GET /users/me`, docs/contract.md §20), `created_by` of
 * every key and `owner_id` of every project of its own.
 */
export const userId: string = accountUser.id

/** The uuid of the user of another account, `owner_id` of every project shared with the fake's (§10.6). */
export const sharingUserId = "9e4c2f61-7a0b-4d8e-b1c3-5f2a6d8e0b47"

/** The fake account's user, as `GET /api_keys` names a key's creator (docs/contract.md §10.3). */
const user = new ApiKeyCreator({ id: userId, name: `${accountUser.name} ${accountUser.last_name}`, image: "" })

/**
 * Values are built without checking them (`unchecked`): encoding the answer with the endpoint's
 * schema checks every field anyway (a value it refuses is a bug of the fake, answered 500), and
 * checking twice made a page of 1000 operations ten times slower to answer.
 */
export const unchecked = true

/** Epoch ms as a `Timestamp`. */
export const at = (ms: number): DateTime.Utc => DateTime.unsafeMake(ms)

const optional = <A, B>(value: A | undefined, f: (value: A) => B): B | undefined =>
  value === undefined ? undefined : f(value)

/**
 * An operation as a real server sends it at `now` (docs/contract.md §2.5, §10.5): its status
 * and `updated_at` those of the step in force, `total_duration_ms` up to its end (or now), and
 * `error` and `retry_at` only once it has ended.
 */
export const operationAt = (operation: StoredOperation, now: number): Operation => {
  const step = stepAt(operation, now)
  const done = !isPending(step)
  return new Operation(
    present({
      id: OperationId.make(operation.id, unchecked),
      project_id: ProjectId.make(operation.project_id, unchecked),
      branch_id: optional(operation.branch_id, (id) => BranchId.make(id, unchecked)),
      endpoint_id: optional(operation.endpoint_id, (id) => EndpointId.make(id, unchecked)),
      action: operation.action,
      status: step.status,
      failures_count: operation.failures_count,
      created_at: at(operation.created_at),
      updated_at: at(step.at),
      total_duration_ms: Math.max(0, (done ? step.at : now) - operation.created_at),
      error: done ? operation.error : undefined,
      retry_at: done ? optional(operation.retry_at, at) : undefined
    }),
    unchecked
  )
}

/**
 * A project as a real server lists it (docs/contract.md §2.4, §10.4), with the settings its new
 * compute endpoints get (§14).
 */
export const projectOf = (project: StoredProject): Project =>
  new Project(
    present({
      id: ProjectId.make(project.id, unchecked),
      name: project.name,
      platform_id: project.platform_id,
      region_id: project.region_id,
      provisioner: project.provisioner,
      pg_version: project.pg_version,
      locked: false,
      cpu_used_sec: 0,
      branch_logical_size_limit: 512,
      branch_logical_size_limit_bytes: 512 * 1024 * 1024,
      proxy_host: `${project.region_id}.dbplatform.test`,
      created_at: at(project.created_at),
      updated_at: at(project.updated_at ?? project.created_at),
      active_time: 0,
      store_passwords: project.store_passwords ?? true,
      creation_source: "console",
      owner_id: project.shared === true ? sharingUserId : userId,
      org_id: project.org_id,
      // A project kept before 0.3.0 has the platform's default: a day.
      history_retention_seconds: project.history_retention_seconds ?? 86400,
      default_endpoint_settings: new DefaultEndpointSettings(
        present({
          ...endpointDefaultsOf(project),
          pg_settings: project.default_endpoint_settings?.pg_settings,
          pgbouncer_settings: project.default_endpoint_settings?.pgbouncer_settings
        }),
        unchecked
      ),
      // What a project without settings of its own has (docs/contract.md §22.2), then its own.
      settings: settingsOf({ ...settingsDefaults, ...project.settings }),
      // A deleted project, listed with `recoverable=true` (docs/contract.md §18).
      deleted_at: optional(project.deleted_at, at),
      recoverable_until: optional(recoverableUntil(project), at)
    }),
    unchecked
  )

/** The pagination of a page whose next one starts after `cursor` (epoch ms, docs/contract.md §2.6). */
const paginationAfter = (cursor: number) => new Pagination({ cursor: DateTime.formatIso(at(cursor)) }, unchecked)

/** A page of `GET /projects/{project_id}/operations` at `now` (docs/contract.md §2.5, §2.6). */
export const operationsPage = (operations: ReadonlyArray<StoredOperation>, cursor: number, now: number) =>
  new OperationsPage(
    { operations: operations.map((operation) => operationAt(operation, now)), pagination: paginationAfter(cursor) },
    unchecked
  )

/** The answer of `GET /projects/{project_id}/operations/{operation_id}` at `now`. */
export const operationEnvelope = (operation: StoredOperation, now: number) =>
  new OperationEnvelope({ operation: operationAt(operation, now) }, unchecked)

/** What a mutating request answers: the operations it started, as they are `now` (docs/contract.md §4). */
export const operationsStarted = (operations: ReadonlyArray<StoredOperation>, now: number) =>
  new OperationsStarted({ operations: operations.map((operation) => operationAt(operation, now)) }, unchecked)

/**
 * A page of `GET /projects` (docs/contract.md §2.4, §2.6, §10.4): no project of the fake has an
 * application or integration installed, so `applications` and `integrations` are empty.
 */
export const projectsPage = (projects: ReadonlyArray<StoredProject>, cursor: number) =>
  new ProjectsPage(
    { projects: projects.map(projectOf), pagination: paginationAfter(cursor), applications: {}, integrations: {} },
    unchecked
  )

/** A page of `GET /projects/shared` (docs/contract.md §10.6): without `applications` and `integrations`. */
export const sharedProjectsPage = (projects: ReadonlyArray<StoredProject>, cursor: number) =>
  new ProjectsPage({ projects: projects.map(projectOf), pagination: paginationAfter(cursor) }, unchecked)

/** The answer to `POST /api_keys`, with the key's value shown this once (docs/contract.md §2.1, §10.3). */
export const apiKeyCreated = (key: StoredKey, value: string): ApiKeyCreated =>
  new ApiKeyCreated(
    {
      id: ApiKeyId.make(key.id, unchecked),
      key: Redacted.make(value),
      name: key.name,
      created_at: at(key.created_at),
      created_by: userId
    },
    unchecked
  )

/** A key as `GET /api_keys` lists it (docs/contract.md §2.2, §10.3). */
export const apiKeyListed = (key: StoredKey): ApiKey =>
  new ApiKey(
    {
      id: ApiKeyId.make(key.id, unchecked),
      name: key.name,
      created_at: at(key.created_at),
      created_by: user,
      last_used_at: Option.map(Option.fromNullable(key.last_used_at), at),
      last_used_from_addr: key.last_used_from_addr
    },
    unchecked
  )

/** A key as `DELETE /api_keys/{key_id}` answers (docs/contract.md §2.3, §10.3). */
export const apiKeyRevoked = (key: StoredKey): ApiKeyRevoked =>
  new ApiKeyRevoked(
    {
      id: ApiKeyId.make(key.id, unchecked),
      name: key.name,
      revoked: key.revoked,
      created_at: at(key.created_at),
      created_by: userId,
      last_used_at: Option.map(Option.fromNullable(key.last_used_at), at),
      last_used_from_addr: key.last_used_from_addr
    },
    unchecked
  )

/**
 * A project's settings as the client decodes them (their nested values `Data`, equal by
 * content: a scenario's answer equals the decoded one).
 */
const settingsOf = Schema.decodeSync(ProjectSettings)

/** The settings a project answers when it has none of its own: every IP allowed, no logical replication. */
const settingsDefaults = { allowed_ips: { ips: [], protected_branches_only: false }, enable_logical_replication: false }

const encodeGeneralError = Schema.encodeSync(GeneralError)

/**
 * The body of every error answer: core's `GeneralError` (docs/contract.md §10.1), `code` `""`
 * unless given, `request_id` the request's `X-Request-ID` (a new UUID without one).
 */
export const errorBody = (fields: {
  readonly code?: string | undefined
  readonly message: string
  readonly requestId: string | undefined
}) =>
  encodeGeneralError(
    new GeneralError({
      code: fields.code ?? "",
      message: fields.message,
      request_id: fields.requestId ?? crypto.randomUUID()
    })
  )

/** The host of the fake's compute endpoints in a project's region, e.g. `aws-us-east-2.dbplatform.test`. */
const proxyHost = (project: StoredProject) => `${project.region_id}.dbplatform.test`

/**
 * Where a client connects to the compute endpoint `endpointId`: its id under the project's region
 * host, e.g. `ep-proud-mud-a5x8dq2u.aws-us-east-2.dbplatform.test`; through the connection pooler
 * (`pooled`), `-pooler` after the id (docs/contract.md §13.1).
 */
export const endpointHost = (endpointId: string, project: StoredProject, pooled = false) =>
  `${endpointId}${pooled ? "-pooler" : ""}.${proxyHost(project)}`

/**
 * A branch as a real server sends it at `now` (docs/contract.md §11): `init` until its
 * `create_branch` operation ends (`ready_at`), `ready` from then on; usage counters at 0. A
 * deleted one (with `deleted_at`, listed with `include_deleted`, §18.1) has its `recovery`.
 */
export const branchAt = (
  branch: StoredBranch & { readonly deleted_at?: number; readonly deletion_method?: string },
  now: number
): Branch => {
  const ready = now >= branch.ready_at
  // Created archived: in archival storage once made (docs/contract.md §18).
  const settled = branch.archived === true ? "archived" : "ready"
  return new Branch(
    present({
      id: BranchId.make(branch.id, unchecked),
      project_id: ProjectId.make(branch.project_id, unchecked),
      parent_id: optional(branch.parent_id, (id) => BranchId.make(id, unchecked)),
      parent_timestamp: branch.parent_id === undefined ? undefined : at(branch.parent_timestamp ?? branch.created_at),
      parent_lsn: branch.parent_id === undefined ? undefined : branch.parent_lsn,
      name: branch.name,
      current_state: ready ? settled : "init",
      pending_state: ready ? undefined : settled,
      state_changed_at: at(ready ? branch.ready_at : branch.created_at),
      creation_source: "console",
      init_source: branch.init_source ?? "parent-data",
      expires_at: optional(branch.expires_at, at),
      ttl_interval_seconds: branch.ttl_interval_seconds,
      default: branch.default,
      protected: branch.protected,
      created_at: at(branch.created_at),
      updated_at: at(branch.updated_at),
      logical_size: 0,
      cpu_used_sec: 0,
      active_time_seconds: 0,
      compute_time_seconds: 0,
      written_data_bytes: 0,
      data_transfer_bytes: 0,
      // Restored from a snapshot (docs/contract.md §19).
      restore_status: branch.restore_status,
      restored_from: branch.restored_from,
      restored_as: branch.restored_as,
      last_reset_at: optional(branch.last_reset_at, at),
      recovery:
        branch.deleted_at === undefined
          ? undefined
          : new BranchRecovery(
              {
                deleted_at: at(branch.deleted_at),
                recoverable_until: at(branch.deleted_at + recoveryWindow),
                deletion_method: branch.deletion_method ?? "user"
              },
              unchecked
            )
    }),
    unchecked
  )
}

/**
 * A compute endpoint as a real server sends it at `now` (docs/contract.md §11, §12): `init` until
 * its first `start_compute` operation ends, then `active` or `idle` (
 * {@link endpointStateAt}), with `pending_state` while an operation changes it; its host is its id
 * under the project's region host.
 */
export const computeEndpointAt = (endpoint: StoredEndpoint, project: StoredProject, now: number): ComputeEndpoint => {
  const { current, pending } = endpointStateAt(endpoint, now)
  const started = endpoint.active_at <= now ? endpoint.active_at : undefined
  const suspended =
    endpoint.suspended_at !== undefined && endpoint.suspended_at <= now ? endpoint.suspended_at : undefined
  const lastActive = Math.max(
    started ?? 0,
    endpoint.last_active !== undefined && endpoint.last_active <= now ? endpoint.last_active : 0
  )
  return new ComputeEndpoint(
    present({
      id: EndpointId.make(endpoint.id, unchecked),
      host: endpointHost(endpoint.id, project),
      project_id: ProjectId.make(endpoint.project_id, unchecked),
      branch_id: BranchId.make(endpoint.branch_id, unchecked),
      region_id: project.region_id,
      type: endpoint.type,
      current_state: current,
      pending_state: pending,
      autoscaling_limit_min_cu: endpoint.autoscaling_limit_min_cu,
      autoscaling_limit_max_cu: endpoint.autoscaling_limit_max_cu,
      suspend_timeout_seconds: endpoint.suspend_timeout_seconds,
      // Kept as a request gave them (docs/contract.md §12); the platform's defaults otherwise.
      pooler_enabled: endpoint.pooler_enabled ?? false,
      pooler_mode: endpoint.pooler_mode ?? "transaction",
      disabled: endpoint.disabled ?? false,
      passwordless_access: endpoint.passwordless_access ?? true,
      creation_source: "console",
      created_at: at(endpoint.created_at),
      updated_at: at(endpoint.updated_at),
      started_at: optional(started, at),
      suspended_at: optional(suspended, at),
      last_active: lastActive === 0 ? undefined : at(lastActive),
      proxy_host: proxyHost(project),
      provisioner: endpoint.provisioner ?? project.provisioner,
      settings: new ComputeEndpointSettings(endpoint.settings ?? {}, unchecked),
      name: endpoint.name
    }),
    unchecked
  )
}

/**
 * A branch's annotation (docs/contract.md §11.4): the values its creation gave
 * (`annotation_value`), made with it; a branch created without one has none, answered empty.
 */
const annotationOf = (branch: StoredBranch) =>
  new Annotation(
    branch.annotation_value === undefined
      ? { object: { type: "console/branch", id: branch.id }, value: {} }
      : {
          object: { type: "console/branch", id: branch.id },
          value: branch.annotation_value,
          created_at: at(branch.created_at),
          updated_at: at(branch.created_at)
        },
    unchecked
  )

/** The answer of `GET /projects/{project_id}/branches/{branch_id}`: the branch and its annotation. */
export const branchEnvelope = (branch: StoredBranch, now: number) =>
  new BranchEnvelope({ branch: branchAt(branch, now), annotation: annotationOf(branch) }, unchecked)

/** What a branch mutation answers: the branch and the operations it started, as they are `now`. */
export const branchOperations = (branch: StoredBranch, operations: ReadonlyArray<StoredOperation>, now: number) =>
  new BranchOperations(
    { branch: branchAt(branch, now), operations: operations.map((operation) => operationAt(operation, now)) },
    unchecked
  )

/**
 * A role as a real server sends it (docs/contract.md §15.2): with its `password` only where
 * `withPassword` (a create, a reset), `Redacted`.
 */
export const roleAt = (role: StoredRole, withPassword: boolean): Role =>
  new Role(
    {
      branch_id: BranchId.make(role.branch_id, unchecked),
      name: role.name,
      // A role that cannot log in has no password (docs/contract.md §15.2).
      ...(withPassword && role.no_login !== true ? { password: Redacted.make(role.password) } : {}),
      protected: role.protected,
      authentication_method: role.no_login === true ? "no_login" : "password",
      created_at: at(role.created_at),
      updated_at: at(role.updated_at)
    },
    unchecked
  )

/** A database as a real server sends it (docs/contract.md §15.1). */
export const databaseAt = (database: StoredDatabase): Database =>
  new Database(
    {
      id: database.id,
      branch_id: BranchId.make(database.branch_id, unchecked),
      name: database.name,
      owner_name: database.owner_name,
      created_at: at(database.created_at),
      updated_at: at(database.updated_at)
    },
    unchecked
  )

/**
 * What a creation answers of what it made, as a real server sends it at `now` (a branch's,
 * docs/contract.md §11.4, §13.2; a project's, §14.2): the branch, its compute endpoints, the
 * operations started, its roles (with their passwords only where `passwords`: a project's
 * creation shows its role's once) and databases.
 */
export const createdParts = (created: BranchCreation, now: number, passwords: boolean) => ({
  branch: branchAt(created.branch, now),
  endpoints: created.endpoints.map((endpoint) => computeEndpointAt(endpoint, created.project, now)),
  operations: created.operations.map((operation) => operationAt(operation, now)),
  roles: created.roles.map((role) => roleAt(role, passwords)),
  databases: created.databases.map(databaseAt)
})

/**
 * The answer of `POST /projects/{project_id}/branches` (docs/contract.md §11.4, §13.2): its
 * {@link createdParts}, roles without passwords, and `connection_uris` when there are any (the
 * password travels there only).
 */
export const branchCreated = (created: BranchCreation, connections: ReadonlyArray<ConnectionDetails>, now: number) =>
  new BranchCreated(
    { ...createdParts(created, now, false), ...(connections.length === 0 ? {} : { connection_uris: connections }) },
    unchecked
  )

/** A page of `GET /projects/{project_id}/branches`; `next` is the cursor of the page after it, if any. */
export const branchesPage = (
  branches: ReadonlyArray<Parameters<typeof branchAt>[0]>,
  next: string | undefined,
  sort: { readonly sort_by: string; readonly sort_order: string },
  now: number
) =>
  new BranchesPage(
    {
      branches: branches.map((branch) => branchAt(branch, now)),
      // The annotations of the page's branches that have one, by id (docs/contract.md §11.4).
      annotations: Object.fromEntries(
        branches.flatMap((branch) =>
          branch.annotation_value === undefined ? [] : [[branch.id, annotationOf(branch)] as const]
        )
      ),
      pagination: new CursorPagination(present({ next, ...sort }), unchecked)
    },
    unchecked
  )

/** The answer of `GET /projects/{project_id}/branches/count`. */
export const branchesCount = (count: number) => new BranchesCount({ count }, unchecked)

/** The answer of `GET /projects/{project_id}/branches/{branch_id}/endpoints`. */
export const computeEndpoints = (endpoints: ReadonlyArray<StoredEndpoint>, project: StoredProject, now: number) =>
  new ComputeEndpoints({ endpoints: endpoints.map((endpoint) => computeEndpointAt(endpoint, project, now)) }, unchecked)

/**
 * The settings of a compute endpoint created without them, as a seed's: 0.25 compute units (the
 * maximum at least the minimum), and a suspend timeout of 0 s (the platform's default one).
 */
export const endpointDefaults = {
  autoscaling_limit_min_cu: 0.25,
  suspend_timeout_seconds: 0
} as const

/**
 * The settings a compute endpoint created in `project` without its own gets: the project's
 * `default_endpoint_settings`, else {@link endpointDefaults} (the maximum at least the minimum).
 */
export const endpointDefaultsOf = (project: StoredProject) => {
  const own = project.default_endpoint_settings
  const min = own?.autoscaling_limit_min_cu ?? endpointDefaults.autoscaling_limit_min_cu
  return {
    autoscaling_limit_min_cu: min,
    autoscaling_limit_max_cu: Math.max(min, own?.autoscaling_limit_max_cu ?? min),
    suspend_timeout_seconds: own?.suspend_timeout_seconds ?? endpointDefaults.suspend_timeout_seconds
  }
}

/** What a branch creation made: the answer's parts. */
export interface BranchCreation {
  readonly project: StoredProject
  readonly branch: StoredBranch
  readonly endpoints: ReadonlyArray<StoredEndpoint>
  /** Copies of the parent's, newest first. */
  readonly roles: ReadonlyArray<StoredRole>
  /** Copies of the parent's, newest first. */
  readonly databases: ReadonlyArray<StoredDatabase>
  readonly operations: ReadonlyArray<StoredOperation>
}

/** A compute endpoint's state at a time: `current`, and `pending`, the one it is about to take. */
export interface EndpointState {
  readonly current: "init" | "active" | "idle"
  readonly pending: "active" | "idle" | undefined
}

/** The state of `endpoint` at `now` (see the module's description). */
export const endpointStateAt = (endpoint: StoredEndpoint, now: number): EndpointState => {
  const active = endpoint.active_at
  const suspended = endpoint.suspended_at
  if (suspended === undefined) {
    return now >= active ? { current: "active", pending: undefined } : { current: "init", pending: "active" }
  }
  if (suspended < active) {
    // Started after its last suspension: a start of an idle one, or a restart of an active one.
    if (now >= active) return { current: "active", pending: undefined }
    return now >= suspended ? { current: "idle", pending: "active" } : { current: "active", pending: "idle" }
  }
  if (now >= suspended) return { current: "idle", pending: undefined }
  return now >= active ? { current: "active", pending: "idle" } : { current: "init", pending: "active" }
}
