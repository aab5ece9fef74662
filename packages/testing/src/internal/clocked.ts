/**
 * The fake on its controlled clock (`FakePlatform.Options.clock`, docs/design.md §2): its HTTP
 * app, scenarios and state changes read and sleep on it when it has one, on the caller's `Clock`
 * (e.g. `TestClock`) otherwise.
 */
import * as Effect from "effect/Effect"
import type { ControlledClock } from "../ControlledClock.js"
import type { Scenario } from "../Scenario.js"

/** Where a fake's clock is given: `FakePlatform.Options`. */
export interface OnClock {
  readonly clock?: ControlledClock | undefined
}

/** `effect` on the fake's controlled clock when it has one. */
export const onClock = <A, E, R>(options: OnClock, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  options.clock === undefined ? effect : Effect.withClock(effect, options.clock.clock)

/** `scenario` whose calls run on the fake's controlled clock when it has one. */
export const clockedScenario = (options: OnClock, scenario: Scenario): Scenario =>
  options.clock === undefined
    ? scenario
    : {
        addProject: (project) => onClock(options, scenario.addProject(project)),
        addApiKey: (name) => onClock(options, scenario.addApiKey(name)),
        startOperations: (projectId, starts) => onClock(options, scenario.startOperations(projectId, starts)),
        failOperation: (projectId, operationId, failure) =>
          onClock(options, scenario.failOperation(projectId, operationId, failure)),
        cancelOperation: (projectId, operationId, cancellation) =>
          onClock(options, scenario.cancelOperation(projectId, operationId, cancellation)),
        migrate: (projectId, branchId, databaseName, sql) =>
          onClock(options, scenario.migrate(projectId, branchId, databaseName, sql))
      }
