/**
 * How the engine runs the control plane (docs/contract.md §12, docs/design.md §4): what falls due
 * on the clock is carried out before any request is served, in the same step as the request's
 * own change, so that no operation falls due between them. What falls due is the fake's
 * (`FakeState.controlPlane`, `internal/duties.ts`).
 */
import * as Either from "effect/Either"
import type { Dice } from "./ids.js"
import { applyAll, type ControlPlane, type Mutation } from "./state.js"

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
