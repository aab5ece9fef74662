import type { BranchCreateEndpoint, BranchCreateRequest } from "@dbplatform/core"
import * as Either from "effect/Either"
import * as Encoding from "effect/Encoding"
import * as Option from "effect/Option"
import * as Order from "effect/Order"
import * as Schema from "effect/Schema"
import { type Dice, branchId as newBranchId, databaseId, endpointId as newEndpointId } from "../../engine/ids.js"
import { type Change, type Item, present, remove, upsert } from "../../engine/kinds.js"
import { expiryInFuture, pointInHistory, recoveryWindow, ttlOf } from "../../engine/lifecycle.js"
import { lsnAt } from "../../engine/lsn.js"
import { endOf, type OperationToStart, startOperations, starter } from "../../engine/operations.js"
import {
  cascade,
  distinctTime,
  get,
  itemsOf,
  type Mutation,
  type State,
  type StoredBranch,
  type StoredDatabase,
  type StoredEndpoint,
  type StoredOperation,
  type StoredProject,
  type StoredRole,
  freshId
} from "../../engine/state.js"
import { Status } from "../../engine/status.js"
import { type BranchCreation, endpointDefaultsOf } from "../../engine/wire.js"
import { notFound, Refusal, refused } from "../../engine/refusal.js"
import { schemaVersionAt, tablesAt, tablesNow } from "../BranchSchema/steps.js"
import { changesBetween } from "../Databases/kinds.js"
import { branchOf, projectOf, unlockedProject } from "../../engine/records.js"
import type { EndpointOptions } from "../ComputeEndpoints/kinds.js"
import { inheritedFunctions } from "../Functions/steps.js"

/** A branch deleted within its recovery window, as the fake keeps it. */
export type StoredDeletedBranch = Item<"deleted_branches">

/** The branch of project `projectId` named `name` (other than `except`), if any. */
const namedBranch = (state: State, projectId: string, name: string, except?: string) => {
  for (const branch of itemsOf(state, "branches", projectId)) {
    if (branch.name === name && branch.id !== except) return branch
  }
  return undefined
}

const nameTaken = (name: string) => refused(Status.conflict, `branch with name ${JSON.stringify(name)} already exists`)

/** The project's default branch, if it has branches. */
export const defaultBranch = (state: State, projectId: string): StoredBranch | undefined => {
  for (const branch of itemsOf(state, "branches", projectId)) if (branch.default) return branch
  return undefined
}

/**
 * The roles and databases of branch `from`, copied to the new branch `to` of the same project
 * created at `created` (docs/contract.md §13.2): each role under the id `{to}/{name}` with the
 * same password, each database under a fresh id, with the same names and owners. The copies are
 * items of their own: a later change of either branch's roles or databases leaves the other's as
 * they are. `taken`: database ids about to be added with them, to which theirs are added.
 */
export const copiesOf = (
  state: State,
  from: string,
  to: StoredBranch,
  created: number,
  dice: Dice,
  taken: Set<number> = new Set()
): { readonly roles: ReadonlyArray<StoredRole>; readonly databases: ReadonlyArray<StoredDatabase> } => {
  // Oldest first, each a millisecond after the one before: the copies list in the parent's order.
  const roles = Array.from(itemsOf(state, "roles", from))
    .reverse()
    .map(
      (role, i): StoredRole => ({
        ...role,
        id: `${to.id}/${role.name}`,
        branch_id: to.id,
        created_at: created + i,
        updated_at: created + i
      })
    )
  const databases = Array.from(itemsOf(state, "databases", from))
    .reverse()
    .map((database, i): StoredDatabase => {
      const id = freshId(state, "databases", () => databaseId(dice), taken)
      taken.add(id)
      return { ...database, id, branch_id: to.id, created_at: created + i, updated_at: created + i }
    })
  return { roles: roles.reverse(), databases: databases.reverse() }
}

/**
 * A compute endpoint to create: core's `BranchCreateEndpoint` (as a branch's creation gives it),
 * with what a compute endpoint's own creation gives beyond it (`name`, `disabled`, the pooler
 * fields..., docs/contract.md §12) in the fake's stored form ({@link EndpointOptions}).
 */
