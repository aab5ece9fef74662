/**
 * The command (bundled from the sources as its build bundles it, by test/globalSetup.ts) as a child
 * process, for the tests that drive it over HTTP: start it, call its platform routes with `fetch`
 * and its control routes with the typed client (`ControlApi.client`), kill it. Nothing here waits
 * for time to pass: each step waits for an event (a line printed, an answer, an exit).
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { ControlApi } from "@dbplatform/testing"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { inject } from "vitest"

/** The command, bundled from the sources before the tests (test/globalSetup.ts). */
export const bin = inject("emulatorBin")

/** A started emulator. */
export interface Running {
  readonly child: ChildProcess
  /** `DBPLATFORM_BASE_URL`, e.g. `http://127.0.0.1:4010/api/v2`. */
  readonly baseUrl: string
  /** `DBPLATFORM_EMULATOR_URL`, e.g. `http://127.0.0.1:4010/_emulator`. */
  readonly controlUrl: string
  readonly stderr: () => string
  readonly exited: Promise<number | null>
  /**
   * Runs `call` on the typed client of its control API (`ControlApi.client` over `fetch`, with
   * the token it printed), as a Promise: a refusal rejects with its `ControlError` (status and
   * body). Rejects at once with `--no-control`.
   */
  readonly control: <A, E>(call: (control: ControlApi.Client) => Effect.Effect<A, E>) => Promise<A>
}

/**
 * Runs `call` on the typed client of the control API at `url` with `token`, over `fetch`. The
 * client is made once, at the first call (made for each call, it was most of what the kill -9
 * tests' own process spent on their many clock advances).
 */
export const control = (url: string, token: string) => {
  let made: Promise<ControlApi.Client> | undefined
  return <A, E>(call: (control: ControlApi.Client) => Effect.Effect<A, E>): Promise<A> => {
    made ??= Effect.runPromise(
      ControlApi.client({ url, token: Redacted.make(token) }).pipe(Effect.provide(FetchHttpClient.layer))
    )
    return made.then((client) => Effect.runPromise(call(client)))
  }
}

/**
 * Starts the emulator with `args` and `env` added to this process's environment; resolves once
 * it printed its base URL, control URL and control token (unless `env` gives it:
 * `DBPLATFORM_EMULATOR_TOKEN`), or only its base URL with `--no-control`; rejects if it exits
 * first.
 */
export const start = (args: ReadonlyArray<string>, env: Record<string, string> = {}): Promise<Running> => {
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
      // A token given in the environment is not printed.
      const token = env.DBPLATFORM_EMULATOR_TOKEN ?? /^DBPLATFORM_EMULATOR_TOKEN=(.+)$/m.exec(stdout)?.[1]
      const off = args.includes("--no-control")
      if (baseUrl !== undefined && ((controlUrl !== undefined && token !== undefined) || off)) {
        resolve({
          child,
          baseUrl,
          controlUrl: controlUrl ?? "",
          stderr: () => stderr,
          exited,
          control: off
            ? () => Promise.reject(new Error("the emulator was started with --no-control"))
            : control(controlUrl!, token!)
        })
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
  // A `FormData` body goes as multipart/form-data, fetch writing its boundary (a function's deployment).
  const response = await fetch(url, {
    method,
    headers:
      body instanceof FormData
        ? { authorization: `Bearer ${credential}` }
        : { authorization: `Bearer ${credential}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: body instanceof FormData ? body : JSON.stringify(body) })
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
  let ahead = 0
  const advance = async (running: Running, ms: number, answers: () => boolean) => {
    ahead += ms
    try {
      await running.control((control) => control.advance({ payload: { by: ms } }))
    } catch (error) {
      if (answers()) throw error
    }
  }
  const restart = async (args: ReadonlyArray<string>) => {
    const running = await start(["--state", state, ...args, "--port", "0"], env)
    await running.control((control) => control.freeze())
    const behind = ahead + longestChange
    ahead = 0
    await advance(running, behind, () => true)
    return running
  }
  return { advance, restart }
}
