/**
 * The snapshot workflow (docs/contract.md §19) against the shipped emulator, its platform routes
 * driven only by plain `fetch`, as `previewWorkflow.test.ts` drives the preview-branch workflow: snapshot a branch,
 * change it (a database added), restore the snapshot to a new branch and find the old data
 * there, finalize and see the compute endpoint moved and the names swapped; then a backup
 * schedule's snapshot appears when the clock passes its hour and is gone after its retention.
 * The emulator's clock is frozen and moved by its control API's typed client. Every answer of the platform's
 * routes is validated against the published schema of its operation (`publishedReference.ts`).
 */
import { describe, expect, it } from "vitest"
import { type Json, withWorkflow } from "./workflow.js"

const apiKey = "snapshot-workflow-key"
const token = "snapshot-workflow-control-token"
const project = "snapshot-workflow"
const main = "br-main-100001"
const mainEndpoint = "ep-main-100001"
const hour = 3_600_000

describe("the snapshot workflow over the emulator, its platform routes with fetch alone", () => {
  it("snapshot, change, restore, look, finalize; a scheduled snapshot appears at its hour and expires", async () => {
    const seed = {
      projects: [{ id: project, name: "snapshot workflow", region_id: "aws-us-east-2" }],
      branches: [{ project_id: project, id: main, name: "main", default: true }],
      endpoints: [{ branch_id: main, id: mainEndpoint, type: "read_write", suspend_timeout_seconds: -1 }],
      roles: [{ branch_id: main, name: "app_owner", password: "npg_Sn4pshotFl0w" }],
      databases: [{ branch_id: main, name: "app", owner_name: "app_owner" }]
    }
    await withWorkflow({ apiKey, token, project, seed }, async ({ control, call }) => {
      /** Polls the project's operations until those of `answer` have all ended, the clock moved a second a round. */
      const poll = async (answer: Json) => {
        const ids: Array<string> = answer.operations.map((operation: Json) => operation.id)
        for (let round = 1; round <= 30; round++) {
          const page = await call("GET", "/projects/{project_id}/operations", 200)
          const states = ids.map((id) => page.operations.find((operation: Json) => operation.id === id))
          if (states.every((state) => state !== undefined && !["scheduling", "running"].includes(state.status))) {
            return states.map((state) => `${state.action} ${state.status}`)
          }
          await control((c) => c.advance({ payload: { by: 1000 } }))
        }
        throw new Error(`operations ${ids.join(", ")} still pending after 30 rounds`)
      }
      const databasesOf = async (branch: string) =>
        (
          await call("GET", "/projects/{project_id}/branches/{branch_id}/databases", 200, {
            params: { branch_id: branch }
          })
        ).databases
          .map((database: Json) => database.name)
          .sort()
      const branchOf = async (branch: string) =>
        (await call("GET", "/projects/{project_id}/branches/{branch_id}", 200, { params: { branch_id: branch } }))
          .branch

      await control((c) => c.freeze())
      await control((c) => c.advance({ payload: { by: 1000 } }))

      // Snapshot `main` before a migration.
      const taken = await call("POST", "/projects/{project_id}/branches/{branch_id}/snapshot", 200, {
        params: { branch_id: main },
        query: "?name=before-migration"
      })
      expect(taken.snapshot).toMatchObject({ name: "before-migration", source_branch_id: main, manual: true })
      expect(await poll(taken)).toEqual(["create_timeline finished"])

      // The migration: a database added to `main`.
      const added = await call("POST", "/projects/{project_id}/branches/{branch_id}/databases", 201, {
        params: { branch_id: main },
        body: { database: { name: "orders", owner_name: "app_owner" } }
      })
      await poll(added)
      expect(await databasesOf(main)).toEqual(["app", "orders"])

      // Restore the snapshot to a new branch, and look: the database added later is not there.
      const restored = await call("POST", "/projects/{project_id}/snapshots/{snapshot_id}/restore", 200, {
        params: { snapshot_id: taken.snapshot.id },
        body: { name: "main-before-migration" }
      })
      expect(restored.branch).toMatchObject({
        name: "main-before-migration",
        restore_status: "restored",
        restored_from: taken.snapshot.id,
        restored_as: main
      })
      expect(await poll(restored)).toEqual(["create_branch finished"])
      const restoredId: string = restored.branch.id
      expect(await databasesOf(restoredId)).toEqual(["app"])

      // Finalize: the compute endpoint moves (restarted), the restored branch takes `main`'s
      // name and default flag, and `main` is renamed as asked.
      const finalized = await call("POST", "/projects/{project_id}/branches/{branch_id}/finalize_restore", 200, {
        params: { branch_id: restoredId },
        body: { name: "main-after-migration" }
      })
      expect(await poll(finalized)).toEqual(["suspend_compute finished", "start_compute finished"])
      expect(await branchOf(restoredId)).toMatchObject({ name: "main", default: true, restore_status: "finalized" })
      expect(await branchOf(main)).toMatchObject({ name: "main-after-migration", default: false })
      const endpoints = await call("GET", "/projects/{project_id}/branches/{branch_id}/endpoints", 200, {
        params: { branch_id: restoredId }
      })
      expect(endpoints.endpoints.map((endpoint: Json) => [endpoint.id, endpoint.current_state])).toEqual([
        [mainEndpoint, "active"]
      ])
      expect(
        (
          await call("GET", "/projects/{project_id}/branches/{branch_id}/endpoints", 200, {
            params: { branch_id: main }
          })
        ).endpoints
      ).toEqual([])
      await call("POST", "/projects/{project_id}/branches/{branch_id}/finalize_restore", 400, {
        params: { branch_id: restoredId }
      })

      // A backup schedule on the restored branch, daily at the next whole hour, kept an hour.
      const now = (await control((c) => c.clock())).now_ms
      const nextHour = (Math.floor(now / hour) + 1) * hour
      const schedule = [{ frequency: "daily", hour: new Date(nextHour).getUTCHours(), retention_seconds: 3600 }]
      await call("PUT", "/projects/{project_id}/branches/{branch_id}/backup_schedule", 200, {
        params: { branch_id: restoredId },
        body: { schedule }
      })
      expect(
        (
          await call("GET", "/projects/{project_id}/branches/{branch_id}/backup_schedule", 200, {
            params: { branch_id: restoredId }
          })
        ).schedule
      ).toEqual(schedule)
      const scheduled = async () =>
        (await call("GET", "/projects/{project_id}/snapshots", 200)).snapshots.filter(
          (snapshot: Json) => snapshot.manual === false
        )
      await control((c) => c.advance({ payload: { by: nextHour - now - 1000 } }))
      expect(await scheduled()).toEqual([])
      await control((c) => c.advance({ payload: { by: 2000 } }))
      const [taken_] = await scheduled()
      expect(taken_).toMatchObject({ source_branch_id: restoredId, manual: false })
      expect(Date.parse(taken_.created_at)).toBe(nextHour)
      expect(Date.parse(taken_.expires_at)).toBe(nextHour + hour)
      await control((c) => c.advance({ payload: { by: hour } }))
      expect(await scheduled()).toEqual([])
      // The manual snapshot stays.
      expect((await call("GET", "/projects/{project_id}/snapshots", 200)).snapshots.map((s: Json) => s.id)).toEqual([
        taken.snapshot.id
      ])
    })
  })
})
