import { DecodeIssue, OperationId, ProjectId } from "@dbplatform/core"
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type * as Types from "effect/Types"
import type { SnapshotApiKey, SnapshotChange, SnapshotOperation, SnapshotProject, SnapshotStep } from "../Snapshot.js"

/**
 * A key as the fake keeps it: the SHA-256 of its value, never the value (`docs/contract.md`
 * §10.3); `revoked` and `last_used_*` change.
 */
export type StoredKey = Types.Mutable<typeof SnapshotApiKey.Type>

/** A project as the fake keeps it; the other fields of an answer are derived (`wire.ts`). */
export type StoredProject = typeof SnapshotProject.Type

/** One step of an operation's life: from `at` (epoch ms) on, it has `status`. */
export type Step = typeof SnapshotStep.Type

/**
 * An operation as the fake keeps it: its life as steps (ascending `at`), as a `Snapshot` holds
 * it. `fail` and `cancel` rewrite the steps after the moment they happen, so some fields change.
 */
export type StoredOperation = Types.Mutable<typeof SnapshotOperation.Type>

/**
 * How a new operation lives: it waits (`scheduling`) until `begin`, then runs for `runsFor` ms
 * and ends `status` (see {@link stepsOf}).
 */
export interface Life {
  readonly begin: number
  readonly runsFor: number
  readonly status: string
}

/**
 * The step in force at `now`, or at the operation's `created_at` when that is later: operations
 * started together get `created_at`s a millisecond apart, so the later ones are created just
 * after `now`, and a step set at their creation (a failure, a cancel) is in force at once.
 */
export const stepAt = (operation: StoredOperation, now: number): Step => {
  const at = Math.max(now, operation.created_at)
  let current = operation.steps[0]
  for (const step of operation.steps) {
    if (step.at <= at) current = step
  }
  return current
}

/** How long a started operation stays `scheduling` at most before it is `running`. */
const schedulingAtMost = Duration.toMillis("1 second")

/**
 * The steps of an operation that waits (`scheduling`) until `begin`, then is `scheduling` for
 * its first second (or fifth of `runsFor`, whichever is shorter), `running`, and takes
 * `status` at `begin + runsFor`; with `status` `scheduling` or `running` it stops there.
 */
export const stepsOf = (created: number, { begin, runsFor, status }: Life): StoredOperation["steps"] => {
  const steps: [Step, ...Array<Step>] = [{ at: created, status: "scheduling" }]
  if (status !== "scheduling") steps.push({ at: begin + Math.min(schedulingAtMost, runsFor / 5), status: "running" })
  if (status !== "scheduling" && status !== "running") steps.push({ at: begin + runsFor, status })
  return steps
}

/** Distinct creation times in one list, so a `created_at` cursor never skips an item. */
const distinct = (taken: Set<number>, at: number): number => {
  let time = at
  while (taken.has(time)) time += 1
  taken.add(time)
  return time
}

/**
 * The index of the first item of `list` (newest first by `created_at`) created before `time`,
 * by binary search: where a page after the cursor `time` starts, and where an item created at
 * `time` goes (after any item created at the same time).
 */
export const firstCreatedBefore = (list: ReadonlyArray<{ readonly created_at: number }>, time: number): number => {
  let low = 0
  let high = list.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (list[middle]!.created_at >= time) low = middle + 1
    else high = middle
  }
  return low
}

/** Inserts `item` into `list` (newest first by `created_at`), after any item created at the same time. */
const insertNewestFirst = <A extends { readonly created_at: number }>(list: Array<A>, item: A): void => {
  const at = firstCreatedBefore(list, item.created_at)
  if (at === list.length) list.push(item)
  else list.splice(at, 0, item)
}

/** Newest first by `created_at`; `Array.prototype.sort` is stable, so items created at the same time keep their order. */
const newestFirst = (a: { readonly created_at: number }, b: { readonly created_at: number }): number =>
  b.created_at - a.created_at

/**
 * What core's `schema` says is wrong with `value` (`DecodeIssue.format`), or `undefined` when it
 * decodes: the problems of a seed or a snapshot name what the contract expects in core's words.
 */
