#!/usr/bin/env node
/**
 * Smoke test of the packed packages, as a user meets them: runs the root README's "Install from
 * a clone" steps and checks what they give. The tarballs are those in `packed/` that the pack
 * check (scripts/pack-check.mjs, turbo's `//#pack-check`, which this task follows) packed and
 * checked, the same bytes `pnpm pack-packages` writes: packed once for both. Run alone, it packs
 * them again (as `pnpm pack-packages` does, the packages built) when a tarball is missing or older
 * than a file it packs. Then, in a new project outside the workspace (in the OS temp folder), the
 * README's `npm install` lines are run as written, one after the other, the clone's path put in
 * for theirs. Every install line of the READMEs (the root README's `npm install` lines and the
 * packages' `pnpm add` lines, for after the first release) must name `effect`,
 * `@effect/platform` and every other package outside @dbplatform with a range on the Effect 3
 * line, the same in every README. Then
 *
 * 1. typechecks `smoke/program.mts` (ESM) and `smoke/program.cts` (CommonJS) with
 *    `moduleResolution: node16` and compiles them, and typechecks both with
 *    `moduleResolution: bundler` (`module: preserve`): one `tsc -b` over the two tsconfigs, one
 *    process, which parses the declarations they share once;
 * 2. runs the compiled ESM program and the CommonJS one with node, against the fake platform
 *    (`@dbplatform/testing`'s `DbPlatformTest.layer`);
 * 3. runs the installed emulator's command (`node_modules/.bin/dbplatform-emulator`, from the
 *    project, not the clone): starts it on a free port, sends it one request (`GET /projects`
 *    with the key it printed: 200), stops it with SIGTERM (exit code 0); and imports its library
 *    (`@dbplatform/emulator`) from the project.
 *
 * npm installs with `--prefer-offline`: from its cache when it holds a package, else from the
 * registry (a first run on a machine, or with an empty `HOME`, downloads effect, vitest and
 * typescript). Keeps the project when a step fails, and says where it is.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { spawn } from "node:child_process"
import { packPackages, published, root, run, tarballOf } from "./lib.mjs"

const started = Date.now()
const fixture = path.join(root, "scripts", "smoke")
const readJson = (file) => JSON.parse(fs.readFileSync(file, "utf8"))

const publishable = published.map((name) => {
  const pkg = readJson(path.join(root, "packages", name, "package.json"))
  return { name: pkg.name, pkg }
})

/** An install line's word naming a tarball `pack-packages` writes: `<clone>/packed/dbplatform-<name>.tgz`. */
const packedTarball = /(?:^|\/)packed\/(dbplatform-[a-z]+\.tgz)$/

/**
 * What the READMEs tell a user to install: every `npm install` line of a ```sh block in the root
 * README (kept, as `npm`, the lines the smoke test runs) and every `pnpm add` line of the root
 * README and the packages' READMEs, as `{ name: range }` for `dependencies` and (`-D`)
 * `devDependencies`. Each package named outside @dbplatform must carry a range (a bare `effect`
 * gets Effect 4 from npm's `latest`), and the same range in every README; an @dbplatform package
 * is named by its tarball in an `npm install` line.
 */
