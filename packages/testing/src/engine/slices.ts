/**
 * Long pure work in slices: a step function written as a generator that `yield`s between slices
 * (`resources/BranchSchema`: `applySteps`, `sectionSteps`, the diff), run either at once ({@link finish})
 * or as an Effect that gives the event loop back at each `yield` ({@link sliced}), so that the
 * requests that arrive meanwhile are answered before the next slice. The result is the same
 * either way: the work reads only what it is given.
 */
import * as Effect from "effect/Effect"
import * as Scheduler from "effect/Scheduler"

/** Steps that may pause (`yield`) between small pieces of their work and answer `A` at the end. */
export type Steps<A> = Generator<void, A>

/** How long a slice of work runs before it gives the event loop back: 8 ms. */
export const sliceMillis = 8

/** Node's, Bun's and Deno's `setImmediate`: a task run after the I/O that waits, without a timer's 1 ms. */
const immediate = (globalThis as { readonly setImmediate?: (task: () => void) => unknown }).setImmediate

/** A task run after the I/O that waits (`setImmediate` where there is one, else a timer). */
const afterIo = Scheduler.make((task) => {
  if (immediate !== undefined) immediate(task)
  else setTimeout(task, 0)
})

/** Gives the event loop back (a macrotask), so that what waits on it (other requests) runs before the next slice. */
const pause = Effect.withScheduler(Effect.yieldNow(), afterIo)

/**
 * Runs `steps` to its end, giving the event loop back at the first of its pauses after every
 * {@link sliceMillis} of work (measured on the monotonic `performance.now()`: it decides only where
 * the work pauses, never what it answers).
 */
export const sliced = <A>(steps: Steps<A>): Effect.Effect<A> =>
  Effect.suspend(() => {
    const start = performance.now()
    for (;;) {
      const next = steps.next()
      if (next.done) return Effect.succeed(next.value)
      if (performance.now() - start >= sliceMillis) return Effect.zipRight(pause, sliced(steps))
    }
  })

/** Runs `steps` to its end at once, passing over its pauses. */
export const finish = <A>(steps: Steps<A>): A => {
  for (;;) {
    const next = steps.next()
    if (next.done) return next.value
  }
}
