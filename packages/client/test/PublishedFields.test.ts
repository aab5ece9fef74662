/**
 * The fields core declares because the platform's published document declares them
 * (`docs/design.md` §1.4) go on the wire as given, and answers keep them: a compute endpoint's
 * name and pooler settings, a role that cannot log in, a branch's annotation, the branch list's
 * `include_deleted` and the delete's `hard_delete`, a snapshot's new expiry, and what a project
 * read alone says of its owner.
 */
import { describe, expect, it } from "@effect/vitest"
import { Api } from "@dbplatform/core"
import { DateTime, Effect, Layer, Redacted, Schedule } from "effect"
import { Branches, ComputeEndpoints, DbPlatform, Projects, Roles, Snapshots } from "../src/index.js"
import {
  annotationOf,
  baseUrl,
  branchCreated,
  branchId,
  branchItem,
  computeEndpointItem,
  operationItem,
  projectId,
  projectItem,
  secret
} from "./fixtures.js"
import { json, type Scripted, scripted } from "./scripted.js"

const layerFor = (script: Scripted) =>
  Layer.orDie(
    DbPlatform.layer({ baseUrl, apiKey: Redacted.make(secret), retrySchedule: Schedule.stop }).pipe(
      Layer.provide(script.layer)
    )
  )

const bodyOf = (script: Scripted, index: number) => JSON.parse(script.requests[index]?.body ?? "")

describe("fields the published document declares", () => {
  it.effect("a compute endpoint's name, settings and pooler fields are sent as given", () => {
    const created = { endpoint: { ...computeEndpointItem(), name: "api" }, operations: [operationItem(1)] }
    const script = scripted([json(201, created), json(200, created)])
    return Effect.gen(function* () {
      const endpoints = yield* ComputeEndpoints.ComputeEndpoints
      const endpoint = {
        branch_id: branchId,
        type: "read_write",
        name: "api",
        pooler_enabled: true,
        pooler_mode: "transaction",
        suspend_timeout_seconds: 300,
        settings: { pg_settings: { work_mem: "64MB" } },
        provisioner: "k8s-neonvm"
      } as const
      const answer = yield* endpoints.create({ project_id: projectId, endpoint })
      expect(bodyOf(script, 0)).toEqual({ endpoint })
      expect(answer.endpoint.name).toBe("api")
      yield* endpoints.update({
        project_id: projectId,
        endpoint_id: answer.endpoint.id,
        endpoint: { name: "api-2", disabled: false }
      })
      expect(bodyOf(script, 1)).toEqual({ endpoint: { name: "api-2", disabled: false } })
      // A value the document does not allow is refused before sending.
      const refused = yield* Effect.flip(
        endpoints.create({
          project_id: projectId,
          endpoint: { branch_id: branchId, type: "read_only", pooler_mode: "session" as "transaction" }
        })
      )
      expect(refused.message).toContain("endpoint.pooler_mode: must be transaction")
      expect(script.requests).toHaveLength(2)
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("a role created with no_login, a branch with annotation_value, listed with include_deleted", () => {
    const role = { ...branchCreated.roles[0], name: "reader", authentication_method: "no_login" }
    const script = scripted([
      json(201, { role, operations: [] }),
      json(201, branchCreated),
      json(200, { branches: [branchItem()], annotations: { [branchId]: annotationOf() } }),
      json(204, undefined)
    ])
    return Effect.gen(function* () {
      const roles = yield* Roles.Roles
      const created = yield* roles.create({
        project_id: projectId,
        branch_id: branchId,
        role: { name: "reader", no_login: true }
      })
      expect(bodyOf(script, 0)).toEqual({ role: { name: "reader", no_login: true } })
      expect(created.role.authentication_method).toBe("no_login")
      const branches = yield* Branches.Branches
      yield* branches.create({ project_id: projectId, annotation_value: { "ci/run": "1234" } })
      expect(bodyOf(script, 1)).toEqual({ annotation_value: { "ci/run": "1234" } })
      const page = yield* branches.listPage({ project_id: projectId, include_deleted: true })
      expect(new URL(script.requests[2]!.url).searchParams.get("include_deleted")).toBe("true")
      expect(page.annotations[branchId]?.object.id).toBe(branchId)
      yield* branches.delete({ project_id: projectId, branch_id: branchId, hard_delete: true })
      expect(new URL(script.requests[3]!.url).searchParams.get("hard_delete")).toBe("true")
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("a snapshot's expiry, fractional seconds and null; a project's owner kept", () => {
    const snapshot = { id: "snap-1", name: "before", created_at: "2025-06-09T18:02:16Z" }
    const owner = { email: "ada@example.com", name: "Ada", branches_limit: 10, subscription_type: "scale_v3" }
    const script = scripted([
      json(200, { snapshot }),
      json(200, { snapshot }),
      json(200, { project: { ...projectItem(projectId), owner } })
    ])
    return Effect.gen(function* () {
      const snapshots = yield* Snapshots.Snapshots
      const snapshot_id = Api.SnapshotId.make("snap-1")
      const expires_at = DateTime.unsafeMake("2026-11-30T13:17:54.250Z")
      yield* snapshots.update({ project_id: projectId, snapshot_id, snapshot: { expires_at } })
      expect(bodyOf(script, 0)).toEqual({ snapshot: { expires_at: "2026-11-30T13:17:54.250Z" } })
      yield* snapshots.update({ project_id: projectId, snapshot_id, snapshot: { expires_at: null } })
      expect(bodyOf(script, 1)).toEqual({ snapshot: { expires_at: null } })
      const projects = yield* Projects.Projects
      const { project } = yield* projects.get({ project_id: projectId })
      expect(project.owner).toEqual(owner)
    }).pipe(Effect.provide(layerFor(script)))
  })
})
