/**
 * What the fake's compute endpoint routes do, and what the control plane does to compute
 * endpoints (docs/contract.md §12): each mutation a pure step over the state (`engine/state.ts`
 * `Mutation`).
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
 * - The control plane (`internal/duties.ts`): an `active` compute endpoint with no activity
 *   (the end of its last `start_compute`, or its last connection) for its suspend timeout is
 *   suspended; every branch with a compute endpoint has a `check_availability` every
 *   {@link availabilityPeriod}. These are materialised when they are due, as operations
 *   created at the time they happened, before any request is served (docs/design.md §4).
 * - A connection ({@link connect}) to an `idle` compute endpoint starts it (`start_compute`);
 *   any connection is activity.
 */
import * as Duration from "effect/Duration"
import type { ComputeEndpointCreateRequest, ComputeEndpointUpdateRequest } from "@dbplatform/core"
import * as Either from "effect/Either"
import { UnknownComputeEndpoint } from "../../Scenario.js"
import { limitsInOrder, newEndpoint } from "../Branches/steps.js"
import { type Dice, endpointId as newEndpointId } from "../../engine/ids.js"
import { present, remove, upsert } from "../../engine/kinds.js"
import { isDeleted } from "../../engine/lifecycle.js"
import { endOf, type OperationToStart, startOperations, runsFor, starter } from "../../engine/operations.js"
import {
  distinctTime,
  get,
  itemsOf,
  type Mutation,
  type Outcome,
  type State,
  type StoredEndpoint,
  type StoredOperation,
  type StoredProject,
  freshId
} from "../../engine/state.js"
import { Status } from "../../engine/status.js"
import { notFound, refused, type Refusal } from "../../engine/refusal.js"
import { type EndpointState, endpointStateAt } from "../../engine/wire.js"
import { branchOf, projectOf, unlockedProject } from "../../engine/records.js"

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
): Either.Either<readonly [StoredProject, StoredEndpoint], Refusal> =>
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

/** What `POST /projects/{project_id}/endpoints` creates: core's body's `endpoint`. */
export type EndpointToCreate = (typeof ComputeEndpointCreateRequest.Type)["endpoint"]

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
export const suspendedAfter = (
  endpoint: StoredEndpoint,
  operations: ReadonlyArray<StoredOperation>
): StoredEndpoint => {
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

/** 409 when branch `branchId` has a `read_write` compute endpoint: a branch has at most one. */
const noReadWrite = (state: State, branchId: string): Either.Either<void, Refusal> => {
  const readWrite = readWriteOf(state, branchId)
  return readWrite === undefined
    ? Either.void
    : refused(
        Status.conflict,
        `branch ${branchId} already has a read_write compute endpoint (${readWrite.id}): a branch has at most one`
      )
}

/**
 * Creates a compute endpoint on a branch of project `projectId` (docs/contract.md §12): 404 for
 * an unknown branch, 409 for a second `read_write` one on the branch, 400 for a minimum above
 * the maximum or a `region_id` other than the project's; starts `start_compute` (it is `init`
 * until that ends). One created `disabled` starts nothing: it is `idle` at once (connections
 * to it are refused until it is enabled). The fields it keeps as given (`name`, `settings`,
 * `provisioner`, `passwordless_access`, `pooler_enabled`, `pooler_mode`) are answered as given.
 */
export const createEndpoint =
  (projectId: string, request: EndpointToCreate, dice: Dice): Mutation<EndpointChange, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const [project, branch] = yield* branchOf(state, projectId, request.branch_id)
      yield* unlockedProject(state, projectId, now)
      if (request.region_id !== undefined && request.region_id !== project.region_id) {
        return yield* refused(
          Status.badRequest,
          `region_id: only the project's region (${project.region_id}) is permitted, got ${JSON.stringify(request.region_id)}`
        )
      }
      if (request.type === "read_write") yield* noReadWrite(state, branch.id)
      const id = freshId(state, "endpoints", () => newEndpointId(dice))
      const endpoint = yield* limitsInOrder(
        newEndpoint(id, project, branch.id, request, distinctTime(state, "endpoints", branch.id, now))
      )
      if (endpoint.disabled === true) {
        const idle = { ...endpoint, active_at: now, suspended_at: now }
        return { changes: [upsert("endpoints", idle)], answer: { project, endpoint: idle, operations: [] } }
      }
      const starts = planned(state, dice, endpoint, () => ["start_compute"], now)
      const made = withOperations(state, project, endpoint, starts, now, activeAfter)
      // A compute endpoint started on an archived branch brings it out of archival storage (§18).
      return branch.archived === true
        ? { ...made, changes: [upsert("branches", { ...branch, archived: undefined }), ...made.changes] }
        : made
    })

/** The settings `PATCH /projects/{project_id}/endpoints/{endpoint_id}` changes: core's body's `endpoint`. */
export type EndpointUpdate = (typeof ComputeEndpointUpdateRequest.Type)["endpoint"]

