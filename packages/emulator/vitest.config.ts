import * as path from "node:path"
import { BaseSequencer, type TestSpecification } from "vitest/node"
import { mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.ts"

/**
 * The files that run longest (several minutes together on a busy machine: kill loops, many starts
 * of the command, the platform's CLI), started first, in this order, on the two workers; the
 * others fill the workers after them. Vitest's own order runs the longest first only once a run
 * left its timings in its cache; in a fresh clone it runs the largest files first, and the kill
 * loops, small files, came last, alone on one worker while the other had nothing left to run.
 */
const longest = [
  "crash.test.ts",
  "crashProjects.test.ts",
  "bin.test.ts",
  "realClients.test.ts",
  "clockCrash.test.ts",
  "schemaLimits.test.ts"
]

class LongestFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const rank = (file: TestSpecification) => {
      const index = longest.indexOf(path.basename(file.moduleId))
      return index === -1 ? longest.length : index
    }
    const sorted = await super.sort(files)
    // Array.prototype.sort is stable: the others keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b))
  }
}

// The tests of the command (test/bin.test.ts and the kill -9 tests) start Node processes, a few
// seconds each on a busy 2-core machine: a longer bound than the shared one, never a wait.
// test/globalSetup.ts bundles the command from the sources before any test runs. Two files run at
// once (two workers, each keeping its module cache as vitest.shared.ts says): most of a file's
// time is the emulator it started, a process of its own, so a second file keeps the other core
// busy meanwhile. Each file has its own emulators, ports (0) and folders: none depends on another.
// test/http-only.test.mjs is plain JavaScript on purpose: it drives the emulator as a test in
// another language would, with `fetch` only.
export default mergeConfig(shared, {
  test: {
    testTimeout: 120_000,
    include: ["test/**/*.test.ts", "test/**/*.test.mjs"],
    globalSetup: ["test/globalSetup.ts"],
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst }
  }
})
