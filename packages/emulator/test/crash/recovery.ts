/**
 * Branch recovery, anonymization and a branch's credentials (docs/contract.md §18.3, §18.4, §11.7)
 * under kill -9 (an area of crash.test.ts, see crashAreas.ts): one worker per project deletes and
 * recovers its leaf branches, creates anonymized branches and starts their anonymization, and
 * creates and revokes credentials on its default branch, over plain `fetch`.
 *
 * After each restart, for every project: each branch whose last change was acknowledged is there
 * (recovered) or gone (deleted) as it left it; every acknowledged anonymized branch has its status,
 * with a last run exactly when a start was acknowledged; every acknowledged credential is listed,
 * revoked exactly when its revocation was acknowledged; nothing appears that no request asked for.
 * It moves the shared clock on past its own operations (a deletion's, an anonymized branch's
 * creation) and past the ones that lock a project (a 423); it expects nothing of what the clock reads.
 */
import { expect } from "vitest"
import type { CrashArea, CrashContext } from "../crashAreas.js"
import { type Answer, random, type Running, send } from "../spawned.js"

const projects = ["crash-recover-0", "crash-recover-1"]
const leaves = [1, 2, 3]
const mainOf = (p: number) => `br-recover-main-${p}`
/** The longest the operations of one change run, in ms: a branch deletion's, well under 10 s. */
const longestChange = 10_000

/** What the test knows of one project; `undefined` where a request got no answer (resolved at the next restart). */
interface Tracked {
  /** Each leaf branch: live (`true`), deleted (`false`). */
  readonly live: Map<string, boolean | undefined>
  /** Each acknowledged credential: revoked or not, `undefined` when its revocation went unanswered. */
  credentials: Map<string, boolean | undefined>
  unansweredCreates: number
  /** Each acknowledged anonymized branch: whether a run was started, `undefined` when its start went unanswered. */
  anonymized: Map<string, boolean | undefined>
  unansweredAnonymized: number
}

const leafOf = (p: number, leaf: number) => `br-recover-leaf-${p}${leaf}`

