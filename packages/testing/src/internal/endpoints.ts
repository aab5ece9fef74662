/**
 * What the fake's compute endpoint routes do, and the control plane's own operations
 * (docs/contract.md §12): each mutation a pure step over the state (`state.ts` `Mutation`).
 *
 * - A compute endpoint is `init` until its first `start_compute` ends, then `active` or `idle`
 *   after whichever came last of its last `start_compute`'s end (`active_at`) and its last
 *   `suspend_compute`'s end (`suspended_at`).
 * - Creating one starts `start_compute`; updating it `apply_config`; starting an `idle` one
 *   `start_compute`; suspending an `active` one `suspend_compute`; restarting `suspend_compute`
 *   then `start_compute` (only the latter for one that is not `active`); deleting an `active`
 *   one `suspend_compute` (it is gone at once). Starting a running one, or suspending one that
 *   is not, starts nothing. A branch has at most one `read_write` compute endpoint: a second is
 *   a 409. A mutation of a project with a pending operation answers 423 and changes nothing.
 * - The control plane ({@link controlPlane}): an `active` compute endpoint with no activity
 *   (the end of its last `start_compute`, or its last connection) for its suspend timeout is
 *   suspended; every branch with a compute endpoint has a `check_availability` every
 *   {@link availabilityPeriod}. These are materialised when they are due, as operations
 *   created at the time they happened, before any request is served (docs/design.md §4).
 * - A connection ({@link connect}) to an `idle` compute endpoint starts it (`start_compute`);
 *   any connection is activity.
 * - The control plane also deletes a branch at the sweep after its `expires_at`
 *   (`suspend_compute` per compute endpoint, then `delete_timeline`, as a request's delete), and
 *   purges a deleted project once its 7 days of recovery have passed (`lifecycle.ts`,
 *   docs/contract.md §18). Nothing of a deleted project is suspended, checked or expired.
 */
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as HashMap from "effect/HashMap"
import { UnknownComputeEndpoint } from "../Scenario.js"
import {
  branchOf,
  freshId,
  limitsInOrder,
  newEndpoint,
  notFound,
  projectOf,
  refused,
  runsFor,
  starter,
  unlockedProject
} from "./branches.js"
import { type Dice, endpointId as newEndpointId } from "./ids.js"
import { type Change, remove, upsert } from "./kinds.js"
import { expiryDue, isDeleted, recoverableUntil } from "./lifecycle.js"
import type { Refused } from "./limits.js"
import { endOf, type OperationToStart, startOperations } from "./operations.js"
import {
  applyAll,
  cascade,
  distinctTime,
  get,
  itemsOf,
  type Mutation,
  type Outcome,
  type State,
  type StoredBranch,
  type StoredEndpoint,
  type StoredOperation,
  type StoredProject
} from "./state.js"
import { scheduledSnapshots, snapshotsDueAt } from "./snapshots.js"
import { Status } from "./status.js"

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

/** The platform's suspend timeout, used for a compute endpoint whose `suspend_timeout_seconds` is 0: 300 s. */
export const defaultSuspendTimeout = Duration.toMillis("5 minutes")

/**
 * How often the control plane checks the availability of a branch with a compute endpoint: every
 * hour, counted from the later of its last check and the creation of its oldest compute endpoint.
 */
export const availabilityPeriod = Duration.toMillis("1 hour")

/**
 * When the control plane suspends `endpoint` (epoch ms): after its suspend timeout (0: 300 s) of
 * no activity since the end of its last `start_compute` or its last connection; `undefined`
 * when it never does (`-1`) or it is not running.
 */
export const suspensionDue = (endpoint: StoredEndpoint): number | undefined => {
  const seconds = endpoint.suspend_timeout_seconds
  if (seconds < 0) return undefined
  if (endpoint.suspended_at !== undefined && endpoint.suspended_at >= endpoint.active_at) return undefined
  const activity = Math.max(endpoint.active_at, endpoint.last_active ?? 0)
  return activity + (seconds === 0 ? defaultSuspendTimeout : Duration.toMillis(Duration.seconds(seconds)))
}

