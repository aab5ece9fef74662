/**
 * A migration review (docs/contract.md §24) against the shipped emulator, its platform routes
 * with plain `fetch` alone, as a CI job in any language would: a seed gives `main`'s database a
 * schema as SQL, a preview branch is created from it, the control API (its typed client) runs a
 * migration on the preview, and the
 * platform's routes answer the diff against the parent (exactly the change), the schema as JSON,
 * and, at a time before the migration, the old schema. Every answer of the platform's routes is
 * validated against the published schema of its operation (`publishedReference.ts`).
 */
import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import { withWorkflow } from "./workflow.js"

const apiKey = "schema-workflow-key"
const token = "schema-workflow-control-token"
const project = "schema-workflow"
const main = "br-main-100001"

describe("a migration review over the emulator, its platform routes with fetch alone", () => {
  it("seeds a schema, branches, migrates the preview, reads the diff, the JSON and the past", async () => {
    const seed = {
      projects: [{ id: project }],
      branches: [{ project_id: project, id: main, name: "main", default: true }],
      roles: [{ branch_id: main, name: "app_owner" }],
      databases: [
        {
          branch_id: main,
          name: "app",
          owner_name: "app_owner",
          schema: "CREATE TABLE accounts (id bigint PRIMARY KEY, email text NOT NULL)"
        }
      ]
    }
    await withWorkflow({ apiKey, token, project, seed }, async (workflow) => {
      const control = workflow.control
      /** `method route` (a published route, `{project_id}` and `{branch_id}` filled), validated. */
      const call = (method: string, route: string, status: number, branch: string, query = "", body?: unknown) =>
        workflow.call(method, route, status, { params: { branch_id: branch }, query, body })
      const schema = "/projects/{project_id}/branches/{branch_id}/schema"
      const compare = "/projects/{project_id}/branches/{branch_id}/compare_schema"

      await control((c) => c.freeze())
      const created = await call("POST", "/projects/{project_id}/branches", 201, main, "", {
        branch: { name: "preview/pr-7" }
      })
      const preview: string = created.branch.id
      const seeded: string = (await call("GET", schema, 200, main, "?db_name=app")).sql
      expect(seeded).toContain("CREATE TABLE public.accounts (\n    id bigint NOT NULL,\n    email text NOT NULL\n);")
      expect(await call("GET", compare, 200, preview, "?db_name=app")).toEqual({ diff: "" })

      const before = (await control((c) => c.clock())).now
      await control((c) => c.advance({ payload: { by: 60_000 } }))
      const database = { project_id: project, branch_id: preview, database_name: "app" }
      const migrated = await control((c) =>
        c.migrate({ path: database, payload: { sql: "ALTER TABLE accounts ADD COLUMN display_name text;" } })
      )
      expect(migrated.lsn).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/)
      const refused = await control((c) =>
        Effect.flip(c.migrate({ path: database, payload: { sql: "CREATE TABLE accounts (id int)" } }))
      )
      expect(refused).toMatchObject({
        _tag: "ControlError",
        status: 400,
        message: 'migration refused: relation "accounts" already exists'
      })
      const unknown = await control((c) =>
        Effect.flip(c.migrate({ path: { ...database, database_name: "nope" }, payload: { sql: "" } }))
      )
      expect(unknown).toMatchObject({ _tag: "ControlError", status: 404 })

      // The diff against the parent: exactly the column added.
      const { diff } = await call("GET", compare, 200, preview, "?db_name=app")
      const changed = (diff as string).split("\n").filter((line) => /^[-+][^-+]/.test(line))
      expect(changed).toEqual(["-    email text NOT NULL", "+    email text NOT NULL,", "+    display_name text"])
      // As JSON, at the head; and as it was before the migration, by time and by LSN.
      const json = await call("GET", schema, 200, preview, "?db_name=app&format=json")
      expect(json.json.tables[0].columns.map((column: any) => column.name)).toEqual(["id", "email", "display_name"])
      expect((await call("GET", schema, 200, preview, `?db_name=app&timestamp=${before}`)).sql).toBe(seeded)
      expect(await call("GET", compare, 200, preview, `?db_name=app&timestamp=${before}`)).toEqual({ diff: "" })
      // The parent is unchanged; a point given both ways is a 400.
      expect((await call("GET", schema, 200, main, "?db_name=app")).sql).toBe(seeded)
      await call("GET", schema, 400, preview, `?db_name=app&timestamp=${before}&lsn=${migrated.lsn}`)
    })
  })
})
