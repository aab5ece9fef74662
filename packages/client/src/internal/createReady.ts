/**
 * `Branches.createReady`: the preview-branch workflow as one call (docs/contract.md §13.3).
 * Create a branch with a `read_write` compute endpoint, wait for the operations that make them
 * (`Operations.awaitAll`: one list request a round for all of them), read both as they now are,
 * and name the connection string (`Redacted`), from the creation's answer when it has it.
 */
import * as Api from "@dbplatform/core/Api"
import {
  type Branch,
  type BranchCreated,
  type ComputeEndpoint,
  type Conflict,
  InvalidRequest,
  isPending,
  type Operation,
  OperationFailed,
  OperationStillPending
} from "@dbplatform/core"
import * as Chunk from "effect/Chunk"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { CreateReadyInput as Input, ReadyBranch as Ready } from "../Branches.js"
import type { Service as Client } from "../DbPlatformClient.js"
import type * as Operations from "../Operations.js"

/** A branch to finish: created or found, its `read_write` compute endpoint, and what to wait for. */
interface Started {
  readonly branch: Branch
  readonly endpoint: ComputeEndpoint
  readonly operations: ReadonlyArray<Operation>
  readonly answer: BranchCreated | undefined
}

const readWriteOf = (endpoints: ReadonlyArray<ComputeEndpoint>) =>
  endpoints.find((endpoint) => endpoint.type === "read_write")

/**
 * The workflow over `client` and `operations`. Each step is one of the client's calls, with its
 * retries, deadline, span and typed errors; the wait is `awaitAll` with `options`.
 */
export const createReady =
  (client: Client, operations: Operations.Service) =>
  (input: Input, options: Operations.WaitOptions = {}) =>
    Effect.gen(function* () {
      const project_id = input.project_id
      const name = input.branch?.name
      if (
        input.onConflict === "reuse" &&
        (name === undefined ||
          input.connection?.database_name === undefined ||
          input.connection.role_name === undefined)
      ) {
        return yield* new InvalidRequest({
          message:
            "Branches.createReady: onConflict: reuse needs branch.name (it finds the branch to reuse), connection.database_name and connection.role_name (a reused branch has no creation answer to name them)"
        })
      }
      const created = Effect.map(
        client.execute(
          Api.Branches.create,
          { project_id, branch: input.branch ?? {}, endpoints: [{ ...input.endpoint, type: "read_write" }] },
          (answer) =>
            readWriteOf(answer.endpoints) === undefined ? "the answer has no read_write compute endpoint" : undefined
        ),
        (answer): Started => ({
          branch: answer.branch,
          endpoint: readWriteOf(answer.endpoints)!,
          operations: answer.operations,
          answer
        })
      )
      const started =
        input.onConflict === "reuse" && name !== undefined
          ? Effect.catchTag(created, "Conflict", (conflict: Conflict) =>
              reuse(client, operations, input, name, conflict)
            )
          : created
      const { answer, branch, endpoint, operations: toAwait } = yield* started

      const waited = yield* operations.awaitAll(toAwait, options)
      const failed = waited.failed.at(0)
      if (failed !== undefined) return yield* new OperationFailed({ operation: failed })
      const pending = waited.pending.at(0)
      if (pending !== undefined) return yield* new OperationStillPending({ operation: pending })

      const ids = { project_id, branch_id: branch.id }
      const [now, endpointNow] = yield* Effect.all([
        client.execute(Api.Branches.get, ids),
        client.execute(Api.Branches.listEndpoints, ids, (read) =>
          read.endpoints.some((one) => one.id === endpoint.id)
            ? undefined
            : `the compute endpoint ${endpoint.id} of branch ${branch.id} is not among its compute endpoints`
        )
      ])
      const connectionUri = yield* uriOf(client, input, branch, endpoint, answer)
      return {
        branch: now.branch,
        endpoint: endpointNow.endpoints.find((one) => one.id === endpoint.id)!,
        connectionUri,
        operations: waited.operations,
        created: answer !== undefined
      } satisfies Ready
    })

