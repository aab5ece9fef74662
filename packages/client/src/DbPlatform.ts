/**
 * Every service of the SDK in one Layer: `ApiKeys`, `Projects`, `Operations`, `Branches`,
 * `ComputeEndpoints`, `Connections`, `Databases`, `Roles`, `Regions`, `Snapshots`, `Consumption`, `Users`,
 * `Organizations`, `OrganizationApiKeys`, `ProjectPermissions`, `VpcEndpoints`, `ProjectTransfers`,
 * `BranchSchema`, `DataApi`, `BranchAuth`, `Jwks`, `Credentials`, `Functions`, `Buckets`, `Storage` and
 * `AiGateway` over one `DbPlatformClient`. Provide an
 * `HttpClient` beside it.
 *
 * ```ts
 * program.pipe(Effect.provide(DbPlatform.layerConfig()), Effect.provide(FetchHttpClient.layer))
 * ```
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import type { InvalidApiKey, InvalidBaseUrl } from "@dbplatform/core"
import type * as ConfigError from "effect/ConfigError"
import * as Layer from "effect/Layer"
import * as ApiKeys from "./ApiKeys.js"
import * as Branches from "./Branches.js"
import * as ComputeEndpoints from "./ComputeEndpoints.js"
import * as Connections from "./Connections.js"
import * as Consumption from "./Consumption.js"
import * as Databases from "./Databases.js"
import * as DbPlatformClient from "./DbPlatformClient.js"
import * as Operations from "./Operations.js"
import * as OrganizationApiKeys from "./OrganizationApiKeys.js"
import * as Projects from "./Projects.js"
import * as ProjectPermissions from "./ProjectPermissions.js"
import * as ProjectTransfers from "./ProjectTransfers.js"
import * as Regions from "./Regions.js"
import * as Roles from "./Roles.js"
import * as Users from "./Users.js"
import * as Organizations from "./Organizations.js"
import * as VpcEndpoints from "./VpcEndpoints.js"
import * as BranchSchema from "./BranchSchema.js"
import * as Snapshots from "./Snapshots.js"
import * as BranchAuth from "./BranchAuth.js"
import * as DataApi from "./DataApi.js"
import * as Jwks from "./Jwks.js"
import * as Credentials from "./Credentials.js"
import * as Functions from "./Functions.js"
import * as Buckets from "./Buckets.js"
import * as Storage from "./Storage.js"
import * as AiGateway from "./AiGateway.js"

/**
 * The services a program gets from {@link layer}.
 *
 * @since 0.1.0
 */
export type DbPlatform =
  | ApiKeys.ApiKeys
  | Projects.Projects
  | Operations.Operations
  | Branches.Branches
  | ComputeEndpoints.ComputeEndpoints
  | Connections.Connections
  | Databases.Databases
  | Roles.Roles
  | Regions.Regions
  | Consumption.Consumption
  | Users.Users
  | Organizations.Organizations
  | ProjectPermissions.ProjectPermissions
  | VpcEndpoints.VpcEndpoints
  | ProjectTransfers.ProjectTransfers
  | OrganizationApiKeys.OrganizationApiKeys
  | BranchSchema.BranchSchema
  | Snapshots.Snapshots
  | DataApi.DataApi
  | BranchAuth.BranchAuth
  | Jwks.Jwks
  | Credentials.Credentials
  | Functions.Functions
  | Buckets.Buckets
  | Storage.Storage
  | AiGateway.AiGateway

/**
 * The services, and the `DbPlatformClient` they share, built on an existing client Layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerFrom = <E, R>(
  client: Layer.Layer<DbPlatformClient.DbPlatformClient, E, R>
): Layer.Layer<DbPlatform | DbPlatformClient.DbPlatformClient, E, R> =>
  // One `Operations` (its rate limits) for the waits of `Operations` and `Branches.createReady` alike.
  Layer.mergeAll(
    ApiKeys.layer,
    Projects.layer,
    Branches.layer,
    ComputeEndpoints.layer,
    Connections.layer,
    Databases.layer,
    Roles.layer,
    Regions.layer,
    Consumption.layer,
    Users.layer,
    Organizations.layer,
    ProjectPermissions.layer,
    VpcEndpoints.layer,
    ProjectTransfers.layer,
    OrganizationApiKeys.layer,
    BranchSchema.layer,
    Snapshots.layer,
    DataApi.layer,
    BranchAuth.layer,
    Jwks.layer,
    Credentials.layer,
    Functions.layer,
    Buckets.layer,
    Storage.layer,
    AiGateway.layer
  ).pipe(Layer.provideMerge(Operations.layer), Layer.provideMerge(client))

/**
 * Every service from explicit settings (base URL with the version segment, API key as
 * `Redacted`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: DbPlatformClient.Options
): Layer.Layer<DbPlatform | DbPlatformClient.DbPlatformClient, InvalidApiKey | InvalidBaseUrl, HttpClient.HttpClient> =>
  layerFrom(DbPlatformClient.layer(options))

/**
 * Every service from configuration: `DBPLATFORM_BASE_URL` and `DBPLATFORM_API_KEY` (as
 * `Redacted`) by default.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  config?: DbPlatformClient.ConfigOptions
): Layer.Layer<
  DbPlatform | DbPlatformClient.DbPlatformClient,
  ConfigError.ConfigError | InvalidApiKey | InvalidBaseUrl,
  HttpClient.HttpClient
> => layerFrom(DbPlatformClient.layerConfig(config))
