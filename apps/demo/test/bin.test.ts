/**
 * The command, `src/bin.ts` run with tsx (the workspace root's) as a child process: the line it
 * prints when it fails. Nothing here waits for time to pass: the test waits for the process to
 * exit.
 */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url))

/** Runs the demo with `args` and `env` (and no DBPLATFORM_API_KEY unless given) until it exits. */
const run = async (args: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const { DBPLATFORM_API_KEY: _key, ...inherited } = process.env
  const child = spawn(process.execPath, ["--import", "tsx", bin, ...args], { env: { ...inherited, ...env } })
  let stderr = ""
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk
  })
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve))
  return { code, stderr }
}

describe("dbplatform-demo", () => {
  it("a missing DBPLATFORM_API_KEY: exits 1 naming the variable on one line", async () => {
    // Port 9 (discard) is never reached: the key is read first.
    const { code, stderr } = await run(["--base-url", "http://127.0.0.1:9/api/v2"])
    expect(code).toBe(1)
    expect(stderr).toBe("dbplatform-demo failed: configuration: Missing data at DBPLATFORM_API_KEY\n")
  })

  it("a bad flag: exits 1 after @effect/cli's own message", async () => {
    const { code, stderr } = await run(["--project", "Not_A_Project"])
    expect(code).toBe(1)
    expect(stderr.trimEnd().split("\n").at(-1)).toBe("dbplatform-demo failed: invalid arguments (see above)")
  })
})
