#!/usr/bin/env node
/**
 * `pnpm --filter @dbplatform/emulator load [--clients 200] [--seconds 10] [--verbose]`: starts
 * the built emulator (`dist/esm/bin/emulator.js`) as a child process, loads it with `Load.run`
 * over keep-alive connections (`NodeHttpClient.layerUndici`), stops it with SIGTERM and prints
 * the report.
 *
 * Exit codes: 0 when every request was answered 200, every created key is listed, and the
 * emulator shut down cleanly; 1 otherwise, or when the run could not be made (one line on
 * stderr, from core's `ErrorLine`; `--verbose` adds the cause chain); 0 after Ctrl-C.
 */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { Command, HelpDoc, Options, Span } from "@effect/cli"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Load from "../Load.js"
import { reportFailure, runMain } from "../CommandLine.js"

const clients = Options.integer("clients").pipe(
  Options.withPseudoName("N"),
  Options.withSchema(Schema.Int.pipe(Schema.greaterThanOrEqualTo(1))),
  Options.withDescription(
    "How many clients send requests at once, each over its own connection. Example: --clients 50"
  ),
  Options.withDefault(200)
)
const seconds = Options.integer("seconds").pipe(
  Options.withPseudoName("N"),
  Options.withSchema(Schema.Int.pipe(Schema.greaterThanOrEqualTo(1))),
  Options.withDescription("How long the load lasts, in seconds. Example: --seconds 30"),
  Options.withDefault(10)
)
const verbose = Options.boolean("verbose").pipe(
  Options.withDescription(
    "On failure, also print what the one-line reason leaves out (the route template, the error code, the cause chain). Example: --verbose"
  )
)

const command = Command.make("load", { clients, seconds, verbose }, ({ clients, seconds, verbose }) =>
  Effect.gen(function* () {
    // Without DBPLATFORM_EMULATOR_KEY, so the emulator prints the key it made.
    const { DBPLATFORM_EMULATOR_KEY: _fixedKey, ...env } = process.env
    // Whatever ends the run (a failure, Ctrl-C, SIGTERM while the emulator starts), the scope's
    // release stops the emulator: none is left running on its own.
    const child = yield* Effect.acquireRelease(
      Effect.sync(() =>
        spawn(process.execPath, [fileURLToPath(new URL("./emulator.js", import.meta.url))], {
          stdio: ["ignore", "pipe", "inherit"],
          env
        })
      ),
      // Stopped, and waited for: it has ended (state saved, port closed) before `load` exits.
      (child) =>
        child.exitCode !== null || child.signalCode !== null
          ? Effect.void
          : Effect.async<void>((resume) => {
              child.once("exit", () => resume(Effect.void))
              child.kill("SIGTERM")
            })
    )
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
    const { baseUrl, apiKey } = yield* Effect.async<{ baseUrl: string; apiKey: string }, Error>((resume) => {
      let output = ""
      child.stdout!.setEncoding("utf8")
      child.stdout!.on("data", (chunk: string) => {
        output += chunk
        const baseUrl = /^DBPLATFORM_BASE_URL=(.+)$/m.exec(output)?.[1]
        const apiKey = /^DBPLATFORM_API_KEY=(.+)$/m.exec(output)?.[1]
        if (baseUrl !== undefined && apiKey !== undefined) resume(Effect.succeed({ baseUrl, apiKey }))
      })
      child.on("exit", (code) => resume(Effect.fail(new Error(`the emulator exited (${code}) before it was ready`))))
    })
    console.log(`load: ${clients} clients for ${seconds} s against the emulator at ${baseUrl} (pid ${child.pid})`)
    const report = yield* Load.run({
      baseUrl,
      apiKey: Redacted.make(apiKey),
      clients,
      duration: `${seconds} seconds`
    }).pipe(
      // undici's own client: keep-alive connections, and about half the CPU time per request of `FetchHttpClient`
      Effect.provide(NodeHttpClient.layerUndici)
    )
    child.kill("SIGTERM")
    const code = yield* Effect.promise(() => exited)
    console.log(Load.format(report))
    console.log(`emulator exit code after SIGTERM: ${code}`)
    if (!Load.isClean(report) || code !== 0) {
      console.error("load: FAILED (unanswered or non-200 requests, keys missing from the list, or an unclean exit)")
      process.exitCode = 1
    }
  }).pipe(Effect.scoped, Effect.catchAllCause(reportFailure("load", { verbose })))
).pipe(
  Command.withDescription(
    HelpDoc.blocks([
      HelpDoc.p(
        "Starts the built emulator in a child process, loads it with many concurrent clients over keep-alive connections, stops it with SIGTERM and prints the report: requests answered by status, throughput, latency, keys created and listed."
      ),
      HelpDoc.p(Span.code("$ pnpm --filter @dbplatform/emulator load --clients 50 --seconds 30"))
    ])
  )
)

runMain(command, {
  name: "load",
  packageName: "@dbplatform/emulator",
  moduleUrl: import.meta.url,
  footer: HelpDoc.blocks([
    HelpDoc.h1("EXIT CODES"),
    HelpDoc.descriptionList([
      [
        Span.text("0"),
        HelpDoc.p(
          "Every request answered 200, every created key listed, and the emulator shut down cleanly; or stopped by Ctrl-C."
        )
      ],
      [
        Span.text("1"),
        HelpDoc.p(
          "Anything else, or the run could not be made (bad flags, the emulator did not start): stderr says why."
        )
      ]
    ])
  ])
})
