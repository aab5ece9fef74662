/**
 * A `Clock` that a test outside the process can move: real time by default, frozen on demand,
 * advanced by a duration at once, resumed. The emulator runs the fake on it, so that its control
 * API (`ControlApi`) can play out a 10-minute operation with one request (docs/design.md §2;
 * operations, docs/contract.md §10.5). In-process Effect tests keep using `TestClock`.
 *
 * - `freeze` stops time where it is; `advance(by)` moves it forward by `by` (frozen or not);
 *   `resume` lets it run again in real time from where it stands, so time never goes back.
 * - `sleep` (e.g. a `Fault.delay`) counts this clock's time: while frozen it ends only once
 *   `advance` has moved time past its end; while running it ends after the real time left, or at
 *   once when an `advance` jumps past its end.
 *
 * ```ts
 * const clock = yield* ControlledClock.make
 * const fake = yield* FakePlatform.make(seed, { clock })
 * yield* clock.freeze
 * yield* clock.advance("10 minutes") // operations of the fake move on 10 minutes
 * ```
 *
 * @since 0.2.0
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberId from "effect/FiberId"

/**
 * What the clock reads now: `now` in epoch milliseconds, and whether it is `frozen`.
 *
 * @since 0.2.0
 * @category models
 */
export interface ClockState {
  /** The time on the clock, epoch milliseconds. */
  readonly now: number
  /** `true` between `freeze` and `resume`. */
  readonly frozen: boolean
}

/**
 * A clock a test can move (see the module's description). Each operation answers the state
 * after it.
 *
 * @since 0.2.0
 * @category models
 */
export interface ControlledClock {
  /** The `Clock` to run the fake on (`Effect.withClock`, or `FakePlatform.Options.clock`). */
  readonly clock: Clock.Clock
  /** The time now and whether the clock is frozen. */
  readonly state: Effect.Effect<ClockState>
  /** Stops time where it is; idempotent. */
  readonly freeze: Effect.Effect<ClockState>
  /**
   * Moves time forward by `by` (a `Duration` or its input: `"10 minutes"`, a number of ms), at
   * once, frozen or not; sleeps that end by then end. Dies with an `IllegalArgumentException`
   * on a negative or infinite duration.
   */
  readonly advance: (by: Duration.DurationInput) => Effect.Effect<ClockState>
  /** Lets time run again in real time from where it stands (it never goes back); idempotent. */
  readonly resume: Effect.Effect<ClockState>
  /**
   * Back to the clock it follows, running, as when it was made: time may go back (the fake's
   * `reset` calls it before it puts its seed back, so that nothing of the time moved stays).
   */
  readonly reset: Effect.Effect<ClockState>
}

/** The longest a real timer is set for at once (Node's timers overflow past 2^31 - 1 ms). */
const longestTimer = 2 ** 31 - 1

/**
 * A new clock, running, at the time of the `Clock` in context and following it (real time, or a
 * `TestClock` in a test) until it is frozen or advanced.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make: Effect.Effect<ControlledClock> = Effect.map(Effect.clock, (clock) => fromClock(clock))

/**
 * A new clock, running, following `underlying` (Effect's default `Clock` when absent: real
 * time) until it is frozen or advanced.
 *
 * @since 0.2.0
 * @category constructors
 */
export const fromClock = (underlying: Clock.Clock = Clock.make()): ControlledClock => {
  const real = underlying
  let frozen = false
  /** Added to the real time while running. */
  let offset = 0
  /** The time while frozen. */
  let frozenAt = 0
  /** Completed and replaced at every change, to wake the sleepers. */
  let changed = Deferred.unsafeMake<void>(FiberId.none)

  const now = (): number => (frozen ? frozenAt : real.unsafeCurrentTimeMillis() + offset)
  const state = (): ClockState => ({ now: now(), frozen })
  const change = (apply: () => void): ClockState => {
    apply()
    const previous = changed
    changed = Deferred.unsafeMake<void>(FiberId.none)
    Deferred.unsafeDone(previous, Effect.void)
    return state()
  }

  const sleep = (duration: Duration.Duration): Effect.Effect<void> =>
    Effect.suspend(() => {
      const deadline = now() + Duration.toMillis(duration)
      const waitUntilDeadline: Effect.Effect<void> = Effect.suspend(() => {
        const left = deadline - now()
        if (left <= 0) return Effect.void
        const wake = Deferred.await(changed)
        const wait =
          frozen || !Number.isFinite(left)
            ? wake
            : Effect.race(real.sleep(Duration.millis(Math.min(left, longestTimer))), wake)
        return Effect.zipRight(wait, waitUntilDeadline)
      })
      return waitUntilDeadline
    })

  const clock: Clock.Clock = {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: now,
    unsafeCurrentTimeNanos: () => BigInt(Math.floor(now())) * 1_000_000n,
    currentTimeMillis: Effect.sync(now),
    currentTimeNanos: Effect.sync(() => BigInt(Math.floor(now())) * 1_000_000n),
    sleep
  }

  return {
    clock,
    state: Effect.sync(state),
    freeze: Effect.sync(() =>
      frozen
        ? state()
        : change(() => {
            frozenAt = now()
            frozen = true
          })
    ),
    advance: (by) =>
      Effect.suspend(() => {
        const ms = typeof by === "number" ? by : Duration.toMillis(Duration.decode(by))
        if (!(ms >= 0 && Number.isFinite(ms))) {
          return Effect.die(
            new Cause.IllegalArgumentException(`advance: the duration must be finite and >= 0, got ${ms} ms`)
          )
        }
        return Effect.succeed(
          change(() => {
            if (frozen) frozenAt += ms
            else offset += ms
          })
        )
      }),
    resume: Effect.sync(() =>
      frozen
        ? change(() => {
            offset = frozenAt - real.unsafeCurrentTimeMillis()
            frozen = false
          })
        : state()
    ),
    reset: Effect.sync(() =>
      change(() => {
        offset = 0
        frozen = false
      })
    )
  }
}
