/**
 * The VPC endpoint endpoints: the private network endpoints an organization assigns, region by
 * region, and the projects restricted to connections through one of them (`docs/contract.md`
 * §22.3).
 *
 * @since 0.5.0
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import { ProjectIdParameter, withMessage } from "../internal/input.js"
import { OrgId } from "./Projects.js"

/**
 * A VPC endpoint as a list names it: its `vpc_endpoint_id` (the cloud provider's id, e.g.
 * `vpce-0123456789abcdef0`) and its `label` (§22.3).
 *
 * @since 0.5.0
 * @category schemas
 */
export class VpcEndpoint extends Schema.Class<VpcEndpoint>("VpcEndpoint")({
  vpc_endpoint_id: Schema.String,
  label: Schema.String
}) {}

/**
 * A VPC endpoint of an organization with its `region_id` (§22.3).
 *
 * @since 0.5.0
 * @category schemas
 */
export class VpcEndpointWithRegion extends Schema.Class<VpcEndpointWithRegion>("VpcEndpointWithRegion")({
  ...VpcEndpoint.fields,
  region_id: Schema.String
}) {}

/**
 * Answer of the project's and of a region's VPC endpoint lists: `{ endpoints }` (§22.3).
 *
 * @since 0.5.0
 * @category schemas
 */
export class VpcEndpointList extends Schema.Class<VpcEndpointList>("VpcEndpointList")({
  endpoints: Schema.Array(VpcEndpoint)
}) {}

/**
 * Answer of `GET /organizations/{org_id}/vpc/vpc_endpoints`: `{ endpoints }`, each with its
 * `region_id` (§22.3).
 *
 * @since 0.5.0
 * @category schemas
 */
export class VpcEndpointWithRegionList extends Schema.Class<VpcEndpointWithRegionList>("VpcEndpointWithRegionList")({
  endpoints: Schema.Array(VpcEndpointWithRegion)
}) {}

/**
 * A VPC endpoint of an organization in detail: its id and label, its `state` (`new` until the
 * platform accepts the connection, then `accepted`; open), how many of the organization's
 * projects are restricted to it (`num_restricted_projects`) and up to 3 of their ids
 * (`example_restricted_projects`) (§22.3).
 *
 * @since 0.5.0
 * @category schemas
 */
export class VpcEndpointDetails extends Schema.Class<VpcEndpointDetails>("VpcEndpointDetails")({
  vpc_endpoint_id: Schema.String,
  label: Schema.String,
  state: Schema.String,
  num_restricted_projects: Schema.Number,
  example_restricted_projects: Schema.Array(Schema.String)
}) {}

/**
 * Body of the assignments of a VPC endpoint (to an organization, or as a project's
 * restriction): `{ label }` (§22.3).
 *
 * @since 0.5.0
 * @category schemas
 */
export const VpcEndpointAssignment = Schema.Struct({ label: Schema.String }).annotations({
  identifier: "VpcEndpointAssignment"
})

/** A path parameter that must not be empty. */
const NotEmpty = Schema.String.pipe(Schema.minLength(1)).annotations(withMessage("must not be empty"))

/** An organization's region in a path. */
const regionParams = Schema.Struct({ org_id: OrgId, region_id: NotEmpty })

/** An organization's VPC endpoint in a region, in a path. */
const endpointParams = Schema.Struct({ org_id: OrgId, region_id: NotEmpty, vpc_endpoint_id: NotEmpty })

/** A project's VPC endpoint restriction, in a path. */
const restrictionParams = Schema.Struct({ project_id: ProjectIdParameter, vpc_endpoint_id: NotEmpty })

/** The answer of an assignment or removal: 200 with no body. */
const NoBody = Schema.Void

/**
 * The VPC endpoint endpoints (§22.3).
 *
 * @since 0.5.0
 * @category endpoints
 */
export const VpcEndpoints = Endpoint.group("VpcEndpoints", {
  /**
   * `GET /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints`: the VPC endpoints
   * assigned to the organization in the region, `{ endpoints }` (§22.3). 404 for an unknown
   * organization or region.
   */
  list: Endpoint.make({
    method: "GET",
    route: "/organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints",
    params: regionParams,
    success: VpcEndpointList,
    errors: ["BadRequest", "NotFound", "Forbidden"],
    list: { items: (answer) => answer.endpoints }
  }),
  /**
   * `GET /organizations/{org_id}/vpc/vpc_endpoints`: the organization's VPC endpoints in every
   * region, each with its `region_id` (§22.3). 404 for an unknown organization.
   */
  listAll: Endpoint.make({
    method: "GET",
    route: "/organizations/{org_id}/vpc/vpc_endpoints",
    params: Schema.Struct({ org_id: OrgId }),
    success: VpcEndpointWithRegionList,
    errors: ["BadRequest", "NotFound", "Forbidden"],
    list: { items: (answer) => answer.endpoints }
  }),
  /**
   * `GET /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}`: one
   * VPC endpoint of the organization, with its `state` and the projects restricted to it
   * (§22.3). 404 for an unknown organization, region or VPC endpoint.
   */
  get: Endpoint.make({
    method: "GET",
    route: "/organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}",
    params: endpointParams,
    success: VpcEndpointDetails,
    errors: ["BadRequest", "NotFound", "Forbidden"],
    about: (details) => ({ vpc_endpoint_id: details.vpc_endpoint_id })
  }),
  /**
   * `POST /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}`:
   * assigns the VPC endpoint to the organization in the region, or changes its `label`; 200
   * with no body (§22.3). 400 for a region that does not take VPC endpoints (Azure) or an
   * endpoint deleted from the organization (it cannot be added back), 404 for an unknown
   * organization or region.
   */
  assign: Endpoint.make({
    method: "POST",
    route: "/organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}",
    params: endpointParams,
    body: VpcEndpointAssignment,
    success: NoBody,
    errors: ["BadRequest", "NotFound", "Forbidden"]
  }),
  /**
   * `DELETE /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}`:
   * removes the VPC endpoint from the organization for good; 200 with no body (§22.3). 404 for
   * an unknown organization, region or VPC endpoint, 400 while projects are restricted to it.
   */
  delete: Endpoint.make({
    method: "DELETE",
    route: "/organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}",
    params: endpointParams,
    success: NoBody,
    errors: ["BadRequest", "NotFound", "Forbidden"]
  }),
  /**
   * `GET /projects/{project_id}/vpc_endpoints`: the VPC endpoints the project is restricted to,
   * `{ endpoints }` (§22.3). 404 for an unknown project.
   */
  listRestrictions: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/vpc_endpoints",
    params: Schema.Struct({ project_id: ProjectIdParameter }),
    success: VpcEndpointList,
    errors: ["BadRequest", "NotFound", "Forbidden"],
    list: { items: (answer) => answer.endpoints }
  }),
  /**
   * `POST /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}`: restricts the project to
   * connections through the VPC endpoint, or changes the restriction's `label`; 200 with no body
   * (§22.3). 400 unless the endpoint is assigned to the project's organization in the project's
   * region, 404 for an unknown project.
   */
  setRestriction: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}",
    params: restrictionParams,
    body: VpcEndpointAssignment,
    success: NoBody,
    errors: ["BadRequest", "NotFound", "Forbidden"]
  }),
  /**
   * `DELETE /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}`: removes the restriction;
   * 200 with no body (§22.3). 404 for an unknown project or a restriction it does not have.
   */
  deleteRestriction: Endpoint.make({
    method: "DELETE",
    route: "/projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}",
    params: restrictionParams,
    success: NoBody,
    errors: ["BadRequest", "NotFound", "Forbidden"]
  })
})
