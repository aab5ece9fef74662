/**
 * Snapshots (docs/contract.md §19) under kill -9 (an area of crashProjects.test.ts, see
 * crashAreas.ts): workers take snapshots of their project's default branch, rename and delete them,
 * restore them to new branches and finalize some of those restores, over plain `fetch`; each
 * project's default branch has an hourly backup schedule whose snapshots (kept two hours) the
 * control plane takes and deletes as the clock moves (this area's workers move it a few steps of 20
 * minutes among their usual seconds; the other areas' workers move it too).
 *
 * Time: the shared clock is frozen and moved through the control API only. Every time it checks
 * is what the clock reads: a scheduled snapshot is expired once the clock reads past its
 * `expires_at`, and each is taken on the clock's hour, whoever moved the clock there.
 *
 * After each restart: every acknowledged snapshot is listed (unless its deletion was
 * acknowledged: then it is gone) under the name last acknowledged; no manual snapshot is listed
 * that no request took; every scheduled snapshot a listing showed before the kill is still listed
 * unless its `expires_at` has passed, and none listed has; every acknowledged restore's branch
 * exists, `restored` or, once a finalize was acknowledged, `finalized`; the backup schedules are
 * as set; the operations of every acknowledged change of the last run exist; no id is handed out
 * twice.
 */
import { expect } from "vitest"
import { acknowledgedOperations } from "../crashRun.js"
import type { CrashArea, CrashContext } from "../crashAreas.js"
import { random, type Running, send } from "../spawned.js"

/** The kills of this test when it had a run of its own: each count below is checked against it. */
const ownKills = 6
const projects = ["crash-snapshots-0", "crash-snapshots-1"]
const mainOf = (p: number) => `br-snapshots-main-${p}`
const workersPerProject = 2
/** The longest the operations of one change run, in ms: a finalize's suspend_compute 1 s + start_compute 3 s; a snapshot's create_timeline 3 s. */
const longestChange = 5_000
const hour = 3_600_000
/** Each project's default branch's schedule: every hour, each snapshot kept two. */
const schedule = [{ frequency: "hourly", retention_seconds: 7200 }]

/** A manual snapshot as the test knows it. */
interface TrackedSnapshot {
  readonly id: string
  readonly project: string
  /** The names it may have: one, or two after a rename that got no answer. */
  names: ReadonlyArray<string>
  /** `undefined` after a deletion that got no answer. */
  deleted: boolean | undefined
  readonly owner: number
}

/** A branch restored from a snapshot, as the test knows it. */
interface TrackedRestore {
  readonly id: string
  readonly project: string
  /** `restored`, `finalized`, or `undefined` after a finalize that got no answer. */
  status: "restored" | "finalized" | undefined
  readonly owner: number
}

