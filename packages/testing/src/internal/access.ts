/**
 * What the fake's project access routes do (docs/contract.md §22), each mutation a pure step over
 * the state (`state.ts` `Mutation`):
 *
 * - Permissions: an access to a project granted to an email. Granting an email that has one
 *   (compared without case) answers it as it is; a revoked access is removed, answered with its
 *   `revoked_at`.
 * - VPC endpoints: assigned to an organization in a region (not an Azure one), `new` for a minute
 *   after, then `accepted`; one deleted from the organization is kept as deleted and cannot be
 *   assigned again; it cannot be deleted while projects are restricted to it. A project is
 *   restricted only to a VPC endpoint assigned to its organization in its region.
 * - Transfers: the account's user must be a member of both organizations; the destination must
 *   take the projects: at most its plan's project count, a plan not below the source's (else
 *   406 with the limits); a project with an integration cannot move (422). A moved project
 *   loses its VPC restrictions (they name its former organization's endpoints). A transfer
 *   request can be accepted once before it expires, on the fake's `Clock`.
 */
import * as Either from "effect/Either"
import { projectOf, refused, unlockedProject } from "./branches.js"
import { roleIn } from "./caller.js"
import { type Dice, uuid } from "./ids.js"
import { type Change, defaultOrgId, present, remove, upsert } from "./kinds.js"
import type { Refused } from "./limits.js"
import { organizationImplied } from "./organizations.js"
import { regions } from "./regions.js"
import { applyAll, get, itemsOf, type Mutation, type State, type StoredProject } from "./state.js"
import { Status } from "./status.js"

/** An access to a project as the fake keeps it. */
export type StoredPermission = NonNullable<ReturnType<typeof get<"permissions">>>
/** A VPC endpoint of an organization as the fake keeps it. */
export type StoredVpcEndpoint = NonNullable<ReturnType<typeof get<"vpc_endpoints">>>
/** A project's VPC restriction as the fake keeps it. */
export type StoredVpcRestriction = NonNullable<ReturnType<typeof get<"vpc_restrictions">>>
/** A transfer request as the fake keeps it. */
export type StoredTransferRequest = NonNullable<ReturnType<typeof get<"transfer_requests">>>

const notAcceptable = 406
const unprocessable = 422

// --- permissions -------------------------------------------------------------------------------

/** The accesses granted to project `projectId`, oldest first, or a 404. */
export const permissionsOf = (state: State, projectId: string) =>
  Either.map(projectOf(state, projectId), () => Array.from(itemsOf(state, "permissions", projectId)))

/** Grants access to project `projectId` to `email`; one it has already is answered as it is. */
export const grantPermission =
  (projectId: string, email: string, dice: Dice): Mutation<StoredPermission, Refused> =>
  (state, now) =>
    Either.gen(function* () {
      yield* projectOf(state, projectId)
      for (const permission of itemsOf(state, "permissions", projectId)) {
        if (permission.granted_to_email.toLowerCase() === email.toLowerCase()) {
          return { changes: [], answer: permission }
        }
      }
      let id = uuid(dice)
      while (get(state, "permissions", id) !== undefined) id = uuid(dice)
      const permission: StoredPermission = { id, project_id: projectId, granted_to_email: email, granted_at: now }
      return { changes: [upsert("permissions", permission)], answer: permission }
    })

/** Revokes the access `permissionId` of project `projectId`: the access as it was, and when. */
export const revokePermission =
  (
    projectId: string,
    permissionId: string
  ): Mutation<{ readonly permission: StoredPermission; readonly revoked_at: number }, Refused> =>
  (state, now) =>
    Either.gen(function* () {
      yield* projectOf(state, projectId)
      const permission = get(state, "permissions", permissionId)
      if (permission === undefined || permission.project_id !== projectId) {
        return yield* refused(Status.notFound, "permission not found")
      }
      return { changes: [remove("permissions", permissionId)], answer: { permission, revoked_at: now } }
    })

