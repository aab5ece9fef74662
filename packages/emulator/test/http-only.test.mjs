/**
 * The emulator driven only over HTTP, as a Python, Go or shell test would drive it: plain
 * JavaScript, `fetch` and `child_process`, no Effect code and nothing imported from this repo.
 * It starts `dbplatform-emulator` (bundled from the sources before the tests, test/globalSetup.ts), reads the URLs, key and token it prints, and uses
 * every route of the control API (`/_emulator/...`) next to the platform's (`/api/v2/...`).
 *
 * Nothing waits for time to pass: each step waits for an event (a line printed, an answer, a
 * request seen in the log), and time on the emulator moves only when the test moves its clock.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest"

const bin = inject("emulatorBin")
const dir = mkdtempSync(join(tmpdir(), "dbplatform-http-only-"))
const projectId = "spring-example-302709"
const seedPath = join(dir, "seed.json")
writeFileSync(
  seedPath,
  JSON.stringify({
    projects: [{ id: projectId, name: "billing", age: "30 days" }],
    operations: [
      { project_id: projectId, id: "3f0c6b8e-1d2a-4c5b-9e7f-000000000001", action: "create_timeline", age: "30 days" }
    ]
  })
)

/** Every emulator started and not yet exited: whatever happens to a test, none is left running. */
const running = new Set()
afterAll(() => {
  for (const child of running) child.kill("SIGKILL")
})

/**
 * Starts the emulator with `args`; resolves once it has printed its base URL and API key (and
 * the control URL and token, or the line saying the control API is off), with what it printed.
 */
const start = (args, env = {}) => {
  const child = spawn(process.execPath, [bin, "--port", "0", ...args], { env: { ...process.env, ...env } })
  running.add(child)
  let stdout = ""
  let stderr = ""
  child.stderr.setEncoding("utf8").on("data", (chunk) => {
    stderr += chunk
  })
  const exited = new Promise((resolve) =>
    child.on("exit", (code) => {
      running.delete(child)
      resolve(code)
    })
  )
  const line = (name) => new RegExp(`^${name}=(.+)$`, "m").exec(stdout)?.[1]
  return new Promise((resolve, reject) => {
    // Reads what the process has printed so far (its startup output) as it comes.
    let started = false
    const check = () => {
      if (started) return
      const baseUrl = line("DBPLATFORM_BASE_URL")
      const apiKey = line("DBPLATFORM_API_KEY")
      const controlUrl = line("DBPLATFORM_EMULATOR_URL")
      const token = line("DBPLATFORM_EMULATOR_TOKEN") ?? env.DBPLATFORM_EMULATOR_TOKEN
      const off = /control API off/.test(stdout)
      if (baseUrl !== undefined && apiKey !== undefined && ((controlUrl !== undefined && token !== undefined) || off)) {
        started = true
        // A server on 0.0.0.0 is reached on loopback.
        const local = (url) => url?.replace("//0.0.0.0:", "//127.0.0.1:")
        resolve({
          baseUrl: local(baseUrl),
          apiKey,
          controlUrl: local(controlUrl),
          token,
          stdout: () => stdout,
          stop: () => {
            child.kill("SIGTERM")
            return exited
          }
        })
      }
    }
    // Read to the end (a pipe left unread would block the emulator once full).
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      stdout += chunk
      check()
    })
    // Once started, `resolve` has been called: a later exit does not reject anything.
    exited.then((code) => reject(new Error(`exited with ${code}: ${stderr}`)))
  })
}

/** Sends a request; answers its status, headers and JSON body (`undefined` when there is none). */
const send = async (url, { method = "GET", credential, body } = {}) => {
  const headers = {}
  if (credential !== undefined) headers.authorization = `Bearer ${credential}`
  if (body !== undefined) headers["content-type"] = "application/json"
  const response = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body)
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text) }
}

