#!/usr/bin/env node
/**
 * Runs every example in `build/src` (compiled by `tsc -b`) with node, each in a process of its own,
 * against the fake platform, all at once (unless DBPLATFORM_BASE_URL is set: then against that
 * server, one after the other), and fails if one fails. Reported in name order.
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), "build", "src")
const examples = fs
  .readdirSync(dir)
  .filter((name) => name.endsWith(".js") && name !== "run.js")
  .sort()

/** Runs `example` with node to its exit: its exit code, its output, and how long it took. */
const runOne = (example) =>
  new Promise((resolve) => {
    const started = Date.now()
    const child = spawn(process.execPath, [path.join(dir, example)])
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      stdout += chunk
    })
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      stderr += chunk
    })
    child.on("close", (status) =>
      resolve({ status, stdout, stderr, seconds: ((Date.now() - started) / 1000).toFixed(1) })
    )
  })

// Against the fake, all at once: each example serves a fake of its own, in its own process, and
// most of its time is the fake's operations running and the client's polls waiting (real time),
// which then overlap. Against a server, one after the other: they would share its account.
const results = []
if (process.env.DBPLATFORM_BASE_URL) {
  for (const example of examples) results.push(await runOne(example))
} else {
  results.push(...(await Promise.all(examples.map(runOne))))
}
let failed = 0
for (const [i, example] of examples.entries()) {
  const { status, stdout, stderr, seconds } = results[i]
  const output = `${stdout}${stderr}`.trimEnd()
  if (status === 0 && stderr === "") {
    console.log(`ok   ${example} (${seconds} s)\n${output.replace(/^/gm, "     ")}`)
  } else {
    failed++
    console.log(`FAIL ${example} (${seconds} s, exit ${status})\n${output.replace(/^/gm, "     ")}`)
  }
}
console.log(`${examples.length - failed} passed, ${failed} failed`)
if (failed > 0 || examples.length === 0) process.exit(1)
