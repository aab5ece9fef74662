/**
 * Projects and their roles and databases (docs/contract.md §14, §15) under kill -9 (an area of
 * crashProjects.test.ts, see crashAreas.ts): workers create projects, rename them, change their
 * history retention, add roles and databases to their default branch, delete them and recover
 * deleted ones (docs/contract.md §18), over plain `fetch`.
 *
 * Time: the shared clock is frozen; a worker moves it past the operations of each change it made,
 * and after a 423; other areas' advances only move it further (a deleted project stays
 * recoverable for 7 days of it, far more than the whole loop moves it).
 *
 * After each restart: every project whose creation was acknowledged is read (404 once its deletion
 * was acknowledged, and listed with `recoverable=true` then; 200 again once its recovery was), with
 * the name and retention last acknowledged, and its default branch lists every role and database
 * whose creation was acknowledged (a recovered project's too); nothing appears that no request
 * asked for (a project, role or database may appear only from a request that got no answer, and
 * what a restart shows of those holds from then on). The projects listed at the first start, before
 * any request, are the seed file's (of every area): no request of this area made them.
 */
import { expect } from "vitest"
import type { CrashArea, CrashContext } from "../crashAreas.js"
import { random, type Running, send } from "../spawned.js"

/** The kills of this test when it had a run of its own: each count below is checked against it. */
const ownKills = 6
const workers = 4
/** The longest the operations of one change run, in ms: create_timeline 3 s + start_compute 3 s. */
const longestChange = 6_000

/** A project as the test knows it. */
interface Tracked {
  readonly id: string
  /** Its default branch, where its roles and databases are. */
  readonly branch: string
  /** The names it may have: one, or two after a rename that got no answer (resolved at the next restart). */
  names: ReadonlyArray<string>
  /** The retentions it may have, as `names`. */
  retentions: ReadonlyArray<number>
  /** `undefined` after a deletion that got no answer (resolved at the next restart). */
  deleted: boolean | undefined
  /** Names of roles and databases (`role:…`, `database:…`) acknowledged, and those that got no answer. */
  readonly data: Set<string>
  readonly unanswered: Set<string>
  readonly owner: number
}

