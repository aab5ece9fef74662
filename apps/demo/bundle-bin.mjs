#!/usr/bin/env node
/**
 * Last step of the demo's build, run in its directory: bundles the command (`src/bin.ts`,
 * everything it imports included, the workspace packages as built) into one minified ES module,
 * `dist/bin.js`, over the one `tsc` wrote, as the emulator's build does for its command
 * (scripts/bundle-bin.mjs). Node then reads and compiles one file instead of resolving and loading
 * some hundreds of modules: `--version` takes about a third of the CPU time it took. Bundled from
 * the source each time, never from `dist` (which holds the last bundle). No source map.
 */
import * as esbuild from "esbuild"

await esbuild.build({
  entryPoints: ["src/bin.ts"],
  outfile: "dist/bin.js",
  allowOverwrite: true,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  minify: true,
  logLevel: "warning",
  // The CommonJS modules in the bundle `require` Node's own modules.
  banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' }
})