/** The compute endpoint `endpointId` of project `projectId`, or a 404 (for either). */
export const endpointOf = (
  state: State,
  projectId: string,
  endpointId: string
): Either.Either<readonly [StoredProject, StoredEndpoint], Refused> =>
  Either.flatMap(projectOf(state, projectId), (project) => {
    const endpoint = get(state, "endpoints", endpointId)
    return endpoint === undefined || endpoint.project_id !== projectId
      ? notFound("endpoint")
      : Either.right([project, endpoint] as const)
  })

/** What a compute endpoint mutation answers: the project (for the host), the compute endpoint and the operations started. */
export interface EndpointChange {
  readonly project: StoredProject
  readonly endpoint: StoredEndpoint
  readonly operations: ReadonlyArray<StoredOperation>
}

/** What `POST /projects/{project_id}/endpoints` creates. */
export interface EndpointToCreate {
  readonly branch_id: string
  readonly type: string
  readonly autoscaling_limit_min_cu?: number | undefined
  readonly autoscaling_limit_max_cu?: number | undefined
  readonly suspend_timeout_seconds?: number | undefined
}

/** The `read_write` compute endpoint of a branch, if it has one. */
const readWriteOf = (state: State, branchId: string): StoredEndpoint | undefined => {
  for (const endpoint of itemsOf(state, "endpoints", branchId)) if (endpoint.type === "read_write") return endpoint
  return undefined
}

/** The operations `starts` of `endpoint`'s project, started at `now`, with `endpoint` as they leave it. */
const withOperations = (
  state: State,
  project: StoredProject,
  endpoint: StoredEndpoint,
  starts: ReadonlyArray<OperationToStart>,
  now: number,
  settle: (endpoint: StoredEndpoint, operations: ReadonlyArray<StoredOperation>) => StoredEndpoint
): Outcome<EndpointChange> => {
  const started = startOperations(state, project.id, starts, now)
  const changed = settle(endpoint, started.operations)
  return {
    changes: [upsert("endpoints", changed), ...started.changes],
    answer: { project, endpoint: changed, operations: started.operations }
  }
}

/** `endpoint` active once the `start_compute` among `operations` ends (unchanged without one). */
const activeAfter = (endpoint: StoredEndpoint, operations: ReadonlyArray<StoredOperation>): StoredEndpoint => {
  const start = operations.find((operation) => operation.action === "start_compute")
  return start === undefined ? endpoint : { ...endpoint, active_at: endOf(start) }
}

/** `endpoint` idle once the `suspend_compute` among `operations` ends, then active again after a `start_compute`. */
const suspendedAfter = (endpoint: StoredEndpoint, operations: ReadonlyArray<StoredOperation>): StoredEndpoint => {
  const suspend = operations.find((operation) => operation.action === "suspend_compute")
  return activeAfter(suspend === undefined ? endpoint : { ...endpoint, suspended_at: endOf(suspend) }, operations)
}

/** Which operations a request to a compute endpoint starts, given its state now. */
type Plan = (state: EndpointState) => ReadonlyArray<keyof typeof runsFor>

/**
 * Starts an `idle` compute endpoint, or one being suspended (`start_compute`, after the suspension:
 * a connection then is not lost); a running one starts nothing.
 */
export const startPlan: Plan = ({ current, pending }) =>
  current === "idle" || pending === "idle" ? ["start_compute"] : []
/** Suspends an `active` compute endpoint (`suspend_compute`); one that is not starts nothing. */
export const suspendPlan: Plan = ({ current }) => (current === "active" ? ["suspend_compute"] : [])
/** Restarts a compute endpoint: `suspend_compute` (when `active`), then `start_compute`. */
export const restartPlan: Plan = ({ current }) =>
  current === "active" ? ["suspend_compute", "start_compute"] : ["start_compute"]

