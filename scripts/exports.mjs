#!/usr/bin/env node
/**
 * The `exports` map of a publishable package, from its modules: one entry per `src/*.ts`
 * (`index.ts` is `.`), each with ESM (`import`) and CommonJS (`require`) files and their own
 * declaration files, plus `./internal/*: null` and `./package.json`; `typesVersions` for
 * `moduleResolution: node10`; `main`, `module` and `types` for tools that read no `exports`.
 *
 *   node scripts/exports.mjs [--write] [package dir...]   (default: packages/*)
 *
 * Without `--write` it checks and exits 1 naming each package whose package.json differs, so
 * a module added under `src/` without an entry fails CI; with `--write` it updates them.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const args = process.argv.slice(2)
const write = args.includes("--write")
const dirs = args.filter((arg) => !arg.startsWith("--"))
const packages = (
  dirs.length > 0
    ? dirs.map((dir) => path.resolve(dir))
    : fs.readdirSync(path.join(root, "packages")).map((name) => path.join(root, "packages", name))
).filter((dir) => fs.existsSync(path.join(dir, "package.json")))

const entry = (module) => ({
  import: { types: `./dist/esm/${module}.d.ts`, default: `./dist/esm/${module}.js` },
  require: { types: `./dist/cjs/${module}.d.ts`, default: `./dist/cjs/${module}.js` }
})

/** The package.json with `main`, `module`, `types`, `exports` and `typesVersions` derived from `src/`. */
const derive = (pkg, modules) => {
  const exports = { ".": entry("index") }
  for (const module of modules) exports[`./${module}`] = entry(module)
  exports["./internal/*"] = null
  exports["./package.json"] = "./package.json"
  const typesVersions = { "*": Object.fromEntries(modules.map((m) => [m, [`./dist/cjs/${m}.d.ts`]])) }
  // Keep the key order of the file; put new keys after `files`.
  const derived = {
    main: "./dist/cjs/index.js",
    module: "./dist/esm/index.js",
    types: "./dist/cjs/index.d.ts",
    exports,
    typesVersions
  }
  const out = {}
  for (const [key, value] of Object.entries(pkg)) {
    if (key in derived) continue
    out[key] = value
    if (key === "files") Object.assign(out, derived)
  }
  if (!("files" in pkg)) Object.assign(out, derived)
  return out
}

let stale = 0
for (const dir of packages) {
  const file = path.join(dir, "package.json")
  const text = fs.readFileSync(file, "utf8")
  const pkg = JSON.parse(text)
  if (pkg.private) continue
  const modules = fs
    .readdirSync(path.join(dir, "src"))
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts") && name !== "index.ts")
    .map((name) => name.slice(0, -".ts".length))
    .sort()
  const next = `${JSON.stringify(derive(pkg, modules), null, 2)}\n`
  if (next === text) continue
  if (write) {
    fs.writeFileSync(file, next)
    console.log(`updated ${path.relative(root, file)}`)
  } else {
    stale++
    console.error(
      `${path.relative(root, file)}: exports do not match src/ (modules: ${modules.join(", ")}); run node scripts/exports.mjs --write`
    )
  }
}
if (stale > 0) process.exit(1)
