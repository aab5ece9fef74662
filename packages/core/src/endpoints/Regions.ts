/**
 * The region endpoint: the regions a project can be created in (`docs/contract.md` §17).
 *
 * @since 0.4.0
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import { OrgId } from "./Projects.js"

/**
 * A region the platform runs projects in, as `GET /regions` lists it: its id (`aws-us-east-2`,
 * the `region_id` of a project), a short name, whether new projects go there by default, and its
 * approximate latitude and longitude in degrees, as decimal strings (empty when unknown) (§17).
 *
 * @since 0.4.0
 * @category schemas
 */
export class Region extends Schema.Class<Region>("Region")({
  region_id: Schema.String,
  name: Schema.String,
  default: Schema.Boolean,
  geo_lat: Schema.String,
  geo_long: Schema.String
}) {}

/**
 * Answer of `GET /regions`: `{ regions }` (§17).
 *
 * @since 0.4.0
 * @category schemas
 */
export class ActiveRegions extends Schema.Class<ActiveRegions>("ActiveRegions")({
  regions: Schema.Array(Region)
}) {}

/**
 * The region endpoints (§17).
 *
 * @since 0.4.0
 * @category endpoints
 */
export const Regions = Endpoint.group("Regions", {
  /**
   * `GET /regions`: the regions a project can be created in, `{ regions }`; `org_id` (optional)
   * the organization whose regions to list (not every region is open to every organization)
   * (§17). 400 for an `org_id` the server refuses.
   */
  list: Endpoint.make({
    method: "GET",
    route: "/regions",
    query: Schema.Struct({ org_id: Schema.optional(OrgId) }),
    success: ActiveRegions,
    errors: ["BadRequest"],
    list: { items: (answer) => answer.regions }
  })
})
