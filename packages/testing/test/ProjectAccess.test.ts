/**
 * Project access through the client over the fake (docs/contract.md §22): permissions granted and
 * revoked, project settings sent, kept and refused, VPC endpoints of an organization and a
 * project's restrictions to them (their state on `TestClock`), transfers between organizations
 * (the 406 and 422 answers) and transfer requests (expiry on `TestClock`). Each refusal changes
 * nothing.
 */
import { ProjectPermissions, Projects, ProjectTransfers, VpcEndpoints } from "@dbplatform/client"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import { ProjectId } from "@dbplatform/core"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import type { Seed } from "../src/Seed.js"
import { projectId, read, send } from "./helpers.js"

const acme = "org-acme-302709"
const free = "org-free-302709"
const strangers = "org-strangers-302709"
const beta = "org-beta-302709"
const euProject = ProjectId.make("acme-eu-302709")
const vpce = "vpce-0123456789abcdef0"
const region = "aws-us-east-2"

const seed: Seed = {
  organizations: [
    { id: acme, name: "Acme", plan: "scale" },
    { id: free, plan: "free_v3" },
    { id: strangers, plan: "scale", members: [{ email: "dana@example.com", role: "admin" }] },
    { id: beta, plan: "business" },
    // The account's own organization, where a request accepted without org_id moves a project.
    { id: "org-dbplatform-000000", plan: "scale" }
  ],
  projects: [
    { id: projectId, org_id: acme },
    { id: "acme-vercel-302709", org_id: acme, integration: "vercel" },
    { id: euProject, org_id: acme, region_id: "aws-eu-central-1" }
  ]
}

const layer = DbPlatformTest.layer({ seed })

/** The fake's state now, as a snapshot. */
const snapshot = Effect.flatMap(FakePlatform.FakePlatform, (fake) => fake.snapshot)

describe("project permissions (docs/contract.md §22.1)", () => {
  it.effect("grants, lists and revokes; a second grant of the same email answers the first", () =>
    Effect.gen(function* () {
      const permissions = yield* ProjectPermissions.ProjectPermissions
      yield* TestClock.adjust("1 minute")
      const granted = yield* permissions.grant({ project_id: projectId, email: "lee@example.com" })
      expect(granted.granted_to_email).toBe("lee@example.com")
      expect(DateTime.toEpochMillis(granted.granted_at)).toBe(60_000)
      expect(granted.revoked_at).toBeUndefined()
      const again = yield* permissions.grant({ project_id: projectId, email: "LEE@example.com" })
      expect(again.id).toBe(granted.id)
      yield* TestClock.adjust("1 second")
      yield* permissions.grant({ project_id: projectId, email: "kim@example.com" })
      const listed = yield* Stream.runCollect(permissions.list({ project_id: projectId }))
      expect(Chunk.toReadonlyArray(listed).map((p) => p.granted_to_email)).toEqual([
        "lee@example.com",
        "kim@example.com"
      ])
      yield* TestClock.adjust("1 minute")
      const revoked = yield* permissions.revoke({ project_id: projectId, permission_id: granted.id })
      expect(DateTime.toEpochMillis(revoked.revoked_at!)).toBe(121_000)
      const after = yield* permissions.listPage({ project_id: projectId })
      expect(after.project_permissions.map((p) => p.granted_to_email)).toEqual(["kim@example.com"])
      const gone = yield* Effect.flip(permissions.revoke({ project_id: projectId, permission_id: granted.id }))
      expect(gone._tag).toBe("NotFound")
    }).pipe(Effect.provide(layer))
  )

  it.effect("refuses a malformed email before sending, and an unknown project with 404", () =>
    Effect.gen(function* () {
      const permissions = yield* ProjectPermissions.ProjectPermissions
      const malformed = yield* Effect.flip(permissions.grant({ project_id: projectId, email: "not an email" }))
      expect(malformed._tag).toBe("InvalidRequest")
      const unknown = yield* Effect.flip(
        permissions.grant({ project_id: ProjectId.make("no-such-project"), email: "a@example.com" })
      )
      expect(unknown._tag).toBe("NotFound")
      expect((yield* snapshot).permissions).toEqual([])
    }).pipe(Effect.provide(layer))
  )
})

