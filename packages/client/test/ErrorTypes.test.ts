/**
 * Each method's error channel names exactly what it can fail with. These assertions are checked
 * by the type checker (`pnpm check`); the test run only confirms the file loads.
 */
import type {
  ApiKey,
  ApiKeyCreated,
  ApiKeyRevoked,
  BadRequest,
  Branch,
  BranchCreated,
  BranchEnvelope,
  BranchesCount,
  BranchesPage,
  BranchOperations,
  ComputeEndpoints,
  Conflict,
  ConnectionUri,
  Forbidden,
  InvalidRequest,
  Locked,
  MalformedResponse,
  NotFound,
  Operation,
  OperationFailed,
  OperationsPage,
  OperationStillPending,
  Project,
  ProjectsPage,
  RateLimited,
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
import type { ApiKeys, Branches, Connections, DbPlatformClient, Operations, Projects } from "../src/index.js"

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

describe("error channels", () => {
  it("every call: 401, 404 (from any endpoint), 429, 5xx, an unexpected status, a malformed body, no response", () => {
    expectTypeOf<DbPlatformClient.CallError>().toEqualTypeOf<Call>()
  })

  it("ApiKeys", () => {
    expectTypeOf<Fails<ApiKeys.Service["create"]>>().toEqualTypeOf<InvalidRequest | BadRequest | Locked | Call>()
    expectTypeOf<Succeeds<ApiKeys.Service["create"]>>().toEqualTypeOf<ApiKeyCreated>()
    expectTypeOf<Fails<ApiKeys.Service["list"]>>().toEqualTypeOf<Call>()
    expectTypeOf<Succeeds<ApiKeys.Service["list"]>>().toEqualTypeOf<ReadonlyArray<ApiKey>>()
    expectTypeOf<Fails<ApiKeys.Service["revoke"]>>().toEqualTypeOf<
      InvalidRequest | NotFound | BadRequest | Locked | Call
    >()
    expectTypeOf<Succeeds<ApiKeys.Service["revoke"]>>().toEqualTypeOf<ApiKeyRevoked>()
  })

  it("Projects", () => {
    expectTypeOf<Fails<Projects.Service["page"]>>().toEqualTypeOf<InvalidRequest | BadRequest | Call>()
    expectTypeOf<Succeeds<Projects.Service["page"]>>().toEqualTypeOf<ProjectsPage>()
    expectTypeOf<Fails<Projects.Service["list"]>>().toEqualTypeOf<InvalidRequest | BadRequest | Call>()
    expectTypeOf<Succeeds<Projects.Service["list"]>>().toEqualTypeOf<Project>()
  })

  it("Operations", () => {
    expectTypeOf<Operations.ReadError>().toEqualTypeOf<Read>()
    expectTypeOf<Fails<Operations.Service["page"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Operations.Service["page"]>>().toEqualTypeOf<OperationsPage>()
    expectTypeOf<Fails<Operations.Service["list"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Fails<Operations.Service["get"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Operations.Service["get"]>>().toEqualTypeOf<Operation>()
    expectTypeOf<Fails<Operations.Service["poll"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Fails<Operations.Service["await"]>>().toEqualTypeOf<OperationFailed | OperationStillPending | Read>()
    expectTypeOf<Succeeds<Operations.Service["await"]>>().toEqualTypeOf<Operation>()
    expectTypeOf<Fails<Operations.Service["awaitAll"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Operations.Service["awaitAll"]>>().toEqualTypeOf<Operations.AwaitAllResult>()
    expectTypeOf<Fails<Operations.Service["watch"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Operations.Service["watch"]>>().toEqualTypeOf<Operation>()
  })

  it("Branches: each method's errors are its table entry's (docs/contract.md §11.4)", () => {
    type Change = Call | InvalidRequest | BadRequest | NotFound | Forbidden | Locked
    expectTypeOf<Fails<Branches.Service["page"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Branches.Service["page"]>>().toEqualTypeOf<BranchesPage>()
    expectTypeOf<Fails<Branches.Service["list"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Branches.Service["list"]>>().toEqualTypeOf<Branch>()
    expectTypeOf<Fails<Branches.Service["count"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Branches.Service["count"]>>().toEqualTypeOf<BranchesCount>()
    expectTypeOf<Fails<Branches.Service["create"]>>().toEqualTypeOf<Change | Conflict>()
    expectTypeOf<Succeeds<Branches.Service["create"]>>().toEqualTypeOf<BranchCreated>()
    expectTypeOf<Fails<Branches.Service["get"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Branches.Service["get"]>>().toEqualTypeOf<BranchEnvelope>()
    expectTypeOf<Fails<Branches.Service["update"]>>().toEqualTypeOf<Change | Conflict>()
    expectTypeOf<Succeeds<Branches.Service["update"]>>().toEqualTypeOf<BranchOperations>()
    expectTypeOf<Fails<Branches.Service["delete"]>>().toEqualTypeOf<Change>()
    expectTypeOf<Succeeds<Branches.Service["delete"]>>().toEqualTypeOf<Option.Option<BranchOperations>>()
    expectTypeOf<Fails<Branches.Service["restore"]>>().toEqualTypeOf<Change | Conflict>()
    expectTypeOf<Succeeds<Branches.Service["restore"]>>().toEqualTypeOf<BranchOperations>()
    expectTypeOf<Fails<Branches.Service["setAsDefault"]>>().toEqualTypeOf<Change>()
    expectTypeOf<Succeeds<Branches.Service["setAsDefault"]>>().toEqualTypeOf<BranchOperations>()
    expectTypeOf<Fails<Branches.Service["listEndpoints"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Branches.Service["listEndpoints"]>>().toEqualTypeOf<ComputeEndpoints>()
  })

  it("Branches.createReady: the errors of the requests it sends, and of an operation that ended badly or in time (§13.3)", () => {
    expectTypeOf<Fails<Branches.Service["createReady"]>>().toEqualTypeOf<
      Read | Conflict | Locked | OperationFailed | OperationStillPending
    >()
    expectTypeOf<Succeeds<Branches.Service["createReady"]>>().toEqualTypeOf<Branches.ReadyBranch>()
  })

  it("Connections.uri: a read of the project (§13.1)", () => {
    expectTypeOf<Fails<Connections.Service["uri"]>>().toEqualTypeOf<Read>()
    expectTypeOf<Succeeds<Connections.Service["uri"]>>().toEqualTypeOf<ConnectionUri>()
  })

  it("the operations a branch answer carries go straight into awaitAll", () => {
    expectTypeOf<BranchCreated["operations"]>().toExtend<Parameters<Operations.Service["awaitAll"]>[0]>()
    expectTypeOf<BranchOperations["operations"]>().toExtend<Parameters<Operations.Service["awaitAll"]>[0]>()
  })

  it("a method's error channel does not include errors of other endpoints", () => {
    expectTypeOf<InvalidRequest>().not.toExtend<Fails<ApiKeys.Service["list"]>>()
    expectTypeOf<Fails<ApiKeys.Service["list"]>>().not.toEqualTypeOf<Read>()
    expectTypeOf<Conflict>().not.toExtend<Fails<Projects.Service["page"]>>()
    expectTypeOf<Locked>().not.toExtend<Fails<Operations.Service["get"]>>()
  })

  it("a 404 is NotFound on every method, whether its endpoint declares 404 or not (docs/design.md §1.6)", () => {
    expectTypeOf<NotFound>().toExtend<Fails<ApiKeys.Service["list"]>>()
    expectTypeOf<NotFound>().toExtend<Fails<ApiKeys.Service["create"]>>()
    expectTypeOf<NotFound>().toExtend<Fails<Projects.Service["page"]>>()
    expectTypeOf<NotFound>().toExtend<Fails<Projects.Service["list"]>>()
    expectTypeOf<NotFound>().toExtend<Fails<DbPlatformClient.Service["execute"]>>()
  })
})
