/**
 * "Acknowledged means durable" for function deployments (docs/contract.md §29.4) under `--state`,
 * on the shipped command, small: one worker per project deploys (`multipart/form-data`: a ZIP and
 * an environment) to new slugs and again to slugs it has, over plain `fetch`; the emulator is killed
 * with SIGKILL after a random number of acknowledged deployments (a seeded RNG, so a failure
 * replays), then restarted on the same state file.
 *
 * After each restart, read from the control API's snapshot: every acknowledged deployment is there
 * (its function holds a deployment of that version or a later one), no function appears that no
 * request created, and no environment value is in the saved state (names only).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { crashRuns } from "./crashRun.js"
import { type Answer, frozenRestarts, random, type Running } from "./spawned.js"

const dir = mkdtempSync(join(tmpdir(), "dbplatform-functions-crash-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const apiKey = "functions-crash-test-key"
const token = "functions-crash-test-control-token"
const kills = 3
const projects = ["crash-fn-0", "crash-fn-1"]
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

describe("--state under kill -9: function deployments", () => {
  it(`${kills} kills at random moments: every acknowledged deployment survives, nothing else appears`, async () => {
    const state = join(dir, "state.json")
    const seed = join(dir, "seed.json")
    writeFileSync(
      seed,
      JSON.stringify({
        projects: projects.map((id) => ({ id })),
        branches: projects.map((project, i) => ({
          project_id: project,
          id: `br-main-${i}`,
          name: "main",
          default: true
        }))
      })
    )
    const tracked = projects.map((): Tracked => ({ acknowledged: new Map(), maybe: new Set() }))
    const { restart } = frozenRestarts(state, { DBPLATFORM_EMULATOR_KEY: apiKey, DBPLATFORM_EMULATOR_TOKEN: token }, 0)
    let acknowledgedChanges = 0

    const check = async (running: Running) => {
      const snapshot: any = await running.control((control) => control.snapshot())
      expect(JSON.stringify(snapshot)).not.toContain(secret)
      expect(readFileSync(state, "utf8")).not.toContain(secret)
      for (const [i, project] of projects.entries()) {
        const known = tracked[i]!
        const found = new Map<string, number>(
          (snapshot.functions ?? [])
            .filter((fn: any) => fn.branch_id === `br-main-${i}`)
            .map((fn: any) => [fn.slug, Math.max(...fn.deployments.map((d: any) => d.id))])
        )
        for (const [slug, version] of known.acknowledged) {
          expect(found.get(slug) ?? 0, `${project}: ${slug} deployment ${version}`).toBeGreaterThanOrEqual(version)
        }
        for (const slug of found.keys()) {
          expect(known.acknowledged.has(slug) || known.maybe.has(slug), `${project}: ${slug} no request made`).toBe(
            true
          )
        }
        known.acknowledged = found
        known.maybe.clear()
      }
    }

    const summary = await crashRuns({
      kills,
      seed: 20261128,
      killAfter: { from: 4, span: 12 },
      restart,
      seedFile: seed,
      check,
      workers: projects.length,
      worker: async (run, w) => {
        const known = tracked[w]!
        const functions = `${run.running.baseUrl}/projects/${projects[w]}/branches/br-main-${w}/functions`
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
      }
    })
    expect(acknowledgedChanges).toBeGreaterThan(kills * 4)
    expect(summary.unanswered).toBeGreaterThanOrEqual(0)
    // No timeout of its own (0): crashRuns bounds each step of the kill loop instead (stepBound).
  }, 0)
})
