/**
 * Who may do what in the fake (docs/contract.md §21): the kinds of key, what each reaches, and
 * the one rule every route applies before it reads its query or body.
 *
 * - A **personal** key (no `org_id`) acts for the account's user: the projects of every
 *   organization whose member the user is (the `members` kind), and those shared with it.
 * - An **organization** key (`org_id`) acts for its organization's projects only, and for the
 *   organization itself, but not where the platform wants a person: the personal keys
 *   (`/api_keys`), the user (`/users/...`, but `GET /users/me/organizations`, which the published
 *   document answers for such a key with the one organization that owns it), and creating keys,
 *   removing members and inviting.
 * - A **project-scoped** organization key (`org_id` and `project_id`) acts for that one project
 *   only, and may not delete it, nor act for the organization (a route without a project), but
 *   for the lists that show what it reaches, the regions, `GET /auth` and
 *   `GET /users/me/organizations` (its organization).
 *
 * The rule, from the route's path parameters (and an `org_id` in its query): a project
 * (`project_id`) or organization (`org_id`, `source_org_id`) that exists but the key does not
 * reach is a 404, as for one that does not exist (the published document says so of an
 * organization whose member the account is not); then a key of a kind the endpoint's declared
 * {@link Authorization} does not name gets what it declares (a 403). Each group declares its
 * entries' beside its handlers (`resources/<Group>`, {@link Authorizations}); no route string
 * names an endpoint here. A revoked key never gets this far: it is a 401 (`authentication.ts`,
 * `authenticate`). A refused request changes nothing.
 */
import type { Endpoint } from "@dbplatform/core"
import * as Effect from "effect/Effect"
import * as Ref from "effect/Ref"
import { defaultOrgId } from "./kinds.js"
import { roleIn } from "./caller.js"
import { type FakeState, get, type State, type StoredKey, type StoredProject } from "./state.js"
import { Status } from "./status.js"
import { Refusal } from "./refusal.js"

/** The kind of a key: personal, an organization's, or an organization's scoped to one project. */
export type KeyKind = "personal" | "organization" | "project"

/** The kind of `key`; `undefined` (a route run without authentication, in a test) is personal. */
export const kindOf = (key: StoredKey | undefined): KeyKind =>
  key?.org_id === undefined ? "personal" : key.project_id === undefined ? "organization" : "project"

/** Whether the account's user is a member of organization `orgId`. */
const isMember = (state: State, orgId: string): boolean => roleIn(state, undefined, orgId) !== undefined

/** Whether `key` acts for `project`: what `GET /projects` lists and a project's routes answer. */
export const reachesProject = (state: State, key: StoredKey | undefined, project: StoredProject): boolean => {
  const orgId = project.org_id ?? defaultOrgId
  if (key?.org_id === undefined) return project.shared === true || isMember(state, orgId)
  return orgId === key.org_id && (key.project_id === undefined || key.project_id === project.id)
}

/** What a key outside its reach gets: the 404 of what does not exist (docs/contract.md §21). */
const organizationNotFound = new Refusal({ status: Status.notFound, message: "organization not found" })
const projectNotFound = new Refusal({ status: Status.notFound, message: "project not found" })

/**
 * A 404 for an organization `orgId` that exists but `key` does not act for; `undefined` when it
 * does, or when there is none (a route answers that itself; a project created in an organization
 * nobody declared implies it, docs/contract.md §20). An organization key acts for its own only.
 */
export const organizationRefusal = (state: State, key: StoredKey | undefined, orgId: string): Refusal | undefined => {
  if (key?.org_id !== undefined) return key.org_id === orgId ? undefined : organizationNotFound
  return get(state, "organizations", orgId) === undefined || isMember(state, orgId) ? undefined : organizationNotFound
}

/** A 404 for a project `projectId` that exists but `key` does not act for (one that does not exist: its route says). */
const projectRefusal = (state: State, key: StoredKey | undefined, projectId: string): Refusal | undefined => {
  const project = get(state, "projects", projectId)
  return project === undefined || reachesProject(state, key, project) ? undefined : projectNotFound
}

/** The path parameters that name an organization. */
const organizationParams = ["org_id", "source_org_id"] as const

/**
 * Who may call one endpoint (docs/contract.md §21): `keys`, the kinds of key that may (a personal
 * key first: it may call every endpoint), and `otherwise`, what a key of another kind gets: a
 * 403, or a 404 as for a route that is not there. Declared for every entry of a group beside its
 * handlers ({@link Authorizations}) and carried by the entry's route (`route.ts`), so a renamed
 * route keeps its rule. Which projects and organizations a key reaches is not declared: the
 * route's path parameters say (a 404 outside them, {@link refusal}).
 */
