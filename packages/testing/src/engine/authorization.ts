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
 * organization whose member the account is not); then an action the key's kind may not take is a
 * 403. A revoked key never gets this far: it is a 401 (`authentication.ts`, `authenticate`). A refused
 * request changes nothing.
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
 * The routes only a personal key may call (`METHOD route`), beyond every route under `/api_keys`
 * and `/users/` but {@link keyOrganizationRoute}: creating an organization's keys, removing a
 * member, inviting (the platform's documentation on organization keys marks these as a person's).
 */
export const personalRoutes: ReadonlySet<string> = new Set([
  "POST /organizations/{org_id}/api_keys",
  "DELETE /organizations/{org_id}/members/{member_id}",
  "POST /organizations/{org_id}/invitations"
])

/**
 * The one route under `/users/` an organization's key (scoped to a project or not) may call: the
 * published document answers it, for a key "not tied to a user", with the single organization
 * that owns the key (docs/contract.md §20.3). `GET /users/me` stays a person's: such a key has no
 * user to answer.
 */
export const keyOrganizationRoute = "GET /users/me/organizations"

/** Whether only a personal key may call `endpoint`. */
const personalOnly = (endpoint: Endpoint.Endpoint): boolean => {
  const route = `${endpoint.method} ${endpoint.route}`
  if (route === keyOrganizationRoute) return false
  return (
    endpoint.route === "/api_keys" ||
    endpoint.route.startsWith("/api_keys/") ||
    endpoint.route.startsWith("/users/") ||
    personalRoutes.has(route)
  )
}

/**
 * The routes without a project that a key scoped to one project may still call: the project
 * lists (they show what it reaches: its one project), the regions, who the key is, and the
 * organization that owns it.
 */
export const projectKeyRoutes: ReadonlySet<string> = new Set([
  "GET /projects",
  "GET /projects/shared",
  "GET /regions",
  "GET /auth",
  keyOrganizationRoute
])

/** The routes a key scoped to one project may not call on its project: deleting it. */
const destructive: ReadonlySet<string> = new Set(["DELETE /projects/{project_id}"])

const forbidden = (message: string) => new Refusal({ status: Status.forbidden, message })

/**
 * What `key` is refused for a request to `endpoint` with the path parameters `params` and the
 * query parameter `org_id` (as sent; absent: none): the one rule of the module's docstring, or
 * `undefined` when it may go on.
 */
export const refusal = (
  state: State,
  key: StoredKey | undefined,
  endpoint: Endpoint.Endpoint,
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
  if (kind === "personal") return undefined
  const route = `${endpoint.method} ${endpoint.route}`
  if (personalOnly(endpoint)) return forbidden(`an organization API key cannot call ${route}: use a personal API key`)
  if (kind === "project" && (typeof projectId === "string" ? destructive.has(route) : !projectKeyRoutes.has(route))) {
    return forbidden(`an API key scoped to project ${key!.project_id} cannot call ${route}`)
  }
  return undefined
}

/** The `org_id` of a request's query as sent, when it is one (`^[a-z0-9-]{1,60}$`; another is the query's 400). */
const queryOrgIdOf = (url: string): string | undefined => {
  const orgId = new URL(url, "http://fake").searchParams.get("org_id")
  return orgId !== null && /^[a-z0-9-]{1,60}$/.test(orgId) ? orgId : undefined
}

/**
 * The check every route of the fake runs after decoding its path parameters (`route.ts`,
 * `Access`), for a request to `url` authenticated with `key`: {@link refusal} on the state now,
 * with the query's `org_id` for an endpoint whose query takes one.
 */
export const accessOf =
  (fake: FakeState, key: StoredKey | undefined, url: string) =>
  (endpoint: Endpoint.Endpoint, params: unknown): Effect.Effect<void, Refusal> =>
    Effect.flatMap(Ref.get(fake.ref), (state) => {
      const refused = refusal(
        state,
        key,
        endpoint,
        typeof params === "object" && params !== null ? (params as Readonly<Record<string, unknown>>) : {},
        endpoint.parts.get("org_id") === "query" ? queryOrgIdOf(url) : undefined
      )
      return refused === undefined ? Effect.void : Effect.fail(refused)
    })