// --- organizations ------------------------------------------------------------------------------

/**
 * Organization `orgId`, or a 404: for one that does not exist, and for one the account's user is
 * not a member of, as the fake answers every organization a key does not reach (docs/contract.md §21).
 */
export const memberOrganization = (state: State, orgId: string) => {
  const organization = get(state, "organizations", orgId)
  if (organization === undefined) return refused(Status.notFound, "organization not found")
  return roleIn(state, undefined, orgId) === undefined
    ? refused(Status.notFound, "organization not found")
    : Either.right(organization)
}

// --- VPC endpoints ------------------------------------------------------------------------------

/** How long a VPC endpoint assigned to an organization stays `new` before it is `accepted`: a minute. */
export const vpcAcceptedAfter = 60_000

/** A VPC endpoint id as the cloud provider makes it: `vpce-` and 8 or 17 hexadecimal digits. */
const vpcEndpointIdPattern = /^vpce-[0-9a-f]{8}([0-9a-f]{9})?$/

/** The key of a VPC endpoint of an organization in a region. */
export const vpcEndpointKey = (orgId: string, regionId: string, vpcEndpointId: string) =>
  `${orgId}/${regionId}/${vpcEndpointId}`

/** The region `regionId` of organization `orgId` (a member's), or a 404/403. */
const memberRegion = (state: State, orgId: string, regionId: string) =>
  Either.flatMap(
    memberOrganization(state, orgId),
    (): Either.Either<void, Refused> =>
      regions.some((region) => region.region_id === regionId)
        ? Either.void
        : refused(Status.notFound, "region not found")
  )

/** The VPC endpoints of organization `orgId` not deleted, in `regionId` when given, oldest first. */
export const vpcEndpointsOf = (
  state: State,
  orgId: string,
  regionId?: string
): Either.Either<ReadonlyArray<StoredVpcEndpoint>, Refused> =>
  Either.map(
    regionId === undefined
      ? Either.map(memberOrganization(state, orgId), () => undefined)
      : memberRegion(state, orgId, regionId),
    () =>
      Array.from(itemsOf(state, "vpc_endpoints", orgId)).filter(
        (endpoint) => endpoint.deleted_at === undefined && (regionId === undefined || endpoint.region_id === regionId)
      )
  )

/** The organization's VPC endpoint in the region, not deleted, or a 404. */
const liveVpcEndpoint = (state: State, orgId: string, regionId: string, vpcEndpointId: string) =>
  Either.flatMap(memberRegion(state, orgId, regionId), () => {
    const endpoint = get(state, "vpc_endpoints", vpcEndpointKey(orgId, regionId, vpcEndpointId))
    return endpoint === undefined || endpoint.deleted_at !== undefined
      ? refused(Status.notFound, "VPC endpoint not found")
      : Either.right(endpoint)
  })

/** The state of a VPC endpoint at `now`: `new` for a minute after its assignment, then `accepted`. */
export const vpcStateAt = (endpoint: StoredVpcEndpoint, now: number) =>
  now < endpoint.created_at + vpcAcceptedAfter ? "new" : "accepted"

/** The projects of the endpoint's organization, in its region, restricted to it. */
export const restrictedProjects = (state: State, endpoint: StoredVpcEndpoint): ReadonlyArray<string> => {
  const restricted: Array<string> = []
  for (const project of itemsOf(state, "projects")) {
    if (project.org_id !== endpoint.org_id || project.region_id !== endpoint.region_id) continue
    if (get(state, "vpc_restrictions", `${project.id}/${endpoint.vpc_endpoint_id}`) !== undefined) {
      restricted.push(project.id)
    }
  }
  return restricted
}

/** The organization's VPC endpoint in the region, with its state and restricted projects at `now`. */
export const vpcEndpointDetails = (state: State, orgId: string, regionId: string, vpcEndpointId: string) =>
  Either.map(liveVpcEndpoint(state, orgId, regionId, vpcEndpointId), (endpoint) => ({
    endpoint,
    restricted: restrictedProjects(state, endpoint)
  }))