/** The operations `plan` starts for `endpoint` at `now`, each with a fresh id. */
const planned = (state: State, dice: Dice, endpoint: StoredEndpoint, plan: Plan, now: number) => {
  const start = starter(state, dice)
  return plan(endpointStateAt(endpoint, now)).map((action) => start(action, endpoint.branch_id, endpoint.id))
}

/**
 * Creates a compute endpoint on a branch of project `projectId` (docs/contract.md §12): 404 for
 * an unknown branch, 409 for a second `read_write` one on the branch, 400 for a minimum above
 * the maximum; starts `start_compute` (it is `init` until that ends).
 */
export const createEndpoint =
  (projectId: string, request: EndpointToCreate, dice: Dice): Mutation<EndpointChange, Refused> =>
  (state, now) =>
    Either.gen(function* () {
      const [project, branch] = yield* branchOf(state, projectId, request.branch_id)
      yield* unlockedProject(state, projectId, now)
      const readWrite = request.type === "read_write" ? readWriteOf(state, branch.id) : undefined
      if (readWrite !== undefined) {
        return yield* refused(
          Status.conflict,
          `branch ${branch.id} already has a read_write compute endpoint (${readWrite.id}): a branch has at most one`
        )
      }
      const id = freshId(state, "endpoints", () => newEndpointId(dice))
      const endpoint = yield* limitsInOrder(
        newEndpoint(id, project, branch.id, request, distinctTime(state, "endpoints", branch.id, now))
      )
      const starts = planned(state, dice, endpoint, () => ["start_compute"], now)
      const made = withOperations(state, project, endpoint, starts, now, activeAfter)
      // A compute endpoint started on an archived branch brings it out of archival storage (§18).
      return branch.archived === true
        ? { ...made, changes: [upsert("branches", { ...branch, archived: undefined }), ...made.changes] }
        : made
    })

/** The settings `PATCH /projects/{project_id}/endpoints/{endpoint_id}` changes. */
export interface EndpointUpdate {
  readonly autoscaling_limit_min_cu?: number | undefined
  readonly autoscaling_limit_max_cu?: number | undefined
  readonly suspend_timeout_seconds?: number | undefined
}

/** Changes a compute endpoint's settings (docs/contract.md §12): 400 for a minimum above the maximum; starts `apply_config`. */
export const updateEndpoint =
  (projectId: string, endpointId: string, update: EndpointUpdate, dice: Dice): Mutation<EndpointChange, Refused> =>
  (state, now) =>
    Either.gen(function* () {
      const [project, endpoint] = yield* endpointOf(state, projectId, endpointId)
      yield* unlockedProject(state, projectId, now)
      const changed = yield* limitsInOrder({
        ...endpoint,
        autoscaling_limit_min_cu: update.autoscaling_limit_min_cu ?? endpoint.autoscaling_limit_min_cu,
        autoscaling_limit_max_cu: update.autoscaling_limit_max_cu ?? endpoint.autoscaling_limit_max_cu,
        suspend_timeout_seconds: update.suspend_timeout_seconds ?? endpoint.suspend_timeout_seconds,
        updated_at: Math.max(now, endpoint.updated_at)
      })
      const starts = planned(state, dice, changed, () => ["apply_config"], now)
      return withOperations(state, project, changed, starts, now, (endpoint) => endpoint)
    })

/** Starts, suspends or restarts a compute endpoint (docs/contract.md §12), as `plan` says. */
export const changeEndpointState =
  (projectId: string, endpointId: string, plan: Plan, dice: Dice): Mutation<EndpointChange, Refused> =>
  (state, now) =>
    Either.gen(function* () {
      const [project, endpoint] = yield* endpointOf(state, projectId, endpointId)
      yield* unlockedProject(state, projectId, now)
      const starts = planned(state, dice, endpoint, plan, now)
      return withOperations(state, project, endpoint, starts, now, (endpoint, operations) =>
        operations.length === 0
          ? endpoint
          : { ...suspendedAfter(endpoint, operations), updated_at: Math.max(now, endpoint.updated_at) }
      )
    })

