#!/usr/bin/env node
/**
 * Does heavy schema work stall the emulator? The built command (`pnpm build` first, or `--bin`
 * for another build of it) serves the built-in realistic account from a child process with a
 * `--state` file, while this process sends a plain `GET /projects` every 100 ms and records how
 * long each took to be answered. Meanwhile another client runs, in turn:
 *
 * 1. `--tables` tables (4,000 by default) created by migrations of `--chunk` tables each on the
 *    default branch's database, then one small migration (a one-column table) timed `--small`
 *    times: the cost of a small change on a large schema;
 * 2. a migration at the size limit made of `CREATE TABLE` statements, and one made of one
 *    `CHECK` of `a + 1` terms (the form the SQL parser is slowest on), then one byte past the
 *    limit (refused);
 * 3. `compare_schema` between two branches that each hold the most tables the limits allow, all
 *    different (the largest diff there can be);
 * 4. SIGTERM while the `CHECK` migration is being parsed: how long until the process exits, and
 *    its exit code.
 *
 * For each phase it prints the heavy requests' time and status, and the worst and 99th
 * percentile latency of the `GET /projects` probes sent meanwhile. A request that takes longer
 * than `--timeout` seconds is given up (the figure then reads `> timeout`).
 *
 * Usage: `node bench/schema.mjs [--bin dist/esm/bin/emulator.js] [--tables 4000] [--chunk 200]
 * [--small 5] [--timeout 180] [--migration-limit 1048576] [--table-limit 5000] [--only 1,2,3,4]`.
 * The limits default to the emulator's (`DdlParser.migrationLimitBytes`, `DdlParser.tableLimit`);
 * give them to run the same work against a build that has none. `--only` runs those phases alone
 * (phase 1 always runs: the others need its tables).
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync, statSync } from "node:fs"
import { request as httpRequest } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const flag = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`)
  return index < 0 ? fallback : process.argv[index + 1]
}

const bin = flag("bin", fileURLToPath(new URL("../dist/esm/bin/emulator.js", import.meta.url)))
const tables = Number(flag("tables", "4000"))
const chunk = Number(flag("chunk", "200"))
const smallRuns = Number(flag("small", "5"))
const timeoutMs = Number(flag("timeout", "180")) * 1000
const only = new Set((flag("only", "1,2,3,4") ?? "").split(",").map(Number))
const key = "bench-schema-key"
const token = "bench-schema-token"

/** The limits: given, else the emulator's own (from the testing package's build). */
const limits = async () => {
  const given = flag("migration-limit", undefined)
  if (given !== undefined) return { migrationBytes: Number(given), tables: Number(flag("table-limit", "5000")) }
  const { DdlParser } = await import("@dbplatform/testing")
  return { migrationBytes: DdlParser.migrationLimitBytes, tables: DdlParser.tableLimit }
}

const start = async (dir) => {
  const child = spawn(process.execPath, [bin, "--port", "0", "--state", join(dir, "state.json")], {
    env: { ...process.env, DBPLATFORM_EMULATOR_KEY: key, DBPLATFORM_EMULATOR_TOKEN: token },
    stdio: ["ignore", "pipe", "pipe"]
  })
  children.add(child)
  child.on("exit", () => children.delete(child))
  let output = ""
  let errors = ""
  child.stderr.setEncoding("utf8").on("data", (text) => {
    errors += text
  })
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })))
  const ready = await new Promise((resolve, reject) => {
    child.stdout.setEncoding("utf8").on("data", (text) => {
      output += text
      const base = /^DBPLATFORM_BASE_URL=(.+)$/m.exec(output)?.[1]
      const control = /^DBPLATFORM_EMULATOR_URL=(.+)$/m.exec(output)?.[1]
      if (base !== undefined && control !== undefined) resolve({ base, control })
    })
    exited.then(({ code }) => reject(new Error(`the emulator exited (${code}) before it was ready: ${errors}`)))
  })
  return { child, exited, ...ready }
}

/**
 * `method url` with a bearer credential and a JSON body, on a connection of its own (a kept-alive
 * one may be closed by a server that was stalled past its keep-alive time): its status, body and
 * time (ms); `timeout` past `--timeout`, `error` when the connection failed.
 */
const send = (method, url, credential, body) =>
  new Promise((resolve) => {
    const started = performance.now()
    const text = body === undefined ? undefined : JSON.stringify(body)
    const request = httpRequest(url, {
      method,
      agent: false,
      headers: {
        authorization: `Bearer ${credential}`,
        "content-type": "application/json",
        ...(text === undefined ? {} : { "content-length": Buffer.byteLength(text) })
      }
    })
    const timer = setTimeout(() => request.destroy(new Error("timeout")), timeoutMs)
    request.on("response", (response) => {
      const chunks = []
      response.on("data", (chunk) => chunks.push(chunk))
      response.on("end", () => {
        clearTimeout(timer)
        const answer = Buffer.concat(chunks).toString("utf8")
        resolve({
          status: response.statusCode,
          body: answer === "" ? undefined : JSON.parse(answer),
          ms: performance.now() - started
        })
      })
    })
    request.on("error", (error) => {
      clearTimeout(timer)
      resolve({
        status: error.message === "timeout" ? "timeout" : `error (${error.code ?? error.message})`,
        ms: performance.now() - started
      })
    })
    request.end(text)
  })

