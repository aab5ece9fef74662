/**
 * What the fake's snapshot routes do, and the snapshots its control plane takes and deletes on
 * its own (docs/contract.md §19): each mutation a pure step over the state (`engine/state.ts`
 * `Mutation`). Restoring a snapshot and finalizing a restore are in `restores.ts`.
 *
 * - A snapshot holds the fake's notion of a branch's data at a point of its history (now, a
 *   `timestamp` or an `lsn` within the project's history window and after the branch's
 *   creation): the roles and databases the branch had then, that is those it has now created by
 *   then (the fake keeps no history of what was deleted or renamed since).
 * - Taking one starts `create_timeline` on the branch, deleting one `delete_timeline` (the
 *   published reference names no action for them: the fake's choice among its actions, see
 *   {@link snapshotActions}); renaming one, or setting a
 *   backup schedule, starts nothing. A mutation of a project with a pending operation answers
 *   423 and changes nothing.
 * - The control plane ({@link scheduledSnapshots}): a branch's backup schedule takes a snapshot
 *   (`manual: false`) at each entry's time, UTC, as the clock passes it (`create_timeline`, at
 *   that time); a snapshot whose `expires_at` passes (a schedule's sets it `retention_seconds`
 *   after it is taken) is deleted (`delete_timeline`). Times missed while nobody asked are caught
 *   up the next time the fake is asked anything, each entry's latest one only.
 */
import type { Api } from "@dbplatform/core"
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import { type Dice, slug, uuid } from "../../engine/ids.js"
import { type Change, type Item, present, remove, upsert } from "../../engine/kinds.js"
import { historyStart } from "../../engine/lifecycle.js"
import { lsnAt, timeOfLsn } from "../../engine/lsn.js"
import { type OperationToStart, startOperations, runsFor } from "../../engine/operations.js"
import {
  applyAll,
  distinctTime,
  get,
  itemsOf,
  type Mutation,
  type State,
  type StoredBranch,
  type StoredOperation,
  type StoredProject,
  freshId
} from "../../engine/state.js"
import { Status } from "../../engine/status.js"
import { notFound, refused, type Refusal } from "../../engine/refusal.js"
import { branchOf, projectOf, unlockedProject } from "../../engine/records.js"

/** A snapshot of a branch as the fake keeps it (kind `branch_snapshots`, not the fake's own `Snapshot`). */
export type StoredBranchSnapshot = Item<"branch_snapshots">

/** A branch's backup schedule as the fake keeps it. */
export type StoredBackupSchedule = Item<"backup_schedules">

/** One entry of a backup schedule. */
export type ScheduleItem = StoredBackupSchedule["schedule"][number]

/**
 * The operations of snapshots: the published reference's action enum has no snapshot action, so
 * the fake takes a snapshot with `create_timeline` (a snapshot is a point of the branch's
 * timeline the platform keeps) and deletes one with `delete_timeline`, each running as long as
 * the branch operations of the same name (`engine/operations.ts` `runsFor`).
 */
export const snapshotActions = { take: "create_timeline", remove: "delete_timeline" } as const

/** A snapshot id like the platform's other ids: `snap-wispy-meadow-118737`. */
export const snapshotId = (dice: Dice): string => `snap-${slug(dice)}`

/** An operation of a snapshot, `action` on `branchId`, with a fresh id. */
export const snapshotOperation = (
  state: State,
  dice: Dice,
  action: (typeof snapshotActions)[keyof typeof snapshotActions],
  branchId: string
): OperationToStart => ({
  id: freshId(state, "operations", () => uuid(dice)),
  action,
  branch_id: branchId,
  runsFor: runsFor[action]
})

