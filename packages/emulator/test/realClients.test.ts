/**
 * The platform's own published clients against the shipped emulator, unchanged
 * (docs/design.md §1.4): its CLI (`neonctl` 5.0.1 from npm, run as a child process with the emulator as its API
 * host) and its TypeScript SDK (`@neon/sdk` 6.1.2, over `fetch`). Each step is a command or a call
 * a user of the platform makes; every one must succeed, and what the emulator kept is read back
 * through the published routes (each answer validated against the published document,
 * `workflow.ts`). The emulator's clock runs (the SDK polls operations until they end, as it does
 * against the platform); between CLI commands it is moved on a minute, past every operation the
 * last one started, so that no command meets a project still locked.
 */
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { createNeonClient } from "@neon/sdk"
import { afterAll, describe, expect, it } from "vitest"
import { type Json, withWorkflow } from "./workflow.js"

const project = "real-clients"
const main = "br-main-100001"

/** A project with its default branch, a read_write compute endpoint, a role and a database on it. */
const seed = {
  projects: [{ id: project, name: "real clients", region_id: "aws-us-east-2" }],
  branches: [{ project_id: project, id: main, name: "main", default: true }],
  endpoints: [{ branch_id: main, id: "ep-main-100001", type: "read_write" }],
  roles: [{ branch_id: main, name: "app_owner", password: "npg_R3alCl1ents" }],
  databases: [{ branch_id: main, name: "app", owner_name: "app_owner" }]
}

/** The CLI's entry point: `bin/cli.js` of the `neonctl` package (devDependency). */
const neonctl = join(dirname(createRequire(import.meta.url).resolve("neonctl/package.json")), "bin", "cli.js")

const home = mkdtempSync(join(tmpdir(), "dbplatform-neonctl-"))
afterAll(() => rmSync(home, { recursive: true, force: true }))

/** What a command printed and how it ended. */
interface Ran {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/**
 * Runs `neonctl args` against the emulator at `baseUrl` with `apiKey`, its JSON output, no
 * analytics, no colour, its configuration in a folder of its own; its environment holds no
 * `NEON_*` variable, its home is a temporary folder, and `CI=true` (no prompt).
 */
const cli = (baseUrl: string, apiKey: string, args: ReadonlyArray<string>): Promise<Ran> =>
  new Promise((resolve) => {
    const flags = ["--api-host", baseUrl, "--api-key", apiKey, "--output", "json", "--no-analytics", "--no-color"]
    execFile(
      process.execPath,
      [neonctl, ...args, ...flags, "--config-dir", join(home, "config")],
      {
        env: { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), CI: "true" },
        timeout: 120_000
      },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : ((error.code as number | null) ?? 1), stdout, stderr })
    )
  })