const readmeInstall = () => {
  const found = { dependencies: {}, devDependencies: {}, npm: [] }
  const seen = new Map()
  const readmes = ["README.md", ...published.map((name) => path.join("packages", name, "README.md"))]
  for (const readme of readmes) {
    const text = fs.readFileSync(path.join(root, readme), "utf8")
    for (const [, block] of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
      for (const line of block.split("\n")) {
        const words = line.replace(/#.*/, "").trim().split(/\s+/)
        const npm = words[0] === "npm" && words[1] === "install"
        if (!npm && !(words[0] === "pnpm" && words[1] === "add")) continue
        if (npm && readme !== "README.md") throw new Error(`${readme}: npm install lines belong in the root README`)
        const dev = words.includes("-D")
        const specs = words.slice(2).filter((word) => !word.startsWith("-"))
        if (npm) found.npm.push(words.slice(2))
        for (const spec of specs) {
          const tarball = spec.match(packedTarball)
          if (tarball !== null) {
            if (!npm) throw new Error(`${readme}: \`${line.trim()}\` installs a tarball with pnpm`)
            const name = tarball[1].replace(/^dbplatform-/, "@dbplatform/").replace(/\.tgz$/, "")
            found[dev ? "devDependencies" : "dependencies"][name] = "tarball"
            continue
          }
          const at = spec.lastIndexOf("@")
          const [name, range] = at > 0 ? [spec.slice(0, at), spec.slice(at + 1)] : [spec, undefined]
          if (name.startsWith("@dbplatform/")) {
            if (npm)
              throw new Error(`${readme}: \`${line.trim()}\` installs ${name} from the registry, where it is not yet`)
            continue
          }
          if (range === undefined) throw new Error(`${readme}: \`${line.trim()}\` installs ${name} without a range`)
          if (seen.has(name) && seen.get(name).range !== range) {
            throw new Error(
              `${readme} installs ${name}@${range}, ${seen.get(name).readme} ${name}@${seen.get(name).range}`
            )
          }
          seen.set(name, { range, readme })
          if (npm) found[dev ? "devDependencies" : "dependencies"][name] = range
        }
      }
    }
  }
  for (const name of ["effect", "@effect/platform"]) {
    if (found.dependencies[name] === undefined) throw new Error(`no npm install line of the README names ${name}`)
  }
  for (const { name } of publishable) {
    if (found.dependencies[name] === undefined && found.devDependencies[name] === undefined) {
      throw new Error(`no npm install line of the README installs ${name}'s tarball`)
    }
  }
  return found
}

// The READMEs' ranges, and the ranges the published packages declare (peer dependencies, and the
// emulator's dependencies), must stay on the Effect 3 line: a caret range of effect 3 and of
// @effect/platform 0.97 (a 0.x caret stops at the minor), which no Effect 4 release satisfies.
const effect3 = { effect: /^\^3\.\d+(\.\d+)?$/, "@effect/platform": /^\^0\.97(\.\d+)?$/ }
const readme = readmeInstall()
const declared = [
  ["the README's install lines", readme.dependencies],
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

// The README's first step, in this clone: the packages (built by turbo before this task) packed,
// by the pack check before this task; again here if a tarball is missing or older than a file it
// packs (a run alone, after a change).
if (!packedIsCurrent()) {
  console.log("packed/ is missing or older than the packages: packing them (as `pnpm pack-packages` does)")
  packPackages()
}
/** An install line's words, the clone's `packed/` put in for the README's. */
const inThisClone = (words) =>
  words.map((word) => {
    const tarball = word.match(packedTarball)
    return tarball === null ? word : path.join(root, "packed", tarball[1])
  })
console.log(`as the README says: ${readme.npm.map((words) => `npm install ${words.join(" ")}`).join("; ")}`)

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dbplatform-smoke-"))
let ok = false
try {
  // The project: only the typescript the checks below need, at the workspace's version.
  const rootPkg = readJson(path.join(root, "package.json"))
  fs.writeFileSync(
    path.join(dir, "package.json"),
    `${JSON.stringify({ name: "dbplatform-smoke", private: true, devDependencies: { typescript: rootPkg.devDependencies.typescript } }, null, 2)}\n`
  )
  for (const file of fs.readdirSync(fixture)) fs.copyFileSync(path.join(fixture, file), path.join(dir, file))

  // npm, without the settings pnpm and turbo pass to the scripts they run (npm_config_*).
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)))
  for (const words of readme.npm) {
    run("npm", ["install", ...inThisClone(words), "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: dir,
      capture: true,
      env
    })
  }
  console.log(`installed in ${dir} with npm ${run("npm", ["--version"], { cwd: dir, capture: true, env }).trim()}`)
  // The @dbplatform packages came from the tarballs, not a registry.
  const project = readJson(path.join(dir, "package.json"))
  for (const { name } of publishable) {
    const spec = project.dependencies?.[name] ?? project.devDependencies?.[name]
    if (!spec?.startsWith("file:")) throw new Error(`${name} is installed as ${spec}, not from its tarball`)
  }
  const installed = (name) => readJson(path.join(dir, "node_modules", name, "package.json")).version
  const versions = [...publishable.map((p) => p.name), ...Object.keys(readme.dependencies)]
    .filter((name, i, names) => names.indexOf(name) === i)
    .map((name) => `${name}@${installed(name)}`)
  console.log(`installed: ${versions.join(", ")}`)
  if (!installed("effect").startsWith("3.")) throw new Error(`effect ${installed("effect")} installed, not Effect 3`)

  // Both typechecks in one process: `tsc -b` builds the two projects one after the other and
  // parses and binds the declarations they share (effect's, ours: about 660 files) once.
  run(path.join(dir, "node_modules", ".bin", "tsc"), ["-b", "tsconfig.node16.json", "tsconfig.bundler.json"], {
    cwd: dir,
    capture: true
  })
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
  await runEmulator(dir, env)
  ok = true
  console.log(`smoke test passed in ${((Date.now() - started) / 1000).toFixed(1)} s`)
} finally {
  if (ok) fs.rmSync(dir, { recursive: true, force: true })
  else console.error(`smoke test failed; the project is kept in ${dir}`)
}