/** Epoch ms as an RFC 3339 UTC timestamp to the second, for names: `2026-11-26T10:00:00Z`. */
export const secondsIso = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}Z`

/**
 * The roles (with their passwords) and databases of branch `branchId` as at `at`, oldest first:
 * those it has now that were created by then; a database whose owner is not among those roles is
 * left out (a database belongs to a role of its branch).
 */
export const dataAt = (
  state: State,
  branchId: string,
  at: number
): Pick<StoredBranchSnapshot, "roles" | "databases"> => {
  const roles = Array.from(itemsOf(state, "roles", branchId))
    .filter((role) => role.created_at <= at)
    .reverse()
    .map((role) => ({ name: role.name, password: role.password, protected: role.protected }))
  const names = new Set(roles.map((role) => role.name))
  const databases = Array.from(itemsOf(state, "databases", branchId))
    .filter((database) => database.created_at <= at && names.has(database.owner_name))
    .reverse()
    .map((database) => ({ name: database.name, owner_name: database.owner_name }))
  return { roles, databases }
}

/** What taking a snapshot made: the snapshot, and the operation taking it started. */
export interface SnapshotTaken {
  readonly snapshot: StoredBranchSnapshot
  readonly operations: ReadonlyArray<StoredOperation>
}

/**
 * A snapshot of `branch` at the point `at`, taken at `now` (`create_timeline` started then): its
 * data as at `at` ({@link dataAt}), named `name` (the branch's name and the point when absent).
 */
const take = (
  state: State,
  project: StoredProject,
  branch: StoredBranch,
  fields: {
    readonly at: number
    readonly name: string | undefined
    readonly expires_at: number | undefined
    readonly manual: boolean
  },
  now: number,
  dice: Dice
): { readonly changes: ReadonlyArray<Change>; readonly answer: SnapshotTaken } => {
  const started = startOperations(
    state,
    project.id,
    [snapshotOperation(state, dice, snapshotActions.take, branch.id)],
    now
  )
  const snapshot: StoredBranchSnapshot = present({
    id: freshId(state, "branch_snapshots", () => snapshotId(dice)),
    project_id: project.id,
    source_branch_id: branch.id,
    name: fields.name ?? `${branch.name}-${secondsIso(fields.at)}`,
    lsn: lsnAt(fields.at),
    timestamp: fields.at,
    created_at: distinctTime(state, "branch_snapshots", project.id, now),
    expires_at: fields.expires_at,
    manual: fields.manual,
    ...dataAt(state, branch.id, fields.at)
  })
  return {
    changes: [upsert("branch_snapshots", snapshot), ...started.changes],
    answer: { snapshot, operations: started.operations }
  }
}

/**
 * What `POST /projects/{project_id}/branches/{branch_id}/snapshot` asks for: core's decoded query
 * (`SnapshotCreateQuery`), its times in epoch ms, as the state keeps times.
 */
export type SnapshotToCreate = Omit<typeof Api.SnapshotCreateQuery.Type, "timestamp" | "expires_at"> & {
  readonly timestamp?: number | undefined
  readonly expires_at?: number | undefined
}

/**
 * Takes a snapshot of a branch (docs/contract.md §19): at `timestamp`, at `lsn`, or now; 400 for
 * a point outside the branch's history ({@link historyStart} to now) and for an `expires_at`
 * that is not after now; starts `create_timeline`.
 */
export const createSnapshot =
  (projectId: string, branchId: string, request: SnapshotToCreate, dice: Dice): Mutation<SnapshotTaken, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const [project, branch] = yield* branchOf(state, projectId, branchId)
      yield* unlockedProject(state, projectId, now)
      const at = request.timestamp ?? (request.lsn === undefined ? now : timeOfLsn(request.lsn)) ?? now
      const from = historyStart(project, now, branch.created_at)
      if (at < from || at > now) {
        const asked = request.lsn === undefined ? `timestamp ${secondsIso(at)}` : `lsn ${request.lsn}`
        return yield* refused(
          Status.badRequest,
          `${asked} is outside the branch's history: from ${secondsIso(from)} (lsn ${lsnAt(from)}) to now`
        )
      }
      if (request.expires_at !== undefined && request.expires_at <= now) {
        return yield* refused(Status.badRequest, "expires_at must be in the future")
      }
      return take(
        state,
        project,
        branch,
        { at, name: request.name, expires_at: request.expires_at, manual: true },
        now,
        dice
      )
    })

