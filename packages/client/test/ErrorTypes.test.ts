/**
 * Each method's error channel names exactly what it can fail with. These assertions are checked
 * by the type checker (`pnpm check`); the test run only confirms the file loads.
 */
import type {
  ApiKey,
  ApiKeyCreated,
  ApiKeyRevoked,
  BadRequest,
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
import type * as Stream from "effect/Stream"
import type { ApiKeys, DbPlatformClient, Operations, Projects } from "../src/index.js"

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
  | RateLimited
  | ServerError
  | ServiceUnavailable
  | UnexpectedStatus
  | MalformedResponse
  | TransportError
type Read = Call | NotFound | Forbidden | BadRequest | InvalidRequest

describe("error channels", () => {
  it("every call: 401, 429, 5xx, an unexpected status, a malformed body, no response", () => {
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

  it("a method's error channel does not include errors of other endpoints", () => {
    expectTypeOf<InvalidRequest>().not.toExtend<Fails<ApiKeys.Service["list"]>>()
    expectTypeOf<Fails<ApiKeys.Service["list"]>>().not.toEqualTypeOf<Read>()
    expectTypeOf<NotFound>().not.toExtend<Fails<Projects.Service["page"]>>()
    expectTypeOf<Locked>().not.toExtend<Fails<Operations.Service["get"]>>()
  })
})
