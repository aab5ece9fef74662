#!/usr/bin/env node
/**
 * Bundle size of two programs that list projects and await one operation, over `fetch`,
 * configured from the environment: `examples/size/minimal.ts` provides only the two services it
 * uses (`Projects.layer`, `Operations.layer`), `examples/size/everything.ts` provides every
 * service at once (`DbPlatform.layerConfig()`). Each is bundled with esbuild from the packages'
 * built ESM (`dist/esm`, pure-call annotated), minified, for browsers and edge runtimes (ESM,
 * ES2022). Prints each size raw and gzipped and the largest packages in it, and exits 1 when a
 * figure is over its budget in scripts/size-budget.json (bytes).
 *
 *   node scripts/size.mjs [--json]
 */
import * as fs from "node:fs"
import * as path from "node:path"
import * as zlib from "node:zlib"
import * as esbuild from "esbuild"
import { kB, root } from "./lib.mjs"

const budgets = JSON.parse(fs.readFileSync(path.join(root, "scripts", "size-budget.json"), "utf8"))

/** The programs measured, by the name their budget has. */
const programs = {
  minimal: "the two services it uses",
  everything: "every service, DbPlatform.layerConfig()"
}

const measure = async (name) => {
  const entry = path.join(root, "examples", "size", `${name}.ts`)
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
  // Bytes in the output per package, and a guard that the bundle holds what it should.
  const byPackage = new Map()
  const output = Object.values(result.metafile.outputs)[0]
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const match = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(input)
    const pkg = match ? match[1] : input.startsWith("../packages/") ? `@dbplatform/${input.split("/")[2]}` : input
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + bytesInOutput)
  }
  const inputs = Object.keys(output.inputs)
  const problems = [
    ...inputs.filter((input) => input.includes("/dist/cjs/")).map((input) => `CommonJS build bundled: ${input}`),
    ...inputs.filter((input) => input.includes("packages/testing/")).map((input) => `the fake bundled: ${input}`)
  ]
  return {
    name,
    raw: code.length,
    gzip: zlib.gzipSync(code, { level: 9 }).length,
    budget: budgets[name],
    packages: [...byPackage].sort((a, b) => b[1] - a[1]),
    problems
  }
}

const results = []
for (const name of Object.keys(programs)) results.push(await measure(name))

if (process.argv.includes("--json")) {
  console.log(
    JSON.stringify(
      Object.fromEntries(
        results.map(({ name, raw, gzip, budget, packages }) => [
          name,
          { raw, gzip, budget, packages: Object.fromEntries(packages) }
        ])
      ),
      null,
      2
    )
  )
} else {
  for (const { name, raw, gzip, budget, packages } of results) {
    console.log(
      `${name} program (examples/size/${name}.ts: ${programs[name]}), esbuild ${esbuild.version}, minified, ESM, browser, es2022:`
    )
    console.log(`  raw  ${kB(raw).padStart(9)}  (${raw} bytes; budget ${kB(budget.raw)})`)
    console.log(`  gzip ${kB(gzip).padStart(9)}  (${gzip} bytes; budget ${kB(budget.gzip)})`)
    console.log("  by package (minified, before gzip):")
    for (const [pkg, bytes] of packages.slice(0, 6)) console.log(`    ${kB(bytes).padStart(9)}  ${pkg}`)
  }
}
let failed = false
for (const { name, raw, gzip, budget, problems } of results) {
  for (const problem of problems) console.error(`size: ${name}: ${problem}`)
  const over = [
    ...(raw > budget.raw ? [`raw ${raw} bytes > budget ${budget.raw}`] : []),
    ...(gzip > budget.gzip ? [`gzip ${gzip} bytes > budget ${budget.gzip}`] : [])
  ]
  for (const line of over) console.error(`size: ${name}: over budget: ${line}`)
  if (over.length > 0 || problems.length > 0) failed = true
}
if (failed) process.exit(1)
