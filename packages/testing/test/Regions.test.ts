/**
 * `GET /regions` (docs/contract.md §17) through the client over the fake: the regions a project
 * can be created in, the realistic seed's, one of them the default; a malformed `org_id` is
 * refused before sending.
 */
import { Regions } from "@dbplatform/client"
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as Seed from "../src/Seed.js"

describe("Regions", () => {
  it.effect("lists the regions of the realistic account's projects, one the default", () =>
    Effect.gen(function* () {
      const regions = yield* Regions.Regions
      const page = yield* regions.listPage()
      const ids = page.regions.map((region) => region.region_id)
      const seeded = new Set((Seed.realistic().projects ?? []).map((project) => project.region_id))
      for (const id of seeded) expect(ids).toContain(id)
      expect(page.regions.filter((region) => region.default).map((region) => region.region_id)).toEqual([
        "aws-us-east-2"
      ])
      const streamed = yield* regions.list({ org_id: "org-example-123" }).pipe(Stream.runCollect)
      expect(Chunk.toReadonlyArray(streamed).map((region) => region.region_id)).toEqual(ids)
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed: Seed.realistic() })))
  )

  it.effect("refuses a malformed org_id before sending", () =>
    Effect.gen(function* () {
      const regions = yield* Regions.Regions
      const error = yield* Effect.flip(regions.listPage({ org_id: "Not An Org" }))
      expect(error._tag).toBe("InvalidRequest")
      expect(error.message).toContain("org_id")
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed: Seed.realistic() })))
  )
})