/**
 * The connection string: the creation's own `connection_uris` entry for the database and role
 * asked for (the first one when none is named), with no request; otherwise (pooled, other names,
 * a reused branch) `GET /projects/{p}/connection_uri` through the branch's compute endpoint.
 */
const uriOf = (
  client: Client,
  input: Input,
  branch: Branch,
  endpoint: ComputeEndpoint,
  answer: BranchCreated | undefined
) => {
  const asked = input.connection ?? {}
  const answered = answer?.connection_uris ?? []
  const matching = answered.find(
    ({ connection_parameters: { database, role } }) =>
      (asked.database_name === undefined || asked.database_name === database) &&
      (asked.role_name === undefined || asked.role_name === role)
  )
  if (matching !== undefined && asked.pooled !== true) return Effect.succeed(matching.connection_uri)
  const database = answer?.databases.find(
    (database) => asked.database_name === undefined || database.name === asked.database_name
  )
  const database_name = asked.database_name ?? matching?.connection_parameters.database ?? database?.name
  const role_name = asked.role_name ?? matching?.connection_parameters.role ?? database?.owner_name
  if (database_name === undefined || role_name === undefined) {
    return Effect.fail(
      new InvalidRequest({
        message: `Branches.createReady: branch ${branch.id} is ready, but has no database to connect to: name connection.database_name and connection.role_name`
      })
    )
  }
  return Effect.map(
    client.execute(Api.Connections.uri, {
      project_id: branch.project_id,
      database_name,
      role_name,
      branch_id: branch.id,
      endpoint_id: endpoint.id,
      pooled: asked.pooled
    }),
    ({ uri }) => uri
  )
}

/**
 * After a 409 on `name` with `onConflict: "reuse"`: the branch of that name (exactly), when it is
 * the one asked for (same parent, when one is given) and has a `read_write` compute endpoint,
 * with the operations to wait for: those still pending, and the branch's last `create_branch` and
 * its compute endpoint's last `start_compute`, so that a creation that failed fails the wait again
 * (the project's operations since the branch's creation, newest first, read in pages of 1000);
 * otherwise the 409 stands.
 */
const reuse = (client: Client, operations: Operations.Service, input: Input, name: string, conflict: Conflict) =>
  Effect.gen(function* () {
    const project_id = input.project_id
    const page = yield* client.execute(Api.Branches.list, { project_id, search: name })
    const branch = page.branches.find((branch) => branch.name === name)
    const parent = input.branch?.parent_id
    if (branch === undefined || (parent !== undefined && branch.parent_id !== parent)) return yield* conflict
    const { endpoints } = yield* client.execute(Api.Branches.listEndpoints, { project_id, branch_id: branch.id })
    const endpoint = readWriteOf(endpoints)
    if (endpoint === undefined) return yield* conflict
    const ofBranch = yield* operations.list({ project_id }, { pageSize: Api.operationsPageLimits.max }).pipe(
      Stream.takeWhile((operation) => DateTime.greaterThanOrEqualTo(operation.created_at, branch.created_at)),
      Stream.filter((operation) => operation.branch_id === branch.id),
      Stream.runCollect
    )
    // Newest first: the last create_branch and start_compute of the endpoint say whether the branch
    // came up (one that failed fails the wait, as on the first call); whatever is pending is waited for.
    const latest = new Set<string>()
    const waitFor = Chunk.filter(ofBranch, (operation) => {
      const creation =
        operation.action === "create_branch" ||
        (operation.action === "start_compute" && operation.endpoint_id === endpoint.id)
      const first = creation && !latest.has(operation.action)
      if (creation) latest.add(operation.action)
      return first || isPending(operation)
    })
    return { branch, endpoint, operations: Chunk.toReadonlyArray(waitFor), answer: undefined } satisfies Started
  })
