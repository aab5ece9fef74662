#!/usr/bin/env node
/**
 * Smoke test of the packed packages, as a user meets them: installs the tarballs that
 * `pack-check` left in `packages/<name>/.pack/` into a new project outside the workspace (in the
 * OS temp folder), with pnpm from the workspace's store, then
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

// The versions the workspace builds and tests with, so the store already has them.
const client = publishable.find((p) => p.name === "@dbplatform/client").pkg
const rootPkg = readJson(path.join(root, "package.json"))
const dependencies = {
  ...Object.fromEntries(publishable.map((p) => [p.name, `file:${p.tarball}`])),
  effect: client.devDependencies.effect,
  "@effect/platform": client.devDependencies["@effect/platform"]
}

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
        devDependencies: { typescript: rootPkg.devDependencies.typescript },
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
      `offline install failed (${String(error.message).split("\n").slice(-3).join(" ").trim()}); retrying with --prefer-offline`
    )
    install("--prefer-offline")
    console.log(`installed the tarballs in ${dir} (store ${storeDir}, registry for what it lacked)`)
  }
  const versions = publishable.map(
    (p) => `${p.name}@${readJson(path.join(dir, "node_modules", p.name, "package.json")).version}`
  )
  console.log(`installed: ${versions.join(", ")}`)

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