/**
 * Deletes a compute endpoint (docs/contract.md §12): `undefined` (a 204) when the project has no
 * such compute endpoint; otherwise it is gone at once, and an `active` one gets a `suspend_compute`.
 */
export const deleteEndpoint =
  (projectId: string, endpointId: string, dice: Dice): Mutation<EndpointChange | undefined, Refused> =>
  (state, now) =>
    Either.gen(function* () {
      const project = yield* projectOf(state, projectId)
      const endpoint = get(state, "endpoints", endpointId)
      if (endpoint === undefined || endpoint.project_id !== projectId) return { changes: [], answer: undefined }
      yield* unlockedProject(state, projectId, now)
      const started = startOperations(state, projectId, planned(state, dice, endpoint, suspendPlan, now), now)
      return {
        changes: [remove("endpoints", endpoint.id), ...started.changes],
        answer: { project, endpoint: suspendedAfter(endpoint, started.operations), operations: started.operations }
      }
    })

/** The compute endpoints of a project, its branches in order, each branch's newest first. */
export const endpointsOfProject = (state: State, projectId: string): ReadonlyArray<StoredEndpoint> => {
  const endpoints: Array<StoredEndpoint> = []
  for (const branch of itemsOf(state, "branches", projectId)) endpoints.push(...itemsOf(state, "endpoints", branch.id))
  return endpoints
}

/**
 * One thing the control plane does at a time: suspend a compute endpoint, check a branch, delete
 * an expired branch, or purge a deleted project past its recovery window.
 */
type Due =
  | { readonly at: number; readonly _tag: "suspend"; readonly endpoint: StoredEndpoint }
  | { readonly at: number; readonly _tag: "check"; readonly branch: StoredBranch; readonly endpoint: StoredEndpoint }
  | { readonly at: number; readonly _tag: "expire"; readonly branch: StoredBranch }
  | { readonly at: number; readonly _tag: "purge"; readonly project: StoredProject }

/** Whether the project `projectId` is deleted (kept for recovery): the control plane leaves it alone. */
const deletedProject = (state: State, projectId: string): boolean => isDeleted(get(state, "projects", projectId))

/**
 * The availability check of `branch` due last by `now`, given its compute endpoints: at the last
 * whole {@link availabilityPeriod} after the later of its last check and the creation of its
 * oldest compute endpoint; checks missed in between are not run (the checker runs the latest).
 */
const checkDue = (branch: StoredBranch, endpoints: ReadonlyArray<StoredEndpoint>, now: number): Due | undefined => {
  if (endpoints.length === 0) return undefined
  const oldest = Math.min(...endpoints.map((endpoint) => endpoint.created_at))
  const since = Math.max(branch.checked_at ?? branch.created_at, oldest)
  const periods = Math.floor((now - since) / availabilityPeriod)
  if (periods < 1) return undefined
  const endpoint = endpoints.find((endpoint) => endpoint.type === "read_write") ?? endpoints[0]!
  return { at: since + periods * availabilityPeriod, _tag: "check", branch, endpoint }
}

/**
 * When the control plane has something to do next, for a state's compute endpoints, branches and
 * projects (computed once per state of the three).
 */
const nextDue = new WeakMap<object, { readonly branches: object; readonly projects: object; readonly at: number }>()