export type EndpointToCreate = Omit<typeof BranchCreateEndpoint.Type, keyof KeptOptions> & KeptOptions

/** The fields of a compute endpoint the fake keeps as a request gives them. */
type KeptOptions = typeof EndpointOptions.Type

/** A compute endpoint's settings as the fake keeps them. */
type EndpointSettings = NonNullable<StoredEndpoint["settings"]>

/**
 * The settings of a compute endpoint created in `project` with `given`: each of `pg_settings` and
 * `pgbouncer_settings` given, else the project's `default_endpoint_settings` one (docs/contract.md
 * §12, §14); `undefined` when there are none.
 */
export const settingsOf = (
  project: StoredProject,
  given: EndpointSettings | undefined
): EndpointSettings | undefined => {
  const defaults = project.default_endpoint_settings
  const settings = present({
    pg_settings: given?.pg_settings ?? defaults?.pg_settings,
    pgbouncer_settings: given?.pgbouncer_settings ?? defaults?.pgbouncer_settings,
    preload_libraries: given?.preload_libraries
  })
  return Object.keys(settings).length === 0 ? undefined : settings
}

/**
 * A compute endpoint `id` of branch `branchId` of `project` created at `created` as `request` asks
 * (the settings it leaves out as the project's, {@link endpointDefaultsOf} and {@link settingsOf}),
 * with the fields it gives kept as given, not yet started (`active_at` is set by the
 * `start_compute` that starts it).
 */
export const newEndpoint = (
  id: string,
  project: StoredProject,
  branchId: string,
  request: EndpointToCreate,
  created: number
): StoredEndpoint => {
  const defaults = endpointDefaultsOf(project)
  return present({
    id,
    project_id: project.id,
    branch_id: branchId,
    type: request.type,
    autoscaling_limit_min_cu: request.autoscaling_limit_min_cu ?? defaults.autoscaling_limit_min_cu,
    autoscaling_limit_max_cu:
      request.autoscaling_limit_max_cu ??
      Math.max(request.autoscaling_limit_min_cu ?? 0, defaults.autoscaling_limit_max_cu),
    suspend_timeout_seconds: request.suspend_timeout_seconds ?? defaults.suspend_timeout_seconds,
    created_at: created,
    updated_at: created,
    active_at: 0,
    name: request.name,
    settings: settingsOf(project, request.settings),
    provisioner: request.provisioner,
    disabled: request.disabled,
    passwordless_access: request.passwordless_access,
    pooler_enabled: request.pooler_enabled,
    pooler_mode: request.pooler_mode
  })
}

/** The compute endpoint, or a 400 when its minimum compute units are more than its maximum. */
export const limitsInOrder = (endpoint: StoredEndpoint): Either.Either<StoredEndpoint, Refusal> =>
  endpoint.autoscaling_limit_min_cu > endpoint.autoscaling_limit_max_cu
    ? refused(
        Status.badRequest,
        `autoscaling_limit_min_cu (${endpoint.autoscaling_limit_min_cu}) must not be more than autoscaling_limit_max_cu (${endpoint.autoscaling_limit_max_cu})`
      )
    : Either.right(endpoint)

/**
 * What `POST /projects/{project_id}/branches` creates: core's body's `branch` (`BranchCreateRequest`),
 * its times in epoch ms as the state keeps times, with the compute endpoints to create with it.
 */
export type BranchToCreate = Omit<
  NonNullable<(typeof BranchCreateRequest.Type)["branch"]>,
  "expires_at" | "parent_timestamp"
> & {
  /** When the control plane deletes it (epoch ms, docs/contract.md §18). */
  readonly expires_at?: number | undefined
  /** The point of the parent's history it starts from (epoch ms), or `parent_lsn`; now when neither. */
  readonly parent_timestamp?: number | undefined
  /** Its annotation's values (`annotation_value` of the request), kept and answered with it. */
  readonly annotation_value?: StoredBranch["annotation_value"]
  readonly endpoints: ReadonlyArray<EndpointToCreate>
  /** The operation that makes it: `create_branch`, or `create_timeline` for a new project's first branch (docs/contract.md §14). */
  readonly action?: "create_branch" | "create_timeline" | undefined
}

