/**
 * The branch routes as a user meets them: random sequences of requests to the fake's HTTP app
 * (creates with and without compute endpoints, from random parents, renames, protections,
 * deletes, set as default, restores; since 0.5.0 expiries set and cleared, schema-only
 * branches, projects deleted and recovered: docs/contract.md §18) over two or three projects,
 * with the `TestClock` moved between them so that operations end, locks lift and, over the
 * longer waits, the control plane deletes expired branches. After each request: the fake's invariants
 * hold, in its state and through the public API; the answer's status is one its endpoint
 * declares and the one a model of the rules expects; a refused request changed nothing; a 423
 * comes exactly when the project had a pending operation. At the end, the journal replayed on
 * the first snapshot gives the last.
 *
 * `Kinds.test.ts` checks the same invariants over the state's own steps; this one goes through
 * the routes.
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Api, type Endpoint } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as TestClock from "effect/TestClock"
import fc from "fast-check"
import type * as Seed from "../src/Seed.js"
import * as Snapshot from "../src/Snapshot.js"
import { send } from "./helpers.js"
import { declares, exchange, getOk, journaled, withoutLastUse } from "./randomRequests.js"
import { load } from "../src/internal/kinds.js"

const projectIds = ["spring-example-302709", "autumn-lake-302710", "winter-hill-302711"] as const

/**
 * Each project: `main` (its default, with a read_write compute endpoint), `dev`, a child of it,
 * and `feature`, of `dev`, with a read_only compute endpoint.
 */
const seedOf = (projects: number): Seed.Seed => {
  const ids = projectIds.slice(0, projects)
  return {
    projects: ids.map((id) => ({ id })),
    branches: ids.flatMap((project, i) => [
      { project_id: project, id: `br-main-30000${i}`, name: "main", default: true },
      { project_id: project, id: `br-dev-30000${i}`, name: "dev", parent_id: `br-main-30000${i}` },
      { project_id: project, id: `br-feature-30000${i}`, name: "feature", parent_id: `br-dev-30000${i}` }
    ]),
    endpoints: ids.flatMap((_, i) => [
      { branch_id: `br-main-30000${i}`, type: "read_write" as const },
      { branch_id: `br-feature-30000${i}`, type: "read_only" as const }
    ])
  }
}

/**
 * Which branch a step acts on: one of the project's (`pick` chooses among those of that sort),
 * one it had and deleted, one no project has, or one of another project.
 */
type Target = "any" | "leaf" | "default" | "parent" | "gone" | "unknown" | "elsewhere"

/** A name to give: a fresh one from a small pool (so they collide), one a branch has, or none. */
type Name = { readonly fresh: string } | { readonly taken: true } | undefined

type Step =
  | {
      readonly _tag: "Create"
      readonly project: number
      readonly parent: Target | "none"
      readonly pick: number
      readonly name: Name
      readonly protected: boolean | undefined
      readonly endpoints: ReadonlyArray<"read_write" | "read_only">
      /** Seconds from now to its `expires_at` (none: it does not expire; not after now: a 400). */
      readonly expiresIn: number | undefined
      readonly schemaOnly: boolean
    }
  | {
      readonly _tag: "Expire"
      readonly project: number
      readonly target: Target
      readonly pick: number
      /** Seconds from now to the new `expires_at`, or `null` to clear it. */
      readonly expiresIn: number | null
    }
  | { readonly _tag: "DeleteProject"; readonly project: number }
  | { readonly _tag: "Recover"; readonly project: number }
  | {
      readonly _tag: "Rename"
      readonly project: number
      readonly target: Target
      readonly pick: number
      readonly name: Exclude<Name, undefined>
    }
  | {
      readonly _tag: "Protect"
      readonly project: number
      readonly target: Target
      readonly pick: number
      readonly protected: boolean
    }
  | { readonly _tag: "Delete"; readonly project: number; readonly target: Target; readonly pick: number }
  | { readonly _tag: "SetDefault"; readonly project: number; readonly target: Target; readonly pick: number }
  | {
      readonly _tag: "Restore"
      readonly project: number
      readonly target: Target
      readonly pick: number
      readonly source: Target
      readonly sourcePick: number
      readonly preserve: Name
      /** Whether it names a point of the source's history (now, as `source_timestamp`): required to restore a branch from itself. */
      readonly point: boolean
    }
  | { readonly _tag: "Wait"; readonly seconds: number }

