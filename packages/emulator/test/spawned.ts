/**
 * The shipped command (`dist/esm/bin/emulator.js`, built before the tests by turbo) as a child
 * process, for the tests that drive it over HTTP with `fetch` and its control API: start it, call
 * its platform routes and its control routes, kill it. Nothing here waits for time to pass: each
 * step waits for an event (a line printed, an answer, an exit).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { expect } from "vitest"

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

/**
 * Restarts of the emulator on one `--state` file with a frozen clock, for the kill -9 tests:
 * `restart(args)` starts it (with `env`), freezes its clock and moves it past every operation
 * saved; `advance(running, ms, answers)` moves the clock on by `ms`, a failure being one only
 * while `answers()` says the emulator should answer. A restarted emulator resumes its clock where
 * the state left it (clockCrash.test.ts holds it to that); the restart moves it on by every
 * advance asked for since the last start (answered or not) plus `longestChange` ms, the longest
 * run of operations one change starts, so that the operations of a change that got no answer
 * have ended too. (Before 0.5.0 the clock started from real time again: that move made up for it.)
 */
export const frozenRestarts = (
  state: string,
  env: { readonly DBPLATFORM_EMULATOR_KEY: string; readonly DBPLATFORM_EMULATOR_TOKEN: string },
  longestChange: number
) => {
  const token = env.DBPLATFORM_EMULATOR_TOKEN
  let ahead = 0
  const advance = async (running: Running, ms: number, answers: () => boolean) => {
    ahead += ms
    try {
      const answer = await send("POST", `${running.controlUrl}/clock/advance`, token, { by: ms })
      expect(answer.status).toBe(200)
    } catch (error) {
      if (answers()) throw error
    }
  }
  const restart = async (args: ReadonlyArray<string>) => {
    const running = await start(["--state", state, ...args, "--port", "0"], env)
    expect((await send("POST", `${running.controlUrl}/clock/freeze`, token)).status).toBe(200)
    const behind = ahead + longestChange
    ahead = 0
    await advance(running, behind, () => true)
    return running
  }
  return { advance, restart }
}