describe("project settings (docs/contract.md §22.2)", () => {
  it.effect("are sent on create, kept, answered, and replaced field by field on update", () =>
    Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const created = yield* projects.create({
        project: {
          name: "locked-down",
          settings: {
            allowed_ips: { ips: ["192.0.2.0/24", "2001:db8::1"], protected_branches_only: true },
            block_public_connections: true,
            audit_log_level: "extended"
          }
        }
      })
      const id = created.project.id
      // Its first operations end: an update meanwhile would be a 423.
      yield* TestClock.adjust("1 minute")
      expect(created.project.settings?.allowed_ips?.ips).toEqual(["192.0.2.0/24", "2001:db8::1"])
      const updated = yield* projects.update({
        project_id: id,
        project: { settings: { allowed_ips: { ips: ["198.51.100.7"] }, enable_logical_replication: true } }
      })
      expect(updated.project.settings?.allowed_ips).toEqual({ ips: ["198.51.100.7"] })
      expect(updated.project.settings?.block_public_connections).toBe(true)
      expect(updated.project.settings?.enable_logical_replication).toBe(true)
      const read = yield* projects.get({ project_id: id })
      expect(read.project.settings).toEqual(updated.project.settings)
      const listed = yield* projects.listPage({ search: "locked-down" })
      expect(listed.projects[0]?.settings?.audit_log_level).toBe("extended")
    }).pipe(Effect.provide(layer))
  )

  it.effect("the fake refuses what the platform refuses, and nothing changes", () =>
    Effect.gen(function* () {
      const projects = yield* Projects.Projects
      yield* projects.update({ project_id: projectId, project: { settings: { enable_logical_replication: true } } })
      const before = yield* snapshot
      const off = yield* Effect.flip(
        projects.update({ project_id: projectId, project: { settings: { enable_logical_replication: false } } })
      )
      expect(off._tag).toBe("BadRequest")
      expect(off.message).toContain("cannot be disabled")
      const level = yield* Effect.flip(
        projects.update({ project_id: projectId, project: { settings: { audit_log_level: "verbose" } } })
      )
      expect(level.message).toContain("audit_log_level")
      const ip = yield* Effect.flip(
        projects.update({ project_id: projectId, project: { settings: { allowed_ips: { ips: ["10.0.0.0/33"] } } } })
      )
      expect(ip._tag).toBe("InvalidRequest")
      expect((yield* snapshot).projects).toEqual(before.projects)
    }).pipe(Effect.provide(layer))
  )
})

describe("VPC endpoints (docs/contract.md §22.3)", () => {
  it.effect("assigned to an organization: new for a minute, then accepted; restricting a project", () =>
    Effect.gen(function* () {
      const vpc = yield* VpcEndpoints.VpcEndpoints
      const at = { org_id: acme, region_id: region, vpc_endpoint_id: vpce }
      yield* vpc.assign({ ...at, label: "prod" })
      expect((yield* vpc.get(at)).state).toBe("new")
      yield* TestClock.adjust("1 minute")
      expect((yield* vpc.get(at)).state).toBe("accepted")
      yield* vpc.setRestriction({ project_id: projectId, vpc_endpoint_id: vpce, label: "prod only" })
      const details = yield* vpc.get(at)
      expect([details.num_restricted_projects, details.example_restricted_projects]).toEqual([1, [projectId]])
      const restrictions = yield* vpc.listRestrictionsPage({ project_id: projectId })
      expect(restrictions.endpoints).toEqual([{ vpc_endpoint_id: vpce, label: "prod only" }])
      const all = yield* vpc.listAllPage({ org_id: acme })
      expect(all.endpoints.map((e) => [e.vpc_endpoint_id, e.region_id])).toEqual([[vpce, region]])
      // A project in another region cannot use it.
      const elsewhere = yield* Effect.flip(
        vpc.setRestriction({ project_id: euProject, vpc_endpoint_id: vpce, label: "x" })
      )
      expect(elsewhere._tag).toBe("BadRequest")
      // Not deleted while a project is restricted to it; then for good.
      expect((yield* Effect.flip(vpc.delete(at)))._tag).toBe("BadRequest")
      yield* vpc.deleteRestriction({ project_id: projectId, vpc_endpoint_id: vpce })
      yield* vpc.delete(at)
      expect((yield* vpc.listPage({ org_id: acme, region_id: region })).endpoints).toEqual([])
      const back = yield* Effect.flip(vpc.assign({ ...at, label: "again" }))
      expect(back.message).toContain("cannot be added back")
    }).pipe(Effect.provide(layer))
  )

  it.effect("refuses Azure regions, malformed ids and organizations the user is not in", () =>
    Effect.gen(function* () {
      const vpc = yield* VpcEndpoints.VpcEndpoints
      const azure = yield* Effect.flip(
        vpc.assign({ org_id: acme, region_id: "azure-eastus2", vpc_endpoint_id: vpce, label: "x" })
      )
      expect(azure.message).toContain("Azure")
      const id = yield* Effect.flip(
        vpc.assign({ org_id: acme, region_id: region, vpc_endpoint_id: "vpc-1", label: "x" })
      )
      expect(id._tag).toBe("BadRequest")
      const stranger = yield* Effect.flip(vpc.listAllPage({ org_id: strangers }))
      expect(stranger._tag).toBe("NotFound")
      expect((yield* snapshot).vpc_endpoints).toEqual([])
    }).pipe(Effect.provide(layer))
  )
})

