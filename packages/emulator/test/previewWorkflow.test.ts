/**
 * The preview-branch workflow (docs/contract.md §13.3) against the shipped emulator, its platform
 * routes driven only by plain `fetch`, as a CI job in any language would: create a branch with a
 * read_write compute endpoint, wait for its operations by polling (one request a round for all
 * of them), read its connection string, rename it, suspend and start its compute endpoint, delete
 * it and wait for the deletion. The emulator's clock is frozen and moved by its control API
 * (through its typed client, `ControlApi.client`), so nothing waits for time to pass. Every answer of the platform's routes is validated against the
 * published schema of its operation (`publishedReference.ts`, a copy of
 * `packages/testing/test/publishedReference.ts`: the emulator's tests do not import another
 * package's tests; the last test checks the copy is the same code).
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { type Json, withWorkflow } from "./workflow.js"

const apiKey = "preview-workflow-key"
const token = "preview-workflow-control-token"
const project = "preview-workflow"
const main = "br-main-100001"
const password = "npg_Pr3viewFl0w"

describe("the preview-branch workflow over the emulator, its platform routes with fetch alone", () => {
  it("create with a compute endpoint, poll, connection_uri, rename, suspend, start, delete, poll", async () => {
    const seed = {
      projects: [{ id: project, name: "preview workflow", region_id: "aws-us-east-2" }],
      branches: [{ project_id: project, id: main, name: "main", default: true }],
      endpoints: [{ branch_id: main, id: "ep-main-100001", type: "read_write" }]
    }
    await withWorkflow({ apiKey, token, project, seed }, async ({ control, call }) => {
      /**
       * Polls the project's operations until those of `ids` have all ended: one request a round
       * (the list answers for all of them), the clock moved a second between rounds. Answers
       * their last states and the number of rounds.
       */
      const poll = async (ids: ReadonlyArray<string>) => {
        for (let round = 1; round <= 30; round++) {
          const page = await call("GET", "/projects/{project_id}/operations", 200)
          const states = ids.map((id) => page.operations.find((operation: Json) => operation.id === id))
          if (states.every((state) => state !== undefined && !["scheduling", "running"].includes(state.status))) {
            return { states, rounds: round }
          }
          await control((c) => c.advance({ payload: { by: 1000 } }))
        }
        throw new Error(`operations ${ids.join(", ")} still pending after 30 rounds`)
      }
      const idsOf = (answer: Json): Array<string> => answer.operations.map((operation: Json) => operation.id)

      // The default branch gets a role and a database (a seed takes none): the snapshot, changed.
      await control((c) => c.freeze())
      const snapshot = await control((c) => c.snapshot())
      const made = { project_id: project, branch_id: main, created_at: snapshot.branches[0]!.created_at }
      const roles = [
        {
          ...made,
          id: `${main}/neondb_owner`,
          name: "neondb_owner",
          password,
          protected: false,
          updated_at: made.created_at
        }
      ]
      const databases = [
        { ...made, id: 5_000_001, name: "neondb", owner_name: "neondb_owner", updated_at: made.created_at }
      ]
      await control((c) => c.restore({ payload: { ...snapshot, roles, databases } }))

      // Create: the branch, its compute endpoint, copies of main's role and database, the
      // connection URI, and the operations that make them.
      const created = await call("POST", "/projects/{project_id}/branches", 201, {
        body: { branch: { name: "preview/pr-9" }, endpoints: [{ type: "read_write" }] }
      })
      const branch: string = created.branch.id
      const endpoint: string = created.endpoints[0].id
      expect(created.branch).toMatchObject({ name: "preview/pr-9", current_state: "init", parent_id: main })
      expect(created.roles.map((role: Json) => [role.branch_id, role.name])).toEqual([[branch, "neondb_owner"]])
      expect(created.databases.map((database: Json) => [database.branch_id, database.name])).toEqual([
        [branch, "neondb"]
      ])
      const host = `${endpoint}.aws-us-east-2.dbplatform.test`
      expect(created.connection_uris).toEqual([
        {
          connection_uri: `postgresql://neondb_owner:${password}@${host}/neondb?sslmode=require`,
          connection_parameters: {
            database: "neondb",
            role: "neondb_owner",
            host,
            pooler_host: `${endpoint}-pooler.aws-us-east-2.dbplatform.test`,
            password
          }
        }
      ])
      const creation = await poll(idsOf(created))
      expect(creation.states.map((state) => [state.action, state.status])).toEqual([
        ["create_branch", "finished"],
        ["start_compute", "finished"]
      ])
      // create_branch 2 s, then start_compute 3 s: a round a second.
      expect(creation.rounds).toBe(6)
      const params = { branch_id: branch, endpoint_id: endpoint }
      expect(
        (await call("GET", "/projects/{project_id}/branches/{branch_id}", 200, { params })).branch.current_state
      ).toBe("ready")

      // The connection string, direct and pooled.
      const uri = (query: string) =>
        call("GET", "/projects/{project_id}/connection_uri", 200, {
          query: `?database_name=neondb&role_name=neondb_owner&branch_id=${branch}${query}`
        })
      expect((await uri("")).uri).toBe(`postgresql://neondb_owner:${password}@${host}/neondb?sslmode=require`)
      expect((await uri("&pooled=true")).uri).toContain(`@${endpoint}-pooler.`)
      await call("GET", "/projects/{project_id}/connection_uri", 404, {
        query: `?database_name=neondb&role_name=nobody&branch_id=${branch}`
      })

      // Rename: no operation.
      const renamed = await call("PATCH", "/projects/{project_id}/branches/{branch_id}", 200, {
        params,
        body: { branch: { name: "preview/pr-9-ready" } }
      })
      expect([renamed.branch.name, renamed.operations]).toEqual(["preview/pr-9-ready", []])

      // Suspend, then start the compute endpoint, each waited for.
      const endpointRoute = "/projects/{project_id}/endpoints/{endpoint_id}"
      const suspended = await call("POST", `${endpointRoute}/suspend`, 200, { params })
      expect((await poll(idsOf(suspended))).states.map((state) => state.action)).toEqual(["suspend_compute"])
      expect((await call("GET", endpointRoute, 200, { params })).endpoint.current_state).toBe("idle")
      const started = await call("POST", `${endpointRoute}/start`, 200, { params })
      expect((await poll(idsOf(started))).states.map((state) => state.action)).toEqual(["start_compute"])
      expect((await call("GET", endpointRoute, 200, { params })).endpoint.current_state).toBe("active")

      // Delete, wait for the deletion, and the branch is gone.
      const deleted = await call("DELETE", "/projects/{project_id}/branches/{branch_id}", 200, { params })
      const deletion = await poll(idsOf(deleted))
      expect(deletion.states.map((state) => [state.action, state.status])).toEqual([
        ["suspend_compute", "finished"],
        ["delete_timeline", "finished"]
      ])
      await call("GET", "/projects/{project_id}/branches/{branch_id}", 404, { params })
      await call("GET", "/projects/{project_id}/connection_uri", 404, {
        query: `?database_name=neondb&role_name=neondb_owner&branch_id=${branch}`
      })
    })
  })

  it("validates with the same code as the testing package's published-reference test", () => {
    const code = (url: URL) => readFileSync(url, "utf8")
    expect(code(new URL("./publishedReference.ts", import.meta.url))).toBe(
      code(new URL("../../testing/test/publishedReference.ts", import.meta.url))
    )
  })
})
