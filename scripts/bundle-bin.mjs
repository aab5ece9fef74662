#!/usr/bin/env node
/**
 * Last step of the emulator's build, run in its package directory: bundles the command
 * (`src/bin/emulator.ts`, everything it imports included) into one minified ES module,
 * `dist/esm/bin/emulator.js`, over the one `tsc` wrote. Node then reads and compiles one file
 * instead of resolving and loading some 900 modules: the command starts in about a third of the
 * time (`pnpm bench` prints it). No source map (it would weigh 9 MB); the library modules
 * (`Emulator`, `StateFile`, `Load`) are not bundled. The entry of the SQL parser's worker thread
 * (`src/internal/ddlWorker.ts`) is bundled the same way next to it, as `dist/esm/bin/ddlWorker.js`,
 * where the bundled command's `internal/ddlThread.ts` looks for it (`./ddlWorker.js` from its own
 * file).
 *
 * `bundleBin` is also what the emulator's tests run before they start (test/globalSetup.ts): the
 * same bundle, with `fromSources` (the workspace packages read from their `src`, as vitest reads
 * them, so the tests need no build of them and never run stale output) and the load command
 * (`src/bin/load.ts`) bundled beside it, into a folder of their own.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as esbuild from "esbuild"

const packages = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../packages")

/** `@dbplatform/<core|client|testing>[/<Module>]` from its `src` (`index.ts` or `<Module>.ts`). */
const sources = {
  name: "workspace-sources",
  setup(build) {
    build.onResolve({ filter: /^@dbplatform\/(core|client|testing)(\/[A-Za-z]+)?$/ }, (args) => {
      const [, name, module] = /^@dbplatform\/([a-z]+)(?:\/([A-Za-z]+))?$/.exec(args.path)
      return { path: path.join(packages, name, "src", `${module ?? "index"}.ts`) }
    })
  }
}

/**
 * esbuild's options for a Node command bundled into one minified ES module, everything it imports
 * included: the emulator's (below) and the demo's (apps/demo/bundle-bin.mjs).
 */
export const nodeCommand = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  minify: true,
  logLevel: "warning",
  // The CommonJS modules in the bundle (`ws`, `yaml`...) `require` Node's own modules.
  banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' }
}

/**
 * Bundles the command and the worker's entry into `outdir`, from the package directory
 * `packageDir`; with `fromSources`, the workspace packages from their `src` and the load command too.
 */
export const bundleBin = async ({ packageDir, outdir, fromSources = false }) => {
  await esbuild.build({
    absWorkingDir: packageDir,
    entryPoints: {
      emulator: "src/bin/emulator.ts",
      ddlWorker: "src/internal/ddlWorker.ts",
      ...(fromSources ? { load: "src/bin/load.ts" } : {})
    },
    outdir,
    ...nodeCommand,
    plugins: fromSources ? [sources] : []
  })
  for (const name of ["emulator", "ddlWorker", "load"])
    fs.rmSync(path.join(packageDir, outdir, `${name}.js.map`), { force: true })
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await bundleBin({ packageDir: process.cwd(), outdir: "dist/esm/bin" })
}
