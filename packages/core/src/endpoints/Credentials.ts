/**
 * The credentials endpoints: a branch's scoped service credentials for its object storage, AI
 * gateway and functions: list, create (its two secrets shown once), revoke
 * (`docs/contract.md` §11.7).
 *
 * @since 0.5.0
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import { BranchIdParameter, branchParams, ProjectIdParameter, withMessage } from "../internal/input.js"
import { openEnum } from "../internal/openEnum.js"
import { Timestamp } from "../Timestamp.js"

/**
 * The scopes a credential may have, known today (§11.7): `storage:read`, `storage:write`,
 * `ai_gateway:invoke`, `functions:invoke`.
 *
 * @since 0.5.0
 * @category schemas
 */
export const KnownCredentialScope = Schema.Literal(
  "storage:read",
  "storage:write",
  "ai_gateway:invoke",
  "functions:invoke"
)

/**
 * A credential's scope as the platform answers it: one of {@link KnownCredentialScope} or any other
 * string a newer server sends (kept as is).
 *
 * @since 0.5.0
 * @category schemas
 */
export type CredentialScope = typeof KnownCredentialScope.Type | (string & {})

/**
 * Open enum schema of {@link CredentialScope}.
 *
 * @since 0.5.0
 * @category schemas
 */
export const CredentialScope: Schema.Schema<CredentialScope> = openEnum(KnownCredentialScope, "CredentialScope")

/**
 * A credential as listed (§11.7), never with a secret: `token_id` (its opaque id, `nak_live_` and
 * 32 hex digits), `token_id_short` (its first 12 hex digits, fine to log), `name` where it was
 * given one, `scopes`, `branch_id`, `principal_type` (`user` for one created through the API;
 * open), `function_id` (for a function's own), `created_at`, and where set `last_used_at`,
 * `revoked_at` (revoked: no longer active) and `expires_at` (absent: it never expires).
 *
 * @since 0.5.0
 * @category schemas
 */
export class Credential extends Schema.Class<Credential>("Credential")({
  token_id: Schema.String,
  token_id_short: Schema.String,
  name: Schema.optional(Schema.String),
  scopes: Schema.Array(CredentialScope),
  branch_id: Schema.optional(Schema.String),
  principal_type: Schema.String,
  function_id: Schema.optional(Schema.String),
  created_at: Timestamp,
  last_used_at: Schema.optional(Timestamp),
  revoked_at: Schema.optional(Timestamp),
  expires_at: Schema.optional(Timestamp)
}) {}

/**
 * Answer of `GET /projects/{project_id}/branches/{branch_id}/credentials`: `{ credentials }`,
 * revoked ones included (§11.7).
 *
 * @since 0.5.0
 * @category schemas
 */
export class CredentialList extends Schema.Class<CredentialList>("CredentialList")({
  credentials: Schema.Array(Credential)
}) {}

/**
 * Body of `POST /projects/{project_id}/branches/{branch_id}/credentials` (§11.7): `scopes` (1 to
 * 16 of {@link KnownCredentialScope}), `principal_type` (only `user`), and an optional `name` (at
 * most 256 characters).
 *
 * @since 0.5.0
 * @category schemas
 */
export const CredentialCreateRequest = Schema.Struct({
  name: Schema.optional(
    Schema.String.pipe(Schema.maxLength(256)).annotations(withMessage("must be at most 256 characters"))
  ),
  scopes: Schema.Array(
    KnownCredentialScope.annotations(
      withMessage("must be storage:read, storage:write, ai_gateway:invoke or functions:invoke")
    )
  ).pipe(Schema.minItems(1), Schema.maxItems(16), Schema.annotations(withMessage("must hold 1 to 16 scopes"))),
  principal_type: Schema.Literal("user").annotations(withMessage("must be user"))
})

/**
 * Answer of `POST /projects/{project_id}/branches/{branch_id}/credentials` (201, §11.7): the
 * credential's `token_id`, `token_id_short`, `name` (where given), `scopes`, `branch_id`,
 * `created_at`, `expires_at` (absent: never), and its two secrets, shown this once and kept by no
 * server: `api_token` (a bearer token) and `s3_secret_access_key` (`nsk_live_` and 64 hex digits,
 * the S3 secret key), each decoded to a `Redacted<string>`.
 *
 * @since 0.5.0
 * @category schemas
 */
export class CredentialCreated extends Schema.Class<CredentialCreated>("CredentialCreated")({
  token_id: Schema.String,
  token_id_short: Schema.String,
  name: Schema.optional(Schema.String),
  api_token: Schema.Redacted(Schema.String),
  s3_secret_access_key: Schema.Redacted(Schema.String),
  scopes: Schema.Array(CredentialScope),
  branch_id: Schema.String,
  created_at: Timestamp,
  expires_at: Schema.optional(Timestamp)
}) {}

/** A credential of a branch in a path: `project_id`, `branch_id` and `token_id` (not empty). */
const credentialParams = Schema.Struct({
  project_id: ProjectIdParameter,
  branch_id: BranchIdParameter,
  token_id: Schema.String.pipe(Schema.minLength(1)).annotations(withMessage("must not be empty"))
})

/**
 * The credentials endpoints of a branch (`docs/contract.md` §11.7), a beta of the platform.
 *
 * @since 0.5.0
 * @category endpoints
 */
export const Credentials = Endpoint.group("Credentials", {
  /**
   * `GET /projects/{project_id}/branches/{branch_id}/credentials`: the branch's credentials,
   * `{ credentials }`, revoked ones too (their `revoked_at` set), never a secret; not paged
   * (§11.7). 404 for an unknown project or branch, 400 for a malformed id.
   */
  list: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/branches/{branch_id}/credentials",
    params: branchParams,
    success: CredentialList,
    errors: ["NotFound", "Forbidden", "BadRequest"],
    list: { items: (answer) => answer.credentials }
  }),
  /**
   * `POST /projects/{project_id}/branches/{branch_id}/credentials`: creates a credential with
   * `scopes`; answers 201 with it and its two secrets, shown this once (`Redacted`) (§11.7). No
   * operation. 400 for a body the server refuses, 404 for an unknown project or branch.
   */
  create: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/branches/{branch_id}/credentials",
    params: branchParams,
    body: CredentialCreateRequest,
    success: CredentialCreated,
    statuses: [201],
    errors: ["BadRequest", "NotFound", "Forbidden"]
  }),
  /**
   * `DELETE /projects/{project_id}/branches/{branch_id}/credentials/{token_id}`: revokes a
   * credential (it stays listed, with its `revoked_at`); 204 with no body, again for one revoked
   * already (§11.7). 404 for an unknown credential, project or branch.
   */
  revoke: Endpoint.make({
    method: "DELETE",
    route: "/projects/{project_id}/branches/{branch_id}/credentials/{token_id}",
    params: credentialParams,
    success: Schema.Void,
    statuses: [204],
    errors: ["NotFound", "Forbidden", "BadRequest"]
  })
})
