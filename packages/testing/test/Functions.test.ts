/**
 * Functions (beta) of a branch through the client over the fake (docs/contract.md §29): a
 * function deployed with a ZIP and its environment (values write-only), its build finishing on
 * `TestClock`, listed, renamed, inherited by a child branch, deleted; the refusals.
 */
import { Branches, Functions } from "@dbplatform/client"
import { BranchId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import { projectId } from "./helpers.js"

const main = BranchId.make("br-main-100001")

const seed = {
  projects: [{ id: projectId }],
  branches: [{ project_id: projectId, id: main, name: "main", default: true }],
  endpoints: [{ branch_id: main, id: "ep-main-100001", type: "read_write" as const }],
  roles: [{ branch_id: main, name: "owner" }],
  databases: [{ branch_id: main, name: "neondb", owner_name: "owner" }]
}

const provideFake = Effect.provide(DbPlatformTest.layer({ seed }))

/** The smallest ZIP archive: an empty one's end record. */
export const emptyZip = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)])

const onMain = { project_id: projectId, branch_id: main }

describe("Functions", () => {
  it.effect("a function deployed, built on the clock, listed, renamed, inherited by a child, deleted", () =>
    Effect.gen(function* () {
      const functions = yield* Functions.Functions
      const branches = yield* Branches.Branches
      const { deployment } = yield* functions.createDeployment({
        ...onMain,
        slug: "hello",
        zip: emptyZip,
        runtime: "nodejs24",
        environment: { API_TOKEN: Redacted.make("tok-secret-1"), MODE: Redacted.make("prod") }
      })
      expect(deployment).toMatchObject({ id: 1, status: "pending", runtime: "nodejs24" })
      expect(deployment.environment).toEqual(["API_TOKEN", "MODE"])

      const before = yield* functions.get({ ...onMain, slug: "hello" })
      expect(before.function.current_deployment?.status).toBe("pending")
      expect(before.function.active_deployment).toBeUndefined()
      expect(before.function.name).toBe("hello")
      expect(before.function.invocation_url).toMatch(/^https:\/\/br-main-100001-hello\..*\/$/)
      yield* TestClock.adjust("3 seconds")
      expect((yield* functions.get({ ...onMain, slug: "hello" })).function.current_deployment?.status).toBe("building")
      yield* TestClock.adjust("10 seconds")
      const built = (yield* functions.get({ ...onMain, slug: "hello" })).function
      expect(built.current_deployment?.status).toBe("completed")
      expect(built.active_deployment?.id).toBe(1)

      // A config-only deployment keeps the bundle; an empty value removes a variable.
      const second = yield* functions.createDeployment({
        ...onMain,
        slug: "hello",
        environment: { MODE: Redacted.make("") }
      })
      expect(second.deployment).toMatchObject({ id: 2, status: "pending", environment: ["API_TOKEN"] })

      yield* functions.createDeployment({ ...onMain, slug: "world", zip: emptyZip })
      const listed = yield* functions.list(onMain, { pageSize: 1 }).pipe(Stream.runCollect)
      expect(
        Chunk.toReadonlyArray(listed)
          .map((fn) => fn.slug)
          .sort()
      ).toEqual(["hello", "world"])

      const renamed = yield* functions.update({ ...onMain, slug: "hello", name: "  Hello API " })
      expect(renamed.function.name).toBe("Hello API")

      const { branch: child } = yield* branches.create({ project_id: projectId, branch: { parent_id: main } })
      const onChild = { project_id: projectId, branch_id: child.id }
      const inherited = (yield* functions.get({ ...onChild, slug: "hello" })).function
      expect(inherited).toMatchObject({ id: built.id, name: "Hello API" })
      expect(inherited.invocation_url).toContain(`${child.id}-hello.`)
      // A rename of a slug the child only inherits is a 404.
      expect((yield* Effect.flip(functions.update({ ...onChild, slug: "hello", name: "x" })))._tag).toBe("NotFound")
      // Changes stay on the branch made.
      yield* functions.update({ ...onMain, slug: "hello", name: null })
      expect((yield* functions.get({ ...onMain, slug: "hello" })).function.name).toBe("hello")
      expect((yield* functions.get({ ...onChild, slug: "hello" })).function.name).toBe("Hello API")

      expect(yield* functions.delete({ ...onMain, slug: "hello" })).toBeUndefined()
      expect((yield* Effect.flip(functions.get({ ...onMain, slug: "hello" })))._tag).toBe("NotFound")
      expect((yield* functions.get({ ...onChild, slug: "hello" })).function.slug).toBe("hello")
    }).pipe(provideFake)
  )

  it.effect("a build of a bundle that is not a ZIP fails, with its error", () =>
    Effect.gen(function* () {
      const functions = yield* Functions.Functions
      yield* functions.createDeployment({ ...onMain, slug: "broken", zip: new TextEncoder().encode("not a zip") })
      yield* TestClock.adjust("15 seconds")
      const fn = (yield* functions.get({ ...onMain, slug: "broken" })).function
      expect(fn.current_deployment).toMatchObject({ status: "failed", error: "the bundle is not a ZIP archive" })
      expect(fn.active_deployment).toBeUndefined()
    }).pipe(provideFake)
  )

  it.effect("refuses a first deployment without a zip, no part at all, a bad slug, an unknown function", () =>
    Effect.gen(function* () {
      const functions = yield* Functions.Functions
      const first = yield* Effect.flip(functions.createDeployment({ ...onMain, slug: "fresh", runtime: "nodejs24" }))
      expect(first._tag).toBe("BadRequest")
      expect(first.message).toContain("must include zip")
      yield* functions.createDeployment({ ...onMain, slug: "fresh", zip: emptyZip })
      const none = yield* Effect.flip(functions.createDeployment({ ...onMain, slug: "fresh" }))
      expect(none._tag).toBe("BadRequest")
      const slug = yield* Effect.flip(functions.get({ ...onMain, slug: "Not-A-Slug" }))
      expect(slug._tag).toBe("InvalidRequest")
      expect((yield* Effect.flip(functions.get({ ...onMain, slug: "nothere" })))._tag).toBe("NotFound")
      const blank = yield* Effect.flip(functions.update({ ...onMain, slug: "fresh", name: "   " }))
      expect(blank._tag).toBe("BadRequest")
    }).pipe(provideFake)
  )
})
