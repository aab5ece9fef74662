/**
 * Branches (docs/contract.md §11) under kill -9 (an area of crashProjects.test.ts, see
 * crashAreas.ts): workers create branches (with and without a read_write compute endpoint, some
 * expiring), rename them, set or clear their expiry and delete them over plain `fetch`, two per
 * seeded project, and now and then move the clock past a sweep of the control plane, which deletes
 * the branches whose expiry has passed (docs/contract.md §18).
 *
 * Time: the shared clock is frozen and moved through the control API only, by this area's workers
 * and by the other areas'. A mutation starts operations that hold its project (423 Locked, a
 * refusal that changes nothing) until the clock passes their end: a worker moves it on after each
 * change that started some, and after a 423. Every time it checks is what the clock reads: an
 * expiry is set from the clock's reading, a sweep is due once the clock reads past it (whoever
 * moved it there), an operation is pending only if it started within the longest change before
 * the clock's reading.
 *
 * After each restart: every acknowledged creation is listed, under the name and expiry last
 * acknowledged, with the compute endpoints it was created with, unless that expiry's sweep has
 * passed: then it is gone, with the control plane's `delete_timeline`; every acknowledged deletion
 * is gone (404); the operations of every acknowledged change of the last run exist and, the clock
 * moved on, none is pending; no id is handed out twice; and no branch is listed that no request
 * created (the seed's and the acknowledged ones, and those of requests that got no answer, which
 * may or may not have happened: what a restart shows of those is what holds from then on).
 */
import { expect } from "vitest"
import { acknowledgedOperations } from "../crashRun.js"
import type { CrashArea, CrashContext } from "../crashAreas.js"
import { random, type Running, send } from "../spawned.js"

/** The kills of this test when it had a run of its own: each count below is checked against it. */
const ownKills = 10
const projects = ["crash-branches-0", "crash-branches-1", "crash-branches-2"]
const workersPerProject = 2
/** The longest the operations of one change run, in ms: create_branch 2 s + start_compute 3 s. */
const longestChange = 5_000
/** The control plane's sweep of expired branches: every 10 minutes, on the clock's whole ten minutes. */
const sweep = 600_000
/** When the sweep deletes a branch expiring at `at` (epoch ms). */
const sweepAfter = (at: number) => Math.ceil(at / sweep) * sweep

/** A branch as the test knows it. */
interface Tracked {
  readonly id: string
  readonly project: string
  /** The names it may have: one, or two after a rename that got no answer (resolved at the next restart). */
  names: ReadonlyArray<string>
  /** `undefined` after a deletion that got no answer (resolved at the next restart). */
  deleted: boolean | undefined
  /** Its compute endpoints' ids, as created. */
  readonly endpoints: ReadonlyArray<string>
  /** The worker that changes it; -1 for none (the default branch, a creation seen only after a restart). */
  readonly owner: number
  /** The `expires_at`s (epoch ms; `null`: none) it may have: one, or two after an update that got no answer. */
  expiries: ReadonlyArray<number | null>
}