/**
 * Assigns VPC endpoint `vpcEndpointId` to organization `orgId` in `regionId` with `label`, or
 * changes its label. 400 for an Azure region, an id that is not a VPC endpoint's, and one deleted
 * from the organization (it cannot be added back).
 */
export const assignVpcEndpoint =
  (orgId: string, regionId: string, vpcEndpointId: string, label: string): Mutation<void, Refused> =>
  (state, now) =>
    Either.gen(function* () {
      yield* memberRegion(state, orgId, regionId)
      if (regionId.startsWith("azure-")) {
        return yield* refused(Status.badRequest, "VPC endpoints are not supported in Azure regions")
      }
      if (!vpcEndpointIdPattern.test(vpcEndpointId)) {
        return yield* refused(Status.badRequest, "vpc_endpoint_id: must be vpce- and 8 or 17 hexadecimal digits")
      }
      const id = vpcEndpointKey(orgId, regionId, vpcEndpointId)
      const existing = get(state, "vpc_endpoints", id)
      if (existing?.deleted_at !== undefined) {
        return yield* refused(Status.badRequest, "a VPC endpoint deleted from the organization cannot be added back")
      }
      const endpoint: StoredVpcEndpoint =
        existing === undefined
          ? { id, org_id: orgId, region_id: regionId, vpc_endpoint_id: vpcEndpointId, label, created_at: now }
          : { ...existing, label }
      return { changes: [upsert("vpc_endpoints", endpoint)], answer: undefined }
    })

/** Deletes the organization's VPC endpoint for good; 400 while projects are restricted to it. */
export const deleteVpcEndpoint =
  (orgId: string, regionId: string, vpcEndpointId: string): Mutation<void, Refused> =>
  (state, now) =>
    Either.gen(function* () {
      const endpoint = yield* liveVpcEndpoint(state, orgId, regionId, vpcEndpointId)
      const restricted = restrictedProjects(state, endpoint)
      if (restricted.length > 0) {
        return yield* refused(
          Status.badRequest,
          `${restricted.length} project(s) are restricted to this VPC endpoint: remove their restrictions first`
        )
      }
      return { changes: [upsert("vpc_endpoints", { ...endpoint, deleted_at: now })], answer: undefined }
    })

/** The VPC endpoints project `projectId` is restricted to, oldest first, or a 404. */
export const vpcRestrictionsOf = (state: State, projectId: string) =>
  Either.map(projectOf(state, projectId), () => Array.from(itemsOf(state, "vpc_restrictions", projectId)))

/**
 * Restricts project `projectId` to VPC endpoint `vpcEndpointId` with `label` (or changes the
 * label): 400 unless the endpoint is assigned to the project's organization in its region.
 */
export const setVpcRestriction =
  (projectId: string, vpcEndpointId: string, label: string): Mutation<void, Refused> =>
  (state, now) =>
    Either.gen(function* () {
      const project = yield* projectOf(state, projectId)
      const orgId = project.org_id ?? defaultOrgId
      const assigned = get(state, "vpc_endpoints", vpcEndpointKey(orgId, project.region_id, vpcEndpointId))
      if (assigned === undefined || assigned.deleted_at !== undefined) {
        return yield* refused(
          Status.badRequest,
          `VPC endpoint ${vpcEndpointId} is not assigned to the project's organization in ${project.region_id}`
        )
      }
      const id = `${projectId}/${vpcEndpointId}`
      const existing = get(state, "vpc_restrictions", id)
      const restriction: StoredVpcRestriction =
        existing === undefined
          ? { id, project_id: projectId, vpc_endpoint_id: vpcEndpointId, label, created_at: now }
          : { ...existing, label }
      return { changes: [upsert("vpc_restrictions", restriction)], answer: undefined }
    })