/**
 * Whether every tarball in `packed/` is there and no older than what `pnpm pack` would put in it
 * or read for it: the package's `package.json` (and those of the other published packages, whose
 * versions replace `workspace:^`), its `LICENSE`, and the files and folders its `files` names.
 */
function packedIsCurrent() {
  const newest = (file) => {
    if (!fs.existsSync(file)) return 0
    const stat = fs.statSync(file)
    if (!stat.isDirectory()) return stat.mtimeMs
    let latest = stat.mtimeMs
    for (const entry of fs.readdirSync(file)) latest = Math.max(latest, newest(path.join(file, entry)))
    return latest
  }
  const shared = Math.max(...published.map((name) => newest(path.join(root, "packages", name, "package.json"))))
  return publishable.every(({ pkg }, i) => {
    const tarball = tarballOf(published[i])
    if (!fs.existsSync(tarball)) return false
    const dir = path.join(root, "packages", published[i])
    const inputs = Math.max(shared, ...["LICENSE", ...(pkg.files ?? [])].map((file) => newest(path.join(dir, file))))
    return fs.statSync(tarball).mtimeMs >= inputs
  })
}

/**
 * The emulator as installed in `dir`: its command, from the project's `node_modules/.bin` (the
 * package's own `bin`, not the clone's), started on a free port; one request to it with the key it
 * printed (`GET /projects`, 200); a migration through its control API (200: the SQL parser's
 * worker thread, `ddlWorker.js`, is there next to the command and the library modules that start
 * it); stopped with SIGTERM (exit code 0, `dbplatform-emulator: stopped` on stderr). Then its
 * library, imported from the project. Gives the start 60 s, the stop 30 s (a busy machine), then
 * fails.
 */
