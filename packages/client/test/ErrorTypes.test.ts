/**
 * Each method's error channel names exactly what it can fail with, and its answer is the wire's
 * shape. These assertions are checked by the type checker (`pnpm check`); the test run only
 * confirms the file loads.
 */
import type {
  ApiKey,
  ApiKeyCreated,
  ApiKeyRevoked,
  BadRequest,
  Branch,
  BranchCreated,
  BranchEnvelope,
  BranchId,
  BranchesCount,
  BranchesPage,
  BranchOperations,
  ComputeEndpoint,
  ComputeEndpointEnvelope,
  ComputeEndpointOperations,
  ComputeEndpoints as ComputeEndpointList,
  Conflict,
  ConnectionUri,
  Database,
  DatabaseEnvelope,
  DatabaseList,
  DatabaseOperations,
  Forbidden,
  InvalidRequest,
  Locked,
  MalformedResponse,
  NotFound,
  Operation,
  OperationEnvelope,
  OperationFailed,
  OperationsPage,
  OperationStillPending,
  Project,
  ProjectCreated,
  ProjectDeleted,
  ProjectEnvelope,
  ProjectId,
  ProjectOperations,
  ProjectsPage,
  RateLimited,
  Role,
  RoleEnvelope,
  RoleList,
  RoleOperations,
  RolePassword,
  ServerError,
  ServiceUnavailable,
  TransportError,
  Unauthorized,
  UnexpectedStatus
} from "@dbplatform/core"
import { describe, expectTypeOf, it } from "@effect/vitest"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type * as Stream from "effect/Stream"
import type {
  ApiKeys,
  Branches,
  ComputeEndpoints,
  Connections,
  Databases,
  DbPlatformClient,
  Operations,
  Projects,
  Resource,
  Roles
} from "../src/index.js"

type Fails<F extends (...args: never) => unknown> =
  ReturnType<F> extends Effect.Effect<infer _A, infer E, infer _R>
    ? E
    : ReturnType<F> extends Stream.Stream<infer _A, infer E, infer _R>
      ? E
      : never
type Succeeds<F extends (...args: never) => unknown> =
  ReturnType<F> extends Effect.Effect<infer A, infer _E, infer _R>
    ? A
    : ReturnType<F> extends Stream.Stream<infer A, infer _E, infer _R>
      ? A
      : never
/** Whether a method answers a `Stream` (a list) rather than one `Effect` (one request); an `Effect` is also a `Stream`. */
type IsStream<F extends (...args: never) => unknown> =
  ReturnType<F> extends Effect.Effect<any, any, any>
    ? false
    : ReturnType<F> extends Stream.Stream<any, any, any>
      ? true
      : false

type Call =
  | Unauthorized
  | NotFound
  | RateLimited
  | ServerError
  | ServiceUnavailable
  | UnexpectedStatus
  | MalformedResponse
  | TransportError
type Read = Call | NotFound | Forbidden | BadRequest | InvalidRequest
type Change = Call | InvalidRequest | BadRequest | NotFound | Forbidden | Locked
/**
 * What `{ wait: true }` adds to a mutation's errors: an operation's outcome, and the reads of the
 * wait. `Fails<M>` of a mutation `M` (a generic method: `ReturnType` takes its options at their
 * constraint, `MutationOptions`, which may ask to wait) holds it; a call without `wait` does not
 * (see "{ wait: true } adds what waiting fails with").
 */
type Waiting = OperationFailed | OperationStillPending | Read

