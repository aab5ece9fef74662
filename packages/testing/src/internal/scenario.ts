import type { OperationsStarted } from "@dbplatform/core"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Ref from "effect/Ref"
import type { DdlParser } from "../DdlParser.js"
import {
  InvalidMigration,
  MigrationTooLarge,
  OperationNotPending,
  type Scenario,
  UnknownDatabase,
  UnknownOperation,
  UnknownProject
} from "../Scenario.js"
import { InvalidSeed } from "../Seed.js"
import { changeSchema, schemaJson, tablesJsonSteps, tablesNow } from "../resources/BranchSchema/steps.js"
import { lsnAt } from "../engine/lsn.js"
import { applyDdl, applySteps } from "../resources/BranchSchema/ddl.js"
import { migrationLimitBytes, overLimit } from "../resources/BranchSchema/parse.js"
import { databaseOf } from "../resources/Databases/steps.js"
import { branchId, endpointId } from "../engine/ids.js"
import { defaultOrgId, upsert } from "../engine/kinds.js"
import { organizationImplied } from "../resources/Organizations/steps.js"
import { pendingAt, rewritten, startOperations, stepAt } from "../engine/operations.js"
import { defaultBranchOf, defaultRunsFor, seedProject } from "./seed.js"
import {
  distinctTime,
  type FakeState,
  get,
  type Mutation,
  type State,
  type StoredDatabase,
  type StoredOperation
} from "../engine/state.js"
import { sliced } from "../engine/slices.js"
import { apiKeyCreated, at, operationAt, operationsStarted, projectOf } from "../engine/wire.js"
import { specOf } from "./kinds.js"
import { hashKey, keyAdded, newKeyValue } from "../engine/authentication.js"
import { change } from "../engine/change.js"

/** Actions that involve a compute endpoint, so a started one gets an `endpoint_id` (§2.5). */
const computeActions: ReadonlySet<string> = new Set([
  "start_compute",
  "suspend_compute",
  "apply_config",
  "check_availability",
  "create_compute",
  "start_reserved_compute"
])

/** The operation `operationId` of project `projectId`, still pending at `now`, or why not. */
const pendingOperation = (
  state: State,
  projectId: string,
  operationId: string,
  now: number
): Either.Either<StoredOperation, UnknownProject | UnknownOperation | OperationNotPending> => {
  if (get(state, "projects", projectId) === undefined) return Either.left(new UnknownProject({ projectId }))
  const operation = get(state, "operations", operationId)
  if (operation === undefined || operation.project_id !== projectId) {
    return Either.left(new UnknownOperation({ projectId, operationId }))
  }
  return pendingAt(operation, now)
    ? Either.right(operation)
    : Either.left(new OperationNotPending({ operationId, status: stepAt(operation, now).status }))
}

/**
 * The `Scenario` of the fake over `fake`: each call one change (`engine/change.ts`), as a
 * request's; a migration's SQL is read with `parser` first.
 */
