/**
 * Personal API keys under kill -9 (an area of crash.test.ts, see crashAreas.ts): keys are created
 * and revoked over HTTP with several requests in flight. After each restart every creation
 * answered 200 must still be listed with its id and name and its key must work; every revocation
 * answered 200 must stay revoked (401); no id is ever handed out twice, nor listed with two names.
 * Requests that got no answer may have happened or not, and are left out of the checks. After the
 * clean stop, and at the last start, every key is tried.
 */
import { expect } from "vitest"
import type { CrashArea, CrashContext } from "../crashAreas.js"
import { random, type Running, send } from "../spawned.js"

/** The kills of this test when it had a run of its own: each count below is checked against it. */
const ownKills = 22

interface Created {
  readonly id: number
  readonly name: string
  readonly key: string
}

export const apiKeys = ({ apiKey, kills }: CrashContext): CrashArea => {
  /** What to send: a generator of its own, so the kill points do not depend on timing. */
  const next = random(1123)
  /** Creations answered 200, by id. */
  const created = new Map<number, Created>()
  /** Revocations answered 200. */
  const revoked = new Set<number>()
  /** Keys whose revocation got no answer: revoked or not, unknown. */
  const uncertain = new Set<number>()
  /** Every id answered by a creation, in order, across all runs. */
  const handedOut: Array<number> = []
  /** The name of every id ever listed, answered or not: an id never comes back with another name. */
  const namesSeen = new Map<number, string>()
  let checkedCreates = 0
  let unansweredCreates = 0
  let checkedRevokes = 0
  /** The ids created or revoked (acknowledged) in the last run. */
  let recent: Array<number> = []
  /** How many starts were checked: from the `kills`th (the one stopped cleanly, then the last), every key is tried. */
  let starts = 0
  /** The number in the names of a run's creations, from 0 each run. */
  let op = 0
  const call = (running: Running, method: string, path: string, key: string, body?: unknown) =>
    send(method, `${running.baseUrl}${path}`, key, body)

  return {
    name: "personal API keys",
    seed: {},
    workers: 4,
    longestChange: 0,
    check: async (running) => {
      const all = starts++ >= kills
      const listed = await call(running, "GET", "/api_keys", apiKey)
      expect(listed.status).toBe(200)
      const byId = new Map<number, string>(listed.body.map((key: any) => [key.id, key.name]))
      expect(byId.size).toBe(listed.body.length)
      for (const [id, name] of byId) {
        expect(namesSeen.get(id) ?? name, `id ${id} listed with two names`).toBe(name)
        namesSeen.set(id, name)
      }
      for (const key of created.values()) {
        if (uncertain.has(key.id)) continue
        expect(byId.get(key.id), `key ${key.id} (${key.name})`).toBe(revoked.has(key.id) ? undefined : key.name)
        checkedCreates += 1
      }
      for (const id of all ? created.keys() : recent) {
        if (uncertain.has(id)) continue
        const status = (await call(running, "GET", "/api_keys", created.get(id)!.key)).status
        expect(status, `key ${id} ${revoked.has(id) ? "revoked" : "created"} before the kill`).toBe(
          revoked.has(id) ? 401 : 200
        )
        if (revoked.has(id)) checkedRevokes += 1
      }
      recent = []
      op = 0
    },
    worker: async (run) => {
      while (!run.killed) {
        const name = `run-${run.index}-op-${op++}`
        const revocable = Array.from(created.keys()).filter((id) => !revoked.has(id) && !uncertain.has(id))
        const revoke = revocable.length > 0 && next() < 0.35
        const id = revoke ? revocable[Math.floor(next() * revocable.length)]! : undefined
        if (id !== undefined) uncertain.add(id) // until answered
        const url = `${run.running.baseUrl}/api_keys`
        const answer =
          id === undefined
            ? await run.call("POST", url, apiKey, { key_name: name })
            : await run.call("DELETE", `${url}/${id}`, apiKey)
        if (answer === undefined) {
          // No (whole) answer: it may have happened or not.
          if (id === undefined) unansweredCreates += 1
          continue
        }
        expect(answer.status).toBe(200)
        if (id === undefined) {
          created.set(answer.body.id, { id: answer.body.id, name, key: answer.body.key })
          handedOut.push(answer.body.id)
          recent.push(answer.body.id)
        } else {
          uncertain.delete(id)
          revoked.add(id)
          recent.push(id)
        }
        run.acknowledge() // at the kill point, the other workers' requests are in flight
      }
    },
    finish: () => {
      expect(new Set(handedOut).size).toBe(handedOut.length)
      expect(created.size).toBe(handedOut.length)
      expect(revoked.size).toBeGreaterThan(ownKills)
      return (
        `${handedOut.length} creates and ${revoked.size} revokes acknowledged, ` +
        `${unansweredCreates} creates and ${uncertain.size} revokes unanswered; checked ${checkedCreates} listings and ${checkedRevokes} revoked keys: 0 lost, 0 ids reused`
      )
    }
  }
}
