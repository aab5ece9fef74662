/**
 * Kill -9 runs shared by several areas (docs/contract.md §11 "acknowledged means durable"): one
 * emulator, one `--state` file and one seed file for all of them; each run, every area's workers
 * change things at once, the emulator is killed with SIGKILL once every area had a change
 * acknowledged and a random number of changes were (`crashRuns`' `groups`), then restarted, and
 * every area's checks run after every start. A start of the emulator (about 1.5 s of CPU) was most
 * of a crash test's time: areas that share the kills share the starts, and each area is killed as
 * often as the run is (at least as often as in a run of its own).
 *
 * Adding an area (a new resource's changes under kill -9) is one module under `test/crash/` that
 * exports a `CrashArea` factory, and one line in the list of `crash.test.ts` or
 * `crashProjects.test.ts`: what it adds to the seed file (ids of its own, so no other area sees its
 * resources), its workers (changes, each acknowledged change counted with `run.acknowledge()`), its
 * checks after each start (they resolve what requests without an answer did), and its closing
 * checks (`finish`). An area shares the emulator's frozen clock with the others: it may wait for
 * its operations to end (`advance`), but may not expect the clock to read what only its own
 * advances made: what it checks of time is relative to what the clock reads (the clock's own crash
 * test, clockCrash.test.ts, keeps a run of its own for that). See test/README.md.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { type CrashRun, crashRuns } from "./crashRun.js"
import { frozenRestarts, type Running } from "./spawned.js"

/** What every area is given: the credentials the emulator is started with, and the clock. */
export interface CrashContext {
  /** The bootstrap API key (`DBPLATFORM_EMULATOR_KEY`). */
  readonly apiKey: string
  /** The control token (`DBPLATFORM_EMULATOR_TOKEN`). */
  readonly token: string
  /** The `--state` file, for checks of what it holds. */
  readonly state: string
  /** How many times the emulator is killed (then stopped cleanly and started once more). */
  readonly kills: number
  /** Moves the frozen clock on by `ms` (a failure is one only while `answers()`). */
  readonly advance: (running: Running, ms: number, answers: () => boolean) => Promise<void>
}

/** One area's part of the shared kill -9 runs. */
export interface CrashArea {
  /** Its name, for the summary. */
  readonly name: string
  /** What it adds to the seed file: lists by key (`organizations`, `projects`...), after the other areas'. */
  readonly seed: { readonly [key: string]: ReadonlyArray<unknown> }
  /** How many workers it has in each run. */
  readonly workers: number
  /** The longest run of operations one of its changes starts, in ms (0 if none). */
  readonly longestChange: number
  /** Its worker `w` of `run`: changes things until `run.killed`, `run.acknowledge()` after each acknowledged change. */
  readonly worker: (run: CrashRun, w: number) => Promise<void>
  /** Its checks after each start. */
  readonly check: (running: Running) => Promise<void>
  /** Its closing checks (counts of what was acknowledged) once the runs are over; resolves with its summary line. */
  readonly finish: (unanswered: number) => string
}

export interface CrashAreasOptions {
  /** The folder of the state and seed files. */
  readonly dir: string
  /** How many times the emulator is killed. */
  readonly kills: number
  /** The seed of the kill points' RNG. */
  readonly seed: number
  /** A run is killed after `from + floor(random() * span)` acknowledged changes (of all areas). */
  readonly killAfter: { readonly from: number; readonly span: number }
  /** The areas, each made with the context. */
  readonly areas: ReadonlyArray<(context: CrashContext) => CrashArea>
}

/** Runs the shared kill loop; resolves with each area's summary line, and one of the loop's. */
export const crashAreas = async (options: CrashAreasOptions): Promise<ReadonlyArray<string>> => {
  const apiKey = "shared-crash-test-key"
  const token = "shared-crash-test-control-token"
  const state = join(options.dir, "state.json")
  const seedFile = join(options.dir, "seed.json")
  const advance: CrashContext["advance"] = (running, ms, answers) => clock.advance(running, ms, answers)
  const areas = options.areas.map((make) => make({ apiKey, token, state, kills: options.kills, advance }))
  const clock = frozenRestarts(
    state,
    { DBPLATFORM_EMULATOR_KEY: apiKey, DBPLATFORM_EMULATOR_TOKEN: token },
    Math.max(0, ...areas.map((area) => area.longestChange))
  )
  const seed: Record<string, Array<unknown>> = {}
  for (const area of areas) {
    for (const [key, items] of Object.entries(area.seed)) seed[key] = [...(seed[key] ?? []), ...items]
  }
  writeFileSync(seedFile, JSON.stringify(seed))
  /** Worker `w` of the run: area `i`'s worker `w - first[i]`. */
  const first = areas.map((_, i) => areas.slice(0, i).reduce((sum, area) => sum + area.workers, 0))
  /** What the clock read at the first start's checks and at the last's: how far the areas moved it. */
  let firstClock: number | undefined
  let lastClock = 0
  const { unanswered, longestRun } = await crashRuns({
    kills: options.kills,
    seed: options.seed,
    killAfter: options.killAfter,
    groups: areas.length,
    restart: clock.restart,
    seedFile,
    check: async (running) => {
      const now = (await running.control((control) => control.clock())).now_ms
      firstClock ??= now
      lastClock = now
      for (const area of areas) await area.check(running)
    },
    workers: areas.reduce((sum, area) => sum + area.workers, 0),
    worker: (run, w) => {
      let i = 0
      while (i + 1 < areas.length && first[i + 1]! <= w) i += 1
      const mine: CrashRun = {
        index: run.index,
        running: run.running,
        get killed() {
          return run.killed
        },
        answers: run.answers,
        acknowledge: () => run.acknowledge(i),
        call: run.call
      }
      return areas[i]!.worker(mine, w - first[i]!)
    }
  })
  const moved = (lastClock - (firstClock ?? lastClock)) / 3_600_000
  return [
    ...areas.map((area) => `${area.name}: ${area.finish(unanswered)}`),
    `the clock moved ${moved.toFixed(1)} h over the runs; ${unanswered} requests unanswered; the longest run of the workers took ${(longestRun / 1000).toFixed(1)} s`
  ]
}
