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
 * Reads the state of each of `pending`, in their order, one state per target: a reader never
 * answers for fewer operations, or for others, than it was asked about.
 */
export type Read<E, R> = (pending: ReadonlyArray<Target>) => Effect.Effect<ReadonlyArray<Operation>, E, R>

/** A run of rounds: the first round's states, read at once, and the rounds after it. */
export interface Rounds<E, R> {
  readonly first: ReadonlyArray<Operation>
  readonly rest: Stream.Stream<ReadonlyArray<Operation>, E, R>
}

/**
 * Starts following `targets` (duplicates dropped) with a reader `makeRead` makes for this run:
 * reads all of them at once (`first`), then `rest` reads, on each recurrence of `schedule`
 * (its input is the round's states), the ones not yet terminal, and emits every target's state
 * after the round, in the targets' order. `rest` ends after the round in which all are
 * terminal, when the schedule ends, or when its next round would start after `timeout`
 * (counted from the first read).
 */
export const start = <E, R, RS>(
  targets: Iterable<Target>,
  makeRead: () => Read<E, R>,
  schedule: Schedule.Schedule<unknown, ReadonlyArray<Operation>, RS>,
  timeout: Duration.DurationInput | undefined
): Effect.Effect<Rounds<E, R | RS>, E, R> =>
  Effect.gen(function* () {
    const unique = [...new Map(Array.from(targets, (target) => [target.id, target])).values()]
    const read = makeRead()
    const endAt = (yield* Clock.currentTimeMillis) + Duration.toMillis(timeout ?? Duration.infinity)
    const first = yield* read(unique)
    const driver = yield* Schedule.driver(
      Schedule.delays(schedule).pipe(
        Schedule.checkEffect((_, delay) =>
          Effect.map(Clock.currentTimeMillis, (now) => now + Duration.toMillis(delay) <= endAt)
        )
      )
    )
    const round = (previous: ReadonlyArray<Operation>) => {
      const pending = previous.filter((operation) => !isTerminal(operation))
      return Effect.map(read(pending), (states) => {
        const byId = new Map(states.map((state) => [state.id, state]))
        return previous.map((state) => byId.get(state.id) ?? state)
      })
    }
    const rest = Stream.unfoldEffect(first, (previous) =>
      previous.every(isTerminal)
        ? Effect.succeed(Option.none())
        : driver.next(previous).pipe(
            Effect.matchEffect({
              onFailure: () => Effect.succeed(Option.none()),
              onSuccess: () => Effect.map(round(previous), (states) => Option.some([states, states] as const))
            })
          )
    )
    return { first, rest }
  })

/** Every round of {@link start} as one stream: the first round's states, then the others'. */
export const track = <E, R, RS>(
  ...args: Parameters<typeof start<E, R, RS>>
): Stream.Stream<ReadonlyArray<Operation>, E, R | RS> =>
  Stream.unwrap(Effect.map(start(...args), ({ first, rest }) => Stream.concat(Stream.make(first), rest)))

/** The states after the last round of {@link start}. */
export const lastRound = <E, R, RS>(
  ...args: Parameters<typeof start<E, R, RS>>
): Effect.Effect<ReadonlyArray<Operation>, E, R | RS> =>
  Effect.flatMap(start(...args), ({ first, rest }) => Stream.runFold(rest, first, (_, states) => states))
