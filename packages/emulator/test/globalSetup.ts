/**
 * Before the emulator's tests: bundles the command as its build does (`scripts/bundle-bin.mjs`),
 * but from the sources of this package and of the workspace packages it uses, as vitest reads
 * them, into a folder of this run (under `node_modules/.cache`, inside the package so that the
 * command finds its `package.json` for `--version`). The tests that run the command as a child
 * process (`spawned.ts`, bin.test.ts, host.test.ts, http-only.test.mjs) run that bundle
 * (`inject("emulatorBin")`): they need no build of any package, so turbo starts them at once
 * (packages/emulator/turbo.json), and never run output older than the sources. The packed
 * package, built as it ships, is run by the smoke test (scripts/smoke.mjs).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type { TestProject } from "vitest/node"
// @ts-expect-error: a plain ES module script without types.
import { bundleBin } from "../../../scripts/bundle-bin.mjs"

declare module "vitest" {
  export interface ProvidedContext {
    /** The bundled command, `<folder>/emulator.js`; `load.js` and `ddlWorker.js` beside it. */
    emulatorBin: string
  }
}

const packageDir = fileURLToPath(new URL("..", import.meta.url))

export default async function setup(project: TestProject) {
  const cache = path.join(packageDir, "node_modules", ".cache")
  mkdirSync(cache, { recursive: true })
  const outdir = mkdtempSync(path.join(cache, "test-bin-"))
  await bundleBin({ packageDir, outdir, fromSources: true })
  // The bundles are ES modules. Node looks for the nearest package.json for a file's format, and
  // stops at `node_modules`: without this one it would read each 1.5 MB file as CommonJS first,
  // fail on its first `import`, and read it again as an ES module, at every start of the command
  // and of the parser's thread. It has no name: the command's `--version` reads the package's.
  writeFileSync(path.join(outdir, "package.json"), `${JSON.stringify({ type: "module" })}\n`)
  project.provide("emulatorBin", path.join(outdir, "emulator.js"))
  return () => rmSync(outdir, { recursive: true, force: true })
}
