/**
 * Project access (docs/contract.md §22) under kill -9 (an area of crash.test.ts, see
 * crashAreas.ts): workers grant and revoke accesses
 * to their projects, transfer them between two organizations, and make transfer requests that
 * they accept, some after a restart, over plain `fetch`.
 *
 * After each restart: every project is in the organization its last acknowledged transfer put it
 * in; its accesses are exactly those acknowledged and not revoked, plus only what a request that
 * got no answer asked for; a transfer request whose creation was acknowledged can still be
 * accepted.
 */
import { expect } from "vitest"
import type { CrashArea, CrashContext } from "../crashAreas.js"
import { random, type Running, send } from "../spawned.js"

/** The kills of this test when it had a run of its own: each count below is checked against it. */
const ownKills = 6
const workers = 4
const orgs = ["org-acme-302709", "org-beta-302709"] as const
const projectCount = 8

/** A project as the test knows it. */
interface Tracked {
  readonly id: string
  readonly owner: number
  /** The organizations it may be in: one, or two after a transfer that got no answer. */
  orgs: ReadonlyArray<string>
  /** Accesses acknowledged and not revoked, by email: their ids. */
  readonly granted: Map<string, string>
  /** Emails of grants that got no answer. */
  readonly maybeGranted: Set<string>
  /** Ids of accesses whose revocation was acknowledged. */
  readonly revoked: Set<string>
  /** Ids of accesses whose revocation got no answer. */
  readonly maybeRevoked: Set<string>
  /** Transfer requests whose creation was acknowledged, not accepted yet, with the run that made each. */
  readonly requests: Array<{ readonly id: string; readonly run: number }>
}

const other = (org: string) => (org === orgs[0] ? orgs[1] : orgs[0])