/** The snapshot `snapshotId` of project `projectId`, or a 404 (for either). */
export const snapshotOf = (
  state: State,
  projectId: string,
  snapshotId: string
): Either.Either<readonly [StoredProject, StoredBranchSnapshot], Refusal> =>
  Either.flatMap(projectOf(state, projectId), (project) => {
    const snapshot = get(state, "branch_snapshots", snapshotId)
    return snapshot === undefined || snapshot.project_id !== projectId
      ? notFound("snapshot")
      : Either.right([project, snapshot] as const)
  })

/** The snapshots of project `projectId`, newest first, or a 404. */
export const snapshotsOf = (
  state: State,
  projectId: string
): Either.Either<ReadonlyArray<StoredBranchSnapshot>, Refusal> =>
  Either.map(projectOf(state, projectId), () => Array.from(itemsOf(state, "branch_snapshots", projectId)))

/**
 * Renames a snapshot, and sets its `expires_at` (epoch ms; 400 when not in the future) or clears
 * it (`null`: kept) (docs/contract.md §19); no operation. The pinned document's update takes only
 * a `name`; the platform's own CLI sends `expires_at` too, so the platform takes it.
 */
export const updateSnapshot =
  (
    projectId: string,
    snapshotId: string,
    update: { readonly name?: string | undefined; readonly expires_at?: number | null | undefined }
  ): Mutation<StoredBranchSnapshot, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const [, snapshot] = yield* snapshotOf(state, projectId, snapshotId)
      yield* unlockedProject(state, projectId, now)
      const expiresAt = update.expires_at
      if (typeof expiresAt === "number" && expiresAt <= now) {
        return yield* refused(Status.badRequest, "expires_at must be in the future")
      }
      const changed: StoredBranchSnapshot = present({
        ...snapshot,
        name: update.name ?? snapshot.name,
        expires_at: expiresAt === undefined ? snapshot.expires_at : (expiresAt ?? undefined)
      })
      return { changes: [upsert("branch_snapshots", changed)], answer: changed }
    })

/** Deletes a snapshot (docs/contract.md §19): it is gone at once; starts `delete_timeline`. */
export const deleteSnapshot =
  (projectId: string, snapshotId: string, dice: Dice): Mutation<ReadonlyArray<StoredOperation>, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const [, snapshot] = yield* snapshotOf(state, projectId, snapshotId)
      yield* unlockedProject(state, projectId, now)
      const started = startOperations(
        state,
        projectId,
        [snapshotOperation(state, dice, snapshotActions.remove, snapshot.source_branch_id)],
        now
      )
      return { changes: [remove("branch_snapshots", snapshot.id), ...started.changes], answer: started.operations }
    })

/** The backup schedule of a branch (none: empty), or a 404 for an unknown project or branch. */
export const scheduleOf = (
  state: State,
  projectId: string,
  branchId: string
): Either.Either<ReadonlyArray<ScheduleItem>, Refusal> =>
  Either.map(
    branchOf(state, projectId, branchId),
    ([, branch]) => get(state, "backup_schedules", branch.id)?.schedule ?? []
  )

/** The frequencies the fake's control plane knows how to follow. */
const frequencies: ReadonlySet<string> = new Set(["hourly", "daily", "weekly", "monthly", "yearly"])

/** What is wrong with a schedule entry beyond what core's schema checks, if anything. */
const itemProblem = (item: ScheduleItem, index: number): string | undefined => {
  if (!frequencies.has(item.frequency)) {
    return `schedule[${index}].frequency must be hourly, daily, weekly, monthly or yearly`
  }
  if (item.frequency === "weekly" && item.day !== undefined && item.day > 7) {
    return `schedule[${index}].day of a weekly entry is a day of the week: 1 (Monday) to 7 (Sunday)`
  }
  return undefined
}

/**
 * Replaces a branch's backup schedule (docs/contract.md §19): 400 for a frequency the platform
 * does not know or a weekly entry's `day` above 7; an empty schedule removes it. Snapshots are
 * taken from now on (none for times already past). No operation.
 */