const target = fc.constantFrom<Target>("any", "any", "leaf", "default", "parent", "gone", "unknown", "elsewhere")
const fresh = fc.record({
  fresh: fc.constantFrom("dev", "main", "feature", "preview", "staging", "hotfix", "review", "load-test", "nightly")
})
const taken = fc.constant({ taken: true as const })
const name: fc.Arbitrary<Exclude<Name, undefined>> = fc.oneof(
  { weight: 3, arbitrary: fresh },
  { weight: 1, arbitrary: taken }
)
/** A name or none (a generated one). */
const maybeName: fc.Arbitrary<Name> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fresh },
  { weight: 1, arbitrary: taken }
)
const project = fc.nat(2)
const pick = fc.nat(20)
/** Expiries around the 10-minute sweep: past (refused), before, across and after a sweep or two. */
const expiresIn = fc.constantFrom(-5, 60, 300, 700, 1500, 3600)

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      _tag: fc.constant("Create" as const),
      project,
      parent: fc.constantFrom<Target | "none">("none", "none", "any", "any", "leaf", "gone", "unknown", "elsewhere"),
      pick,
      name: maybeName,
      protected: fc.option(fc.boolean(), { nil: undefined }),
      endpoints: fc.constantFrom<ReadonlyArray<"read_write" | "read_only">>(
        [],
        [],
        ["read_write"],
        ["read_write"],
        ["read_only"],
        ["read_write", "read_only"],
        ["read_write", "read_write"]
      ),
      expiresIn: fc.option(expiresIn, { nil: undefined, freq: 2 }),
      schemaOnly: fc.constantFrom(false, false, false, true)
    })
  },
  {
    weight: 2,
    arbitrary: fc.record({
      _tag: fc.constant("Expire" as const),
      project,
      target,
      pick,
      expiresIn: fc.option(expiresIn, { nil: null, freq: 3 })
    })
  },
  { weight: 1, arbitrary: fc.record({ _tag: fc.constant("DeleteProject" as const), project }) },
  { weight: 1, arbitrary: fc.record({ _tag: fc.constant("Recover" as const), project }) },
  { weight: 2, arbitrary: fc.record({ _tag: fc.constant("Rename" as const), project, target, pick, name }) },
  {
    weight: 1,
    arbitrary: fc.record({ _tag: fc.constant("Protect" as const), project, target, pick, protected: fc.boolean() })
  },
  {
    weight: 3,
    arbitrary: fc.record({
      _tag: fc.constant("Delete" as const),
      project,
      target: fc.oneof(target, fc.constantFrom<Target>("leaf", "parent")),
      pick
    })
  },
  { weight: 1, arbitrary: fc.record({ _tag: fc.constant("SetDefault" as const), project, target, pick }) },
  {
    weight: 2,
    arbitrary: fc.record({
      _tag: fc.constant("Restore" as const),
      project,
      target,
      pick,
      source: target,
      sourcePick: pick,
      preserve: maybeName,
      point: fc.boolean()
    })
  },
  { weight: 4, arbitrary: fc.record({ _tag: fc.constant("Wait" as const), seconds: fc.integer({ min: 1, max: 8 }) }) },
  // Long enough for a sweep of the control plane (every 10 minutes) to delete what expired.
  {
    weight: 2,
    arbitrary: fc.record({ _tag: fc.constant("Wait" as const), seconds: fc.integer({ min: 300, max: 1800 }) })
  }
)

/** A branch id no branch has. */
const unknownBranch = "br-none-000000"

type StoredBranch = Snapshot.Snapshot["branches"][number]