/**
 * Changes a compute endpoint (docs/contract.md §12): each field given replaces the compute
 * endpoint's (`settings` field by field: `pg_settings`, `pgbouncer_settings`,
 * `preload_libraries`); 400 for a minimum above the maximum; with `branch_id`, it moves to that
 * branch (404 when the project has no such branch, 409 when that branch has a `read_write`
 * compute endpoint already). Starts `apply_config`; `disabled: true` on a running one also
 * `suspend_compute` (it stays `idle` until enabled again and started).
 */
export const updateEndpoint =
  (projectId: string, endpointId: string, update: EndpointUpdate, dice: Dice): Mutation<EndpointChange, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const [project, endpoint] = yield* endpointOf(state, projectId, endpointId)
      yield* unlockedProject(state, projectId, now)
      const moveTo =
        update.branch_id === undefined || update.branch_id === endpoint.branch_id ? undefined : update.branch_id
      if (moveTo !== undefined) {
        yield* branchOf(state, projectId, moveTo)
        yield* noReadWrite(state, moveTo)
      }
      const changed = yield* limitsInOrder(
        present({
          ...endpoint,
          branch_id: moveTo ?? endpoint.branch_id,
          autoscaling_limit_min_cu: update.autoscaling_limit_min_cu ?? endpoint.autoscaling_limit_min_cu,
          autoscaling_limit_max_cu: update.autoscaling_limit_max_cu ?? endpoint.autoscaling_limit_max_cu,
          suspend_timeout_seconds: update.suspend_timeout_seconds ?? endpoint.suspend_timeout_seconds,
          updated_at: Math.max(now, endpoint.updated_at),
          name: update.name ?? endpoint.name,
          settings:
            update.settings === undefined
              ? endpoint.settings
              : present({ ...endpoint.settings, ...present(update.settings) }),
          provisioner: update.provisioner ?? endpoint.provisioner,
          disabled: update.disabled ?? endpoint.disabled,
          passwordless_access: update.passwordless_access ?? endpoint.passwordless_access,
          pooler_enabled: update.pooler_enabled ?? endpoint.pooler_enabled,
          pooler_mode: update.pooler_mode ?? endpoint.pooler_mode
        })
      )
      const disabling = update.disabled === true && endpoint.disabled !== true
      const plan: Plan = (at) =>
        disabling && suspendPlan(at).length > 0 ? ["apply_config", "suspend_compute"] : ["apply_config"]
      const starts = planned(state, dice, changed, plan, now)
      return withOperations(state, project, changed, starts, now, suspendedAfter)
    })

/** 400 for a start of a disabled compute endpoint: only enabling it again (`disabled: false`) lets it start. */
const enabled = (endpoint: StoredEndpoint, plan: Plan): Either.Either<void, Refusal> =>
  endpoint.disabled === true && plan !== suspendPlan
    ? refused(
        Status.badRequest,
        `compute endpoint ${endpoint.id} is disabled: enable it (disabled: false) before starting it`
      )
    : Either.void

/** Starts, suspends or restarts a compute endpoint (docs/contract.md §12), as `plan` says. */
export const changeEndpointState =
  (projectId: string, endpointId: string, plan: Plan, dice: Dice): Mutation<EndpointChange, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const [project, endpoint] = yield* endpointOf(state, projectId, endpointId)
      yield* unlockedProject(state, projectId, now)
      yield* enabled(endpoint, plan)
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
  (projectId: string, endpointId: string, dice: Dice): Mutation<EndpointChange | undefined, Refusal> =>
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
 * A connection arrives at compute endpoint `endpointId` (docs/contract.md §12): an `idle` one
 * gets a `start_compute` (started by the control plane: no lock is checked), and its activity time
 * is now. Answers the operations started. Run after the control plane's operations due by now
 * (`engine/controlPlane.ts` `afterControlPlane`), in the same step.
 */
export const connect =
  (endpointId: string, dice: Dice): Mutation<EndpointChange, UnknownComputeEndpoint> =>
  (state, now) => {
    const caughtUp = state
    const endpoint = get(caughtUp, "endpoints", endpointId)
    const project = endpoint === undefined ? undefined : get(caughtUp, "projects", endpoint.project_id)
    if (endpoint === undefined || project === undefined || isDeleted(project)) {
      return Either.left(new UnknownComputeEndpoint({ endpointId }))
    }
    // A disabled compute endpoint refuses connections: it is not started, and nothing is activity.
    if (endpoint.disabled === true) return Either.right({ changes: [], answer: { project, endpoint, operations: [] } })
    const starts = planned(caughtUp, dice, endpoint, startPlan, now)
    const outcome = withOperations(caughtUp, project, endpoint, starts, now, (endpoint, operations) => ({
      ...activeAfter(endpoint, operations),
      last_active: now
    }))
    return Either.right({ changes: outcome.changes, answer: outcome.answer })
  }
