/**
 * Helpers shared by the release scripts: run a command, run the pinned pnpm.
 */
import { spawn, spawnSync } from "node:child_process"
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

/** Like {@link run} with `capture`, without blocking: resolves to stdout, rejects with the output. */
export const runAsync = (command, args, { cwd = process.cwd(), env = process.env } = {}) =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    child.stdout.on("data", (chunk) => {
      out += chunk
    })
    child.stderr.on("data", (chunk) => {
      out += chunk
    })
    child.on("error", reject)
    child.on("close", (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`${command} ${args.join(" ")} (in ${cwd}) exited with ${code}\n${out}`))
    )
  })

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
