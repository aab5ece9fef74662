/**
 * The fake's regions (docs/contract.md §17): the regions its projects live in, the realistic
 * seed's among them, with the platform's names and approximate places. `GET /regions` answers
 * them whatever the `org_id`: the fake has no organization whose regions differ.
 */
import { Api } from "@dbplatform/core"
import * as Effect from "effect/Effect"
import type { Handlers } from "../engine/route.js"

/** The regions, the default first: the region a project is created in when it names none. */
export const regions: ReadonlyArray<Api.Region> = [
  new Api.Region({
    region_id: "aws-us-east-2",
    name: "AWS US East 2 (Ohio)",
    default: true,
    geo_lat: "39.9612",
    geo_long: "-82.9988"
  }),
  new Api.Region({
    region_id: "aws-eu-central-1",
    name: "AWS Europe Central 1 (Frankfurt)",
    default: false,
    geo_lat: "50.1109",
    geo_long: "8.6821"
  }),
  new Api.Region({
    region_id: "aws-us-west-2",
    name: "AWS US West 2 (Oregon)",
    default: false,
    geo_lat: "45.5152",
    geo_long: "-122.6784"
  }),
  new Api.Region({
    region_id: "azure-eastus2",
    name: "Azure East US 2 (Virginia)",
    default: false,
    geo_lat: "36.6676",
    geo_long: "-78.3875"
  })
]

/** How the fake answers the region endpoints. */
export const regionHandlers: Handlers<typeof Api.Regions> = {
  list: () => Effect.succeed(new Api.ActiveRegions({ regions }))
}