describe("the emulator driven over HTTP only", () => {
  let emulator
  /** A control route, with the control token unless `credential` says otherwise. */
  const control = (method, path, body, credential = emulator.token) =>
    send(`${emulator.controlUrl}${path}`, { method, body, credential })
  /** A platform route, with the bootstrap API key unless `credential` says otherwise. */
  const api = (method, path, body, credential = emulator.apiKey) =>
    send(`${emulator.baseUrl}${path}`, { method, body, credential })
  const operation = async (id) => (await api("GET", `/projects/${projectId}/operations/${id}`)).body.operation
  let initial

  beforeAll(async () => {
    emulator = await start(["--seed", seedPath])
    initial = (await control("GET", "/snapshot")).body
  })
  afterAll(async () => {
    await emulator?.stop()
    rmSync(dir, { recursive: true, force: true })
  })
  // Each test starts from the seed: no project, key, fault, log entry or frozen clock of the one before.
  beforeEach(async () => {
    expect((await control("POST", "/reset")).status).toBe(200)
  })

  it("prints the control API's URL and token next to the platform's URL and key", () => {
    expect(emulator.controlUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/_emulator$/)
    expect(emulator.token).toMatch(/^[0-9a-f]{64}$/)
    expect(emulator.token).not.toBe(emulator.apiKey)
  })

  it("answers 401 to a missing credential and to an account's API key; the platform answers 401 to the control token", async () => {
    for (const credential of [undefined, emulator.apiKey, "not-the-token"]) {
      const refused = await send(`${emulator.controlUrl}/clock`, { credential })
      expect(refused.status).toBe(401)
      expect(refused.body.message).toMatch(/control token/)
    }
    expect((await api("GET", "/projects", undefined, emulator.token)).status).toBe(401)
    expect((await control("GET", "/no-such-route")).status).toBe(404)
  })

  it("plays out a 10-minute operation with one clock advance, no real waiting", async () => {
    const frozen = await control("POST", "/clock/freeze")
    expect(frozen.body.frozen).toBe(true)
    const started = await control("POST", `/projects/${projectId}/operations`, {
      operations: [
        { action: "create_branch", runsFor: "10 minutes" },
        { action: "start_compute", runsFor: 5000 }
      ]
    })
    expect(started.status).toBe(201)
    const [branch, compute] = started.body.operations
    expect(started.body.operations.map((started) => started.status)).toEqual(["scheduling", "scheduling"])
    expect(await control("GET", "/clock")).toMatchObject({ body: { now_ms: frozen.body.now_ms, frozen: true } })

    const advanced = await control("POST", "/clock/advance", { by: "10 minutes" })
    expect(advanced.body.now_ms).toBe(frozen.body.now_ms + 600_000)
    expect(await operation(branch.id)).toMatchObject({ status: "finished", total_duration_ms: 600_000 })
    expect((await operation(compute.id)).status).not.toBe("finished")
    await control("POST", "/clock/advance", { by: 5000 })
    expect((await operation(compute.id)).status).toBe("finished")

    const resumed = await control("POST", "/clock/resume")
    expect(resumed.body.frozen).toBe(false)
    expect(resumed.body.now_ms).toBeGreaterThanOrEqual(advanced.body.now_ms + 5000)
  })

  it("fails and cancels operations as the platform would", async () => {
    await control("POST", "/clock/freeze")
    const started = await control("POST", `/projects/${projectId}/operations`, {
      operations: [{ action: "start_compute" }, { action: "apply_config" }]
    })
    const [compute, config] = started.body.operations
    const failed = await control("POST", `/projects/${projectId}/operations/${compute.id}/fail`, {
      error: "compute start timed out",
      retryIn: "30 seconds"
    })
    expect(failed.body).toMatchObject({ status: "failed", failures_count: 1, error: "compute start timed out" })
    const cancelled = await control("POST", `/projects/${projectId}/operations/${config.id}/cancel`, {
      cancellingFor: "2 seconds"
    })
    expect(cancelled.body.status).toBe("cancelling")
    // Operations started together are created a millisecond apart: the second one 1 ms later.
    await control("POST", "/clock/advance", { by: 2001 })
    expect((await operation(config.id)).status).toBe("cancelled")
    // It has ended: it can no longer be cancelled.
    const refused = await control("POST", `/projects/${projectId}/operations/${config.id}/cancel`)
    expect(refused.status).toBe(409)
  })

  it("injects a 503 and a dropped connection by route template, lists and clears faults, and logs what each request got", async () => {
    const injected = await control("POST", "/faults", {
      fault: { _tag: "Status", status: 503, body: { _tag: "Empty" }, headers: { "retry-after": "2" } },
      method: "GET",
      path: "/projects/{project_id}/operations",
      times: 1
    })
    expect(injected.status).toBe(201)
    await control("POST", "/faults", { fault: { _tag: "Drop" }, method: "GET", path: "/projects" })
    await control("POST", "/faults", { fault: { _tag: "MalformedJson" }, path: "/api_keys", times: "unlimited" })
    expect(
      (await control("GET", "/faults")).body.faults.map(({ fault, path, remaining }) => [fault._tag, path, remaining])
    ).toEqual([
      ["Status", "/projects/{project_id}/operations", 1],
      ["Drop", "/projects", 1],
      ["MalformedJson", "/api_keys", "unlimited"]
    ])

    const unavailable = await api("GET", `/projects/${projectId}/operations`)
    expect(unavailable.status).toBe(503)
    expect(unavailable.headers.get("retry-after")).toBe("2")
    await expect(api("GET", "/projects")).rejects.toThrow()
    expect((await api("GET", `/projects/${projectId}/operations`)).status).toBe(200)
    expect((await control("GET", "/faults")).body.faults).toHaveLength(1)
    expect((await control("DELETE", "/faults")).body).toEqual({ faults: [] })
    expect((await api("GET", "/api_keys")).status).toBe(200)

    const log = (await control("GET", "/requests?limit=4")).body.requests
    expect(log.map(({ method, path, fault }) => [method, path, fault ?? null])).toEqual([
      ["GET", `/api/v2/projects/${projectId}/operations`, "Status"],
      ["GET", "/api/v2/projects", "Drop"],
      ["GET", `/api/v2/projects/${projectId}/operations`, null],
      ["GET", "/api/v2/api_keys", null]
    ])
    expect(log[0].headers.authorization).toBe("Bearer <redacted>")
    expect(JSON.stringify(log)).not.toContain(emulator.apiKey)
  })

  it("a delay fault counts the emulator's clock: while it is frozen, the answer comes once the clock is advanced past it", async () => {
    await control("POST", "/clock/freeze")
    await control("POST", "/faults", { fault: { _tag: "Delay", duration: "30 seconds" }, path: "/projects" })
    const delayed = api("GET", "/projects")
    // Wait for the request to arrive (it is logged on arrival), then move the clock.
    while ((await control("GET", "/requests")).body.requests.length === 0) {}
    await control("POST", "/clock/advance", { by: "30 seconds" })
    expect((await delayed).status).toBe(200)
  })

  it("adds a project and a key (its value answered once, and valid on the platform's routes)", async () => {
    const project = await control("POST", "/projects", {
      id: "late-river-118737",
      name: "late",
      region_id: "aws-eu-central-1"
    })
    expect(project.status).toBe(201)
    expect(project.body).toMatchObject({ id: "late-river-118737", name: "late", region_id: "aws-eu-central-1" })
    const key = await control("POST", "/api_keys", { name: "ci" })
    expect(key.status).toBe(201)
    expect(key.body).toMatchObject({ name: "ci", key: expect.stringMatching(/^[0-9a-f]{64}$/) })
    const listed = await api("GET", "/projects", undefined, key.body.key)
    expect(listed.body.projects.map(({ id }) => id)).toEqual(["late-river-118737", projectId])
    // A project id taken, a body that does not decode: 400 with a message, never a 5xx.
    expect((await control("POST", "/projects", { id: projectId })).status).toBe(400)
    expect((await control("POST", "/api_keys", "{ not json")).status).toBe(400)
  })

  it("loads a seed, and restores a snapshot taken earlier", async () => {
    const saved = (await control("GET", "/snapshot")).body
    const loaded = await control("POST", "/seed", { projects: [{ id: "first-river-1" }, { id: "second-river-2" }] })
    expect(loaded.body).toEqual({ api_keys: 1, projects: 2, operations: 0 })
    expect((await api("GET", "/projects")).body.projects.map(({ id }) => id).sort()).toEqual([
      "first-river-1",
      "second-river-2"
    ])
    const restored = await control("PUT", "/snapshot", saved)
    expect(restored.body).toEqual({ api_keys: 1, projects: 1, operations: 1 })
    expect((await api("GET", "/projects")).body.projects.map(({ id }) => id)).toEqual([projectId])
  })

  describe("a reset between two tests", () => {
    let keyOfFirst
    let clockOfFirst
    it("the first test changes everything it can", async () => {
      keyOfFirst = (await control("POST", "/api_keys", { name: "first" })).body.key
      await control("POST", "/projects", { id: "first-test-1" })
      await control("POST", `/projects/${projectId}/operations`, { operations: [{ action: "create_branch" }] })
      await control("POST", "/faults", { fault: { _tag: "Hang" }, path: "/api_keys/{key_id}" })
      await control("POST", "/clock/freeze")
      clockOfFirst = (await control("POST", "/clock/advance", { by: "1 hour" })).body
      expect((await api("GET", "/projects", undefined, keyOfFirst)).status).toBe(200)
    })

    it("the second test sees no trace of it", async () => {
      const now = (await control("GET", "/snapshot")).body
      // The seed again, its times relative to the moment of the reset.
      const timeless = (records) => records.map(({ created_at, steps, last_used_at, ...rest }) => rest)
      expect(timeless(now.projects)).toEqual(timeless(initial.projects))
      expect(timeless(now.operations)).toEqual(timeless(initial.operations))
      expect(now.api_keys.map(({ id, name, hash }) => [id, name, hash])).toEqual(
        initial.api_keys.map(({ id, name, hash }) => [id, name, hash])
      )
      expect(now.next_key_id).toBe(initial.next_key_id)
      expect((await control("GET", "/faults")).body.faults).toEqual([])
      expect((await control("GET", "/requests")).body.requests).toEqual([])
      // The clock runs in real time again: the hour the first test moved it on is gone.
      const clock = (await control("GET", "/clock")).body
      expect(clock.frozen).toBe(false)
      expect(clock.now_ms).toBeLessThan(clockOfFirst.now_ms)
      expect((await api("GET", "/projects", undefined, keyOfFirst)).status).toBe(401)
    })
  })
})

