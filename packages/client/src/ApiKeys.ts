/**
 * API keys: create, list and revoke (`docs/contract.md` §2.1–2.3, §3.1, §4, §5, §10.3;
 * the endpoints are core's `Endpoint.createApiKey`, `listApiKeys` and `revokeApiKey`).
 *
 * @since 0.1.0
 */
import {
  type ApiKey,
  type ApiKeyCreated,
  type ApiKeyId,
  type ApiKeyRevoked,
  type BadRequest,
  CreateApiKeyRequest,
  Endpoint,
  type InvalidRequest,
  type Locked,
  type NotFound
} from "@dbplatform/core"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type CallError, DbPlatformClient } from "./DbPlatformClient.js"
import { validate } from "./internal/call.js"

/**
 * The `ApiKeys` service: create, list and revoke the account's API keys (§2.1–2.3, §3.1). Each
 * method fails with a `CallError` (401, 404, 429, 5xx, an unexpected status, a body that does
 * not decode, or no response); `create` also with `InvalidRequest`, `BadRequest` and `Locked`;
 * `revoke` also with `InvalidRequest`, `NotFound`, `BadRequest` and `Locked`.
 *
 * @since 0.1.0
 */
export interface Service {
  /**
   * `POST /api_keys` with `{ key_name }`. Returns the key's `id` and its value as
   * `Redacted<string>`, shown this once. The name is trimmed and must be 1 to 64 characters,
   * or the call fails with `InvalidRequest` and nothing is sent. The server may refuse the
   * name (`BadRequest`) or be locked (`Locked`, retried). Never sent twice for one call unless
   * the server answered 423, 429 or 503 (it did not act): after a 5xx or no response the
   * call fails, and a key may have been created (list the keys to find out).
   */
  readonly create: (name: string) => Effect.Effect<ApiKeyCreated, InvalidRequest | BadRequest | Locked | CallError>
  /** `GET /api_keys`: every key of the account, without values. */
  readonly list: () => Effect.Effect<ReadonlyArray<ApiKey>, CallError>
  /**
   * `DELETE /api_keys/{key_id}`: revokes the key at once and for good; any request with it
   * then fails with `Unauthorized`. An unknown or already revoked id fails with `NotFound`, an
   * id the server refuses with `BadRequest`; an answer about another key with
   * `MalformedResponse`; an id that is not a safe integer with `InvalidRequest`, and nothing is
   * sent.
   */
  readonly revoke: (
    id: ApiKeyId
  ) => Effect.Effect<ApiKeyRevoked, InvalidRequest | NotFound | BadRequest | Locked | CallError>
}

/**
 * The tag of the {@link Service}; `yield* ApiKeys.ApiKeys` in a program, provided by {@link layer}
 * or `DbPlatform.layer`.
 *
 * @since 0.1.0
 * @category tags
 */
export class ApiKeys extends Context.Tag("@dbplatform/client/ApiKeys")<ApiKeys, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.1.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.gen(function* () {
  const client = yield* DbPlatformClient
  return ApiKeys.of({
    create: (name) =>
      validate(Endpoint.createApiKey, CreateApiKeyRequest, { key_name: name }).pipe(
        Effect.flatMap((body) => client.execute(Endpoint.createApiKey, { body }))
      ),
    list: () => client.execute(Endpoint.listApiKeys, {}),
    revoke: (id) =>
      client.execute(Endpoint.revokeApiKey, { params: { key_id: id } }, (revoked) =>
        revoked.id === id ? undefined : `the answer is about API key ${revoked.id}, not ${id}`
      )
  })
})

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<ApiKeys, never, DbPlatformClient> = Layer.effect(ApiKeys, make)
