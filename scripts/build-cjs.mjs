#!/usr/bin/env node
/**
 * Last step of a package's build, run in the package directory after Babel has written the
 * CommonJS JavaScript to `dist/cjs` (from the annotated ESM in `dist/esm`):
 *
 * - copies the declaration files (and their maps) from `dist/esm` to `dist/cjs`, so that
 *   `require` resolves types that TypeScript reads as CommonJS and `import` types read as ESM
 *   (no "masquerading" formats for `node16` resolution);
 * - writes `dist/cjs/package.json`, `{ "type": "commonjs", "sideEffects": false }`: the package
 *   is `"type": "module"`, and bundlers read `sideEffects` from the nearest package.json.
 */
import * as fs from "node:fs"
import * as path from "node:path"

const esm = path.resolve("dist/esm")
const cjs = path.resolve("dist/cjs")

const copyDeclarations = (from, to) => {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name)
    const target = path.join(to, entry.name)
    if (entry.isDirectory()) {
      fs.mkdirSync(target, { recursive: true })
      copyDeclarations(source, target)
    } else if (entry.name.endsWith(".d.ts") || entry.name.endsWith(".d.ts.map")) {
      fs.copyFileSync(source, target)
    }
  }
}

fs.mkdirSync(cjs, { recursive: true })
copyDeclarations(esm, cjs)
fs.writeFileSync(
  path.join(cjs, "package.json"),
  `${JSON.stringify({ type: "commonjs", sideEffects: false }, null, 2)}\n`
)
