/**
 * Smoke test, ESM: the published packages imported from a project outside the workspace, run
 * against the fake platform with the `TestClock`. Lists the projects, then waits for a running
 * operation, polling every 5 s of test time.
 */
import { Operations, Projects } from "@dbplatform/client"
import { isPending, isSucceeded } from "@dbplatform/core"
import { DbPlatformTest, Seed } from "@dbplatform/testing"
import { Chunk, Effect, Fiber, Stream, TestClock, TestContext } from "effect"

const program = Effect.gen(function* () {
  const projects = yield* Projects.Projects
  const operations = yield* Operations.Operations
  const all = yield* projects.list({}, { pageSize: 2 }).pipe(Stream.runCollect)
  const project = Chunk.unsafeHead(all)
  const page = yield* operations.listPage({ project_id: project.id, limit: 10 })
  const running = page.operations.find(isPending)
  if (running === undefined) return yield* Effect.dieMessage("the realistic seed has no running operation")
  const fiber = yield* Effect.fork(operations.await({ project_id: project.id, operation_id: running.id }))
  yield* TestClock.adjust("30 seconds")
  const done = yield* Fiber.join(fiber)
  if (!isSucceeded(done)) return yield* Effect.dieMessage(`operation ended ${done.status}`)
  return `esm: ${Chunk.size(all)} projects; ${done.action} ${done.id} ${done.status}`
})

program
  .pipe(
    Effect.provide(DbPlatformTest.layer({ seed: Seed.realistic() })),
    Effect.provide(TestContext.TestContext),
    Effect.runPromise
  )
  .then(
    (line) => console.log(line),
    (error: unknown) => {
      console.error(error)
      process.exitCode = 1
    }
  )

declare const process: { exitCode?: number }
