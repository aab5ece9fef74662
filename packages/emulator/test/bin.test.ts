/**
 * The command, bundled as its build bundles it (from the sources, by test/globalSetup.ts), run as
 * a child process, as a user runs it: what it prints, what `fetch` (as `curl` would) gets from it,
 * how it stops, what it keeps across restarts. The packed package is run by the smoke test.
 *
 * Nothing here waits for time to pass: each step waits for an event (a line printed, an answer,
 * an exit). Starting Node processes is the cost, several seconds per test on a busy machine,
 * hence this package's longer timeout (vitest.config.ts), a bound only.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterAll, describe, expect, inject, it } from "vitest"

const bin = inject("emulatorBin")
const loadBin = join(dirname(bin), "load.js")
const packageVersion: string = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version
const dir = mkdtempSync(join(tmpdir(), "dbplatform-emulator-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

interface Running {
  readonly child: ChildProcess
  readonly baseUrl: string
  readonly apiKey: string
  readonly stdout: () => string
  readonly stderr: () => string
  readonly exited: Promise<number | null>
}

/** Starts the emulator with `args`; resolves once it printed its URL and key, rejects if it exits first. */
const start = (args: ReadonlyArray<string>, env: Record<string, string> = {}): Promise<Running> => {
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env } })
  let stdout = ""
  let stderr = ""
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk
  })
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk
  })
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  return new Promise((resolve, reject) => {
    const check = setInterval(() => {
      const baseUrl = /^DBPLATFORM_BASE_URL=(.+)$/m.exec(stdout)?.[1]
      const apiKey = /^DBPLATFORM_API_KEY(?:=(.+)| is .+)$/m.exec(stdout)
      if (baseUrl !== undefined && apiKey !== null) {
        clearInterval(check)
        resolve({
          child,
          baseUrl,
          apiKey: apiKey[1] ?? env.DBPLATFORM_EMULATOR_KEY ?? "",
          stdout: () => stdout,
          stderr: () => stderr,
          exited
        })
      }
    }, 20)
    exited.then((code) => {
      clearInterval(check)
      reject(new Error(`exited with ${code}: ${stderr}`))
    })
  })
}

/**
 * Runs `command` (the emulator by default) with `args` and `env` added to this process's
 * environment, stdout and stderr piped, until it exits by itself.
 */
const failing = async (args: ReadonlyArray<string>, command = bin, env: Record<string, string> = {}) => {
  const child = spawn(process.execPath, [command, ...args], { env: { ...process.env, ...env } })
  let stdout = ""
  let stderr = ""
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk
  })
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk
  })
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve))
  return { code, stdout, stderr }
}

/** What `@effect/cli` prints for a flag when given no description of its own. */
const filler = ["A user-defined piece of text.", "A true or false value."]

