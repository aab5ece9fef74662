#!/usr/bin/env node
/**
 * Bundle size of a minimal program (examples/size/minimal.ts: list projects, await one
 * operation, over `fetch`, configured from the environment): bundled with esbuild from the
 * packages' built ESM (`dist/esm`, pure-call annotated), minified, for browsers and edge
 * runtimes (ESM, ES2022). Prints the size raw and gzipped and the largest packages in it, and
 * exits 1 when a figure is over the budget in scripts/size-budget.json.
 *
 *   node scripts/size.mjs [--json]
 */
import * as fs from "node:fs"
import * as path from "node:path"
import * as zlib from "node:zlib"
import * as esbuild from "esbuild"
import { kB, root } from "./lib.mjs"

const entry = path.join(root, "examples", "size", "minimal.ts")
const budget = JSON.parse(fs.readFileSync(path.join(root, "scripts", "size-budget.json"), "utf8"))

const result = await esbuild.build({
  entryPoints: [entry],
  absWorkingDir: path.join(root, "examples"),
  bundle: true,
  minify: true,
  treeShaking: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  write: false,
  metafile: true,
  legalComments: "none",
  logLevel: "warning"
})
const code = result.outputFiles[0].contents
const raw = code.length
const gzip = zlib.gzipSync(code, { level: 9 }).length

// Bytes in the output per package, and a guard that the bundle holds what it should.
const byPackage = new Map()
const output = Object.values(result.metafile.outputs)[0]
for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
  const match = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(input)
  const name = match ? match[1] : input.startsWith("../packages/") ? `@dbplatform/${input.split("/")[2]}` : input
  byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput)
}
const inputs = Object.keys(output.inputs)
const problems = [
  ...inputs.filter((input) => input.includes("/dist/cjs/")).map((input) => `CommonJS build bundled: ${input}`),
  ...inputs.filter((input) => input.includes("packages/testing/")).map((input) => `the fake bundled: ${input}`)
]

const rows = [...byPackage].sort((a, b) => b[1] - a[1])
if (process.argv.includes("--json")) {
  console.log(JSON.stringify({ raw, gzip, budget, packages: Object.fromEntries(rows) }, null, 2))
} else {
  console.log(`minimal program (examples/size/minimal.ts), esbuild ${esbuild.version}, minified, ESM, browser, es2022:`)
  console.log(`  raw  ${kB(raw).padStart(9)}  (${raw} bytes; budget ${kB(budget.raw)})`)
  console.log(`  gzip ${kB(gzip).padStart(9)}  (${gzip} bytes; budget ${kB(budget.gzip)})`)
  console.log("  by package (minified, before gzip):")
  for (const [name, bytes] of rows.slice(0, 6)) console.log(`    ${kB(bytes).padStart(9)}  ${name}`)
}
for (const problem of problems) console.error(`size: ${problem}`)
const over = [
  ...(raw > budget.raw ? [`raw ${raw} bytes > budget ${budget.raw}`] : []),
  ...(gzip > budget.gzip ? [`gzip ${gzip} bytes > budget ${budget.gzip}`] : [])
]
for (const line of over) console.error(`size: over budget: ${line}`)
if (over.length > 0 || problems.length > 0) process.exit(1)
