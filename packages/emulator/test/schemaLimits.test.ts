/**
 * Schema work does not hold the shipped emulator (docs/design.md §6): a migration past the size
 * limit is refused with 413 naming it and changes nothing; the heaviest migration the limits allow
 * (1 MiB of one `CHECK` expression, the SQL parser's slowest form: tens of seconds of parsing) is
 * parsed in a worker thread, so other requests are answered meanwhile, and SIGTERM stops the
 * emulator in the middle of it with exit code 0, the migration not applied. Nothing here waits for
 * time to pass: each step waits for an event (an answer, a request flushed, an exit).
 */
import { request } from "node:http"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { send, start } from "./spawned.js"

const apiKey = "schema-limits-key"
const token = "schema-limits-token"
const env = { DBPLATFORM_EMULATOR_KEY: apiKey, DBPLATFORM_EMULATOR_TOKEN: token }
const project = "schema-limits"
const main = "br-main-100001"
/** The largest migration the emulator takes, in bytes (`DdlParser.migrationLimitBytes`). */
const limit = 1024 * 1024

const dir = mkdtempSync(join(tmpdir(), "dbplatform-schema-limits-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const seed = join(dir, "seed.json")
writeFileSync(
  seed,
  JSON.stringify({
    projects: [{ id: project }],
    branches: [{ project_id: project, id: main, name: "main", default: true }],
    roles: [{ branch_id: main, name: "app_owner" }],
    databases: [{ branch_id: main, name: "app", owner_name: "app_owner", schema: "CREATE TABLE accounts (id bigint)" }]
  })
)

/** One `CREATE TABLE` whose `CHECK` is `a + 1` terms up to `bytes`: valid SQL the parser is slowest on. */
const checkOfSize = (bytes: number) => {
  const head = "CREATE TABLE checked (a integer CHECK (a + 1"
  const tail = " > 0));"
  return `${head}${" + a + 1".repeat(Math.floor((bytes - head.length - tail.length) / 8))}${tail}`
}

describe("schema work on the shipped emulator", () => {
  it("refuses a migration past the size limit with 413 naming the limit, and changes nothing", async () => {
    const running = await start(["--seed", seed, "--port", "0"], env)
    try {
      const migrate = `${running.controlUrl}/projects/${project}/branches/${main}/databases/app/migrate`
      const schema = `${running.baseUrl}/projects/${project}/branches/${main}/schema?db_name=app&format=json`
      const before = await send("GET", schema, apiKey)
      expect(before.status).toBe(200)
      const statement = "CREATE TABLE posts (id bigint PRIMARY KEY);"
      const refused = await send("POST", migrate, token, { sql: statement + " ".repeat(limit + 1 - statement.length) })
      expect([refused.status, refused.body.message]).toEqual([
        413,
        `migration refused: its SQL is ${limit + 1} bytes, more than the fake's limit of ${limit} bytes for one migration`
      ])
      expect(await send("GET", schema, apiKey)).toEqual(before)
      // One that fits is parsed (in the worker thread) and applied.
      const applied = await send("POST", migrate, token, { sql: statement })
      expect(applied.status, JSON.stringify(applied.body)).toBe(200)
      expect(applied.body.json.tables.map((table: { name: string }) => table.name)).toEqual(["accounts", "posts"])
    } finally {
      running.child.kill("SIGTERM")
      expect(await running.exited).toBe(0)
    }
  })

  it("answers other requests while it parses the heaviest migration, and SIGTERM then stops it with 0, not applied", async () => {
    const state = join(dir, "state.json")
    const running = await start(["--seed", seed, "--state", state, "--port", "0"], env)
    const sql = checkOfSize(limit)
    expect(Buffer.byteLength(JSON.stringify({ sql }))).toBeGreaterThan(limit)
    // The migration, sent whole; its answer (if any) recorded.
    let answered: number | string | undefined
    const flushed = new Promise<void>((resolve, reject) => {
      const body = JSON.stringify({ sql })
      const sent = request(`${running.controlUrl}/projects/${project}/branches/${main}/databases/app/migrate`, {
        method: "POST",
        agent: false,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }
      })
      sent.on("response", (response) => {
        answered = response.statusCode
        response.resume()
      })
      sent.on("error", (error: NodeJS.ErrnoException) => {
        answered ??= error.code ?? error.message
      })
      sent.on("finish", resolve)
      sent.on("close", () => (answered === undefined ? reject(new Error("closed before it was sent")) : undefined))
      sent.end(body)
    })
    await flushed
    // While it is parsed, the platform's routes and the control API answer as usual.
    expect((await send("GET", `${running.baseUrl}/projects`, apiKey)).status).toBe(200)
    expect((await send("GET", `${running.controlUrl}/clock`, token)).status).toBe(200)
    expect(answered).toBeUndefined()
    running.child.kill("SIGTERM")
    expect(await running.exited).toBe(0)
    // Stopped in the middle: the migration got no answer, and is not in the state.
    expect(answered).not.toBe(200)
    const again = await start(["--state", state, "--port", "0"], env)
    try {
      const tables = await send(
        "GET",
        `${again.baseUrl}/projects/${project}/branches/${main}/schema?db_name=app&format=json`,
        apiKey
      )
      expect(tables.body.json.tables.map((table: { name: string }) => table.name)).toEqual(["accounts"])
    } finally {
      again.child.kill("SIGTERM")
      expect(await again.exited).toBe(0)
    }
  })
})