const get = async (running: Running, path: string, key = running.apiKey) => {
  const response = await fetch(`${running.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } })
  return { status: response.status, headers: response.headers, body: (await response.json()) as any }
}

const stop = async (running: Running, signal: NodeJS.Signals) => {
  running.child.kill(signal)
  return running.exited
}

describe("dbplatform-emulator", () => {
  it("prints a loopback base URL and a key; lists projects and operations with it; 401 GeneralError with a bad key; the organization key hint works as printed; a second start on its port fails clearly with exit 1; SIGINT exits 0", async () => {
    const running = await start([])
    expect(running.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v2$/)
    expect(running.apiKey).toMatch(/^[0-9a-f]{64}$/)
    const projects = await get(running, "/projects")
    expect(projects.status).toBe(200)
    expect(projects.body.projects).toHaveLength(4)
    const operations = await get(running, `/projects/${projects.body.projects[0].id}/operations?limit=5`)
    expect(operations.body.operations).toHaveLength(5)
    expect(operations.body.pagination.cursor).toMatch(/Z$/)
    const refused = await get(running, "/projects", "not-the-key")
    expect(refused.status).toBe(401)
    expect(refused.body).toEqual({ code: "", message: expect.any(String), request_id: expect.any(String) })
    // The hint on an organization key, followed as printed: an organization of the account's user.
    const hint = /an organization API key: POST (\/organizations\/([a-z0-9-]+)\/api_keys) (\{.*?\}) /.exec(
      running.stdout()
    )
    expect(hint?.[2]).toBe("org-dbplatform-000000")
    const created = await fetch(`${running.baseUrl}${hint![1]}`, {
      method: "POST",
      headers: { authorization: `Bearer ${running.apiKey}`, "content-type": "application/json" },
      body: hint![3]
    })
    expect(created.status).toBe(200)
    const { key } = (await created.json()) as { readonly key: string }
    expect((await get(running, "/auth", key)).body).toEqual({ account_id: hint![2], auth_method: "api_key_org" })
    const mine = await get(running, "/users/me/organizations")
    expect(mine.body.organizations.map((organization: any) => organization.id)).toContain(hint![2])
    expect((await get(running, "/projects", key)).body.projects).toHaveLength(4)
    // Its port, taken: another start fails with one line, exit 1.
    const port = new URL(running.baseUrl).port
    const taken = await failing(["--port", port])
    expect(taken.code).toBe(1)
    expect(taken.stderr).toBe(
      `dbplatform-emulator failed: ServeError: listen EADDRINUSE: address already in use 127.0.0.1:${port}\n`
    )
    // --verbose adds the cause chain, with the error's code.
    const verbose = await failing(["--port", port, "--verbose"])
    expect(verbose.stderr).toBe(
      `dbplatform-emulator failed: ServeError: listen EADDRINUSE: address already in use 127.0.0.1:${port}` +
        `; caused by Error [EADDRINUSE]: listen EADDRINUSE: address already in use 127.0.0.1:${port}\n`
    )
    expect(await stop(running, "SIGINT")).toBe(0)
    expect(running.stderr()).toContain("stopped")
  })

  it("--state keeps keys (hashes only), projects and operations across a SIGTERM restart", async () => {
    const state = join(dir, "state.json")
    const seed = join(dir, "seed.json")
    writeFileSync(
      seed,
      JSON.stringify({
        projects: [{ id: "spring-example-302709", name: "billing" }],
        operations: [{ project_id: "spring-example-302709", action: "start_compute", runsFor: "1 hour" }]
      })
    )
    const first = await start(["--seed", seed, "--state", state, "--port", "0"])
    const created = await fetch(`${first.baseUrl}/api_keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${first.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ key_name: "kept" })
    }).then((response) => response.json() as Promise<any>)
    const operationsBefore = await get(first, "/projects/spring-example-302709/operations")
    expect(await stop(first, "SIGTERM")).toBe(0)

    const saved = readFileSync(state, "utf8")
    expect(saved).not.toContain(created.key)
    expect(saved).not.toContain(first.apiKey)
    expect(JSON.parse(saved).api_keys.map((key: any) => key.name)).toEqual(["bootstrap", "kept"])

    const second = await start(["--state", state])
    expect(second.stdout()).toContain(`state: restored from ${state}`)
    // The key created before the restart still works; so does the first run's bootstrap key.
    expect((await get(second, "/projects", created.key)).body.projects.map((p: any) => p.id)).toEqual([
      "spring-example-302709"
    ])
    expect((await get(second, "/api_keys", first.apiKey)).status).toBe(200)
    const operationsAfter = await get(second, "/projects/spring-example-302709/operations")
    expect(operationsAfter.body.operations.map((o: any) => [o.id, o.action, o.created_at])).toEqual(
      operationsBefore.body.operations.map((o: any) => [o.id, o.action, o.created_at])
    )
    expect(await stop(second, "SIGTERM")).toBe(0)
  })

  it("DBPLATFORM_EMULATOR_KEY fixes the bootstrap key across restarts, and is not printed; revoked through the API, the next start on the state file serves it valid again, not exit 1", async () => {
    const state = join(dir, "fixed-key.json")
    const env = { DBPLATFORM_EMULATOR_KEY: "my-fixed-emulator-key" }
    /** A start on the state file with the fixed key: not printed, the only key listed. */
    const startFixed = async () => {
      const running = await start(["--state", state], env)
      expect(running.stdout()).not.toContain("my-fixed-emulator-key")
      const keys = (await get(running, "/api_keys")).body
      expect(keys.map((key: any) => key.name)).toEqual(["bootstrap"])
      return { running, bootstrap: keys[0] }
    }
    const first = await startFixed()
    expect(await stop(first.running, "SIGTERM")).toBe(0)
    // Restarted: the same key, still valid; then revoked through the API.
    const second = await startFixed()
    expect(second.bootstrap.id).toBe(first.bootstrap.id)
    const revoked = await fetch(`${second.running.baseUrl}/api_keys/${second.bootstrap.id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${second.running.apiKey}` }
    })
    expect(revoked.status).toBe(200)
    expect((await get(second.running, "/projects")).status).toBe(401)
    expect(await stop(second.running, "SIGTERM")).toBe(0)
    // The state file holds it revoked: the next start serves the same key (its id kept) valid again.
    const third = await start(["--state", state], env)
    expect(third.stdout()).toContain(`state: restored from ${state}`)
    expect((await get(third, "/api_keys")).body.map((key: any) => [key.id, key.name])).toEqual([
      [first.bootstrap.id, "bootstrap"]
    ])
    expect(await stop(third, "SIGTERM")).toBe(0)
  })

  it("DBPLATFORM_EMULATOR_KEY that a header cannot carry (a space) is refused at start: exit 1, one line without the key", async () => {
    const state = join(dir, "spaced-key.json")
    const refused = await failing(["--state", state], bin, { DBPLATFORM_EMULATOR_KEY: "k x" })
    expect(refused.code).toBe(1)
    expect(refused.stdout).toBe("")
    expect(refused.stderr).toBe(
      "dbplatform-emulator failed: InvalidBootstrapKey: the bootstrap key (DBPLATFORM_EMULATOR_KEY) is empty or holds a character other than printable ASCII (no spaces): it could not be sent in a header\n"
    )
    expect(existsSync(state)).toBe(false)
  })

  it("--rate-limit account=...,route=... answers 429 with Retry-After past either limit", async () => {
    const running = await start(["--rate-limit", "account=3/1h,route=2/1h"])
    expect(running.stdout()).toContain("rate limit 3 per 1h per account, 2 per 1h per route")
    expect((await get(running, "/projects")).status).toBe(200)
    expect((await get(running, "/projects")).status).toBe(200)
    const perRoute = await get(running, "/projects")
    expect(perRoute.status).toBe(429)
    expect(Number(perRoute.headers.get("retry-after"))).toBeGreaterThan(3500)
    expect(perRoute.body.message).toBe("rate limit of 2 requests per 1h exceeded for GET /projects")
    // Another route still answers, until the account's limit.
    expect((await get(running, "/api_keys")).status).toBe(200)
    const perAccount = await get(running, "/api_keys")
    expect(perAccount.status).toBe(429)
    expect(perAccount.body.message).toBe("rate limit of 3 requests per 1h exceeded for this account")
    expect(await stop(running, "SIGTERM")).toBe(0)
  })

  it("fails clearly and exits 1 on a bad seed file, a corrupt state file (left as it is) or a bad flag", async () => {
    const seed = join(dir, "bad-seed.json")
    writeFileSync(seed, JSON.stringify({ projects: [{ id: "Bad_Id" }], operations: [{ project_id: 7 }] }))
    const badSeed = await failing(["--seed", seed])
    expect(badSeed.code).toBe(1)
    expect(badSeed.stderr).toContain("InvalidSeed")
    expect(badSeed.stderr).toContain("operations.0.project_id")

    const state = join(dir, "corrupt.json")
    writeFileSync(state, '{"version":1,"api_keys":[')
    const corrupt = await failing(["--state", state])
    expect(corrupt.code).toBe(1)
    expect(corrupt.stderr).toContain("StateFileError")
    expect(readFileSync(state, "utf8")).toBe('{"version":1,"api_keys":[')

    const badFlag = await failing(["--rate-limit", "fast"])
    expect(badFlag.code).toBe(1)
    expect(badFlag.stderr).toContain("dbplatform-emulator failed: invalid arguments (see above)")
    // The 0.1 form, one per-key window, is refused with what to write instead.
    const oldForm = await failing(["--rate-limit", "40/1s"])
    expect(oldForm.code).toBe(1)
    expect(oldForm.stderr).toContain("account=LIMIT/INTERVAL,route=LIMIT/INTERVAL")
    // A taken port: in the first test, on the port of the emulator it started.
  })

  it("a failure is one line from core's ErrorLine: <command> failed: <reason>", async () => {
    const both = await failing(["--control", "--no-control"])
    expect(both.code).toBe(1)
    expect(both.stderr).toBe("dbplatform-emulator failed: --control and --no-control exclude each other\n")
  })

  it("--help, piped: every flag described with an example, exit codes, no filler text and no escape codes", async () => {
    const help = await failing(["--help"])
    expect(help.code).toBe(0)
    for (const flag of [
      "--port",
      "--host",
      "--seed",
      "--state",
      "--rate-limit",
      "--control",
      "--no-control",
      "--env",
      "--verbose"
    ]) {
      const section = help.stdout.split(`\n${flag} `.trimEnd())[1]?.split("\n\n--")[0] ?? ""
      expect(section, flag).toMatch(/Example: --/)
    }
    expect(help.stdout).toContain("EXIT CODES")
    expect(help.stdout).toMatch(/^0\n\n {2}Stopped by Ctrl-C/m)
    for (const text of filler) expect(help.stdout).not.toContain(text)
    expect(help.stdout).not.toContain("\u001b")
    expect(help.stderr).toBe("")
  })

  it("--version is the package's version", async () => {
    const version = await failing(["--version"])
    expect(version.code).toBe(0)
    expect(version.stdout.trim()).toBe(packageVersion)
  })

  it("--rate-limit platform is 700 a minute per account and 40 a second per route; Ctrl-C (a SIGINT, and the copy pnpm forwards right after it) stops it cleanly: exit 0, nothing but 'stopped' on stderr", async () => {
    const running = await start(["--rate-limit", "platform"])
    expect(running.stdout()).toContain("rate limit 700 per 1m per account, 40 per 1s per route")
    running.child.kill("SIGINT")
    // The second one once the first is being handled (two sent at once would merge into one).
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (running.stderr().includes("stopped")) {
          clearInterval(check)
          resolve()
        }
      }, 1)
    })
    running.child.kill("SIGINT")
    expect(await running.exited).toBe(0)
    expect(running.stderr()).toBe("dbplatform-emulator: stopped\n")
  })
})