/** The upserts that add `copies` (roles first: a database's owner is a role of its branch). */
const dataChanges = (copies: ReturnType<typeof copiesOf>): ReadonlyArray<Change> => [
  ...copies.roles.map((role) => upsert("roles", role)),
  ...copies.databases.map((database) => upsert("databases", database))
]

/**
 * Creates a branch of project `projectId` (docs/contract.md §11.4, §11.5, §13.2): from `parent_id`
 * (the default branch when absent; 404 when it is not a branch of the project), named `name` (a
 * generated `br-…` name when absent; 409 when another branch has it), with its compute
 * endpoints (at most one `read_write`: 400 for more; `min` ≤ `max` compute units: 400), and
 * copies of the parent's roles and databases ({@link copiesOf}). Since 0.5.0 (§18): an
 * `expires_at` in the future (400 otherwise); `init_source: "schema-only"`, a branch without a
 * parent link that has its source's roles and databases; `parent_timestamp` or `parent_lsn`
 * within the project's history window (400 outside it, or for both); `archived`.
 */
export const createBranch =
  (projectId: string, request: BranchToCreate, dice: Dice): Mutation<BranchCreation, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const project = yield* unlockedProject(state, projectId, now)
      const parentId = request.parent_id ?? defaultBranch(state, projectId)?.id
      const parent = parentId === undefined ? undefined : get(state, "branches", parentId)
      if (parentId !== undefined && parent?.project_id !== projectId) return yield* notFound("parent branch")
      const readWrite = request.endpoints.filter((endpoint) => endpoint.type === "read_write").length
      if (readWrite > 1) {
        return yield* refused(
          Status.badRequest,
          `a branch has at most one read_write endpoint, ${readWrite} were asked for`
        )
      }
      const point = yield* pointInHistory(project, request, now)
      if (request.expires_at !== undefined) {
        yield* expiryInFuture(request.expires_at, now)
        if (request.protected === true) return yield* protectedCannotExpire("both")
      }
      const schemaOnly = request.init_source === "schema-only"
      const id = freshId(state, "branches", () => newBranchId(dice))
      const name = request.name ?? id
      if (namedBranch(state, projectId, name) !== undefined) return yield* nameTaken(name)
      const created = distinctTime(state, "branches", projectId, now)
      const endpointIds = new Set<string>()
      const endpoints = request.endpoints.map((endpoint, i): StoredEndpoint => {
        const endpointId = freshId(state, "endpoints", () => newEndpointId(dice), endpointIds)
        endpointIds.add(endpointId)
        // The endpoints of one branch get distinct creation times, as every kind's items of one parent.
        return newEndpoint(endpointId, project, id, endpoint, created + i)
      })
      for (const endpoint of endpoints) yield* limitsInOrder(endpoint)
      const start = starter(state, dice)
      const started = startOperations(
        state,
        projectId,
        [
          start(request.action ?? "create_branch", id),
          ...endpoints.map((endpoint) => start("start_compute", id, endpoint.id))
        ],
        now
      )
      const linked = parentId !== undefined && !schemaOnly
      const branch: StoredBranch = present({
        id,
        project_id: projectId,
        // A schema-only branch is a root of its own: its source is not its parent (§18).
        parent_id: linked ? parentId : undefined,
        name,
        // The first branch of a project is its default one.
        default: parentId === undefined,
        protected: request.protected ?? false,
        created_at: created,
        updated_at: created,
        ready_at: endOf(started.operations[0]!),
        expires_at: request.expires_at,
        ttl_interval_seconds: request.expires_at === undefined ? undefined : ttlOf(request.expires_at, now),
        init_source: request.init_source,
        parent_timestamp: linked ? point : undefined,
        parent_lsn: linked ? lsnAt(point) : undefined,
        archived: request.archived === true ? true : undefined,
        annotation_value: request.annotation_value
      })
      const active = endpoints.map((endpoint, i) => ({ ...endpoint, active_at: endOf(started.operations[i + 1]!) }))
      const copies =
        parentId === undefined ? { roles: [], databases: [] } : copiesOf(state, parentId, branch, created, dice)
      const { databases, roles } = copies
      return {
        changes: [
          upsert("branches", branch),
          ...active.map((endpoint) => upsert("endpoints", endpoint)),
          ...dataChanges(copies),
          // Its parent's functions, as they are now (docs/contract.md §29.5).
          ...(parentId === undefined ? [] : inheritedFunctions(state, parentId, branch.id)),
          ...started.changes
        ],
        answer: { project, branch, endpoints: active, roles, databases, operations: started.operations }
      }
    })