/** A `GET /projects` every 100 ms; `take()` answers those sent since the last take, once each is answered. */
const probe = (base) => {
  let samples = []
  const timer = setInterval(() => {
    const sample = { ms: undefined, status: undefined }
    sample.done = send("GET", `${base}/projects`, key).then((answer) => {
      sample.ms = answer.ms
      sample.status = answer.status
    })
    samples.push(sample)
  }, 100)
  return {
    take: async () => {
      const taken = samples
      samples = []
      await Promise.all(taken.map((sample) => sample.done))
      return taken
    },
    stop: () => clearInterval(timer)
  }
}

const summary = (samples) => {
  const ms = samples.map((sample) => sample.ms).sort((a, b) => a - b)
  const bad = samples.filter((sample) => sample.status !== 200).length
  const at = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]
  return ms.length === 0
    ? "no probe"
    : `${ms.length} probes, worst ${ms[ms.length - 1].toFixed(0)} ms, p99 ${at(0.99).toFixed(0)} ms, median ${at(0.5).toFixed(0)} ms${bad > 0 ? `, ${bad} not 200` : ""}`
}

const seconds = (ms) => (ms >= timeoutMs ? `> ${timeoutMs / 1000} s` : `${(ms / 1000).toFixed(2)} s`)

/** `count` tables named `{prefix}_{i}` from `from`, as DDL. */
const tableDdl = (prefix, from, count) =>
  Array.from(
    { length: count },
    (_, i) =>
      `CREATE TABLE ${prefix}_${from + i} (id bigint PRIMARY KEY, name text NOT NULL DEFAULT 'x', created_at timestamptz DEFAULT now(), owner_id integer);\n`
  ).join("")

/** At most `most` `CREATE TABLE` statements, as wide as it takes to fill `bytes`, and how many tables they make. */
const tablesOfSize = (prefix, bytes, most) => {
  const one = tableDdl(prefix, 100000, 1).length
  const count = Math.min(most, Math.floor(bytes / one))
  const extra = Math.max(0, Math.floor((bytes / count - one) / ", c_000 text".length))
  const columns = Array.from({ length: extra }, (_, i) => `, c_${String(i).padStart(3, "0")} text`).join("")
  let sql = tableDdl(prefix, 100000, count).replaceAll(", owner_id integer)", `, owner_id integer${columns})`)
  sql += " ".repeat(Math.max(0, bytes - Buffer.byteLength(sql)))
  return { sql, count }
}

/** One `CREATE TABLE` whose `CHECK` holds `a + 1` terms up to `bytes`. */
const checkOfSize = (name, bytes) => {
  const head = `CREATE TABLE ${name} (a integer CHECK (a + 1`
  const tail = " > 0));"
  const terms = Math.floor((bytes - head.length - tail.length) / " + a + 1".length)
  const sql = `${head}${" + a + 1".repeat(terms)}${tail}`
  return sql + " ".repeat(Math.max(0, bytes - sql.length))
}

/** The emulators started, stopped if this process ends first. */
const children = new Set()
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL")
})