export const scenarioOf = (fake: FakeState, parser: DdlParser): Scenario => ({
  addProject: (project) =>
    change(fake, () => (state, now) => {
      const seeded = seedProject({ age: 0, ...project }, now)
      const stored = { ...seeded, created_at: distinctTime(state, "projects", "", seeded.created_at) }
      const branch = defaultBranchOf(stored)
      const problem =
        get(state, "projects", project.id) !== undefined
          ? [`project id ${project.id} appears twice`]
          : [...(specOf("projects").check?.(stored) ?? [])]
      if (problem.length > 0) return Either.left(new InvalidSeed({ problems: problem }))
      return Either.right({
        // Its organization exists, implied when nothing declared it (docs/contract.md §20): the
        // account's personal keys reach the project as they would one it created (§21).
        changes: [
          ...organizationImplied(state, stored.org_id ?? defaultOrgId, stored.created_at),
          upsert("projects", stored),
          upsert("branches", branch)
        ],
        answer: projectOf(stored)
      })
    }),

  addApiKey: (name) => {
    const value = newKeyValue()
    return change(fake, () => (state, now) => {
      const { changes, key } = keyAdded(state, name, hashKey(value), now)
      return Either.right({ changes, answer: apiKeyCreated(key, value) })
    })
  },

  startOperations: (projectId, starts) =>
    change(fake, (dice): Mutation<OperationsStarted, UnknownProject | InvalidSeed> => {
      const branch = branchId(dice)
      const endpoint = endpointId(dice)
      const ids = starts.map((start) => start.id ?? crypto.randomUUID())
      return (state, now) => {
        if (get(state, "projects", projectId) === undefined) return Either.left(new UnknownProject({ projectId }))
        const found = ids.flatMap((id, i) => {
          const problem = specOf("operations").check?.({ id } as StoredOperation) ?? []
          if (problem.length > 0) return problem
          const taken = get(state, "operations", id) !== undefined || ids.indexOf(id) !== i
          return taken ? [`operation id ${id} appears twice`] : []
        })
        if (found.length > 0) return Either.left(new InvalidSeed({ problems: found }))
        const planned = starts.map((start, i) => {
          const runsFor = start.runsFor === undefined ? defaultRunsFor : Duration.toMillis(start.runsFor)
          return {
            id: ids[i]!,
            action: start.action,
            branch_id: start.branch_id ?? branch,
            endpoint_id: start.endpoint_id ?? (computeActions.has(start.action) ? endpoint : undefined),
            runsFor,
            status: start.status,
            failures_count: start.failures_count,
            error: start.error,
            retryIn: start.retryIn === undefined ? undefined : Duration.toMillis(start.retryIn)
          }
        })
        const { changes, operations } = startOperations(state, projectId, planned, now)
        return Either.right({ changes, answer: operationsStarted(operations, now) })
      }
    }),

  failOperation: (projectId, operationId, failure) =>
    change(
      fake,
      () => (state, now) =>
        Either.map(pendingOperation(state, projectId, operationId, now), (operation) => {
          const at = Math.max(now, operation.created_at)
          const failed = rewritten(operation, now, [{ at, status: failure.status ?? "failed" }], {
            failures_count: operation.failures_count + 1,
            error: failure.error,
            retry_at: failure.retryIn === undefined ? undefined : at + Duration.toMillis(failure.retryIn)
          })
          return { changes: [upsert("operations", failed)], answer: operationAt(failed, now) }
        })
    ),

  cancelOperation: (projectId, operationId, options = {}) =>
    change(
      fake,
      () => (state, now) =>
        Either.map(pendingOperation(state, projectId, operationId, now), (operation) => {
          const cancellingFor = Duration.toMillis(options.cancellingFor ?? "1 second")
          const at = Math.max(now, operation.created_at)
          const cancelled = rewritten(operation, now, [
            { at, status: "cancelling" },
            { at: at + cancellingFor, status: "cancelled" }
          ])
          return { changes: [upsert("operations", cancelled)], answer: operationAt(cancelled, now) }
        })
    ),

  migrate: (projectId, branchId, databaseName, sql) =>
    Effect.gen(function* () {
      const known = (state: State): Either.Either<StoredDatabase, UnknownProject | UnknownDatabase> =>
        get(state, "projects", projectId) === undefined
          ? Either.left(new UnknownProject({ projectId }))
          : Either.mapLeft(
              databaseOf(state, projectId, branchId, databaseName),
              () => new UnknownDatabase({ projectId, branchId, databaseName })
            )
      // The names first, then the size, then the parse (the costly step, before the state is taken).
      yield* known(yield* Ref.get(fake.ref))
      const bytes = overLimit(sql, migrationLimitBytes)
      if (bytes !== undefined) return yield* new MigrationTooLarge({ bytes, limitBytes: migrationLimitBytes })
      const parsed = yield* parser.parse(sql)
      // Applied first to the schema as it is now, in slices, before the state is taken: the
      // change takes that when the schema is still the same, and applies it again otherwise.
      const early = Either.getOrUndefined(known(yield* Ref.get(fake.ref)))
      const base = early === undefined ? undefined : tablesNow(early)
      const applied = base === undefined ? undefined : yield* sliced(applySteps(base, parsed))
      if (applied !== undefined && Either.isRight(applied)) yield* sliced(tablesJsonSteps(applied.right.tables))
      const { at: from, database } = yield* change(
        fake,
        () => (state, now) =>
          Either.flatMap(known(state), () =>
            changeSchema<UnknownProject | UnknownDatabase | InvalidMigration>(
              projectId,
              branchId,
              databaseName,
              (tables) =>
                Either.mapLeft(
                  tables === base && applied !== undefined ? applied : applyDdl(tables, parsed),
                  (reason) => new InvalidMigration({ reason })
                ),
              () => new UnknownDatabase({ projectId, branchId, databaseName })
            )(state, now)
          )
      )
      return { json: schemaJson(tablesNow(database)), timestamp: at(from), lsn: lsnAt(from) }
    })
})