/** The id of the branch of `branches` that `target` and `i` choose (an existing one when there is none of that sort). */
const choose = (
  branches: ReadonlyArray<StoredBranch>,
  elsewhere: ReadonlyArray<StoredBranch>,
  gone: ReadonlyArray<string>,
  target: Target,
  i: number
): string => {
  const hasChildren = (branch: StoredBranch) => branches.some((child) => child.parent_id === branch.id)
  const among = (ids: ReadonlyArray<string>) => (target === "parent" ? ids[0] : ids[i % ids.length])
  const sorts: Record<Target, ReadonlyArray<string>> = {
    any: branches.map((branch) => branch.id),
    leaf: branches.filter((branch) => !hasChildren(branch)).map((branch) => branch.id),
    default: branches.filter((branch) => branch.default).map((branch) => branch.id),
    // A parent other than the default first: the default one is refused for being the default.
    parent: [
      ...branches.filter((branch) => hasChildren(branch) && !branch.default),
      ...branches.filter((branch) => hasChildren(branch) && branch.default)
    ].map((branch) => branch.id),
    gone,
    unknown: [unknownBranch],
    elsewhere: elsewhere.map((branch) => branch.id)
  }
  return among(sorts[target]) ?? among(sorts.any) ?? unknownBranch
}

/** The name `name` stands for (`i` chooses the branch whose name it takes). */
const nameOf = (branches: ReadonlyArray<StoredBranch>, name: Name, i: number): string | undefined =>
  name === undefined ? undefined : "fresh" in name ? name.fresh : branches[i % branches.length]!.name

/** One request, its endpoint, the statuses the rules allow, and whether it names a branch that exists (or creates one). */
interface Planned {
  readonly project: string
  readonly endpoint: Endpoint.Endpoint
  readonly request: Effect.Effect<HttpClientRequest.HttpClientRequest>
  /** The statuses the rules allow when the project is not locked: success, or any refusal that applies. */
  readonly allowed: ReadonlyArray<number>
  /** Whether the request would change a branch that exists: locked, it is a 423. */
  readonly lockable: boolean
  /** The branch it acts on. */
  readonly branchId?: string
  /** Checks a success's answer, and the state after it. */
  readonly succeeded: (answer: any, after: Snapshot.Snapshot) => void
}

const json = (request: HttpClientRequest.HttpClientRequest, body: unknown) =>
  Effect.orDie(HttpClientRequest.bodyJson(request, body))

/** The success status, unless a refusal applies: then any that does (the rules do not order them). */
const actions = (answer: { readonly operations: ReadonlyArray<{ readonly action: string }> }) =>
  answer.operations.map((operation) => operation.action)

const outcome = (success: number, refusals: ReadonlyArray<readonly [applies: boolean, status: number]>) => {
  const applying = refusals.filter(([applies]) => applies).map(([, status]) => status)
  return applying.length > 0 ? applying : [success]
}

/** `seconds` after `now` (epoch ms), to the second, as RFC 3339: an `expires_at`. */
const expiryAt = (now: number, seconds: number) =>
  new Date(Math.floor(now / 1000) * 1000 + seconds * 1000).toISOString().replace(".000Z", "Z")

/** Whether project `id` is deleted in `snapshot` (kept for recovery, docs/contract.md §18). */
const isDeleted = (snapshot: Snapshot.Snapshot, id: string) =>
  snapshot.projects.find((kept) => kept.id === id)?.deleted_at !== undefined

/**
 * The request `step` makes of the state `snapshot` at `now` (`gone`: the ids of branches deleted
 * so far). Of a deleted project, every branch request is a 404, and never locked.
 */
const plan = (
  step: Exclude<Step, { _tag: "Wait" }>,
  snapshot: Snapshot.Snapshot,
  projects: number,
  gone: ReadonlyArray<string>,
  now: number
): Planned => {
  const planned = planLive(step, snapshot, projects, gone, now)
  const deleted = isDeleted(snapshot, planned.project)
  if (step._tag === "DeleteProject" || step._tag === "Recover" || !deleted) return planned
  return { ...planned, allowed: [404], lockable: false }
}

