import { mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.ts"

// The tests of the shipped command (test/bin.test.ts) start Node processes, a few seconds each
// on a busy 2-core machine: a longer bound than the shared one, never a wait.
// test/http-only.test.mjs is plain JavaScript on purpose: it drives the emulator as a test in
// another language would, with `fetch` only.
export default mergeConfig(shared, {
  test: { testTimeout: 120_000, include: ["test/**/*.test.ts", "test/**/*.test.mjs"] }
})
