#!/usr/bin/env node
/**
 * Packs the package in the current directory as it would be published and checks the tarball:
 *
 * 1. `pnpm pack` into `.pack/` (workspace: ranges replaced by versions, only `files` kept);
 * 2. publint, strict (warnings fail too), on the tarball;
 * 3. @arethetypeswrong/cli on the tarball: every entry point under node10, node16 from CommonJS,
 *    node16 from ESM and bundler resolution;
 * 4. the licence: `license` is `MIT` in the packed `package.json`, and the tarball holds a
 *    `LICENSE` with the MIT text, the same as the repository's root `LICENSE`.
 *
 * The smoke test (scripts/smoke.mjs) installs the tarball from `.pack/`.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { publint } from "publint"
import { formatMessage } from "publint/utils"
import { kB, pnpm, root, run } from "./lib.mjs"

const pkgDir = process.cwd()
const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8"))
const packDir = path.join(pkgDir, ".pack")
fs.rmSync(packDir, { recursive: true, force: true })
fs.mkdirSync(packDir)

pnpm(["pack", "--pack-destination", packDir], { capture: true })
const [tarball] = fs.readdirSync(packDir).filter((name) => name.endsWith(".tgz"))
if (tarball === undefined) throw new Error(`pnpm pack wrote no tarball to ${packDir}`)
const tarballPath = path.join(packDir, tarball)
const bytes = fs.readFileSync(tarballPath)
console.log(`${pkg.name}@${pkg.version}: ${tarball}, ${kB(bytes.length)}`)

// publint, on the files of the tarball.
const { messages, pkg: packed } = await publint({
  pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) },
  level: "suggestion",
  strict: true
})
for (const message of messages) console.log(`publint ${message.type}: ${formatMessage(message, packed)}`)
const publintErrors = messages.filter((message) => message.type === "error").length
console.log(
  `publint: ${messages.length === 0 ? "no issues" : `${messages.length} message(s), ${publintErrors} error(s)`}`
)

// attw, on the tarball. It exits non-zero on any problem; its JSON names them.
let attwFailed = false
let report
try {
  report = JSON.parse(
    run(path.join(root, "node_modules", ".bin", "attw"), [tarballPath, "--format", "json"], { capture: true })
  )
} catch (error) {
  const output = String(error.message)
  const json = output.slice(output.indexOf("{"))
  try {
    report = JSON.parse(json)
  } catch {
    throw error
  }
  attwFailed = true
}
const problems = report.analysis?.problems ?? []
const entrypoints = Object.keys(report.analysis?.entrypoints ?? {})
for (const problem of problems) console.log(`attw: ${problem.kind} ${JSON.stringify(problem)}`)
console.log(
  `attw: ${entrypoints.length} entry points (${entrypoints.join(", ")}) x node10, node16-cjs, node16-esm, bundler: ${
    problems.length === 0 && !attwFailed ? "no problems" : `${problems.length} problem(s)`
  }`
)

// The licence, as published: the field and the text, both.
const licenseText = (() => {
  try {
    return run("tar", ["-xzOf", tarballPath, "package/LICENSE"], { capture: true })
  } catch {
    return undefined
  }
})()
const rootLicense = fs.readFileSync(path.join(root, "LICENSE"), "utf8")
const licenseProblems = [
  ...(packed.license === "MIT" ? [] : [`package.json's license is ${JSON.stringify(packed.license)}, not "MIT"`]),
  ...(licenseText === undefined ? ["the tarball has no LICENSE"] : []),
  ...(licenseText !== undefined && licenseText !== rootLicense ? ["its LICENSE differs from the repository's"] : [])
]
console.log(`licence: ${licenseProblems.length === 0 ? "MIT, LICENSE included" : licenseProblems.join("; ")}`)

if (publintErrors > 0 || problems.length > 0 || attwFailed || licenseProblems.length > 0) process.exit(1)
