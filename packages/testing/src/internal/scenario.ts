import { isPending } from "@dbplatform/core"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { OperationNotPending, type Scenario, UnknownOperation, UnknownProject } from "../Scenario.js"
import { InvalidSeed } from "../Seed.js"
import { branchId, endpointId, randomDice } from "./ids.js"
import { hashKey, newKeyValue } from "./routes.js"
import { defaultRunsFor, orgIdProblem, sharedProblem, seedProject } from "./seed.js"
import { stepAt, type Store } from "./state.js"
import { apiKeyCreated, operationAt, operationsStarted, projectOf } from "./wire.js"

/** Actions that involve a compute endpoint, so a started one gets an `endpoint_id` (§2.5). */
const computeActions: ReadonlySet<string> = new Set([
  "start_compute",
  "suspend_compute",
  "apply_config",
  "check_availability",
  "create_compute",
  "start_reserved_compute"
])

/** The `Scenario` of the fake over `store`. */
export const scenarioOf = (store: Store): Scenario => {
  const pendingOperation = (projectId: string, operationId: string, now: number) => {
    const operations = store.operations.get(projectId)
    if (operations === undefined) return Effect.fail(new UnknownProject({ projectId }))
    const operation = store.operationsById.get(operationId)
    if (operation === undefined || operation.project_id !== projectId) {
      return Effect.fail(new UnknownOperation({ projectId, operationId }))
    }
    const step = stepAt(operation, now)
    return isPending(step)
      ? Effect.succeed(operation)
      : Effect.fail(new OperationNotPending({ operationId, status: step.status }))
  }

  return {
    addProject: (project) =>
      Effect.gen(function* () {
        const problem = store.projectProblem(project.id) ?? orgIdProblem(project) ?? sharedProblem(project)
        if (problem !== undefined) return yield* new InvalidSeed({ problems: [problem] })
        const now = yield* Clock.currentTimeMillis
        return projectOf(store.addProject(seedProject({ age: 0, ...project }, now)))
      }),

    addApiKey: (name) =>
      Effect.gen(function* () {
        const value = newKeyValue()
        return apiKeyCreated(store.addKey(name, hashKey(value), yield* Clock.currentTimeMillis), value)
      }),

    startOperations: (projectId, starts) =>
      Effect.gen(function* () {
        if (!store.operations.has(projectId)) return yield* new UnknownProject({ projectId })
        const ids = starts.map((start) => start.id ?? crypto.randomUUID())
        const problems = ids.flatMap((id, i) => {
          const problem = store.operationProblem(id, projectId)
          if (problem !== undefined) return [problem]
          return ids.indexOf(id) === i ? [] : [`operation id ${id} appears twice`]
        })
        if (problems.length > 0) return yield* new InvalidSeed({ problems })
        const now = yield* Clock.currentTimeMillis
        const dice = yield* randomDice
        const branch = branchId(dice)
        const endpoint = endpointId(dice)
        let begin = now
        const started = starts.map((start, i) => {
          const runsFor = start.runsFor === undefined ? defaultRunsFor : Duration.toMillis(start.runsFor)
          const operation = store.addOperation(
            {
              id: ids[i]!,
              project_id: projectId,
              branch_id: start.branch_id ?? branch,
              endpoint_id: start.endpoint_id ?? (computeActions.has(start.action) ? endpoint : undefined),
              action: start.action,
              created_at: now,
              failures_count: start.failures_count ?? 0,
              error: start.error,
              retry_at: start.retryIn === undefined ? undefined : begin + runsFor + Duration.toMillis(start.retryIn)
            },
            { begin, runsFor, status: start.status ?? "finished" }
          )
          begin += runsFor
          return operation
        })
        return operationsStarted(started, now)
      }),

    failOperation: (projectId, operationId, failure) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const operation = yield* pendingOperation(projectId, operationId, now)
        const at = Math.max(now, operation.created_at)
        store.rewrite(operation, now, [{ at, status: failure.status ?? "failed" }], {
          failures_count: operation.failures_count + 1,
          error: failure.error,
          retry_at: failure.retryIn === undefined ? undefined : at + Duration.toMillis(failure.retryIn)
        })
        return operationAt(operation, now)
      }),

    cancelOperation: (projectId, operationId, options = {}) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const operation = yield* pendingOperation(projectId, operationId, now)
        const cancellingFor = Duration.toMillis(options.cancellingFor ?? "1 second")
        const at = Math.max(now, operation.created_at)
        store.rewrite(operation, now, [
          { at, status: "cancelling" },
          { at: at + cancellingFor, status: "cancelled" }
        ])
        return operationAt(operation, now)
      })
  }
}
