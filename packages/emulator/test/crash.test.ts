/**
 * "Acknowledged means durable" (docs/contract.md §11) for `--state`, on the shipped command, for
 * several areas at once (crashAreas.ts): all their workers change things over HTTP with many
 * requests in flight, the emulator is killed with SIGKILL after a random number of acknowledged
 * changes (a seeded RNG, so a failure replays; each area had a change acknowledged in every run),
 * and restarted on the same state file, `kills` times; then a clean stop and a last start that
 * reads the state file back. After every start, each area checks that every change answered 200
 * is there and nothing no request asked for is; requests that got no answer may have happened or
 * not, and what a restart shows of them holds from then on. Each area's own checks are in its
 * module under `crash/`.
 *
 * The areas of the account, its organizations and a branch's own resources (keys, members,
 * access, Neon Auth, functions, bucket objects, branch recovery and credentials) are here; those
 * of projects, branches, snapshots and schemas in crashProjects.test.ts: two loops of their own,
 * run at once on the two workers, each area killed 10 times or more (test/README.md). A new area
 * is a module under `crash/` and a line in `areas` of either file.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, it } from "vitest"
import { access } from "./crash/access.js"
import { apiKeys } from "./crash/apiKeys.js"
import { auth } from "./crash/auth.js"
import { buckets } from "./crash/buckets.js"
import { functions } from "./crash/functions.js"
import { members } from "./crash/members.js"
import { orgKeys } from "./crash/orgKeys.js"
import { recovery } from "./crash/recovery.js"
import { crashAreas } from "./crashAreas.js"

const dir = mkdtempSync(join(tmpdir(), "dbplatform-crash-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const kills = 10
const areas = [apiKeys, orgKeys, members, access, auth, functions, buckets, recovery]

describe("--state under kill -9: the account, its organizations, a branch's own resources", () => {
  it(`${kills} kills at random moments, ${areas.length} areas changed at once: every acknowledged change survives, nothing else appears`, async () => {
    const summaries = await crashAreas({ dir, kills, seed: 20261123, killAfter: { from: 8, span: 60 }, areas })
    console.log(`crash test (account): ${kills} kills\n${summaries.join("\n")}`)
    // No timeout of its own (0): crashRuns bounds each step of the kill loop instead (stepBound).
  }, 0)
})
