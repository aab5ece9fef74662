/**
 * "Acknowledged means durable" (docs/contract.md §11) for `--state`, on the shipped command, for
 * the areas of projects and their branches at once (crashAreas.ts; the loop as crash.test.ts
 * says): schema changes, a branch's app backend, projects with their roles and databases,
 * branches with their expiry, snapshots with their backup schedules. Their changes start
 * operations and move the shared frozen clock; each area's checks read time from it. A loop of its
 * own, run beside crash.test.ts' on the other worker. 11 kills, and runs of 20 to 79 acknowledged
 * changes: the branches' renames and deletes, a fraction of one area's changes, stay well above
 * the 10 they are held to (test/README.md).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, it } from "vitest"
import { appBackend } from "./crash/appBackend.js"
import { branches } from "./crash/branches.js"
import { projects } from "./crash/projects.js"
import { schemas } from "./crash/schemas.js"
import { snapshots } from "./crash/snapshots.js"
import { crashAreas } from "./crashAreas.js"

const dir = mkdtempSync(join(tmpdir(), "dbplatform-crash-projects-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const kills = 11
const areas = [schemas, appBackend, projects, branches, snapshots]

describe("--state under kill -9: projects and their branches", () => {
  it(`${kills} kills at random moments, ${areas.length} areas changed at once: every acknowledged change survives, nothing else appears`, async () => {
    const summaries = await crashAreas({ dir, kills, seed: 20261129, killAfter: { from: 20, span: 60 }, areas })
    console.log(`crash test (projects): ${kills} kills\n${summaries.join("\n")}`)
    // No timeout of its own (0): crashRuns bounds each step of the kill loop instead (stepBound).
  }, 0)
})
