/**
 * `@dbplatform/client`: Effect services for the control API v2 over `@effect/platform`'s
 * `HttpClient`. Provide `DbPlatform.layer(...)` or `DbPlatform.layerConfig()` and any
 * `HttpClient` Layer.
 *
 * @since 0.1.0
 */

/**
 * API keys: `create`, `list` (a `Stream`), `listPage` (the bare array), `revoke` (§2.1–2.3).
 *
 * @since 0.1.0
 */
export * as ApiKeys from "./ApiKeys.js"
/**
 * Branches: `list` (a `Stream`), `listPage` (one page), `count`, `create`, `get`, `update`,
 * `delete`, `restore`, `setAsDefault`, `listEndpoints` (a `Stream`) and `listEndpointsPage`
 * (§11), and `createReady`, the preview-branch workflow (§13.3).
 *
 * @since 0.3.0
 */
export * as Branches from "./Branches.js"
/**
 * Compute endpoints: `list` (a project's, a `Stream`), `listPage`, `create`, `get`, `update`,
 * `delete`, `start`, `suspend`, `restart` (§12).
 *
 * @since 0.3.0
 */
export * as ComputeEndpoints from "./ComputeEndpoints.js"
/**
 * Connections: `uri`, a branch's connection URI for a database and role, `Redacted` (§13.1).
 *
 * @since 0.3.0
 */
export * as Connections from "./Connections.js"
/**
 * Consumption history: `listProjects`, `listBranches` and the legacy `listProjectsLegacy` (each a
 * `Stream`), and their one-page forms (`docs/contract.md` §23).
 *
 * @since 0.5.0
 */
export * as Consumption from "./Consumption.js"
/**
 * Databases of a branch: `list` (a `Stream`), `listPage`, `create`, `get`, `update`, `delete`
 * (§15.1).
 *
 * @since 0.3.0
 */
export * as Databases from "./Databases.js"
/**
 * Every service in one Layer: `layer({ baseUrl, apiKey })`, `layerConfig()`
 * (`DBPLATFORM_BASE_URL`, `DBPLATFORM_API_KEY`), `layerFrom(client)`.
 *
 * @since 0.1.0
 */
export * as DbPlatform from "./DbPlatform.js"
/**
 * The HTTP client the services share: base URL, bearer token, status to typed error, body
 * decoding, retries, timeouts, the optional rate limit and a span per call.
 *
 * @since 0.1.0
 */
export * as DbPlatformClient from "./DbPlatformClient.js"
/**
 * Operations: `list` (a `Stream`), `listPage` (one page), `get`, `states`, `await`, `awaitAll`,
 * `watch` (§2.5, §3.2, §6).
 *
 * @since 0.1.0
 */
export * as Operations from "./Operations.js"
/**
 * Projects: `list` (a `Stream`) and `listPage` (one page), `listShared` and `listSharedPage`
 * (§2.4, §10.6); `create`, `get`, `update`, `delete` (§14).
 *
 * @since 0.1.0
 */
export * as Projects from "./Projects.js"
/**
 * Regions: the regions a project can be created in (`docs/contract.md` §17).
 *
 * @since 0.4.0
 */
export * as Regions from "./Regions.js"
/**
 * ProjectPermissions: who else has access to a project, by email: `list`, `grant`, `revoke`
 * (`docs/contract.md` §22.1).
 *
 * @since 0.5.0
 */
export * as ProjectPermissions from "./ProjectPermissions.js"
/**
 * VpcEndpoints: an organization's VPC endpoints by region, and a project's restrictions to them
 * (`docs/contract.md` §22.3).
 *
 * @since 0.5.0
 */
export * as VpcEndpoints from "./VpcEndpoints.js"
/**
 * ProjectTransfers: projects moved between organizations, at once or by a transfer request
 * (`docs/contract.md` §22.4).
 *
 * @since 0.5.0
 */
export * as ProjectTransfers from "./ProjectTransfers.js"

