/**
 * "Acknowledged means durable" for schema changes (docs/contract.md §24.3) under `--state`, on the
 * shipped command, as branchCrash.test.ts does for branches: workers run migrations through the
 * control API (`POST /_emulator/projects/{p}/branches/{b}/databases/{d}/migrate`), each on a
 * database of its own, adding a column at a time (and now and then one Postgres refuses), and the
 * emulator is killed with SIGKILL after a random number of acknowledged migrations (seeded RNGs, so
 * a failure replays), then restarted on the same state file.
 *
 * Time: the emulator's clock is frozen and moved on a second after each acknowledged migration,
 * so that each version of a schema has a time of its own (a restart moves it past them all).
 *
 * After each restart, read with `GET .../schema?format=json` over `fetch`: each database has
 * exactly the columns of its acknowledged migrations, in order, and at most the one more its
 * worker asked for without an answer (which, if shown, stays); a refused migration left nothing;
 * each acknowledged migration of the last run reads, at the time it answered, the columns it
 * made; and a child branch created then starts with the same schema (an empty diff).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { crashRuns } from "./crashRun.js"
import { frozenRestarts, random, type Running, send } from "./spawned.js"

const dir = mkdtempSync(join(tmpdir(), "dbplatform-schema-crash-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const apiKey = "schema-crash-test-key"
const token = "schema-crash-test-control-token"
const kills = 6
const project = "crash-schemas-0"
const main = "br-main-0"
const workers = 3
const databaseOf = (w: number) => `db${w}`

describe("--state under kill -9: schema changes", () => {
  it(`${kills} kills at random moments: every acknowledged migration survives, a refused one leaves nothing`, async () => {
    const state = join(dir, "state.json")
    const seed = join(dir, "seed.json")
    writeFileSync(
      seed,
      JSON.stringify({
        projects: [{ id: project }],
        branches: [{ project_id: project, id: main, name: "main", default: true }],
        roles: [{ branch_id: main, name: "owner" }],
        databases: Array.from({ length: workers }, (_, w) => ({
          branch_id: main,
          name: databaseOf(w),
          owner_name: "owner",
          schema: "CREATE TABLE t (id integer PRIMARY KEY)"
        }))
      })
    )
    /** Per worker: the columns acknowledged, in order, and the one asked for without an answer. */
    const columns: Array<Array<string>> = Array.from({ length: workers }, () => ["id"])
    const unanswered: Array<string | undefined> = Array.from({ length: workers }, () => undefined)
    /** The acknowledged migrations of the last run: when each answered, and the columns then (checked once). */
    let recent: Array<{ readonly w: number; readonly timestamp: string; readonly columns: ReadonlyArray<string> }> = []
    const { advance, restart } = frozenRestarts(
      state,
      { DBPLATFORM_EMULATOR_KEY: apiKey, DBPLATFORM_EMULATOR_TOKEN: token },
      // The longest run of operations a change starts: create_branch, of the child branch a check creates.
      2_000
    )
    const counts = { migrations: 0, refused: 0, adopted: 0 }

    const columnsAt = async (running: Running, w: number, timestamp?: string) => {
      const at = timestamp === undefined ? "" : `&timestamp=${timestamp}`
      const answer = await send(
        "GET",
        `${running.baseUrl}/projects/${project}/branches/${main}/schema?db_name=${databaseOf(w)}&format=json${at}`,
        apiKey
      )
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      return answer.body.json.tables[0].columns.map((column: any) => column.name) as Array<string>
    }

    /** The checks after a restart; resolves what migrations without an answer did. */
    const check = async (running: Running) => {
      for (let w = 0; w < workers; w++) {
        const read = await columnsAt(running, w)
        const maybe = unanswered[w]
        const expected = columns[w]!
        if (maybe !== undefined && read.length === expected.length + 1) {
          expect(read).toEqual([...expected, maybe])
          expected.push(maybe)
          counts.adopted += 1
        } else {
          expect(read, `the columns of ${databaseOf(w)}`).toEqual(expected)
        }
        unanswered[w] = undefined
      }
      for (const migration of recent) {
        expect(await columnsAt(running, migration.w, migration.timestamp)).toEqual(migration.columns)
      }
      recent = []
      // A child branch created now starts with the same schema: no difference with its parent.
      const created = await send("POST", `${running.baseUrl}/projects/${project}/branches`, apiKey, {})
      expect(created.status).toBe(201)
      const compared = await send(
        "GET",
        `${running.baseUrl}/projects/${project}/branches/${created.body.branch.id}/compare_schema?db_name=${databaseOf(0)}`,
        apiKey
      )
      expect(compared.body).toEqual({ diff: "" })
    }

    const summary = await crashRuns({
      kills,
      seed: 20261126,
      killAfter: { from: 3, span: 15 },
      restart,
      seedFile: seed,
      check,
      workers,
      worker: async (run, w) => {
        const { running, answers } = run
        const next = random(run.index * 1000 + w)
        let op = 0
        while (!run.killed) {
          const refused = next() < 0.2
          const column = `c${run.index}_${op++}`
          const sql = refused ? "ALTER TABLE t DROP COLUMN nope" : `ALTER TABLE t ADD COLUMN ${column} integer`
          if (!refused) unanswered[w] = column
          const answer = await run.call(
            "POST",
            `${running.controlUrl}/projects/${project}/branches/${main}/databases/${databaseOf(w)}/migrate`,
            token,
            { sql }
          )
          if (answer === undefined) continue
          if (refused) {
            expect(answer.status, JSON.stringify(answer.body)).toBe(400)
            expect(answer.body.message).toContain('column "nope" of relation "t" does not exist')
            counts.refused += 1
            continue
          }
          expect(answer.status, JSON.stringify(answer.body)).toBe(200)
          unanswered[w] = undefined
          columns[w]!.push(column)
          const made = answer.body.json.tables[0].columns.map((made: any) => made.name)
          expect(made).toEqual(columns[w])
          recent.push({ w, timestamp: answer.body.timestamp, columns: made })
          counts.migrations += 1
          run.acknowledge()
          await advance(running, 1_000, answers)
        }
      }
    })

    expect(counts.migrations).toBeGreaterThan(kills)
    expect(counts.refused).toBeGreaterThan(0)
    console.log(
      `schema crash test: ${kills} kills; acknowledged ${counts.migrations} migrations, ${counts.refused} refused, ` +
        `${summary.unanswered} unanswered (${counts.adopted} shown after a restart); 0 lost, nothing unasked for`
    )
    // No timeout of its own (0): crashRuns bounds each step of the kill loop instead (stepBound).
  }, 0)
})
