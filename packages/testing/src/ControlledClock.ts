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
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"

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

/** How the clock stands: following the underlying clock `offset` ms ahead of it, or frozen `at` a time (epoch ms). */
type Standing = { readonly _tag: "Running"; readonly offset: number } | { readonly _tag: "Frozen"; readonly at: number }

/** How the clock stands, and `changed`, completed once it stands otherwise (to wake the sleepers). */
type Setting = Standing & { readonly changed: Deferred.Deferred<void> }

/** The time on a clock standing as `standing` when the underlying clock reads `underlying` (epoch ms). */
const timeOf = (standing: Standing, underlying: number): number =>
  standing._tag === "Frozen" ? standing.at : underlying + standing.offset

/** What a clock set to `setting` reads when the underlying clock reads `underlying`. */
const readingOf = (setting: Setting, underlying: number): ClockState => ({
  now: timeOf(setting, underlying),
  frozen: setting._tag === "Frozen"
})

/**
 * A new clock, running, at the time of the `Clock` in context and following it (real time, or a
 * `TestClock` in a test) until it is frozen or advanced.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make: Effect.Effect<ControlledClock> = Effect.flatMap(Effect.clock, (clock) => fromClock(clock))

/**
 * A new clock, running, following `underlying` (Effect's default `Clock` when absent: real
 * time) until it is frozen or advanced. An Effect: it makes the clock's state, in a `Ref`.
 *
 * @since 0.2.0
 * @category constructors
 */
export const fromClock = (underlying: Clock.Clock = Clock.make()): Effect.Effect<ControlledClock> =>
  Effect.gen(function* () {
    const setting = yield* Ref.make<Setting>({ _tag: "Running", offset: 0, changed: yield* Deferred.make<void>() })

    /** The setting and the underlying time, read together. */
    const read = Effect.zip(Ref.get(setting), underlying.currentTimeMillis)
    const currentTimeMillis = Effect.map(read, ([current, time]) => timeOf(current, time))

    /**
     * Sets the clock to what `step` makes of its setting and the underlying time (nothing when it
     * answers `undefined`), then wakes the sleepers of the setting it replaced; answers the reading
     * after. Uninterruptible (it never waits): a setting is never replaced without its sleepers woken.
     */
    const change = (step: (current: Setting, time: number) => Standing | undefined): Effect.Effect<ClockState> =>
      Effect.uninterruptible(
        Effect.gen(function* () {
          const time = yield* underlying.currentTimeMillis
          const changed = yield* Deferred.make<void>()
          const [reading, replaced] = yield* Ref.modify(
            setting,
            (current): readonly [readonly [ClockState, Option.Option<Deferred.Deferred<void>>], Setting] => {
              const standing = step(current, time)
              if (standing === undefined) return [[readingOf(current, time), Option.none()], current]
              const next: Setting = { ...standing, changed }
              return [[readingOf(next, time), Option.some(current.changed)], next]
            }
          )
          if (Option.isSome(replaced)) yield* Deferred.succeed(replaced.value, undefined)
          return reading
        })
      )

    const sleep = (duration: Duration.Duration): Effect.Effect<void> =>
      Effect.gen(function* () {
        const deadline = (yield* currentTimeMillis) + Duration.toMillis(duration)
        while (true) {
          const [current, time] = yield* read
          const left = deadline - timeOf(current, time)
          if (left <= 0) return
          const wake = Deferred.await(current.changed)
          yield* current._tag === "Frozen" || !Number.isFinite(left)
            ? wake
            : Effect.race(underlying.sleep(Duration.millis(Math.min(left, longestTimer))), wake)
        }
      })

    /**
     * The time now for the `Clock`'s synchronous reads (log timestamps, span times, caches),
     * which its interface requires: `currentTimeMillis` run at once (it never waits).
     */
    const timeNow = (): number => Effect.runSync(currentTimeMillis)

    const clock: Clock.Clock = {
      [Clock.ClockTypeId]: Clock.ClockTypeId,
      unsafeCurrentTimeMillis: timeNow,
      unsafeCurrentTimeNanos: () => BigInt(Math.floor(timeNow())) * 1_000_000n,
      currentTimeMillis,
      currentTimeNanos: Effect.map(currentTimeMillis, (ms) => BigInt(Math.floor(ms)) * 1_000_000n),
      sleep
    }

    return {
      clock,
      state: Effect.map(read, ([current, time]) => readingOf(current, time)),
      freeze: change((current, time) =>
        current._tag === "Frozen" ? undefined : { _tag: "Frozen", at: timeOf(current, time) }
      ),
      advance: (by) =>
        Effect.suspend(() => {
          const ms = typeof by === "number" ? by : Duration.toMillis(Duration.decode(by))
          if (!(ms >= 0 && Number.isFinite(ms))) {
            return Effect.die(
              new Cause.IllegalArgumentException(`advance: the duration must be finite and >= 0, got ${ms} ms`)
            )
          }
          return change((current) =>
            current._tag === "Frozen"
              ? { _tag: "Frozen", at: current.at + ms }
              : { _tag: "Running", offset: current.offset + ms }
          )
        }),
      resume: change((current, time) =>
        current._tag === "Frozen" ? { _tag: "Running", offset: current.at - time } : undefined
      ),
      reset: change(() => ({ _tag: "Running", offset: 0 }))
    }
  })
