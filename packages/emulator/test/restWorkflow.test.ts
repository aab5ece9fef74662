/**
 * Branch recovery and a branch's credentials (docs/contract.md §18.3, §11.7) against the shipped
 * emulator, its platform routes driven only by plain `fetch` (`workflow.ts`), every answer
 * validated against the published schema of its operation: a branch deleted, listed with
 * `include_deleted`, recovered with its compute endpoint (idle) and its connection string
 * unchanged; a credential created, listed, revoked (no longer active), revoked again; an
 * anonymized preview: created (its operations ended), masking rules set, anonymization started
 * and finished as the clock moves, its status read. The emulator's clock is frozen and moved by
 * its control API's typed client.
 */
import { describe, expect, it } from "vitest"
import { type Json, withWorkflow } from "./workflow.js"

const apiKey = "rest-workflow-key"
const token = "rest-workflow-control-token"
const project = "rest-workflow"
const main = "br-main-100001"
const preview = "br-preview-100002"
const previewEndpoint = "ep-preview-100002"

const seed = {
  projects: [{ id: project, name: "rest workflow" }],
  branches: [
    { project_id: project, id: main, name: "main", default: true },
    { project_id: project, id: preview, name: "preview/pr-1", parent_id: main }
  ],
  endpoints: [{ branch_id: preview, id: previewEndpoint, type: "read_write" }],
  roles: [main, preview].map((branch_id) => ({ branch_id, name: "app_owner", password: "npg_R3stW0rkfl0w" })),
  databases: [main, preview].map((branch_id) => ({ branch_id, name: "app", owner_name: "app_owner" }))
}