export interface Authorization {
  readonly keys: readonly ["personal", ...ReadonlyArray<"organization" | "project">]
  readonly otherwise: typeof Status.forbidden | typeof Status.notFound
}

/**
 * The {@link Authorization} of every entry of a group of core's `Api` (`Api.Roles`...), by the
 * entry's key, as `Handlers<G>` gives its handlers: a missing one is a type error, and there is
 * no default (docs/contract.md §21).
 */
export type Authorizations<G> = {
  readonly [K in keyof G]: G[K] extends Endpoint.Endpoint ? Authorization : never
}

/**
 * Any key: personal, an organization's, and one scoped to a project (on that project, when the
 * route names one; else for a route that shows what it reaches: the project lists, the
 * regions, who the key is, the organization that owns it).
 */
export const anyKey: Authorization = { keys: ["personal", "organization", "project"], otherwise: Status.forbidden }

/**
 * A personal key or an organization's not scoped to a project: what acts for an organization as
 * a whole (a route without a project), or deletes a project. A key scoped to one project gets a 403.
 */
export const unscopedKey: Authorization = { keys: ["personal", "organization"], otherwise: Status.forbidden }

/**
 * A personal key only: what the platform wants a person for (the personal keys, the user,
 * creating an organization's keys, removing a member, inviting). An organization's key gets a 403.
 */
export const personalKey: Authorization = { keys: ["personal"], otherwise: Status.forbidden }

/**
 * What `key` is refused for a request to `endpoint`, which `authorization` declares who may call,
 * with the path parameters `params` and the query parameter `org_id` (as sent; absent: none): the
 * one rule of the module's docstring, or `undefined` when it may go on.
 */
export const refusal = (
  state: State,
  key: StoredKey | undefined,
  endpoint: Endpoint.Endpoint,
  authorization: Authorization,
  params: Readonly<Record<string, unknown>>,
  queryOrgId: string | undefined
): Refusal | undefined => {
  const projectId = params.project_id
  if (typeof projectId === "string") {
    const refused = projectRefusal(state, key, projectId)
    if (refused !== undefined) return refused
  }
  for (const name of organizationParams) {
    const orgId = params[name]
    if (typeof orgId !== "string") continue
    const refused = organizationRefusal(state, key, orgId)
    if (refused !== undefined) return refused
  }
  if (queryOrgId !== undefined) {
    const refused = organizationRefusal(state, key, queryOrgId)
    if (refused !== undefined) return refused
  }
  const kind = kindOf(key)
  const keys: ReadonlyArray<KeyKind> = authorization.keys
  if (keys.includes(kind)) return undefined
  const route = `${endpoint.method} ${endpoint.route}`
  if (authorization.otherwise === Status.notFound) return routeNotFound
  return new Refusal({
    status: Status.forbidden,
    message: keys.includes("organization")
      ? `an API key scoped to project ${key!.project_id} cannot call ${route}`
      : `an organization API key cannot call ${route}: use a personal API key`
  })
}

/** What a key gets for an endpoint that answers a key of its kind as if it were not there. */
const routeNotFound = new Refusal({ status: Status.notFound, message: "route not found" })

/** The `org_id` of a request's query as sent, when it is one (`^[a-z0-9-]{1,60}$`; another is the query's 400). */
const queryOrgIdOf = (url: string): string | undefined => {
  const orgId = new URL(url, "http://fake").searchParams.get("org_id")
  return orgId !== null && /^[a-z0-9-]{1,60}$/.test(orgId) ? orgId : undefined
}

/**
 * The check every route of the fake runs after decoding its path parameters (`route.ts`,
 * `Access`), for a request to `url` authenticated with `key`: {@link refusal} on the state now,
 * by the route's declared {@link Authorization}, with the query's `org_id` for an endpoint whose
 * query takes one.
 */
export const accessOf =
  (fake: FakeState, key: StoredKey | undefined, url: string) =>
  (endpoint: Endpoint.Endpoint, authorization: Authorization, params: unknown): Effect.Effect<void, Refusal> =>
    Effect.flatMap(Ref.get(fake.ref), (state) => {
      const refused = refusal(
        state,
        key,
        endpoint,
        authorization,
        typeof params === "object" && params !== null ? (params as Readonly<Record<string, unknown>>) : {},
        endpoint.parts.get("org_id") === "query" ? queryOrgIdOf(url) : undefined
      )
      return refused === undefined ? Effect.void : Effect.fail(refused)
    })
