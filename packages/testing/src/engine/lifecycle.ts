/**
 * A branch's and a project's lifecycle in the fake (docs/contract.md §18): the pure rules the
 * branch mutations (`resources/Branches`), the project mutations (`resources/Projects`) and the
 * control plane (`internal/duties.ts`) share.
 *
 * - **Expiry.** A branch with `expires_at` is deleted by the control plane at the first sweep at
 *   or after that time: the sweep runs every {@link expirySweep} (10 minutes, on the clock's
 *   whole ten minutes), as the platform's background job deletes an expired branch "not at the
 *   exact second". An expiring branch that is the default or has children is not deleted until
 *   that changes (neither can be deleted by a request either).
 * - **Points in time.** An LSN is the fake's clock as a log position (`lsn.ts`: `lsnAt` and
 *   `timeOfLsn` go from one to the other). A point of a parent's history must lie within the project's history window:
 *   from `history_retention_seconds` before now (and not before the project's creation) to now.
 * - **Recovery.** A deleted project is kept with `deleted_at` for {@link recoveryWindow} (7 days),
 *   hidden from every read but the recoverable list; the control plane then purges it and
 *   everything under it.
 */
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import { timeOfLsn } from "./lsn.js"
import { get, itemsOf, type State, type StoredBranch, type StoredProject } from "./state.js"
import { Status } from "./status.js"
import { Refusal } from "./refusal.js"

/** How often the control plane's sweep deletes expired branches: every 10 minutes. */
export const expirySweep = Duration.toMillis("10 minutes")

/** How long a deleted project can be recovered: 7 days (the platform's window). */
export const recoveryWindow = Duration.toMillis("7 days")

/** The history retention of a project that states none: a day (as `resources/Projects/steps.ts` gives a new one). */
const defaultRetentionSeconds = 86_400

/** When the control plane's sweep deletes a branch expiring at `expiresAt`: the first sweep at or after it. */
export const sweepAfter = (expiresAt: number): number => Math.ceil(expiresAt / expirySweep) * expirySweep

/** Whether `project` is deleted (kept for recovery, hidden from every read). */
export const isDeleted = (project: StoredProject | undefined): boolean => project?.deleted_at !== undefined

/** Until when a deleted project can be recovered (epoch ms); `undefined` for a live one. */
export const recoverableUntil = (project: StoredProject): number | undefined =>
  project.deleted_at === undefined ? undefined : project.deleted_at + recoveryWindow

/** Whether branch `branchId` of project `projectId` has a child branch. */
export const hasChildren = (state: State, projectId: string, branchId: string): boolean => {
  for (const branch of itemsOf(state, "branches", projectId)) if (branch.parent_id === branchId) return true
  return false
}

/**
 * When the control plane deletes `branch` for its expiry (epoch ms), or `undefined`: it has no
 * `expires_at`, its project is deleted (kept for recovery), or it cannot be deleted now (the
 * default branch, one with children, or a protected one: a request cannot make a protected
 * branch expire, but a state saved before 0.5.0 may hold one).
 */
export const expiryDue = (state: State, branch: StoredBranch): number | undefined => {
  if (branch.expires_at === undefined || branch.default || branch.protected) return undefined
  if (isDeleted(get(state, "projects", branch.project_id))) return undefined
  if (hasChildren(state, branch.project_id, branch.id)) return undefined
  return sweepAfter(branch.expires_at)
}

/** How far back `project`'s history reaches, in ms: its `history_retention_seconds` (a day when unset). */
export const retentionMillis = (project: StoredProject): number =>
  (project.history_retention_seconds ?? defaultRetentionSeconds) * 1000

/**
 * Where the history a point may name starts at `now` (epoch ms): the project's retention back
 * from now, and not before `since` (the project's creation, or a branch's).
 */
export const historyStart = (project: StoredProject, now: number, since = project.created_at): number =>
  Math.max(since, now - retentionMillis(project))

/** What a branch creation names as the point of its parent's history. */
export interface HistoryPoint {
  readonly parent_timestamp?: number | undefined
  readonly parent_lsn?: string | undefined
}

/**
 * The point of `project`'s history a branch starts from, as epoch ms (`now` when none is named),
 * or a 400: both `parent_timestamp` and `parent_lsn`, or a point outside the history window (more
 * than `history_retention_seconds` ago, before the project's creation, or after now).
 */
export const pointInHistory = (
  project: StoredProject,
  point: HistoryPoint,
  now: number
): Either.Either<number, Refusal> => {
  if (point.parent_timestamp !== undefined && point.parent_lsn !== undefined) {
    return Either.left(
      new Refusal({ status: Status.badRequest, message: "give parent_timestamp or parent_lsn, not both" })
    )
  }
  // None named: the parent's head, now (a project's first branch may be created a millisecond
  // after `now`, when another project took that millisecond: it is not checked).
  if (point.parent_timestamp === undefined && point.parent_lsn === undefined) return Either.right(now)
  const at = point.parent_lsn !== undefined ? (timeOfLsn(point.parent_lsn) ?? now) : (point.parent_timestamp ?? now)
  const retention = retentionMillis(project) / 1000
  const oldest = historyStart(project, now)
  if (at > now || at < oldest) {
    const what = point.parent_lsn === undefined ? "parent_timestamp" : "parent_lsn"
    return Either.left(
      new Refusal({
        status: Status.badRequest,
        message: `${what} is outside the project's history window (history_retention_seconds: ${retention}): from ${new Date(oldest).toISOString()} to now`
      })
    )
  }
  return Either.right(at)
}

/**
 * 400 unless `expiresAt` (epoch ms) is after `now`: an expiry in the past would delete the branch
 * at the next sweep, which is never what a caller means.
 */
export const expiryInFuture = (expiresAt: number, now: number): Either.Either<void, Refusal> =>
  expiresAt > now
    ? Either.void
    : Either.left(new Refusal({ status: Status.badRequest, message: "expires_at must be in the future" }))

/** The TTL of an expiry set at `now`: whole seconds from `now` to `expiresAt`. */
export const ttlOf = (expiresAt: number, now: number): number => Math.round((expiresAt - now) / 1000)
