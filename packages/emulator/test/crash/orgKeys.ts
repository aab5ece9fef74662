/**
 * Organization API keys (docs/contract.md §21) under kill -9 (an area of crash.test.ts, see
 * crashAreas.ts): workers create keys of an organization (some scoped to its project) and revoke
 * them, over plain `fetch`.
 *
 * After each restart: every key whose creation was acknowledged is listed and authenticates (its
 * value, `GET /projects`, answers what it reaches: the organization's project, or its one), unless
 * its revocation was acknowledged: then it is not listed and is a 401; a revocation without an
 * answer is resolved by what the restart shows, and holds from then on. No key is listed that no
 * request created (one may appear only from a creation that got no answer), and no id is given
 * twice.
 */
import { expect } from "vitest"
import type { CrashArea, CrashContext } from "../crashAreas.js"
import { random, send } from "../spawned.js"

/** The kills of this test when it had a run of its own: each count below is checked against it. */
const ownKills = 6
const org = "org-crash-keys-100001"
const project = "crash-keys-project-100001"
const keys = `/organizations/${org}/api_keys`

/** A key as the test knows it. */
interface Tracked {
  readonly id: number
  readonly value: string
  readonly name: string
  readonly scoped: boolean
  /** `undefined` after a revocation that got no answer (resolved at the next restart). */
  revoked: boolean | undefined
  readonly owner: number
}

export const orgKeys = ({ apiKey }: CrashContext): CrashArea => {
  const tracked = new Map<number, Tracked>()
  /** Names of creations that got no answer in the last run: they may appear once. */
  const unanswered = new Set<string>()
  const ids = new Set<number>()
  /** Keys created by a request that got no answer, seen since. */
  const adopted = new Set<number>()
  const counts = { creates: 0, scoped: 0, revokes: 0 }

  return {
    name: "organization API keys",
    seed: { organizations: [{ id: org }], projects: [{ id: project, org_id: org }] },
    workers: 4,
    longestChange: 0,
    check: async (running) => {
      const listed = await send("GET", `${running.baseUrl}${keys}`, apiKey)
      expect(listed.status).toBe(200)
      const byId = new Map<number, any>(listed.body.map((key: any) => [key.id, key]))
      for (const key of tracked.values()) {
        const used = await send("GET", `${running.baseUrl}/projects`, key.value)
        const revoked = used.status === 401
        expect(revoked || used.status === 200, `key ${key.id}: ${used.status}`).toBe(true)
        if (key.revoked !== undefined) expect(revoked, `key ${key.id} revoked: ${key.revoked}`).toBe(key.revoked)
        key.revoked = revoked
        expect(byId.has(key.id), `key ${key.id} listed`).toBe(!revoked)
        if (revoked) continue
        expect(byId.get(key.id).name).toBe(key.name)
        expect(byId.get(key.id).project_id).toBe(key.scoped ? project : undefined)
        expect(used.body.projects.map((p: any) => p.id)).toEqual([project])
      }
      for (const [id, key] of byId) {
        if (tracked.has(id) || adopted.has(id)) continue
        // Only a creation without an answer may show a key the test did not know of (its value
        // was never seen): it is kept as it is, by no worker.
        expect(unanswered.has(key.name), `key ${id} (${key.name}) that no request created`).toBe(true)
        expect(ids.has(id), `id ${id} given twice`).toBe(false)
        ids.add(id)
        adopted.add(id)
      }
      unanswered.clear()
    },
    worker: async (run, w) => {
      const { running } = run
      const next = random(run.index * 1000 + w + 21)
      let op = 0
      while (!run.killed) {
        const mine = Array.from(tracked.values()).filter((key) => key.owner === w && key.revoked === false)
        const key = mine.length === 0 || next() < 0.6 ? undefined : mine[Math.floor(next() * mine.length)]!
        const name = `r${run.index}-w${w}-${op++}`
        const scoped = next() < 0.5
        if (key === undefined) unanswered.add(name)
        else key.revoked = undefined
        const answer =
          key === undefined
            ? await run.call("POST", `${running.baseUrl}${keys}`, apiKey, {
                key_name: name,
                ...(scoped ? { project_id: project } : {})
              })
            : await run.call("DELETE", `${running.baseUrl}${keys}/${key.id}`, apiKey)
        if (answer === undefined) continue // no (whole) answer: the next restart shows whether it happened
        expect(answer.status, JSON.stringify(answer.body)).toBe(200)
        if (key === undefined) {
          unanswered.delete(name)
          const id: number = answer.body.id
          expect(ids.has(id), `id ${id} given twice`).toBe(false)
          ids.add(id)
          expect(answer.body.project_id).toBe(scoped ? project : undefined)
          tracked.set(id, { id, value: answer.body.key, name, scoped, revoked: false, owner: w })
          counts.creates += 1
          if (scoped) counts.scoped += 1
        } else {
          expect(answer.body.revoked).toBe(true)
          key.revoked = true
          counts.revokes += 1
        }
        run.acknowledge()
      }
    },
    finish: () => {
      expect(counts.creates).toBeGreaterThan(ownKills)
      expect(counts.scoped).toBeGreaterThan(0)
      expect(counts.revokes).toBeGreaterThan(0)
      return (
        `acknowledged ${counts.creates} key creations (${counts.scoped} scoped to a project), ` +
        `${counts.revokes} revocations; 0 lost, 0 ids reused, nothing unasked for`
      )
    }
  }
}
