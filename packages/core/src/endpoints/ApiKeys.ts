/**
 * The API key endpoints: create, list and revoke the keys of the account (`docs/contract.md` §2.1 to §2.3, §10.3).
 *
 * @since 0.4.0
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import { ApiKeyCreated, ApiKeyList, ApiKeyRevoked, CreateApiKeyRequest } from "../ApiKey.js"
import { KeyIdParameter } from "../internal/input.js"

/**
 * The API key endpoints: create, list and revoke the keys of the account (`docs/contract.md` §2.1 to §2.3, §10.3).
 *
 * @since 0.4.0
 * @category endpoints
 */
export const ApiKeys = Endpoint.group("ApiKeys", {
  /**
   * `POST /api_keys`: creates a key named `key_name` (§2.1, §4, §10.3). 400 for a name the
   * server refuses; 423 when locked.
   */
  create: Endpoint.make({
    method: "POST",
    route: "/api_keys",
    body: CreateApiKeyRequest,
    success: ApiKeyCreated,
    errors: ["BadRequest", "Locked"]
  }),
  /**
   * `GET /api_keys`: the account's keys, a bare array (§2.2, §4, §10.3).
   */
  list: Endpoint.make({
    method: "GET",
    route: "/api_keys",
    success: ApiKeyList,
    errors: [],
    list: { items: (keys) => keys }
  }),
  /**
   * `DELETE /api_keys/{key_id}`: revokes a key (§2.3, §3.1, §4, §10.3). 404 for an unknown or
   * already revoked id; 400 for an id that is not an integer; 423 when locked.
   */
  revoke: Endpoint.make({
    method: "DELETE",
    route: "/api_keys/{key_id}",
    params: Schema.Struct({ key_id: KeyIdParameter }),
    success: ApiKeyRevoked,
    errors: ["NotFound", "BadRequest", "Locked"],
    about: (key) => ({ key_id: key.id })
  })
})