/**
 * Users: `me` (who the key acts for), `listOrganizations` (a `Stream`), `listOrganizationsPage`,
 * `auth` (how the request is authenticated) (`docs/contract.md` §20).
 *
 * @since 0.5.0
 */
export * as Users from "./Users.js"
/**
 * Organizations: `get`, `listMembers` (a `Stream` along `pagination.next`), `listMembersPage`,
 * `getMember`, `updateMember`, `removeMember`, `listInvitations` (a `Stream`),
 * `listInvitationsPage`, `createInvitations` (`docs/contract.md` §20).
 *
 * @since 0.5.0
 */
export * as Organizations from "./Organizations.js"

/**
 * Organization API keys: list, create (the value shown once, `Redacted`; optionally scoped to one
 * project) and revoke (`docs/contract.md` §21).
 *
 * @since 0.5.0
 */
export * as OrganizationApiKeys from "./OrganizationApiKeys.js"

/**
 * BranchSchema: a database's schema on a branch (`get`, as SQL or JSON, at a point in time) and
 * its unified diff against another branch (`compare`) (`docs/contract.md` §24).
 *
 * @since 0.5.0
 */
export * as BranchSchema from "./BranchSchema.js"

/**
 * DataApi: the HTTP (REST) interface a branch serves over one of its databases (`docs/contract.md` §25).
 *
 * @since 0.5.0
 */
export * as DataApi from "./DataApi.js"
/**
 * BranchAuth: a branch's auth service, its trusted domains and OAuth providers (`docs/contract.md` §26).
 *
 * @since 0.5.0
 */
export * as BranchAuth from "./BranchAuth.js"
/**
 * Jwks: the JSON Web Key Sets of a project's own identity provider (`docs/contract.md` §27).
 *
 * @since 0.5.0
 */
export * as Jwks from "./Jwks.js"
/**
 * Credentials: a branch's scoped service credentials, their secrets shown once (`docs/contract.md` §11.7).
 *
 * @since 0.5.0
 */
export * as Credentials from "./Credentials.js"
/**
 * Functions (beta) of a branch: `list` (a `Stream`), `listPage`, `get`, `update`, `delete`, and
 * `createDeployment` (`multipart/form-data`: the code's ZIP, the runtime, `Redacted` environment
 * values) (`docs/contract.md` §29).
 *
 * @since 0.6.0
 */
export * as Functions from "./Functions.js"
/**
 * Buckets: a branch's object storage (buckets, objects, presigned URLs), which branches with its
 * data (`docs/contract.md` §28).
 *
 * @since 0.6.0
 */
export * as Buckets from "./Buckets.js"
/**
 * Storage: whether a branch's object storage is usable, and its S3 endpoint (`docs/contract.md`
 * §28.4).
 *
 * @since 0.6.0
 */
export * as Storage from "./Storage.js"
/**
 * AiGateway: a branch's AI gateway endpoint (`docs/contract.md` §28.5).
 *
 * @since 0.6.0
 */
export * as AiGateway from "./AiGateway.js"

/**
 * Services derived from core's endpoint groups: `Method<E>`, one endpoint's method,
 * `ListMethod<E>`, a list's `Stream`, and `methods(client, Api.Branches)`, a group's methods
 * (`docs/design.md` §1.2).
 *
 * @since 0.3.0
 */
export * as Resource from "./Resource.js"
/**
 * Roles of a branch: `list` (a `Stream`), `listPage`, `create`, `get`, `delete`,
 * `revealPassword`, `resetPassword` (passwords `Redacted`) (§15.2).
 *
 * @since 0.3.0
 */
export * as Roles from "./Roles.js"

/**
 * Snapshots of a branch: `create`, `list` (a `Stream`), `listPage`, `update`, `delete`,
 * `restore` to a new branch, `finalizeRestore`, and a branch's backup schedule
 * (`getBackupSchedule`, `setBackupSchedule`) (§19).
 *
 * @since 0.5.0
 */
export * as Snapshots from "./Snapshots.js"
