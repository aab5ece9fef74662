/**
 * How the fake's state is changed and read (docs/design.md §4): {@link change}, the one way a
 * route, a connection or a scenario changes it, runs the control plane first (what falls due on
 * the clock, `FakeState.controlPlane`, `internal/duties.ts`), in the same step as its own change,
 * so that no operation falls due between them; {@link read}, the one way a route reads it, never
 * changes it. (The engine itself also replaces the whole state, `state.ts` `replace`, and records
 * a key's last use, `authentication.ts`.)
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Ref from "effect/Ref"
import { type Dice, randomDice } from "./ids.js"
import { applyAll, type ControlPlane, type FakeState, type Mutation, mutate, type State } from "./state.js"

/**
 * Changes the fake's state: runs the step `make` builds from fresh dice (`randomDice`:
 * `TestRandom` decides ids and passwords) after the control plane's operations due by now, in the
 * same step ({@link afterControlPlane}), and answers its result, or what `answer` makes of it at
 * the time now. A refusal (`E`, a route's `Refusal`) changes nothing.
 */
export const change: {
  <A, E>(fake: FakeState, make: (dice: Dice) => Mutation<A, E>): Effect.Effect<A, E>
  <A, E, B>(
    fake: FakeState,
    make: (dice: Dice) => Mutation<A, E>,
    answer: (result: A, now: number) => B
  ): Effect.Effect<B, E>
} = <A, E, B>(
  fake: FakeState,
  make: (dice: Dice) => Mutation<A, E>,
  answer?: (result: A, now: number) => B
): Effect.Effect<A | B, E> =>
  Effect.flatMap(randomDice, (dice): Effect.Effect<A | B, E> => {
    const changed = mutate(fake, afterControlPlane(fake.controlPlane, dice, make(dice)))
    return answer === undefined ? changed : Effect.zipWith(changed, Clock.currentTimeMillis, answer)
  })

/** Reads the fake's state as it is now, at the time now: `query`'s answer or its refusal. Changes nothing. */
export const read = <A, E>(
  fake: FakeState,
  query: (state: State, now: number) => Either.Either<A, E>
): Effect.Effect<A, E> =>
  Effect.flatMap(Effect.zip(Ref.get(fake.ref), Clock.currentTimeMillis), ([state, now]) => query(state, now))

/**
 * The control plane's own operations due by `now` (docs/contract.md §12, docs/design.md §4):
 * `suspend_compute` of each compute endpoint past its suspend timeout, `check_availability` of
 * each branch with a compute endpoint whose period has passed, each created at the time it was
 * due. A pure step: run in one `mutate` before a request is served, its changes are journaled as
 * any request's, so they happen once. Answers whether it changed anything.
 */
export const controlPlaneStep =
  (controlPlane: ControlPlane, dice: Dice): Mutation<boolean, never> =>
  (state, now) => {
    const changes = controlPlane.catchUp(state, now, dice)
    return Either.right({ changes, answer: changes.length > 0 })
  }

/**
 * `mutation` on the state after the control plane's operations due by `now`, in the same step: no
 * operation falls due between them (docs/design.md §4). A refusal keeps neither: what was due is
 * carried out by the next step.
 */
export const afterControlPlane =
  <A, E>(controlPlane: ControlPlane, dice: Dice, mutation: Mutation<A, E>): Mutation<A, E> =>
  (state, now) => {
    const before = controlPlane.catchUp(state, now, dice)
    if (before.length === 0) return mutation(state, now)
    return Either.map(mutation(applyAll(state, before), now), ({ answer, changes }) => ({
      answer,
      changes: [...before, ...changes]
    }))
  }