export const branches = ({ apiKey, advance }: CrashContext): CrashArea => {
  const tracked = new Map<string, Tracked>()
  projects.forEach((project, i) => {
    tracked.set(`br-branches-main-${i}`, {
      id: `br-branches-main-${i}`,
      project,
      names: ["main"],
      deleted: false,
      endpoints: [],
      owner: -1,
      expiries: [null]
    })
    tracked.set(`br-branches-seeded-${i}`, {
      id: `br-branches-seeded-${i}`,
      project,
      names: [`seeded-${i}`],
      deleted: false,
      endpoints: [`ep-branches-seeded-${i}`],
      owner: i * workersPerProject,
      expiries: [null]
    })
  })
  /** Every branch and compute endpoint id ever handed out or seen: none may come twice. */
  const ids = new Set<string>([...tracked.keys(), ...projects.map((_, i) => `ep-branches-seeded-${i}`)])
  /** Per project, the names of creations that got no answer in the last run: they may appear once. */
  const unanswered = new Map<string, Set<string>>(projects.map((project) => [project, new Set()]))
  /** Operations of changes acknowledged in the last run, checked (once) after the restart. */
  const recentOperations = acknowledgedOperations(apiKey)
  const counts = {
    creates: 0,
    withEndpoint: 0,
    renames: 0,
    deletes: 0,
    expiries: 0,
    expired: 0,
    sweeps: 0,
    locked: 0,
    adopted: 0
  }
  /** The emulator's time now (epoch ms), from its control API. */
  const clockOf = async (running: Running): Promise<number> => (await running.control((c) => c.clock())).now_ms

  /** The checks after a restart; resolves what requests without an answer did. */
  const check = async (running: Running) => {
    const api = (path: string) => send("GET", `${running.baseUrl}${path}`, apiKey)
    const now = await clockOf(running)
    for (const project of projects) {
      const listed = await api(`/projects/${project}/branches`)
      expect(listed.status).toBe(200)
      const byId = new Map<string, string>(listed.body.branches.map((branch: any) => [branch.id, branch.name]))
      const expiryOf = new Map<string, number | null>(
        listed.body.branches.map((branch: any) => [
          branch.id,
          branch.expires_at === undefined ? null : Date.parse(branch.expires_at)
        ])
      )
      expect(byId.size, "a branch listed twice").toBe(listed.body.branches.length)
      const { operations: all } = (await api(`/projects/${project}/operations`)).body
      for (const branch of tracked.values()) {
        if (branch.project !== project) continue
        const name = byId.get(branch.id)
        // An acknowledged expiry whose sweep has passed: deleted by the control plane. Two
        // possible expiries (an update without an answer): either may hold.
        const expired = branch.expiries.map((at) => at !== null && sweepAfter(at) <= now)
        const mustBeGone = branch.deleted === true || (branch.deleted === false && expired.every((yes) => yes))
        const mayBeGone = branch.deleted !== false || expired.some((yes) => yes)
        if (mustBeGone) expect(name, `branch ${branch.id} (${branch.names}) gone`).toBeUndefined()
        if (!mayBeGone) expect(name, `branch ${branch.id} (${branch.names}) listed`).toBeDefined()
        if (name === undefined && branch.deleted === false) {
          // Expired: the control plane's delete_timeline of it is there.
          const deletion = all.find(
            (operation: any) => operation.action === "delete_timeline" && operation.branch_id === branch.id
          )
          expect(deletion, `the control plane's delete_timeline of the expired ${branch.id}`).toBeDefined()
          counts.expired += 1
        }
        branch.deleted = name === undefined
        if (name === undefined) continue
        expect(branch.names, `the name of branch ${branch.id}`).toContain(name)
        branch.names = [name]
        expect(branch.expiries, `the expiry of branch ${branch.id}`).toContain(expiryOf.get(branch.id))
        branch.expiries = [expiryOf.get(branch.id)!]
        if (branch.endpoints.length > 0) {
          const endpoints = await api(`/projects/${project}/branches/${branch.id}/endpoints`)
          expect(endpoints.body.endpoints.map((endpoint: any) => endpoint.id)).toEqual(branch.endpoints)
        }
      }
      for (const [id, name] of byId) {
        if (tracked.has(id)) continue
        // Only a creation without an answer may show a branch the test did not know of.
        expect(unanswered.get(project)!.has(name), `branch ${id} (${name}) that no request created`).toBe(true)
        expect(ids.has(id), `id ${id} handed out twice`).toBe(false)
        ids.add(id)
        tracked.set(id, {
          id,
          project,
          names: [name],
          deleted: false,
          endpoints: [],
          owner: -1,
          expiries: [expiryOf.get(id)!]
        })
        counts.adopted += 1
      }
      // What the restart does not show of them never happened, and never will.
      unanswered.get(project)!.clear()
      const gone = Array.from(tracked.values()).filter((branch) => branch.project === project && branch.deleted)
      for (const branch of gone.slice(-3)) {
        expect((await api(`/projects/${project}/branches/${branch.id}`)).status).toBe(404)
      }
      // The clock moved on past every saved operation: none is pending. (The control plane's
      // hourly check_availability, docs/contract.md §12, is started at its own times, this
      // moment's included: it may be running.)
      const operations = await api(`/projects/${project}/operations?limit=50`)
      expect(operations.status).toBe(200)
      for (const operation of operations.body.operations) {
        if (operation.action === "check_availability") continue
        // An expiry's operations, started by a sweep of the control plane just before now, may still run.
        if (Date.parse(operation.created_at) > now - longestChange) continue
        expect(operation.status, `operation ${operation.id} (${operation.action})`).toBe("finished")
      }
    }
    await recentOperations.check(running)
  }

  return {
    name: "branches",
    // Each project: its default branch, and a child with a compute endpoint, both changed by the workers too.
    seed: {
      projects: projects.map((id) => ({ id })),
      branches: projects.flatMap((project, i) => [
        { project_id: project, id: `br-branches-main-${i}`, name: "main", default: true },
        { project_id: project, id: `br-branches-seeded-${i}`, name: `seeded-${i}` }
      ]),
      // Never suspended: the control plane's own suspend_compute would run at times of its own.
      endpoints: projects.map((_, i) => ({
        branch_id: `br-branches-seeded-${i}`,
        id: `ep-branches-seeded-${i}`,
        suspend_timeout_seconds: -1
      }))
    },
    workers: projects.length * workersPerProject,
    longestChange,
    check,
    worker: async (run, w) => {
      const { running, answers } = run
      const project = projects[Math.floor(w / workersPerProject)]!
      const next = random(run.index * 1000 + w)
      let op = 0
      while (!run.killed) {
        const mine = Array.from(tracked.values()).filter(
          (branch) =>
            branch.owner === w && branch.deleted === false && branch.names.length === 1 && branch.expiries.length === 1
        )
        if (next() < 0.05) {
          // Past the next sweep of the control plane: the branches whose expiry has passed go.
          counts.sweeps += 1
          await advance(running, sweep, answers)
          continue
        }
        const choice = next()
        const branch = mine.length === 0 || choice < 0.4 ? undefined : mine[Math.floor(next() * mine.length)]!
        const name = `r${run.index}-w${w}-${op++}`
        const url = `${running.baseUrl}/projects/${project}/branches`
        const action = branch === undefined ? "create" : choice < 0.6 ? "rename" : choice < 0.8 ? "expire" : "delete"
        const withEndpoint = action === "create" && next() < 0.5
        // An expiry 1 to 15 minutes from now (to the second), or none (an update clears it).
        const lifetime = [null, 60_000, 300_000, 900_000][Math.floor(next() * 4)]!
        let expiry: number | null = null
        if (lifetime !== null && (action === "create" || action === "expire")) {
          try {
            expiry = Math.floor(((await clockOf(running)) + lifetime) / 1000) * 1000
          } catch (error) {
            if (!run.killed) throw error
            continue
          }
        }
        const expires_at = expiry === null ? null : new Date(expiry).toISOString().replace(".000Z", "Z")
        if (action === "create") unanswered.get(project)!.add(name) // until answered
        if (action === "rename") branch!.names = [branch!.names[0]!, name]
        if (action === "expire") branch!.expiries = [branch!.expiries[0]!, expiry]
        if (action === "delete") branch!.deleted = undefined
        const answer =
          action === "create"
            ? await run.call("POST", url, apiKey, {
                branch: { name, ...(expires_at === null ? {} : { expires_at }) },
                ...(withEndpoint ? { endpoints: [{ type: "read_write", suspend_timeout_seconds: -1 }] } : {})
              })
            : action === "rename"
              ? await run.call("PATCH", `${url}/${branch!.id}`, apiKey, { branch: { name } })
              : action === "expire"
                ? await run.call("PATCH", `${url}/${branch!.id}`, apiKey, { branch: { expires_at } })
                : await run.call("DELETE", `${url}/${branch!.id}`, apiKey)
        if (answer === undefined) continue // no (whole) answer: the next restart shows whether it happened
        if (answer.status === 423) {
          // Refused: nothing changed. Move the clock past the operations that hold the project.
          counts.locked += 1
          if (action === "create") unanswered.get(project)!.delete(name)
          if (action === "rename") branch!.names = [branch!.names[0]!]
          if (action === "expire") branch!.expiries = [branch!.expiries[0]!]
          if (action === "delete") branch!.deleted = false
          await advance(running, longestChange, answers)
          continue
        }
        if (answer.status === 400 && expiry !== null && /in the future/.test(answer.body?.message)) {
          // Another worker moved the clock past it meanwhile: refused, nothing changed.
          if (action === "create") unanswered.get(project)!.delete(name)
          if (action === "expire") branch!.expiries = [branch!.expiries[0]!]
          continue
        }
        const expiredMeanwhile = branch !== undefined && branch.expiries[0] !== null
        if ((answer.status === 404 || answer.status === 204) && expiredMeanwhile) {
          // Its expiry passed and a sweep deleted it: the restart's checks hold it to that.
          branch!.names = [branch!.names[0]!]
          branch!.expiries = [branch!.expiries[0]!]
          branch!.deleted = true
          continue
        }
        expect(answer.status, `${action}: ${JSON.stringify(answer.body)}`).toBe(action === "create" ? 201 : 200)
        if (action === "create") {
          unanswered.get(project)!.delete(name)
          const id: string = answer.body.branch.id
          const endpoints: Array<string> = answer.body.endpoints.map((endpoint: any) => endpoint.id)
          for (const handedOut of [id, ...endpoints]) {
            expect(ids.has(handedOut), `id ${handedOut} handed out twice`).toBe(false)
            ids.add(handedOut)
          }
          expect(endpoints).toHaveLength(withEndpoint ? 1 : 0)
          expect(answer.body.branch.expires_at ?? null).toBe(expires_at?.replace("Z", ".000Z") ?? null)
          tracked.set(id, { id, project, names: [name], deleted: false, endpoints, owner: w, expiries: [expiry] })
          counts.creates += 1
          if (withEndpoint) counts.withEndpoint += 1
        } else if (action === "rename") {
          expect(answer.body.branch.name).toBe(name)
          branch!.names = [name]
          counts.renames += 1
        } else if (action === "expire") {
          expect(answer.body.branch.expires_at ?? null).toBe(expires_at?.replace("Z", ".000Z") ?? null)
          branch!.expiries = [expiry]
          counts.expiries += 1
        } else {
          branch!.deleted = true
          counts.deletes += 1
        }
        recentOperations.record(answer, project)
        run.acknowledge()
        if (answer.body.operations.length > 0) await advance(running, longestChange, answers)
      }
    },
    finish: () => {
      expect(counts.creates).toBeGreaterThan(ownKills)
      expect(counts.renames).toBeGreaterThan(ownKills)
      expect(counts.deletes).toBeGreaterThan(ownKills)
      expect(counts.expiries).toBeGreaterThan(0)
      expect(counts.expired).toBeGreaterThan(0)
      return (
        `acknowledged ${counts.creates} creates (${counts.withEndpoint} with a compute endpoint), ` +
        `${counts.renames} renames, ${counts.expiries} expiries set or cleared, ${counts.deletes} deletes; ` +
        `${counts.sweeps} sweeps, ${counts.expired} branches expired; ${counts.locked} refused with 423 ` +
        `(${counts.adopted} unanswered creations shown after a restart); 0 lost, 0 ids reused, nothing unasked for`
      )
    }
  }
}
