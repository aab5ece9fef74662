/**
 * The organization API key endpoints: list, create and revoke the keys of an organization, each
 * acting for the organization's projects, or for one of them (`docs/contract.md` §21).
 *
 * @since 0.5.0
 */
import * as Schema from "effect/Schema"
import { ApiKey, ApiKeyCreated, ApiKeyRevoked, CreateApiKeyRequest } from "../ApiKey.js"
import * as Endpoint from "../Endpoint.js"
import { ProjectId } from "../Ids.js"
import { KeyIdParameter, ProjectIdParameter } from "../internal/input.js"
import { OrgId } from "./Projects.js"

/** `project_id` of an organization key: the one project it may act for; absent, all of its organization's. */
const scope = { project_id: Schema.optional(ProjectId) }

/**
 * Body of `POST /organizations/{org_id}/api_keys`: `{ key_name, project_id? }`. `key_name` as
 * for a personal key (1 to 64 characters, not blank, no spaces around it); `project_id`
 * (`^[a-z0-9-]{1,60}$`), when given, a project of the organization: the key then acts for that
 * project only (§21).
 *
 * @since 0.5.0
 * @category schemas
 */
export class CreateOrgApiKeyRequest extends CreateApiKeyRequest.extend<CreateOrgApiKeyRequest>(
  "CreateOrgApiKeyRequest"
)({
  project_id: Schema.optional(ProjectIdParameter)
}) {}

/**
 * Answer of `POST /organizations/{org_id}/api_keys` (§21): as a personal key's creation
 * (`id`; `key`, the value, shown only this once and decoded to a `Redacted<string>`; `name`,
 * `created_at`, `created_by` a user's UUID), with `project_id` for a key scoped to one project.
 *
 * @since 0.5.0
 * @category schemas
 */
export class OrgApiKeyCreated extends ApiKeyCreated.extend<OrgApiKeyCreated>("OrgApiKeyCreated")(scope) {}

/**
 * An organization key as `GET /organizations/{org_id}/api_keys` lists it (§21): as a personal
 * key (`id`, `name`, `created_at`, `created_by` `{ id, name, image }`, `last_used_at` (`None`
 * when never used), `last_used_from_addr` (may be `""`)), with `project_id` for a key scoped to
 * one project. Never the value.
 *
 * @since 0.5.0
 * @category schemas
 */
export class OrgApiKey extends ApiKey.extend<OrgApiKey>("OrgApiKey")(scope) {}

/**
 * Answer of `GET /organizations/{org_id}/api_keys`: a bare JSON array of {@link OrgApiKey}, the
 * organization's keys not revoked (§21).
 *
 * @since 0.5.0
 * @category schemas
 */
export const OrgApiKeyList = Schema.Array(OrgApiKey).annotations({ identifier: "OrgApiKeyList" })

/**
 * Answer of `DELETE /organizations/{org_id}/api_keys/{key_id}` (§21): as a personal key's
 * revocation (`revoked` is `true`), with `project_id` for a key scoped to one project.
 *
 * @since 0.5.0
 * @category schemas
 */
export class OrgApiKeyRevoked extends ApiKeyRevoked.extend<OrgApiKeyRevoked>("OrgApiKeyRevoked")(scope) {}

/** An organization in a path: `org_id`. */
const orgParams = Schema.Struct({ org_id: OrgId })

/**
 * The organization API key endpoints (§21). Every one may also answer 404 for an organization
 * the key may not act for (as for one that does not exist) and 403 for a key that may not do
 * it (a key scoped to one project; an organization key creating keys).
 *
 * @since 0.5.0
 * @category endpoints
 */
export const OrganizationApiKeys = Endpoint.group("OrganizationApiKeys", {
  /**
   * `GET /organizations/{org_id}/api_keys`: the organization's keys, not revoked, a bare array
   * (§21). 400 for a malformed `org_id`; 404 for an organization the key may not act for; 403
   * for a key scoped to one project.
   */
  list: Endpoint.make({
    method: "GET",
    route: "/organizations/{org_id}/api_keys",
    params: orgParams,
    success: OrgApiKeyList,
    errors: ["NotFound", "Forbidden", "BadRequest"],
    list: { items: (keys) => keys }
  }),
  /**
   * `POST /organizations/{org_id}/api_keys`: creates a key of the organization named
   * `key_name`, for all its projects or, with `project_id`, for that one (§21). Answers 200
   * with the value, shown this once (`Redacted`). 400 for a name or id the server refuses; 404
   * for an organization the key may not act for, or a `project_id` that is not a project of the
   * organization; 403 for an organization key (only a personal key of a member creates them);
   * 423 when locked.
   */
  create: Endpoint.make({
    method: "POST",
    route: "/organizations/{org_id}/api_keys",
    params: orgParams,
    body: CreateOrgApiKeyRequest,
    success: OrgApiKeyCreated,
    errors: ["BadRequest", "NotFound", "Forbidden", "Locked"]
  }),
  /**
   * `DELETE /organizations/{org_id}/api_keys/{key_id}`: revokes a key of the organization, at
   * once and for good: a request with it is a 401 from then on (§21). 404 for an id that is not
   * a key of the organization, or is revoked already, and for an organization the key may not
   * act for; 400 for an id that is not an integer; 403 for a key scoped to one project; 423
   * when locked.
   */
  revoke: Endpoint.make({
    method: "DELETE",
    route: "/organizations/{org_id}/api_keys/{key_id}",
    params: Schema.Struct({ org_id: OrgId, key_id: KeyIdParameter }),
    success: OrgApiKeyRevoked,
    errors: ["NotFound", "Forbidden", "BadRequest", "Locked"],
    about: (key) => ({ key_id: key.id })
  })
})
