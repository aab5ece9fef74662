import { ApiKeyCreated, Operation, OperationsStarted, Project } from "@dbplatform/core"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Random from "effect/Random"
import * as Schema from "effect/Schema"
import { OperationNotPending, type Scenario, UnknownOperation, UnknownProject } from "../Scenario.js"
import { InvalidSeed } from "../Seed.js"
import { hashKey, newKeyValue } from "./routes.js"
import { isPendingStatus, iso, operationJson, projectJson, seedProject, stepAt, type Store, userId } from "./store.js"

/** Actions that involve a compute endpoint, so a started one gets an `endpoint_id` (§2.5). */
const computeActions: ReadonlySet<string> = new Set([
  "start_compute",
  "suspend_compute",
  "apply_config",
  "check_availability",
  "create_compute",
  "start_reserved_compute"
])

const words = ["spring", "wispy", "proud", "silent", "ancient", "bold", "young", "late", "holy", "round"]
const things = ["example", "meadow", "mud", "river", "sun", "leaf", "grass", "cloud", "dawn", "frost"]

/** An id like the platform's: `br-wispy-meadow-118737`, `ep-proud-mud-a5x8dq2u`. */
const resourceId = (prefix: "br" | "ep") =>
  Effect.gen(function* () {
    const word = words[yield* Random.nextIntBetween(0, words.length)]!
    const thing = things[yield* Random.nextIntBetween(0, things.length)]!
    if (prefix === "br") return `br-${word}-${thing}-${yield* Random.nextIntBetween(100000, 1000000)}`
    let suffix = ""
    for (let i = 0; i < 8; i++) suffix += "abcdefghijklmnopqrstuvwxyz0123456789"[yield* Random.nextIntBetween(0, 36)]
    return `ep-${word}-${thing}-${suffix}`
  })

const decodeOperation = Schema.decodeUnknownSync(Operation)

/** The `Scenario` of the fake over `store`. */
export const scenarioOf = (store: Store): Scenario => {
  const pendingOperation = (projectId: string, operationId: string, now: number) => {
    const operations = store.operations.get(projectId)
    if (operations === undefined) return Effect.fail(new UnknownProject({ projectId }))
    const operation = store.operationsById.get(operationId)
    if (operation === undefined || operation.project_id !== projectId) {
      return Effect.fail(new UnknownOperation({ projectId, operationId }))
    }
    const { status } = stepAt(operation, now)
    return isPendingStatus(status)
      ? Effect.succeed(operation)
      : Effect.fail(new OperationNotPending({ operationId, status }))
  }

  return {
    addProject: (project) =>
      Effect.gen(function* () {
        const problem = store.projectProblem(project.id)
        if (problem !== undefined) return yield* new InvalidSeed({ problems: [problem] })
        const now = yield* Clock.currentTimeMillis
        const stored = store.addProject(seedProject({ age: 0, ...project }, now))
        return Schema.decodeUnknownSync(Project)(projectJson(stored))
      }),

    addApiKey: (name) =>
      Effect.gen(function* () {
        const value = newKeyValue()
        const key = store.addKey(name, hashKey(value), yield* Clock.currentTimeMillis)
        return Schema.decodeUnknownSync(ApiKeyCreated)({
          id: key.id,
          key: value,
          name: key.name,
          created_at: iso(key.created_at),
          created_by: userId
        })
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
        const branch = yield* resourceId("br")
        const endpoint = yield* resourceId("ep")
        let begin = now
        const started = starts.map((start, i) => {
          const runsFor = Duration.toMillis(start.runsFor ?? "2 seconds")
          const status = start.status ?? "finished"
          const operation = store.addOperation({
            id: ids[i]!,
            project_id: projectId,
            branch_id: start.branch_id ?? branch,
            endpoint_id: start.endpoint_id ?? (computeActions.has(start.action) ? endpoint : undefined),
            action: start.action,
            created_at: now,
            begin,
            runsFor,
            status,
            failures_count: start.failures_count ?? 0,
            error: start.error,
            retry_at: start.retryIn === undefined ? undefined : begin + runsFor + Duration.toMillis(start.retryIn)
          })
          begin += runsFor
          return operationJson(operation, now)
        })
        return Schema.decodeUnknownSync(OperationsStarted)({ operations: started })
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
        return decodeOperation(operationJson(operation, now))
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
        return decodeOperation(operationJson(operation, now))
      })
  }
}