/**
 * An expiry the caller sends to the millisecond (epoch ms), as the platform keeps it: to the
 * second (the document: "precision up to seconds"), the fraction dropped.
 */
export const toTheSecond = (expiresAt: number): number => Math.floor(expiresAt / 1000) * 1000

/**
 * 400 for a protected branch with an expiry: a protected branch cannot be deleted, and an
 * expiry is a deletion the platform schedules (docs/contract.md §18.1). `what` would make one:
 * `both` asked at once, an expiry for a `protected` branch, protecting an `expiring` one.
 */
const protectedCannotExpire = (what: "both" | "protected" | "expiring") =>
  refused(
    Status.badRequest,
    what === "both"
      ? "a protected branch cannot expire: give protected: true or expires_at, not both"
      : what === "protected"
        ? "the branch is protected: a protected branch cannot expire, unprotect it (protected: false) to set expires_at"
        : "the branch expires: a protected branch cannot expire, clear its expires_at (null) to protect it"
  )

/** What a branch mutation answers: the branch and the operations it started. */
export interface BranchChange {
  readonly branch: StoredBranch
  readonly operations: ReadonlyArray<StoredOperation>
}

/**
 * Renames and/or (un)protects a branch, sets its `expires_at` (epoch ms) or clears it (`null`)
 * (docs/contract.md §11.4, §18): 409 for a name another branch has, 400 for an expiry not in the
 * future or on the default branch; no operation. A new expiry sets `ttl_interval_seconds` from
 * now; clearing it clears both.
 */
export const updateBranch =
  (
    projectId: string,
    branchId: string,
    update: {
      readonly name?: string | undefined
      readonly protected?: boolean | undefined
      readonly expires_at?: number | null | undefined
    }
  ): Mutation<BranchChange, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const [, branch] = yield* branchOf(state, projectId, branchId)
      yield* unlockedProject(state, projectId, now)
      if (update.name !== undefined && namedBranch(state, projectId, update.name, branchId) !== undefined) {
        return yield* nameTaken(update.name)
      }
      const expiresAt = update.expires_at
      if (typeof expiresAt === "number") {
        if (branch.default) return yield* refused(Status.badRequest, "the project's default branch cannot expire")
        yield* expiryInFuture(expiresAt, now)
      }
      const expiring = expiresAt === undefined ? branch.expires_at !== undefined : expiresAt !== null
      if (expiring && (update.protected ?? branch.protected)) {
        return yield* protectedCannotExpire(
          typeof expiresAt === "number" ? (update.protected === true ? "both" : "protected") : "expiring"
        )
      }
      const expiry =
        expiresAt === undefined
          ? { expires_at: branch.expires_at, ttl_interval_seconds: branch.ttl_interval_seconds }
          : expiresAt === null
            ? { expires_at: undefined, ttl_interval_seconds: undefined }
            : { expires_at: expiresAt, ttl_interval_seconds: ttlOf(expiresAt, now) }
      const changed: StoredBranch = present({
        ...branch,
        name: update.name ?? branch.name,
        protected: update.protected ?? branch.protected,
        updated_at: Math.max(now, branch.updated_at),
        ...expiry
      })
      return { changes: [upsert("branches", changed)], answer: { branch: changed, operations: [] } }
    })

