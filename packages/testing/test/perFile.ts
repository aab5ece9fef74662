/**
 * A value a test file makes once and its tests share: a fake and what it serves, made in
 * `beforeAll` on a `TestContext` of its own (its `TestClock` at 0, as each test's is), its scope
 * closed in `afterAll`. Each test then puts the shared fake back as a fresh one has it
 * (`Service.restore` or `reset`), so it sees what a fake made for it alone would show, for a
 * fraction of the cost of making one per test.
 *
 * Not `layer` of @effect/vitest: with `isolate: false` (vitest.shared.ts) the `TestClock` of its
 * tests is then the one of the tests of later files.
 */
import { afterAll, beforeAll } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import * as TestContext from "effect/TestContext"

/** `make`'s value, made once for the file (see the module's description); a test reads it with the effect returned. */
export const madeOncePerFile = <A, E>(make: Effect.Effect<A, E, Scope.Scope>): Effect.Effect<A> => {
  let made: { readonly value: A; readonly scope: Scope.CloseableScope } | undefined
  beforeAll(async () => {
    made = await Effect.runPromise(
      Effect.gen(function* () {
        const scope = yield* Scope.make()
        const value = yield* Scope.extend(make, scope)
        return { value, scope }
      }).pipe(Effect.provide(TestContext.TestContext))
    )
  })
  afterAll(async () => {
    if (made !== undefined) await Effect.runPromise(Scope.close(made.scope, Exit.void))
  })
  return Effect.suspend(() =>
    made === undefined
      ? Effect.dieMessage("made in the file's beforeAll, which has not run")
      : Effect.succeed(made.value)
  )
}
