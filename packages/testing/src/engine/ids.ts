import * as Effect from "effect/Effect"
import * as Random from "effect/Random"
import { PCGRandom } from "effect/Utils"

/**
 * A source of random numbers: `fraction()` is from 0 (included) to 1 (excluded), `below(n)` an
 * integer from 0 to `n - 1`. Synchronous, so a seed generator uses a PRNG of its own and a
 * scenario one seeded from Effect's `Random`.
 */
export interface Dice {
  readonly fraction: () => number
  readonly below: (n: number) => number
}

/** Dice from a PCG generator seeded with `seed`: the same seed gives the same ids. */
export const seededDice = (seed: number): Dice => {
  const pcg = new PCGRandom(seed)
  return { fraction: () => pcg.number(), below: (n) => Math.floor(pcg.number() * n) }
}

/** Dice seeded from Effect's `Random`, so `TestRandom` and `Random.withSeed` decide the ids. */
export const randomDice: Effect.Effect<Dice> = Effect.map(Random.nextInt, seededDice)

/** The words of the platform's generated names: `spring-example`, `wispy-meadow`. */
const adjectives = ["spring", "wispy", "proud", "silent", "ancient", "bold", "young", "late", "holy", "round"]
const nouns = ["example", "meadow", "mud", "river", "sun", "leaf", "grass", "cloud", "dawn", "frost"]

const pick = <A>(dice: Dice, values: ReadonlyArray<A>): A => values[dice.below(values.length)]!

/** Two words and six digits, e.g. `spring-example-302709`: a project id, or a branch id after `br-`. */
export const slug = (dice: Dice): string =>
  `${pick(dice, adjectives)}-${pick(dice, nouns)}-${String(100_000 + dice.below(900_000))}`

/** A branch id like the platform's: `br-wispy-meadow-118737` (docs/contract.md §2.5). */
export const branchId = (dice: Dice): string => `br-${slug(dice)}`

/** A compute endpoint id like the platform's: `ep-proud-mud-a5x8dq2u` (docs/contract.md §2.5). */
export const endpointId = (dice: Dice): string => {
  let suffix = ""
  for (let i = 0; i < 8; i++) suffix += "abcdefghijklmnopqrstuvwxyz0123456789"[dice.below(36)]
  return `ep-${pick(dice, adjectives)}-${pick(dice, nouns)}-${suffix}`
}

/** A database id like the platform's: a positive integer of seven digits. */
export const databaseId = (dice: Dice): number => 1_000_000 + dice.below(9_000_000)

/** A version 4 UUID: an operation id (docs/contract.md §2.5). */
export const uuid = (dice: Dice): string =>
  "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx".replace(/[xy]/g, (c) => {
    const r = dice.below(16)
    return (c === "x" ? r : (r & 0x3) | 0x8).toString(16)
  })

/** A number from `text` (FNV-1a), to seed the dice of the ids generated for it: the same seed gives the same ids. */
export const hashOf = (text: string): number => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return hash >>> 0
}
