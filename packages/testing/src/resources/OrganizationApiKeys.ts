/**
 * The fake's organization API keys (docs/contract.md §21): kept as the account's keys are (the
 * `api_keys` kind, one id sequence, one hash lookup when a request authenticates), with the
 * `org_id` of their organization and, for one scoped to a project, its `project_id`. Pure steps
 * of the `OrganizationApiKeys` routes (below) and their answers.
 */
import { Api, ApiKeyCreator, ApiKeyId, ProjectId } from "@dbplatform/core"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { defaultOrgId, upsert } from "../engine/kinds.js"
import { type Handlers } from "../engine/route.js"
import { get, itemsOf, type Outcome, type State, type StoredKey, type FakeState } from "../engine/state.js"
import { at, userId } from "../engine/wire.js"
import { hashKey, newKeyValue } from "../engine/authentication.js"
import { notFound, type Refusal } from "../engine/refusal.js"
import { read, change } from "../engine/change.js"

/** The user who creates an organization's keys in the fake: the account's own, as for its personal keys. */
const creator = new ApiKeyCreator({ id: userId, name: "Ada Lovelace", image: "" })

/** `project_id` of a key's answers: present only for a key scoped to a project. */
const scopeOf = (key: StoredKey) => (key.project_id === undefined ? {} : { project_id: ProjectId.make(key.project_id) })

/** The organization `orgId`, or a 404 when the state has none. */
const organization = (state: State, orgId: string): Either.Either<string, Refusal> =>
  get(state, "organizations", orgId) === undefined ? notFound("organization") : Either.right(orgId)

/**
 * A new key of organization `orgId` named `name`, with the hash `hash` of its value, created at
 * `now`, for all its projects or, with `projectId`, for that one: the account's next key id.
 * 404 for an organization the state has not, or a project that is not one of it.
 */
export const organizationKeyAdded = (
  state: State,
  orgId: string,
  name: string,
  projectId: string | undefined,
  hash: string,
  now: number
): Either.Either<Outcome<StoredKey>, Refusal> =>
  Either.flatMap(organization(state, orgId), () => {
    if (projectId !== undefined) {
      const project = get(state, "projects", projectId)
      if (project === undefined || (project.org_id ?? defaultOrgId) !== orgId) return notFound("project")
    }
    const key: StoredKey = {
      id: state.next_key_id,
      name,
      hash,
      created_at: now,
      revoked: false,
      last_used_at: null,
      last_used_from_addr: "",
      org_id: orgId,
      ...(projectId === undefined ? {} : { project_id: projectId })
    }
    return Either.right({ changes: [upsert("api_keys", key)], answer: key })
  })

/** The keys of organization `orgId` not revoked, by id; 404 for an organization the state has not. */
export const organizationKeys = (state: State, orgId: string): Either.Either<ReadonlyArray<StoredKey>, Refusal> =>
  Either.map(organization(state, orgId), () =>
    Array.from(itemsOf(state, "api_keys")).filter((key) => key.org_id === orgId && !key.revoked)
  )

/**
 * Key `keyId` of organization `orgId` revoked, at once and for good; 404 for an organization the
 * state has not, or an id that is not a key of it (a personal key's, another organization's) or
 * is revoked already.
 */
export const organizationKeyRevoked = (
  state: State,
  orgId: string,
  keyId: number
): Either.Either<Outcome<StoredKey>, Refusal> =>
  Either.flatMap(organization(state, orgId), () => {
    const key = get(state, "api_keys", keyId)
    if (key === undefined || key.org_id !== orgId || key.revoked) return notFound("API key")
    const revoked: StoredKey = { ...key, revoked: true }
    return Either.right({ changes: [upsert("api_keys", revoked)], answer: revoked })
  })

/** The answer to `POST /organizations/{org_id}/api_keys`, with the key's value shown this once (§21). */
export const organizationKeyCreated = (key: StoredKey, value: string): Api.OrgApiKeyCreated =>
  new Api.OrgApiKeyCreated({
    id: ApiKeyId.make(key.id),
    key: Redacted.make(value),
    name: key.name,
    created_at: at(key.created_at),
    created_by: userId,
    ...scopeOf(key)
  })

/** An organization's key as `GET /organizations/{org_id}/api_keys` lists it (§21). */
export const organizationKeyListed = (key: StoredKey): Api.OrgApiKey =>
  new Api.OrgApiKey({
    id: ApiKeyId.make(key.id),
    name: key.name,
    created_at: at(key.created_at),
    created_by: creator,
    last_used_at: Option.map(Option.fromNullable(key.last_used_at), at),
    last_used_from_addr: key.last_used_from_addr,
    ...scopeOf(key)
  })

/** An organization's key as `DELETE /organizations/{org_id}/api_keys/{key_id}` answers (§21). */
export const organizationKeyRevokedAnswer = (key: StoredKey): Api.OrgApiKeyRevoked =>
  new Api.OrgApiKeyRevoked({
    id: ApiKeyId.make(key.id),
    name: key.name,
    revoked: key.revoked,
    created_at: at(key.created_at),
    created_by: userId,
    last_used_at: Option.map(Option.fromNullable(key.last_used_at), at),
    last_used_from_addr: key.last_used_from_addr,
    ...scopeOf(key)
  })

/** How the fake answers the organization API key endpoints, over `fake`. */
export const organizationKeyHandlers = (fake: FakeState): Handlers<typeof Api.OrganizationApiKeys> => ({
  list: ({ params }) =>
    read(fake, (state) =>
      Either.map(organizationKeys(state, params.org_id), (keys) => keys.map(organizationKeyListed))
    ),
  create: ({ body, params }) => {
    const value = newKeyValue()
    return change(
      fake,
      () => (state, now) =>
        organizationKeyAdded(state, params.org_id, body.key_name, body.project_id, hashKey(value), now),
      (key) => organizationKeyCreated(key, value)
    )
  },
  revoke: ({ params }) =>
    change(
      fake,
      () => (state) => organizationKeyRevoked(state, params.org_id, params.key_id),
      organizationKeyRevokedAnswer
    )
})
