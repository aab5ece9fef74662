#!/usr/bin/env node
/**
 * Last step of the demo's build, run in its directory: bundles the command (`src/bin.ts`,
 * everything it imports included, the workspace packages as built) into one minified ES module,
 * `dist/bin.js`, over the one `tsc` wrote, with the emulator's build's esbuild options for its
 * command (`nodeCommand`, scripts/bundle-bin.mjs). Node then reads and compiles one file instead
 * of resolving and loading some hundreds of modules: `--version` takes about a third of the CPU
 * time it took. Bundled from the source each time, never from `dist` (which holds the last
 * bundle). No source map.
 */
import * as esbuild from "esbuild"
import { nodeCommand } from "../../scripts/bundle-bin.mjs"

await esbuild.build({ ...nodeCommand, entryPoints: ["src/bin.ts"], outfile: "dist/bin.js", allowOverwrite: true })