export const projects = ({ apiKey, advance }: CrashContext): CrashArea => {
  const tracked = new Map<string, Tracked>()
  /** Names of project creations that got no answer in the last run: they may appear once. */
  const unanswered = new Set<string>()
  const ids = new Set<string>(["crash-projects-seeded"])
  /** The projects listed at the first start, before any request: the seed file's. */
  let seeded: ReadonlySet<string> | undefined
  const counts = {
    creates: 0,
    renames: 0,
    retentions: 0,
    roles: 0,
    databases: 0,
    deletes: 0,
    recovers: 0,
    locked: 0
  }

  /** The checks after a restart; resolves what requests without an answer did. */
  const check = async (running: Running) => {
    const api = (path: string) => send("GET", `${running.baseUrl}${path}`, apiKey)
    const listed = await api("/projects?limit=400")
    expect(listed.status).toBe(200)
    const byId = new Map<string, any>(listed.body.projects.map((project: any) => [project.id, project]))
    if (seeded === undefined) {
      seeded = new Set(byId.keys())
      for (const id of seeded) ids.add(id)
    }
    expect(seeded.has("crash-projects-seeded"), "the seeded project").toBe(true)
    const recoverable = await api("/projects?limit=400&recoverable=true")
    expect(recoverable.status).toBe(200)
    const deletedIds = new Set<string>(recoverable.body.projects.map((project: any) => project.id))
    for (const project of tracked.values()) {
      const read = await api(`/projects/${project.id}`)
      const gone = read.status === 404
      expect(gone || read.status === 200, `GET /projects/${project.id}: ${read.status}`).toBe(true)
      expect(byId.has(project.id), `project ${project.id} listed`).toBe(!gone)
      if (project.deleted !== undefined)
        expect(gone, `project ${project.id} deleted: ${project.deleted}`).toBe(project.deleted)
      project.deleted = gone
      // A deleted project is kept for its 7 days of recovery: listed as recoverable.
      expect(deletedIds.has(project.id), `project ${project.id} recoverable`).toBe(gone)
      if (gone) continue
      expect(project.names, `the name of project ${project.id}`).toContain(read.body.project.name)
      project.names = [read.body.project.name]
      expect(project.retentions, `the retention of ${project.id}`).toContain(
        read.body.project.history_retention_seconds
      )
      project.retentions = [read.body.project.history_retention_seconds]
      const branch = `/projects/${project.id}/branches/${project.branch}`
      const roles = await api(`${branch}/roles`)
      const databases = await api(`${branch}/databases`)
      const found = new Set<string>([
        ...roles.body.roles.map((role: any) => `role:${role.name}`),
        ...databases.body.databases.map((database: any) => `database:${database.name}`)
      ])
      for (const name of project.data) expect(found.has(name), `${name} of project ${project.id}`).toBe(true)
      for (const name of found) {
        if (project.data.has(name)) continue
        expect(project.unanswered.has(name), `${name} of ${project.id} that no request created`).toBe(true)
        project.data.add(name)
      }
      project.unanswered.clear()
    }
    for (const [id, project] of byId) {
      if (tracked.has(id) || seeded.has(id)) continue
      // Only a creation without an answer may show a project the test did not know of; it is
      // adopted by no worker, as it is.
      expect(unanswered.has(project.name), `project ${id} (${project.name}) that no request created`).toBe(true)
      expect(ids.has(id), `id ${id} handed out twice`).toBe(false)
      ids.add(id)
      const branches = await api(`/projects/${id}/branches`)
      tracked.set(id, {
        id,
        branch: branches.body.branches.find((branch: any) => branch.default).id,
        names: [project.name],
        retentions: [project.history_retention_seconds],
        deleted: false,
        data: new Set(["role:neondb_owner", "database:neondb"]),
        unanswered: new Set(),
        owner: -1
      })
    }
    unanswered.clear()
  }

  return {
    name: "projects, roles and databases",
    seed: { projects: [{ id: "crash-projects-seeded" }] },
    workers,
    longestChange,
    check,
    worker: async (run, w) => {
      const { running, answers } = run
      const next = random(run.index * 1000 + w + 24)
      let op = 0
      while (!run.killed) {
        const mine = Array.from(tracked.values()).filter(
          (project) =>
            project.owner === w &&
            project.deleted === false &&
            project.names.length === 1 &&
            project.retentions.length === 1
        )
        const deleted = Array.from(tracked.values()).filter(
          (project) => project.owner === w && project.deleted === true
        )
        const recovering = deleted.length > 0 && next() < 0.3 ? deleted[Math.floor(next() * deleted.length)] : undefined
        const choice = next()
        const project =
          recovering ?? (mine.length === 0 || choice < 0.25 ? undefined : mine[Math.floor(next() * mine.length)]!)
        const name = `r${run.index}-w${w}-${op++}`
        const action =
          recovering !== undefined
            ? "recover"
            : project === undefined
              ? "create"
              : choice < 0.4
                ? "rename"
                : choice < 0.55
                  ? "retention"
                  : choice < 0.7
                    ? "role"
                    : choice < 0.85
                      ? "database"
                      : "delete"
        const retention = 3600 * (1 + Math.floor(next() * 48))
        const url = project === undefined ? "" : `${running.baseUrl}/projects/${project.id}`
        const data = action === "role" ? `role:${name}` : `database:${name}`
        if (action === "create") unanswered.add(name)
        if (action === "rename") project!.names = [project!.names[0]!, name]
        if (action === "retention") project!.retentions = [project!.retentions[0]!, retention]
        if (action === "role" || action === "database") project!.unanswered.add(data)
        if (action === "delete" || action === "recover") project!.deleted = undefined
        const branch = `${url}/branches/${project?.branch}`
        const answer =
          action === "create"
            ? await run.call("POST", `${running.baseUrl}/projects`, apiKey, { project: { name } })
            : action === "rename"
              ? await run.call("PATCH", url, apiKey, { project: { name } })
              : action === "retention"
                ? await run.call("PATCH", url, apiKey, { project: { history_retention_seconds: retention } })
                : action === "role"
                  ? await run.call("POST", `${branch}/roles`, apiKey, { role: { name } })
                  : action === "database"
                    ? await run.call("POST", `${branch}/databases`, apiKey, {
                        database: { name, owner_name: "neondb_owner" }
                      })
                    : action === "recover"
                      ? await run.call("POST", `${url}/recover`, apiKey)
                      : await run.call("DELETE", url, apiKey)
        if (answer === undefined) continue // no (whole) answer: the next restart shows whether it happened
        if (answer.status === 423) {
          // Refused: nothing changed. Move the clock past the operations that hold the project.
          counts.locked += 1
          if (action === "create") unanswered.delete(name)
          if (action === "rename") project!.names = [project!.names[0]!]
          if (action === "retention") project!.retentions = [project!.retentions[0]!]
          if (action === "role" || action === "database") project!.unanswered.delete(data)
          if (action === "delete") project!.deleted = false
          await advance(running, longestChange, answers)
          continue
        }
        const created = action === "create" || action === "role" || action === "database"
        expect(answer.status, `${action}: ${JSON.stringify(answer.body)}`).toBe(created ? 201 : 200)
        if (action === "create") {
          unanswered.delete(name)
          const id: string = answer.body.project.id
          expect(ids.has(id), `id ${id} handed out twice`).toBe(false)
          ids.add(id)
          tracked.set(id, {
            id,
            branch: answer.body.branch.id,
            names: [name],
            retentions: [answer.body.project.history_retention_seconds],
            deleted: false,
            data: new Set(["role:neondb_owner", "database:neondb"]),
            unanswered: new Set(),
            owner: w
          })
          counts.creates += 1
        } else if (action === "rename") {
          project!.names = [name]
          counts.renames += 1
        } else if (action === "retention") {
          project!.retentions = [retention]
          counts.retentions += 1
        } else if (action === "role" || action === "database") {
          project!.unanswered.delete(data)
          project!.data.add(data)
          counts[action === "role" ? "roles" : "databases"] += 1
        } else if (action === "recover") {
          expect(answer.body.project.id).toBe(project!.id)
          expect(answer.body.branches.map((branch: any) => branch.id)).toContain(project!.branch)
          project!.deleted = false
          counts.recovers += 1
        } else {
          project!.deleted = true
          counts.deletes += 1
        }
        run.acknowledge()
        if ((answer.body?.operations ?? []).length > 0) await advance(running, longestChange, answers)
      }
    },
    finish: () => {
      expect(counts.creates).toBeGreaterThan(ownKills)
      expect(counts.roles + counts.databases).toBeGreaterThan(ownKills)
      expect(counts.deletes).toBeGreaterThan(0)
      expect(counts.recovers).toBeGreaterThan(0)
      return (
        `acknowledged ${counts.creates} project creates, ${counts.renames} renames, ` +
        `${counts.retentions} retention changes, ${counts.roles} roles, ${counts.databases} databases, ${counts.deletes} deletes, ${counts.recovers} recoveries; ` +
        `${counts.locked} refused with 423; 0 lost, 0 ids reused, nothing unasked for`
      )
    }
  }
}
