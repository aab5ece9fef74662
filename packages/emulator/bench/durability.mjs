#!/usr/bin/env node
/**
 * Key creations per second through the built emulator (`pnpm build` first), without a state
 * file and with one, for both ways of making a change durable before answering it:
 *
 * - `journal`: one JSON line per group of changes made at the same time appended to
 *   `FILE.journal`, one fsync per group (what `--state` does);
 * - `snapshot`: the whole state file written to `FILE.tmp`, fsync'ed and renamed per group.
 *
 * Each run serves the built-in realistic account from a child process (so that the clients do
 * not share its event loop) and sends `POST /api_keys` from `--clients` concurrent clients for
 * `--seconds`, in `--rounds` rounds of the three modes in turn; it prints the median per mode.
 * Usage: `node bench/durability.mjs [--clients 16] [--seconds 5] [--rounds 3]`.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const flag = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`)
  return index < 0 ? fallback : process.argv[index + 1]
}

if (flag("serve", undefined) !== undefined) {
  // The server side: the emulator's parts, put together as `Emulator.layer` does, with a mode.
  const { createServer } = await import("node:http")
  const NodeContext = await import("@effect/platform-node/NodeContext")
  const NodeHttpServer = await import("@effect/platform-node/NodeHttpServer")
  const NodeRuntime = await import("@effect/platform-node/NodeRuntime")
  const { Effect, Layer, Redacted } = await import("effect")
  const { FakePlatform, Seed } = await import("@dbplatform/testing")
  const StateFile = await import("../dist/esm/StateFile.js")
  const mode = flag("serve")
  const state = flag("state", undefined)
  const program = Effect.gen(function* () {
    const journal = mode === "none" ? undefined : yield* StateFile.journal(state, { mode })
    const fake = yield* FakePlatform.make(Seed.realistic(), { journal })
    if (journal !== undefined) yield* journal.start(fake.snapshot)
    yield* Layer.launch(
      FakePlatform.layerServer.pipe(
        Layer.provide(Layer.succeed(FakePlatform.FakePlatform, fake)),
        Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
        Layer.tap((context) =>
          Effect.flatMap(FakePlatform.serverBaseUrl, (url) =>
            // A throwaway bench account's key, printed for the clients.
            Effect.sync(() => console.log(`URL=${url}\nKEY=${Redacted.value(fake.bootstrapKey)}`))
          ).pipe(Effect.provide(context))
        )
      )
    )
  })
  NodeRuntime.runMain(program.pipe(Effect.scoped, Effect.provide(NodeContext.layer)))
} else {
  const clients = Number(flag("clients", "16"))
  const seconds = Number(flag("seconds", "5"))
  const self = fileURLToPath(import.meta.url)
  const run = async (mode) => {
    const dir = mkdtempSync(join(tmpdir(), "dbplatform-bench-"))
    const child = spawn(process.execPath, [self, "--serve", mode, "--state", join(dir, "state.json")], {
      stdio: ["ignore", "pipe", "inherit"]
    })
    let output = ""
    const ready = await new Promise((resolve, reject) => {
      child.stdout.setEncoding("utf8").on("data", (chunk) => {
        output += chunk
        const url = /^URL=(.+)$/m.exec(output)?.[1]
        const key = /^KEY=(.+)$/m.exec(output)?.[1]
        if (url !== undefined && key !== undefined) resolve({ url, key })
      })
      child.on("exit", (code) => reject(new Error(`server exited ${code}`)))
    })
    const end = Date.now() + seconds * 1000
    let created = 0
    let failed = 0
    const client = async (i) => {
      for (let n = 0; Date.now() < end; n++) {
        const response = await fetch(`${ready.url}/api_keys`, {
          method: "POST",
          headers: { authorization: `Bearer ${ready.key}`, "content-type": "application/json" },
          body: JSON.stringify({ key_name: `bench-${i}-${n}` })
        })
        await response.arrayBuffer()
        if (response.status === 200) created++
        else failed++
      }
    }
    const started = Date.now()
    await Promise.all(Array.from({ length: clients }, (_, i) => client(i)))
    const elapsed = (Date.now() - started) / 1000
    child.kill("SIGTERM")
    await new Promise((resolve) => child.on("exit", resolve))
    rmSync(dir, { recursive: true, force: true })
    return { mode, created, failed, perSecond: Math.round(created / elapsed) }
  }
  // Rounds of the three modes in turn, so that a change in the machine's load hits them alike.
  const rounds = Number(flag("rounds", "3"))
  const modes = ["none", "journal", "snapshot"]
  const samples = new Map(modes.map((mode) => [mode, []]))
  console.log(
    `POST /api_keys, ${clients} concurrent clients, ${rounds} rounds of ${seconds} s per mode, Node ${process.version}`
  )
  for (let round = 0; round < rounds; round++) {
    for (const mode of modes) {
      const result = await run(mode)
      if (result.failed > 0) console.error(`${mode}: ${result.failed} creations not answered 200`)
      samples.get(mode).push(result.perSecond)
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
  for (const mode of modes) {
    const label = mode === "none" ? "no --state" : `--state (${mode})`
    console.log(`${label}: median ${median(samples.get(mode))} creates/s (rounds: ${samples.get(mode).join(", ")})`)
  }
}
