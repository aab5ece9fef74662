/**
 * Creates an API key, lists the account's keys, then revokes the new one. The created key's
 * value is a `Redacted<string>`: it prints as `<redacted>` and is read with `Redacted.value`
 * only where it is needed. Run: `node examples/build/src/create-and-revoke-key.js`.
 */
import { ApiKeys } from "@dbplatform/client"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { run } from "./run.js"

export const program = Effect.gen(function* () {
  const keys = yield* ApiKeys.ApiKeys
  const created = yield* keys.create({ key_name: "examples-ci" })
  const listed = yield* keys.listPage()
  const revoked = yield* keys.revoke({ key_id: created.id })
  return [
    `created key ${created.id}: value ${String(created.key)} (${Redacted.value(created.key).length} characters)`,
    `keys: ${listed.map((key) => `${key.id} ${key.name}`).join(", ")}`,
    `revoked ${revoked.id}: ${revoked.revoked}`
  ].join("\n")
}).pipe(
  // An empty or too long name is refused before anything is sent.
  Effect.catchTag("InvalidRequest", (error) => Effect.succeed(`bad key name: ${error.message}`))
)

run(program)
