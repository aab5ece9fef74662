/**
 * The fake's control plane (docs/contract.md §12, §18, §19, docs/design.md §4): what falls due on
 * the clock in each resource, carried out as operations created at the time they fell due, before
 * any request is served (the engine runs it, `engine/controlPlane.ts`).
 *
 * - An `active` compute endpoint with no activity for its suspend timeout is suspended; every
 *   branch with a compute endpoint has a `check_availability` every `availabilityPeriod`
 *   (`resources/ComputeEndpoints`).
 * - A branch is deleted at the sweep after its `expires_at` (`suspend_compute` per compute
 *   endpoint, then `delete_timeline`, as a request's delete), and a deleted project is purged
 *   once its 7 days of recovery have passed (`engine/lifecycle.ts`). Nothing of a deleted project
 *   is suspended, checked or expired.
 * - The backup schedules take their snapshots and expired snapshots go (`resources/Snapshots`).
 */
import * as HashMap from "effect/HashMap"
import { type Change, upsert } from "../engine/kinds.js"
import {
  type ControlPlane,
  type State,
  type StoredBranch,
  type StoredEndpoint,
  type StoredProject,
  applyAll,
  cascade,
  get,
  itemsOf
} from "../engine/state.js"
import { type Dice } from "../engine/ids.js"
import { availabilityPeriod, suspensionDue, suspendedAfter } from "../resources/ComputeEndpoints/steps.js"
import { expiryDue, isDeleted, recoverableUntil } from "../engine/lifecycle.js"
import { scheduledSnapshots, snapshotsDueAt } from "../resources/Snapshots/steps.js"
import { branchDeletion } from "../resources/Branches/steps.js"
import { startOperations, starter } from "../engine/operations.js"
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
const controlPlaneDue = (state: State, now: number): boolean =>
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
    // Kept for its recovery window, deleted by its expiry (`ttl`, docs/contract.md §18.1).
    return [...branchDeletion(state, branch, due.at, "ttl"), ...started.changes]
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
 * snapshots the backup schedules take and those that expire (`resources/Snapshots/steps.ts`, docs/contract.md §19).
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

/** The fake's control plane: what falls due in every resource (`engine/state.ts` `ControlPlane`). */
export const controlPlane: ControlPlane = { due: controlPlaneDue, catchUp }
