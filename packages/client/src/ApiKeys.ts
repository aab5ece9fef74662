/**
 * API keys: create, list and revoke (`control-api-v2.md` §2.1–2.3, §3.1, §4, §5;
 * wire-facts "API keys").
 *
 * @since 0.1.0
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import {
  type ApiKey,
  ApiKeyCreated,
  type ApiKeyId,
  ApiKeyList,
  ApiKeyRevoked,
  CreateApiKeyRequest,
  type InvalidRequest
} from "@dbplatform/core"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type CallError, DbPlatformClient } from "./DbPlatformClient.js"
import { validate } from "./internal/input.js"

/**
 * The `ApiKeys` service: create, list and revoke the account's API keys (§2.1–2.3, §3.1). Each
 * method fails with a `CallError` (an error status, a body that does not decode, or no response);
 * `create` also with `InvalidRequest`.
 *
 * @since 0.1.0
 */
export interface Service {
  /**
   * `POST /api_keys` with `{ key_name }`. Returns the key's `id` and its value as
   * `Redacted<string>`, shown this once. The name is trimmed and must be 1 to 64 characters,
   * or the call fails with `InvalidRequest` and nothing is sent.
   */
  readonly create: (name: string) => Effect.Effect<ApiKeyCreated, InvalidRequest | CallError>
  /** `GET /api_keys`: every key of the account, without values. */
  readonly list: () => Effect.Effect<ReadonlyArray<ApiKey>, CallError>
  /**
   * `DELETE /api_keys/{key_id}`: revokes the key at once and for good; any request with it
   * then fails with `Unauthorized`. An unknown or already revoked id fails with `NotFound`.
   */
  readonly revoke: (id: ApiKeyId) => Effect.Effect<ApiKeyRevoked, CallError>
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
      validate(CreateApiKeyRequest, { key_name: name }).pipe(
        Effect.flatMap((body) =>
          client.execute(
            HttpClientRequest.post("/api_keys").pipe(HttpClientRequest.bodyUnsafeJson({ key_name: body.key_name })),
            ApiKeyCreated
          )
        )
      ),
    list: () => client.execute(HttpClientRequest.get("/api_keys"), ApiKeyList),
    revoke: (id) => client.execute(HttpClientRequest.del(`/api_keys/${id}`), ApiKeyRevoked)
  })
})

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<ApiKeys, never, DbPlatformClient> = Layer.effect(ApiKeys, make)
