/**
 * Branches: list (every branch as a `Stream`, or one page), count, create (with compute
 * endpoints), read, update, delete, restore, make the default, the compute endpoints of a
 * branch, recover a deleted one (`recover`, §18.3), and anonymized branches (`createAnonymized`,
 * `getMaskingRules`, `updateMaskingRules`, `startAnonymization`, `getAnonymizedStatus`, §18.4)
 * (`docs/contract.md` §11). Each method is core's `Api.Branches` entry: its input, answer
 * and exact errors come from there (`docs/design.md` §1.3). Beyond one request, `createReady`: a
 * branch with a `read_write` compute endpoint, answered once its operations have finished, with
 * its connection string (§13.3).
 *
 * @since 0.3.0
 */
import * as Api from "@dbplatform/core/Api"
import {
  type Branch,
  type ComputeEndpoint,
  type Endpoint,
  type InvalidRequest,
  type Operation,
  type OperationFailed,
  type OperationStillPending,
  type ProjectId
} from "@dbplatform/core"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Redacted from "effect/Redacted"
import { DbPlatformClient, type ExecuteError } from "./DbPlatformClient.js"
import { createReady } from "./internal/createReady.js"
import { finished } from "./internal/wait.js"
import * as Operations from "./Operations.js"
import * as Resource from "./Resource.js"

/**
 * The largest `limit` of `GET /projects/{project_id}/branches`: 10 000 (from core's
 * `Api.branchesPageLimits`, `docs/contract.md` §11.4).
 *
 * @since 0.3.0
 */
export const maxPageSize = Api.branchesPageLimits.max

/**
 * What `createReady` creates (§13.3).
 *
 * @since 0.3.0
 */
export interface CreateReadyInput {
  /** The project. */
  readonly project_id: ProjectId
  /**
   * The branch: `name` (1 to 256 characters), `parent_id` (the project's default branch when
   * absent), `protected`. Name it: a name is what makes a creation safe to send again (a second
   * one with the same name is a 409, never a second branch; see `onConflict`); without one the
   * platform makes one up, and every creation is a new branch. Since 0.5.0 it takes the
   * lifecycle fields of a creation too (§18): `expires_at` (a `DateTime`, to the second: a
   * preview branch the platform deletes once that time has passed, with no clean-up job),
   * `init_source`, `parent_timestamp` or `parent_lsn`.
   */
  readonly branch?: Endpoint.Input<typeof Api.Branches.create>["branch"]
  /**
   * Its `read_write` compute endpoint's settings: `autoscaling_limit_min_cu` and
   * `autoscaling_limit_max_cu` (compute units, 0.25 and up), `suspend_timeout_seconds` (`0` the
   * platform's default, `-1` never).
   */
  readonly endpoint?:
    | {
        readonly autoscaling_limit_min_cu?: number | undefined
        readonly autoscaling_limit_max_cu?: number | undefined
        readonly suspend_timeout_seconds?: number | undefined
      }
    | undefined
  /**
   * The connection string's database and role (by default the first the creation answers: the
   * branch's first database, as its owner, copied from the parent), and `pooled: true` for the
   * connection pooler's host. The creation's own answer is used when it has that connection (no
   * request); otherwise one `GET /projects/{p}/connection_uri`.
   */
  readonly connection?:
    | {
        readonly database_name?: string | undefined
        readonly role_name?: string | undefined
        readonly pooled?: boolean | undefined
      }
    | undefined
  /**
   * What a 409 on the name does: `"fail"` (the default) fails with `Conflict`; `"reuse"` takes
   * the branch of that name when it is the one asked for (the same `parent_id`, when given) and
   * has a `read_write` compute endpoint, waits for its operations still pending and reads its last
   * `create_branch` and `start_compute` again (one that failed fails the call with
   * `OperationFailed`, as it did the first time), and answers it with `created: false`, its compute
   * endpoint as it is (`idle` when the control plane suspended it: a connection starts it again):
   * "create or reuse", safe to run again. Reuse goes by the name: a branch renamed since is not
   * found, and a new one is created. `"reuse"` needs `branch.name`,
   * `connection.database_name` and `connection.role_name` (a reused branch has no creation answer
   * to name them from); without them, `InvalidRequest` and nothing is sent.
   */
  readonly onConflict?: "fail" | "reuse" | undefined
}

