/**
 * The fake does with every field the published document declares what the platform does, where
 * it has the notion (docs/design.md §1.4), through the client over the fake on the `TestClock`:
 * a compute endpoint's name, pooler fields, settings, provisioner, `disabled`,
 * `passwordless_access` and `region_id`; a branch's annotation; `hard_delete` and
 * `include_deleted`; an expiry kept to the second and never on a protected branch; `no_login`;
 * a project's `store_passwords`, provisioner, default endpoint settings and branch annotations; a
 * snapshot's `expires_at` on update and the deprecated restore query `name`. A name the document
 * does not know stays a 400 naming it.
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Branches, ComputeEndpoints, Operations, Projects, Roles, Snapshots } from "@dbplatform/client"
import { BranchId, ProjectId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import { projectId, read, send } from "./helpers.js"

const main = "br-main-100001"

/** A project with its default branch `main` and nothing else; the client does not retry, so each error is seen once. */
const provideFake = Effect.provide(
  DbPlatformTest.layer({
    seed: {
      projects: [{ id: projectId }],
      branches: [{ project_id: projectId, id: main, name: "main", default: true }]
    },
    client: { retrySchedule: Schedule.stop }
  })
)

const project = { project_id: ProjectId.make(projectId) }
const mainId = BranchId.make(main)

/** Waits for the operations of `answer` to end, moving the `TestClock` a poll (5 s) at a time. */
const awaitAll = (answer: Operations.Awaitable) =>
  Effect.gen(function* () {
    const waiting = yield* Effect.fork(Effect.flatMap(Operations.Operations, (service) => service.awaitAll(answer)))
    for (let poll = 0; poll < 4; poll++) yield* TestClock.adjust("5 seconds")
    const { failed } = yield* Fiber.join(waiting)
    expect(failed).toEqual([])
  })

/** `DateTime` `ms` from the `TestClock`'s now. */
const fromNow = (ms: number) => Effect.map(DateTime.now, (now) => DateTime.add(now, { millis: ms }))

/** Sends `request` raw to the fake with its bootstrap key: its status and JSON body. */
const raw = (request: HttpClientRequest.HttpClientRequest) =>
  Effect.flatMap(FakePlatform.FakePlatform, (fake) =>
    Effect.flatMap(send(fake, request, { key: fake.bootstrapKey }), read)
  )

