import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as FakePlatform from "../src/FakePlatform.js"
import * as Seed from "../src/Seed.js"
import { operationId, projectId } from "./helpers.js"

describe("Seed.fromJson", () => {
  it.effect("reads the documented seed file format, which the fake then serves", () =>
    Effect.gen(function* () {
      const seed = yield* Seed.fromJson(
        JSON.stringify({
          bootstrapKey: "a-test-key",
          projects: [{ id: projectId, name: "billing", region_id: "aws-eu-central-1", pg_version: 17, age: "30 days" }],
          operations: [
            { project_id: projectId, id: operationId(1), action: "create_branch", age: "2 hours" },
            { project_id: projectId, action: "start_compute", endpoint_id: "ep-proud-mud-a5x8dq2u", runsFor: 20000 },
            {
              project_id: projectId,
              action: "apply_config",
              status: "failed",
              failures_count: 2,
              error: "role synchronisation failed",
              retryIn: "5 minutes",
              age: "1 hour"
            }
          ]
        })
      )
      expect(seed.projects).toHaveLength(1)
      const fake = yield* FakePlatform.make(seed)
      expect((yield* fake.snapshot).operations).toHaveLength(3)
    })
  )

  it.effect("a duration over 100 years, or negative, is refused (the fake would make times that are no dates)", () =>
    Effect.gen(function* () {
      for (const age of [1e17, "100000000 days"]) {
        const error = yield* Effect.flip(Seed.fromJson(JSON.stringify({ projects: [{ id: "a-b-1", age }] })))
        expect(error._tag).toBe("InvalidSeed")
        expect(error.problems.join("\n")).toContain("projects.0.age")
      }
      // Effect's `Duration` reads a negative amount as 0: it is refused, not taken as "now".
      for (const age of ["-5 minutes", " -1 seconds"]) {
        const error = yield* Effect.flip(Seed.fromJson(JSON.stringify({ projects: [{ id: "a-b-1", age }] })))
        expect(error.problems.join("\n")).toContain("projects.0.age")
      }
      const ok = yield* Seed.fromJson(JSON.stringify({ projects: [{ id: "a-b-1", age: "99 weeks" }] }))
      expect(ok.projects).toHaveLength(1)
    })
  )

  it.effect("a refused bootstrapKey is named, never its value", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Seed.fromJson(JSON.stringify({ bootstrapKey: " secret-test-key " })))
      expect(error.problems).toEqual(["bootstrapKey: must be a non-empty string without leading or trailing spaces"])
      expect(error.message).not.toContain("secret-test-key")
    })
  )

  it.effect("names every problem: not JSON, a missing or unknown field, a wrong type, a bad duration", () =>
    Effect.gen(function* () {
      expect((yield* Effect.flip(Seed.fromJson("{"))).problems).toHaveLength(1)
      const error = yield* Effect.flip(
        Seed.fromJson(
          JSON.stringify({
            projects: [{ name: "no id", pg_version: "17" }],
            operations: [{ project_id: projectId, action: "create_branch", runsFor: "soon", colour: "red" }]
          })
        )
      )
      expect(error._tag).toBe("InvalidSeed")
      const text = error.problems.join("\n")
      expect(text).toContain("projects.0.id")
      expect(text).toContain("projects.0.pg_version")
      expect(text).toContain("operations.0.runsFor")
      expect(text).toContain("operations.0.colour")
    })
  )
})
