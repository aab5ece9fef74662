/**
 * A branch's objects (docs/contract.md §28) under kill -9 (an area of crash.test.ts, see
 * crashAreas.ts): one worker per branch uploads objects through presigned `PUT`s (bytes of its own
 * making, some over the journal's usual line size), overwrites and deletes them, and deletes by
 * prefix, over plain `fetch`.
 *
 * After each restart, on every branch: every object whose last acknowledged change wrote it is
 * there with exactly those bytes, every one acknowledged deleted is not, and nothing else
 * appears but what a request without an answer may have done.
 */
import { expect } from "vitest"
import type { CrashArea, CrashContext } from "../crashAreas.js"
import { random, type Running, send } from "../spawned.js"

const project = "crash-buckets"
const branches = ["br-bucket-main-000001", "br-bucket-side-000002"]

/** The bytes of an object: `size` bytes from a seeded RNG, so a check can tell one write from another. */
const content = (seed: number, size: number): Uint8Array<ArrayBuffer> => {
  const next = random(seed)
  return Uint8Array.from({ length: size }, () => Math.floor(next() * 256))
}

/** What the test knows of one branch's bucket: each object's bytes by key (acknowledged), and what may be. */
interface Tracked {
  objects: Map<string, string>
  /** Keys written or deleted without an answer: their bytes, or absent, as the restart shows. */
  maybe: Map<string, Set<string | undefined>>
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex")

export const buckets = ({ apiKey }: CrashContext): CrashArea => {
  const tracked = branches.map((): Tracked => ({ objects: new Map(), maybe: new Map() }))
  const counts = { uploads: 0, deletes: 0, prefixDeletes: 0 }

  const check = async (running: Running) => {
    for (const [i, branch] of branches.entries()) {
      const known = tracked[i]!
      const base = `${running.baseUrl}/projects/${project}/branches/${branch}/buckets/data`
      const listed = await send("GET", `${base}/objects?limit=1000`, apiKey)
      expect(listed.status).toBe(200)
      const now = new Map<string, string>()
      for (const object of listed.body.objects as Array<{ key: string }>) {
        const got = await fetch(`${base}/objects/${encodeURIComponent(object.key)}/download`, {
          headers: { authorization: `Bearer ${apiKey}` }
        })
        expect(got.status).toBe(200)
        now.set(object.key, hex(new Uint8Array(await got.arrayBuffer())))
      }
      for (const key of new Set([...known.objects.keys(), ...now.keys(), ...known.maybe.keys()])) {
        const was = known.objects.get(key)
        const is = now.get(key)
        const maybe = known.maybe.get(key)
        if (maybe !== undefined && (maybe.has(is) || is === was)) continue
        expect(is, `${branch}: ${key}`).toBe(was)
      }
      known.objects = now
      known.maybe.clear()
    }
  }

  return {
    name: "bucket objects",
    seed: {
      projects: [{ id: project }],
      branches: branches.map((id, i) => ({
        project_id: project,
        id,
        name: i === 0 ? "main" : "side",
        default: i === 0
      })),
      buckets: branches.map((branch_id) => ({ branch_id, name: "data" }))
    },
    workers: branches.length,
    longestChange: 0,
    check,
    worker: async (run, w) => {
      const { running } = run
      const branch = branches[w]!
      const known = tracked[w]!
      const base = `${running.baseUrl}/projects/${project}/branches/${branch}/buckets/data`
      const next = random(run.index * 1000 + w)
      let op = 0
      const unanswered = (key: string, value: string | undefined) => {
        const maybe = known.maybe.get(key) ?? new Set()
        maybe.add(value)
        known.maybe.set(key, maybe)
      }
      while (!run.killed) {
        const n = op++
        const choice = next()
        const present = Array.from(known.objects.keys())
        if (choice < 0.6 || present.length === 0) {
          const key = present.length > 0 && next() < 0.3 ? present[0]! : `dir${n % 3}/r${run.index}-${n}.bin`
          const body = content(run.index * 100_000 + w * 10_000 + n, 1 + Math.floor(next() * 96 * 1024))
          const presigned = await run.call("POST", `${base}/objects/${encodeURIComponent(key)}/presign`, apiKey, {
            operation: "upload",
            content_type: "application/octet-stream",
            // The longest a URL may live (7 days): other areas' workers move the shared clock, by
            // up to 20 minutes at a time, between the presign and the upload.
            expires_in_seconds: 604_800
          })
          if (presigned === undefined) break
          expect(presigned.status).toBe(200)
          let status: number | undefined
          try {
            const put = await fetch(presigned.body.url, { method: "PUT", headers: presigned.body.headers, body })
            status = put.status
          } catch (error) {
            if (!run.killed) throw error
          }
          if (status === undefined) {
            unanswered(key, hex(body))
            break
          }
          expect(status).toBe(200)
          known.objects.set(key, hex(body))
          counts.uploads += 1
          run.acknowledge()
        } else if (choice < 0.85) {
          const key = present[Math.floor(next() * present.length)]!
          const answer = await run.call("DELETE", `${base}/objects/${encodeURIComponent(key)}`, apiKey)
          if (answer === undefined) {
            unanswered(key, undefined)
            break
          }
          expect(answer.status).toBe(204)
          known.objects.delete(key)
          counts.deletes += 1
          run.acknowledge()
        } else {
          const prefix = `dir${Math.floor(next() * 3)}/`
          const matching = present.filter((key) => key.startsWith(prefix))
          const answer = await run.call("DELETE", `${base}/objects-by-prefix?prefix=${prefix}`, apiKey)
          if (answer === undefined) {
            for (const key of matching) unanswered(key, undefined)
            break
          }
          expect(answer.status).toBe(200)
          expect(answer.body.deleted).toBe(matching.length)
          for (const key of matching) known.objects.delete(key)
          counts.prefixDeletes += 1
          run.acknowledge()
        }
      }
    },
    finish: () => {
      expect(counts.uploads).toBeGreaterThan(0)
      return `acknowledged ${counts.uploads} uploads, ${counts.deletes} deletes, ${counts.prefixDeletes} deletes by prefix: 0 lost, nothing unasked for`
    }
  }
}