const planLive = (
  step: Exclude<Step, { _tag: "Wait" }>,
  snapshot: Snapshot.Snapshot,
  projects: number,
  gone: ReadonlyArray<string>,
  now: number
): Planned => {
  const project = projectIds[step.project % projects]!
  const deleted = isDeleted(snapshot, project)
  if (step._tag === "DeleteProject") {
    return {
      project,
      endpoint: Api.Projects.delete,
      request: Effect.succeed(HttpClientRequest.del(`/projects/${project}`)),
      lockable: !deleted,
      succeeded: (answer, after) => {
        expect(answer.project.id).toBe(project)
        expect(isDeleted(after, project)).toBe(true)
      },
      allowed: deleted ? [404] : [200]
    }
  }
  if (step._tag === "Recover") {
    return {
      project,
      endpoint: Api.Projects.recover,
      request: Effect.succeed(HttpClientRequest.post(`/projects/${project}/recover`)),
      lockable: false,
      succeeded: (answer, after) => {
        expect(answer.project.id).toBe(project)
        expect(isDeleted(after, project)).toBe(false)
        const ids = (branches: ReadonlyArray<{ readonly id: string }>) => branches.map((branch) => branch.id).sort()
        expect(ids(answer.branches)).toEqual(ids(snapshot.branches.filter((branch) => branch.project_id === project)))
      },
      allowed: deleted ? [200] : [409]
    }
  }
  const base = `/projects/${project}/branches`
  const branches = snapshot.branches.filter((branch) => branch.project_id === project)
  const elsewhere = snapshot.branches.filter((branch) => branch.project_id !== project)
  const goneHere = gone.filter((id) => id.endsWith(`@${project}`)).map((id) => id.split("@")[0]!)
  const byId = (id: string) => branches.find((branch) => branch.id === id)
  const nameTaken = (name: string | undefined, except?: string) =>
    name !== undefined && branches.some((branch) => branch.name === name && branch.id !== except)
  if (step._tag === "Create") {
    const parent = step.parent === "none" ? undefined : choose(branches, elsewhere, goneHere, step.parent, step.pick)
    const name = nameOf(branches, step.name, step.pick)
    const expiresIn = step.expiresIn
    const body = {
      branch: {
        ...(name === undefined ? {} : { name }),
        ...(parent === undefined ? {} : { parent_id: parent }),
        ...(step.protected === undefined ? {} : { protected: step.protected }),
        ...(expiresIn === undefined ? {} : { expires_at: expiryAt(now, expiresIn) }),
        ...(step.schemaOnly ? { init_source: "schema-only" } : {})
      },
      ...(step.endpoints.length === 0 ? {} : { endpoints: step.endpoints.map((type) => ({ type })) })
    }
    return {
      project,
      endpoint: Api.Branches.create,
      request: json(HttpClientRequest.post(base), body),
      lockable: true,
      succeeded: (answer, after) => {
        expect(answer.branch).toMatchObject({
          project_id: project,
          default: false,
          protected: step.protected ?? false,
          init_source: step.schemaOnly ? "schema-only" : "parent-data",
          ...(name === undefined ? {} : { name }),
          ...(expiresIn === undefined ? {} : { expires_at: expiryAt(now, expiresIn).replace("Z", ".000Z") })
        })
        // A schema-only branch has no parent link (§18).
        expect(answer.branch.parent_id).toBe(
          step.schemaOnly ? undefined : (parent ?? branches.find((branch) => branch.default)!.id)
        )
        expect(answer.endpoints.map((endpoint: any) => endpoint.type)).toEqual(step.endpoints)
        expect(actions(answer)).toEqual(["create_branch", ...step.endpoints.map(() => "start_compute")])
        expect(after.branches.map((branch) => branch.id)).toContain(answer.branch.id)
      },
      allowed: outcome(201, [
        [parent !== undefined && byId(parent) === undefined, 404],
        [step.endpoints.filter((type) => type === "read_write").length > 1, 400],
        [expiresIn !== undefined && expiresIn <= 0, 400],
        // A protected branch cannot expire (§18).
        [step.protected === true && expiresIn !== undefined, 400],
        [nameTaken(name), 409]
      ])
    }
  }
  const branchId = choose(branches, elsewhere, goneHere, step.target, step.pick)
  const branch = byId(branchId)
  const path = `${base}/${branchId}`
  const endpointsOf = (snapshot: Snapshot.Snapshot, id: string) =>
    snapshot.endpoints.filter((endpoint) => endpoint.branch_id === id)
  const ownEndpoints = endpointsOf(snapshot, branchId)
  switch (step._tag) {
    case "Rename":
    case "Protect": {
      const name = step._tag === "Rename" ? nameOf(branches, step.name, step.pick + 1) : undefined
      const body = step._tag === "Rename" ? { branch: { name } } : { branch: { protected: step.protected } }
      return {
        project,
        branchId,
        endpoint: Api.Branches.update,
        request: json(HttpClientRequest.patch(path), body),
        lockable: branch !== undefined,
        succeeded: (answer) => {
          expect(answer.branch).toMatchObject({ id: branchId, ...body.branch })
          expect(answer.operations).toEqual([])
        },
        allowed:
          branch === undefined
            ? [404]
            : outcome(200, [
                [nameTaken(name, branchId), 409],
                // A protected branch cannot expire: an expiring one is not protected (§18).
                [step._tag === "Protect" && step.protected && branch.expires_at !== undefined, 400]
              ])
      }
    }
    case "Expire": {
      const expiresIn = step.expiresIn
      const expires_at = expiresIn === null ? null : expiryAt(now, expiresIn)
      return {
        project,
        branchId,
        endpoint: Api.Branches.update,
        request: json(HttpClientRequest.patch(path), { branch: { expires_at } }),
        lockable: branch !== undefined,
        succeeded: (answer, after) => {
          expect(answer.branch.id).toBe(branchId)
          expect(answer.branch.expires_at).toBe(expires_at?.replace("Z", ".000Z"))
          expect(after.branches.find((kept) => kept.id === branchId)?.expires_at === undefined).toBe(
            expires_at === null
          )
        },
        allowed:
          branch === undefined
            ? [404]
            : outcome(200, [
                [expiresIn !== null && expiresIn <= 0, 400],
                [expiresIn !== null && branch.default, 400],
                // A protected branch cannot expire (§18).
                [expiresIn !== null && branch.protected, 400]
              ])
      }
    }
    case "Delete":
      return {
        project,
        branchId,
        endpoint: Api.Branches.delete,
        request: Effect.succeed(HttpClientRequest.del(path)),
        lockable: branch !== undefined,
        succeeded: (answer, after) => {
          expect(answer.branch.id).toBe(branchId)
          expect(actions(answer)).toEqual([...ownEndpoints.map(() => "suspend_compute"), "delete_timeline"])
          // Its compute endpoints go with it.
          expect(after.branches.map((branch) => branch.id)).not.toContain(branchId)
          expect(endpointsOf(after, branchId)).toEqual([])
        },
        allowed:
          branch === undefined
            ? [204]
            : outcome(200, [
                [branch.default, 400],
                [branches.some((child) => child.parent_id === branchId), 400]
              ])
      }
    case "SetDefault":
      return {
        project,
        branchId,
        endpoint: Api.Branches.setAsDefault,
        request: Effect.succeed(HttpClientRequest.post(`${path}/set_as_default`)),
        lockable: branch !== undefined,
        succeeded: (answer) => {
          expect(answer.branch).toMatchObject({ id: branchId, default: true })
          expect(answer.operations).toEqual([])
        },
        // An expiring branch cannot be the default (§18).
        allowed: branch === undefined ? [404] : outcome(200, [[branch.expires_at !== undefined, 400]])
      }
    case "Restore": {
      const source = choose(branches, elsewhere, goneHere, step.source, step.sourcePick)
      const preserve = nameOf(branches, step.preserve, step.sourcePick + 1)
      const children = branches.filter((child) => child.parent_id === branchId).map((child) => child.id)
      return {
        project,
        branchId,
        endpoint: Api.Branches.restore,
        request: json(HttpClientRequest.post(`${path}/restore`), {
          source_branch_id: source,
          ...(preserve === undefined ? {} : { preserve_under_name: preserve }),
          ...(step.point ? { source_timestamp: new Date(now).toISOString() } : {})
        }),
        lockable: branch !== undefined,
        succeeded: (answer, after) => {
          expect(answer.branch.id).toBe(branchId)
          expect(actions(answer)).toEqual([
            ...(preserve === undefined ? [] : ["create_branch"]),
            ...ownEndpoints.flatMap(() => ["suspend_compute", "start_compute"])
          ])
          // Its compute endpoints stay with it.
          expect(endpointsOf(after, branchId)).toEqual(ownEndpoints)
          if (preserve !== undefined) {
            const preserved = after.branches.find((kept) => kept.project_id === project && kept.name === preserve)
            // Kept beside the branch: the same parent (none for a root).
            expect(preserved?.default).toBe(false)
            expect(preserved?.parent_id).toBe(branch?.parent_id)
            // The restored branch is a child of the preserved one, which takes its children.
            expect(answer.branch.parent_id).toBe(preserved?.id)
            const moved = after.branches.filter((kept) => children.includes(kept.id))
            expect(moved.map((child) => child.parent_id)).toEqual(children.map(() => preserved?.id))
          }
        },
        allowed:
          branch === undefined
            ? [404]
            : outcome(200, [
                [byId(source) === undefined, 404],
                [nameTaken(preserve), 409],
                // From its own history: a point and a name to keep its state before; with children: the name (§11.5).
                [source === branchId && !step.point, 400],
                [(source === branchId || children.length > 0) && preserve === undefined, 400]
              ])
      }
    }
  }
}

