import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Logger from "effect/Logger"
import * as TestClock from "effect/TestClock"
import * as ControlledClock from "../src/ControlledClock.js"

describe("ControlledClock", () => {
  it.effect("follows the Clock it was made on until frozen; advance moves it at once; resume goes on from there", () =>
    Effect.gen(function* () {
      const clock = yield* ControlledClock.make
      expect(yield* clock.state).toEqual({ now: 0, frozen: false, offset: 0 })
      yield* TestClock.adjust("5 seconds")
      expect((yield* clock.state).now).toBe(5_000)
      expect(yield* clock.freeze).toEqual({ now: 5_000, frozen: true, offset: 0 })
      yield* TestClock.adjust("1 hour")
      // Frozen, it falls behind the clock it follows.
      expect(yield* clock.state).toEqual({ now: 5_000, frozen: true, offset: -3_600_000 })
      expect(yield* clock.advance("10 minutes")).toEqual({ now: 605_000, frozen: true, offset: -3_000_000 })
      // Resumed, it runs from where it stands: time never goes back.
      expect(yield* clock.resume).toEqual({ now: 605_000, frozen: false, offset: -3_000_000 })
      yield* TestClock.adjust("1 second")
      expect((yield* clock.state).now).toBe(606_000)
      // Advanced while running: a jump forward, then it goes on running.
      expect((yield* clock.advance(1_000)).now).toBe(607_000)
      yield* TestClock.adjust("1 second")
      expect(yield* clock.state).toEqual({ now: 608_000, frozen: false, offset: -2_999_000 })
      expect(yield* Effect.exit(clock.advance(-1))).toMatchObject({ _tag: "Failure" })
      // Reset: back on the TestClock's time (an hour ahead: it moved while frozen), running.
      yield* clock.freeze
      expect(yield* clock.reset).toEqual({ now: 3_607_000, frozen: false, offset: 0 })
    })
  )

  it.effect("what reads a Clock synchronously (a log line's time) reads its time", () =>
    Effect.gen(function* () {
      const clock = yield* ControlledClock.make
      const stamps: Array<number> = []
      const logger = Logger.make(({ date }) => stamps.push(date.getTime()))
      const log = Effect.withClock(Effect.log("now"), clock.clock).pipe(
        Effect.provide(Logger.replace(Logger.defaultLogger, logger))
      )
      yield* TestClock.adjust("5 seconds")
      yield* log
      yield* clock.freeze
      yield* clock.advance("10 minutes")
      yield* TestClock.adjust("1 hour")
      yield* log
      yield* clock.resume
      yield* TestClock.adjust("1 second")
      yield* log
      expect(stamps).toEqual([5_000, 605_000, 606_000])
    })
  )

  it.effect("a sleep on it counts its time: frozen, it ends only once advanced past its end", () =>
    Effect.gen(function* () {
      const clock = yield* ControlledClock.make
      yield* clock.freeze
      const sleeping = yield* Effect.fork(
        Effect.withClock(Effect.sleep("30 seconds"), clock.clock).pipe(Effect.as("woke"))
      )
      yield* TestClock.adjust("1 hour")
      expect(yield* Fiber.poll(sleeping)).toMatchObject({ _tag: "None" })
      yield* clock.advance("29 seconds")
      yield* Effect.yieldNow()
      expect(yield* Fiber.poll(sleeping)).toMatchObject({ _tag: "None" })
      yield* clock.advance("1 second")
      expect(yield* Fiber.join(sleeping)).toBe("woke")
    })
  )

  it.effect("a sleep while running ends after the underlying time left, or at once when advanced past its end", () =>
    Effect.gen(function* () {
      const clock = yield* ControlledClock.make
      const first = yield* Effect.fork(Effect.withClock(Effect.sleep("10 seconds"), clock.clock))
      const second = yield* Effect.fork(Effect.withClock(Effect.sleep("10 minutes"), clock.clock))
      yield* TestClock.adjust("10 seconds")
      yield* Fiber.join(first)
      expect(yield* Fiber.poll(second)).toMatchObject({ _tag: "None" })
      yield* clock.advance("10 minutes")
      yield* Fiber.join(second)
      expect((yield* clock.state).now).toBe(610_000)
    })
  )

  it.effect("restored from a saved state: frozen at its time, or running with its offset, never before its time", () =>
    Effect.gen(function* () {
      yield* TestClock.adjust("1 hour")
      const frozen = yield* ControlledClock.restore({ now: 7_200_000, frozen: true, offset: 0 })
      expect(yield* frozen.state).toEqual({ now: 7_200_000, frozen: true, offset: 3_600_000 })
      yield* TestClock.adjust("1 minute")
      expect((yield* frozen.state).now).toBe(7_200_000)
      // Its reset comes back to where it was restored, not to the time of the clock it follows.
      yield* frozen.resume
      yield* frozen.advance("1 hour")
      expect(yield* frozen.reset).toEqual({ now: 7_200_000, frozen: true, offset: 3_540_000 })
      // Running: the offset kept, so the time it was down counts.
      const running = yield* ControlledClock.restore({ now: 1_000, frozen: false, offset: 600_000 })
      expect(yield* running.state).toEqual({ now: 4_260_000, frozen: false, offset: 600_000 })
      // The clock it follows went back (or the saved offset is short): never before the saved time.
      const behind = yield* ControlledClock.restore({ now: 9_000_000, frozen: false, offset: 0 })
      expect(yield* behind.state).toEqual({ now: 9_000_000, frozen: false, offset: 5_340_000 })
      yield* TestClock.adjust("1 second")
      expect((yield* behind.state).now).toBe(9_001_000)
      expect(yield* Effect.exit(ControlledClock.restore({ now: Number.NaN, frozen: true, offset: 0 }))).toMatchObject({
        _tag: "Failure"
      })
    })
  )
})
