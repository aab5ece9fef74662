/**
 * The entry of the emulator's SQL parser thread (started by `ddlThread.ts`, never imported): each
 * message is the text of a migration or of a seed's schema, parsed with the fake's own parser
 * (`DdlParser.inProcess`); the answer is what it read (`{ ddl }`, plain data) or why it cannot be
 * read (`{ reason }`). One text at a time, in the order sent.
 */
import { parentPort } from "node:worker_threads"
import * as DdlParser from "@dbplatform/testing/DdlParser"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"

/** What the thread answers for one text. */
export type Answer = { readonly ddl: DdlParser.ParsedDdl } | { readonly reason: string }

const port = parentPort
if (port !== null) {
  port.on("message", (sql: string) =>
    // The edge of this thread's program: one run per message, answered when it ends.
    Effect.runPromise(Effect.either(DdlParser.inProcess.parse(sql))).then((parsed) =>
      port.postMessage(
        Either.match(parsed, {
          onLeft: (error): Answer => ({ reason: error.reason }),
          onRight: (ddl): Answer => ({ ddl })
        })
      )
    )
  )
}