export const setBackupSchedule =
  (projectId: string, branchId: string, schedule: ReadonlyArray<ScheduleItem>): Mutation<void, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const [, branch] = yield* branchOf(state, projectId, branchId)
      yield* unlockedProject(state, projectId, now)
      for (const [index, item] of schedule.entries()) {
        const problem = itemProblem(item, index)
        if (problem !== undefined) return yield* refused(Status.badRequest, problem)
      }
      if (schedule.length === 0) {
        const had = get(state, "backup_schedules", branch.id) !== undefined
        return { changes: had ? [remove("backup_schedules", branch.id)] : [], answer: undefined }
      }
      const stored: StoredBackupSchedule = {
        id: branch.id,
        project_id: projectId,
        branch_id: branch.id,
        schedule: schedule.map((item) => present({ ...item })),
        updated_at: now,
        taken_until: now
      }
      return { changes: [upsert("backup_schedules", stored)], answer: undefined }
    })

// --- The control plane: scheduled snapshots and expiry --------------------------------------

const hour = Duration.toMillis("1 hour")
const day = Duration.toMillis("1 day")

/** Epoch ms of `dayOfMonth` (the month's last day when it has fewer) of month `month` (0-11) of `year`, at `hourOfDay`, UTC. */
const dayOfMonthAt = (year: number, month: number, dayOfMonth: number, hourOfDay: number): number => {
  const days = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
  return Date.UTC(year, month, Math.min(dayOfMonth, days), hourOfDay)
}

/**
 * The latest time at or before `t` (epoch ms) at which `item` takes a snapshot, UTC: `hourly` on
 * the hour; `daily` at `hour` (0 when absent); `weekly` on `day` (1 Monday to 7 Sunday; 1 when
 * absent) at `hour`; `monthly` on `day` of the month (1 when absent; a month's last day when it
 * has fewer) at `hour`; `yearly` on `day` of `month` (both 1 when absent) at `hour`. `undefined`
 * for a frequency the fake does not know.
 */
export const latestOccurrence = (item: ScheduleItem, t: number): number | undefined => {
  const h = item.hour ?? 0
  const date = new Date(t)
  switch (item.frequency) {
    case "hourly":
      return Math.floor(t / hour) * hour
    case "daily": {
      const at = Math.floor(t / day) * day + h * hour
      return at <= t ? at : at - day
    }
    case "weekly": {
      const dayStart = Math.floor(t / day) * day
      const weekday = ((new Date(dayStart).getUTCDay() + 6) % 7) + 1
      const at = dayStart - ((((weekday - (item.day ?? 1)) % 7) + 7) % 7) * day + h * hour
      return at <= t ? at : at - 7 * day
    }
    case "monthly": {
      const year = date.getUTCFullYear()
      const month = date.getUTCMonth()
      const at = dayOfMonthAt(year, month, item.day ?? 1, h)
      return at <= t ? at : dayOfMonthAt(year, month - 1, item.day ?? 1, h)
    }
    case "yearly": {
      const year = date.getUTCFullYear()
      const at = dayOfMonthAt(year, (item.month ?? 1) - 1, item.day ?? 1, h)
      return at <= t ? at : dayOfMonthAt(year - 1, (item.month ?? 1) - 1, item.day ?? 1, h)
    }
    default:
      return undefined
  }
}

/** The first time after `t` at which `item` takes a snapshot (`undefined`: never). */
export const nextOccurrence = (item: ScheduleItem, t: number): number | undefined => {
  const latest = latestOccurrence(item, t)
  if (latest === undefined) return undefined
  const date = new Date(latest)
  switch (item.frequency) {
    case "hourly":
      return latest + hour
    case "daily":
      return latest + day
    case "weekly":
      return latest + 7 * day
    case "monthly":
      return dayOfMonthAt(date.getUTCFullYear(), date.getUTCMonth() + 1, item.day ?? 1, item.hour ?? 0)
    default:
      return dayOfMonthAt(date.getUTCFullYear() + 1, (item.month ?? 1) - 1, item.day ?? 1, item.hour ?? 0)
  }
}

/** When the control plane next has a snapshot to take or delete, per state's schedules and snapshots (computed once per pair). */
const nextDue = new WeakMap<object, { readonly snapshots: object; readonly at: number }>()

