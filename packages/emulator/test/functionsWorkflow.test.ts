/**
 * Functions (beta) of a branch against the shipped emulator (docs/contract.md §29), its routes
 * driven by plain `fetch` (the deployment as `multipart/form-data`), each answer validated against
 * the published schema of its operation: a function deployed with a ZIP and its environment, its
 * build finished on the emulator's clock (frozen, then moved through the control API), listed,
 * renamed, inherited by a child branch (where a rename is a 404), deleted.
 */
import { describe, expect, it } from "vitest"
import { withWorkflow } from "./workflow.js"

const apiKey = "functions-key"
const token = "functions-control-token"
const project = "functions-workflow"
const main = "br-main-100001"

/** The smallest ZIP archive: an empty one's end record. */
const emptyZip: Uint8Array<ArrayBuffer> = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0)])

/** A deployment's body: the zip (when given), the runtime and the environment as a JSON text part. */
const deployment = (parts: {
  readonly zip?: Uint8Array<ArrayBuffer>
  readonly environment?: Record<string, string>
}) => {
  const data = new FormData()
  if (parts.zip !== undefined) data.append("zip", new Blob([parts.zip], { type: "application/zip" }), "bundle.zip")
  data.append("runtime", "nodejs24")
  if (parts.environment !== undefined) data.append("environment", JSON.stringify(parts.environment))
  return data
}

describe("functions of a branch over the emulator, with fetch alone", () => {
  it("deploys one, sees its build finish on the clock, lists, renames, inherits it on a child, deletes it", async () => {
    const seed = {
      projects: [{ id: project, name: "functions", region_id: "aws-us-east-2" }],
      branches: [{ project_id: project, id: main, name: "main", default: true }],
      roles: [{ branch_id: main, name: "owner" }],
      databases: [{ branch_id: main, name: "neondb", owner_name: "owner" }]
    }
    await withWorkflow({ apiKey, token, project, seed, params: { branch_id: main } }, async ({ control, call }) => {
      await control((c) => c.freeze())
      const functions = "/projects/{project_id}/branches/{branch_id}/functions"
      const fn = `${functions}/{slug}`
      const hello = { params: { slug: "hello" } }

      await call("POST", `${fn}/deployments`, 400, { ...hello, body: deployment({}) })
      const created = await call("POST", `${fn}/deployments`, 201, {
        ...hello,
        body: deployment({ zip: emptyZip, environment: { API_TOKEN: "tok-workflow-secret", MODE: "prod" } })
      })
      expect(created.deployment).toMatchObject({ id: 1, status: "pending", environment: ["API_TOKEN", "MODE"] })
      expect(JSON.stringify(created)).not.toContain("tok-workflow-secret")

      await control((c) => c.advance({ payload: { by: 3_000 } }))
      expect((await call("GET", fn, 200, hello)).function.current_deployment.status).toBe("building")
      await control((c) => c.advance({ payload: { by: 10_000 } }))
      const built = (await call("GET", fn, 200, hello)).function
      expect(built.current_deployment.status).toBe("completed")
      expect(built.active_deployment.id).toBe(1)

      const listed = await call("GET", functions, 200)
      expect(listed.functions.map((f: { slug: string }) => f.slug)).toEqual(["hello"])
      expect((await call("PATCH", fn, 200, { ...hello, body: { name: "Hello API" } })).function.name).toBe("Hello API")

      const child = await call("POST", "/projects/{project_id}/branches", 201, {
        body: { branch: { parent_id: main } }
      })
      const onChild = { params: { slug: "hello", branch_id: child.branch.id } }
      expect((await call("GET", fn, 200, onChild)).function).toMatchObject({ id: built.id, name: "Hello API" })
      await call("PATCH", fn, 404, { ...onChild, body: { name: "renamed" } })

      await call("DELETE", fn, 204, hello)
      await call("GET", fn, 404, hello)
      expect((await call("GET", functions, 200)).functions).toEqual([])
      expect((await call("GET", fn, 200, onChild)).function.slug).toBe("hello")
    })
  }, 60_000)
})
