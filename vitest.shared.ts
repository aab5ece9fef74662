import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type { ViteUserConfig } from "vitest/config"

const root = path.dirname(fileURLToPath(import.meta.url))
const source = (dir: string) => path.join(root, dir, "src")

/**
 * Shared vitest settings. Workspace packages resolve to their `src` so that a test never
 * runs against stale `dist` output.
 */
const config: ViteUserConfig = {
  resolve: {
    alias: [
      { find: /^@dbplatform\/core$/, replacement: path.join(source("packages/core"), "index.ts") },
      { find: /^@dbplatform\/client$/, replacement: path.join(source("packages/client"), "index.ts") },
      { find: /^@dbplatform\/testing$/, replacement: path.join(source("packages/testing"), "index.ts") }
    ]
  },
  test: {
    include: ["test/**/*.test.ts"],
    fakeTimers: { toFake: undefined },
    sequence: { concurrent: false }
  }
}

export default config
