#!/usr/bin/env node
/**
 * Keeps the package READMEs honest: every ```ts block of packages/{core,client,testing}/README.md
 * is written to build/readme/ as a module of its own, typechecked with the workspace's settings
 * (against the built packages, as a user's code would be), and each block holding a test
 * (`it.effect(...)` or `it(...)`) is run with vitest. A block may use `program` without defining it.
 * The same vitest run runs the examples' own tests (`test/`), against the built packages too: the
 * examples run against them (`run-all.mjs`), and one vitest start-up serves both.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, "..")
const out = path.join(here, "build", "readme")
fs.rmSync(out, { recursive: true, force: true })
fs.mkdirSync(out, { recursive: true })

let blocks = 0
let tests = 0
for (const pkg of ["core", "client", "testing"]) {
  const readme = fs.readFileSync(path.join(root, "packages", pkg, "README.md"), "utf8")
  for (const [, code] of readme.matchAll(/```ts\n([\s\S]*?)```/g)) {
    blocks++
    const isTest = /\bit(\.effect)?\(/.test(code)
    if (isTest) tests++
    const preamble =
      /\bprogram\.pipe\(/.test(code) && !/\bconst program\b/.test(code)
        ? 'import type { DbPlatform as DbPlatformServices } from "@dbplatform/client"\nimport type { Effect as EffectType } from "effect"\ndeclare const program: EffectType.Effect<void, never, DbPlatformServices.DbPlatform>\n'
        : ""
    const name = `${pkg}-${String(blocks).padStart(2, "0")}${isTest ? ".test" : ""}.ts`
    fs.writeFileSync(path.join(out, name), `// ${pkg}/README.md, block ${blocks}\nexport {}\n${preamble}${code}`)
  }
}
fs.writeFileSync(
  path.join(out, "tsconfig.json"),
  `${JSON.stringify(
    {
      extends: "../../../tsconfig.base.json",
      include: ["."],
      compilerOptions: { composite: false, incremental: false, noEmit: true, noUnusedLocals: false, types: ["node"] }
    },
    null,
    2
  )}\n`
)

const bin = (name) => path.join(root, "node_modules", ".bin", name)
const step = (what, command, args) => {
  const result = spawnSync(command, args, { cwd: here, encoding: "utf8" })
  if (result.status !== 0) {
    console.error(`${what} failed:\n${result.stdout}${result.stderr}`)
    process.exit(1)
  }
}
step("typecheck of the README blocks", bin("tsc"), ["-p", path.join(out, "tsconfig.json")])
// Its own vitest config, so that no other (examples/vitest.config.ts, found from the working
// directory) decides which files run: the README's test blocks and the examples' tests, each
// resolving the packages as a user's code would (their built output); the shared timeouts of
// vitest.shared.ts (a safety margin on a busy machine, not a wait).
fs.writeFileSync(
  path.join(out, "vitest.config.mjs"),
  // One worker process, its module cache kept between the files (as vitest.shared.ts does for the
  // packages' tests): each file no longer imports effect and the packages afresh.
  'export default { test: { include: ["build/readme/*.test.ts", "test/**/*.test.ts"], testTimeout: 60000, hookTimeout: 60000, isolate: false, fileParallelism: false } }\n'
)
const results = path.join(out, "results.json")
step("the README tests and the examples' tests", bin("vitest"), [
  "run",
  "--config",
  path.join(out, "vitest.config.mjs"),
  "--root",
  here,
  "--reporter=json",
  `--outputFile=${results}`
])
// What vitest ran, not what was asked: every test block and every test file must have run and passed.
const report = JSON.parse(fs.readFileSync(results, "utf8"))
const files = new Set(report.testResults.map((file) => path.relative(here, file.name)))
const testFiles = (dir) =>
  fs
    .readdirSync(path.join(here, dir), { recursive: true })
    .map(String)
    .filter((name) => name.endsWith(".test.ts"))
    .map((name) => path.join(dir, name))
const readmeTests = testFiles(path.join("build", "readme"))
const exampleTests = testFiles("test")
const missing = [...readmeTests, ...exampleTests].filter((name) => !files.has(name))
if (missing.length > 0 || report.numFailedTests > 0 || report.numPassedTests === 0 || exampleTests.length === 0) {
  console.error(
    `the README tests and the examples' tests: ${missing.length} test files not run (${missing.join(", ")}), ${report.numFailedTests} failed`
  )
  process.exit(1)
}
console.log(
  `README blocks: ${blocks} typechecked, ${tests} test blocks run; with the examples' ${exampleTests.length} test files, ${report.numPassedTests} tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed`
)