/** Removes project `projectId`'s restriction to `vpcEndpointId`; 404 when it has none. */
export const deleteVpcRestriction =
  (projectId: string, vpcEndpointId: string): Mutation<void, Refused> =>
  (state) =>
    Either.gen(function* () {
      yield* projectOf(state, projectId)
      const id = `${projectId}/${vpcEndpointId}`
      if (get(state, "vpc_restrictions", id) === undefined) {
        return yield* refused(Status.notFound, "VPC endpoint restriction not found")
      }
      return { changes: [remove("vpc_restrictions", id)], answer: undefined }
    })

// --- transfers ----------------------------------------------------------------------------------

/** How many projects an organization of a plan may hold (the fake's figures), by plan family. */
export const planProjectLimits: Readonly<Record<string, number>> = {
  free: 100,
  launch: 100,
  scale: 1000,
  business: 5000
}

/** The plans from the lowest, by family: a transfer may not go to a lower one. */
const planOrder: ReadonlyArray<string> = ["free", "launch", "scale", "business", "enterprise"]

/** The family of a plan: `free_v3` is `free`. */
const familyOf = (plan: string) => plan.split("_")[0]!

/** One limit the destination does not meet: its `name`, what was `expected` and the `actual` value. */
export interface Limit {
  readonly name: string
  readonly expected: string
  readonly actual: string
}

/** How many projects organization `orgId` holds. */
const projectCount = (state: State, orgId: string) => {
  let count = 0
  for (const project of itemsOf(state, "projects")) if ((project.org_id ?? defaultOrgId) === orgId) count++
  return count
}

/**
 * The limits destination `toOrg` does not meet to take `moving` projects from `fromOrg` (whose
 * plan is `fromPlan`; none known: only the count): its plan's project count
 * (`projects_count`), a plan not below the source's (`subscription_type`).
 */
const limitsUnmet = (state: State, toOrg: string, moving: number, fromPlan: string | undefined) => {
  const to = get(state, "organizations", toOrg)
  if (to === undefined) return []
  const limits: Array<Limit> = []
  const max = planProjectLimits[familyOf(to.plan)]
  const after = projectCount(state, toOrg) + moving
  if (max !== undefined && after > max) {
    limits.push({ name: "projects_count", expected: String(max), actual: String(after) })
  }
  const fromRank = fromPlan === undefined ? -1 : planOrder.indexOf(familyOf(fromPlan))
  const toRank = planOrder.indexOf(familyOf(to.plan))
  if (fromPlan !== undefined && fromRank >= 0 && toRank >= 0 && toRank < fromRank) {
    limits.push({ name: "subscription_type", expected: fromPlan, actual: to.plan })
  }
  return limits
}

/** `project` moved to organization `orgId` at `now`, without its VPC restrictions. */
const moved = (state: State, project: StoredProject, orgId: string, now: number): ReadonlyArray<Change> => [
  ...Array.from(itemsOf(state, "vpc_restrictions", project.id), (restriction) =>
    remove("vpc_restrictions", restriction.id)
  ),
  upsert("projects", present({ ...project, org_id: orgId, updated_at: Math.max(now, project.updated_at ?? 0) }))
]

/**
 * Moves `projectIds` from organization `fromOrg` to `toOrg` (docs/contract.md §22.4): 404 for an
 * unknown organization or a project not in `fromOrg`, 403 unless the account's user is a member
 * of both, 400 when they are the same, 422 for projects with an integration, 406 for the limits
 * the destination does not meet, 423 while a project has an operation running.
 */