describe("the control API's switch", () => {
  it("is off on a non-loopback host unless --control, and off on loopback with --no-control; DBPLATFORM_EMULATOR_TOKEN fixes the token", async () => {
    const token = "a-control-token-of-our-choice"
    const [wildcard, enabled, disabled] = await Promise.all([
      start(["--host", "0.0.0.0"]),
      start(["--host", "0.0.0.0", "--control"], { DBPLATFORM_EMULATOR_TOKEN: token }),
      start(["--no-control"])
    ])
    try {
      for (const off of [wildcard, disabled]) {
        expect(off.controlUrl).toBeUndefined()
        expect(off.stdout()).toMatch(/control API off/)
        // The path is then the platform's: an unknown route, whatever the credential.
        const controlUrl = off.baseUrl.replace(/\/api\/v2$/, "/_emulator")
        expect((await send(`${controlUrl}/clock`, { credential: off.apiKey })).status).toBe(404)
      }
      expect(enabled.stdout()).toContain("DBPLATFORM_EMULATOR_TOKEN is the value of DBPLATFORM_EMULATOR_TOKEN")
      expect(enabled.stdout()).not.toContain(token)
      expect((await send(`${enabled.controlUrl}/clock`, { credential: token })).status).toBe(200)
      expect((await send(`${enabled.controlUrl}/clock`, { credential: enabled.apiKey })).status).toBe(401)
    } finally {
      await Promise.all([wildcard.stop(), enabled.stop(), disabled.stop()])
    }
  })
})
