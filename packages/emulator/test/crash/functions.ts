/**
 * Function deployments (docs/contract.md §29.4) under kill -9 (an area of crash.test.ts, see
 * crashAreas.ts): one worker per project deploys (`multipart/form-data`: a ZIP and an environment)
 * to new slugs and again to slugs it has, over plain `fetch`.
 *
 * After each restart, read from the control API's snapshot: every acknowledged deployment is there
 * (its function holds a deployment of that version or a later one), no function appears that no
 * request created, and no environment value is in the snapshot or the saved state (names only).
 */
import { readFileSync } from "node:fs"
import { expect } from "vitest"
import type { CrashArea, CrashContext } from "../crashAreas.js"
import { type Answer, random, type Running } from "../spawned.js"

/** The kills of this test when it had a run of its own: each count below is checked against it. */
const ownKills = 3
const projects = ["crash-fn-0", "crash-fn-1"]
const branchOf = (i: number) => `br-fn-${i}`
const secret = "env-value-never-saved"

/** The smallest ZIP archive: an empty one's end record. */
const emptyZip: Uint8Array<ArrayBuffer> = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0)])

/** What the test knows of one branch's functions. */
interface Tracked {
  /** By slug: the newest deployment version acknowledged. */
  acknowledged: Map<string, number>
  /** Slugs whose first deployment got no answer: there or not, as the restart shows. */
  maybe: Set<string>
}

export const functions = ({ apiKey, state }: CrashContext): CrashArea => {
  const tracked = projects.map((): Tracked => ({ acknowledged: new Map(), maybe: new Set() }))
  let acknowledgedChanges = 0

  const check = async (running: Running) => {
    const snapshot: any = await running.control((control) => control.snapshot())
    expect(JSON.stringify(snapshot)).not.toContain(secret)
    expect(readFileSync(state, "utf8")).not.toContain(secret)
    for (const [i, project] of projects.entries()) {
      const known = tracked[i]!
      const found = new Map<string, number>(
        (snapshot.functions ?? [])
          .filter((fn: any) => fn.branch_id === branchOf(i))
          .map((fn: any) => [fn.slug, Math.max(...fn.deployments.map((d: any) => d.id))])
      )
      for (const [slug, version] of known.acknowledged) {
        expect(found.get(slug) ?? 0, `${project}: ${slug} deployment ${version}`).toBeGreaterThanOrEqual(version)
      }
      for (const slug of found.keys()) {
        expect(known.acknowledged.has(slug) || known.maybe.has(slug), `${project}: ${slug} no request made`).toBe(true)
      }
      known.acknowledged = found
      known.maybe.clear()
    }
  }

  return {
    name: "function deployments",
    seed: {
      projects: projects.map((id) => ({ id })),
      branches: projects.map((project, i) => ({ project_id: project, id: branchOf(i), name: "main", default: true }))
    },
    workers: projects.length,
    longestChange: 0,
    check,
    worker: async (run, w) => {
      const known = tracked[w]!
      const functions = `${run.running.baseUrl}/projects/${projects[w]}/branches/${branchOf(w)}/functions`
      const next = random(run.index * 1000 + w)
      let n = 0
      while (!run.killed) {
        n += 1
        const slugs = [...known.acknowledged.keys()]
        const fresh = slugs.length === 0 || next() < 0.4
        const slug = fresh ? `r${run.index}w${w}n${n}` : slugs[Math.floor(next() * slugs.length)]!
        const body = new FormData()
        if (fresh) body.append("zip", new Blob([emptyZip], { type: "application/zip" }), "bundle.zip")
        body.append("environment", JSON.stringify({ TOKEN: secret, N: String(n) }))
        const answer: Answer | undefined = await run.call("POST", `${functions}/${slug}/deployments`, apiKey, body)
        if (answer === undefined) {
          if (fresh) known.maybe.add(slug)
          continue
        }
        expect(answer.status, JSON.stringify(answer.body)).toBe(201)
        expect(JSON.stringify(answer.body)).not.toContain(secret)
        known.acknowledged.set(slug, answer.body.deployment.id)
        acknowledgedChanges += 1
        run.acknowledge()
      }
    },
    finish: () => {
      expect(acknowledgedChanges).toBeGreaterThan(ownKills * 4)
      return `${acknowledgedChanges} deployments acknowledged: 0 lost, nothing unasked for, no environment value saved`
    }
  }
}