export const refusalOf = <A, I>(
  schema: Schema.Schema<A, I>,
  value: unknown,
  options?: DecodeIssue.Options
): string | undefined => {
  const decoded = Schema.decodeUnknownEither(schema)(value)
  return Either.isLeft(decoded) ? DecodeIssue.format(decoded.left.issue, options) : undefined
}

/** A copy of `operation` as a `Snapshot` holds it (absent optional fields left out). */
export const operationSnapshot = (operation: StoredOperation): typeof SnapshotOperation.Type => {
  const { branch_id, endpoint_id, error, retry_at, ...always } = operation
  return {
    ...always,
    ...(branch_id !== undefined ? { branch_id } : {}),
    ...(endpoint_id !== undefined ? { endpoint_id } : {}),
    ...(error !== undefined ? { error } : {}),
    ...(retry_at !== undefined ? { retry_at } : {}),
    steps: [...operation.steps]
  }
}

/** The id the first key of an account gets; later keys count up from it. */
const firstKeyId = 1_000_001

/**
 * The in-memory state of one fake account. Single-threaded: every method runs to completion.
 * `revision` grows with every change, so a caller can tell when to save it. When `onChange` is
 * set, every change made through the methods below (not a key's `last_used_*`) is passed to it
 * at once, with the whole record as it is after the change.
 */
export class Store {
  readonly keys = new Map<number, StoredKey>()
  readonly keysByHash = new Map<string, StoredKey>()
  /** Newest first by `created_at`. */
  readonly projects: Array<StoredProject> = []
  /** Per project, newest first by `created_at`. */
  readonly operations = new Map<string, Array<StoredOperation>>()
  readonly operationsById = new Map<string, StoredOperation>()
  private readonly projectTimes = new Set<number>()
  private readonly operationTimes = new Map<string, Set<number>>()
  /** Inside {@link loadOperations}: operations are appended, and sorted once at the end. */
  private loading = false
  nextKeyId = firstKeyId
  revision = 0
  /** Told of each change as it is made (a journal); none by default. */
  onChange: ((change: SnapshotChange) => void) | undefined = undefined

  /** Marks a change. */
  changed(): void {
    this.revision += 1
  }

  /**
   * Puts the whole state of `other` (a store just built from a seed or a snapshot) in place of
   * this one's, in place, so that everything holding this store (the routes) sees it at once.
   * `onChange` is not told: the caller records the whole state.
   */
  replaceWith(other: Store): void {
    for (const map of [this.keys, this.keysByHash, this.operations, this.operationsById, this.operationTimes]) {
      map.clear()
    }
    this.projectTimes.clear()
    this.projects.length = 0
    for (const [id, key] of other.keys) this.keys.set(id, key)
    for (const [hash, key] of other.keysByHash) this.keysByHash.set(hash, key)
    this.projects.push(...other.projects)
    for (const [id, operations] of other.operations) this.operations.set(id, operations)
    for (const [id, operation] of other.operationsById) this.operationsById.set(id, operation)
    for (const at of other.projectTimes) this.projectTimes.add(at)
    for (const [id, times] of other.operationTimes) this.operationTimes.set(id, times)
    this.nextKeyId = other.nextKeyId
    this.changed()
  }

  addKey(name: string, hash: string, now: number): StoredKey {
    return this.keyChanged(
      this.restoreKey({
        id: this.nextKeyId,
        name,
        hash,
        created_at: now,
        revoked: false,
        last_used_at: null,
        last_used_from_addr: ""
      })
    )
  }

  /** Revokes `key`. */
  revokeKey(key: StoredKey): StoredKey {
    key.revoked = true
    this.changed()
    return this.keyChanged(key)
  }

  private keyChanged(key: StoredKey): StoredKey {
    this.onChange?.({ _tag: "ApiKey", api_key: { ...key } })
    return key
  }

  private operationChanged(operation: StoredOperation): StoredOperation {
    this.onChange?.({ _tag: "Operation", operation: operationSnapshot(operation) })
    return operation
  }