const main = async () => {
  const limit = await limits()
  const dir = mkdtempSync(join(tmpdir(), "dbplatform-bench-schema-"))
  console.log(
    `emulator: ${bin}\nNode ${process.version}; migration limit ${limit.migrationBytes} bytes, ${limit.tables} tables per database; GET /projects every 100 ms`
  )
  const emulator = await start(dir)
  const control = (path, body) => send("POST", `${emulator.control}${path}`, token, body)
  const project = (await send("GET", `${emulator.base}/projects`, key)).body.projects[0].id
  const branches = (await send("GET", `${emulator.base}/projects/${project}/branches`, key)).body.branches
  const main = branches.find((branch) => branch.default).id
  const db = (await send("GET", `${emulator.base}/projects/${project}/branches/${main}/databases`, key)).body
    .databases[0].name
  // The realistic account's projects have operations running: let them end first.
  await control("/clock/advance", { by: "1 hour" })
  const other = (
    await send("POST", `${emulator.base}/projects/${project}/branches`, key, { branch: { name: "bench-other" } })
  ).body.branch.id
  const migrate = (branch, sql) =>
    control(`/projects/${project}/branches/${branch}/databases/${encodeURIComponent(db)}/migrate`, { sql })
  const probes = probe(emulator.base)
  const phase = async (name, work) => {
    await probes.take()
    const started = performance.now()
    const detail = await work()
    const elapsed = performance.now() - started
    console.log(
      `${name}: ${seconds(elapsed)}${detail === undefined ? "" : ` (${detail})`}; ${summary(await probes.take())}`
    )
  }

  // 1. A large schema, then small migrations on it.
  await phase(`${tables} tables in migrations of ${chunk}`, async () => {
    const slowest = { ms: 0 }
    for (let from = 0; from < tables; from += chunk) {
      const answer = await migrate(main, tableDdl("t", from, Math.min(chunk, tables - from)))
      if (answer.status !== 200) return `migration from table ${from}: ${answer.status} ${JSON.stringify(answer.body)}`
      slowest.ms = Math.max(slowest.ms, answer.ms)
    }
    return `slowest migration ${seconds(slowest.ms)}`
  })
  const small = []
  await phase(`one small migration after ${tables} tables, ${smallRuns} times`, async () => {
    for (let i = 0; i < smallRuns; i++) {
      const answer = await migrate(main, `CREATE TABLE small_${i} (id integer);`)
      small.push(answer.ms)
      if (answer.status !== 200) return `${answer.status} ${JSON.stringify(answer.body)}`
    }
    const sorted = [...small].sort((a, b) => a - b)
    return `median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, slowest ${sorted[sorted.length - 1].toFixed(0)} ms`
  })

  const tablesOf = async (branch) =>
    (
      await send(
        "GET",
        `${emulator.base}/projects/${project}/branches/${branch}/schema?db_name=${encodeURIComponent(db)}&format=json`,
        key
      )
    ).body.json.tables.length

  // 2. Migrations at the size limit, on the other branch, and one past it.
  const sizeLimit = async () => {
    const atLimit = tablesOfSize("big", limit.migrationBytes, limit.tables - (await tablesOf(other)) - 1)
    await phase(`a migration of ${atLimit.count} CREATE TABLE at the size limit`, async () => {
      const answer = await migrate(other, atLimit.sql)
      return `${answer.status} in ${seconds(answer.ms)}`
    })
    const check = checkOfSize("checked", limit.migrationBytes)
    await phase("a migration of one CHECK of `a + 1` terms at the size limit", async () => {
      const answer = await migrate(other, check)
      return `${answer.status} in ${seconds(answer.ms)}${answer.status === 200 ? "" : `: ${answer.body?.message?.slice(0, 120)}`}`
    })
    await phase("a migration one byte past the size limit", async () => {
      const answer = await migrate(other, `${atLimit.sql} `)
      return `${answer.status} in ${seconds(answer.ms)}${answer.status === 200 ? "" : `: ${answer.body?.message}`}`
    })
  }

  // 3. compare_schema on the largest schemas: both branches at the table limit, no table in common.
  const largestCompare = async () => {
    await phase(`both branches filled to ${limit.tables} tables`, async () => {
      for (const [branch, prefix] of [
        [main, "t"],
        [other, "o"]
      ]) {
        const now = await tablesOf(branch)
        for (let from = now; from < limit.tables; from += chunk) {
          const answer = await migrate(branch, tableDdl(`${prefix}_fill`, from, Math.min(chunk, limit.tables - from)))
          if (answer.status !== 200) return `${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`
        }
      }
      return undefined
    })
    await phase(`compare_schema of two schemas of ${limit.tables} tables, none in common`, async () => {
      const answer = await send(
        "GET",
        `${emulator.base}/projects/${project}/branches/${other}/compare_schema?db_name=${encodeURIComponent(db)}&base_branch_id=${main}`,
        key
      )
      return `${answer.status} in ${seconds(answer.ms)}${answer.status === 200 ? `, a diff of ${answer.body.diff.length} characters` : ""}`
    })
    await phase("one table more than the limit", async () => {
      const answer = await migrate(main, "CREATE TABLE one_too_many (id integer);")
      return `${answer.status}${answer.status === 200 ? "" : `: ${answer.body?.message}`}`
    })
  }

  // 4. SIGTERM while the CHECK migration is parsed.
  const sigterm = async () => {
    const stopped = emulator.exited
    const pending = migrate(other, checkOfSize("checked_again", limit.migrationBytes)).catch(() => undefined)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const signalled = performance.now()
    emulator.child.kill("SIGTERM")
    const exit = await Promise.race([stopped, new Promise((resolve) => setTimeout(() => resolve(undefined), 30_000))])
    if (exit === undefined) {
      emulator.child.kill("SIGKILL")
      console.log("SIGTERM during a CHECK migration at the size limit: still running after 30 s, killed")
    } else {
      console.log(
        `SIGTERM during a CHECK migration at the size limit: exited in ${((performance.now() - signalled) / 1000).toFixed(2)} s, code ${exit.code}${exit.signal === null ? "" : `, signal ${exit.signal}`}`
      )
    }
    await pending
  }

  if (only.has(2)) await sizeLimit()
  if (only.has(3)) await largestCompare()
  probes.stop()
  await probes.take()
  const state = statSync(join(dir, "state.json")).size
  const journal = statSync(join(dir, "state.json.journal")).size
  console.log(`state file ${(state / 1e6).toFixed(2)} MB, journal ${(journal / 1e6).toFixed(2)} MB`)
  if (only.has(4)) await sigterm()
  else {
    emulator.child.kill("SIGTERM")
    await emulator.exited
  }
  rmSync(dir, { recursive: true, force: true })
}

await main()
