import { isTerminal, type Operation, type OperationId } from "@dbplatform/core"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as SynchronizedRef from "effect/SynchronizedRef"
import type { OperationRef } from "../Operations.js"

/** An operation to follow: its project and id, and when known its `created_at`. */
export type Target = OperationRef

/**
 * When to read again, from now on: on each recurrence of `schedule` (its input the last read),
 * while the last read is not `done`, and never for a read that would start more than `timeout`
 * after now (the wait's start, before its first read). Outputs its input, so that
 * `Effect.repeat` returns the last read.
 */
export const rounds = <In, R>(
  schedule: Schedule.Schedule<unknown, In, R>,
  done: (read: In) => boolean,
  timeout: Duration.DurationInput | undefined
): Effect.Effect<Schedule.Schedule<In, In, R>> =>
  Effect.map(Clock.currentTimeMillis, (start) => {
    const endAt = start + Duration.toMillis(Duration.decode(timeout ?? Duration.infinity))
    return schedule.pipe(
      Schedule.whileInput((read: In) => !done(read)),
      Schedule.delays,
      Schedule.checkEffect((_, delay) =>
        Effect.map(Clock.currentTimeMillis, (now) => now + Duration.toMillis(delay) <= endAt)
      ),
      Schedule.passthrough
    )
  })

/** Every state ended: what ends a wait for many operations. */
export const allTerminal = (states: ReadonlyArray<Operation>): boolean => states.every(isTerminal)

/** Reads the state of each of `pending`, one state per target (never fewer, never others). */
export type Read<E, R> = (pending: ReadonlyArray<Target>) => Effect.Effect<ReadonlyArray<Operation>, E, R>

/**
 * One round of a wait for `targets` (duplicates dropped), to repeat: reads, with `read`, the
 * targets not yet read or not yet terminal, and answers every target's last state, in the
 * targets' order. Each wait makes its own.
 */
export const round = <E, R>(
  targets: Iterable<Target>,
  read: Read<E, R>
): Effect.Effect<Effect.Effect<ReadonlyArray<Operation>, E, R>> => {
  const unique = [...new Map(Array.from(targets, (target) => [target.id, target])).values()]
  return SynchronizedRef.make<ReadonlyMap<OperationId, Operation>>(new Map()).pipe(
    Effect.map((progress) =>
      SynchronizedRef.updateAndGetEffect(progress, (last) =>
        Effect.map(
          read(
            unique.flatMap((target) => {
              const state = last.get(target.id)
              // The last state read stands for the target: it knows its `created_at`.
              return state === undefined ? [target] : isTerminal(state) ? [] : [state]
            })
          ),
          (states) => new Map([...last, ...states.map((state) => [state.id, state] as const)])
        )
      ).pipe(Effect.map((now) => unique.flatMap((target) => Option.toArray(Option.fromNullable(now.get(target.id))))))
    )
  )
}
