import { describe, expect, it } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Ref from "effect/Ref"
import * as TestClock from "effect/TestClock"
import * as Timer from "../src/internal/timer.js"

describe("the timer of request timeouts", () => {
  it.scoped("runs each task at its own time, an earlier one scheduled after a later one included", () =>
    Effect.gen(function* () {
      const timer = yield* Timer.make
      const ran = yield* Ref.make<ReadonlyArray<string>>([])
      const task = (name: string) => Ref.update(ran, (names) => [...names, name])
      const late = yield* timer.schedule(Duration.seconds(5), task("5 s"))
      yield* TestClock.adjust("1 second")
      const early = yield* timer.schedule(Duration.seconds(1), task("1 s after the first second"))
      yield* TestClock.adjust("999 millis")
      expect(yield* Ref.get(ran)).toEqual([])
      yield* TestClock.adjust("1 millis")
      expect(yield* Ref.get(ran)).toEqual(["1 s after the first second"])
      // Cancelling a task that ran answers false; one still waiting, true, and it never runs.
      expect(yield* early).toBe(false)
      expect(yield* late).toBe(true)
      yield* TestClock.adjust("1 minute")
      expect(yield* Ref.get(ran)).toEqual(["1 s after the first second"])
    })
  )

  it.scoped("a task cancelled before its time never runs; the next one still does", () =>
    Effect.gen(function* () {
      const timer = yield* Timer.make
      const ran = yield* Ref.make(0)
      const first = yield* timer.schedule(
        Duration.seconds(1),
        Ref.update(ran, (n) => n + 1)
      )
      yield* timer.schedule(
        Duration.seconds(2),
        Ref.update(ran, (n) => n + 10)
      )
      expect(yield* first).toBe(true)
      yield* TestClock.adjust("2 seconds")
      expect(yield* Ref.get(ran)).toBe(10)
    })
  )
})
