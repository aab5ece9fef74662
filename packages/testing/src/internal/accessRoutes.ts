/**
 * The fake's project access routes (docs/contract.md §22): permissions, VPC endpoints and
 * transfers, each decoding with its entry of core's groups and running a step of `access.ts`, or
 * reading the state.
 */
import { Api } from "@dbplatform/core"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import {
  acceptTransferRequest,
  assignVpcEndpoint,
  createTransferRequest,
  deleteVpcEndpoint,
  deleteVpcRestriction,
  grantPermission,
  permissionsOf,
  revokePermission,
  type StoredPermission,
  setVpcRestriction,
  transferProjects,
  vpcEndpointDetails,
  vpcEndpointsOf,
  vpcRestrictionsOf,
  vpcStateAt
} from "./access.js"
import { type Handlers, mutateAnswering, read } from "./route.js"
import type { FakeState } from "./state.js"
import { at } from "./wire.js"

/** Skips the checks of the answers' constructors: the fake builds them from its own state. */
const unchecked = true

/** A permission as the routes answer it; `revokedAt` (epoch ms) once revoked. */
const permissionOf = (permission: StoredPermission, revokedAt?: number) =>
  new Api.ProjectPermission(
    {
      id: permission.id,
      granted_to_email: permission.granted_to_email,
      granted_at: at(permission.granted_at),
      ...(revokedAt === undefined ? {} : { revoked_at: at(revokedAt) })
    },
    unchecked
  )

/** How the fake answers the project permission endpoints, over `fake`. */
export const permissionHandlers = (fake: FakeState): Handlers<typeof Api.ProjectPermissions> => ({
  list: ({ params }) =>
    read(fake, (state) =>
      Either.map(
        permissionsOf(state, params.project_id),
        (permissions) =>
          new Api.ProjectPermissionList({ project_permissions: permissions.map((p) => permissionOf(p)) }, unchecked)
      )
    ),
  grant: ({ body, params }) =>
    mutateAnswering(
      fake,
      (dice) => grantPermission(params.project_id, body.email, dice),
      (permission) => permissionOf(permission)
    ),
  revoke: ({ params }) =>
    mutateAnswering(
      fake,
      () => revokePermission(params.project_id, params.permission_id),
      ({ permission, revoked_at }) => permissionOf(permission, revoked_at)
    )
})

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
    mutateAnswering(
      fake,
      () => assignVpcEndpoint(params.org_id, params.region_id, params.vpc_endpoint_id, body.label),
      () => undefined
    ),
  delete: ({ params }) =>
    mutateAnswering(
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
    mutateAnswering(
      fake,
      () => setVpcRestriction(params.project_id, params.vpc_endpoint_id, body.label),
      () => undefined
    ),
  deleteRestriction: ({ params }) =>
    mutateAnswering(
      fake,
      () => deleteVpcRestriction(params.project_id, params.vpc_endpoint_id),
      () => undefined
    )
})

/** How the fake answers the project transfer endpoints, over `fake`. */
export const transferHandlers = (fake: FakeState): Handlers<typeof Api.ProjectTransfers> => ({
  transfer: ({ body, params }) =>
    mutateAnswering(
      fake,
      () => transferProjects(params.source_org_id, body.destination_org_id, body.project_ids),
      () => new Api.ProjectsTransferred({}, unchecked)
    ),
  createRequest: ({ body, params }) =>
    mutateAnswering(
      fake,
      (dice) => createTransferRequest(params.project_id, body.ttl_seconds, dice),
      (request) =>
        new Api.ProjectTransferRequest(
          {
            id: request.id,
            project_id: params.project_id,
            created_at: at(request.created_at),
            expires_at: at(request.expires_at)
          },
          unchecked
        )
    ),
  acceptRequest: ({ body, params }) =>
    Effect.asVoid(
      mutateAnswering(
        fake,
        () => acceptTransferRequest(params.project_id, params.request_id, body.org_id),
        () => undefined
      )
    )
})