  /** Adds a key as it was saved. */
  restoreKey(key: StoredKey): StoredKey {
    this.keys.set(key.id, key)
    this.keysByHash.set(key.hash, key)
    this.nextKeyId = Math.max(this.nextKeyId, key.id + 1)
    this.changed()
    return key
  }

  /** A problem with a new project's id, or `undefined` when it can be added. */
  projectProblem(id: string): string | undefined {
    const refused = refusalOf(ProjectId, id)
    if (refused !== undefined) return `project "${DecodeIssue.excerpt(id)}": ${refused}`
    if (this.operations.has(id)) return `project id ${id} appears twice`
    return undefined
  }

  /** Adds a project whose id is good (see `projectProblem`); its `created_at` is made distinct. */
  addProject(project: StoredProject): StoredProject {
    const stored = { ...project, created_at: distinct(this.projectTimes, project.created_at) }
    insertNewestFirst(this.projects, stored)
    this.operations.set(stored.id, [])
    this.changed()
    this.onChange?.({ _tag: "Project", project: { ...stored } })
    return stored
  }

  /** A problem with a new operation's id or project, or `undefined` when it can be added. */
  operationProblem(id: string, projectId: string): string | undefined {
    if (!this.operations.has(projectId)) return `operation of unknown project ${projectId}`
    const refused = refusalOf(OperationId, id, { values: "never" })
    if (refused !== undefined) return `operation "${DecodeIssue.excerpt(id)}": ${refused}`
    if (this.operationsById.has(id)) return `operation id ${id} appears twice`
    return undefined
  }

  /**
   * Adds an operation whose id and project are good (see `operationProblem`), living `life`.
   * `created_at` is moved forward by a millisecond or more if the project has one then.
   */
  addOperation(operation: Omit<StoredOperation, "steps">, life: Life): StoredOperation {
    const taken = this.operationTimes.get(operation.project_id) ?? new Set<number>()
    this.operationTimes.set(operation.project_id, taken)
    const created = distinct(taken, operation.created_at)
    const begin = Math.max(life.begin, created)
    const stored = this.restoreOperation({
      ...operation,
      created_at: created,
      steps: stepsOf(created, { ...life, begin })
    })
    return this.operationChanged(stored)
  }

  /** Adds an operation as it was saved (its project known, its id new). */
  restoreOperation(operation: StoredOperation): StoredOperation {
    const taken = this.operationTimes.get(operation.project_id) ?? new Set<number>()
    this.operationTimes.set(operation.project_id, taken)
    taken.add(operation.created_at)
    const list = this.operations.get(operation.project_id)!
    if (this.loading) list.push(operation)
    else insertNewestFirst(list, operation)
    this.operationsById.set(operation.id, operation)
    this.changed()
    return operation
  }

  /**
   * Runs `add`, which adds many operations (a seed's, a snapshot's), then puts each project's
   * operations in order once (newest first; those created at the same time in the order they
   * were added, as when added one by one) instead of inserting each in place.
   */
  loadOperations<A>(add: () => A): A {
    this.loading = true
    try {
      return add()
    } finally {
      this.loading = false
      for (const list of this.operations.values()) list.sort(newestFirst)
    }
  }

  /**
   * Rewrites the life of `operation` from `now` on: the steps before `now` stay, then `steps`.
   * The first step (`scheduling` at creation) always stays. `failure` sets `failures_count`,
   * `error` and `retry_at` in the same change.
   */
  rewrite(
    operation: StoredOperation,
    now: number,
    steps: ReadonlyArray<Step>,
    failure?: Pick<StoredOperation, "failures_count" | "error" | "retry_at">
  ): void {
    const [first, ...later] = operation.steps
    operation.steps = [first, ...later.filter((step) => step.at <= now), ...steps]
    if (failure !== undefined) {
      operation.failures_count = failure.failures_count
      operation.error = failure.error
      operation.retry_at = failure.retry_at
    }
    this.changed()
    this.operationChanged(operation)
  }
}