/** The earliest time the control plane has something to do in `state`. */
const earliestDue = (state: State): number => {
  const known = nextDue.get(state.endpoints.byId)
  if (known !== undefined && known.branches === state.branches.byId && known.projects === state.projects.byId) {
    return known.at
  }
  let at = Number.POSITIVE_INFINITY
  for (const endpoint of HashMap.values(state.endpoints.byId)) {
    if (deletedProject(state, endpoint.project_id)) continue
    at = Math.min(at, suspensionDue(endpoint) ?? at)
  }
  for (const [branchId, group] of state.endpoints.byParent) {
    const branch = get(state, "branches", branchId)
    if (branch === undefined || deletedProject(state, branch.project_id)) continue
    let oldest = Number.POSITIVE_INFINITY
    for (const [, endpoint] of group) oldest = Math.min(oldest, endpoint.created_at)
    at = Math.min(at, Math.max(branch.checked_at ?? branch.created_at, oldest) + availabilityPeriod)
  }
  for (const branch of HashMap.values(state.branches.byId)) {
    if (branch.expires_at !== undefined) at = Math.min(at, expiryDue(state, branch) ?? at)
  }
  for (const project of HashMap.values(state.projects.byId)) at = Math.min(at, recoverableUntil(project) ?? at)
  nextDue.set(state.endpoints.byId, { branches: state.branches.byId, projects: state.projects.byId, at })
  return at
}

/** Whether the control plane has anything to do by `now` in `state` (one comparison while its collections do not change). */
export const controlPlaneDue = (state: State, now: number): boolean =>
  earliestDue(state) <= now || snapshotsDueAt(state) <= now

/** Everything due by `now`, earliest first (then suspensions before checks, then by id). */
const dueBy = (state: State, now: number): ReadonlyArray<Due> => {
  const due: Array<Due> = []
  for (const endpoint of HashMap.values(state.endpoints.byId)) {
    const at = suspensionDue(endpoint)
    if (at !== undefined && at <= now && !deletedProject(state, endpoint.project_id)) {
      due.push({ at, _tag: "suspend", endpoint })
    }
  }
  for (const branchId of HashMap.keys(state.endpoints.byParent)) {
    const branch = get(state, "branches", branchId)
    const check =
      branch === undefined || deletedProject(state, branch.project_id)
        ? undefined
        : checkDue(branch, Array.from(itemsOf(state, "endpoints", branchId)), now)
    if (check !== undefined) due.push(check)
  }
  for (const branch of HashMap.values(state.branches.byId)) {
    const at = branch.expires_at === undefined ? undefined : expiryDue(state, branch)
    if (at !== undefined && at <= now) due.push({ at, _tag: "expire", branch })
  }
  for (const project of HashMap.values(state.projects.byId)) {
    const at = recoverableUntil(project)
    if (at !== undefined && at <= now) due.push({ at, _tag: "purge", project })
  }
  const order = { suspend: 0, check: 1, expire: 2, purge: 3 } as const
  const key = (item: Due) =>
    `${order[item._tag]} ${
      item._tag === "suspend" ? item.endpoint.id : item._tag === "purge" ? item.project.id : item.branch.id
    }`
  return due.sort((a, b) => a.at - b.at || (key(a) < key(b) ? -1 : 1))
}

/**
 * The changes of one thing the control plane does, on `state` as it is by then. Something an
 * earlier step of the same catch-up made moot (a branch expired, or its project purged, before
 * its compute endpoint's suspension was due) is skipped.
 */
const carriedOut = (state: State, due: Due, dice: Dice): ReadonlyArray<Change> => {
  const start = starter(state, dice)
  if (due._tag === "purge") {
    const project = get(state, "projects", due.project.id)
    return project === undefined || recoverableUntil(project) !== due.at ? [] : cascade(state, "projects", project.id)
  }
  if (due._tag === "expire") {
    const branch = get(state, "branches", due.branch.id)
    if (branch === undefined || expiryDue(state, branch) !== due.at) return []
    const endpoints = Array.from(itemsOf(state, "endpoints", branch.id))
    // As a request's delete (§11.5): `suspend_compute` per compute endpoint, then `delete_timeline`.
    const started = startOperations(
      state,
      branch.project_id,
      [
        ...endpoints.map((endpoint) => start("suspend_compute", branch.id, endpoint.id)),
        start("delete_timeline", branch.id)
      ],
      due.at
    )
    return [...cascade(state, "branches", branch.id), ...started.changes]
  }
  const endpoint = get(state, "endpoints", due.endpoint.id)
  if (endpoint === undefined || deletedProject(state, endpoint.project_id)) return []
  if (due._tag === "suspend") {
    const started = startOperations(
      state,
      endpoint.project_id,
      [start("suspend_compute", endpoint.branch_id, endpoint.id)],
      due.at
    )
    return [upsert("endpoints", suspendedAfter(endpoint, started.operations)), ...started.changes]
  }
  const branch = get(state, "branches", due.branch.id)
  if (branch === undefined) return []
  const started = startOperations(
    state,
    endpoint.project_id,
    [start("check_availability", branch.id, endpoint.id)],
    due.at
  )
  return [upsert("branches", { ...branch, checked_at: due.at }), ...started.changes]
}