/**
 * The changes that delete `branch` and everything under it at `now`, `method` telling how
 * (`user`, a request; `ttl`, its expiry): unless `hard`, it is kept for the platform's 7 days of
 * branch recovery as a `deleted_branches` record (docs/contract.md §18.1); the project's deleted
 * branches whose recovery window has passed go with it.
 */
export const branchDeletion = (
  state: State,
  branch: StoredBranch,
  now: number,
  method: StoredDeletedBranch["deletion_method"],
  hard = false
): ReadonlyArray<Change> => {
  const changes: Array<Change> = [...cascade(state, "branches", branch.id)]
  for (const deleted of itemsOf(state, "deleted_branches", branch.project_id)) {
    if (!recoverable(deleted, now)) changes.push(remove("deleted_branches", deleted.id))
  }
  if (!hard) {
    changes.push(
      upsert("deleted_branches", {
        ...branch,
        deleted_at: now,
        deletion_method: method,
        kept_endpoints: Array.from(itemsOf(state, "endpoints", branch.id)),
        kept_roles: Array.from(itemsOf(state, "roles", branch.id)),
        kept_databases: Array.from(itemsOf(state, "databases", branch.id))
      })
    )
  }
  return changes
}

/** What a branch's recovery answers: the branch and its compute endpoints, as they are again. */
export interface BranchRecovery {
  readonly project: StoredProject
  readonly branch: StoredBranch
  readonly endpoints: ReadonlyArray<StoredEndpoint>
}

/**
 * `POST /projects/{project_id}/branches/{branch_id}/recover` as a pure step (docs/contract.md
 * §18.3): a branch deleted within its 7 days of recovery is a branch again, as it was, with its
 * compute endpoints (idle from `now`), roles (the same passwords: its connection strings hold) and
 * databases; an expiry it had is cleared. No operation. 404 for an unknown project, or a branch
 * never deleted, deleted for good (`hard_delete`) or past its window; 400 for a branch whose
 * parent is deleted (recover the parent first); 409 for a branch that is not deleted (as a project
 * that is not, §18.2), or a name another branch took since.
 */
export const recoverBranch =
  (projectId: string, branchId: string): Mutation<BranchRecovery, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const project = yield* projectOf(state, projectId)
      const live = get(state, "branches", branchId)
      if (live !== undefined && live.project_id === projectId) {
        return yield* refused(Status.conflict, `branch ${branchId} is not deleted`)
      }
      const deleted = get(state, "deleted_branches", branchId)
      if (deleted === undefined || deleted.project_id !== projectId || !recoverable(deleted, now)) {
        return yield* notFound("branch")
      }
      if (deleted.parent_id !== undefined && get(state, "branches", deleted.parent_id) === undefined) {
        return yield* refused(
          Status.badRequest,
          `the parent branch ${deleted.parent_id} of branch ${branchId} is deleted: recover it first`
        )
      }
      if (namedBranch(state, projectId, deleted.name) !== undefined) return yield* nameTaken(deleted.name)
      const {
        deleted_at: _,
        deletion_method: __,
        kept_endpoints,
        kept_roles,
        kept_databases,
        expires_at: ___,
        ttl_interval_seconds: ____,
        ...rest
      } = deleted
      const branch: StoredBranch = { ...rest, updated_at: Math.max(now, rest.updated_at) }
      const endpoints: Array<StoredEndpoint> = (kept_endpoints ?? []).map((endpoint) => ({
        ...endpoint,
        active_at: Math.min(endpoint.active_at, now),
        suspended_at: now,
        updated_at: Math.max(now, endpoint.updated_at)
      }))
      return {
        changes: [
          remove("deleted_branches", branchId),
          upsert("branches", branch),
          ...endpoints.map((endpoint) => upsert("endpoints", endpoint)),
          ...(kept_roles ?? []).map((role) => upsert("roles", role)),
          ...(kept_databases ?? []).map((database) => upsert("databases", database))
        ],
        answer: { project, branch, endpoints }
      }
    })

/** Whether a deleted branch can still be recovered at `now`: within 7 days of its deletion. */
export const recoverable = (branch: StoredDeletedBranch, now: number): boolean =>
  now < branch.deleted_at + recoveryWindow

