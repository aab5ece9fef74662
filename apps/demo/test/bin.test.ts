/**
 * The command as it is shipped, `dist/bin.js` (built before the tests by turbo:
 * apps/demo/turbo.json), run with node as a child process, its output piped: its help and
 * version, the line it prints when it fails, and Ctrl-C. Nothing here waits for time to pass: each
 * test waits for the process to print a line or to exit.
 */
import { spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url))
const packageVersion: string = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version

/** Starts the demo with `args` and `env` (and no DBPLATFORM_API_KEY unless given). */
const launch = (args: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const { DBPLATFORM_API_KEY: _key, ...inherited } = process.env
  if (!existsSync(bin)) throw new Error(`${bin} is missing: build the package first (pnpm build)`)
  const child = spawn(process.execPath, [bin, ...args], { env: { ...inherited, ...env } })
  const output = { stdout: "", stderr: "" }
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output.stdout += chunk
  })
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    output.stderr += chunk
  })
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve))
  return { child, output, exited }
}

/** Runs the demo with `args` and `env` until it exits. */
const run = async (args: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const { output, exited } = launch(args, env)
  const code = await exited
  return { code, ...output }
}

/** A server answering every request 401 with the platform's error body, on a free loopback port. */
const refusing = async () => {
  const server = createServer((_request, response) => {
    response.writeHead(401, { "content-type": "application/json" })
    response.end(JSON.stringify({ code: "", message: "API key is not valid", request_id: "req-7f3a" }))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/api/v2`, close: () => server.close() }
}

/** What `@effect/cli` prints for a flag when given no description of its own. */
const filler = ["A user-defined piece of text.", "A true or false value."]

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

  it("a failed call: one line with method, path, status, the server's message and request id; the route template on --verbose", async () => {
    const server = await refusing()
    try {
      const plain = await run(["--base-url", server.url], { DBPLATFORM_API_KEY: "not-a-valid-key" })
      expect(plain.code).toBe(1)
      expect(plain.stderr).toBe(
        "dbplatform-demo failed: Unauthorized: GET /api_keys: 401 Unauthorized: API key is not valid (request id req-7f3a)\n"
      )
      const verbose = await run(["--base-url", server.url, "--verbose"], { DBPLATFORM_API_KEY: "not-a-valid-key" })
      expect(verbose.stderr).toBe(
        "dbplatform-demo failed: Unauthorized: GET /api_keys: 401 Unauthorized: API key is not valid (request id req-7f3a); route: /api_keys\n"
      )
      expect(plain.stderr + verbose.stderr).not.toContain("not-a-valid-key")
    } finally {
      server.close()
    }
  })

  it("--help, piped: every flag described with an example, exit codes, no filler text and no escape codes", async () => {
    const help = await run(["--help"])
    expect(help.code).toBe(0)
    for (const flag of ["--base-url URL", "--project PROJECT_ID", "--verbose"]) {
      expect(help.stdout, flag).toMatch(new RegExp(`\\n${flag}\\n\\n {2}[^\\n]*Example: --`))
    }
    expect(help.stdout).toContain("EXIT CODES")
    for (const text of filler) expect(help.stdout).not.toContain(text)
    expect(help.stdout).not.toContain("\u001b")
  })

  it("--version is the package's version", async () => {
    const version = await run(["--version"])
    expect(version.code).toBe(0)
    expect(version.stdout.trim()).toBe(packageVersion)
  })

  // One run of the whole demo carries both checks of its wait (each run serves the fake and plays
  // the preview-branch workflow first, about 15 s of the demo's own time).
  it("piped, the wait prints plain lines, one per poll round, and no escape codes; Ctrl-C while it waits: exit 0, nothing but 'stopped' on stderr", async () => {
    const demo = launch([])
    await new Promise<void>((resolve, reject) => {
      const check = setInterval(() => {
        if (/round 1: 3 of 3 still pending, 1 request so far\n/.test(demo.output.stdout)) {
          clearInterval(check)
          resolve()
        }
      }, 5)
      demo.exited.then(() => {
        clearInterval(check)
        reject(new Error(`exited before the first round of its wait: ${demo.output.stderr}`))
      })
    })
    demo.child.kill("SIGINT")
    expect(await demo.exited).toBe(0)
    expect(demo.output.stderr).toBe("dbplatform-demo: stopped\n")
    expect(demo.output.stdout).toContain(
      "(429 from the server (staged: the demo injected this 429 to show retrying): retrying"
    )
    expect(demo.output.stdout).not.toContain("\u001b")
    expect(demo.output.stdout).not.toContain("\r")
  })
})
