/**
 * The shared preload libraries a project may enable (`docs/contract.md` §14.5):
 * `Projects.listAvailablePreloadLibraries` streams them with every field as the wire has it, an
 * answer without `libraries` is none, and it fails as a project read does (`NotFound`, and
 * `InvalidRequest` with nothing sent for a malformed id).
 */
import type { ProjectId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import { DbPlatform, Projects } from "../src/index.js"
import { baseUrl, projectId, secret } from "./fixtures.js"
import { json, type Scripted, scripted } from "./scripted.js"

const layerFor = (script: Scripted) =>
  Layer.orDie(
    DbPlatform.layer({ baseUrl, apiKey: Redacted.make(secret), retrySchedule: Schedule.stop }).pipe(
      Layer.provide(script.layer)
    )
  )

const timescaledb = {
  library_name: "timescaledb",
  description: "time-series tables",
  is_default: false,
  is_experimental: false,
  version: "2.17.1"
}

describe("Projects.listAvailablePreloadLibraries", () => {
  it.effect("streams each library as the wire has it; an answer without libraries is none", () => {
    const script = scripted([json(200, { libraries: [timescaledb] }), json(200, {})])
    return Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const listed = yield* Stream.runCollect(projects.listAvailablePreloadLibraries({ project_id: projectId }))
      expect(Chunk.toArray(listed).map((library) => ({ ...library }))).toEqual([timescaledb])
      expect(yield* projects.listAvailablePreloadLibrariesPage({ project_id: projectId })).toEqual({})
      expect(script.requests.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
        `GET /api/v2/projects/${projectId}/available_preload_libraries`,
        `GET /api/v2/projects/${projectId}/available_preload_libraries`
      ])
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("404 is NotFound; a malformed project id is InvalidRequest, nothing sent", () => {
    const script = scripted([json(404, { code: "", message: "project not found" })])
    return Effect.gen(function* () {
      const projects = yield* Projects.Projects
      const missing = yield* Effect.flip(projects.listAvailablePreloadLibrariesPage({ project_id: projectId }))
      expect(missing._tag).toBe("NotFound")
      const malformed = yield* Effect.flip(
        Stream.runDrain(projects.listAvailablePreloadLibraries({ project_id: "NO_SUCH" as ProjectId }))
      )
      expect(malformed._tag).toBe("InvalidRequest")
      expect(script.requests).toHaveLength(1)
    }).pipe(Effect.provide(layerFor(script)))
  })
})
