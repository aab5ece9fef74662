/**
 * Helpers shared by the release scripts: run a command, run the pinned pnpm, pack the published
 * packages.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

/** The repository root. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")

/** The pnpm this repository pins (`packageManager`), for when `pnpm` is not on PATH. */
export const pinnedPnpm = "pnpm@10.34.9"

/**
 * Runs `command` with `args`, inheriting stdio unless `capture` (then returns stdout, or stdout
 * and stderr with `merge`); throws with the command line and its output when it exits non-zero.
 */
export const run = (command, args, { cwd = process.cwd(), capture = false, env = process.env, merge = false } = {}) => {
  const result = spawnSync(command, args, {
    cwd,
    env,
    encoding: "utf8",
    stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit",
    maxBuffer: 64 * 1024 * 1024
  })
  if (result.error) throw result.error
  if (result.status !== 0) {
    const output = capture ? `\n${result.stdout}${result.stderr}` : ""
    throw new Error(`${command} ${args.join(" ")} (in ${cwd}) exited with ${result.status}${output}`)
  }
  return merge ? `${result.stdout}${result.stderr}` : (result.stdout ?? "")
}

/**
 * Runs pnpm: the one on PATH (package scripts run under the pinned pnpm, which puts itself
 * there), else the pinned one through npx.
 */
export const pnpm = (args, options) => {
  try {
    return run("pnpm", args, options)
  } catch (error) {
    if (error?.code !== "ENOENT") throw error
    return run("npx", ["-y", pinnedPnpm, ...args], options)
  }
}

/** `bytes` as `12.3 kB` (1 kB = 1000 bytes, as npm and bundlers print). */
export const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`

/** The published packages (`packages/<name>`), in the order they depend on each other. */
export const published = ["core", "client", "testing", "emulator"]

/** Where the tarballs go: `packed/` at the repository root. */
export const packedDir = path.join(root, "packed")

/**
 * The tarball of `name` (`core`, `client`, `testing`, `emulator`) in {@link packedDir}:
 * `dbplatform-<name>.tgz`, no version in the name, so that the README's install lines stay true.
 */
export const tarballOf = (name) => path.join(packedDir, `dbplatform-${name}.tgz`)

/**
 * Packs the published packages, built, into {@link packedDir} as {@link tarballOf} names them, each
 * as `pnpm publish` would send it (`workspace:^` replaced by the version, only `files` kept): one
 * `pnpm pack` over the four (one pnpm process), into a scratch folder, then moved. Returns
 * `{ name, dir, pkg, tarball }` per package, in {@link published}'s order.
 */
export const packPackages = () => {
  const packages = published.map((name) => {
    const dir = path.join(root, "packages", name)
    if (!fs.existsSync(path.join(dir, "dist"))) {
      throw new Error(`packages/${name}/dist is missing: build first (\`pnpm pack-packages\` does)`)
    }
    return {
      name,
      dir,
      pkg: JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")),
      tarball: tarballOf(name)
    }
  })
  fs.mkdirSync(packedDir, { recursive: true })
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "dbplatform-pack-"))
  try {
    const filters = packages.flatMap(({ pkg }) => ["--filter", pkg.name])
    const results = JSON.parse(
      pnpm([...filters, "pack", "--pack-destination", scratch, "--json"], { cwd: root, capture: true })
    )
    for (const p of packages) {
      const result = [results].flat().find((r) => r.name === p.pkg.name)
      if (result === undefined) throw new Error(`pnpm pack wrote no tarball for packages/${p.name}`)
      fs.copyFileSync(result.filename, p.tarball)
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true })
  }
  return packages
}
