import { isTerminal, type Operation } from "@dbplatform/core"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"

import type { OperationRef } from "../Operations.js"

/** An operation to follow: its project and id, and when known its `created_at`. */
export type Target = OperationRef

/**
 * The state of every target after each round of reads (by a reader `makeRead` makes for this
 * run), in the targets' order (duplicates dropped): the first round at once, then one round per recurrence of `schedule` (its input is
 * the round's states), reading only the operations not yet terminal. Ends after the round in
 * which all are terminal, or when the schedule ends, or when its next round would start after
 * `timeout` (counted from the start).
 */
export const track = <E, R, RS>(
  targets: Iterable<Target>,
  makeRead: () => (pending: ReadonlyArray<Target>) => Effect.Effect<ReadonlyArray<Operation>, E, R>,
  schedule: Schedule.Schedule<unknown, ReadonlyArray<Operation>, RS>,
  timeout: Duration.DurationInput | undefined
): Stream.Stream<ReadonlyArray<Operation>, E, R | RS> => {
  const unique = [...new Map(Array.from(targets, (target) => [target.id, target])).values()]
  return Stream.unwrap(
    Effect.gen(function* () {
      const read = makeRead()
      const endAt = (yield* Clock.currentTimeMillis) + Duration.toMillis(timeout ?? Duration.infinity)
      const driver = yield* Schedule.driver(
        Schedule.delays(schedule).pipe(
          Schedule.checkEffect((_, delay) =>
            Effect.map(Clock.currentTimeMillis, (now) => now + Duration.toMillis(delay) <= endAt)
          )
        )
      )
      const round = (previous: ReadonlyArray<Operation> | undefined) => {
        const pending = previous === undefined ? unique : previous.filter((operation) => !isTerminal(operation))
        return Effect.map(read(pending), (operations) => {
          const byId = new Map(operations.map((operation) => [operation.id, operation]))
          const states = previous ?? []
          return previous === undefined
            ? unique.flatMap((target) => {
                const state = byId.get(target.id)
                return state === undefined ? [] : [state]
              })
            : states.map((state) => byId.get(state.id) ?? state)
        })
      }
      return Stream.unfoldEffect(undefined as ReadonlyArray<Operation> | undefined, (previous) => {
        if (previous === undefined) return Effect.map(round(undefined), (states) => Option.some([states, states]))
        if (previous.every(isTerminal)) return Effect.succeed(Option.none())
        return driver.next(previous).pipe(
          Effect.matchEffect({
            onFailure: () => Effect.succeed(Option.none()),
            onSuccess: () => Effect.map(round(previous), (states) => Option.some([states, states] as const))
          })
        )
      })
    })
  )
}