/**
 * Deletes a branch and its compute endpoints (docs/contract.md §11.4, §11.5): `undefined` (a 204) when
 * the project has no such branch; 400 for the default branch or one with children; otherwise
 * `suspend_compute` per compute endpoint, then `delete_timeline`. The branch is kept for its
 * recovery window ({@link branchDeletion}) unless `hard` (`hard_delete=true`).
 */
export const deleteBranch =
  (projectId: string, branchId: string, dice: Dice, hard = false): Mutation<BranchChange | undefined, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      yield* projectOf(state, projectId)
      const branch = get(state, "branches", branchId)
      if (branch === undefined || branch.project_id !== projectId) return { changes: [], answer: undefined }
      yield* unlockedProject(state, projectId, now)
      if (branch.default) return yield* refused(Status.badRequest, "the project's default branch cannot be deleted")
      for (const child of itemsOf(state, "branches", projectId)) {
        if (child.parent_id === branchId) {
          return yield* refused(Status.badRequest, `branch ${branchId} has children (${child.id}): delete them first`)
        }
      }
      const endpoints = Array.from(itemsOf(state, "endpoints", branchId))
      const start = starter(state, dice)
      const started = startOperations(
        state,
        projectId,
        [
          ...endpoints.map((endpoint) => start("suspend_compute", branchId, endpoint.id)),
          start("delete_timeline", branchId)
        ],
        now
      )
      return {
        changes: [...branchDeletion(state, branch, now, "user", hard), ...started.changes],
        answer: { branch, operations: started.operations }
      }
    })

/**
 * Restores a branch from `source_branch_id` of the same project (docs/contract.md §11.5): 404 for
 * an unknown source; with `preserve_under_name`, its state before is kept as a new branch of that
 * name (409 when taken), beside it (same parent), with copies of the branch's roles and
 * databases. The branch's data becomes the source's: restored from another branch, its roles and
 * databases are replaced by copies of the source's (docs/contract.md §13.2; the published
 * reference does not say, this is the fake's choice). Starts `suspend_compute` then
 * `start_compute` per compute endpoint of the branch, and `create_branch` for the preserved one.
 * The point of the source's history, `source_timestamp` or `source_lsn` (its head when neither),
 * must lie within the project's history window (400 outside it, or for both), and is required
 * (400) to restore a branch from itself; `preserve_under_name` is required (400) then, and for a
 * branch with children, which move to the preserved branch (as the document says). Restored from
 * itself, the schema of each of its databases becomes, from now on, the one at that point (a new
 * version of its history); from another branch, the copies are of the source's head.
 */