describe("the platform's published clients over the emulator", () => {
  it("neonctl 5.0.1: create a branch with an expiry, list, connection string, snapshot, restore, delete; each exits 0", async () => {
    const apiKey = "real-clients-cli-key"
    await withWorkflow(
      { apiKey, token: "real-clients-cli-token", project, seed },
      async ({ running, control, call }) => {
        /** Runs a command, expects it to exit 0, moves the clock past what it started, and answers its JSON. */
        const neon = async (...args: ReadonlyArray<string>): Promise<Json> => {
          const ran = await cli(running.baseUrl, apiKey, args)
          expect(ran.code, `neonctl ${args.join(" ")}: ${ran.stderr}`).toBe(0)
          await control((c) => c.advance({ payload: { by: 60_000 } }))
          return JSON.parse(ran.stdout)
        }
        const inProject = ["--project-id", project]
        // An expiry as the CLI sends one: `Date.prototype.toISOString`, fractional seconds included.
        const expiresAt = new Date(Date.now() + 7 * 86_400_000 + 123)

        const created = await neon(
          "branches",
          "create",
          ...inProject,
          "--name",
          "preview/pr-7",
          "--expires-at",
          expiresAt.toISOString()
        )
        expect(created.branch.name).toBe("preview/pr-7")
        // Kept to the second, as the platform keeps an expiry.
        expect(Date.parse(created.branch.expires_at)).toBe(Math.floor(expiresAt.getTime() / 1000) * 1000)
        const branchId: string = created.branch.id
        // The CLI sends an annotation (`{}` by default) with every creation: kept, and answered.
        const read = await call("GET", "/projects/{project_id}/branches/{branch_id}", 200, {
          params: { branch_id: branchId }
        })
        expect(read.annotation.object.id).toBe(branchId)

        const listed = await neon("branches", "list", ...inProject)
        expect(listed.map((branch: Json) => branch.name).sort()).toEqual(["main", "preview/pr-7"])

        const connection = await cli(running.baseUrl, apiKey, ["connection-string", "preview/pr-7", ...inProject])
        expect(connection.code, connection.stderr).toBe(0)
        expect(connection.stdout).toMatch(/^postgresql:\/\/app_owner:npg_R3alCl1ents@ep-[a-z0-9-]+\./)

        const snapshot = await neon(
          "snapshots",
          "create",
          ...inProject,
          "--branch",
          "preview/pr-7",
          "--name",
          "before-migration"
        )
        expect(snapshot.name).toBe("before-migration")
        expect(snapshot.source_branch_id).toBe(branchId)

        const restored = await neon("snapshots", "restore", snapshot.id, ...inProject, "--name", "restored")
        expect(restored.restored_branch.name).toBe("restored")
        expect(restored.restored_branch.restored_from).toBe(snapshot.id)

        const deleted = await neon("branches", "delete", "preview/pr-7", ...inProject)
        expect(deleted.id).toBe(branchId)
        // Gone from the list; kept for the platform's branch recovery, listed with include_deleted.
        const page = await call("GET", "/projects/{project_id}/branches", 200, { query: "?include_deleted=true" })
        const gone = page.branches.find((branch: Json) => branch.id === branchId)
        expect(gone.recovery.deletion_method).toBe("user")
        const live = await call("GET", "/projects/{project_id}/branches", 200)
        expect(live.branches.map((branch: Json) => branch.id)).not.toContain(branchId)
      }
    )
  }, 600_000)

  it("@neon/sdk 6.1.2: a named compute endpoint, a role with no_login, a branch's expiry from a Date", async () => {
    const apiKey = "real-clients-sdk-key"
    await withWorkflow({ apiKey, token: "real-clients-sdk-token", project, seed }, async ({ running, call }) => {
      const neon = createNeonClient({
        apiKey,
        baseUrl: running.baseUrl,
        throwOnError: true,
        // Every mutation waits for the operations it started, so the next one meets no lock.
        waitForReadiness: true,
        wait: { pollIntervalMs: 100, timeoutMs: 60_000 }
      })
      const branch = await neon.branches.create({ projectId: project, name: "sdk-branch", noCompute: true })

      const endpoint = await neon.postgres.endpoints.create({
        projectId: project,
        branch_id: branch.id,
        type: "read_write",
        name: "reports",
        pooler_enabled: true,
        pooler_mode: "transaction",
        suspend_timeout_seconds: 300
      })
      expect(endpoint.name).toBe("reports")
      const kept = await call("GET", "/projects/{project_id}/endpoints/{endpoint_id}", 200, {
        params: { endpoint_id: endpoint.id }
      })
      expect(kept.endpoint).toMatchObject({
        name: "reports",
        pooler_enabled: true,
        pooler_mode: "transaction",
        suspend_timeout_seconds: 300
      })

      const role = await neon.postgres.roles.create({
        projectId: project,
        branchId: branch.id,
        name: "auditor",
        no_login: true
      })
      expect(role.name).toBe("auditor")
      expect(role.authentication_method).toBe("no_login")
      expect(role.password).toBeUndefined()

      const expiresAt = new Date(Date.now() + 86_400_000)
      const updated = await neon.branches.update({
        projectId: project,
        branchId: branch.id,
        expires_at: expiresAt.toISOString()
      })
      expect(Date.parse(updated.expires_at!)).toBe(Math.floor(expiresAt.getTime() / 1000) * 1000)
      const readBack = await call("GET", "/projects/{project_id}/branches/{branch_id}", 200, {
        params: { branch_id: branch.id }
      })
      expect(readBack.branch.expires_at).toBe(updated.expires_at)
    })
  }, 300_000)

  it("@neon/sdk 6.1.2: Neon Auth on a branch, its users created, re-roled and deleted, the app's name", async () => {
    const apiKey = "real-clients-auth-key"
    await withWorkflow({ apiKey, token: "real-clients-auth-token", project, seed }, async ({ running, call }) => {
      const neon = createNeonClient({ apiKey, baseUrl: running.baseUrl, throwOnError: true })
      const branch = { projectId: project, branchId: main }
      await neon.auth.create({ ...branch, auth_provider: "better_auth", database_name: "app" })
      const ada = await neon.auth.users.create({ ...branch, email: "ada@example.com", name: "Ada" })
      const bob = await neon.auth.users.create({ ...branch, email: "bob@example.com" })
      expect(await neon.auth.users.updateRole({ ...branch, authUserId: ada.id, roles: ["admin"] })).toEqual({
        id: ada.id
      })
      await neon.auth.users.delete({ ...branch, authUserId: bob.id })
      await expect(neon.auth.users.delete({ ...branch, authUserId: bob.id })).rejects.toThrow()
      expect(await neon.auth.updateConfig({ ...branch, name: "Real Clients" })).toEqual({ name: "Real Clients" })
      expect(await neon.auth.get(branch)).toMatchObject({ db_name: "app", name: "Real Clients" })
      await call("POST", "/projects/{project_id}/branches/{branch_id}/auth/users", 409, {
        params: { branch_id: main },
        body: { email: "ada@example.com" }
      })
    })
  }, 300_000)
})