describe("transfers (docs/contract.md §22.4)", () => {
  it.effect("moves projects between organizations; the project's restrictions go", () =>
    Effect.gen(function* () {
      const transfers = yield* ProjectTransfers.ProjectTransfers
      const vpc = yield* VpcEndpoints.VpcEndpoints
      const projects = yield* Projects.Projects
      yield* vpc.assign({ org_id: acme, region_id: region, vpc_endpoint_id: vpce, label: "prod" })
      yield* vpc.setRestriction({ project_id: projectId, vpc_endpoint_id: vpce, label: "prod" })
      const other = yield* projects.create({ project: { name: "to move", org_id: "org-dbplatform-000000" } })
      // Its first operations end: a transfer meanwhile would be a 423.
      yield* TestClock.adjust("1 minute")
      // Into acme (scale) from the default organization (free): allowed.
      const done = yield* transfers.transfer({
        source_org_id: "org-dbplatform-000000",
        destination_org_id: acme,
        project_ids: [other.project.id]
      })
      expect(done).toEqual({})
      expect((yield* projects.get({ project_id: other.project.id })).project.org_id).toBe(acme)
      // Out of acme (scale) to free: a lower plan, 406 (NotAcceptable, as the document documents it).
      const lower = yield* Effect.flip(
        transfers.transfer({ source_org_id: acme, destination_org_id: free, project_ids: [projectId] })
      )
      expect([lower._tag, "status" in lower ? lower.status : undefined]).toEqual(["NotAcceptable", 406])
      expect(lower.message).toContain("subscription_type")
      const strangersToo = yield* Effect.flip(
        transfers.transfer({ source_org_id: acme, destination_org_id: strangers, project_ids: [projectId] })
      )
      expect(strangersToo._tag).toBe("NotFound")
      const integrated = yield* Effect.flip(
        transfers.transfer({ source_org_id: acme, destination_org_id: acme, project_ids: ["acme-vercel-302709"] })
      )
      expect(integrated._tag).toBe("BadRequest")
      // Between two organizations on the same plan it moves, without its VPC restriction.
      const fake = yield* FakePlatform.FakePlatform
      const state = yield* fake.snapshot
      yield* fake.restore({
        ...state,
        organizations: state.organizations.map((org) => (org.id === free ? { ...org, plan: "scale" } : org))
      })
      yield* transfers.transfer({ source_org_id: acme, destination_org_id: free, project_ids: [projectId] })
      expect((yield* projects.get({ project_id: projectId })).project.org_id).toBe(free)
      expect((yield* vpc.listRestrictionsPage({ project_id: projectId })).endpoints).toEqual([])
    }).pipe(Effect.provide(layer))
  )

  it.effect("plans compare by family whatever their version; direct_sales is the document's Enterprise", () =>
    Effect.gen(function* () {
      const transfers = yield* ProjectTransfers.ProjectTransfers
      const move = (source_org_id: string, destination_org_id: string, id: string) =>
        transfers.transfer({ source_org_id, destination_org_id, project_ids: [id] })
      // Out of Enterprise to Scale: a lower plan, 406 naming it.
      const lower = yield* Effect.flip(move("org-enterprise-100001", "org-scale-100002", "enterprise-one-100001"))
      expect([lower._tag, lower.message]).toEqual(["NotAcceptable", expect.stringContaining("subscription_type")])
      // Legacy Scale to today's Scale: the same family, it moves; and today's Launch to Scale.
      expect(yield* move("org-legacy-100003", "org-scale-100002", "legacy-two-100002")).toEqual({})
      expect(yield* move("org-launch-100004", "org-scale-100002", "launch-three-100003")).toEqual({})
    }).pipe(
      Effect.provide(
        DbPlatformTest.layer({
          seed: {
            organizations: [
              { id: "org-enterprise-100001", plan: "direct_sales_v3" },
              { id: "org-scale-100002", plan: "scale_v3" },
              { id: "org-legacy-100003", plan: "scale" },
              { id: "org-launch-100004", plan: "launch_v3" }
            ],
            projects: [
              { id: "enterprise-one-100001", org_id: "org-enterprise-100001" },
              { id: "legacy-two-100002", org_id: "org-legacy-100003" },
              { id: "launch-three-100003", org_id: "org-launch-100004" }
            ]
          }
        })
      )
    )
  )

  it.effect("the 422 names the projects with an integration; the 406 the destination's project count", () =>
    Effect.gen(function* () {
      const crowded: Seed = {
        organizations: [{ id: free, plan: "free_v3" }],
        projects: [
          { id: projectId, integration: "github" },
          { id: "plain-leaf-302709" },
          ...Array.from({ length: 100 }, (_, i) => ({ id: `full-${i}`, org_id: free }))
        ]
      }
      const fake = yield* FakePlatform.make(crowded)
      const before = yield* fake.snapshot
      const transfer = (project_ids: ReadonlyArray<string>) =>
        send(
          fake,
          HttpClientRequest.post("/organizations/org-dbplatform-000000/projects/transfer").pipe(
            HttpClientRequest.bodyUnsafeJson({ destination_org_id: free, project_ids })
          ),
          { key: fake.bootstrapKey }
        ).pipe(Effect.flatMap(read))
      const integrated = yield* transfer([projectId, "plain-leaf-302709"])
      expect(integrated.status).toBe(422)
      expect(integrated.body.projects).toEqual([{ id: projectId, integration: "github" }])
      const full = yield* transfer(["plain-leaf-302709"])
      expect(full.status).toBe(406)
      expect(full.body.limits).toEqual([{ name: "projects_count", expected: "100", actual: "101" }])
      expect((yield* fake.snapshot).projects).toEqual(before.projects)
    })
  )

  it.effect("a transfer request is accepted once, before it expires on the Clock", () =>
    Effect.gen(function* () {
      const transfers = yield* ProjectTransfers.ProjectTransfers
      const projects = yield* Projects.Projects
      const request = yield* transfers.createRequest({ project_id: projectId, ttl_seconds: 3600 })
      expect(DateTime.toEpochMillis(request.expires_at) - DateTime.toEpochMillis(request.created_at)).toBe(3_600_000)
      const byDefault = yield* transfers.createRequest({ project_id: euProject })
      expect(DateTime.toEpochMillis(byDefault.expires_at)).toBe(86_400_000)
      yield* TestClock.adjust("1 hour")
      const expired = yield* Effect.flip(
        transfers.acceptRequest({ project_id: projectId, request_id: request.id, org_id: acme })
      )
      expect(expired.message).toContain("expired")
      // To an organization on a lower plan: 406 with the reasons.
      const lower = yield* Effect.flip(
        transfers.acceptRequest({ project_id: euProject, request_id: byDefault.id, org_id: free })
      )
      expect([lower._tag, "status" in lower ? lower.status : undefined]).toEqual(["NotAcceptable", 406])
      yield* transfers.acceptRequest({ project_id: euProject, request_id: byDefault.id, org_id: beta })
      expect((yield* projects.get({ project_id: euProject })).project.org_id).toBe(beta)
      const twice = yield* Effect.flip(
        transfers.acceptRequest({ project_id: euProject, request_id: byDefault.id, org_id: beta })
      )
      expect(twice._tag).toBe("NotFound")
      const stranger = yield* transfers.createRequest({ project_id: projectId })
      const refused = yield* Effect.flip(
        transfers.acceptRequest({ project_id: projectId, request_id: stranger.id, org_id: strangers })
      )
      expect(refused._tag).toBe("NotFound")
      // Without org_id: the account's own (default) organization.
      yield* transfers.acceptRequest({ project_id: projectId, request_id: stranger.id })
      expect((yield* projects.get({ project_id: projectId })).project.org_id).toBe("org-dbplatform-000000")
    }).pipe(Effect.provide(layer))
  )
})
