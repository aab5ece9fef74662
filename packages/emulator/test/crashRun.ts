/**
 * The kill loop of the kill -9 tests (`*Crash.test.ts`, docs/contract.md §11 "acknowledged means
 * durable"): start the emulator on its `--state` file, check what survived, let workers change
 * things until a random number of changes were acknowledged, SIGKILL it there (other requests in
 * flight), and again, `kills` times; then a clean stop (SIGTERM, which folds the journal into the
 * state file) and a last start without `--seed` that reads it back, checked too.
 *
 * Each test keeps its own model of what was acknowledged and its own checks: this module only
 * runs the loop. The kill points come from a seeded RNG, so a failure replays.
 *
 * Time: each step of the loop (a start until the emulator is ready, the checks after it, a run
 * of the workers until the kill, an exit) is bounded by `stepBound`, and fails there, naming the
 * step; the loop as a whole takes what the machine needs (up to 24 starts of a Node process), so
 * its test has no timeout of its own (0). A bound on the whole test (300 s) failed at load 12 on
 * 2 cores though every step was answered.
 */
import { expect } from "vitest"
import { type Answer, random, type Running, send } from "./spawned.js"

/**
 * The longest one step of the loop may take, in ms: a start of the shipped command (about 1.5 s of
 * CPU), a round of checks or a run of the workers (tens of requests) takes seconds on a busy
 * machine; a step past this bound is stuck, not slow.
 */
export const stepBound = 180_000

/** `promise`, or a failure naming `step` once it has run `stepBound` ms (then `onLate` first). */
const bounded = <A>(step: string, promise: Promise<A>, onLate: () => void = () => {}): Promise<A> => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onLate()
      reject(new Error(`${step}: not done after ${stepBound / 1000} s`))
    }, stepBound)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

/** One run of the workers, between a start of the emulator and its kill. */
export interface CrashRun {
  /** Which run this is, from 0: for the workers' seeds. */
  readonly index: number
  readonly running: Running
  /** Whether the kill was sent: a request may then go without a (whole) answer. */
  readonly killed: boolean
  /** `!killed`, for `frozenRestarts`' `advance`: a failure is one only while the emulator answers. */
  readonly answers: () => boolean
  /**
   * Counts an acknowledged change (of `group`, from 0, with the option `groups`); at the kill
   * point, kills the emulator with SIGKILL.
   */
  readonly acknowledge: (group?: number) => void
  /**
   * `send`, or `undefined` when the emulator was killed before it answered whole (counted as
   * unanswered: it may have happened or not, the next restart shows which).
   */
  readonly call: (method: string, url: string, credential: string, body?: unknown) => Promise<Answer | undefined>
}

export interface CrashRunsOptions {
  /** How many times the emulator is killed. */
  readonly kills: number
  /** The seed of the kill points' RNG. */
  readonly seed: number
  /** A run is killed after `from + floor(random() * span)` acknowledged changes; default 4 and 30. */
  readonly killAfter?: { readonly from: number; readonly span: number }
  /**
   * With `groups` (say the kinds of change, or the areas of `crashAreas`), a run is killed only
   * once each group (`acknowledge(group)`) had a change acknowledged in it too: every run has
   * every kind of change before its kill, however the machine schedules the workers, so that a
   * test's counts do not depend on the machine's speed. Default: no groups.
   */
  readonly groups?: number
  /** Starts the emulator on the state file with `args` added (`frozenRestarts`' `restart`, or the like). */
  readonly restart: (args: ReadonlyArray<string>) => Promise<Running>
  /** The seed file each run's start is given (`--seed`); the last start, after the clean stop, has none. */
  readonly seedFile: string
  /** Whether a last start after the clean stop reads the state file back and is checked; default true. */
  readonly restartAfterStop?: boolean
  /** The checks after each start; they resolve what requests without an answer did. */
  readonly check: (running: Running) => Promise<void>
  /** How many workers each run has. */
  readonly workers: number
  /** Worker `w` of `run`: changes things until `run.killed`. */
  readonly worker: (run: CrashRun, w: number) => Promise<void>
}

/**
 * Runs the kill loop; resolves with how many requests went without an answer, and the longest a
 * run of the workers took (ms, from the start of the workers to the last one's end; only logged).
 */
export const crashRuns = async (
  options: CrashRunsOptions
): Promise<{ readonly unanswered: number; readonly longestRun: number }> => {
  const { kills, restart, check } = options
  const killAfter = options.killAfter ?? { from: 4, span: 30 }
  const killPoint = random(options.seed)
  let unanswered = 0
  let longestRun = 0
  for (let index = 0; index <= kills; index++) {
    const running = await bounded(`start ${index}`, restart(["--seed", options.seedFile]))
    const stop = () => running.child.kill("SIGKILL")
    await bounded(`the checks after start ${index}`, check(running), stop)
    if (index === kills) {
      running.child.kill("SIGTERM")
      expect(await bounded("the exit after SIGTERM", running.exited, stop)).toBe(0)
      if (options.restartAfterStop ?? true) {
        const last = await bounded("the start after the clean stop", restart([]))
        const stopLast = () => last.child.kill("SIGKILL")
        await bounded("the checks after the clean stop", check(last), stopLast)
        last.child.kill("SIGTERM")
        expect(await bounded("the last exit after SIGTERM", last.exited, stopLast)).toBe(0)
      }
      break
    }
    let killed = false
    const acknowledgedBeforeKill = killAfter.from + Math.floor(killPoint() * killAfter.span)
    let acknowledged = 0
    const groupsSeen = new Set<number>()
    const run: CrashRun = {
      index,
      running,
      get killed() {
        return killed
      },
      answers: () => !killed,
      acknowledge: (group) => {
        acknowledged += 1
        if (group !== undefined) groupsSeen.add(group)
        if (acknowledged >= acknowledgedBeforeKill && groupsSeen.size >= (options.groups ?? 0) && !killed) {
          killed = true
          running.child.kill("SIGKILL")
        }
      },
      call: async (method, url, credential, body) => {
        try {
          return await send(method, url, credential, body)
        } catch (error) {
          if (!killed) throw error
          unanswered += 1
          return undefined
        }
      }
    }
    const started = Date.now()
    await bounded(
      `run ${index} of the workers`,
      Promise.all(Array.from({ length: options.workers }, (_, w) => options.worker(run, w))),
      stop
    )
    longestRun = Math.max(longestRun, Date.now() - started)
    await bounded(`the exit after kill ${index}`, running.exited)
  }
  return { unanswered, longestRun }
}

/**
 * The operations started by the changes acknowledged in a run (`record` each acknowledged
 * answer's), checked at the next start: `check` reads each (a 200: the operation survived the
 * kill), then forgets them.
 */
export const acknowledgedOperations = (apiKey: string) => {
  let recent: Array<{ readonly project: string; readonly id: string }> = []
  return {
    record: (answer: Answer, project: string) => {
      for (const operation of answer.body?.operations ?? []) recent.push({ project, id: operation.id })
    },
    check: async (running: Running) => {
      for (const operation of recent) {
        const read = await send(
          "GET",
          `${running.baseUrl}/projects/${operation.project}/operations/${operation.id}`,
          apiKey
        )
        expect(read.status, `operation ${operation.id} of an acknowledged change`).toBe(200)
      }
      recent = []
    }
  }
}
