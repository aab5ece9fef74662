/**
 * Nothing a client sends is dropped without a word (docs/design.md §1.4), over the shipped
 * emulator: a body field or a query parameter an endpoint does not declare is a 400 naming it,
 * and the state does not change; the same request without it is answered.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { type Running, send, start } from "./spawned.js"

const dir = mkdtempSync(join(tmpdir(), "dbplatform-unknown-fields-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const apiKey = "unknown-fields-key"
const token = "unknown-fields-control-token"
const project = "unknown-fields"

describe("an unknown field over the emulator", () => {
  it("is a 400 naming it, in a body and in a query, and changes nothing", async () => {
    const seed = join(dir, "seed.json")
    writeFileSync(
      seed,
      JSON.stringify({
        projects: [{ id: project }],
        branches: [{ project_id: project, id: "br-main-100001", name: "main", default: true }]
      })
    )
    const running: Running = await start(["--seed", seed, "--port", "0"], {
      DBPLATFORM_EMULATOR_KEY: apiKey,
      DBPLATFORM_EMULATOR_TOKEN: token
    })
    try {
      const branches = `${running.baseUrl}/projects/${project}/branches`
      const before = await send("GET", `${running.controlUrl}/snapshot`, token)

      const nested = await send("POST", branches, apiKey, {
        branch: { name: "preview/pr-1", expires_in: "7 days" }
      })
      expect(nested.status).toBe(400)
      expect(nested.body.message).toContain("branch.expires_in")

      const topLevel = await send("POST", branches, apiKey, { branch: { name: "preview/pr-1" }, ttl: 3600 })
      expect(topLevel.status).toBe(400)
      expect(topLevel.body.message).toContain("ttl")

      const query = await send("GET", `${running.baseUrl}/projects?bogus=1`, apiKey)
      expect(query.status).toBe(400)
      expect(query.body.message).toContain("bogus")

      const noQuery = await send("GET", `${running.baseUrl}/api_keys?expand=all`, apiKey)
      expect(noQuery.status).toBe(400)
      expect(noQuery.body.message).toContain("expand")

      // Nothing changed: the branches, projects and operations are as they were.
      const after = await send("GET", `${running.controlUrl}/snapshot`, token)
      for (const kind of ["projects", "branches", "endpoints", "operations"]) {
        expect(after.body[kind], kind).toEqual(before.body[kind])
      }

      // Without the unknown field, the same creation is answered.
      const created = await send("POST", branches, apiKey, { branch: { name: "preview/pr-1" } })
      expect(created.status).toBe(201)
      expect(created.body.branch.name).toBe("preview/pr-1")
    } finally {
      running.child.kill()
      await running.exited
    }
  })
})
