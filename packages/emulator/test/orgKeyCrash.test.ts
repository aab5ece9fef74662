/**
 * "Acknowledged means durable" for organization API keys (docs/contract.md §21) under `--state`,
 * on the shipped command, as projectCrash.test.ts does for projects: workers create keys of an
 * organization (some scoped to its project) and revoke them, over plain `fetch`, and the emulator
 * is killed with SIGKILL after a random number of acknowledged changes (seeded RNGs, so a failure
 * replays), then restarted on the same state file.
 *
 * After each restart: every key whose creation was acknowledged is listed and authenticates (its
 * value, `GET /projects`, answers what it reaches: the organization's project, or its one), unless
 * its revocation was acknowledged: then it is not listed and is a 401; a revocation without an
 * answer is resolved by what the restart shows, and holds from then on. No key is listed that no
 * request created (one may appear only from a creation that got no answer), and no id is given
 * twice.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { crashRuns } from "./crashRun.js"
import { frozenRestarts, random, type Running, send } from "./spawned.js"

const dir = mkdtempSync(join(tmpdir(), "dbplatform-org-key-crash-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const apiKey = "org-key-crash-test-key"
const token = "org-key-crash-test-control-token"
const kills = 6
const workers = 4
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

describe("--state under kill -9: organization API keys", () => {
  it(`${kills} kills at random moments: every acknowledged key and revocation survives, nothing else appears`, async () => {
    const state = join(dir, "state.json")
    const seed = join(dir, "seed.json")
    writeFileSync(seed, JSON.stringify({ organizations: [{ id: org }], projects: [{ id: project, org_id: org }] }))
    const tracked = new Map<number, Tracked>()
    /** Names of creations that got no answer in the last run: they may appear once. */
    const unanswered = new Set<string>()
    const ids = new Set<number>()
    /** Keys created by a request that got no answer, seen since. */
    const adopted = new Set<number>()
    const { restart } = frozenRestarts(state, { DBPLATFORM_EMULATOR_KEY: apiKey, DBPLATFORM_EMULATOR_TOKEN: token }, 0)
    const counts = { creates: 0, scoped: 0, revokes: 0 }

    const check = async (running: Running) => {
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
    }

    const summary = await crashRuns({
      kills,
      seed: 20261126 ^ 21,
      restart,
      seedFile: seed,
      restartAfterStop: false,
      check,
      workers,
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
      }
    })

    expect(counts.creates).toBeGreaterThan(kills)
    expect(counts.scoped).toBeGreaterThan(0)
    expect(counts.revokes).toBeGreaterThan(0)
    console.log(
      `organization key crash test: ${kills} kills; acknowledged ${counts.creates} key creations (${counts.scoped} scoped to a project), ` +
        `${counts.revokes} revocations; ${summary.unanswered} unanswered; 0 lost, 0 ids reused, nothing unasked for`
    )
    // No timeout of its own (0): crashRuns bounds each step of the kill loop instead (stepBound).
  }, 0)
})
