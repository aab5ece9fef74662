import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as HashMap from "effect/HashMap"
import * as Queue from "effect/Queue"
import * as Ref from "effect/Ref"
import type * as Scope from "effect/Scope"

/**
 * Tasks run once their delay has passed, on the `Clock` of the fiber that made the timer: what
 * times the client's requests out (`docs/design.md` §3).
 */
export interface Timer {
  /**
   * Runs `task` once `delay` has passed, unless it is cancelled first. The effect it answers
   * cancels it: `true` when it did, `false` when the task was already due (it has run or is
   * running).
   */
  readonly schedule: (delay: Duration.Duration, task: Effect.Effect<void>) => Effect.Effect<Effect.Effect<boolean>>
}

/** A task waiting for its time (epoch ms on the timer's `Clock`). */
interface Pending {
  readonly at: number
  readonly task: Effect.Effect<void>
}

/**
 * The timer's tasks by id, the next id, and when its fiber is to wake (`Infinity`: only when a
 * task is scheduled). `until` may be earlier than every task left (one was cancelled): the fiber
 * then wakes to nothing and sleeps again.
 */
interface State {
  readonly pending: HashMap.HashMap<number, Pending>
  readonly nextId: number
  readonly until: number
}

/**
 * A {@link Timer} on one fiber, forked in the scope: it sleeps until the earliest task's time,
 * runs the tasks due, and sleeps again; a task earlier than that time wakes it. Scheduling and
 * cancelling a task are two updates of a `Ref`: no fiber per task, where `Effect.timeout` races
 * two fibers per timed effect. The fiber ends with the scope.
 */
export const make: Effect.Effect<Timer, never, Scope.Scope> = Effect.gen(function* () {
  const clock = yield* Effect.clock
  const state = yield* Ref.make<State>({ pending: HashMap.empty(), nextId: 0, until: Number.POSITIVE_INFINITY })
  const wakes = yield* Queue.sliding<void>(1)

  /** Runs the tasks due now, and wakes next at the earliest time left. */
  const runDue = Effect.flatMap(clock.currentTimeMillis, (now) =>
    Effect.flatMap(
      Ref.modify(state, ({ nextId, pending }): readonly [Array<Effect.Effect<void>>, State] => {
        const due = HashMap.filter(pending, ({ at }) => at <= now)
        const left = HashMap.removeMany(pending, HashMap.keys(due))
        const until = HashMap.reduce(left, Number.POSITIVE_INFINITY, (earliest, { at }) => Math.min(earliest, at))
        return [Array.from(HashMap.values(due), ({ task }) => task), { pending: left, nextId, until }]
      }),
      (tasks) => Effect.forEach(tasks, (task) => task, { discard: true })
    )
  )

  /** Sleeps until `until`, or until a task earlier than that is scheduled. */
  const wait = Effect.flatMap(Ref.get(state), ({ until }) =>
    until === Number.POSITIVE_INFINITY
      ? Queue.take(wakes)
      : Effect.flatMap(clock.currentTimeMillis, (now) =>
          Effect.raceFirst(clock.sleep(Duration.millis(Math.max(0, until - now))), Queue.take(wakes))
        )
  )

  yield* Effect.zipRight(wait, runDue).pipe(Effect.forever, Effect.forkScoped, Effect.interruptible)

  const cancel = (id: number) =>
    Ref.modify(state, (current): readonly [boolean, State] => [
      HashMap.has(current.pending, id),
      { ...current, pending: HashMap.remove(current.pending, id) }
    ])

  return {
    schedule: (delay, task) =>
      Effect.flatMap(clock.currentTimeMillis, (now) => {
        const at = now + Duration.toMillis(delay)
        return Effect.flatMap(
          Ref.modify(state, ({ nextId, pending, until }): readonly [readonly [number, boolean], State] => [
            [nextId, at < until],
            { pending: HashMap.set(pending, nextId, { at, task }), nextId: nextId + 1, until: Math.min(until, at) }
          ]),
          ([id, earlier]) =>
            earlier ? Effect.as(Queue.offer(wakes, undefined), cancel(id)) : Effect.succeed(cancel(id))
        )
      })
  }
})