/**
 * What `createReady` answers: the branch and its `read_write` compute endpoint as they are once
 * the operations have finished (`ready`, `active`), the connection string (`Redacted`: shown by no
 * log, error or `JSON.stringify`; `Redacted.value` reads it for a Postgres driver), the operations
 * waited for as they ended, and whether this call created the branch (`false`: reused after a 409).
 *
 * @since 0.3.0
 */
export interface ReadyBranch {
  readonly branch: Branch
  readonly endpoint: ComputeEndpoint
  readonly connectionUri: Redacted.Redacted<string>
  readonly operations: ReadonlyArray<Operation>
  readonly created: boolean
}

/**
 * What `createReady` can fail with: the errors of each request it sends (the creation, the
 * wait's reads, the branch and its compute endpoints read again, the connection URI; with
 * `onConflict: "reuse"`, the branch list), `OperationFailed` when an operation ended badly and
 * `OperationStillPending` when the wait's timeout passed first (each carrying that operation,
 * whose `branch_id` names the branch, which is left in place), and `InvalidRequest` when no
 * connection can be named (the branch has no database) or `reuse` comes without the names it
 * needs (then nothing is sent).
 *
 * @since 0.3.0
 */
export type CreateReadyError =
  | ExecuteError<typeof Api.Branches.create>
  | ExecuteError<typeof Api.Branches.list>
  | ExecuteError<typeof Api.Branches.get>
  | ExecuteError<typeof Api.Branches.listEndpoints>
  | ExecuteError<typeof Api.Connections.uri>
  | Operations.ReadError
  | OperationFailed
  | OperationStillPending
  | InvalidRequest

/**
 * The `Branches` service: one method per entry of core's `Api.Branches` group, each called with
 * one input object whose keys are the wire's path, query and body names, answering the wire's
 * shape, and failing with exactly the errors its entry declares (`docs/design.md` §1.3). `list`
 * is a `Stream` of every branch, page by page along `pagination.next` (one page in memory; a
 * cursor sent twice or a page longer than `pageSize` fails it with `MalformedResponse`), and
 * `listPage` one request; `listEndpoints` streams a branch's compute endpoints, and
 * `listEndpointsPage` answers them as `{ endpoints }`. A method that starts operations takes
 * `{ wait: true }` (or how to wait) to answer only once they have finished, with the operations as
 * they ended and the branch read again (`ready`; `Resource.MutationOptions`); by default it
 * answers at once.
 *
 * @since 0.3.0
 */
export interface Service extends Resource.Methods<typeof Api.Branches, Operations.ReadError> {
  /**
   * The preview-branch workflow as one call (§13.3): creates a branch with a `read_write` compute
   * endpoint, waits for its operations (`create_branch`, `start_compute`) with
   * `Operations.awaitAll` (one list request a round for both; `options.schedule` every 5 s and
   * `options.timeout` 10 minutes by default, as `awaitAll`), and answers once they have finished:
   * the branch (`ready`), the compute endpoint (`active`) and the connection string (`Redacted`).
   * See {@link CreateReadyInput} for a creation that is safe to send again ("create or reuse").
   */
  readonly createReady: (
    input: CreateReadyInput,
    options?: Operations.WaitOptions
  ) => Effect.Effect<ReadyBranch, CreateReadyError>
}

/**
 * The tag of the {@link Service}; `yield* Branches.Branches` in a program, provided by
 * {@link layer} or `DbPlatform.layer`.
 *
 * @since 0.3.0
 * @category tags
 */
export class Branches extends Context.Tag("@dbplatform/client/Branches")<Branches, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` and `Operations` in context.
 *
 * @since 0.3.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient | Operations.Operations> = Effect.gen(function* () {
  const client = yield* DbPlatformClient
  const operations = yield* Operations.Operations
  return Branches.of({
    ...Resource.methods(client, Api.Branches, finished(operations)),
    createReady: createReady(client, operations)
  })
})

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` and `Operations` (`DbPlatform.layer`
 * provides all three).
 *
 * @since 0.3.0
 * @category layers
 */
export const layer: Layer.Layer<Branches, never, DbPlatformClient | Operations.Operations> = Layer.effect(
  Branches,
  make
)
