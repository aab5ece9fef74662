/**
 * The emulator's SQL parser (`FakePlatform.Options.ddlParser`): the fake's own parser run in a
 * worker thread (`ddlWorker.ts`), so that a long parse (a migration of up to 1 MiB, a seed's
 * schemas) leaves the thread that answers requests free. One parse at a time (a semaphore: the
 * others wait their turn); the thread is started on the first parse and kept, not holding the
 * process open while idle. An interrupted parse (its request gone, or the emulator stopping) stops
 * the thread at once (`terminate` ends even a synchronous parse), and the next parse starts
 * another; closing the scope stops it too. So SIGTERM stops the emulator at once whatever it is
 * parsing (docs/design.md §6).
 *
 * The thread runs `ddlWorker.js` from the folder of this module: `dist/esm/internal` (or
 * `dist/cjs/internal`) of the package, or `dist/esm/bin` next to the bundled command, where the
 * build writes a bundle of it. Where there is none (this module run from its TypeScript source,
 * as a test runner does), the fake's parser runs in this thread instead (`DdlParser.inProcess`).
 */
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Worker } from "node:worker_threads"
import { DdlParser, Scenario } from "@dbplatform/testing"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type { Answer } from "./ddlWorker.js"

/** The worker thread's entry, next to this module. */
const entry = new URL("./ddlWorker.js", import.meta.url)

/**
 * A parser that runs in a worker thread, stopped when the scope closes; the in-process parser when
 * there is no built worker entry next to this module.
 */
export const make: Effect.Effect<DdlParser.DdlParser, never, Scope.Scope> = Effect.gen(function* () {
  if (entry.protocol !== "file:" || !existsSync(fileURLToPath(entry))) return DdlParser.inProcess
  const turn = yield* Effect.makeSemaphore(1)
  /** The thread, once started and while it lives. */
  let thread: Worker | undefined
  const stop = (worker: Worker) => {
    if (thread === worker) thread = undefined
    void worker.terminate()
  }
  yield* Effect.addFinalizer(() =>
    Effect.sync(() => {
      if (thread !== undefined) stop(thread)
    })
  )
  const parse = (sql: string) =>
    Effect.async<DdlParser.ParsedDdl, Scenario.InvalidMigration>((resume) => {
      const worker = thread ?? new Worker(entry)
      thread = worker
      // Held open while it parses: a caller waits for its answer.
      worker.ref()
      const done = () => {
        worker.off("message", onMessage)
        worker.off("error", onError)
        worker.off("exit", onExit)
        worker.unref()
      }
      const onMessage = (answer: Answer) => {
        done()
        resume(
          "ddl" in answer
            ? Effect.succeed(answer.ddl)
            : Effect.fail(new Scenario.InvalidMigration({ reason: answer.reason }))
        )
      }
      const onError = (error: Error) => {
        done()
        stop(worker)
        resume(Effect.die(error))
      }
      const onExit = (code: number) => {
        done()
        if (thread === worker) thread = undefined
        resume(Effect.die(new Error(`the SQL parser's thread stopped (exit code ${code})`)))
      }
      worker.on("message", onMessage)
      worker.on("error", onError)
      worker.on("exit", onExit)
      worker.postMessage(sql)
      // Interrupted while it parses: stop the thread rather than wait for a parse nobody awaits.
      return Effect.sync(() => {
        done()
        stop(worker)
      })
    })
  return { parse: (sql) => turn.withPermits(1)(parse(sql)) }
})
