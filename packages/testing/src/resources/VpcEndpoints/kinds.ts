/**
 * The kinds of record of the VpcEndpoints group the fake keeps (`engine/kinds.ts`): each one's shape as a
 * `Snapshot` holds it, and its entry of the table of kinds (`internal/kinds.ts`).
 */
import { DecodeIssue } from "@dbplatform/core"
import * as Schema from "effect/Schema"
import { kind, SnapshotTime } from "../../engine/kinds.js"

/**
 * A VPC endpoint assigned to an organization in a region (docs/contract.md §22.3): `id` is
 * `{org_id}/{region_id}/{vpc_endpoint_id}`. It is `accepted` a minute after `created_at`.
 * `deleted_at` marks one deleted from the organization: it is kept, since it cannot be added
 * back, and lists leave it out.
 */
export const SnapshotVpcEndpoint = Schema.Struct({
  id: Schema.String,
  org_id: Schema.String,
  region_id: Schema.String,
  vpc_endpoint_id: Schema.String,
  label: Schema.String,
  created_at: SnapshotTime,
  deleted_at: Schema.optional(SnapshotTime)
}).annotations({ identifier: "SnapshotVpcEndpoint" })

/**
 * A project's restriction to connections through a VPC endpoint of its organization
 * (docs/contract.md §22.3): `id` is `{project_id}/{vpc_endpoint_id}`.
 */
export const SnapshotVpcRestriction = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  vpc_endpoint_id: Schema.String,
  label: Schema.String,
  created_at: SnapshotTime
}).annotations({ identifier: "SnapshotVpcRestriction" })

export const vpc_endpoints = kind({
  label: "VPC endpoint",
  schema: SnapshotVpcEndpoint,
  id: Schema.String,
  idOf: (endpoint) => endpoint.id,
  parent: { kind: "organizations", of: (endpoint) => endpoint.org_id },
  rank: (endpoint) => endpoint.created_at,
  check: (endpoint) =>
    endpoint.id === `${endpoint.org_id}/${endpoint.region_id}/${endpoint.vpc_endpoint_id}`
      ? []
      : [`VPC endpoint "${DecodeIssue.excerpt(endpoint.id)}": its id is not {org_id}/{region_id}/{vpc_endpoint_id}`]
})

export const vpc_restrictions = kind({
  label: "VPC restriction",
  schema: SnapshotVpcRestriction,
  id: Schema.String,
  idOf: (restriction) => restriction.id,
  parent: { kind: "projects", of: (restriction) => restriction.project_id },
  rank: (restriction) => restriction.created_at,
  check: (restriction) =>
    restriction.id === `${restriction.project_id}/${restriction.vpc_endpoint_id}`
      ? []
      : [`VPC restriction "${DecodeIssue.excerpt(restriction.id)}": its id is not {project_id}/{vpc_endpoint_id}`]
})

declare module "../../engine/kinds.js" {
  interface Kinds {
    readonly vpc_endpoints: typeof vpc_endpoints
    readonly vpc_restrictions: typeof vpc_restrictions
  }
}
