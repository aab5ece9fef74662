/**
 * The life of the fake's operations: their steps, the ones a mutation starts (one after another,
 * as the platform runs a mutation's operations), and the project lock they hold while pending
 * (docs/contract.md §4, §10.5).
 */
import { isPending } from "@dbplatform/core"
import * as Duration from "effect/Duration"
import { type Change, present, upsert } from "./kinds.js"
import { type Dice, uuid } from "./ids.js"
import { distinctTime, freshId, itemsOf, type State, type StoredOperation } from "./state.js"

/** One step of an operation's life: from `at` (epoch ms) on, it has `status`. */
export type Step = StoredOperation["steps"][number]

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

/**
 * An operation a mutation starts: `action`, the branch and compute endpoint it acts on, how long
 * it runs once begun (`runsFor`, ms) and how it ends (`finished` by default). `id` a UUID.
 */
export interface OperationToStart {
  readonly id: string
  readonly action: StoredOperation["action"]
  readonly branch_id?: string | undefined
  readonly endpoint_id?: string | undefined
  readonly runsFor: number
  readonly status?: string | undefined
  readonly failures_count?: number | undefined
  readonly error?: string | undefined
  /** When the failed step is retried, counted from the moment it takes `status` (ms). */
  readonly retryIn?: number | undefined
}

/**
 * The operations `starts` of project `projectId`, started at `now` one after another (each
 * begins when the one before ends; the first at once): each `scheduling`, then `running`, then
 * its `status`. Their `created_at`s are `now`, moved a millisecond on where the project already
 * has an operation created then. Answers their `Upsert`s and the operations, in order.
 */
export const startOperations = (
  state: State,
  projectId: string,
  starts: ReadonlyArray<OperationToStart>,
  now: number
): { readonly changes: ReadonlyArray<Change>; readonly operations: ReadonlyArray<StoredOperation> } => {
  const taken = new Set<number>()
  let begin = now
  const operations = starts.map((start) => {
    const created = distinctTime(state, "operations", projectId, now, taken)
    taken.add(created)
    const status = start.status ?? "finished"
    const operation: StoredOperation = present({
      id: start.id,
      project_id: projectId,
      branch_id: start.branch_id,
      endpoint_id: start.endpoint_id,
      action: start.action,
      created_at: created,
      steps: stepsOf(created, { begin: Math.max(begin, created), runsFor: start.runsFor, status }),
      failures_count: start.failures_count ?? 0,
      error: start.error,
      retry_at: start.retryIn === undefined ? undefined : begin + start.runsFor + start.retryIn
    })
    begin += start.runsFor
    return operation
  })
  return { changes: operations.map((operation) => upsert("operations", operation)), operations }
}

/** When `operation` takes its last step (its end, for one that ends). */
export const endOf = (operation: StoredOperation): number => operation.steps[operation.steps.length - 1].at

/**
 * Actions that conflict with nothing: the control plane's `check_availability` only reads, so it
 * does not lock its project (docs/contract.md §12).
 */
const lockless: ReadonlySet<string> = new Set(["check_availability"])

/**
 * A pending (`scheduling` or `running`) operation of project `projectId` at `now`, if any: while
 * there is one (but a `check_availability`), a mutation of the project answers 423 Locked and
 * changes nothing.
 */
export const lockedBy = (state: State, projectId: string, now: number): StoredOperation | undefined => {
  for (const operation of itemsOf(state, "operations", projectId)) {
    if (lockless.has(operation.action)) continue
    const { status } = stepAt(operation, now)
    if (status === "scheduling" || status === "running") return operation
  }
  return undefined
}

/** Whether `operation` is still pending at `now` (`scheduling`, `running` or `cancelling`). */
export const pendingAt = (operation: StoredOperation, now: number): boolean => isPending(stepAt(operation, now))

/**
 * `operation` with its life from `now` on rewritten: the steps before `now` stay, then `steps`.
 * The first step (`scheduling` at creation) always stays. `failure` sets `failures_count`,
 * `error` and `retry_at` in the same change.
 */
export const rewritten = (
  operation: StoredOperation,
  now: number,
  steps: ReadonlyArray<Step>,
  failure?: Pick<StoredOperation, "failures_count" | "error" | "retry_at">
): StoredOperation => {
  const [first, ...later] = operation.steps
  return present({
    ...operation,
    ...failure,
    steps: [first, ...later.filter((step) => step.at <= now), ...steps]
  })
}

/** How long each operation a branch mutation starts runs, in ms. */
export const runsFor = {
  create_branch: Duration.toMillis("2 seconds"),
  start_compute: Duration.toMillis("3 seconds"),
  suspend_compute: Duration.toMillis("1 second"),
  delete_timeline: Duration.toMillis("2 seconds"),
  create_timeline: Duration.toMillis("3 seconds"),
  apply_storage_config: Duration.toMillis("1 second"),
  delete_tenant: Duration.toMillis("2 seconds"),
  apply_config: Duration.toMillis("1 second"),
  check_availability: Duration.toMillis("1 second")
} as const

/**
 * How a mutation names the operations it starts: `action` on `branchId` (and `endpointId`),
 * with a fresh id and the run time of {@link runsFor}.
 */
export const starter =
  (state: State, dice: Dice) =>
  (action: keyof typeof runsFor, branchId: string, endpointId?: string): OperationToStart => ({
    id: freshId(state, "operations", () => uuid(dice)),
    action,
    branch_id: branchId,
    ...(endpointId === undefined ? {} : { endpoint_id: endpointId }),
    runsFor: runsFor[action]
  })