/** A process started with `--env` and its output: stdout (the shell's), stderr (the emulator's too). */
const withEnv = (command: string, args: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const child = spawn(command, args, { env: { ...process.env, ...env } })
  let stdout = ""
  let stderr = ""
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk
  })
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk
  })
  const stdoutEnded = new Promise<void>((resolve) => child.stdout.on("end", resolve))
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve))
  return {
    /** The exit code, once the process exited and stdout was read to its end. */
    done: Promise.all([exited, stdoutEnded]).then(([code]) => ({ code, stdout })),
    stderr: () => stderr,
    /**
     * Resolves once stderr ends: every process holding it (the emulator left in the background
     * included) has exited.
     */
    stderrEnded: new Promise<void>((resolve) => child.stderr.on("end", resolve))
  }
}

/** Stops the emulator `--env` left in the background, if it still runs. */
const kill = (pid: number) => {
  try {
    process.kill(pid, "SIGTERM")
  } catch {
    // Gone already.
  }
}

describe("dbplatform-emulator --env", () => {
  it('eval "$(dbplatform-emulator --env &)" sets every variable; the emulator serves on in the background; kill $DBPLATFORM_EMULATOR_PID stops it cleanly', async () => {
    const names = [
      "DBPLATFORM_BASE_URL",
      "DBPLATFORM_API_KEY",
      "DBPLATFORM_EMULATOR_URL",
      "DBPLATFORM_EMULATOR_TOKEN",
      "DBPLATFORM_EMULATOR_PID"
    ]
    const script = `eval "$("$NODE" "$BIN" --env &)" && printf '%s\\n' ${names.map((name) => `"$${name}"`).join(" ")}`
    const shell = withEnv("sh", ["-c", script], { NODE: process.execPath, BIN: bin })
    const { code, stdout } = await shell.done
    expect(code).toBe(0)
    const [baseUrl, apiKey, controlUrl, token, pid] = stdout.trimEnd().split("\n")
    try {
      expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v2$/)
      expect(apiKey).toMatch(/^[0-9a-f]{64}$/)
      expect(token).toMatch(/^[0-9a-f]{64}$/)
      expect(shell.stderr()).toContain(
        `in the background as process ${pid}: stop it with kill $DBPLATFORM_EMULATOR_PID`
      )
      const projects = await fetch(`${baseUrl}/projects`, { headers: { authorization: `Bearer ${apiKey}` } })
      expect(projects.status).toBe(200)
      const clock = await fetch(`${controlUrl}/clock`, { headers: { authorization: `Bearer ${token}` } })
      expect(clock.status).toBe(200)
    } finally {
      kill(Number(pid))
    }
    await shell.stderrEnded
    expect(shell.stderr().trimEnd().split("\n").at(-1)).toBe("dbplatform-emulator: stopped")
  })

  it("prints only export lines on stdout, values quoted for the shell, a fixed key not at all; exits 1 with one line on stderr when it cannot start", async () => {
    const state = join(dir, "env.json")
    const started = withEnv(process.execPath, [bin, "--env", "--state", state], {
      DBPLATFORM_EMULATOR_KEY: "my-fixed-emulator-key"
    })
    const { code, stdout } = await started.done
    expect(code).toBe(0)
    const lines = stdout.trimEnd().split("\n")
    for (const line of lines) expect(line).toMatch(/^export [A-Z_]+='[^']*'$/)
    expect(lines.map((line) => line.slice("export ".length, line.indexOf("=")))).toEqual([
      "DBPLATFORM_BASE_URL",
      "DBPLATFORM_EMULATOR_URL",
      "DBPLATFORM_EMULATOR_TOKEN",
      "DBPLATFORM_EMULATOR_PID"
    ])
    const value = (name: string) =>
      /^export [A-Z_]+='(.*)'$/.exec(lines.find((line) => line.includes(` ${name}=`))!)![1]!
    const pid = Number(value("DBPLATFORM_EMULATOR_PID"))
    try {
      expect(stdout).not.toContain("my-fixed-emulator-key")
      expect(started.stderr()).toContain(
        "dbplatform-emulator: DBPLATFORM_API_KEY is the value of DBPLATFORM_EMULATOR_KEY (not printed)"
      )
      const keys = await fetch(`${value("DBPLATFORM_BASE_URL")}/api_keys`, {
        headers: { authorization: "Bearer my-fixed-emulator-key" }
      })
      expect(keys.status).toBe(200)
    } finally {
      kill(pid)
    }
    await started.stderrEnded
    expect(existsSync(state)).toBe(true)

    const refused = withEnv(process.execPath, [bin, "--env"], { DBPLATFORM_EMULATOR_KEY: "k x" })
    const failed = await refused.done
    await refused.stderrEnded
    expect(failed).toEqual({ code: 1, stdout: "" })
    expect(refused.stderr()).toMatch(/^dbplatform-emulator failed: InvalidBootstrapKey: .*\n$/)
  })
})

describe("load", () => {
  it("--help, piped: each flag with an example, exit codes, no filler text and no escape codes; --version the package's", async () => {
    const help = await failing(["--help"], loadBin)
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/--clients N\n\n(?:.*\n)*? {2}.*Example: --clients 50/)
    expect(help.stdout).toMatch(/--seconds N\n\n(?:.*\n)*? {2}.*Example: --seconds 30/)
    expect(help.stdout).toContain("EXIT CODES")
    for (const text of filler) expect(help.stdout).not.toContain(text)
    expect(help.stdout).not.toContain("\u001b")
    const version = await failing(["--version"], loadBin)
    expect(version.stdout.trim()).toBe(packageVersion)
  })

  it("a bad flag: exits 1 after @effect/cli's own message", async () => {
    const bad = await failing(["--clients", "0"], loadBin)
    expect(bad.code).toBe(1)
    expect(bad.stderr.trimEnd().split("\n").at(-1)).toBe("load failed: invalid arguments (see above)")
  })
})
