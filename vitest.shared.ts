import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type { ViteUserConfig } from "vitest/config"

const root = path.dirname(fileURLToPath(import.meta.url))
const source = (dir: string) => path.join(root, dir, "src")

/**
 * Shared vitest settings. Workspace packages (and their modules) resolve to their `src` so that a
 * test never runs against stale `dist` output, and needs no build: turbo starts the tests without
 * waiting for the builds (turbo.json, `transit`).
 *
 * Time-based behaviour is tested on the `TestClock` and volume lives in benchmarks and the
 * emulator's `load` script, so every test is cheap. The timeouts below are only a safety
 * margin for a busy machine (the suite must pass on 2 cores shared with other work), far above
 * what any test takes; a test that needs them is a bug to fix, not a timeout to raise.
 */
const config: ViteUserConfig = {
  resolve: {
    alias: [
      { find: /^@dbplatform\/core$/, replacement: path.join(source("packages/core"), "index.ts") },
      { find: /^@dbplatform\/client$/, replacement: path.join(source("packages/client"), "index.ts") },
      { find: /^@dbplatform\/testing$/, replacement: path.join(source("packages/testing"), "index.ts") },
      // A module of a package (`@dbplatform/testing/DdlParser`): its file in `src` too.
      {
        find: /^@dbplatform\/(core|client|testing)\/([A-Za-z]+)$/,
        replacement: path.join(root, "packages/$1/src/$2.ts")
      }
    ]
  },
  test: {
    include: ["test/**/*.test.ts"],
    // One turn of the event loop after each test, so that vitest's calls to its main process are
    // answered in time on a busy machine (see the file).
    setupFiles: [path.join(root, "vitest.setup.ts")],
    fakeTimers: { toFake: undefined },
    sequence: { concurrent: false },
    // One worker process runs a package's test files one after the other and keeps its module
    // cache between them: each file no longer imports effect and the packages afresh, which was
    // about half of the suite's CPU time. No test mocks modules (`vi.mock`) or keeps module-level
    // state, and none may: a test file must pass whichever files ran before it.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    teardownTimeout: 60_000
  }
}

export default config
