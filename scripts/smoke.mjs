#!/usr/bin/env node
/**
 * Smoke test of the packed packages, as a user meets them: installs the tarballs that
 * `pack-check` left in `packages/<name>/.pack/` into a new project outside the workspace (in the
 * OS temp folder), with pnpm from the workspace's store, as the READMEs' install lines say (their
 * `pnpm add` lines are parsed: the @dbplatform names become the tarballs, every other package
 * keeps the README's range, e.g. `effect@^3.22`), then
 *
 * 1. typechecks `smoke/program.mts` (ESM) and `smoke/program.cts` (CommonJS) with
 *    `moduleResolution: node16` and compiles them;
 * 2. typechecks both with `moduleResolution: bundler` (`module: preserve`);
 * 3. runs the compiled ESM program and the CommonJS one with node, against the fake platform
 *    (`@dbplatform/testing`'s `DbPlatformTest.layer`).
 *
 * Installs offline from the store when it can (it can once the store holds every package, as
 * after `pnpm install` in the workspace), else with `--prefer-offline` (store first, registry
 * for the rest). Keeps the project when a step fails, and says where it is.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pnpm, root, run, runAsync } from "./lib.mjs"

const started = Date.now()
const fixture = path.join(root, "scripts", "smoke")
const readJson = (file) => JSON.parse(fs.readFileSync(file, "utf8"))

const publishable = ["core", "client", "testing"].map((name) => {
  const dir = path.join(root, "packages", name)
  const pkg = readJson(path.join(dir, "package.json"))
  const tarball = path.join(dir, ".pack", `${pkg.name.replace("@", "").replace("/", "-")}-${pkg.version}.tgz`)
  if (!fs.existsSync(tarball)) throw new Error(`${tarball} is missing: run the pack-check task first`)
  return { name: pkg.name, pkg, tarball }
})

/**
 * What the READMEs tell a user to install: every `pnpm add` line of a ```sh block in the root
 * README and the packages' READMEs, as `{ name: range }` for `dependencies` and (`-D`)
 * `devDependencies`. Each package named outside @dbplatform must carry a range (a bare `effect`
 * gets Effect 4 from npm's `latest`), and the same range in every README.
 */