/** The earliest time the control plane has a snapshot to take or to delete in `state`. */
export const snapshotsDueAt = (state: State): number => {
  const known = nextDue.get(state.backup_schedules.byId)
  if (known !== undefined && known.snapshots === state.branch_snapshots.byId) return known.at
  let at = Number.POSITIVE_INFINITY
  for (const [, schedule] of state.backup_schedules.byId) {
    for (const item of schedule.schedule) at = Math.min(at, nextOccurrence(item, schedule.taken_until) ?? at)
  }
  for (const [, snapshot] of state.branch_snapshots.byId) at = Math.min(at, snapshot.expires_at ?? at)
  nextDue.set(state.backup_schedules.byId, { snapshots: state.branch_snapshots.byId, at })
  return at
}

/** One thing the control plane does to snapshots: take one by a schedule's entry, or delete an expired one. */
type Due =
  | { readonly at: number; readonly _tag: "take"; readonly schedule: StoredBackupSchedule; readonly item: ScheduleItem }
  | { readonly at: number; readonly _tag: "expire"; readonly snapshot: StoredBranchSnapshot }

/** Everything due by `now`, earliest first (then takes before deletions, then by id). */
const dueBy = (state: State, now: number): ReadonlyArray<Due> => {
  const due: Array<Due> = []
  for (const [, schedule] of state.backup_schedules.byId) {
    for (const item of schedule.schedule) {
      const at = latestOccurrence(item, now)
      if (at !== undefined && at > schedule.taken_until) due.push({ at, _tag: "take", schedule, item })
    }
  }
  for (const [, snapshot] of state.branch_snapshots.byId) {
    if (snapshot.expires_at !== undefined && snapshot.expires_at <= now) {
      due.push({ at: snapshot.expires_at, _tag: "expire", snapshot })
    }
  }
  const key = (item: Due) => (item._tag === "take" ? `0 ${item.schedule.id}` : `1 ${item.snapshot.id}`)
  return due.sort((a, b) => a.at - b.at || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
}

/** The changes of one thing the control plane does to snapshots, on `state` as it is by then. */
const carriedOut = (state: State, due: Due, dice: Dice): ReadonlyArray<Change> => {
  if (due._tag === "expire") {
    const started = startOperations(
      state,
      due.snapshot.project_id,
      [snapshotOperation(state, dice, snapshotActions.remove, due.snapshot.source_branch_id)],
      due.at
    )
    return [remove("branch_snapshots", due.snapshot.id), ...started.changes]
  }
  const project = get(state, "projects", due.schedule.project_id)
  const branch = get(state, "branches", due.schedule.branch_id)
  if (project === undefined || branch === undefined) return []
  const retention = due.item.retention_seconds
  const { changes } = take(
    state,
    project,
    branch,
    {
      at: due.at,
      name: `${branch.name}-${due.item.frequency}-${secondsIso(due.at)}`,
      expires_at: retention === undefined ? undefined : due.at + retention * 1000,
      manual: false
    },
    due.at,
    dice
  )
  return changes
}

/**
 * The control plane's snapshot work due by `now` (docs/contract.md §19): each backup schedule
 * entry's latest time since the schedule last took (a snapshot, `create_timeline`, at that time),
 * then every snapshot whose `expires_at` has passed (deleted, `delete_timeline`, at that time),
 * earliest first, each on the state the ones before leave; then each schedule that took has
 * taken until `now`. A pure function of the state: run by the control plane's step.
 */
export const scheduledSnapshots = (state: State, now: number, dice: Dice): ReadonlyArray<Change> => {
  if (snapshotsDueAt(state) > now) return []
  const changes: Array<Change> = []
  let current = state
  // Twice at most: a snapshot taken now may itself have expired by now.
  for (let round = 0; round < 2 && snapshotsDueAt(current) <= now; round++) {
    const due = dueBy(current, now)
    const schedules = new Set<string>()
    for (const item of due) {
      const done = carriedOut(current, item, dice)
      changes.push(...done)
      current = applyAll(current, done)
      if (item._tag === "take") schedules.add(item.schedule.id)
    }
    for (const id of schedules) {
      const schedule = get(current, "backup_schedules", id)
      if (schedule === undefined) continue
      const done = [upsert("backup_schedules", { ...schedule, taken_until: now })]
      changes.push(...done)
      current = applyAll(current, done)
    }
  }
  return changes
}
