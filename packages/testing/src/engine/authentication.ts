/**
 * Who a request is (docs/contract.md §5, §10.3): the bearer key it sends, checked against the
 * keys the fake keeps as hashes (never their values), and new keys made the same way.
 */
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { type Change, upsert } from "./kinds.js"
import { type FakeState, itemsOf, mutateUnrecorded, type State, type StoredKey } from "./state.js"
import { Status } from "./status.js"
import { Refusal } from "./refusal.js"

/** SHA-256 of a key value, hex: all the fake keeps of a key. Synchronous, so `TestClock` drives the fake. */
export const hashKey = (value: string): string => bytesToHex(sha256(utf8ToBytes(value)))

/** A new key value: 32 random bytes as 64 hex characters. */
export const newKeyValue = (): string => bytesToHex(crypto.getRandomValues(new Uint8Array(32)))

/** A new key named `name` with the hash `hash`, created at `now`: the account's next key id. */
export const keyAdded = (
  state: State,
  name: string,
  hash: string,
  now: number
): { readonly changes: ReadonlyArray<Change>; readonly key: StoredKey } => {
  const key: StoredKey = {
    id: state.next_key_id,
    name,
    hash,
    created_at: now,
    revoked: false,
    last_used_at: null,
    last_used_from_addr: ""
  }
  return { changes: [upsert("api_keys", key)], key }
}

/**
 * Checks the bearer key on every request (§5): missing, unknown or revoked is a 401, and a
 * good key's `last_used_at` / `last_used_from_addr` are updated (not a change for the journal:
 * they ride along with the key's next change). Answers the key.
 */
export const authenticate = (fake: FakeState): Effect.Effect<StoredKey, Refusal, HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const match = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? "")
    if (match === null)
      return yield* new Refusal({ status: Status.unauthorized, message: "a bearer API key is required" })
    const hash = hashKey(match[1]!)
    const from = Option.getOrElse(request.remoteAddress, () => "")
    return yield* mutateUnrecorded(fake, (state, now) => {
      const key = keyWithHash(state, hash)
      if (key === undefined || key.revoked) {
        return Either.left(new Refusal({ status: Status.unauthorized, message: "API key is not valid" }))
      }
      const used: StoredKey = { ...key, last_used_at: now, last_used_from_addr: from }
      return Either.right({ changes: [upsert("api_keys", used)], answer: used })
    })
  })

/** The key whose value has the hash `hash`, if any. */
export const keyWithHash = (state: State, hash: string): StoredKey | undefined => {
  for (const key of itemsOf(state, "api_keys")) if (key.hash === hash) return key
  return undefined
}