describe("every documented field over the fake", () => {
  it.effect("a compute endpoint keeps its name, pooler fields, settings and provisioner; disabled refuses starts", () =>
    Effect.gen(function* () {
      const endpoints = yield* ComputeEndpoints.ComputeEndpoints
      const branches = yield* Branches.Branches

      // Only the project's region is permitted.
      const elsewhere = yield* Effect.flip(
        endpoints.create({
          ...project,
          endpoint: { branch_id: mainId, type: "read_write", region_id: "aws-eu-central-1" }
        })
      )
      expect(elsewhere._tag).toBe("BadRequest")
      expect(elsewhere.message).toContain("only the project's region (aws-us-east-2)")

      const created = yield* endpoints.create({
        ...project,
        endpoint: {
          branch_id: mainId,
          type: "read_write",
          region_id: "aws-us-east-2",
          name: "reports",
          pooler_enabled: true,
          pooler_mode: "transaction",
          suspend_timeout_seconds: 300,
          provisioner: "k8s-pod",
          passwordless_access: false,
          settings: { pg_settings: { work_mem: "64MB" } }
        }
      })
      yield* awaitAll(created)
      const kept = { ...project, endpoint_id: created.endpoint.id }
      const read1 = yield* endpoints.get(kept)
      expect(read1.endpoint).toMatchObject({
        name: "reports",
        pooler_enabled: true,
        pooler_mode: "transaction",
        suspend_timeout_seconds: 300,
        provisioner: "k8s-pod",
        passwordless_access: false,
        disabled: false,
        region_id: "aws-us-east-2",
        current_state: "active"
      })
      expect(read1.endpoint.settings.pg_settings).toEqual({ work_mem: "64MB" })

      // Disabling a running compute endpoint suspends it; it cannot be started until enabled again.
      const disabled = yield* endpoints.update({
        ...kept,
        endpoint: { name: "reports-v2", disabled: true, settings: { pgbouncer_settings: { pool_mode: "session" } } }
      })
      expect(disabled.operations.map((operation) => operation.action)).toEqual(["apply_config", "suspend_compute"])
      yield* awaitAll(disabled)
      const read2 = yield* endpoints.get(kept)
      expect(read2.endpoint).toMatchObject({ name: "reports-v2", disabled: true, current_state: "idle" })
      // Settings are replaced field by field: pg_settings stays.
      expect(read2.endpoint.settings.pg_settings).toEqual({ work_mem: "64MB" })
      expect(read2.endpoint.settings.pgbouncer_settings).toEqual({ pool_mode: "session" })
      const start = yield* Effect.flip(endpoints.start(kept))
      expect(start._tag).toBe("BadRequest")
      expect(start.message).toContain("disabled")
      const enabled = yield* endpoints.update({ ...kept, endpoint: { disabled: false } })
      yield* awaitAll(enabled)
      const started = yield* endpoints.start(kept)
      expect(started.operations.map((operation) => operation.action)).toEqual(["start_compute"])
      yield* awaitAll(started)

      // The deprecated branch_id moves it to another branch of the project.
      const other = yield* branches.create({ ...project, branch: { name: "other" } })
      yield* awaitAll(other)
      const moved = yield* endpoints.update({ ...kept, endpoint: { branch_id: other.branch.id } })
      expect(moved.endpoint.branch_id).toBe(other.branch.id)
      yield* awaitAll(moved)
      const listed = yield* branches.listEndpointsPage({ ...project, branch_id: other.branch.id })
      expect(listed.endpoints.map((endpoint) => endpoint.id)).toEqual([created.endpoint.id])
    }).pipe(provideFake)
  )

  it.effect("a branch keeps its annotation: answered by a read and, by id, by a list", () =>
    Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const created = yield* branches.create({
        ...project,
        branch: { name: "annotated" },
        annotation_value: { "ci/run": "42", "vercel-commit-ref": "main" }
      })
      yield* awaitAll(created)
      const read1 = yield* branches.get({ ...project, branch_id: created.branch.id })
      expect(read1.annotation.object).toEqual({ type: "console/branch", id: created.branch.id })
      expect(read1.annotation.value).toEqual({ "ci/run": "42", "vercel-commit-ref": "main" })
      const page = yield* branches.listPage(project)
      expect(Object.keys(page.annotations)).toEqual([created.branch.id])
      expect(page.annotations[created.branch.id]!.value).toEqual({ "ci/run": "42", "vercel-commit-ref": "main" })
    }).pipe(provideFake)
  )

  it.effect(
    "a deleted branch is kept 7 days, listed with include_deleted, unless hard_delete; an expired one too",
    () =>
      Effect.gen(function* () {
        const branches = yield* Branches.Branches
        const soft = yield* branches.create({ ...project, branch: { name: "soft" } })
        yield* awaitAll(soft)
        const hard = yield* branches.create({ ...project, branch: { name: "hard" } })
        yield* awaitAll(hard)
        const expiring = yield* branches.create({
          ...project,
          branch: { name: "expiring", expires_at: yield* fromNow(60_000) }
        })
        yield* awaitAll(expiring)
        const deletedSoft = yield* branches.delete({ ...project, branch_id: soft.branch.id })
        yield* awaitAll(deletedSoft)
        const deletedHard = yield* branches.delete({ ...project, branch_id: hard.branch.id, hard_delete: true })
        yield* awaitAll(deletedHard)
        // The expiry sweep (every 10 minutes) deletes the expiring one.
        yield* TestClock.adjust("10 minutes")

        const live = yield* branches.listPage(project)
        expect(live.branches.map((branch) => branch.name)).toEqual(["main"])
        const all = yield* branches.listPage({ ...project, include_deleted: true })
        const recovery = Object.fromEntries(
          all.branches.map((branch) => [branch.name, branch.recovery?.deletion_method ?? "live"])
        )
        expect(recovery).toEqual({ main: "live", soft: "user", expiring: "ttl" })
        const kept = all.branches.find((branch) => branch.name === "soft")!.recovery!
        expect(DateTime.distance(kept.deleted_at, kept.recoverable_until)).toBe(7 * 86_400_000)
        // A deleted branch is not a branch: its reads are 404, and its name is free again.
        const gone = yield* Effect.flip(branches.get({ ...project, branch_id: soft.branch.id }))
        expect(gone._tag).toBe("NotFound")

        // Past its recovery window, it is no longer listed.
        yield* TestClock.adjust("7 days")
        const later = yield* branches.listPage({ ...project, include_deleted: true })
        expect(later.branches.map((branch) => branch.name)).toEqual(["main"])
      }).pipe(provideFake)
  )

  it.effect("an expiry is kept to the second; a protected branch cannot expire", () =>
    Effect.gen(function* () {
      const branches = yield* Branches.Branches
      // Fractional seconds, as `Date.prototype.toISOString` gives them: taken, kept to the second.
      const at = yield* fromNow(86_400_000 + 123)
      const created = yield* branches.create({ ...project, branch: { name: "preview", expires_at: at } })
      expect(DateTime.toEpochMillis(created.branch.expires_at!)).toBe(
        Math.floor(DateTime.toEpochMillis(at) / 1000) * 1000
      )
      expect(created.branch.ttl_interval_seconds).toBe(86_400)
      yield* awaitAll(created)
      const preview = { ...project, branch_id: created.branch.id }

      const both = yield* Effect.flip(
        branches.create({ ...project, branch: { name: "both", protected: true, expires_at: at } })
      )
      expect(both._tag).toBe("BadRequest")
      expect(both.message).toContain("a protected branch cannot expire")
      const protect = yield* Effect.flip(branches.update({ ...preview, branch: { protected: true } }))
      expect(protect._tag).toBe("BadRequest")
      expect(protect.message).toContain("clear its expires_at")
      // Clearing the expiry in the same update protects it.
      const made = yield* branches.update({ ...preview, branch: { protected: true, expires_at: null } })
      expect(made.branch.protected).toBe(true)
      expect(made.branch.expires_at).toBeUndefined()
      const expire = yield* Effect.flip(branches.update({ ...preview, branch: { expires_at: at } }))
      expect(expire._tag).toBe("BadRequest")
      expect(expire.message).toContain("unprotect it")
      const unprotected = yield* branches.update({ ...preview, branch: { protected: false, expires_at: at } })
      expect(unprotected.branch.protected).toBe(false)
      expect(unprotected.branch.expires_at).toBeDefined()
    }).pipe(provideFake)
  )

  it.effect(
    "a restore from a branch's own history takes source_lsn, needs preserve_under_name, and moves the children",
    () =>
      Effect.gen(function* () {
        const branches = yield* Branches.Branches
        const dev = yield* branches.create({ ...project, branch: { name: "dev" } })
        yield* awaitAll(dev)
        yield* TestClock.adjust("1 minute")
        const source_lsn = dev.branch.parent_lsn!
        const self = { ...project, branch_id: mainId, source_branch_id: mainId }

        const noPoint = yield* Effect.flip(branches.restore({ ...self, preserve_under_name: "main-before" }))
        expect(noPoint._tag).toBe("BadRequest")
        expect(noPoint.message).toContain("source_timestamp or source_lsn is required")
        const noName = yield* Effect.flip(branches.restore({ ...self, source_lsn }))
        expect(noName._tag).toBe("BadRequest")
        expect(noName.message).toContain("preserve_under_name is required")
        // After now (FF/0 is some 49 days after the epoch the test clock starts at; an LSN before the
        // project's creation cannot be written here: the fixture's project is older than the epoch).
        const outside = yield* Effect.flip(
          branches.restore({ ...self, source_lsn: "FF/0", preserve_under_name: "main-before" })
        )
        expect(outside._tag).toBe("BadRequest")
        expect(outside.message).toContain("source_lsn is outside the project's history window")
        // Refused: nothing preserved.
        const before = yield* branches.listPage(project)
        expect(before.branches.map((branch) => branch.name)).not.toContain("main-before")

        const restored = yield* branches.restore({ ...self, source_lsn, preserve_under_name: "main-before" })
        yield* awaitAll(restored)
        const page = yield* branches.listPage(project)
        const preserved = page.branches.find((branch) => branch.name === "main-before")!
        expect(page.branches.find((branch) => branch.name === "dev")!.parent_id).toBe(preserved.id)
        // The restored branch is a child of the preserved one, from the point restored.
        expect(restored.branch).toMatchObject({ parent_id: preserved.id, parent_lsn: source_lsn })
        expect(restored.branch.last_reset_at).toBeDefined()
      }).pipe(provideFake)
  )

  it.effect("a role created with no_login has no password to answer, reveal or reset", () =>
    Effect.gen(function* () {
      const roles = yield* Roles.Roles
      const branch = { ...project, branch_id: mainId }
      const auditor = yield* roles.create({ ...branch, role: { name: "auditor", no_login: true } })
      expect(auditor.role.password).toBeUndefined()
      expect(auditor.role.authentication_method).toBe("no_login")
      yield* awaitAll(auditor)
      const reveal = yield* Effect.flip(roles.revealPassword({ ...branch, role_name: "auditor" }))
      expect(reveal._tag).toBe("BadRequest")
      expect(reveal.message).toContain("no_login")
      const app = yield* roles.create({ ...branch, role: { name: "app" } })
      expect(app.role.authentication_method).toBe("password")
      expect(Redacted.value(app.role.password!)).toHaveLength(16)
    }).pipe(provideFake)
  )

  it.effect(
    "a project keeps store_passwords, its provisioner, its endpoints' default settings and its branch's annotation",
    () =>
      Effect.gen(function* () {
        const projects = yield* Projects.Projects
        const roles = yield* Roles.Roles
        const created = yield* projects.create({
          project: {
            name: "no passwords",
            store_passwords: false,
            provisioner: "k8s-pod",
            autoscaling_limit_max_cu: 2,
            default_endpoint_settings: {
              pg_settings: { work_mem: "8MB" },
              pgbouncer_settings: { pool_mode: "transaction" }
            },
            branch: { database_name: "shop", annotations: { team: "billing" } }
          }
        })
        expect(created.project).toMatchObject({ store_passwords: false, provisioner: "k8s-pod" })
        expect(created.project.default_endpoint_settings).toMatchObject({
          autoscaling_limit_max_cu: 2,
          pg_settings: { work_mem: "8MB" },
          pgbouncer_settings: { pool_mode: "transaction" }
        })
        const [endpoint] = created.endpoints
        expect(endpoint!.provisioner).toBe("k8s-pod")
        expect(endpoint!.autoscaling_limit_max_cu).toBe(2)
        expect(endpoint!.settings.pg_settings).toEqual({ work_mem: "8MB" })
        // The role a project is created with: `{database_name}_owner`, its password shown this once.
        expect(created.roles.map((role) => role.name)).toEqual(["shop_owner"])
        yield* awaitAll(created)
        const branches = yield* Branches.Branches
        const read1 = yield* branches.get({ project_id: created.project.id, branch_id: created.branch.id })
        expect(read1.annotation.value).toEqual({ team: "billing" })
        // The platform keeps no password to reveal (the document's 412).
        const reveal = yield* Effect.flip(
          roles.revealPassword({
            project_id: created.project.id,
            branch_id: created.branch.id,
            role_name: "shop_owner"
          })
        )
        expect(reveal).toMatchObject({ _tag: "UnexpectedStatus", status: 412 })
      }).pipe(provideFake)
  )

  it.effect("a snapshot's expiry is set and cleared by an update; a restore takes the deprecated query name", () =>
    Effect.gen(function* () {
      const snapshots = yield* Snapshots.Snapshots
      const taken = yield* snapshots.create({ ...project, branch_id: mainId, name: "nightly" })
      yield* awaitAll(taken)
      const snapshot = { ...project, snapshot_id: taken.snapshot.id }
      const at = yield* fromNow(3 * 86_400_000 + 500)
      const set = yield* snapshots.update({ ...snapshot, snapshot: { expires_at: at } })
      expect(set.snapshot.expires_at).toEqual(at)
      const past = yield* Effect.flip(
        snapshots.update({ ...snapshot, snapshot: { expires_at: yield* fromNow(-1000) } })
      )
      expect(past._tag).toBe("BadRequest")
      const cleared = yield* snapshots.update({ ...snapshot, snapshot: { expires_at: null } })
      expect(cleared.snapshot.expires_at).toBeUndefined()
      expect(cleared.snapshot.name).toBe("nightly")

      // Sent raw: the client has no deprecated query (the body's `name` takes its place).
      const restored = yield* raw(
        HttpClientRequest.post(`/projects/${projectId}/snapshots/${taken.snapshot.id}/restore?name=from-query`).pipe(
          HttpClientRequest.bodyUnsafeJson({})
        )
      )
      expect(restored.status).toBe(200)
      expect(restored.body.branch.name).toBe("from-query")
      yield* TestClock.adjust("1 minute")
      // The body's name wins over the query's.
      const both = yield* raw(
        HttpClientRequest.post(`/projects/${projectId}/snapshots/${taken.snapshot.id}/restore?name=ignored`).pipe(
          HttpClientRequest.bodyUnsafeJson({ name: "from-body" })
        )
      )
      expect(both.body.branch.name).toBe("from-body")
      // Any other query parameter stays a 400 naming it.
      const typo = yield* raw(
        HttpClientRequest.post(`/projects/${projectId}/snapshots/${taken.snapshot.id}/restore?nmae=x`).pipe(
          HttpClientRequest.bodyUnsafeJson({})
        )
      )
      expect(typo.status).toBe(400)
      expect(typo.body.message).toContain("nmae")
    }).pipe(provideFake)
  )

  it.effect("a name the document does not know stays a 400 naming it, and changes nothing", () =>
    Effect.gen(function* () {
      const typo = yield* raw(
        HttpClientRequest.post(`/projects/${projectId}/endpoints`).pipe(
          HttpClientRequest.bodyUnsafeJson({ endpoint: { branch_id: main, type: "read_write", nmae: "reports" } })
        )
      )
      expect(typo.status).toBe(400)
      expect(typo.body.message).toContain("endpoint.nmae: is unexpected")
      const endpoints = yield* ComputeEndpoints.ComputeEndpoints
      const listed = yield* endpoints.listPage(project)
      expect(listed.endpoints).toEqual([])
    }).pipe(provideFake)
  )
})
