/**
 * The state a fake starts from and goes back to (`FakePlatform.make` and `restore`), and the
 * whole state of a running fake replaced (`Service.reset`, `load` and `restore`, docs/design.md
 * §2): a seed's or a snapshot's, with the fake's bootstrap key in it (docs/contract.md §5 rule 7).
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { hashKey, keyAdded, keyWithHash } from "../engine/authentication.js"
import { notSavedDies, type Syncing } from "../engine/journal.js"
import { applyAll, type FakeState, replace, type State } from "../engine/state.js"
import * as DdlParser from "../DdlParser.js"
import { InvalidSeed, type Seed } from "../Seed.js"
import type { Snapshot } from "../Snapshot.js"
import { type OnClock, onClock } from "./clocked.js"
import { load } from "./kinds.js"
import { seedState } from "./seed.js"

/**
 * The state `build` makes, with a valid key whose value is `bootstrapValue`: kept when there is
 * one, added as `bootstrap` when there is none; `InvalidSeed` when the state holds it revoked.
 */
export const withBootstrapKey = (build: Effect.Effect<State, InvalidSeed>, bootstrapValue: string) =>
  Effect.gen(function* () {
    const state = yield* build
    const existing = keyWithHash(state, hashKey(bootstrapValue))
    if (existing === undefined) {
      const { changes } = keyAdded(state, "bootstrap", hashKey(bootstrapValue), yield* Clock.currentTimeMillis)
      return applyAll(state, changes)
    }
    if (existing.revoked) {
      return yield* new InvalidSeed({ problems: [`the bootstrap key given is revoked (API key ${existing.id})`] })
    }
    return state
  })

/** The state `snapshot` describes, or `InvalidSeed` listing its problems. */
export const stateOfSnapshot = (snapshot: Snapshot) =>
  Effect.suspend(() => Either.mapLeft(load(snapshot), (problems) => new InvalidSeed({ problems })))

/**
 * `reset`, `load` and `restore` of the running `fake` (`FakePlatform.Service`), whose bootstrap
 * key has the value `bootstrapValue`: each puts a whole state in place (the key added again when
 * it lacks it), on the fake's clock, and returns once it is durable with a `journal` (dies with
 * `ChangeNotSaved` when it cannot be made so). `reset` resets the clock, puts back the state
 * `baseline` builds and then `forget`s what else the fake keeps (faults, the request log, the
 * rate limits' counts); `load` refuses a seed naming another bootstrap key.
 */
export const replacements = (
  fake: FakeState,
  bootstrapValue: string,
  baseline: Effect.Effect<State, InvalidSeed>,
  options: OnClock & { readonly journal?: Syncing | undefined; readonly ddlParser?: DdlParser.DdlParser | undefined },
  forget: Effect.Effect<void>
) => {
  const { journal } = options
  /** The whole state replaced by the one `build` makes (with the bootstrap key), durable with a journal. */
  const replaceState = (build: Effect.Effect<State, InvalidSeed>) =>
    Effect.gen(function* () {
      yield* replace(fake, yield* withBootstrapKey(build, bootstrapValue))
      if (journal !== undefined) yield* notSavedDies(journal)
    })
  return {
    reset: onClock(
      options,
      Effect.gen(function* () {
        if (options.clock !== undefined) yield* options.clock.reset
        yield* Effect.orDie(replaceState(baseline))
        yield* forget
      })
    ),
    load: (seed: Seed): Effect.Effect<void, InvalidSeed> =>
      onClock(
        options,
        seed.bootstrapKey !== undefined && seed.bootstrapKey !== bootstrapValue
          ? new InvalidSeed({
              problems: [
                "bootstrapKey differs from the running fake's: the bootstrap key stays the same while it runs, leave it out"
              ]
            })
          : replaceState(seedState(seed, options.ddlParser ?? DdlParser.inProcess))
      ),
    restore: (snapshot: Snapshot): Effect.Effect<void, InvalidSeed> =>
      onClock(options, replaceState(stateOfSnapshot(snapshot)))
  }
}