describe("error channels", () => {
  it("every call: 401, 404 (from any endpoint), 429, 5xx, an unexpected status, a malformed body, no response", () => {
    expectTypeOf<DbPlatformClient.CallError>().toEqualTypeOf<Call>()
  })

  it("ApiKeys", () => {
    expectTypeOf<Fails<ApiKeys.Service["create"]>>().toEqualTypeOf<InvalidRequest | BadRequest | Locked | Call>()
    expectTypeOf<Succeeds<ApiKeys.Service["create"]>>().toEqualTypeOf<ApiKeyCreated>()
    expectTypeOf<Fails<ApiKeys.Service["list"]>>().toEqualTypeOf<InvalidRequest | Call>()
    expectTypeOf<Succeeds<ApiKeys.Service["list"]>>().toEqualTypeOf<ApiKey>()
    expectTypeOf<Fails<ApiKeys.Service["listPage"]>>().toEqualTypeOf<InvalidRequest | Call>()
    expectTypeOf<Succeeds<ApiKeys.Service["listPage"]>>().toEqualTypeOf<ReadonlyArray<ApiKey>>()
    expectTypeOf<Fails<ApiKeys.Service["revoke"]>>().toEqualTypeOf<
      InvalidRequest | NotFound | BadRequest | Locked | Call
    >()
    expectTypeOf<Succeeds<ApiKeys.Service["revoke"]>>().toEqualTypeOf<ApiKeyRevoked>()
  })

  it("Projects", () => {
    expectTypeOf<Fails<Projects.Service["listPage"]>>().toEqualTypeOf<InvalidRequest | BadRequest | Call>()
    expectTypeOf<Succeeds<Projects.Service["listPage"]>>().toEqualTypeOf<ProjectsPage>()
    expectTypeOf<Fails<Projects.Service["list"]>>().toEqualTypeOf<InvalidRequest | BadRequest | Call>()
    expectTypeOf<Succeeds<Projects.Service["list"]>>().toEqualTypeOf<Project>()
    expectTypeOf<Fails<Projects.Service["listSharedPage"]>>().toEqualTypeOf<InvalidRequest | BadRequest | Call>()
    expectTypeOf<Succeeds<Projects.Service["listSharedPage"]>>().toEqualTypeOf<ProjectsPage>()
    expectTypeOf<Fails<Projects.Service["listShared"]>>().toEqualTypeOf<InvalidRequest | BadRequest | Call>()
    expectTypeOf<Succeeds<Projects.Service["listShared"]>>().toEqualTypeOf<Project>()
    expectTypeOf<Fails<Projects.Service["create"]>>().toEqualTypeOf<InvalidRequest | BadRequest | Call | Waiting>()
    expectTypeOf<Succeeds<Projects.Service["create"]>>().toEqualTypeOf<ProjectCreated>()
    expectTypeOf<Fails<Projects.Service["get"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Projects.Service["get"]>>().toEqualTypeOf<ProjectEnvelope>()
    expectTypeOf<Fails<Projects.Service["update"]>>().toEqualTypeOf<Change | Waiting>()
    expectTypeOf<Succeeds<Projects.Service["update"]>>().toEqualTypeOf<ProjectOperations>()
    expectTypeOf<Fails<Projects.Service["delete"]>>().toEqualTypeOf<Change>()
    expectTypeOf<Succeeds<Projects.Service["delete"]>>().toEqualTypeOf<ProjectDeleted>()
  })

  it("Operations", () => {
    expectTypeOf<Operations.ReadError>().toEqualTypeOf<Read>()
    expectTypeOf<Fails<Operations.Service["listPage"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Operations.Service["listPage"]>>().toEqualTypeOf<OperationsPage>()
    expectTypeOf<Fails<Operations.Service["list"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Operations.Service["list"]>>().toEqualTypeOf<Operation>()
    expectTypeOf<Fails<Operations.Service["get"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Operations.Service["get"]>>().toEqualTypeOf<OperationEnvelope>()
    expectTypeOf<Fails<Operations.Service["states"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Operations.Service["states"]>>().toEqualTypeOf<Operation>()
    expectTypeOf<Fails<Operations.Service["await"]>>().toEqualTypeOf<OperationFailed | OperationStillPending | Read>()
    expectTypeOf<Succeeds<Operations.Service["await"]>>().toEqualTypeOf<Operation>()
    expectTypeOf<Fails<Operations.Service["awaitAll"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Operations.Service["awaitAll"]>>().toEqualTypeOf<Operations.AwaitAllResult>()
    expectTypeOf<Fails<Operations.Service["watch"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Operations.Service["watch"]>>().toEqualTypeOf<Operation>()
    // `poll` is gone (use `states`).
    expectTypeOf<Operations.Service>().not.toHaveProperty("poll")
  })

  it("Branches: each method's errors are its group entry's (docs/contract.md §11.4)", () => {
    expectTypeOf<Fails<Branches.Service["listPage"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Branches.Service["listPage"]>>().toEqualTypeOf<BranchesPage>()
    expectTypeOf<Fails<Branches.Service["list"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Branches.Service["list"]>>().toEqualTypeOf<Branch>()
    expectTypeOf<Fails<Branches.Service["count"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Branches.Service["count"]>>().toEqualTypeOf<BranchesCount>()
    expectTypeOf<Fails<Branches.Service["create"]>>().toEqualTypeOf<Change | Conflict | Waiting>()
    expectTypeOf<Succeeds<Branches.Service["create"]>>().toEqualTypeOf<BranchCreated>()
    expectTypeOf<Fails<Branches.Service["get"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Branches.Service["get"]>>().toEqualTypeOf<BranchEnvelope>()
    expectTypeOf<Fails<Branches.Service["update"]>>().toEqualTypeOf<Change | Conflict | Waiting>()
    expectTypeOf<Succeeds<Branches.Service["update"]>>().toEqualTypeOf<BranchOperations>()
    expectTypeOf<Fails<Branches.Service["delete"]>>().toEqualTypeOf<Change | Waiting>()
    expectTypeOf<Succeeds<Branches.Service["delete"]>>().toEqualTypeOf<Option.Option<BranchOperations>>()
    expectTypeOf<Fails<Branches.Service["restore"]>>().toEqualTypeOf<Change | Conflict | Waiting>()
    expectTypeOf<Succeeds<Branches.Service["restore"]>>().toEqualTypeOf<BranchOperations>()
    expectTypeOf<Fails<Branches.Service["setAsDefault"]>>().toEqualTypeOf<Change | Waiting>()
    expectTypeOf<Succeeds<Branches.Service["setAsDefault"]>>().toEqualTypeOf<BranchOperations>()
    expectTypeOf<Fails<Branches.Service["listEndpoints"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Branches.Service["listEndpoints"]>>().toEqualTypeOf<ComputeEndpoint>()
    expectTypeOf<Fails<Branches.Service["listEndpointsPage"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Branches.Service["listEndpointsPage"]>>().toEqualTypeOf<ComputeEndpointList>()
  })

  it("Branches.createReady: the errors of the requests it sends, and of an operation that ended badly or in time (§13.3)", () => {
    expectTypeOf<Fails<Branches.Service["createReady"]>>().toEqualTypeOf<
      Read | Conflict | Locked | OperationFailed | OperationStillPending
    >()
    expectTypeOf<Succeeds<Branches.Service["createReady"]>>().toEqualTypeOf<Branches.ReadyBranch>()
  })

  it("ComputeEndpoints (§12)", () => {
    expectTypeOf<Fails<ComputeEndpoints.Service["list"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<ComputeEndpoints.Service["list"]>>().toEqualTypeOf<ComputeEndpoint>()
    expectTypeOf<Succeeds<ComputeEndpoints.Service["listPage"]>>().toEqualTypeOf<ComputeEndpointList>()
    expectTypeOf<Fails<ComputeEndpoints.Service["create"]>>().toEqualTypeOf<Change | Conflict | Waiting>()
    expectTypeOf<Succeeds<ComputeEndpoints.Service["create"]>>().toEqualTypeOf<ComputeEndpointOperations>()
    expectTypeOf<Fails<ComputeEndpoints.Service["get"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<ComputeEndpoints.Service["get"]>>().toEqualTypeOf<ComputeEndpointEnvelope>()
    expectTypeOf<Fails<ComputeEndpoints.Service["update"]>>().toEqualTypeOf<Change | Waiting>()
    expectTypeOf<Fails<ComputeEndpoints.Service["start"]>>().toEqualTypeOf<Change | Waiting>()
    expectTypeOf<Fails<ComputeEndpoints.Service["suspend"]>>().toEqualTypeOf<Change | Waiting>()
    expectTypeOf<Fails<ComputeEndpoints.Service["restart"]>>().toEqualTypeOf<Change | Waiting>()
    expectTypeOf<Succeeds<ComputeEndpoints.Service["restart"]>>().toEqualTypeOf<ComputeEndpointOperations>()
    expectTypeOf<Fails<ComputeEndpoints.Service["delete"]>>().toEqualTypeOf<Change | Waiting>()
    expectTypeOf<Succeeds<ComputeEndpoints.Service["delete"]>>().toEqualTypeOf<
      Option.Option<ComputeEndpointOperations>
    >()
  })

  it("Databases and Roles (§15)", () => {
    expectTypeOf<Fails<Databases.Service["list"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Databases.Service["list"]>>().toEqualTypeOf<Database>()
    expectTypeOf<Succeeds<Databases.Service["listPage"]>>().toEqualTypeOf<DatabaseList>()
    expectTypeOf<Fails<Databases.Service["create"]>>().toEqualTypeOf<Change | Conflict | Waiting>()
    expectTypeOf<Succeeds<Databases.Service["get"]>>().toEqualTypeOf<DatabaseEnvelope>()
    expectTypeOf<Fails<Databases.Service["update"]>>().toEqualTypeOf<Change | Conflict | Waiting>()
    expectTypeOf<Succeeds<Databases.Service["update"]>>().toEqualTypeOf<DatabaseOperations>()
    expectTypeOf<Fails<Databases.Service["delete"]>>().toEqualTypeOf<Change | Waiting>()
    expectTypeOf<Succeeds<Databases.Service["delete"]>>().toEqualTypeOf<Option.Option<DatabaseOperations>>()

    expectTypeOf<Fails<Roles.Service["list"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Roles.Service["list"]>>().toEqualTypeOf<Role>()
    expectTypeOf<Succeeds<Roles.Service["listPage"]>>().toEqualTypeOf<RoleList>()
    expectTypeOf<Fails<Roles.Service["create"]>>().toEqualTypeOf<Change | Conflict | Waiting>()
    expectTypeOf<Succeeds<Roles.Service["create"]>>().toEqualTypeOf<RoleOperations>()
    expectTypeOf<Succeeds<Roles.Service["get"]>>().toEqualTypeOf<RoleEnvelope>()
    expectTypeOf<Fails<Roles.Service["delete"]>>().toEqualTypeOf<Change | Waiting>()
    expectTypeOf<Succeeds<Roles.Service["delete"]>>().toEqualTypeOf<Option.Option<RoleOperations>>()
    expectTypeOf<Fails<Roles.Service["revealPassword"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Roles.Service["revealPassword"]>>().toEqualTypeOf<RolePassword>()
    expectTypeOf<Fails<Roles.Service["resetPassword"]>>().toEqualTypeOf<Change | Waiting>()
  })

  it("Connections.uri: a read of the project (§13.1)", () => {
    expectTypeOf<Fails<Connections.Service["uri"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Connections.Service["uri"]>>().toEqualTypeOf<ConnectionUri>()
  })

  it("{ wait: true } adds what waiting fails with; without it, nothing", () => {
    // Never called: what the calls' types are is all that is checked.
    const calls = (
      branches: Branches.Service,
      roles: Roles.Service,
      project_id: ProjectId,
      branch_id: BranchId,
      options: Resource.MutationOptions,
      flag: boolean
    ) => {
      const input = { project_id, branch: { name: "preview/pr-1" } }
      expectTypeOf(branches.create(input)).toEqualTypeOf<Effect.Effect<BranchCreated, Change | Conflict>>()
      expectTypeOf(branches.create(input, { wait: false })).toEqualTypeOf<
        Effect.Effect<BranchCreated, Change | Conflict>
      >()
      expectTypeOf(branches.create(input, { wait: true })).toEqualTypeOf<
        Effect.Effect<BranchCreated, Change | Conflict | Waiting>
      >()
      expectTypeOf(branches.create(input, { wait: { timeout: "1 minute" } })).toEqualTypeOf<
        Effect.Effect<BranchCreated, Change | Conflict | Waiting>
      >()
      expectTypeOf(roles.delete({ project_id, branch_id, role_name: "app" }, { wait: true })).toEqualTypeOf<
        Effect.Effect<Option.Option<RoleOperations>, Change | Waiting>
      >()
      // A read takes no options: only a method that starts operations can be asked to wait.
      // @ts-expect-error
      branches.get({ project_id, branch_id }, { wait: true })
      // Options that may ask to wait (typed `MutationOptions`, or a `boolean` wait) name what waiting fails with.
      expectTypeOf(branches.create(input, options)).toEqualTypeOf<
        Effect.Effect<BranchCreated, Change | Conflict | Waiting>
      >()
      expectTypeOf(branches.create(input, { wait: flag })).toEqualTypeOf<
        Effect.Effect<BranchCreated, Change | Conflict | Waiting>
      >()
    }
    expectTypeOf(calls).toBeFunction()
  })

  it("the answers of mutations go straight into awaitAll, whole", () => {
    type Awaitable = Parameters<Operations.Service["awaitAll"]>[0]
    expectTypeOf<BranchCreated>().toExtend<Awaitable>()
    expectTypeOf<BranchOperations>().toExtend<Awaitable>()
    expectTypeOf<Option.Option<BranchOperations>>().toExtend<Awaitable>()
    expectTypeOf<Option.Option<RoleOperations>>().toExtend<Awaitable>()
    expectTypeOf<ProjectCreated>().toExtend<Awaitable>()
    expectTypeOf<BranchCreated["operations"]>().toExtend<Awaitable>()
  })

  it("list is a Stream on every service, <key>Page one request", () => {
    expectTypeOf<IsStream<ApiKeys.Service["list"]>>().toEqualTypeOf<true>()
    expectTypeOf<IsStream<ApiKeys.Service["listPage"]>>().toEqualTypeOf<false>()
    expectTypeOf<IsStream<Projects.Service["list"]>>().toEqualTypeOf<true>()
    expectTypeOf<IsStream<Projects.Service["listShared"]>>().toEqualTypeOf<true>()
    expectTypeOf<IsStream<Projects.Service["listPage"]>>().toEqualTypeOf<false>()
    expectTypeOf<IsStream<Projects.Service["listSharedPage"]>>().toEqualTypeOf<false>()
    expectTypeOf<IsStream<Operations.Service["list"]>>().toEqualTypeOf<true>()
    expectTypeOf<IsStream<Operations.Service["listPage"]>>().toEqualTypeOf<false>()
    expectTypeOf<IsStream<Branches.Service["list"]>>().toEqualTypeOf<true>()
    expectTypeOf<IsStream<Branches.Service["listPage"]>>().toEqualTypeOf<false>()
    expectTypeOf<IsStream<Branches.Service["listEndpoints"]>>().toEqualTypeOf<true>()
    expectTypeOf<IsStream<Branches.Service["listEndpointsPage"]>>().toEqualTypeOf<false>()
    expectTypeOf<IsStream<ComputeEndpoints.Service["list"]>>().toEqualTypeOf<true>()
    expectTypeOf<IsStream<ComputeEndpoints.Service["listPage"]>>().toEqualTypeOf<false>()
    expectTypeOf<IsStream<Databases.Service["list"]>>().toEqualTypeOf<true>()
    expectTypeOf<IsStream<Databases.Service["listPage"]>>().toEqualTypeOf<false>()
    expectTypeOf<IsStream<Roles.Service["list"]>>().toEqualTypeOf<true>()
    expectTypeOf<IsStream<Roles.Service["listPage"]>>().toEqualTypeOf<false>()
  })

  it("a method's error channel does not include errors of other endpoints", () => {
    expectTypeOf<Locked>().not.toExtend<Fails<ApiKeys.Service["list"]>>()
    expectTypeOf<Fails<ApiKeys.Service["list"]>>().not.toEqualTypeOf<Read>()
    expectTypeOf<Conflict>().not.toExtend<Fails<Projects.Service["listPage"]>>()
    expectTypeOf<Locked>().not.toExtend<Fails<Operations.Service["get"]>>()
    expectTypeOf<Conflict>().not.toExtend<Fails<Roles.Service["resetPassword"]>>()
    // Only a method that starts operations can be asked to wait: a read never fails as a wait does.
    expectTypeOf<OperationFailed>().not.toExtend<Fails<Branches.Service["get"]>>()
    expectTypeOf<OperationFailed>().not.toExtend<Fails<Operations.Service["listPage"]>>()
    expectTypeOf<OperationFailed>().not.toExtend<Fails<Projects.Service["delete"]>>()
  })

  it("a 404 is NotFound on every method, whether its endpoint declares 404 or not (docs/design.md §1.6)", () => {
    expectTypeOf<NotFound>().toExtend<Fails<ApiKeys.Service["list"]>>()
    expectTypeOf<NotFound>().toExtend<Fails<ApiKeys.Service["create"]>>()
    expectTypeOf<NotFound>().toExtend<Fails<Projects.Service["listPage"]>>()
    expectTypeOf<NotFound>().toExtend<Fails<Projects.Service["list"]>>()
    expectTypeOf<NotFound>().toExtend<Fails<DbPlatformClient.Service["execute"]>>()
  })
})
