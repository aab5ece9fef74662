import { mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.ts"

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
    maxWorkers: 2
  }
})
