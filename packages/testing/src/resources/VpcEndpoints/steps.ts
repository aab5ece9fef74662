/**
 * What the fake's VPC endpoint routes do (docs/contract.md §22.3), each mutation a pure step over
 * the state (`engine/state.ts` `Mutation`): assigned to an organization in a region (not an Azure
 * one), `new` for a minute after, then `accepted`; one deleted from the organization is kept as
 * deleted and cannot be assigned again; it cannot be deleted while projects are restricted to it.
 * A project is restricted only to a VPC endpoint assigned to its organization in its region.
 */
import * as Either from "effect/Either"
import { defaultOrgId, remove, upsert } from "../../engine/kinds.js"
import { regions } from "../Regions.js"
import { get, itemsOf, type Mutation, type State } from "../../engine/state.js"
import { Status } from "../../engine/status.js"
import { refused, type Refusal } from "../../engine/refusal.js"
import { projectOf, memberOrganization } from "../../engine/records.js"

/** A VPC endpoint of an organization as the fake keeps it. */
export type StoredVpcEndpoint = NonNullable<ReturnType<typeof get<"vpc_endpoints">>>
/** A project's VPC restriction as the fake keeps it. */
export type StoredVpcRestriction = NonNullable<ReturnType<typeof get<"vpc_restrictions">>>

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
    (): Either.Either<void, Refusal> =>
      regions.some((region) => region.region_id === regionId)
        ? Either.void
        : refused(Status.notFound, "region not found")
  )

/** The VPC endpoints of organization `orgId` not deleted, in `regionId` when given, oldest first. */
export const vpcEndpointsOf = (
  state: State,
  orgId: string,
  regionId?: string
): Either.Either<ReadonlyArray<StoredVpcEndpoint>, Refusal> =>
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
  (orgId: string, regionId: string, vpcEndpointId: string, label: string): Mutation<void, Refusal> =>
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
  (orgId: string, regionId: string, vpcEndpointId: string): Mutation<void, Refusal> =>
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
  (projectId: string, vpcEndpointId: string, label: string): Mutation<void, Refusal> =>
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
  (projectId: string, vpcEndpointId: string): Mutation<void, Refusal> =>
  (state) =>
    Either.gen(function* () {
      yield* projectOf(state, projectId)
      const id = `${projectId}/${vpcEndpointId}`
      if (get(state, "vpc_restrictions", id) === undefined) {
        return yield* refused(Status.notFound, "VPC endpoint restriction not found")
      }
      return { changes: [remove("vpc_restrictions", id)], answer: undefined }
    })
