/**
 * The fake's own changes durable before they return (`FakePlatform.Options.journal`): a
 * `scenario` call and a move of the controlled clock wait for the journal's `sync`, and die with
 * `ChangeNotSaved` when it fails (the control API answers it 503).
 */
import * as Effect from "effect/Effect"
import type { ControlledClock } from "../ControlledClock.js"
import { notSavedDies, type Syncing } from "../engine/journal.js"
import type { Scenario } from "../Scenario.js"
import { type OnClock, onClock } from "./clocked.js"

/** `clock` whose changes return once `journal` (if any) has made everything so far durable, and die when it cannot. */
export const syncedClock = (clock: ControlledClock, journal: Syncing | undefined): ControlledClock => {
  if (journal === undefined) return clock
  const synced = <A>(effect: Effect.Effect<A>) => Effect.tap(effect, () => notSavedDies(journal))
  return {
    ...clock,
    freeze: synced(clock.freeze),
    advance: (by) => synced(clock.advance(by)),
    resume: synced(clock.resume),
    reset: synced(clock.reset)
  }
}

/** `scenario` whose calls return once `journal` (if any) has made their changes durable, and die when it cannot. */
export const syncedScenario = (scenario: Scenario, journal: Syncing | undefined): Scenario => {
  if (journal === undefined) return scenario
  const synced = <A, E>(effect: Effect.Effect<A, E>) => Effect.tap(effect, () => notSavedDies(journal))
  return {
    addProject: (project) => synced(scenario.addProject(project)),
    addApiKey: (name) => synced(scenario.addApiKey(name)),
    startOperations: (projectId, starts) => synced(scenario.startOperations(projectId, starts)),
    failOperation: (projectId, operationId, failure) => synced(scenario.failOperation(projectId, operationId, failure)),
    cancelOperation: (projectId, operationId, options) =>
      synced(scenario.cancelOperation(projectId, operationId, options)),
    migrate: (projectId, branchId, databaseName, sql) =>
      synced(scenario.migrate(projectId, branchId, databaseName, sql))
  }
}

/** `effect` on the fake's clock, returning once its changes are durable with a `journal`. */
export const durably = <A, E>(
  options: OnClock & { readonly journal?: Syncing | undefined },
  effect: Effect.Effect<A, E>
): Effect.Effect<A, E> => {
  const { journal } = options
  return onClock(options, journal === undefined ? effect : Effect.tap(effect, () => notSavedDies(journal)))
}
