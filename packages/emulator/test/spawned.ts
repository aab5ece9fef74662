/**
 * The shipped command (`dist/esm/bin/emulator.js`, built before the tests by turbo) as a child
 * process, for the tests that drive it over HTTP with `fetch` and its control API: start it, call
 * its platform routes and its control routes, kill it. Nothing here waits for time to pass: each
 * step waits for an event (a line printed, an answer, an exit).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"

export const bin = fileURLToPath(new URL("../dist/esm/bin/emulator.js", import.meta.url))

/** A started emulator. */
export interface Running {
  readonly child: ChildProcess
  /** `DBPLATFORM_BASE_URL`, e.g. `http://127.0.0.1:4010/api/v2`. */
  readonly baseUrl: string
  /** `DBPLATFORM_EMULATOR_URL`, e.g. `http://127.0.0.1:4010/_emulator`. */
  readonly controlUrl: string
  readonly stderr: () => string
  readonly exited: Promise<number | null>
}

/**
 * Starts the emulator with `args` and `env` added to this process's environment; resolves once
 * it printed its base URL and control URL (or only its base URL with `--no-control`), rejects if
 * it exits first.
 */
export const start = (args: ReadonlyArray<string>, env: Record<string, string> = {}): Promise<Running> => {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: build the package first (pnpm build)`)
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let stdout = ""
  let stderr = ""
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk
  })
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk
      const baseUrl = /^DBPLATFORM_BASE_URL=(.+)$/m.exec(stdout)?.[1]
      const controlUrl = /^DBPLATFORM_EMULATOR_URL=(.+)$/m.exec(stdout)?.[1]
      if (baseUrl !== undefined && (controlUrl !== undefined || args.includes("--no-control"))) {
        resolve({ child, baseUrl, controlUrl: controlUrl ?? "", stderr: () => stderr, exited })
      }
    })
    exited.then((code) => reject(new Error(`the emulator exited (${code}) before it was ready: ${stderr}`)))
  })
}

/** An answer: its status and its JSON body (`undefined` when it has none, e.g. a 204). */
export interface Answer {
  readonly status: number
  readonly body: any
}

/** Sends `method url` with `Authorization: Bearer <credential>` and `body` as JSON, if any. */
export const send = async (method: string, url: string, credential: string, body?: unknown): Promise<Answer> => {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${credential}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
}

/** A small seeded RNG (mulberry32): the same numbers every run, so a failure replays. */
export const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
