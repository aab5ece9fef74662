/**
 * API keys: the creation request and the three shapes a server answers with
 * (`docs/contract.md` §2.1–2.3, §4, §10.3).
 *
 * @since 0.1.0
 */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { ApiKeyId } from "./Ids.js"
import { Timestamp } from "./Timestamp.js"

/** A name as the server keeps it: spaces around it trimmed when decoded, refused when sent. */
const TrimmedName = Schema.transform(
  Schema.String,
  Schema.String.pipe(
    Schema.filter((name) => name.trim() === name, { message: () => "must not start or end with spaces" })
  ),
  { strict: true, decode: (name) => name.trim(), encode: (name) => name }
)

/**
 * Body of `POST /api_keys`: `{ key_name }`, 1 to 64 characters, not blank (§4, §10.3).
 *
 * @since 0.1.0
 * @category schemas
 */
export class CreateApiKeyRequest extends Schema.Class<CreateApiKeyRequest>("CreateApiKeyRequest")({
  key_name: TrimmedName.pipe(
    Schema.nonEmptyString({ message: () => "must not be empty" }),
    Schema.maxLength(64, { message: () => "must be at most 64 characters" })
  )
}) {}

/**
 * Answer of `POST /api_keys` (§2.1): the key's `id` and its secret value `key`, which is
 * shown only this once and decodes to a `Redacted<string>` so it never reaches a log.
 * A real server also sends `name`, `created_at` and `created_by` (a user uuid).
 *
 * @since 0.1.0
 * @category schemas
 */
export class ApiKeyCreated extends Schema.Class<ApiKeyCreated>("ApiKeyCreated")({
  id: ApiKeyId,
  key: Schema.Redacted(Schema.String),
  name: Schema.optional(Schema.String),
  created_at: Schema.optional(Timestamp),
  created_by: Schema.optional(Schema.String)
}) {}

/**
 * The user who created a key, as `GET /api_keys` reports it (§10.3).
 *
 * @since 0.1.0
 * @category schemas
 */
export class ApiKeyCreator extends Schema.Class<ApiKeyCreator>("ApiKeyCreator")({
  id: Schema.String,
  name: Schema.String,
  image: Schema.optional(Schema.String)
}) {}

/**
 * `last_used_at`: absent or `null` for a key never used, decoded to `Option<DateTime.Utc>`;
 * `None` encodes as `null`, as the deployed API sends it (§10.3).
 */
const LastUsedAt = Schema.optionalWith(Timestamp, {
  nullable: true,
  as: "Option",
  onNoneEncoding: () => Option.some(null)
})

/**
 * Item of `GET /api_keys` (§2.2). The key value is never part of it. `last_used_from_addr`
 * may be `""`. A real server also sends `created_by` as an object.
 *
 * @since 0.1.0
 * @category schemas
 */
export class ApiKey extends Schema.Class<ApiKey>("ApiKey")({
  id: ApiKeyId,
  name: Schema.String,
  created_at: Timestamp,
  created_by: Schema.optional(ApiKeyCreator),
  last_used_at: LastUsedAt,
  last_used_from_addr: Schema.String
}) {}

/**
 * Answer of `GET /api_keys`: a bare JSON array of {@link ApiKey} (§4).
 *
 * @since 0.1.0
 * @category schemas
 */
export const ApiKeyList = Schema.Array(ApiKey).annotations({ identifier: "ApiKeyList" })

/**
 * Answer of `DELETE /api_keys/{key_id}` (§2.3): `revoked` is `true`. A real server also sends
 * `created_at` and `created_by` (a user uuid).
 *
 * @since 0.1.0
 * @category schemas
 */
export class ApiKeyRevoked extends Schema.Class<ApiKeyRevoked>("ApiKeyRevoked")({
  id: ApiKeyId,
  name: Schema.String,
  revoked: Schema.Boolean,
  created_at: Schema.optional(Timestamp),
  created_by: Schema.optional(Schema.String),
  last_used_at: LastUsedAt,
  last_used_from_addr: Schema.String
}) {}