export const access = ({ apiKey }: CrashContext): CrashArea => {
  const ids = Array.from({ length: projectCount }, (_, i) => `crash-access-${i}`)
  const tracked = ids.map(
    (id, i): Tracked => ({
      id,
      owner: i % workers,
      orgs: [orgs[0]],
      granted: new Map(),
      maybeGranted: new Set(),
      revoked: new Set(),
      maybeRevoked: new Set(),
      requests: []
    })
  )
  const counts = {
    grants: 0,
    revokes: 0,
    transfers: 0,
    requests: 0,
    accepted: 0,
    acceptedAfterRestart: 0
  }

  /** The checks after a restart; resolves what requests without an answer did. */
  const check = async (running: Running) => {
    const api = (path: string) => send("GET", `${running.baseUrl}${path}`, apiKey)
    for (const project of tracked) {
      const read = await api(`/projects/${project.id}`)
      expect(read.status).toBe(200)
      expect(project.orgs, `the organization of ${project.id}`).toContain(read.body.project.org_id)
      project.orgs = [read.body.project.org_id]
      const listed = await api(`/projects/${project.id}/permissions`)
      expect(listed.status).toBe(200)
      const found = new Map<string, string>(listed.body.project_permissions.map((p: any) => [p.granted_to_email, p.id]))
      for (const [email, id] of project.granted) {
        if (project.maybeRevoked.has(id)) {
          if (!found.has(email)) {
            project.granted.delete(email)
            project.revoked.add(id)
          }
          continue
        }
        expect(found.get(email), `the access of ${email} to ${project.id}`).toBe(id)
      }
      for (const [email, id] of found) {
        expect(project.revoked.has(id), `revoked access ${id} of ${project.id}`).toBe(false)
        if (project.granted.has(email)) continue
        expect(project.maybeGranted.has(email), `access of ${email} to ${project.id} that no request granted`).toBe(
          true
        )
        project.granted.set(email, id)
      }
      project.maybeGranted.clear()
      project.maybeRevoked.clear()
    }
  }

  return {
    name: "project access and transfers",
    seed: {
      organizations: orgs.map((id) => ({ id, plan: "scale" })),
      projects: ids.map((id) => ({ id, org_id: orgs[0] }))
    },
    workers,
    longestChange: 1000,
    check,
    worker: async (run, w) => {
      /** Sends a request; `undefined` when the emulator was killed before it answered whole. */
      const call = (method: string, path: string, body?: unknown) =>
        run.call(method, `${run.running.baseUrl}${path}`, apiKey, body)
      const next = random(run.index * 1000 + w + 22)
      const mine = tracked.filter((project) => project.owner === w)
      let op = 0
      while (!run.killed) {
        const project = mine[Math.floor(next() * mine.length)]!
        const choice = next()
        const base = `/projects/${project.id}`
        if (choice < 0.35 || (choice < 0.55 && project.granted.size === 0)) {
          const email = `r${run.index}w${w}o${op++}@example.com`
          project.maybeGranted.add(email)
          const answer = await call("POST", `${base}/permissions`, { email })
          if (answer === undefined) continue
          expect(answer.status, JSON.stringify(answer.body)).toBe(200)
          project.maybeGranted.delete(email)
          project.granted.set(email, answer.body.id)
          counts.grants += 1
        } else if (choice < 0.55) {
          const [email, id] = Array.from(project.granted)[Math.floor(next() * project.granted.size)]!
          project.maybeRevoked.add(id)
          const answer = await call("DELETE", `${base}/permissions/${id}`)
          if (answer === undefined) continue
          expect(answer.status, JSON.stringify(answer.body)).toBe(200)
          expect(answer.body.revoked_at).toBeDefined()
          project.maybeRevoked.delete(id)
          project.granted.delete(email)
          project.revoked.add(id)
          counts.revokes += 1
        } else if (project.orgs.length !== 1) {
          continue // where it is becomes known at the next restart
        } else if (choice < 0.75) {
          const from = project.orgs[0]!
          project.orgs = [from, other(from)]
          const answer = await call("POST", `/organizations/${from}/projects/transfer`, {
            destination_org_id: other(from),
            project_ids: [project.id]
          })
          if (answer === undefined) continue
          expect(answer.status, JSON.stringify(answer.body)).toBe(200)
          project.orgs = [other(from)]
          counts.transfers += 1
        } else if (choice < 0.87 || project.requests.length === 0) {
          // Thirty days to accept it (the default is a day): the areas of the shared loop move its
          // clock by days over the runs, and one made before several kills is accepted after them.
          const answer = await call("POST", `${base}/transfer_requests`, { ttl_seconds: 30 * 86_400 })
          if (answer === undefined) continue
          expect(answer.status, JSON.stringify(answer.body)).toBe(201)
          project.requests.push({ id: answer.body.id, run: run.index })
          counts.requests += 1
        } else {
          const request = project.requests.shift()!
          const from = project.orgs[0]!
          project.orgs = [from, other(from)]
          const answer = await call("PUT", `${base}/transfer_requests/${request.id}`, { org_id: other(from) })
          if (answer === undefined) continue
          expect(answer.status, JSON.stringify(answer.body)).toBe(204)
          project.orgs = [other(from)]
          counts.accepted += 1
          // One made before a kill and a restart: its creation was durable.
          if (request.run < run.index) counts.acceptedAfterRestart += 1
        }
        run.acknowledge()
      }
    },
    finish: () => {
      expect(counts.grants).toBeGreaterThan(ownKills)
      expect(counts.revokes).toBeGreaterThan(0)
      expect(counts.transfers).toBeGreaterThan(0)
      expect(counts.accepted).toBeGreaterThan(0)
      return (
        `acknowledged ${counts.grants} grants, ${counts.revokes} revokes, ` +
        `${counts.transfers} transfers, ${counts.requests} transfer requests, ${counts.accepted} accepted ` +
        `(${counts.acceptedAfterRestart} after a restart); ` +
        "0 lost, nothing unasked for"
      )
    }
  }
}
