/**
 * Smoke test, CommonJS: the published packages required (compiled to `require` calls) from a
 * project outside the workspace, run against the fake platform. Creates an API key, lists the
 * keys, revokes it, and checks the revoked key is refused.
 */
import { ApiKeys, DbPlatform } from "@dbplatform/client"
import { DbPlatformTest, FakePlatform } from "@dbplatform/testing"
import { Effect, Either, Redacted } from "effect"

const program = Effect.gen(function* () {
  const keys = yield* ApiKeys.ApiKeys
  const created = yield* keys.create({ key_name: "smoke-test" })
  const listed = yield* keys.listPage()
  yield* keys.revoke({ key_id: created.id })
  // The revoked key, on a client of its own: the fake refuses it with Unauthorized.
  const fake = yield* FakePlatform.FakePlatform
  const refused = yield* Effect.gen(function* () {
    return yield* (yield* ApiKeys.ApiKeys).listPage()
  }).pipe(Effect.provide(DbPlatform.layer({ baseUrl: DbPlatformTest.baseUrl, apiKey: created.key })), Effect.either)
  if (Either.isRight(refused) || refused.left._tag !== "Unauthorized") {
    return yield* Effect.dieMessage("the revoked key was not refused with Unauthorized")
  }
  if (String(created.key) !== "<redacted>" || Redacted.value(created.key).length === 0) {
    return yield* Effect.dieMessage("the created key's value is not Redacted")
  }
  const stored = yield* fake.apiKeys
  return `cjs: key ${created.id} created (${listed.length} listed, ${stored.length} stored), revoked, then refused`
})

program.pipe(Effect.provide(DbPlatformTest.layer()), Effect.runPromise).then(
  (line) => console.log(line),
  (error: unknown) => {
    console.error(error)
    process.exitCode = 1
  }
)

declare const process: { exitCode?: number }