export const snapshots = ({ apiKey, advance }: CrashContext): CrashArea => {
  /** Whether the backup schedules were set: at the first start, before its checks. */
  let scheduleSet = false
  const snapshots = new Map<string, TrackedSnapshot>()
  const restores = new Map<string, TrackedRestore>()
  /** Scheduled snapshots a listing showed, with their expiry (epoch ms). */
  const scheduled = new Map<string, { readonly project: string; readonly expires: number }>()
  const ids = new Set<string>()
  /** Per project, the names of snapshots and restores whose request got no answer in the last run. */
  const unanswered = new Map<string, Set<string>>(projects.map((project) => [project, new Set()]))
  /** Operations of changes acknowledged in the last run, checked (once) after the restart. */
  const recentOperations = acknowledgedOperations(apiKey)
  const counts = {
    snapshots: 0,
    renames: 0,
    deletes: 0,
    restores: 0,
    finalizes: 0,
    scheduledSeen: 0,
    scheduledExpired: 0,
    locked: 0,
    adopted: 0
  }

  const check = async (running: Running) => {
    const api = (path: string) => send("GET", `${running.baseUrl}${path}`, apiKey)
    if (!scheduleSet) {
      for (const [p, project] of projects.entries()) {
        const answer = await send(
          "PUT",
          `${running.baseUrl}/projects/${project}/branches/${mainOf(p)}/backup_schedule`,
          apiKey,
          { schedule }
        )
        expect(answer.status).toBe(200)
      }
      scheduleSet = true
    }
    const now = (await running.control((c) => c.clock())).now_ms
    for (const [p, project] of projects.entries()) {
      const listed = await api(`/projects/${project}/snapshots`)
      expect(listed.status).toBe(200)
      const byId = new Map<string, any>(listed.body.snapshots.map((snapshot: any) => [snapshot.id, snapshot]))
      expect(byId.size, "a snapshot listed twice").toBe(listed.body.snapshots.length)
      for (const snapshot of snapshots.values()) {
        if (snapshot.project !== project) continue
        const found = byId.get(snapshot.id)
        if (snapshot.deleted !== undefined) {
          expect(found === undefined, `snapshot ${snapshot.id} deleted: ${snapshot.deleted}`).toBe(snapshot.deleted)
        }
        snapshot.deleted = found === undefined
        if (found === undefined) continue
        expect(snapshot.names, `the name of snapshot ${snapshot.id}`).toContain(found.name)
        snapshot.names = [found.name]
      }
      for (const [id, seen] of scheduled) {
        if (seen.project !== project) continue
        if (seen.expires > now) {
          expect(byId.has(id), `scheduled snapshot ${id}, seen before the kill, expiring later`).toBe(true)
        } else {
          expect(byId.has(id), `scheduled snapshot ${id}, expired`).toBe(false)
          scheduled.delete(id)
          counts.scheduledExpired += 1
        }
      }
      for (const [id, found] of byId) {
        if (found.manual === false) {
          expect(Date.parse(found.expires_at), `scheduled snapshot ${id} listed after its expiry`).toBeGreaterThan(now)
          expect(Date.parse(found.created_at) % hour, `scheduled snapshot ${id} taken on the hour`).toBe(0)
          continue
        }
        if (snapshots.has(id)) continue
        // Only a request without an answer may show a snapshot the test did not know of.
        expect(unanswered.get(project)!.has(found.name), `snapshot ${id} (${found.name}) that no request took`).toBe(
          true
        )
        expect(ids.has(id), `id ${id} handed out twice`).toBe(false)
        ids.add(id)
        snapshots.set(id, { id, project, names: [found.name], deleted: false, owner: -1 })
        counts.adopted += 1
      }
      for (const restore of restores.values()) {
        if (restore.project !== project) continue
        const read = await api(`/projects/${project}/branches/${restore.id}`)
        expect(read.status, `restored branch ${restore.id}`).toBe(200)
        const status = read.body.branch.restore_status
        if (restore.status !== undefined) expect(status, `restore_status of ${restore.id}`).toBe(restore.status)
        else expect(["restored", "finalized"]).toContain(status)
        restore.status = status
      }
      // Restores without an answer that happened: adopted, left alone.
      const branches = await api(`/projects/${project}/branches`)
      for (const branch of branches.body.branches) {
        if (branch.restored_from === undefined || restores.has(branch.id)) continue
        expect(unanswered.get(project)!.has(branch.name) || branch.restore_status === "finalized").toBe(true)
        restores.set(branch.id, { id: branch.id, project, status: branch.restore_status, owner: -1 })
        counts.adopted += 1
      }
      unanswered.get(project)!.clear()
      expect(branches.body.branches.filter((branch: any) => branch.default)).toHaveLength(1)
      const set = await api(`/projects/${project}/branches/${mainOf(p)}/backup_schedule`)
      expect(set.body.schedule).toEqual(schedule)
    }
    await recentOperations.check(running)
  }

  return {
    name: "snapshots",
    seed: {
      projects: projects.map((id) => ({ id })),
      branches: projects.map((project, i) => ({ project_id: project, id: mainOf(i), name: "main", default: true })),
      endpoints: projects.map((_, i) => ({
        branch_id: mainOf(i),
        id: `ep-snapshots-main-${i}`,
        suspend_timeout_seconds: -1
      })),
      roles: projects.map((_, i) => ({ branch_id: mainOf(i), name: "app_owner", password: `npg_Cr4sh${i}` })),
      databases: projects.map((_, i) => ({ branch_id: mainOf(i), name: "app", owner_name: "app_owner" }))
    },
    workers: projects.length * workersPerProject,
    longestChange,
    check,
    worker: async (run, w) => {
      const { running, answers } = run
      const p = Math.floor(w / workersPerProject)
      const project = projects[p]!
      const base = `${running.baseUrl}/projects/${project}`
      const next = random(run.index * 1000 + w)
      let op = 0
      while (!run.killed) {
        const mine = Array.from(snapshots.values()).filter(
          (snapshot) => snapshot.owner === w && snapshot.deleted === false && snapshot.names.length === 1
        )
        const restorable = Array.from(restores.values()).filter(
          (restore) => restore.owner === w && restore.status === "restored"
        )
        const choice = next()
        const name = `r${run.index}-w${w}-${op++}`
        const snapshot = mine.length === 0 ? undefined : mine[Math.floor(next() * mine.length)]!
        const action =
          choice < 0.08
            ? "wait"
            : choice < 0.18
              ? "list"
              : snapshot === undefined || choice < 0.45
                ? "snapshot"
                : choice < 0.58
                  ? "rename"
                  : choice < 0.7
                    ? "delete"
                    : restorable.length === 0 || choice < 0.88
                      ? "restore"
                      : "finalize"
        if (action === "wait") {
          await advance(running, hour / 3, answers)
          continue
        }
        const restore = action === "finalize" ? restorable[Math.floor(next() * restorable.length)]! : undefined
        if (action === "snapshot" || action === "restore") unanswered.get(project)!.add(name)
        if (action === "rename") snapshot!.names = [snapshot!.names[0]!, name]
        if (action === "delete") snapshot!.deleted = undefined
        if (action === "finalize") restore!.status = undefined
        const answer =
          action === "list"
            ? await run.call("GET", `${base}/snapshots`, apiKey)
            : action === "snapshot"
              ? await run.call("POST", `${base}/branches/${mainOf(p)}/snapshot?name=${name}`, apiKey)
              : action === "rename"
                ? await run.call("PATCH", `${base}/snapshots/${snapshot!.id}`, apiKey, { snapshot: { name } })
                : action === "delete"
                  ? await run.call("DELETE", `${base}/snapshots/${snapshot!.id}`, apiKey)
                  : action === "restore"
                    ? await run.call("POST", `${base}/snapshots/${snapshot!.id}/restore`, apiKey, { name })
                    : await run.call("POST", `${base}/branches/${restore!.id}/finalize_restore`, apiKey, {
                        name: `${name}-replaced`
                      })
        if (answer === undefined) continue // no (whole) answer: the next restart shows whether it happened
        if (answer.status === 423) {
          counts.locked += 1
          if (action === "snapshot" || action === "restore") unanswered.get(project)!.delete(name)
          if (action === "rename") snapshot!.names = [snapshot!.names[0]!]
          if (action === "delete") snapshot!.deleted = false
          if (action === "finalize") restore!.status = "restored"
          await advance(running, longestChange, answers)
          continue
        }
        const wanted = action === "delete" ? 202 : 200
        expect(answer.status, `${action}: ${JSON.stringify(answer.body)}`).toBe(wanted)
        if (action === "list") {
          for (const listed of answer.body.snapshots) {
            if (listed.manual !== false || scheduled.has(listed.id)) continue
            scheduled.set(listed.id, { project, expires: Date.parse(listed.expires_at) })
            counts.scheduledSeen += 1
          }
          continue
        }
        if (action === "snapshot") {
          unanswered.get(project)!.delete(name)
          const id: string = answer.body.snapshot.id
          expect(ids.has(id), `id ${id} handed out twice`).toBe(false)
          ids.add(id)
          snapshots.set(id, { id, project, names: [name], deleted: false, owner: w })
          counts.snapshots += 1
        } else if (action === "rename") {
          expect(answer.body.snapshot.name).toBe(name)
          snapshot!.names = [name]
          counts.renames += 1
        } else if (action === "delete") {
          snapshot!.deleted = true
          counts.deletes += 1
        } else if (action === "restore") {
          unanswered.get(project)!.delete(name)
          const id: string = answer.body.branch.id
          expect(ids.has(id), `id ${id} handed out twice`).toBe(false)
          ids.add(id)
          expect(answer.body.branch.restore_status).toBe("restored")
          restores.set(id, { id, project, status: "restored", owner: w })
          counts.restores += 1
        } else {
          restore!.status = "finalized"
          counts.finalizes += 1
        }
        recentOperations.record(answer, project)
        run.acknowledge()
        if ((answer.body.operations ?? []).length > 0) await advance(running, longestChange, answers)
      }
    },
    finish: () => {
      expect(counts.snapshots).toBeGreaterThan(ownKills)
      expect(counts.restores).toBeGreaterThan(0)
      expect(counts.deletes + counts.renames).toBeGreaterThan(0)
      expect(counts.scheduledSeen).toBeGreaterThan(0)
      return (
        `acknowledged ${counts.snapshots} snapshots, ${counts.renames} renames, ` +
        `${counts.deletes} deletes, ${counts.restores} restores, ${counts.finalizes} finalizes; ` +
        `${counts.scheduledSeen} scheduled snapshots seen (${counts.scheduledExpired} expired since); ` +
        `${counts.locked} refused with 423 (${counts.adopted} unanswered ones shown after a restart); 0 lost`
      )
    }
  }
}