describe("branch recovery and credentials over the emulator, with fetch alone", () => {
  it("delete a branch and recover it; create a credential, list it, revoke it", async () => {
    await withWorkflow({ apiKey, token, project, seed }, async ({ control, call }) => {
      /** Polls the project's operations until those of `answer` have all ended, the clock moved a second a round. */
      const poll = async (answer: Json) => {
        const ids: Array<string> = answer.operations.map((operation: Json) => operation.id)
        for (let round = 1; round <= 30; round++) {
          const page = await call("GET", "/projects/{project_id}/operations", 200)
          const states = ids.map((id) => page.operations.find((operation: Json) => operation.id === id))
          if (states.every((state) => state !== undefined && !["scheduling", "running"].includes(state.status))) return
          await control((c) => c.advance({ payload: { by: 1000 } }))
        }
        throw new Error(`operations ${ids.join(", ")} still pending after 30 rounds`)
      }
      const uri = async () =>
        (
          await call("GET", "/projects/{project_id}/connection_uri", 200, {
            query: `?branch_id=${preview}&database_name=app&role_name=app_owner`
          })
        ).uri
      await control((c) => c.freeze())
      await control((c) => c.advance({ payload: { by: 1000 } }))

      // (a) Delete the preview branch, find it among the deleted, recover it.
      const before = await uri()
      const deleted = await call("DELETE", "/projects/{project_id}/branches/{branch_id}", 200, {
        params: { branch_id: preview }
      })
      await poll(deleted)
      await call("GET", "/projects/{project_id}/branches/{branch_id}", 404, { params: { branch_id: preview } })
      const listed = await call("GET", "/projects/{project_id}/branches", 200, { query: "?include_deleted=true" })
      const candidate = listed.branches.find((branch: Json) => branch.id === preview)
      expect(candidate.recovery.deletion_method).toBe("user")
      const recovered = await call("POST", "/projects/{project_id}/branches/{branch_id}/recover", 200, {
        params: { branch_id: preview }
      })
      expect(recovered.branch).toMatchObject({ id: preview, name: "preview/pr-1" })
      expect(recovered.endpoints.map((endpoint: Json) => [endpoint.id, endpoint.current_state])).toEqual([
        [previewEndpoint, "idle"]
      ])
      expect(await uri()).toBe(before)
      await call("POST", "/projects/{project_id}/branches/{branch_id}/recover", 409, { params: { branch_id: preview } })

      // (b) A credential of the recovered branch: created (its secrets once), listed, revoked.
      const params = { branch_id: preview }
      const created = await call("POST", "/projects/{project_id}/branches/{branch_id}/credentials", 201, {
        params,
        body: { name: "ci", scopes: ["storage:read", "storage:write"], principal_type: "user" }
      })
      expect(created.s3_secret_access_key).toMatch(/^nsk_live_[0-9a-f]{64}$/)
      const active = await call("GET", "/projects/{project_id}/branches/{branch_id}/credentials", 200, { params })
      expect(active.credentials.map((one: Json) => [one.token_id, one.revoked_at])).toEqual([
        [created.token_id, undefined]
      ])
      expect(JSON.stringify(active)).not.toContain(created.api_token)
      const revoke = { params: { ...params, token_id: created.token_id } }
      await call("DELETE", "/projects/{project_id}/branches/{branch_id}/credentials/{token_id}", 204, revoke)
      await call("DELETE", "/projects/{project_id}/branches/{branch_id}/credentials/{token_id}", 204, revoke)
      const after = await call("GET", "/projects/{project_id}/branches/{branch_id}/credentials", 200, { params })
      expect(after.credentials.filter((one: Json) => one.revoked_at === undefined)).toEqual([])
      expect(after.credentials.map((one: Json) => one.token_id)).toEqual([created.token_id])
    })
  }, 60_000)

  it("an anonymized preview: rules set, anonymization started and finished on the clock, status read", async () => {
    // `main`'s database `app` with a table whose columns the rules name.
    const withSchema = {
      ...seed,
      databases: seed.databases.map((database) =>
        database.branch_id === main
          ? { ...database, schema: "CREATE TABLE users (id bigint PRIMARY KEY, email text NOT NULL, name text)" }
          : database
      )
    }
    await withWorkflow({ apiKey, token, project, seed: withSchema }, async ({ control, call }) => {
      await control((c) => c.freeze())
      await control((c) => c.advance({ payload: { by: 1000 } }))
      const emailRule = {
        database_name: "app",
        schema_name: "public",
        table_name: "users",
        column_name: "email",
        masking_function: "anon.fake_email()"
      }
      const created = await call("POST", "/projects/{project_id}/branch_anonymized", 201, {
        body: { branch_create: { branch: { name: "preview/masked", parent_id: main } }, masking_rules: [emailRule] }
      })
      expect(created.operations.map((operation: Json) => operation.action)).toEqual(["create_branch"])
      const params = { branch_id: created.branch.id }
      const status = () => call("GET", "/projects/{project_id}/branches/{branch_id}/anonymized_status", 200, { params })
      expect((await status()).state).toBe("created")
      await control((c) => c.advance({ payload: { by: 60_000 } }))
      expect((await status()).state).toBe("initialized")
      const rules = await call("PATCH", "/projects/{project_id}/branches/{branch_id}/masking_rules", 200, {
        params,
        body: { masking_rules: [emailRule, { ...emailRule, column_name: "name", masking_value: "someone" }] }
      })
      expect(rules.masking_rules.map((rule: Json) => rule.column_name)).toEqual(["email", "name"])
      expect(
        (await call("GET", "/projects/{project_id}/branches/{branch_id}/masking_rules", 200, { params })).masking_rules
      ).toEqual(rules.masking_rules)
      const started = await call("POST", "/projects/{project_id}/branches/{branch_id}/anonymize", 200, { params })
      expect(started.state).toBe("anonymizing")
      await call("POST", "/projects/{project_id}/branches/{branch_id}/anonymize", 409, { params })
      await control((c) => c.advance({ payload: { by: 1_000 } }))
      expect((await status()).state).toBe("anonymizing")
      await control((c) => c.advance({ payload: { by: 1_000 } }))
      const done = await status()
      expect([done.state, done.last_run.masked_columns]).toEqual(["anonymized", 2])
      expect(done.last_run.completed_at).toBeDefined()
    })
  }, 60_000)
})
