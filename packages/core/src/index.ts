/**
 * `@dbplatform/core`: the control API v2 wire contract as `effect/Schema`, branded ids and
 * tagged errors. Depends on `effect` only.
 *
 * @since 0.1.0
 */

/**
 * Typed errors: one per status class a server answers with (`BadRequest`, `Unauthorized`,
 * `NotFound`, `RateLimited`, ...), plus `MalformedResponse`, `TransportError`,
 * `InvalidRequest`, `InvalidApiKey` and `InvalidBaseUrl`; `fromResponse` to choose one, and `isDbPlatformError`
 * to recognise any error of the SDK (§5, §7, §10.2).
 *
 * @since 0.1.0
 */
export * from "./ApiError.js"

/**
 * A body read whole up to a limit (`text`, `bytes`), as the client reads a response and the fake
 * a request: past the limit a typed `TooLarge`, bytes that are not UTF-8 a `NotUtf8` or U+FFFD.
 *
 * @since 0.3.0
 */
export * as Body from "./Body.js"

/**
 * What is wrong with a value that did not decode, as one short line (`format`), quoting values
 * only as short excerpts (`excerpt`) or not at all.
 *
 * @since 0.2.0
 */
export * as DecodeIssue from "./DecodeIssue.js"

/**
 * Why a program failed, in one line without secrets (`fromError`, `fromCause`): what the
 * command-line programs of the project print before they exit 1.
 *
 * @since 0.2.0
 */
export * as ErrorLine from "./ErrorLine.js"

/**
 * The control API's endpoints, by resource: `Api.Roles`, `Api.Branches`... (one group each,
 * its entries by client method name: `Api.Roles.create`), `Api.groups` and `Api.endpoints`
 * (§4, `docs/design.md` §1).
 *
 * @since 0.4.0
 */
export * as Api from "./Api.js"

/**
 * What an endpoint is (method, route template, schemas of its path parameters, query, body and
 * answer, its success and error statuses, whether it starts operations, where a list's items
 * are), how a group declares endpoints (`Endpoint.group`, `Endpoint.make`), and how a request's
 * one input object is encoded (`Endpoint.encode`) (§4).
 *
 * @since 0.2.0
 */
export * as Endpoint from "./Endpoint.js"

/**
 * API keys: the `POST /api_keys` body and the shapes of the create, list and revoke answers
 * (§2.1–2.3, §4).
 *
 * @since 0.1.0
 */
export * from "./ApiKey.js"

/**
 * Branches: `Branch`, its open `BranchState`, the bodies of the branch endpoints
 * (`BranchCreateRequest`, `BranchUpdateRequest`, `BranchRestoreRequest`) and their answers
 * (`BranchEnvelope`, `BranchOperations`, `BranchCreated`, `BranchesPage`, `BranchesCount`) (§11).
 *
 * @since 0.3.0
 */
export * from "./Branch.js"

/**
 * Compute endpoints (the platform's "endpoints"): `ComputeEndpoint`, its open type and state
 * enums, the `{ endpoints }` answer `ComputeEndpoints`, the bodies `ComputeEndpointCreateRequest`
 * and `ComputeEndpointUpdateRequest` and the answers `ComputeEndpointEnvelope` and
 * `ComputeEndpointOperations` (§11.2, §12).
 *
 * @since 0.3.0
 */
export * from "./ComputeEndpoint.js"

/**
 * `ConnectionDetails`: a connection URI and its parts, the URI and the password `Redacted`
 * (§11.3); `ConnectionUri`, the answer of `GET /projects/{project_id}/connection_uri` (§13).
 *
 * @since 0.3.0
 */
export * from "./ConnectionDetails.js"

/**
 * Databases: `Database`, a Postgres database of a branch (§11.3), the bodies that create and
 * change one (`DatabaseCreateRequest`, `DatabaseUpdateRequest`) and the answers
 * (`DatabaseList`, `DatabaseEnvelope`, `DatabaseOperations`) (§15).
 *
 * @since 0.3.0
 */
export * from "./Database.js"

/**
 * `GeneralError`, the JSON body of every error response: `{ code, message, request_id? }`.
 *
 * @since 0.1.0
 */
export * from "./GeneralError.js"

/**
 * Branded identifiers: `ApiKeyId` (integer), `ProjectId` (`^[a-z0-9-]{1,60}$`),
 * `OperationId` (UUID), `BranchId`, `EndpointId` (§2).
 *
 * @since 0.1.0
 */
export * from "./Ids.js"

/**
 * Operations: `Operation`, its open `OperationStatus` and `OperationAction` enums, the list and
 * get envelopes, `isPending`/`isSucceeded`/`isFailed`/`isTerminal` and `OperationStillPending`
 * (§2.5, §3.2, §4, §6).
 *
 * @since 0.1.0
 */
export * from "./Operation.js"

/**
 * `Pagination`, `{ cursor }`, of list answers (§2.6), and `CursorPagination`, `{ next? }`, of
 * the branch list (§11.4).
 *
 * @since 0.1.0
 */
export * from "./Pagination.js"

/**
 * Projects: `Project`, the `GET /projects` answer `ProjectsPage` (§2.4, §4), and the bodies and
 * answers of the project endpoints: `ProjectCreateRequest`, `ProjectCreated`, `ProjectEnvelope`,
 * `ProjectUpdateRequest`, `ProjectOperations`, `ProjectDeleted` (§14), and the shared preload
 * libraries a project may enable, `AvailablePreloadLibraries` (§14.5).
 *
 * @since 0.1.0
 */
export * from "./Project.js"

/**
 * A project's settings: `ProjectSettings` as answered, `ProjectSettingsRequest` as a create or
 * update sends them (IP allow list, blocked connections, quotas, maintenance window...) (§22.2).
 *
 * @since 0.5.0
 */
export * from "./ProjectSettings.js"

/**
 * Roles: `Role`, a Postgres role of a branch, its password `Redacted` (§11.3), the body that
 * creates one (`RoleCreateRequest`) and the answers (`RoleList`, `RoleEnvelope`,
 * `RoleOperations`, `RolePassword`) (§15).
 *
 * @since 0.3.0
 */
export * from "./Role.js"

/**
 * `Timestamp`: an RFC 3339 UTC string on the wire, a `DateTime.Utc` in code (§2).
 *
 * @since 0.1.0
 */
export * from "./Timestamp.js"
