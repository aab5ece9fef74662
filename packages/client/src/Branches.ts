/**
 * Branches: list (a page, or every branch as a `Stream`), count, create (with compute endpoints), read,
 * update, delete, restore, make the default, and the compute endpoints of a branch
 * (`docs/contract.md` §11). Each method is core's table entry (`Endpoint.branches`): its input,
 * answer and exact errors come from there (`docs/design.md` §1.2). Beyond one request,
 * `createReady`: a branch with a `read_write` compute endpoint, answered once its operations
 * have finished, with its connection string (§13.3).
 *
 * @since 0.3.0
 */
import {
  type Branch,
  type BranchesPage,
  type BranchId,
  type ComputeEndpoint,
  Endpoint,
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
import type * as Stream from "effect/Stream"
import { DbPlatformClient, type ExecuteError } from "./DbPlatformClient.js"
import { createReady } from "./internal/createReady.js"
import { paginate } from "./internal/pagination.js"
import * as Operations from "./Operations.js"
import * as Resource from "./Resource.js"

/**
 * The largest `limit` of `GET /projects/{project_id}/branches`: 10 000 (from core's
 * `Endpoint.listBranches`, `docs/contract.md` §11.4).
 *
 * @since 0.3.0
 */
export const maxPageSize = Endpoint.branchesPageLimits.max

/**
 * What `list` walks: the project, and optionally which branches (`search`, part of a name or
 * id) in which order (`sort_by`: `name`, `created_at` or `updated_at`, the default;
 * `sort_order`: `asc` or `desc`, the default) (§11.4).
 *
 * @since 0.3.0
 */
export interface ListInput {
  readonly params: { readonly project_id: ProjectId }
  readonly query?:
    | Omit<NonNullable<Endpoint.Input<typeof Endpoint.listBranches>["query"]>, "cursor" | "limit">
    | undefined
}

/**
 * Options of `list`.
 *
 * @since 0.3.0
 */
export interface ListOptions {
  /** Branches fetched per request, 1 to 10 000; 100 by default. */
  readonly pageSize?: number | undefined
}

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
   * platform makes one up, and every creation is a new branch.
   */
  readonly branch?: NonNullable<Endpoint.Input<typeof Endpoint.createBranch>["body"]>["branch"]
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
  | ExecuteError<typeof Endpoint.createBranch>
  | ExecuteError<typeof Endpoint.listBranches>
  | ExecuteError<typeof Endpoint.getBranch>
  | ExecuteError<typeof Endpoint.listBranchEndpoints>
  | ExecuteError<typeof Endpoint.getConnectionUri>
  | Operations.ReadError
  | OperationFailed
  | OperationStillPending
  | InvalidRequest

/**
 * The `Branches` service (§11). Each method sends one request (but `list`, which walks pages)
 * and fails with exactly the errors of its endpoint: any call's (`CallError`), `InvalidRequest`
 * for input the table's schemas refuse (nothing is sent), and the statuses its entry declares.
 * Every answer about a branch is checked to be about the branch (and project) asked for;
 * another is a `MalformedResponse`. Mutations that the platform refuses with 423 Locked (a
 * conflicting operation is running) are retried by the client's retry policy (§11.6); wait for
 * the operations an answer carries (`Operations.awaitAll(created.operations)`) before the next
 * change.
 *
 * @since 0.3.0
 */
export interface Service {
  /** `GET /projects/{p}/branches`: one page (`query`: `search`, `sort_by`, `sort_order`, `cursor` from `pagination.next`, `limit` 1 to 10 000, all without it); a page longer than `limit` is `MalformedResponse`. */
  readonly page: Resource.Method<typeof Endpoint.listBranches>
  /** Every branch of the project, page by page along `pagination.next` (one page in memory); a cursor sent twice or a page longer than `pageSize` fails the stream with `MalformedResponse`. */
  readonly list: (
    input: ListInput,
    options?: ListOptions
  ) => Stream.Stream<Branch, ExecuteError<typeof Endpoint.listBranches>>
  /** `GET /projects/{p}/branches/count` (`query`: `search`): `{ count }`. */
  readonly count: Resource.Method<typeof Endpoint.countBranches>
  /** `POST /projects/{p}/branches` (201): the branch, its compute endpoints, roles, databases, connection URIs (`Redacted`) and `operations` (`create_branch`, `start_compute` per compute endpoint); 409 `Conflict` for a taken name (not retried), 404 for an unknown parent. */
  readonly create: Resource.Method<typeof Endpoint.createBranch>
  /** `GET /projects/{p}/branches/{b}`: `{ branch }`. */
  readonly get: Resource.Method<typeof Endpoint.getBranch>
  /** `PATCH /projects/{p}/branches/{b}` with `{ branch: { name?, protected? } }`: the branch as changed, and no operations; 409 `Conflict` for a taken name. */
  readonly update: Resource.Method<typeof Endpoint.updateBranch>
  /** `DELETE /projects/{p}/branches/{b}`: `Some({ branch, operations })` (`suspend_compute` per compute endpoint, `delete_timeline`), or `None` on a 204 (nothing left to delete); 400 for the default branch or one with children. */
  readonly delete: Resource.Method<typeof Endpoint.deleteBranch>
  /** `POST /projects/{p}/branches/{b}/restore` with `{ source_branch_id, source_timestamp?, preserve_under_name? }`: the branch and the operations started. */
  readonly restore: Resource.Method<typeof Endpoint.restoreBranch>
  /** `POST /projects/{p}/branches/{b}/set_as_default`: the branch, now the project's default, and no operations. */
  readonly setAsDefault: Resource.Method<typeof Endpoint.setDefaultBranch>
  /** `GET /projects/{p}/branches/{b}/endpoints`: `{ endpoints }`, the branch's compute endpoints. */
  readonly listEndpoints: Resource.Method<typeof Endpoint.listBranchEndpoints>
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

/** A branch path's parameters. */
interface BranchParams {
  readonly params: { readonly project_id: ProjectId; readonly branch_id: BranchId }
}

/** What is wrong with `branch` as the answer about the branch `params` names, if anything. */
const notAbout = ({ params }: BranchParams, branch: Branch | undefined): string | undefined =>
  branch === undefined || (branch.id === params.branch_id && branch.project_id === params.project_id)
    ? undefined
    : `the answer is about branch ${branch.id} of project ${branch.project_id}, not ${params.branch_id} of ${params.project_id}`

/** A page longer than the `limit` sent is refused. */
const longerThan = (limit: number | undefined, length: number): string | undefined =>
  limit !== undefined && length > limit ? `the page has ${length} branches, more than the limit of ${limit}` : undefined

/** The table entries the service's one-request methods are made of; `page` is the list endpoint. */
const { list: page, ...entries } = Endpoint.branches

/**
 * Builds the {@link Service} over the `DbPlatformClient` and the `Operations` in context (whose
 * waits `createReady` shares: one rate limit per client).
 *
 * @since 0.3.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient | Operations.Operations> = Effect.gen(function* () {
  const client = yield* DbPlatformClient
  const operations = yield* Operations.Operations
  const methods = Resource.methods(
    client,
    { page, ...entries },
    {
      page: (input, answer) => longerThan(input.query?.limit, answer.branches.length),
      create: (input, answer) =>
        answer.branch.project_id === input.params.project_id
          ? undefined
          : `the answer is about a branch of project ${answer.branch.project_id}, not ${input.params.project_id}`,
      get: (input, answer) => notAbout(input, answer.branch),
      update: (input, answer) => notAbout(input, answer.branch),
      delete: (input, answer) => notAbout(input, answer._tag === "Some" ? answer.value.branch : undefined),
      restore: (input, answer) => notAbout(input, answer.branch),
      setAsDefault: (input, answer) => notAbout(input, answer.branch),
      listEndpoints: (input, answer) =>
        answer.endpoints
          .filter((endpoint) => endpoint.branch_id !== input.params.branch_id)
          .map(
            (endpoint) =>
              `the compute endpoint ${endpoint.id} is of branch ${endpoint.branch_id}, not ${input.params.branch_id}`
          )
          .at(0)
    }
  )
  return Branches.of({
    ...methods,
    createReady: createReady(client, operations),
    list: ({ params, query }, { pageSize } = {}) =>
      paginate(
        Endpoint.listBranches,
        pageSize,
        (limit, cursor, check) =>
          client.execute(
            Endpoint.listBranches,
            { params, query: { ...query, limit, cursor } },
            (answer) => longerThan(limit, answer.branches.length) ?? check(answer)
          ),
        (answer: BranchesPage) => ({ items: answer.branches, cursor: answer.pagination?.next })
      )
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
