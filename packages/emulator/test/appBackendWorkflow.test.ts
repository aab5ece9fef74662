/**
 * A branch's app backend (docs/contract.md §25-§27) against the shipped emulator, its platform
 * routes driven only by plain `fetch`, as a provisioning script in any language would: the Data API
 * of a database (create, read, update with its 201, delete), the branch's auth service (enabled
 * with its keys once, a second enable a 409, trusted domains added and deleted with a body on the
 * DELETE, OAuth providers added, updated and deleted, disabled with `{ delete_data }`), and a
 * project JWKS (added, its `apply_config` polled to its end on the clock frozen and moved by the
 * control API's typed client, listed,
 * deleted). Every answer with a body is validated against the published schema of its operation
 * (`publishedReference.ts`); those the document declares without one come with none.
 */
import { describe, expect, it } from "vitest"
import { type Json, withWorkflow } from "./workflow.js"

const apiKey = "app-backend-key"
const token = "app-backend-control-token"
const project = "app-backend"
const main = "br-main-100001"

describe("a branch's Data API, auth and a project's JWKS over the emulator, its platform routes with fetch alone", () => {
  it("provisions them, changes them and takes them down", async () => {
    const seed = {
      projects: [{ id: project, name: "app backend", region_id: "aws-us-east-2" }],
      branches: [{ project_id: project, id: main, name: "main", default: true }],
      endpoints: [{ branch_id: main, id: "ep-main-100001", type: "read_write" }],
      roles: [{ branch_id: main, name: "owner" }],
      databases: [{ branch_id: main, name: "neondb", owner_name: "owner" }]
    }
    await withWorkflow({ apiKey, token, project, seed, params: { branch_id: main } }, async ({ control, call }) => {
      await control((c) => c.freeze())

      // The Data API of `neondb`.
      const dataApi = "/projects/{project_id}/branches/{branch_id}/data-api/{database_name}"
      const database = { params: { database_name: "neondb" } }
      const created = await call("POST", dataApi, 201, { ...database, body: { settings: { db_max_rows: 500 } } })
      expect(created.url).toBe(`https://${main}.apirest.aws-us-east-2.dbplatform.test/neondb/rest/v1`)
      await call("POST", dataApi, 409, { ...database, body: {} })
      expect(await call("GET", dataApi, 200, database)).toMatchObject({
        url: created.url,
        status: "ready",
        settings: { db_max_rows: 500, db_schemas: ["public"] }
      })
      expect(await call("PATCH", dataApi, 201, { ...database, body: { settings: { db_schemas: ["api"] } } })).toEqual(
        {}
      )
      expect((await call("GET", dataApi, 200, database)).settings).toMatchObject({
        db_max_rows: 500,
        db_schemas: ["api"]
      })
      expect(await call("DELETE", dataApi, 200, database)).toEqual({})
      await call("GET", dataApi, 404, database)

      // The branch's auth service.
      const auth = "/projects/{project_id}/branches/{branch_id}/auth"
      await call("GET", auth, 404)
      const enabled = await call("POST", auth, 201, { body: { auth_provider: "better_auth" } })
      expect(enabled.secret_server_key).toMatch(/^ssk_[0-9a-f]{32}$/)
      expect(enabled.pub_client_key).toMatch(/^pck_[0-9a-f]{32}$/)
      await call("POST", auth, 409, { body: { auth_provider: "better_auth" } })
      const read = await call("GET", auth, 200)
      expect(read).toMatchObject({ auth_provider: "better_auth", branch_id: main, db_name: "neondb" })
      expect(JSON.stringify(read)).not.toContain(enabled.secret_server_key)

      const domains = `${auth}/domains`
      for (const domain of ["https://app.example.com", "https://preview.example.com"]) {
        await call("POST", domains, 201, { body: { domain, auth_provider: "better_auth" } })
      }
      await call("DELETE", domains, 200, {
        body: { auth_provider: "better_auth", domains: [{ domain: "https://app.example.com" }] }
      })
      expect((await call("GET", domains, 200)).domains).toEqual([
        { domain: "https://preview.example.com", auth_provider: "better_auth" }
      ])

      const providers = `${auth}/oauth_providers`
      const provider = `${providers}/{oauth_provider_id}`
      expect(await call("POST", providers, 200, { body: { id: "google" } })).toEqual({ id: "google", type: "shared" })
      await call("POST", providers, 409, { body: { id: "google" } })
      expect(
        await call("PATCH", provider, 200, {
          params: { oauth_provider_id: "google" },
          body: { client_id: "g-id", client_secret: "g-secret" }
        })
      ).toEqual({ id: "google", type: "standard", client_id: "g-id", client_secret: "g-secret" })
      await call("POST", providers, 200, { body: { id: "github", client_id: "gh-id", client_secret: "gh-secret" } })
      expect((await call("GET", providers, 200)).providers.map((item: Json) => item.id)).toEqual(["google", "github"])
      await call("DELETE", provider, 200, { params: { oauth_provider_id: "google" } })
      await call("DELETE", provider, 404, { params: { oauth_provider_id: "google" } })

      await call("DELETE", auth, 200, { body: { delete_data: true } })
      await call("GET", auth, 404)
      await call("GET", domains, 404)

      // A project JWKS: its apply_config polled to its end, then it is deleted.
      const jwks = "/projects/{project_id}/jwks"
      const added = await call("POST", jwks, 201, {
        body: {
          jwks_url: "https://auth.example.com/.well-known/jwks.json",
          provider_name: "Clerk",
          jwt_audience: "app"
        }
      })
      expect(added.operations.map((operation: Json) => [operation.action, operation.status])).toEqual([
        ["apply_config", "scheduling"]
      ])
      const operation = "/projects/{project_id}/operations/{operation_id}"
      let status = added.operations[0].status
      for (let round = 0; round < 10 && status !== "finished"; round++) {
        await control((c) => c.advance({ payload: { by: 1_000 } }))
        status = (await call("GET", operation, 200, { params: { operation_id: added.operations[0].id } })).operation
          .status
      }
      expect(status).toBe("finished")
      expect((await call("GET", jwks, 200)).jwks.map((item: Json) => item.id)).toEqual([added.jwks.id])
      const deleted = await call("DELETE", `${jwks}/{jwks_id}`, 200, { params: { jwks_id: added.jwks.id } })
      expect(deleted).toMatchObject({ id: added.jwks.id, provider_name: "Clerk", jwt_audience: "app" })
      expect((await call("GET", jwks, 200)).jwks).toEqual([])
    })
  }, 60_000)
})