export const restoreBranch =
  (
    projectId: string,
    branchId: string,
    request: {
      readonly source_branch_id: string
      readonly preserve_under_name?: string | undefined
      readonly source_timestamp?: number | undefined
      readonly source_lsn?: string | undefined
    },
    dice: Dice
  ): Mutation<BranchChange, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const [project, branch] = yield* branchOf(state, projectId, branchId)
      yield* unlockedProject(state, projectId, now)
      const source = get(state, "branches", request.source_branch_id)
      if (source === undefined || source.project_id !== projectId) return yield* notFound("source branch")
      // The same window as a branch's point of its parent's history, named as the restore names it.
      const point = yield* Either.mapLeft(
        pointInHistory(project, { parent_timestamp: request.source_timestamp, parent_lsn: request.source_lsn }, now),
        (refusal) => new Refusal({ status: refusal.status, message: refusal.message.replaceAll("parent_", "source_") })
      )
      const self = source.id === branchId
      if (self && request.source_timestamp === undefined && request.source_lsn === undefined) {
        return yield* refused(
          Status.badRequest,
          "source_timestamp or source_lsn is required to restore a branch from its own history"
        )
      }
      const children = Array.from(itemsOf(state, "branches", projectId)).filter((child) => child.parent_id === branchId)
      if ((self || children.length > 0) && request.preserve_under_name === undefined) {
        return yield* refused(
          Status.badRequest,
          self
            ? "preserve_under_name is required to restore a branch from its own history"
            : `preserve_under_name is required to restore a branch with children (${children.map((child) => child.id).join(", ")})`
        )
      }
      const preserve = request.preserve_under_name
      if (preserve !== undefined && namedBranch(state, projectId, preserve) !== undefined)
        return yield* nameTaken(preserve)
      const preservedId = preserve === undefined ? undefined : freshId(state, "branches", () => newBranchId(dice))
      const start = starter(state, dice)
      const starts: Array<OperationToStart> = preservedId === undefined ? [] : [start("create_branch", preservedId)]
      for (const endpoint of itemsOf(state, "endpoints", branchId)) {
        starts.push(start("suspend_compute", branchId, endpoint.id), start("start_compute", branchId, endpoint.id))
      }
      const started = startOperations(state, projectId, starts, now)
      // Reset now; with a preserved branch, a child of it from the point restored (the platform's CLI
      // reads the restored branch's parent as the branch that keeps its state before).
      const restored: StoredBranch = {
        ...branch,
        updated_at: Math.max(now, branch.updated_at),
        last_reset_at: now,
        ...(preservedId === undefined
          ? {}
          : { parent_id: preservedId, parent_timestamp: point, parent_lsn: lsnAt(point) })
      }
      const changes: Array<Change> = []
      const taken = new Set<number>()
      if (source.id !== branchId) {
        for (const role of itemsOf(state, "roles", branchId)) changes.push(remove("roles", role.id))
        for (const database of itemsOf(state, "databases", branchId)) {
          // A database's Data API goes with it (docs/contract.md §25).
          changes.push(...cascade(state, "databases", database.id))
        }
        changes.push(...dataChanges(copiesOf(state, source.id, restored, now, dice, taken)))
      } else {
        // From its own history: each database's schema is, from now on, the one at the point (the
        // preserved branch's copies keep the one before).
        for (const database of itemsOf(state, "databases", branchId)) {
          const applied = changesBetween(tablesNow(database), tablesAt(database, point))
          if (applied.changed.length === 0 && applied.dropped.length === 0) continue
          changes.push({
            _tag: "Patch",
            kind: "databases",
            id: database.id,
            patch: schemaVersionAt(project, database, applied, now)
          })
        }
      }
      if (preservedId !== undefined && preserve !== undefined) {
        const created = distinctTime(state, "branches", projectId, now)
        const preserved: StoredBranch = {
          id: preservedId,
          project_id: projectId,
          ...(branch.parent_id === undefined ? {} : { parent_id: branch.parent_id }),
          name: preserve,
          default: false,
          protected: false,
          created_at: created,
          updated_at: created,
          ready_at: started.operations[0]!.steps[started.operations[0]!.steps.length - 1]!.at
        }
        changes.push(
          upsert("branches", preserved),
          ...dataChanges(copiesOf(state, branchId, preserved, created, dice, taken)),
          // The branch's children move to the branch that keeps its state before.
          ...children.map((child) =>
            upsert("branches", { ...child, parent_id: preservedId, updated_at: Math.max(now, child.updated_at) })
          )
        )
      }
      // After the preserved branch, its parent now.
      changes.push(upsert("branches", restored))
      return { changes: [...changes, ...started.changes], answer: { branch: restored, operations: started.operations } }
    })

/** Makes a branch the project's default (docs/contract.md §11.4): the previous default is no longer; no operation. */
export const setDefaultBranch =
  (projectId: string, branchId: string): Mutation<BranchChange, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const [, branch] = yield* branchOf(state, projectId, branchId)
      yield* unlockedProject(state, projectId, now)
      if (branch.expires_at !== undefined) {
        return yield* refused(
          Status.badRequest,
          `branch ${branchId} expires: clear its expires_at before making it the default`
        )
      }
      const previous = defaultBranch(state, projectId)
      const updated = Math.max(now, branch.updated_at)
      const made: StoredBranch = { ...branch, default: true, updated_at: updated }
      const changes: Array<Change> = []
      if (previous !== undefined && previous.id !== branchId) {
        changes.push(
          upsert("branches", { ...previous, default: false, updated_at: Math.max(now, previous.updated_at) })
        )
      }
      changes.push(upsert("branches", made))
      return { changes, answer: { branch: made, operations: [] } }
    })

