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
 * - `restore(saved)` makes a clock standing where a saved `state` left it (frozen at its time, or
 *   running with its offset, never before its time): the emulator keeps its clock in its state
 *   file so (since 0.5.0).
 * - Its setting is kept as `TestClock` keeps its time: in one cell read synchronously (a
 *   `MutableRef`), so that the `Clock`'s synchronous reads need no Effect run.
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
import * as MutableRef from "effect/MutableRef"

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
  /**
   * How far ahead of the clock it follows (real time) it reads, ms: `now` minus that clock's
   * time, at the moment it was read (since 0.5.0). It stays the same while the clock runs;
   * `advance` adds to it; while frozen it shrinks as real time passes.
   */
  readonly offset: number
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
   * Back to where it stood when it was made: running on the clock it follows (`make`,
   * `fromClock`), or as the state it was restored from left it (`restore`). Time may go back (the
   * fake's `reset` calls it before it puts its seed back, so that nothing of the time moved stays).
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

/** What a clock standing as `standing` reads when the underlying clock reads `underlying`. */
const readingOf = (standing: Standing, underlying: number): ClockState => {
  const now = timeOf(standing, underlying)
  return { now, frozen: standing._tag === "Frozen", offset: now - underlying }
}

/**
 * Where a clock saved as `saved` stands again when the underlying clock reads `underlying`:
 * frozen at its time, or running with its offset, moved on if need be so that it does not read
 * before its time (the underlying clock may have gone back meanwhile).
 */
const standingOf = (saved: ClockState, underlying: number): Standing =>
  saved.frozen
    ? { _tag: "Frozen", at: saved.now }
    : { _tag: "Running", offset: Math.max(saved.offset, saved.now - underlying) }

/**
 * A new clock, running, at the time of the `Clock` in context and following it (real time, or a
 * `TestClock` in a test) until it is frozen or advanced.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make: Effect.Effect<ControlledClock> = Effect.flatMap(Effect.clock, (clock) => fromClock(clock))

/**
 * A clock standing where `saved` (a `state` read before, e.g. kept in a file) left it, following
 * the `Clock` in context: frozen at `saved.now` when it was frozen; else running `saved.offset`
 * ms ahead of that clock, and never reading before `saved.now` (since 0.5.0). Its `reset` comes
 * back here. Dies with an `IllegalArgumentException` when `now` or `offset` is not a finite number.
 *
 * @since 0.5.0
 * @category constructors
 */
export const restore = (saved: ClockState): Effect.Effect<ControlledClock> =>
  Effect.flatMap(Effect.clock, (clock) => fromClock(clock, saved))

/**
 * A new clock following `underlying` (Effect's default `Clock` when absent: real time): running
 * at its time until it is frozen or advanced, or, given `saved` (since 0.5.0), standing where
 * that state left it (see {@link restore}). An Effect: it makes the clock's setting.
 *
 * @since 0.2.0
 * @category constructors
 */
export const fromClock = (underlying: Clock.Clock = Clock.make(), saved?: ClockState): Effect.Effect<ControlledClock> =>
  Effect.gen(function* () {
    if (saved !== undefined && !(Number.isFinite(saved.now) && Number.isFinite(saved.offset))) {
      return yield* Effect.die(
        new Cause.IllegalArgumentException(
          `restore: now and offset must be finite numbers, got ${saved.now} and ${saved.offset}`
        )
      )
    }
    /** Where the clock stood when it was made: where `reset` brings it back. */
    const initial: Standing =
      saved === undefined ? { _tag: "Running", offset: 0 } : standingOf(saved, yield* underlying.currentTimeMillis)
    /**
     * The setting, in one cell read synchronously, as `TestClock` keeps its time: every change is
     * one synchronous step (it never waits), so no other fiber sees it half done.
     */
    const setting = MutableRef.make<Setting>({ ...initial, changed: yield* Deferred.make<void>() })

    /** The setting and the underlying time, read together. */
    const read = Effect.zip(
      Effect.sync(() => MutableRef.get(setting)),
      underlying.currentTimeMillis
    )
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
          const [reading, replaced] = yield* Effect.sync(
            (): readonly [ClockState, Deferred.Deferred<void> | undefined] => {
              const current = MutableRef.get(setting)
              const standing = step(current, time)
              if (standing === undefined) return [readingOf(current, time), undefined]
              MutableRef.set(setting, { ...standing, changed })
              return [readingOf(standing, time), current.changed]
            }
          )
          if (replaced !== undefined) yield* Deferred.succeed(replaced, undefined)
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
     * which its interface requires: the setting read from its cell, and the underlying clock's
     * own synchronous read, as `TestClock` reads its time.
     */
    const timeNow = (): number => timeOf(MutableRef.get(setting), underlying.unsafeCurrentTimeMillis())

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
      reset: change(() => initial)
    }
  })