/**
 * The changes that carry out everything due by `now` in `state`, one after another; again while
 * what was done made more due (a branch whose last child expired may expire in turn); then the
 * snapshots the backup schedules take and those that expire (`snapshots.ts`, docs/contract.md §19).
 */
const catchUp = (state: State, now: number, dice: Dice): ReadonlyArray<Change> => {
  const changes: Array<Change> = []
  let current = state
  while (earliestDue(current) <= now) {
    const before = changes.length
    for (const due of dueBy(current, now)) {
      const done = carriedOut(current, due, dice)
      changes.push(...done)
      current = applyAll(current, done)
    }
    if (changes.length === before) break
  }
  changes.push(...scheduledSnapshots(current, now, dice))
  return changes
}

/**
 * The control plane's own operations due by `now` (docs/contract.md §12, docs/design.md §4):
 * `suspend_compute` of each compute endpoint past its suspend timeout, `check_availability` of
 * each branch with a compute endpoint whose period has passed, each created at the time it was
 * due. A pure step: run in one `mutate` before a request is served, its changes are journaled as
 * any request's, so they happen once. Answers whether it changed anything.
 */
export const controlPlane =
  (dice: Dice): Mutation<boolean, never> =>
  (state, now) => {
    const changes = catchUp(state, now, dice)
    return Either.right({ changes, answer: changes.length > 0 })
  }

/**
 * `mutation` on the state after the control plane's operations due by `now`, in the same step: no
 * operation falls due between them (docs/design.md §4). A refusal keeps neither: what was due is
 * carried out by the next step.
 */
export const afterControlPlane =
  <A, E>(dice: Dice, mutation: Mutation<A, E>): Mutation<A, E> =>
  (state, now) => {
    const before = catchUp(state, now, dice)
    if (before.length === 0) return mutation(state, now)
    return Either.map(mutation(applyAll(state, before), now), ({ answer, changes }) => ({
      answer,
      changes: [...before, ...changes]
    }))
  }

/**
 * A connection arrives at compute endpoint `endpointId` (docs/contract.md §12): after the control
 * plane's operations due by now, an `idle` one gets a `start_compute` (started by the control
 * plane: no lock is checked), and its activity time is now. Answers the operations started.
 */
export const connect =
  (endpointId: string, dice: Dice): Mutation<EndpointChange, UnknownComputeEndpoint> =>
  (state, now) => {
    const before = catchUp(state, now, dice)
    const caughtUp = applyAll(state, before)
    const endpoint = get(caughtUp, "endpoints", endpointId)
    const project = endpoint === undefined ? undefined : get(caughtUp, "projects", endpoint.project_id)
    if (endpoint === undefined || project === undefined || isDeleted(project)) {
      return Either.left(new UnknownComputeEndpoint({ endpointId }))
    }
    const starts = planned(caughtUp, dice, endpoint, startPlan, now)
    const outcome = withOperations(caughtUp, project, endpoint, starts, now, (endpoint, operations) => ({
      ...activeAfter(endpoint, operations),
      last_active: now
    }))
    return Either.right({ changes: [...before, ...outcome.changes], answer: outcome.answer })
  }