describe("the branch routes, random requests over the fake's HTTP app", () => {
  it.effect.prop(
    "keep the invariants, answer declared statuses as the rules say, change nothing when refused, lock exactly while an operation is pending, and the journal replays",
    [fc.integer({ min: 2, max: 3 }), fc.array(step, { minLength: 1, maxLength: 30, size: "max" })],
    ([projects, steps]) =>
      Effect.gen(function* () {
        const { fake, key, replays } = yield* journaled(seedOf(projects))
        /** The ids of the branches deleted so far, as `id@project`. */
        const gone: Array<string> = []
        /** The start_compute operation that started each compute endpoint created with a branch. */
        const startedBy = new Map<string, string>()
        const get = (endpoint: Endpoint.Endpoint, path: string) => getOk(fake, key, path, endpoint)
        /** Whether project `id` has a pending operation, as `GET …/operations` tells (a deleted one: none to see). */
        const pending = (id: string) =>
          Effect.flatMap(fake.snapshot, (snapshot) =>
            isDeleted(snapshot, id)
              ? Effect.succeed(false)
              : Effect.map(get(Api.Operations.list, `/projects/${id}/operations`), ({ operations }) =>
                  (operations as ReadonlyArray<{ status: string }>).some(
                    (operation) => operation.status === "scheduling" || operation.status === "running"
                  )
                )
          )
        /**
         * The invariants in the fake's whole state, and the same seen through the public API in
         * `checked` (those a request changed: a request changes only its own project).
         */
        const checkInvariants = (checked: ReadonlyArray<string>) =>
          Effect.gen(function* () {
            // The state as the routes see it: what the control plane had due by now (expiries) done.
            yield* fake.catchUp
            const snapshot = yield* fake.snapshot
            const loaded = load(snapshot)
            expect(Either.isLeft(loaded) ? loaded.left : []).toEqual([])
            for (const id of checked) {
              if (isDeleted(snapshot, id)) {
                // Hidden from every read while it can be recovered.
                const response = yield* send(fake, HttpClientRequest.get(`/projects/${id}/branches`), { key })
                expect(response.status, `branches of the deleted ${id}`).toBe(404)
                continue
              }
              const { operations } = yield* get(Api.Operations.list, `/projects/${id}/operations`)
              const { branches } = yield* get(Api.Branches.list, `/projects/${id}/branches`)
              const { count } = yield* get(Api.Branches.count, `/projects/${id}/branches/count`)
              expect(count).toBe(branches.length)
              const ids = new Set<string>(branches.map((branch: any) => branch.id))
              expect(ids.size, `branch ids of ${id} once`).toBe(branches.length)
              expect(
                branches.filter((branch: any) => branch.default),
                `one default branch in ${id}`
              ).toHaveLength(1)
              const endpointIds = new Set<string>()
              for (const branch of branches) {
                if (branch.parent_id !== undefined) expect(ids, `parent of ${branch.id}`).toContain(branch.parent_id)
                // Ready once its create_branch has finished (a seed's branches have none).
                const created = operations.filter(
                  (operation: any) => operation.action === "create_branch" && operation.branch_id === branch.id
                )
                const ready = created.every((operation: any) => operation.status === "finished")
                expect(branch.current_state, `state of ${branch.id}`).toBe(ready ? "ready" : "init")
                const { endpoints } = yield* get(
                  Api.Branches.listEndpoints,
                  `/projects/${id}/branches/${branch.id}/endpoints`
                )
                for (const endpoint of endpoints) {
                  expect(endpointIds.has(endpoint.id), `endpoint id ${endpoint.id} once`).toBe(false)
                  endpointIds.add(endpoint.id)
                  // Active once the start_compute its branch's creation started has finished (a seed's: at once).
                  const started = operations.find((operation: any) => operation.id === startedBy.get(endpoint.id))
                  const active = started === undefined || started.status === "finished"
                  expect(endpoint).toMatchObject({ project_id: id, branch_id: branch.id })
                  // Once started, `idle` too: suspended by the control plane, a restore or a project's deletion.
                  expect(endpoint.current_state).toMatch(active ? /^(active|idle)$/ : /^init$/)
                }
                const readWrite = endpoints.filter((endpoint: any) => endpoint.type === "read_write")
                expect(readWrite.length, `read_write endpoints of ${branch.id}`).toBeLessThanOrEqual(1)
              }
              const own = <A extends { readonly project_id: string }>(items: ReadonlyArray<A>) =>
                items.filter((item) => item.project_id === id)
              expect([...ids].sort()).toEqual(
                own(snapshot.branches)
                  .map((branch) => branch.id)
                  .sort()
              )
              // Every compute endpoint of the project is listed with its branch: none is an orphan.
              expect([...endpointIds].sort()).toEqual(
                own(snapshot.endpoints)
                  .map((endpoint) => endpoint.id)
                  .sort()
              )
            }
          })

        const all = projectIds.slice(0, projects)
        yield* checkInvariants(all)
        for (const step of steps) {
          if (step._tag === "Wait") {
            yield* TestClock.adjust(`${step.seconds} seconds`)
            continue
          }
          // What the control plane had due by now (an expired branch deleted...) first, as any request does.
          yield* fake.catchUp
          const before = yield* fake.snapshot
          const planned = plan(step, before, projects, gone, yield* TestClock.currentTimeMillis)
          const locked = yield* pending(planned.project)
          const request = yield* planned.request
          const response = yield* exchange(fake, request, key)
          const after = yield* fake.snapshot
          const context = `${request.method} ${request.url} ${JSON.stringify(step)}: ${response.status} ${response.text}`
          expect(declares(planned.endpoint, response.status), context).toBe(true)
          expect(response.status === 423, context).toBe(locked && planned.lockable)
          if (response.status !== 423) expect(planned.allowed, context).toContain(response.status)
          if (response.status === 423) expect(response.body.message, context).toMatch(/conflicting operations/)
          if (response.status >= 400 || response.status === 204) {
            // Refusal, or nothing to do: nothing changed, so the invariants still hold.
            expect(withoutLastUse(after), context).toEqual(withoutLastUse(before))
            continue
          }
          const answer = response.body
          planned.succeeded(answer, after)
          for (const operation of step._tag === "Create" ? answer.operations : []) {
            if (operation.action === "start_compute") startedBy.set(operation.endpoint_id, operation.id)
          }
          if (step._tag === "Delete") gone.push(`${planned.branchId}@${planned.project}`)
          yield* checkInvariants([planned.project])
        }
        yield* checkInvariants(all)
        yield* replays
      }),
    // A fixed seed: a failure prints it and the path of the shrunk case (`fastCheck.path` replays
    // it). Ten runs of up to 30 requests, a few seconds: volume belongs to a local run with more.
    { fastCheck: { seed: 2121, numRuns: 10 } }
  )
})