/**
 * The branches of a project whose name or id holds `search` (all without it); with
 * `includeDeleted`, also those deleted within their recovery window at `now` (docs/contract.md §18.1).
 */
export const matchingBranches = (
  state: State,
  projectId: string,
  search: string | undefined,
  includeDeleted = false,
  now = 0
) => {
  const found: Array<StoredBranch | StoredDeletedBranch> = []
  const matches = (branch: StoredBranch) =>
    search === undefined || branch.name.includes(search) || branch.id.includes(search)
  for (const branch of itemsOf(state, "branches", projectId)) if (matches(branch)) found.push(branch)
  if (includeDeleted) {
    for (const branch of itemsOf(state, "deleted_branches", projectId)) {
      if (matches(branch) && recoverable(branch, now)) found.push(branch)
    }
  }
  return found
}

/** How `GET /projects/{project_id}/branches` sorts: by `sort_by`, then by id, `sort_order` (desc by default). */
export interface BranchSort {
  readonly sort_by: "name" | "created_at" | "updated_at"
  readonly sort_order: "asc" | "desc"
}

type Position = readonly [key: string | number, id: string]

const keyOrder = Order.make<string | number>((a, b) => (a < b ? -1 : a > b ? 1 : 0))

const positionOrder: Order.Order<Position> = Order.combine(
  Order.mapInput(keyOrder, (position: Position) => position[0]),
  Order.mapInput(Order.string, (position: Position) => position[1])
)

const positionOf = (branch: StoredBranch, sort: BranchSort): Position => [branch[sort.sort_by], branch.id]

/** The opaque cursor of the page after `branch`: base64url of its sort key and id. */
const cursorOf = (branch: StoredBranch, sort: BranchSort): string =>
  Encoding.encodeBase64Url(JSON.stringify(positionOf(branch, sort)))

/** A cursor's JSON: the sort key and id of the last branch of the page before. */
const PositionJson = Schema.parseJson(Schema.Tuple(Schema.Union(Schema.String, Schema.Number), Schema.String))

/** The position a cursor stands for, or `undefined` when it is not one this fake sent. */
const positionOfCursor = (cursor: string): Position | undefined => {
  const text = Encoding.decodeBase64UrlString(cursor)
  return Either.isLeft(text) ? undefined : Option.getOrUndefined(Schema.decodeUnknownOption(PositionJson)(text.right))
}

/**
 * One page of `branches`, sorted by `sort`, after `cursor` (a `pagination.next` of an earlier
 * page; 400 for anything else), at most `limit` (all without one); `next` only when more follow.
 */
export const branchesPageOf = (
  branches: ReadonlyArray<StoredBranch>,
  sort: BranchSort,
  cursor: string | undefined,
  limit: number | undefined
): Either.Either<{ readonly page: ReadonlyArray<StoredBranch>; readonly next: string | undefined }, Refusal> => {
  const after = cursor === undefined ? undefined : positionOfCursor(cursor)
  if (cursor !== undefined && after === undefined) {
    return refused(Status.badRequest, "cursor must be a pagination.next of a previous page")
  }
  const order = sort.sort_order === "asc" ? positionOrder : Order.reverse(positionOrder)
  const sorted = [...branches].sort((a, b) => order(positionOf(a, sort), positionOf(b, sort)))
  const rest = after === undefined ? sorted : sorted.filter((branch) => order(positionOf(branch, sort), after) > 0)
  const page = limit === undefined ? rest : rest.slice(0, limit)
  return Either.right({
    page,
    next: page.length < rest.length && page.length > 0 ? cursorOf(page[page.length - 1]!, sort) : undefined
  })
}

/** The compute endpoints of a branch, newest first. */
export const endpointsOfBranch = (state: State, branchId: string): ReadonlyArray<StoredEndpoint> =>
  Array.from(itemsOf(state, "endpoints", branchId))
