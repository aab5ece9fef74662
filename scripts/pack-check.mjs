#!/usr/bin/env node
/**
 * Packs the published packages as they would be published and checks each tarball, all four in
 * one process (`pnpm pack-check` at the root; turbo's `//#pack-check`, after their builds):
 *
 * 1. packs them into `packed/` as `pnpm pack-packages` does (scripts/pack-packages.mjs, one
 *    `pnpm pack` over the four: `workspace:` ranges replaced by versions, only `files` kept);
 * 2. publint, strict (warnings fail too), on each tarball;
 * 3. @arethetypeswrong/core (what the `attw` command runs, here in-process, so its TypeScript loads
 *    once for the four) on each tarball, strict profile: every entry point under node10, node16
 *    from CommonJS, node16 from ESM and bundler resolution; any problem fails;
 * 4. the licence: `license` is `MIT` in the packed `package.json`, and the tarball holds a
 *    `LICENSE` with the MIT text, the same as the repository's root `LICENSE`.
 *
 * The smoke test (scripts/smoke.mjs, which turbo runs after this) installs these tarballs from
 * `packed/` with the README's install lines.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { checkPackage, createPackageFromTarballData } from "@arethetypeswrong/core"
import { publint } from "publint"
import { formatMessage } from "publint/utils"
import { kB, packPackages, root, run } from "./lib.mjs"

const rootLicense = fs.readFileSync(path.join(root, "LICENSE"), "utf8")
let failed = false
for (const { pkg, tarball } of packPackages()) {
  const bytes = fs.readFileSync(tarball)
  console.log(`${pkg.name}@${pkg.version}: ${path.relative(root, tarball)}, ${kB(bytes.length)}`)

  // publint, on the files of the tarball.
  const { messages, pkg: packed } = await publint({
    pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) },
    level: "suggestion",
    strict: true
  })
  for (const message of messages) console.log(`  publint ${message.type}: ${formatMessage(message, packed)}`)
  const publintErrors = messages.filter((message) => message.type === "error").length
  console.log(
    `  publint: ${messages.length === 0 ? "no issues" : `${messages.length} message(s), ${publintErrors} error(s)`}`
  )

  // attw, on the tarball: as `attw <tarball>` with its default (strict) profile, which fails on
  // any problem under any of the four resolutions.
  const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(bytes)))
  const problems = analysis.types === false ? [] : analysis.problems
  const entrypoints = Object.keys(analysis.entrypoints ?? {})
  for (const problem of problems) console.log(`  attw: ${problem.kind} ${JSON.stringify(problem)}`)
  console.log(
    `  attw: ${entrypoints.length} entry points (${entrypoints.join(", ")}) x node10, node16-cjs, node16-esm, bundler: ${
      analysis.types === false ? "no types" : problems.length === 0 ? "no problems" : `${problems.length} problem(s)`
    }`
  )

  // The licence, as published: the field and the text, both.
  const licenseText = (() => {
    try {
      return run("tar", ["-xzOf", tarball, "package/LICENSE"], { capture: true })
    } catch {
      return undefined
    }
  })()
  const licenseProblems = [
    ...(packed.license === "MIT" ? [] : [`package.json's license is ${JSON.stringify(packed.license)}, not "MIT"`]),
    ...(licenseText === undefined ? ["the tarball has no LICENSE"] : []),
    ...(licenseText !== undefined && licenseText !== rootLicense ? ["its LICENSE differs from the repository's"] : [])
  ]
  console.log(`  licence: ${licenseProblems.length === 0 ? "MIT, LICENSE included" : licenseProblems.join("; ")}`)

  if (publintErrors > 0 || analysis.types === false || problems.length > 0 || licenseProblems.length > 0) failed = true
}
if (failed) process.exit(1)
