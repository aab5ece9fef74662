/**
 * Schema changes (docs/contract.md §24.3) under kill -9 (an area of crashProjects.test.ts, see
 * crashAreas.ts): workers run migrations through the control API
 * (`POST /_emulator/projects/{p}/branches/{b}/databases/{d}/migrate`), each on a database of its
 * own, adding a column at a time (and now and then one Postgres refuses).
 *
 * Time: the shared clock is frozen; a worker moves it on a second after each acknowledged
 * migration, so that each version of its database's schema has a time of its own (other areas'
 * advances only add to it; a restart moves it past them all). What it checks of time is the
 * time each migration answered with, as the clock read it.
 *
 * After each restart, read with `GET .../schema?format=json` over `fetch`: each database has
 * exactly the columns of its acknowledged migrations, in order, and at most the one more its
 * worker asked for without an answer (which, if shown, stays); a refused migration left nothing;
 * each acknowledged migration of the last run reads, at the time it answered, the columns it
 * made; and a child branch created then starts with the same schema (an empty diff).
 */
import { expect } from "vitest"
import type { CrashArea, CrashContext } from "../crashAreas.js"
import { random, type Running, send } from "../spawned.js"

/** The kills of this test when it had a run of its own: each count below is checked against it. */
const ownKills = 6
const project = "crash-schemas-0"
const main = "br-schema-main-0"
const workers = 3
const databaseOf = (w: number) => `db${w}`

export const schemas = ({ apiKey, token, advance }: CrashContext): CrashArea => {
  /** Per worker: the columns acknowledged, in order, and the one asked for without an answer. */
  const columns: Array<Array<string>> = Array.from({ length: workers }, () => ["id"])
  const unanswered: Array<string | undefined> = Array.from({ length: workers }, () => undefined)
  /** The acknowledged migrations of the last run: when each answered, and the columns then (checked once). */
  let recent: Array<{ readonly w: number; readonly timestamp: string; readonly columns: ReadonlyArray<string> }> = []
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

  return {
    name: "schema changes",
    seed: {
      projects: [{ id: project }],
      branches: [{ project_id: project, id: main, name: "main", default: true }],
      roles: [{ branch_id: main, name: "owner" }],
      databases: Array.from({ length: workers }, (_, w) => ({
        branch_id: main,
        name: databaseOf(w),
        owner_name: "owner",
        schema: "CREATE TABLE t (id integer PRIMARY KEY)"
      }))
    },
    workers,
    // The longest run of operations a change starts: create_branch, of the child branch a check creates.
    longestChange: 2_000,
    check,
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
    },
    finish: () => {
      expect(counts.migrations).toBeGreaterThan(ownKills)
      expect(counts.refused).toBeGreaterThan(0)
      return `acknowledged ${counts.migrations} migrations, ${counts.refused} refused (${counts.adopted} unanswered ones shown after a restart); 0 lost, nothing unasked for`
    }
  }
}
