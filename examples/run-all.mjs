#!/usr/bin/env node
/**
 * Runs every example in `build/src` (compiled by `tsc -b`) with node, one after the other,
 * against the fake platform (unless DBPLATFORM_BASE_URL is set), and fails if one fails.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), "build", "src")
const examples = fs
  .readdirSync(dir)
  .filter((name) => name.endsWith(".js") && name !== "run.js")
  .sort()
let failed = 0
for (const example of examples) {
  const started = Date.now()
  const result = spawnSync(process.execPath, [path.join(dir, example)], { encoding: "utf8" })
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  const output = `${result.stdout}${result.stderr}`.trimEnd()
  if (result.status === 0 && result.stderr === "") {
    console.log(`ok   ${example} (${seconds} s)\n${output.replace(/^/gm, "     ")}`)
  } else {
    failed++
    console.log(`FAIL ${example} (${seconds} s, exit ${result.status})\n${output.replace(/^/gm, "     ")}`)
  }
}
console.log(`${examples.length - failed} passed, ${failed} failed`)
if (failed > 0 || examples.length === 0) process.exit(1)