async function runEmulator(dir, env) {
  const bin = path.join(
    dir,
    "node_modules",
    ".bin",
    process.platform === "win32" ? "dbplatform-emulator.cmd" : "dbplatform-emulator"
  )
  const real = fs.realpathSync(bin)
  if (!real.startsWith(fs.realpathSync(path.join(dir, "node_modules", "@dbplatform", "emulator")) + path.sep)) {
    throw new Error(`dbplatform-emulator resolves to ${real}, not to the installed package`)
  }
  const child = spawn(bin, ["--port", "0"], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] })
  let stdout = ""
  let stderr = ""
  child.stdout.setEncoding("utf8").on("data", (chunk) => {
    stdout += chunk
  })
  child.stderr.setEncoding("utf8").on("data", (chunk) => {
    stderr += chunk
  })
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve(code ?? signal)))
  /** Waits for `ready` or the exit, failing after `ms`. */
  const within = (promise, ms, what) => {
    let timer
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the installed emulator did not ${what} within ${ms / 1000} s: ${stderr}`)),
        ms
      )
    })
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
  }
  try {
    const printed = await within(
      new Promise((resolve, reject) => {
        const check = () => {
          const baseUrl = /^DBPLATFORM_BASE_URL=(.+)$/m.exec(stdout)?.[1]
          const apiKey = /^DBPLATFORM_API_KEY=(.+)$/m.exec(stdout)?.[1]
          const controlUrl = /^DBPLATFORM_EMULATOR_URL=(.+)$/m.exec(stdout)?.[1]
          const token = /^DBPLATFORM_EMULATOR_TOKEN=(.+)$/m.exec(stdout)?.[1]
          if (baseUrl !== undefined && apiKey !== undefined && controlUrl !== undefined && token !== undefined) {
            resolve({ baseUrl, apiKey, controlUrl, token })
          }
        }
        child.stdout.on("data", check)
        exited.then((code) =>
          reject(new Error(`the installed emulator exited (${code}) before it was ready: ${stderr}`))
        )
      }),
      60_000,
      "start"
    )
    const response = await fetch(`${printed.baseUrl}/projects`, {
      headers: { authorization: `Bearer ${printed.apiKey}` }
    })
    const body = await response.json()
    if (response.status !== 200 || !Array.isArray(body.projects)) {
      throw new Error(`GET /projects on the installed emulator answered ${response.status}: ${JSON.stringify(body)}`)
    }
    // A migration: parsed in the worker thread the package ships next to the command and the library.
    const installed = path.join(dir, "node_modules", "@dbplatform", "emulator", "dist")
    for (const worker of ["esm/bin/ddlWorker.js", "esm/internal/ddlWorker.js", "cjs/internal/ddlWorker.js"]) {
      if (!fs.existsSync(path.join(installed, worker))) throw new Error(`the installed emulator has no dist/${worker}`)
    }
    const get = async (url) => (await fetch(url, { headers: { authorization: `Bearer ${printed.apiKey}` } })).json()
    const project = body.projects[0].id
    const branch = (await get(`${printed.baseUrl}/projects/${project}/branches`)).branches.find((b) => b.default).id
    const database = (await get(`${printed.baseUrl}/projects/${project}/branches/${branch}/databases`)).databases[0]
      .name
    const migrated = await fetch(
      `${printed.controlUrl}/projects/${project}/branches/${branch}/databases/${encodeURIComponent(database)}/migrate`,
      {
        method: "POST",
        headers: { authorization: `Bearer ${printed.token}`, "content-type": "application/json" },
        body: JSON.stringify({ sql: "CREATE TABLE smoke (id bigint PRIMARY KEY)" })
      }
    )
    if (migrated.status !== 200) {
      throw new Error(`a migration on the installed emulator answered ${migrated.status}: ${await migrated.text()}`)
    }
    console.log(`a migration through the installed emulator's control API: ${migrated.status}`)
    const version = run(bin, ["--version"], { cwd: dir, capture: true, env }).trim()
    console.log(
      `node_modules/.bin/dbplatform-emulator ${version} -> ${printed.baseUrl}; GET /projects: ${response.status}, ${body.projects.length} projects`
    )
  } finally {
    if (child.exitCode === null) child.kill("SIGTERM")
  }
  const code = await within(exited, 30_000, "stop after SIGTERM")
  if (code !== 0 || stderr.trim() !== "dbplatform-emulator: stopped") {
    throw new Error(`the installed emulator exited with ${code} after SIGTERM: ${stderr}`)
  }
  console.log("dbplatform-emulator: stopped with SIGTERM, exit code 0")
  const exported = run(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `import("@dbplatform/emulator").then((m) => console.log(Object.keys(m).sort().join(" ")))`
    ],
    { cwd: dir, capture: true, env }
  ).trim()
  if (!exported.includes("Emulator") || !exported.includes("StateFile")) {
    throw new Error(`@dbplatform/emulator, imported from the project, exports ${exported}`)
  }
  console.log(`import("@dbplatform/emulator") -> ${exported}`)
}
