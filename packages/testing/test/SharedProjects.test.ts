/**
 * `GET /projects/shared` (docs/contract.md §10.6): the projects other accounts shared with this
 * one, from the seed's `shared: true`, kept by snapshots and scenarios; through the client's
 * `Projects.listSharedPage` (one request) and `Projects.listShared` (the `Stream`).
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Projects } from "@dbplatform/client"
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import * as Seed from "../src/Seed.js"
import { SnapshotFromJson } from "../src/Snapshot.js"
import { projectId, read, send } from "./helpers.js"

const idsOf = (stream: Stream.Stream<{ readonly id: string }, unknown>) =>
  Effect.map(Stream.runCollect(stream), (all) => Chunk.toReadonlyArray(all).map((project) => project.id))

const sharedIds = (fake: FakePlatform.Service) =>
  Effect.map(
    Effect.flatMap(send(fake, HttpClientRequest.get("/projects/shared?limit=400"), { key: fake.bootstrapKey }), read),
    ({ body }) => body.projects.map((project: any) => project.id)
  )

const mixed: Seed.Seed = {
  projects: [
    { id: projectId, age: "3 days" },
    { id: "quiet-river-118004", name: "partner-data", shared: true, age: "2 days" },
    { id: "own-project-2", age: "1 day", shared: false },
    { id: "bold-sun-640211", name: "vendor-etl", shared: true, org_id: "org-partner-000001", age: "4 days" }
  ]
}

describe("Projects.listSharedPage and Projects.listShared against the fake", () => {
  it.effect("an account with no shared projects: an empty page with a cursor, an empty stream", () =>
    Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const page = yield* projects.listSharedPage()
      expect(page.projects).toEqual([])
      expect(page.pagination?.cursor).toBeDefined()
      expect(yield* idsOf(projects.listShared())).toEqual([])
      expect(yield* idsOf(projects.list())).toEqual([projectId])
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed: { projects: [{ id: projectId }] } })))
  )

  it.effect("shared projects are listed by listShared only, newest first; own ones by list only", () =>
    Effect.gen(function* () {
      const projects = yield* Projects.Projects
      expect(yield* idsOf(projects.listShared({}, { pageSize: 1 }))).toEqual(["quiet-river-118004", "bold-sun-640211"])
      expect(yield* idsOf(projects.list())).toEqual(["own-project-2", projectId])
      expect((yield* projects.listSharedPage({ search: "vendor" })).projects.map((p) => p.id)).toEqual([
        "bold-sun-640211"
      ])
      const [shared] = (yield* projects.listSharedPage({ limit: 1 })).projects
      expect(shared).toMatchObject({ id: "quiet-river-118004", name: "partner-data" })
      // Filtering by organization is for the account's own projects: a shared one is not among them.
      expect((yield* projects.listPage({ org_id: "org-partner-000001" })).projects).toEqual([])
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed: mixed })))
  )

  it.effect("listSharedPage walks pages with the cursor; the server's default page is 10", () =>
    Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const fake = yield* FakePlatform.FakePlatform
      const first = yield* projects.listSharedPage()
      expect(first.projects).toHaveLength(10)
      const next = yield* projects.listSharedPage({ cursor: first.pagination!.cursor })
      expect(next.projects.map((p) => p.id)).toEqual(["shared-10", "shared-11"])
      const requests = (yield* fake.requests).filter((request) => request.path === "/api/v2/projects/shared")
      expect(requests.map((request) => request.query)).toEqual([{}, { cursor: first.pagination!.cursor }])
    }).pipe(
      Effect.provide(
        DbPlatformTest.layer({
          seed: {
            projects: Array.from({ length: 12 }, (_, i) => ({
              id: `shared-${String(i).padStart(2, "0")}`,
              shared: true,
              age: `${i + 1} hours`
            }))
          }
        })
      )
    )
  )

  it.effect("a limit or pageSize out of 1..400, or a timeout under 100 ms: InvalidRequest, nothing sent", () =>
    Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const fake = yield* FakePlatform.FakePlatform
      expect((yield* Effect.flip(projects.listSharedPage({ limit: 401 })))._tag).toBe("InvalidRequest")
      expect((yield* Effect.flip(projects.listSharedPage({ timeout: 50 })))._tag).toBe("InvalidRequest")
      expect((yield* Effect.flip(Stream.runDrain(projects.listShared({}, { pageSize: 0 }))))._tag).toBe(
        "InvalidRequest"
      )
      expect(yield* fake.requests).toEqual([])
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed: mixed })))
  )
})

describe("shared projects in seeds, scenarios and snapshots", () => {
  it.effect("a project added by a scenario with shared: true is listed by GET /projects/shared", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make({ projects: [{ id: projectId }] })
      expect(yield* sharedIds(fake)).toEqual([])
      yield* fake.scenario.addProject({ id: "late-river-118737", shared: true })
      expect(yield* sharedIds(fake)).toEqual(["late-river-118737"])
    })
  )

  it.effect("a snapshot keeps shared; a restored fake lists the same shared projects", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make(mixed)
      const json = yield* Schema.encode(SnapshotFromJson)(yield* fake.snapshot)
      const restored = yield* FakePlatform.restore(yield* Schema.decode(SnapshotFromJson)(json))
      expect(yield* sharedIds(restored)).toEqual(["quiet-river-118004", "bold-sun-640211"])
      const own = yield* read(yield* send(restored, HttpClientRequest.get("/projects"), { key: restored.bootstrapKey }))
      expect(own.body.projects.map((project: any) => project.id)).toEqual(["own-project-2", projectId])
    })
  )

  it.effect("a project whose id is `shared` does not shadow the list, nor the list it", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make({
        projects: [{ id: "shared" }],
        operations: [{ project_id: "shared", action: "create_branch" }]
      })
      expect(yield* sharedIds(fake)).toEqual([])
      const operations = yield* read(
        yield* send(fake, HttpClientRequest.get("/projects/shared/operations"), { key: fake.bootstrapKey })
      )
      expect(operations.body.operations).toHaveLength(1)
    })
  )

  it.effect("a seed file's shared must be a boolean; a seed in code with another value is InvalidSeed", () =>
    Effect.gen(function* () {
      const fromFile = yield* Seed.fromJson(JSON.stringify({ projects: [{ id: projectId, shared: true }] }))
      expect(fromFile.projects).toEqual([{ id: projectId, shared: true }])
      const refused = yield* Effect.flip(
        Seed.fromJson(JSON.stringify({ projects: [{ id: projectId, shared: "yes" }] }))
      )
      expect(refused.problems.join("; ")).toContain("shared")
      const inCode = yield* Effect.flip(FakePlatform.make({ projects: [{ id: projectId, shared: "yes" as never }] }))
      expect(inCode.problems).toEqual([`project ${projectId}: shared must be true or false, got string`])
    })
  )
})
