/**
 * The fake's VPC endpoint routes (docs/contract.md §22.3): each decodes with its entry of core's
 * `Api.VpcEndpoints` and runs a step of `steps.ts`, or reads the state.
 */
import { Api } from "@dbplatform/core"
import * as Either from "effect/Either"
import {
  assignVpcEndpoint,
  deleteVpcEndpoint,
  deleteVpcRestriction,
  setVpcRestriction,
  vpcEndpointDetails,
  vpcEndpointsOf,
  vpcRestrictionsOf,
  vpcStateAt
} from "./steps.js"
import { type Handlers } from "../../engine/route.js"
import type { FakeState } from "../../engine/state.js"
import { change, read } from "../../engine/change.js"

/** Skips the checks of the answers' constructors: the fake builds them from its own state. */
const unchecked = true

/** How the fake answers the VPC endpoint endpoints, over `fake`. */
export const vpcHandlers = (fake: FakeState): Handlers<typeof Api.VpcEndpoints> => ({
  list: ({ params }) =>
    read(fake, (state) =>
      Either.map(
        vpcEndpointsOf(state, params.org_id, params.region_id),
        (endpoints) =>
          new Api.VpcEndpointList(
            {
              endpoints: endpoints.map(
                (endpoint) =>
                  new Api.VpcEndpoint({ vpc_endpoint_id: endpoint.vpc_endpoint_id, label: endpoint.label }, unchecked)
              )
            },
            unchecked
          )
      )
    ),
  listAll: ({ params }) =>
    read(fake, (state) =>
      Either.map(
        vpcEndpointsOf(state, params.org_id),
        (endpoints) =>
          new Api.VpcEndpointWithRegionList(
            {
              endpoints: endpoints.map(
                (endpoint) =>
                  new Api.VpcEndpointWithRegion(
                    { vpc_endpoint_id: endpoint.vpc_endpoint_id, label: endpoint.label, region_id: endpoint.region_id },
                    unchecked
                  )
              )
            },
            unchecked
          )
      )
    ),
  get: ({ params }) =>
    read(fake, (state, now) =>
      Either.map(
        vpcEndpointDetails(state, params.org_id, params.region_id, params.vpc_endpoint_id),
        ({ endpoint, restricted }) =>
          new Api.VpcEndpointDetails(
            {
              vpc_endpoint_id: endpoint.vpc_endpoint_id,
              label: endpoint.label,
              state: vpcStateAt(endpoint, now),
              num_restricted_projects: restricted.length,
              example_restricted_projects: restricted.slice(0, 3)
            },
            unchecked
          )
      )
    ),
  assign: ({ body, params }) =>
    change(
      fake,
      () => assignVpcEndpoint(params.org_id, params.region_id, params.vpc_endpoint_id, body.label),
      () => undefined
    ),
  delete: ({ params }) =>
    change(
      fake,
      () => deleteVpcEndpoint(params.org_id, params.region_id, params.vpc_endpoint_id),
      () => undefined
    ),
  listRestrictions: ({ params }) =>
    read(fake, (state) =>
      Either.map(
        vpcRestrictionsOf(state, params.project_id),
        (restrictions) =>
          new Api.VpcEndpointList(
            {
              endpoints: restrictions.map(
                (restriction) =>
                  new Api.VpcEndpoint(
                    { vpc_endpoint_id: restriction.vpc_endpoint_id, label: restriction.label },
                    unchecked
                  )
              )
            },
            unchecked
          )
      )
    ),
  setRestriction: ({ body, params }) =>
    change(
      fake,
      () => setVpcRestriction(params.project_id, params.vpc_endpoint_id, body.label),
      () => undefined
    ),
  deleteRestriction: ({ params }) =>
    change(
      fake,
      () => deleteVpcRestriction(params.project_id, params.vpc_endpoint_id),
      () => undefined
    )
})
