/**
 * The clock is part of the state (`--state`), under kill -9, on the shipped command: the
 * emulator's clock is frozen once, at the first start, and never by a restart; two workers change
 * things and move the clock an hour on after each change (its control API's `clock/advance`): one
 * runs migrations (`POST /_emulator/.../migrate`, a column at a time), one creates branches
 * (`POST /projects/{p}/branches`, each starting operations that end within seconds). The emulator
 * is killed with SIGKILL after a random number of acknowledged changes (seeded RNGs, so a failure
 * replays) and started again on the same state file, with nothing moving its clock.
 *
 * After each restart: the clock is still frozen and reads no earlier than the last reading
 * acknowledged before the kill (an advance's answer, a change's time), and no later than that
 * plus the advances sent without an answer; every acknowledged migration is in the schema read
 * now (`GET .../schema`), every acknowledged branch is there, created no later than now, and the
 * operations of a branch created before an acknowledged advance are finished, not `scheduling`
 * again.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { crashRuns } from "./crashRun.js"
import { random, type Running, send, start } from "./spawned.js"

const dir = mkdtempSync(join(tmpdir(), "dbplatform-clock-crash-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const apiKey = "clock-crash-test-key"
const token = "clock-crash-test-control-token"
const kills = 4
const schemaProject = "clock-schemas-0"
const schemaBranch = "br-main-0"
const database = "app"
const branchProject = "clock-branches-0"
const hour = 3_600_000

describe("--state under kill -9: the clock", () => {
  it(`${kills} kills while the frozen clock moves between changes: it resumes where it was, every acknowledged change visible`, async () => {
    const state = join(dir, "state.json")
    const seed = join(dir, "seed.json")
    writeFileSync(
      seed,
      JSON.stringify({
        projects: [{ id: schemaProject }, { id: branchProject }],
        branches: [
          { project_id: schemaProject, id: schemaBranch, name: "main", default: true },
          { project_id: branchProject, id: "br-trunk-0", name: "trunk", default: true }
        ],
        roles: [{ branch_id: schemaBranch, name: "owner" }],
        databases: [
          {
            branch_id: schemaBranch,
            name: database,
            owner_name: "owner",
            schema: "CREATE TABLE t (id integer PRIMARY KEY)"
          }
        ]
      })
    )
    /** The latest clock reading acknowledged: an advance's answer, or the time of an acknowledged change. */
    let acknowledgedClock = 0
    /** The milliseconds of the advances sent in the last run without an answer: they may have been made. */
    let unansweredAdvance = 0
    /** The columns acknowledged, in order, and the one asked for without an answer. */
    const columns = ["id"]
    let maybeColumn: string | undefined
    /** The branches acknowledged; `settled` once an advance past their operations was acknowledged. */
    const branches: Array<{ readonly id: string; readonly createdAt: number; settled: boolean }> = []
    const counts = { migrations: 0, branches: 0, advances: 0, locked: 0, adopted: 0 }
    const readings: Array<string> = []

    const restart = (args: ReadonlyArray<string>) =>
      start(["--state", state, ...args, "--port", "0"], {
        DBPLATFORM_EMULATOR_KEY: apiKey,
        DBPLATFORM_EMULATOR_TOKEN: token
      })

    /** Moves the clock on by `ms`; a failure is one only while the emulator answers. */
    const advance = async (running: Running, ms: number, answers: () => boolean) => {
      unansweredAdvance += ms
      const settling = branches.filter((branch) => !branch.settled)
      let answer: Awaited<ReturnType<typeof send>>
      try {
        answer = await send("POST", `${running.controlUrl}/clock/advance`, token, { by: ms })
      } catch (error) {
        if (answers()) throw error
        return
      }
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      unansweredAdvance -= ms
      acknowledgedClock = Math.max(acknowledgedClock, answer.body.now_ms)
      for (const branch of settling) branch.settled = true
      counts.advances += 1
    }

    /** The checks after a start; resolves what a migration without an answer did. */
    const check = async (running: Running) => {
      const clock = await send("GET", `${running.controlUrl}/clock`, token)
      expect(clock.status).toBe(200)
      if (acknowledgedClock === 0) {
        // The first start: freeze the clock, once for all the runs.
        const frozen = await send("POST", `${running.controlUrl}/clock/freeze`, token)
        expect(frozen.status).toBe(200)
        acknowledgedClock = frozen.body.now_ms
      } else {
        const now: number = clock.body.now_ms
        readings.push(`${(now - acknowledgedClock) / hour} h`)
        expect(clock.body.frozen, "the clock is frozen as it was").toBe(true)
        expect(now, "the clock reads no earlier than before the kill").toBeGreaterThanOrEqual(acknowledgedClock)
        expect(now, "nor later than the advances asked for").toBeLessThanOrEqual(acknowledgedClock + unansweredAdvance)
        acknowledgedClock = now
      }
      unansweredAdvance = 0
      const now: number = (await send("GET", `${running.controlUrl}/clock`, token)).body.now_ms

      const schema = await send(
        "GET",
        `${running.baseUrl}/projects/${schemaProject}/branches/${schemaBranch}/schema?db_name=${database}&format=json`,
        apiKey
      )
      expect(schema.status, JSON.stringify(schema.body)).toBe(200)
      const read: Array<string> = schema.body.json.tables[0].columns.map((column: any) => column.name)
      if (maybeColumn !== undefined && read.length === columns.length + 1) {
        expect(read).toEqual([...columns, maybeColumn])
        columns.push(maybeColumn)
        counts.adopted += 1
      } else {
        expect(read, "every acknowledged migration, in the schema read now").toEqual(columns)
      }
      maybeColumn = undefined

      const { operations } = (await send("GET", `${running.baseUrl}/projects/${branchProject}/operations`, apiKey)).body
      for (const branch of branches) {
        const got = await send("GET", `${running.baseUrl}/projects/${branchProject}/branches/${branch.id}`, apiKey)
        expect(got.status, `acknowledged branch ${branch.id}`).toBe(200)
        expect(Date.parse(got.body.branch.created_at), `the created_at of branch ${branch.id}`).toBe(branch.createdAt)
        expect(branch.createdAt, `branch ${branch.id} created no later than now`).toBeLessThanOrEqual(now)
        if (!branch.settled) continue
        const mine = operations.filter((operation: any) => operation.branch_id === branch.id)
        expect(mine.length, `the operations of branch ${branch.id}`).toBeGreaterThan(0)
        for (const operation of mine) {
          expect(operation.status, `operation ${operation.action} of branch ${branch.id}`).toBe("finished")
        }
      }
    }

    const summary = await crashRuns({
      kills,
      seed: 20261203,
      killAfter: { from: 3, span: 10 },
      // A migration (worker 0) and a branch (worker 1) acknowledged in every run before its kill.
      groups: 2,
      restart,
      seedFile: seed,
      check,
      workers: 2,
      worker: async (run, w) => {
        const { running, answers } = run
        const next = random(run.index * 1000 + w)
        let op = 0
        while (!run.killed) {
          if (w === 0) {
            const column = `c${run.index}_${op++}`
            maybeColumn = column
            const answer = await run.call(
              "POST",
              `${running.controlUrl}/projects/${schemaProject}/branches/${schemaBranch}/databases/${database}/migrate`,
              token,
              { sql: `ALTER TABLE t ADD COLUMN ${column} integer` }
            )
            if (answer === undefined) continue
            expect(answer.status, JSON.stringify(answer.body)).toBe(200)
            maybeColumn = undefined
            columns.push(column)
            acknowledgedClock = Math.max(acknowledgedClock, Date.parse(answer.body.timestamp))
            counts.migrations += 1
          } else {
            const answer = await run.call("POST", `${running.baseUrl}/projects/${branchProject}/branches`, apiKey, {
              branch: { name: `r${run.index}-${op++}` }
            })
            if (answer === undefined) continue
            if (answer.status === 423) {
              // The operations of a branch created before the kill hold the project: move past them.
              counts.locked += 1
              await advance(running, hour, answers)
              continue
            }
            expect(answer.status, JSON.stringify(answer.body)).toBe(201)
            const createdAt = Date.parse(answer.body.branch.created_at)
            branches.push({ id: answer.body.branch.id, createdAt, settled: false })
            acknowledgedClock = Math.max(acknowledgedClock, createdAt)
            counts.branches += 1
          }
          run.acknowledge(w)
          // Now and then two changes before the clock moves on.
          if (next() < 0.8) await advance(running, hour, answers)
        }
      }
    })

    // Every run has both (`groups`), whatever the machine's speed.
    expect(counts.migrations).toBeGreaterThanOrEqual(kills)
    expect(counts.branches).toBeGreaterThanOrEqual(kills)
    console.log(
      `clock crash test: ${kills} kills; acknowledged ${counts.migrations} migrations, ${counts.branches} branches, ` +
        `${counts.advances} advances of an hour (${counts.locked} creations refused with 423 first); ` +
        `${summary.unanswered} unanswered (${counts.adopted} migrations shown after a restart); ` +
        `the clock after each start, ahead of the last reading acknowledged: ${readings.join(", ")}; 0 lost`
    )
    // No timeout of its own (0): crashRuns bounds each step of the kill loop instead (stepBound).
  }, 0)
})
