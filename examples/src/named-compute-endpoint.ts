/**
 * Creates a branch with a compute endpoint named by the user, its connection pooler in
 * `transaction` mode and a suspend timeout of 300 s, then reads the compute endpoint back and
 * prints what the platform kept. The branch expires in an hour (the platform deletes it then).
 * Run: `node examples/build/src/named-compute-endpoint.js [ENDPOINT_NAME]` (`preview-api` when
 * absent); against the emulator: `DBPLATFORM_BASE_URL=http://127.0.0.1:4010/api/v2
 * DBPLATFORM_API_KEY=... node examples/build/src/named-compute-endpoint.js reports`.
 */
import { Branches, ComputeEndpoints, Operations, Projects } from "@dbplatform/client"
import { isPending } from "@dbplatform/core"
import * as Chunk from "effect/Chunk"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { run } from "./run.js"

/** The compute endpoint's name: the first argument (1 to 64 characters), `preview-api` when absent. */
const endpointName = process.argv[2] ?? "preview-api"

export const program = Effect.gen(function* () {
  const projects = yield* Projects.Projects
  const operations = yield* Operations.Operations
  const branches = yield* Branches.Branches
  const computeEndpoints = yield* ComputeEndpoints.ComputeEndpoints

  const project = yield* projects.list().pipe(Stream.runHead, Effect.flatten)
  // A project runs one change at a time: wait for what is still running before the next one.
  const running = yield* operations.list({ project_id: project.id }).pipe(Stream.filter(isPending), Stream.runCollect)
  yield* operations.awaitAll(Chunk.toReadonlyArray(running))

  const expires_at = DateTime.add(yield* DateTime.now, { hours: 1 })
  const { branch } = yield* branches.create(
    { project_id: project.id, branch: { name: `${endpointName}-${Date.now()}`, expires_at } },
    { wait: true }
  )
  const { endpoint } = yield* computeEndpoints.create(
    {
      project_id: project.id,
      endpoint: {
        branch_id: branch.id,
        type: "read_write",
        name: endpointName,
        pooler_enabled: true,
        pooler_mode: "transaction",
        suspend_timeout_seconds: 300
      }
    },
    { wait: true }
  )

  // Read back: what the platform kept of what was asked.
  const read = yield* computeEndpoints.get({ project_id: project.id, endpoint_id: endpoint.id })
  return [
    `branch ${branch.name} (${branch.id}), expires ${branch.expires_at === undefined ? "never" : DateTime.formatIso(branch.expires_at)} (kept to the second)`,
    `compute endpoint ${read.endpoint.id} on ${read.endpoint.branch_id}: ${read.endpoint.current_state}`,
    `  name: ${read.endpoint.name}`,
    `  pooler: ${read.endpoint.pooler_enabled ? "enabled" : "disabled"}, mode ${read.endpoint.pooler_mode}`,
    `  suspend timeout: ${read.endpoint.suspend_timeout_seconds} s`,
    `  host: ${read.endpoint.host}`
  ].join("\n")
}).pipe(
  Effect.catchTags({
    InvalidRequest: (error) => Effect.succeed(`not sent: ${error.message}`),
    Conflict: (error) => Effect.succeed(`refused: ${error.message}`)
  })
)

run(program)
