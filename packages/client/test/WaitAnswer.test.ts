/**
 * What a method called with `{ wait }` answers (`docs/design.md` §1.3): the operations as the wait
 * last read them, and, where its entry reads its resource back (core's `readBack`), that resource
 * as the GET reads it after the wait; the read's errors in the method's type only when it waits.
 * Against a scripted server whose operations and resources change as the `TestClock` moves.
 */
import type { OperationFailed, OperationStillPending } from "@dbplatform/core"
import * as Api from "@dbplatform/core/Api"
import { describe, expect, expectTypeOf, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as TestClock from "effect/TestClock"
import { Branches, DbPlatform, type DbPlatformClient, type Operations, type Resource, Roles } from "../src/index.js"
import {
  annotationOf,
  baseUrl,
  branchCreated,
  branchId,
  branchItem,
  operationItem,
  projectId,
  rolePassword,
  secret
} from "./fixtures.js"
import { json, type Recorded, raw, type Scripted, scripted } from "./scripted.js"

const layerFor = (script: Scripted) =>
  Layer.orDie(
    DbPlatform.layer({ baseUrl, apiKey: Redacted.make(secret), retrySchedule: Schedule.stop }).pipe(
      Layer.provide(script.layer)
    )
  )

/** A request as `METHOD path` (no base URL, no query). */
const line = (request: Recorded) => `${request.method} ${new URL(request.url).pathname.slice("/api/v2".length)}`

/**
 * A platform of one project: `mutation` answers the mutating request; the operations it started
 * are `running` until `finish()`, when they are `finished` and the resources `now` answers (by
 * path) are what GETs read.
 */
const platform = (
  mutation: { readonly method: string; readonly status: number; readonly body: unknown },
  operations: ReadonlyArray<{ readonly id: string; readonly status: string }>,
  now: Readonly<Record<string, unknown>>
) => {
  let done = false
  const script = scripted((request) => {
    const path = new URL(request.url).pathname.slice("/api/v2".length)
    if (request.method === mutation.method) return json(mutation.status, mutation.body)
    const single = /\/operations\/([^/]+)$/.exec(path)
    if (single !== null) {
      const found = operations.find((operation) => operation.id === single[1])
      return found === undefined
        ? raw(404, null)
        : json(200, { operation: { ...found, status: done ? "finished" : found.status } })
    }
    if (path.endsWith("/operations")) {
      const page = operations.map((operation) => ({ ...operation, status: done ? "finished" : operation.status }))
      return json(200, { operations: page, pagination: { cursor: "2022-11-30T19:09:48Z" } })
    }
    const resource = now[path]
    return resource === undefined ? raw(404, null) : json(200, resource)
  })
  return {
    script,
    finish: () => {
      done = true
    }
  }
}

/** `call` forked, its first poll read, the operations finished, the next poll (5 s later) read. */
const waited = <A, E, R>(call: Effect.Effect<A, E, R>, finish: () => void) =>
  Effect.gen(function* () {
    const fiber = yield* Effect.fork(call)
    yield* TestClock.adjust("1 millis")
    finish()
    yield* TestClock.adjust("5 seconds")
    return yield* Fiber.join(fiber)
  })

const branchPath = `/projects/${projectId}/branches/${branchId}`

describe("a method called with { wait }", () => {
  it.effect("branches.create: the operations finished, the branch as a GET reads it after the wait", () => {
    const { finish, script } = platform(
      { method: "POST", status: 201, body: branchCreated },
      branchCreated.operations,
      {
        [branchPath]: {
          branch: branchItem(branchId, { current_state: "ready", updated_at: "2022-11-30T19:10:02Z" }),
          annotation: annotationOf()
        }
      }
    )
    return Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const created = yield* waited(branches.create({ project_id: projectId }, { wait: true }), finish)
      expect(created.operations.map((operation) => [operation.action, operation.status])).toEqual([
        ["create_branch", "finished"],
        ["start_compute", "finished"]
      ])
      expect(created.branch.current_state).toBe("ready")
      expect(created.branch.pending_state).toBeUndefined()
      // The rest of the answer as the creation gave it, still its class, secrets still Redacted.
      expect(created).toBeInstanceOf(Api.Branches.create.success)
      expect(created.endpoints.map((endpoint) => endpoint.id)).toEqual(["ep-cool-darkness-123456"])
      expect(Redacted.value(created.roles[0]!.password!)).toBe(rolePassword)
      expect(JSON.stringify(created)).not.toContain(rolePassword)
      // The creation, the first round (one list answers for both operations), the second, the read.
      expect(script.requests.map(line)).toEqual([
        `POST /projects/${projectId}/branches`,
        `GET /projects/${projectId}/operations`,
        `GET /projects/${projectId}/operations`,
        `GET ${branchPath}`
      ])
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("without { wait }: one request, the answer as the server gave it", () => {
    const { script } = platform({ method: "POST", status: 201, body: branchCreated }, branchCreated.operations, {})
    return Effect.gen(function* () {
      const created = yield* Effect.flatMap(Branches.Branches, (branches) => branches.create({ project_id: projectId }))
      expect(created.operations.map((operation) => operation.status)).toEqual(["running", "scheduling"])
      expect(created.branch.current_state).toBe("init")
      expect(script.requests).toHaveLength(1)
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("roles.create: the role as a GET reads it, its password (shown once) kept", () => {
    const role = { branch_id: branchId, name: "migrator", protected: false, created_at: "2022-11-30T19:09:48Z" }
    const applied = { ...operationItem(1, "2022-11-30T19:09:48Z", "running"), action: "apply_config" }
    const { finish, script } = platform(
      {
        method: "POST",
        status: 201,
        body: { role: { ...role, password: rolePassword, updated_at: role.created_at }, operations: [applied] }
      },
      [applied],
      { [`${branchPath}/roles/migrator`]: { role: { ...role, updated_at: "2022-11-30T19:09:55Z" } } }
    )
    return Effect.gen(function* () {
      const roles = yield* Roles.Roles
      const created = yield* waited(
        roles.create({ project_id: projectId, branch_id: branchId, role: { name: "migrator" } }, { wait: true }),
        finish
      )
      expect(created.operations.map((operation) => operation.status)).toEqual(["finished"])
      expect(created.role.updated_at.toJSON()).toBe("2022-11-30T19:09:55.000Z")
      expect(Redacted.value(created.role.password!)).toBe(rolePassword)
      expect(script.requests.map(line).at(-1)).toBe(`GET ${branchPath}/roles/migrator`)
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("a delete: the operations of its Some as last read, nothing read back; None: no request", () => {
    const suspended = { ...operationItem(1, "2022-11-30T19:09:48Z", "running"), action: "suspend_compute" }
    const { finish, script } = platform(
      {
        method: "DELETE",
        status: 200,
        body: { branch: branchItem(branchId), operations: [suspended] }
      },
      [suspended],
      {}
    )
    return Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const deleted = yield* waited(
        branches.delete({ project_id: projectId, branch_id: branchId }, { wait: true }),
        finish
      )
      expect(Option.map(deleted, ({ operations }) => operations.map((operation) => operation.status))).toEqual(
        Option.some(["finished"])
      )
      expect(script.requests.map(line)).toEqual([
        `DELETE ${branchPath}`,
        `GET /projects/${projectId}/operations/${suspended.id}`,
        `GET /projects/${projectId}/operations/${suspended.id}`
      ])
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("no operations to wait for (a rename): the answer is the state, nothing read back", () => {
    const renamed = { branch: branchItem(branchId, { name: "renamed" }), operations: [] }
    const script = scripted([json(200, renamed)])
    return Effect.gen(function* () {
      const updated = yield* Effect.flatMap(Branches.Branches, (branches) =>
        branches.update({ project_id: projectId, branch_id: branchId, branch: { name: "renamed" } }, { wait: true })
      )
      expect(updated.branch.name).toBe("renamed")
      expect(script.requests).toHaveLength(1)
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("the read after the wait fails the call with its own typed error (the branch is gone: NotFound)", () => {
    const { finish, script } = platform(
      { method: "POST", status: 201, body: branchCreated },
      branchCreated.operations,
      {}
    )
    return Effect.gen(function* () {
      const branches = yield* Branches.Branches
      const error = yield* waited(Effect.flip(branches.create({ project_id: projectId }, { wait: true })), finish)
      expect(error._tag).toBe("NotFound")
      expect(error.message).toContain(`GET ${branchPath}`)
    }).pipe(Effect.provide(layerFor(script)))
  })

  it("types: the read back's entry and errors, in a method's type only when it waits", () => {
    expectTypeOf<Resource.ReadBackOf<typeof Api.Branches.create>>().toEqualTypeOf<typeof Api.Branches.get>()
    expectTypeOf<Resource.ReadBackOf<typeof Api.Snapshots.restore>>().toEqualTypeOf<typeof Api.Branches.get>()
    expectTypeOf<Resource.ReadBackOf<typeof Api.Roles.resetPassword>>().toEqualTypeOf<typeof Api.Roles.get>()
    expectTypeOf<Resource.ReadBackOf<typeof Api.Branches.delete>>().toEqualTypeOf<never>()
    expectTypeOf<Resource.ReadBackOf<typeof Api.Jwks.add>>().toEqualTypeOf<never>()
    expectTypeOf<Resource.ReadBackError<typeof Api.ComputeEndpoints.start>>().toEqualTypeOf<
      DbPlatformClient.ExecuteError<typeof Api.ComputeEndpoints.get>
    >()
    expectTypeOf<Resource.ReadBackError<typeof Api.Snapshots.delete>>().toEqualTypeOf<never>()

    // Not waiting: exactly the creation's errors. Waiting: the wait's and the read's too.
    type NoWait = Effect.Effect.Error<ReturnType<typeof createNoWait>>
    type Wait = Effect.Effect.Error<ReturnType<typeof createWait>>
    expectTypeOf<NoWait>().toEqualTypeOf<DbPlatformClient.ExecuteError<typeof Api.Branches.create>>()
    expectTypeOf<Wait>().toEqualTypeOf<
      | DbPlatformClient.ExecuteError<typeof Api.Branches.create>
      | OperationFailed
      | OperationStillPending
      | Operations.ReadError
      | DbPlatformClient.ExecuteError<typeof Api.Branches.get>
    >()
  })
})

declare const service: Branches.Service
const createNoWait = () => service.create({ project_id: projectId })
const createWait = () => service.create({ project_id: projectId }, { wait: true })
