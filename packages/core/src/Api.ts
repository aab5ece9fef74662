/**
 * The control API v2 as this SDK knows it: every resource's group of endpoints
 * (`docs/contract.md` §4), each declared in its own module. Everything that lists endpoints is
 * derived from {@link groups}: the client's services, the fake's routes, the docs' index and the
 * table-driven tests (`docs/design.md` §1).
 *
 * @since 0.4.0
 */
import type * as Endpoint from "./Endpoint.js"
import { ApiKeys } from "./endpoints/ApiKeys.js"
import { Branches } from "./endpoints/Branches.js"
import { ComputeEndpoints } from "./endpoints/ComputeEndpoints.js"
import { Connections } from "./endpoints/Connections.js"
import { Consumption } from "./endpoints/Consumption.js"
import { Databases } from "./endpoints/Databases.js"
import { Operations } from "./endpoints/Operations.js"
import { OrganizationApiKeys } from "./endpoints/OrganizationApiKeys.js"
import { Projects } from "./endpoints/Projects.js"
import { Regions } from "./endpoints/Regions.js"
import { Roles } from "./endpoints/Roles.js"
import { Organizations } from "./endpoints/Organizations.js"
import { Users } from "./endpoints/Users.js"
import { ProjectPermissions } from "./endpoints/ProjectPermissions.js"
import { ProjectTransfers } from "./endpoints/ProjectTransfers.js"
import { VpcEndpoints } from "./endpoints/VpcEndpoints.js"
import { BranchSchema } from "./endpoints/BranchSchema.js"
import { Snapshots } from "./endpoints/Snapshots.js"
import { BranchAuth } from "./endpoints/BranchAuth.js"
import { DataApi } from "./endpoints/DataApi.js"
import { Jwks } from "./endpoints/Jwks.js"
import { Credentials } from "./endpoints/Credentials.js"
import { Functions } from "./endpoints/Functions.js"
import { Buckets } from "./endpoints/Buckets.js"
import { Storage } from "./endpoints/Storage.js"
import { AiGateway } from "./endpoints/AiGateway.js"

/**
 * The `ApiKeys` group and what it declares beside it.
 *
 * @since 0.4.0
 */
export * from "./endpoints/ApiKeys.js"

/**
 * The `Branches` group and what it declares beside it.
 *
 * @since 0.4.0
 */
export * from "./endpoints/Branches.js"

/**
 * The `ComputeEndpoints` group and what it declares beside it.
 *
 * @since 0.4.0
 */
export * from "./endpoints/ComputeEndpoints.js"

/**
 * The `Connections` group and what it declares beside it.
 *
 * @since 0.4.0
 */
export * from "./endpoints/Connections.js"

/**
 * The `Consumption` group and what it declares beside it.
 *
 * @since 0.5.0
 */
export * from "./endpoints/Consumption.js"

/**
 * The `Databases` group and what it declares beside it.
 *
 * @since 0.4.0
 */
export * from "./endpoints/Databases.js"

/**
 * The `Operations` group and what it declares beside it.
 *
 * @since 0.4.0
 */
export * from "./endpoints/Operations.js"

/**
 * The `Projects` group and what it declares beside it.
 *
 * @since 0.4.0
 */
export * from "./endpoints/Projects.js"

/**
 * The `Regions` group and what it declares beside it.
 *
 * @since 0.4.0
 */
export * from "./endpoints/Regions.js"

/**
 * The `Roles` group and what it declares beside it.
 *
 * @since 0.4.0
 */
export * from "./endpoints/Roles.js"

/**
 * The `Users` group (identity: `GET /users/me`, its organizations, `GET /auth`) and what it
 * declares beside it.
 *
 * @since 0.5.0
 */
export * from "./endpoints/Users.js"

/**
 * The `Organizations` group (an organization, its members and invitations) and what it declares
 * beside it.
 *
 * @since 0.5.0
 */
export * from "./endpoints/Organizations.js"

/**
 * The `ProjectPermissions` group and what it declares beside it.
 *
 * @since 0.5.0
 */
export * from "./endpoints/ProjectPermissions.js"

/**
 * The `VpcEndpoints` group and what it declares beside it.
 *
 * @since 0.5.0
 */
export * from "./endpoints/VpcEndpoints.js"

/**
 * The `ProjectTransfers` group and what it declares beside it.
 *
 * @since 0.5.0
 */
export * from "./endpoints/ProjectTransfers.js"

/**
 * The `OrganizationApiKeys` group and what it declares beside it.
 *
 * @since 0.5.0
 */
export * from "./endpoints/OrganizationApiKeys.js"

/**
 * The `BranchSchema` group and what it declares beside it.
 *
 * @since 0.5.0
 */
export * from "./endpoints/BranchSchema.js"

/**
 * The `Snapshots` group and what it declares beside it.
 *
 * @since 0.5.0
 */
export * from "./endpoints/Snapshots.js"

/**
 * The `DataApi` group and what it declares beside it.
 *
 * @since 0.5.0
 */
export * from "./endpoints/DataApi.js"

/**
 * The `BranchAuth` group and what it declares beside it.
 *
 * @since 0.5.0
 */
export * from "./endpoints/BranchAuth.js"

/**
 * The `Jwks` group and what it declares beside it.
 *
 * @since 0.5.0
 */
export * from "./endpoints/Jwks.js"

/**
 * The `Credentials` group (a branch's scoped service credentials) and what it declares beside it.
 *
 * @since 0.5.0
 */
export * from "./endpoints/Credentials.js"
/**
 * The `Functions` group (beta) and what it declares beside it.
 *
 * @since 0.6.0
 */
export * from "./endpoints/Functions.js"
/**
 * The `Buckets` group (a branch's object storage: buckets, objects, presigned URLs) and what it
 * declares beside it.
 *
 * @since 0.6.0
 */
export * from "./endpoints/Buckets.js"

/**
 * The `Storage` group (a branch's S3 endpoint) and what it declares beside it.
 *
 * @since 0.6.0
 */
export * from "./endpoints/Storage.js"

/**
 * The `AiGateway` group (a branch's AI gateway) and what it declares beside it.
 *
 * @since 0.6.0
 */
export * from "./endpoints/AiGateway.js"

/**
 * Every group, by its name: the one list a new resource joins (`docs/design.md` §1.5).
 *
 * @since 0.4.0
 * @category groups
 */
export const groups = {
  ApiKeys,
  Projects,
  Operations,
  Branches,
  ComputeEndpoints,
  Connections,
  Databases,
  Roles,
  Regions,
  Consumption,
  Users,
  Organizations,
  ProjectPermissions,
  VpcEndpoints,
  ProjectTransfers,
  OrganizationApiKeys,
  BranchSchema,
  Snapshots,
  DataApi,
  BranchAuth,
  Jwks,
  Credentials,
  Functions,
  Buckets,
  Storage,
  AiGateway
} as const

/**
 * The groups' type, by name.
 *
 * @since 0.4.0
 * @category models
 */
export type Groups = typeof groups

/**
 * Every endpoint of every group, in the groups' order.
 *
 * @since 0.4.0
 * @category groups
 */
export const endpoints: ReadonlyArray<Endpoint.Endpoint> = Object.values(groups).flatMap((group) =>
  Object.values<Endpoint.Endpoint>(group)
)
