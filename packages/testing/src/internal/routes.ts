/**
 * The fake's router: every group of core's `Api.groups` answered by its resource's handlers
 * (`resources/<Group>`). The one module that names every resource's handlers; the engine does not
 * import it.
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import { Api, Endpoint } from "@dbplatform/core"
import { permissionAuthorizations, permissionHandlers } from "../resources/ProjectPermissions/handlers.js"
import { branchAuthAuthorizations, branchAuthHandlers } from "../resources/BranchAuth/handlers.js"
import { branchAuthorizations, branchHandlers } from "../resources/Branches/handlers.js"
import { branchSchemaAuthorizations, branchSchemaHandlers } from "../resources/BranchSchema/handlers.js"
import { dataApiAuthorizations, dataApiHandlers } from "../resources/DataApi/handlers.js"
import { databaseAuthorizations, databaseHandlers } from "../resources/Databases/handlers.js"
import { computeEndpointAuthorizations, computeEndpointHandlers } from "../resources/ComputeEndpoints/handlers.js"
import { connectionAuthorizations, connectionHandlers } from "../resources/Connections/handlers.js"
import { consumptionAuthorizations, consumptionHandlers } from "../resources/Consumption/handlers.js"
import { organizationKeyAuthorizations, organizationKeyHandlers } from "../resources/OrganizationApiKeys.js"
import { projectAuthorizations, projectHandlers } from "../resources/Projects/handlers.js"
import { jwksAuthorizations, jwksHandlers } from "../resources/Jwks/handlers.js"
import { credentialAuthorizations, credentialHandlers } from "../resources/Credentials/handlers.js"
import { functionsAuthorizations, functionsHandlers } from "../resources/Functions/handlers.js"
import { regionAuthorizations, regionHandlers } from "../resources/Regions.js"
import { organizationAuthorizations, organizationHandlers } from "../resources/Organizations/handlers.js"
import { roleAuthorizations, roleHandlers } from "../resources/Roles/handlers.js"
import { snapshotAuthorizations, snapshotHandlers } from "../resources/Snapshots/handlers.js"
import { type Handler, type Handlers, route } from "../engine/route.js"
import { type FakeState } from "../engine/state.js"
import type { Authorization, Authorizations } from "../engine/authorization.js"
import { transferAuthorizations, transferHandlers } from "../resources/ProjectTransfers/handlers.js"
import { vpcAuthorizations, vpcHandlers } from "../resources/VpcEndpoints/handlers.js"
import { userAuthorizations, userHandlers } from "../resources/Users.js"
import { apiKeyAuthorizations, apiKeyHandlers } from "../resources/ApiKeys.js"
import { operationAuthorizations, operationHandlers } from "../resources/Operations.js"
import { bucketAuthorizations, bucketHandlers } from "../resources/Buckets/handlers.js"
import {
  aiGatewayAuthorizations,
  aiGatewayHandlers,
  storageAuthorizations,
  storageHandlers
} from "../resources/Storage.js"

export { dataPlane, isDataPlane } from "../resources/Buckets/dataPlane.js"

/** The handlers of every group of core's `Api.groups`, by group: one missing is a type error. */
type AllHandlers = { readonly [G in keyof Api.Groups]: Handlers<Api.Groups[G]> }

/** How the fake answers every endpoint of `groups`, over `fake`. */
const handlers = (fake: FakeState, groups: Api.Groups): AllHandlers => ({
  ApiKeys: apiKeyHandlers(fake),
  Projects: projectHandlers(fake, groups.Projects),
  Operations: operationHandlers(fake, groups.Operations),
  Branches: branchHandlers(fake, groups.Branches),
  ComputeEndpoints: computeEndpointHandlers(fake, groups.ComputeEndpoints),
  Connections: connectionHandlers(fake, groups.Connections),
  Databases: databaseHandlers(fake, groups.Databases),
  Roles: roleHandlers(fake, groups.Roles),
  Regions: regionHandlers,
  Consumption: consumptionHandlers(fake, groups.Consumption),
  Users: userHandlers(fake),
  Organizations: organizationHandlers(fake),
  ProjectPermissions: permissionHandlers(fake),
  VpcEndpoints: vpcHandlers(fake),
  ProjectTransfers: transferHandlers(fake),
  OrganizationApiKeys: organizationKeyHandlers(fake),
  BranchSchema: branchSchemaHandlers(fake),
  Snapshots: snapshotHandlers(fake),
  DataApi: dataApiHandlers(fake),
  BranchAuth: branchAuthHandlers(fake),
  Jwks: jwksHandlers(fake),
  Credentials: credentialHandlers(fake),
  Functions: functionsHandlers(fake),
  Buckets: bucketHandlers(fake),
  Storage: storageHandlers(fake),
  AiGateway: aiGatewayHandlers(fake)
})

/**
 * Who may call every endpoint of core's `Api.groups` (docs/contract.md §21), by group and entry,
 * each declared beside its group's handlers: one missing is a type error, and none is assumed.
 */
export const authorizations: { readonly [G in keyof Api.Groups]: Authorizations<Api.Groups[G]> } = {
  ApiKeys: apiKeyAuthorizations,
  Projects: projectAuthorizations,
  Operations: operationAuthorizations,
  Branches: branchAuthorizations,
  ComputeEndpoints: computeEndpointAuthorizations,
  Connections: connectionAuthorizations,
  Databases: databaseAuthorizations,
  Roles: roleAuthorizations,
  Regions: regionAuthorizations,
  Consumption: consumptionAuthorizations,
  Users: userAuthorizations,
  Organizations: organizationAuthorizations,
  ProjectPermissions: permissionAuthorizations,
  VpcEndpoints: vpcAuthorizations,
  ProjectTransfers: transferAuthorizations,
  OrganizationApiKeys: organizationKeyAuthorizations,
  BranchSchema: branchSchemaAuthorizations,
  Snapshots: snapshotAuthorizations,
  DataApi: dataApiAuthorizations,
  BranchAuth: branchAuthAuthorizations,
  Jwks: jwksAuthorizations,
  Credentials: credentialAuthorizations,
  Functions: functionsAuthorizations,
  Buckets: bucketAuthorizations,
  Storage: storageAuthorizations,
  AiGateway: aiGatewayAuthorizations
}

/**
 * The routes of the control API v2, over `fake`, under `/api/v2`: one per endpoint of every
 * group of `groups` (core's `Api.groups` by default; a test may pass them with an endpoint
 * changed), routed, checked and answered as it declares (docs/contract.md §4, docs/design.md §1);
 * each runs the `Gate` first, then `Access` by its entry's declared {@link authorizations} (a
 * route renamed in `groups` keeps its entry's, docs/contract.md §21). A route reads the state
 * with `read` and changes it only with `change` (`engine/change.ts`), which runs the control
 * plane first.
 */
export const router = (fake: FakeState, groups: Api.Groups = Api.groups) => {
  const all: Readonly<Record<string, Readonly<Record<string, Handler<Endpoint.Endpoint>>>>> = handlers(fake, groups)
  const declared: Readonly<Record<string, Readonly<Record<string, Authorization>>>> = authorizations
  return HttpRouter.fromIterable(
    Object.entries(groups).flatMap(([name, group]) =>
      Object.entries<Endpoint.Endpoint>(group).map(([key, endpoint]) =>
        route(endpoint, all[name]![key]!, declared[name]![key]!)
      )
    )
  ).pipe(HttpRouter.prefixAll(Endpoint.basePath))
}
