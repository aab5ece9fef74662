#!/usr/bin/env node
/**
 * `pnpm --filter @dbplatform/emulator load [--clients 200] [--seconds 10]`: starts the built
 * emulator (`dist/esm/bin/emulator.js`) as a child process, loads it with `Load.run` over
 * keep-alive connections (`NodeHttpClient.layerUndici`), stops it with SIGTERM and prints the
 * report. Exits 1 unless every
 * request was answered 200, every created key is listed, and the emulator shut down cleanly.
 */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { ErrorLine } from "@dbplatform/core"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Load from "../Load.js"

const flag = (name: string, fallback: number): number => {
  const index = process.argv.indexOf(`--${name}`)
  const value = index < 0 ? fallback : Number(process.argv[index + 1])
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be an integer >= 1`)
  return value
}

const main = Effect.gen(function* () {
  const clients = flag("clients", 200)
  const seconds = flag("seconds", 10)
  // Without DBPLATFORM_EMULATOR_KEY, so the emulator prints the key it made.
  const { DBPLATFORM_EMULATOR_KEY: _fixedKey, ...env } = process.env
  const child = spawn(process.execPath, [fileURLToPath(new URL("./emulator.js", import.meta.url))], {
    stdio: ["ignore", "pipe", "inherit"],
    env
  })
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
    Effect.provide(NodeHttpClient.layerUndici),
    // a failed run must not leave the emulator behind
    Effect.onError(() => Effect.sync(() => child.kill("SIGTERM")))
  )
  child.kill("SIGTERM")
  const code = yield* Effect.promise(() => exited)
  console.log(Load.format(report))
  console.log(`emulator exit code after SIGTERM: ${code}`)
  if (!Load.isClean(report) || code !== 0) {
    console.error("load: FAILED (unanswered or non-200 requests, keys missing from the list, or an unclean exit)")
    process.exitCode = 1
  }
})

Effect.runPromiseExit(main).then((exit) => {
  if (exit._tag === "Failure") {
    console.error(`load failed: ${ErrorLine.fromCause(exit.cause)}`)
    process.exitCode = 1
  }
})