const readmeInstall = () => {
  const found = { dependencies: {}, devDependencies: {} }
  const seen = new Map()
  const readmes = [
    "README.md",
    ...["core", "client", "testing"].map((name) => path.join("packages", name, "README.md"))
  ]
  for (const readme of readmes) {
    const text = fs.readFileSync(path.join(root, readme), "utf8")
    for (const [, block] of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
      for (const line of block.split("\n")) {
        const words = line.replace(/#.*/, "").trim().split(/\s+/)
        if (words[0] !== "pnpm" || words[1] !== "add") continue
        const dev = words.includes("-D")
        for (const spec of words.slice(2).filter((word) => !word.startsWith("-"))) {
          const at = spec.lastIndexOf("@")
          const [name, range] = at > 0 ? [spec.slice(0, at), spec.slice(at + 1)] : [spec, undefined]
          if (name.startsWith("@dbplatform/")) {
            found[dev ? "devDependencies" : "dependencies"][name] = "tarball"
            continue
          }
          if (range === undefined) throw new Error(`${readme}: \`${line.trim()}\` installs ${name} without a range`)
          if (seen.has(name) && seen.get(name).range !== range) {
            throw new Error(
              `${readme} installs ${name}@${range}, ${seen.get(name).readme} ${name}@${seen.get(name).range}`
            )
          }
          seen.set(name, { range, readme })
          found[dev ? "devDependencies" : "dependencies"][name] = range
        }
      }
    }
  }
  for (const name of ["effect", "@effect/platform"]) {
    if (found.dependencies[name] === undefined) throw new Error(`no README install line names ${name}`)
  }
  return found
}

// The READMEs' ranges, and the ranges the published packages declare (peer dependencies, and the
// emulator's dependencies), must stay on the Effect 3 line: a caret range of effect 3 and of
// @effect/platform 0.97 (a 0.x caret stops at the minor), which no Effect 4 release satisfies.
const effect3 = { effect: /^\^3\.\d+(\.\d+)?$/, "@effect/platform": /^\^0\.97(\.\d+)?$/ }
const readme = readmeInstall()
const declared = [
  ["the READMEs' install lines", readme.dependencies],
  ...publishable.map((p) => [`${p.name} peerDependencies`, p.pkg.peerDependencies ?? {}]),
  ["@dbplatform/emulator dependencies", readJson(path.join(root, "packages", "emulator", "package.json")).dependencies]
]
for (const [where, ranges] of declared) {
  for (const [dep, line] of Object.entries(effect3)) {
    if (ranges[dep] !== undefined && !line.test(ranges[dep])) {
      throw new Error(`${where}: ${dep} ${ranges[dep]} is not on the Effect 3 line`)
    }
  }
}

// The tarballs stand for the @dbplatform names; every other package at the README's range.
const tarballOf = Object.fromEntries(publishable.map((p) => [p.name, `file:${p.tarball}`]))
const withTarballs = (specs) =>
  Object.fromEntries(Object.entries(specs).map(([name, range]) => [name, tarballOf[name] ?? range]))
const dependencies = withTarballs(readme.dependencies)
const devDependencies = withTarballs(readme.devDependencies)
for (const name of Object.keys(dependencies)) delete devDependencies[name]
for (const { name } of publishable) {
  if (dependencies[name] === undefined && devDependencies[name] === undefined) {
    throw new Error(`no README install line names ${name}`)
  }
}
const rootPkg = readJson(path.join(root, "package.json"))
devDependencies.typescript = rootPkg.devDependencies.typescript
const specs = (ranges) =>
  Object.entries(ranges)
    .map(([name, range]) => (range === "tarball" ? name : `${name}@${range}`))
    .join(" ")
console.log(
  `as the READMEs say: pnpm add ${specs(readme.dependencies)}, pnpm add -D ${specs(readme.devDependencies)} (@dbplatform/* packed)`
)

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dbplatform-smoke-"))
let ok = false
try {
  fs.writeFileSync(
    path.join(dir, "package.json"),
    `${JSON.stringify(
      {
        name: "dbplatform-smoke",
        private: true,
        dependencies,
        devDependencies,
        // The tarballs depend on each other by version (^0.x); point those at the tarballs too.
        pnpm: { overrides: Object.fromEntries(publishable.map((p) => [p.name, `file:${p.tarball}`])) }
      },
      null,
      2
    )}\n`
  )
  for (const file of fs.readdirSync(fixture)) fs.copyFileSync(path.join(fixture, file), path.join(dir, file))

  const storeDir = pnpm(["store", "path"], { cwd: root, capture: true }).trim()
  const install = (mode) =>
    pnpm(["install", mode, "--store-dir", storeDir, "--config.confirmModulesPurge=false", "--reporter=silent"], {
      cwd: dir,
      capture: true,
      env: { ...process.env, npm_config_update_notifier: "false" }
    })
  try {
    install("--offline")
    console.log(`installed the tarballs in ${dir} offline, from the store ${storeDir}`)
  } catch (error) {
    console.log(
      `offline install failed (${String(error.message)
        .split("\n")
        .filter((line) => !line.startsWith("npm warn"))
        .slice(-3)
        .join(" ")
        .trim()}); retrying with --prefer-offline`
    )
    install("--prefer-offline")
    console.log(`installed the tarballs in ${dir} (store ${storeDir}, registry for what it lacked)`)
  }
  const installed = (name) => readJson(path.join(dir, "node_modules", name, "package.json")).version
  const versions = [...publishable.map((p) => p.name), ...Object.keys(readme.dependencies)]
    .filter((name, i, names) => names.indexOf(name) === i)
    .map((name) => `${name}@${installed(name)}`)
  console.log(`installed: ${versions.join(", ")}`)
  if (!installed("effect").startsWith("3.")) throw new Error(`effect ${installed("effect")} installed, not Effect 3`)

  const tsc = path.join(dir, "node_modules", ".bin", "tsc")
  // Both typechecks at once (each reads all of effect's declarations: about 5 s).
  await Promise.all([
    runAsync(tsc, ["-p", "tsconfig.node16.json"], { cwd: dir }),
    runAsync(tsc, ["-p", "tsconfig.bundler.json"], { cwd: dir })
  ])
  console.log("typecheck, moduleResolution node16 (program.mts as ESM, program.cts as CommonJS): ok")
  console.log("typecheck, moduleResolution bundler (module preserve): ok")
  const esm = run(process.execPath, [path.join("build", "program.mjs")], { cwd: dir, capture: true }).trim()
  console.log(`node build/program.mjs -> ${esm}`)
  const cjs = run(process.execPath, [path.join("build", "program.cjs")], { cwd: dir, capture: true }).trim()
  console.log(`node build/program.cjs -> ${cjs}`)
  // The CommonJS program must have loaded the CommonJS build, the ESM one the ESM build.
  const loaded = run(
    process.execPath,
    ["-e", `console.log(require.resolve("@dbplatform/client"), require.resolve("@dbplatform/testing"))`],
    { cwd: dir, capture: true }
  ).trim()
  if (!loaded.split(" ").every((file) => file.includes(`${path.sep}dist${path.sep}cjs${path.sep}`))) {
    throw new Error(`require resolved outside dist/cjs: ${loaded}`)
  }
  ok = true
  console.log(`smoke test passed in ${((Date.now() - started) / 1000).toFixed(1)} s`)
} finally {
  if (ok) fs.rmSync(dir, { recursive: true, force: true })
  else console.error(`smoke test failed; the project is kept in ${dir}`)
}
