/**
 * Waits for an operation to end: the one given as `node await-operation.js PROJECT_ID
 * OPERATION_ID`, else the newest still running in the first project. Polls every 2 s here (the
 * platform's advice, and the default, is 5 s) and gives up after 2 minutes with
 * `OperationStillPending`; an operation that ends failed, error or cancelled is an
 * `OperationFailed`. Run: `node examples/build/src/await-operation.js`.
 */
import { Operations, Projects } from "@dbplatform/client"
import { isPending, OperationId, ProjectId } from "@dbplatform/core"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import { run } from "./run.js"

/** The operation to wait for: from the command line, or the newest pending one. */
const target = Effect.gen(function* () {
  const [projectArg, operationArg] = process.argv.slice(2)
  if (projectArg !== undefined && operationArg !== undefined) {
    return { project_id: ProjectId.make(projectArg), operation_id: OperationId.make(operationArg) }
  }
  const projects = yield* Projects.Projects
  const operations = yield* Operations.Operations
  const project = yield* projects.list().pipe(Stream.runHead, Effect.flatten)
  // The newest operations first; stop at the first one still pending.
  const pending = yield* operations
    .list({ project_id: project.id }, { pageSize: 50 })
    .pipe(Stream.filter(isPending), Stream.runHead)
  return Option.match(pending, {
    onNone: () => undefined,
    onSome: (operation) => ({ project_id: project.id, operation_id: operation.id })
  })
})

export const program = Effect.gen(function* () {
  const operations = yield* Operations.Operations
  const found = yield* target
  if (found === undefined) return "no operation is running"
  const options = { schedule: Schedule.spaced("2 seconds"), timeout: "2 minutes" } as const
  // Each state read, as it is read; ends after the first terminal one.
  const states = yield* operations.states(found, options).pipe(Stream.runCollect)
  const done = yield* operations.await(found, options)
  return [
    ...Chunk.toReadonlyArray(states).map((operation) => `  ${operation.action} ${operation.status}`),
    `${done.action} ${done.id}: ${done.status}`
  ].join("\n")
}).pipe(
  Effect.catchTags({
    OperationFailed: (error) => Effect.succeed(`it ended badly: ${error.message}`),
    OperationStillPending: (error) => Effect.succeed(`gave up waiting: ${error.message}`),
    NotFound: (error) => Effect.succeed(`no such operation: ${error.message}`)
  })
)

run(program)
