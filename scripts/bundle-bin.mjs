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
 */
import * as fs from "node:fs"
import * as esbuild from "esbuild"

const outdir = "dist/esm/bin"
await esbuild.build({
  entryPoints: { emulator: "src/bin/emulator.ts", ddlWorker: "src/internal/ddlWorker.ts" },
  outdir,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  minify: true,
  logLevel: "warning",
  // The CommonJS modules in the bundle (`ws`, `yaml`...) `require` Node's own modules.
  banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' }
})
for (const name of ["emulator", "ddlWorker"]) fs.rmSync(`${outdir}/${name}.js.map`, { force: true })
