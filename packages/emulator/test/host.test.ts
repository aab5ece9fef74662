/**
 * `--host`: the command, run as a child process as in bin.test.ts, warns on stderr when
 * it listens on an address other machines can reach, and stays quiet on loopback.
 */
import { spawn } from "node:child_process"
import { describe, expect, inject, it } from "vitest"

const bin = inject("emulatorBin")

/**
 * Runs the emulator with `args` until it has printed its base URL, then stops it with SIGTERM;
 * resolves with its exit code and everything it wrote, once its output streams are closed.
 */
const runUntilServing = (args: ReadonlyArray<string>) => {
  const child = spawn(process.execPath, [bin, ...args])
  let stdout = ""
  let stderr = ""
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk
    if (/^DBPLATFORM_API_KEY/m.test(stdout)) child.kill("SIGTERM")
  })
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk
  })
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  )
}

describe("dbplatform-emulator --host", () => {
  it("warns on stderr that the bootstrap key is reachable from other machines on a non-loopback address, and not on loopback", async () => {
    const [wildcard, byDefault, localhost] = await Promise.all([
      runUntilServing(["--host", "0.0.0.0"]),
      runUntilServing([]),
      runUntilServing(["--host", "localhost"])
    ])
    expect(wildcard.stdout).toMatch(/^DBPLATFORM_BASE_URL=http:\/\/0\.0\.0\.0:\d+\/api\/v2$/m)
    expect(wildcard.stderr).toContain("warning: --host 0.0.0.0 is not a loopback address")
    expect(wildcard.stderr).toContain("bootstrap API key")
    expect(wildcard.code).toBe(0)
    for (const quiet of [byDefault, localhost]) {
      expect(quiet.stdout).toMatch(/^DBPLATFORM_BASE_URL=/m)
      expect(quiet.stderr).not.toContain("warning")
      expect(quiet.code).toBe(0)
    }
  }, 30_000)
})