export const transferProjects =
  (fromOrg: string, toOrg: string, projectIds: ReadonlyArray<string>): Mutation<void, Refused> =>
  (state, now) =>
    Either.gen(function* () {
      const source = yield* memberOrganization(state, fromOrg)
      yield* memberOrganization(state, toOrg)
      if (fromOrg === toOrg) {
        return yield* refused(Status.badRequest, "destination_org_id: must differ from the source organization")
      }
      const ids = Array.from(new Set(projectIds))
      const projects: Array<StoredProject> = []
      for (const id of ids) {
        const project = get(state, "projects", id)
        if (project === undefined || project.shared === true || (project.org_id ?? defaultOrgId) !== fromOrg) {
          return yield* refused(Status.notFound, `project ${id} not found in organization ${fromOrg}`)
        }
        projects.push(project)
      }
      const integrated = projects.filter((project) => project.integration !== undefined)
      if (integrated.length > 0) {
        return yield* Either.left<Refused>({
          status: unprocessable,
          message: "projects with an integration cannot be transferred",
          details: { projects: integrated.map((project) => ({ id: project.id, integration: project.integration })) }
        })
      }
      const limits = limitsUnmet(state, toOrg, projects.length, source.plan)
      if (limits.length > 0) {
        return yield* Either.left<Refused>({
          status: notAcceptable,
          message: `the destination organization cannot take the projects: ${limits.map((limit) => limit.name).join(", ")}`,
          details: { limits }
        })
      }
      for (const project of projects) yield* unlockedProject(state, project.id, now)
      return { changes: projects.flatMap((project) => moved(state, project, toOrg, now)), answer: undefined }
    })

/** How long a transfer request can be accepted when its creation does not say: a day, in seconds. */
export const defaultTransferTtlSeconds = 86_400

/** A request to transfer project `projectId`, which expires `ttlSeconds` (a day by default) after `now`. */
export const createTransferRequest =
  (projectId: string, ttlSeconds: number | undefined, dice: Dice): Mutation<StoredTransferRequest, Refused> =>
  (state, now) =>
    Either.gen(function* () {
      yield* projectOf(state, projectId)
      let id = uuid(dice)
      while (get(state, "transfer_requests", id) !== undefined) id = uuid(dice)
      const request: StoredTransferRequest = {
        id,
        project_id: projectId,
        created_at: now,
        expires_at: now + (ttlSeconds ?? defaultTransferTtlSeconds) * 1000
      }
      return { changes: [upsert("transfer_requests", request)], answer: request }
    })

/**
 * Accepts transfer request `requestId` of project `projectId`, moving it to `orgId` (the
 * account's default organization, made if need be, when absent): 404 for an unknown request or
 * organization, 400 for one expired at `now`, 403 for an organization the account's user is not
 * a member of, 406 with the reasons when the organization cannot take the project. The request
 * is used up.
 */
export const acceptTransferRequest =
  (projectId: string, requestId: string, orgId: string | undefined): Mutation<void, Refused> =>
  (state, now) =>
    Either.gen(function* () {
      const project = yield* projectOf(state, projectId)
      const request = get(state, "transfer_requests", requestId)
      if (request === undefined || request.project_id !== projectId) {
        return yield* refused(Status.notFound, "transfer request not found")
      }
      if (now >= request.expires_at) return yield* refused(Status.badRequest, "transfer request has expired")
      const destination = orgId ?? defaultOrgId
      const implied = orgId === undefined ? organizationImplied(state, destination, now) : []
      if (implied.length === 0) yield* memberOrganization(state, destination)
      const from = get(state, "organizations", project.org_id ?? defaultOrgId)
      // An organization implied now has the default plan: its limits are checked as any other's.
      const target = applyAll(state, implied)
      const limits = limitsUnmet(target, destination, destination === project.org_id ? 0 : 1, from?.plan)
      if (limits.length > 0) {
        return yield* Either.left<Refused>({
          status: notAcceptable,
          message: "the organization does not satisfy the plan requirements to own the project",
          details: {
            reasons: limits.map((limit) => ({
              code: limit.name,
              message: `${limit.name}: expected ${limit.expected}, actual ${limit.actual}`
            }))
          }
        })
      }
      return {
        changes: [...implied, ...moved(state, project, destination, now), remove("transfer_requests", requestId)],
        answer: undefined
      }
    })