export const recovery = ({ apiKey, advance }: CrashContext): CrashArea => {
  const tracked = projects.map(
    (_, p): Tracked => ({
      live: new Map(leaves.map((leaf) => [leafOf(p, leaf), true])),
      credentials: new Map(),
      unansweredCreates: 0,
      anonymized: new Map(),
      unansweredAnonymized: 0
    })
  )
  const counts = { changes: 0, deleted: 0, recovered: 0, anonymized: 0, runs: 0, created: 0, revoked: 0, locked: 0 }

  const check = async (running: Running) => {
    const api = (path: string) => send("GET", `${running.baseUrl}${path}`, apiKey)
    for (const [p, project] of projects.entries()) {
      const known = tracked[p]!
      for (const [branch, live] of known.live) {
        const read = await api(`/projects/${project}/branches/${branch}`)
        expect([200, 404]).toContain(read.status)
        if (live !== undefined) expect(read.status === 200, `${project}: ${branch} live`).toBe(live)
        known.live.set(branch, read.status === 200)
      }
      const listed = (await api(`/projects/${project}/branches/${mainOf(p)}/credentials`)).body
        .credentials as Array<any>
      const revoked = new Map(listed.map((one) => [one.token_id as string, one.revoked_at !== undefined]))
      for (const [id, wasRevoked] of known.credentials) {
        expect(revoked.has(id), `${project}: credential ${id}`).toBe(true)
        if (wasRevoked !== undefined) expect(revoked.get(id), `${project}: ${id} revoked`).toBe(wasRevoked)
      }
      const unknown = listed.filter((one) => !known.credentials.has(one.token_id))
      expect(unknown.length, `${project}: credentials no request made`).toBeLessThanOrEqual(known.unansweredCreates)
      known.credentials = revoked
      known.unansweredCreates = 0
      for (const [branch, started] of known.anonymized) {
        const status = await api(`/projects/${project}/branches/${branch}/anonymized_status`)
        expect(status.status, `${project}: anonymized ${branch}`).toBe(200)
        const ran = status.body.last_run !== undefined
        if (started !== undefined) expect(ran, `${project}: ${branch} run`).toBe(started)
        // The clock moved past every run: none is still going.
        expect(status.body.state, `${project}: ${branch}`).toBe(ran ? "anonymized" : "initialized")
        known.anonymized.set(branch, ran)
      }
      const all = (await api(`/projects/${project}/branches`)).body.branches as Array<any>
      const unknownAnonymized = all.filter((one) => one.name.startsWith("anon-") && !known.anonymized.has(one.id))
      expect(unknownAnonymized.length, `${project}: anonymized branches no request made`).toBeLessThanOrEqual(
        known.unansweredAnonymized
      )
      for (const one of unknownAnonymized) known.anonymized.set(one.id, undefined)
      known.unansweredAnonymized = 0
    }
  }

  return {
    name: "branch recovery and credentials",
    seed: {
      projects: projects.map((id) => ({ id })),
      branches: projects.flatMap((project, p) => [
        { project_id: project, id: mainOf(p), name: "main", default: true },
        ...leaves.map((leaf) => ({
          project_id: project,
          id: leafOf(p, leaf),
          name: `leaf-${leaf}`,
          parent_id: mainOf(p)
        }))
      ]),
      roles: projects.map((_, p) => ({ branch_id: mainOf(p), name: "owner" })),
      databases: projects.map((_, p) => ({ branch_id: mainOf(p), name: "neondb", owner_name: "owner" }))
    },
    workers: projects.length,
    longestChange,
    check,
    worker: async (run, w) => {
      const { running, answers } = run
      const acknowledge = () => {
        counts.changes += 1
        run.acknowledge()
      }
      const project = `${running.baseUrl}/projects/${projects[w]}`
      const known = tracked[w]!
      const next = random(run.index * 1000 + w)
      let n = 0
      while (!run.killed) {
        n += 1
        const choice = next()
        /** A 423: nothing changed; the clock is moved past the operations that hold the project. */
        const locked = async (answer: Answer) => {
          if (answer.status !== 423) return false
          counts.locked += 1
          await advance(running, longestChange, answers)
          return true
        }
        if (choice < 0.35) {
          const branch = leafOf(w, leaves[Math.floor(next() * leaves.length)]!)
          const live = known.live.get(branch)
          if (live === undefined) continue
          const answer = live
            ? await run.call("DELETE", `${project}/branches/${branch}`, apiKey)
            : await run.call("POST", `${project}/branches/${branch}/recover`, apiKey)
          if (answer === undefined) {
            known.live.set(branch, undefined)
            continue
          }
          if (await locked(answer)) continue
          expect(answer.status, JSON.stringify(answer.body)).toBe(200)
          known.live.set(branch, !live)
          if (live) counts.deleted += 1
          else counts.recovered += 1
          acknowledge()
          // The deletion's operations end before the next change of the project.
          if (live) await advance(running, longestChange, answers)
        } else if (choice < 0.5) {
          const answer = await run.call("POST", `${project}/branch_anonymized`, apiKey, {
            branch_create: { branch: { name: `anon-${run.index}-${n}`, parent_id: mainOf(w) } }
          })
          if (answer === undefined) {
            known.unansweredAnonymized += 1
            continue
          }
          if (await locked(answer)) continue
          expect(answer.status, JSON.stringify(answer.body)).toBe(201)
          known.anonymized.set(answer.body.branch.id, false)
          counts.anonymized += 1
          acknowledge()
          // Its create_branch ends, and the branch is initialized, before the next change.
          await advance(running, longestChange, answers)
        } else if (choice < 0.65) {
          const ready = Array.from(known.anonymized).filter(([, started]) => started === false)
          if (ready.length === 0) continue
          const [branch] = ready[Math.floor(next() * ready.length)]!
          const answer = await run.call("POST", `${project}/branches/${branch}/anonymize`, apiKey)
          if (answer === undefined) {
            known.anonymized.set(branch, undefined)
            continue
          }
          expect(answer.status, JSON.stringify(answer.body)).toBe(200)
          known.anonymized.set(branch, true)
          counts.runs += 1
          acknowledge()
        } else if (choice < 0.85 || known.credentials.size === 0) {
          const answer = await run.call("POST", `${project}/branches/${mainOf(w)}/credentials`, apiKey, {
            name: `r${run.index}`,
            scopes: ["storage:read"],
            principal_type: "user"
          })
          if (answer === undefined) {
            known.unansweredCreates += 1
            continue
          }
          expect(answer.status, JSON.stringify(answer.body)).toBe(201)
          known.credentials.set(answer.body.token_id, false)
          counts.created += 1
          acknowledge()
        } else {
          const active = Array.from(known.credentials).filter(([, revoked]) => revoked === false)
          if (active.length === 0) continue
          const [id] = active[Math.floor(next() * active.length)]!
          const answer = await run.call("DELETE", `${project}/branches/${mainOf(w)}/credentials/${id}`, apiKey)
          if (answer === undefined) {
            known.credentials.set(id, undefined)
            continue
          }
          expect(answer.status, JSON.stringify(answer.body)).toBe(204)
          known.credentials.set(id, true)
          counts.revoked += 1
          acknowledge()
        }
      }
    },
    finish: () => {
      // Every kind of change was acknowledged and checked at least once.
      expect(counts.deleted).toBeGreaterThan(0)
      expect(counts.recovered).toBeGreaterThan(0)
      expect(counts.anonymized).toBeGreaterThan(0)
      expect(counts.runs).toBeGreaterThan(0)
      expect(counts.created).toBeGreaterThan(0)
      expect(counts.revoked).toBeGreaterThan(0)
      return (
        `acknowledged ${counts.deleted} deletions, ${counts.recovered} recoveries, ${counts.anonymized} anonymized branches ` +
        `(${counts.runs} runs), ${counts.created} credentials, ${counts.revoked} revocations (${counts.locked} 423s): 0 lost, nothing unasked for`
      )
    }
  }
}
