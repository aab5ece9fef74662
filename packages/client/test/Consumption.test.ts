/**
 * The consumption history's `org_id` (`docs/contract.md` §23): the platform requires it, and the
 * client's `orgId` (`DBPLATFORM_ORG_ID`) fills it in, so the methods' input types take it as
 * optional; a call that names none on a client that has none is an `InvalidRequest` saying where
 * an organization comes from, and nothing is sent.
 */
import type { Endpoint } from "@dbplatform/core"
import type * as Api from "@dbplatform/core/Api"
import { describe, expect, expectTypeOf, it } from "@effect/vitest"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import { Consumption, DbPlatform, type DbPlatformClient } from "../src/index.js"
import { baseUrl, projectId, secret } from "./fixtures.js"
import { json, type Scripted, scripted } from "./scripted.js"

const layerFor = (script: Scripted, orgId?: string) =>
  Layer.orDie(
    DbPlatform.layer({ baseUrl, apiKey: Redacted.make(secret), retrySchedule: Schedule.stop, orgId }).pipe(
      Layer.provide(script.layer)
    )
  )

const range = {
  from: DateTime.unsafeMake("2026-11-01T00:00:00Z"),
  to: DateTime.unsafeMake("2026-11-02T00:00:00Z"),
  granularity: "hourly",
  metrics: ["compute_unit_seconds"]
} as const

/** The `org_id` a request sent. */
const orgOf = (script: Scripted, n: number) => new URL(script.requests[n]!.url).searchParams.get("org_id")

describe("Consumption's org_id", () => {
  it.effect("the client's orgId fills it in: a call need not name it, and one that does sends its own", () => {
    const script = scripted((request) =>
      request.url.includes("/v2/branches") ? json(200, { branches: [] }) : json(200, { projects: [] })
    )
    return Effect.gen(function* () {
      const consumption = yield* Consumption.Consumption
      yield* consumption.listProjectsPage(range)
      yield* Stream.runDrain(consumption.listBranches({ ...range, project_ids: [projectId] }))
      yield* consumption.listProjectsPage({ ...range, org_id: "org-other-100001" })
      expect([orgOf(script, 0), orgOf(script, 1), orgOf(script, 2)]).toEqual([
        "org-acme-302709",
        "org-acme-302709",
        "org-other-100001"
      ])
    }).pipe(Effect.provide(layerFor(script, "org-acme-302709")))
  })

  it.effect("neither given: InvalidRequest naming org_id and where it comes from, nothing sent", () => {
    const script = scripted([json(200, { projects: [] })])
    return Effect.gen(function* () {
      const consumption = yield* Consumption.Consumption
      const error = yield* Effect.flip(consumption.listProjectsPage(range))
      expect(error._tag).toBe("InvalidRequest")
      expect(error.message).toBe(
        "GET /consumption_history/v2/projects: org_id: is missing; name the organization (org_id) in the call, or give the client one (orgId, DBPLATFORM_ORG_ID for layerConfig)"
      )
      const streamed = yield* Effect.flip(
        Stream.runDrain(consumption.listBranches({ ...range, project_ids: [projectId] }))
      )
      expect(streamed.message).toContain("org_id: is missing; name the organization")
      expect(script.requests).toHaveLength(0)
      // Where org_id is optional on the wire (the legacy history), none is sent and none is needed.
      const legacy = scripted([json(200, { projects: [] })])
      yield* Effect.flatMap(Consumption.Consumption, (service) => service.listProjectsLegacyPage(range)).pipe(
        Effect.provide(layerFor(legacy))
      )
      expect(orgOf(legacy, 0)).toBeNull()
    }).pipe(Effect.provide(layerFor(script)))
  })

  it("types: org_id optional in every method whose query takes it, other keys as core declares them", () => {
    type Page = Parameters<Consumption.Service["listProjectsPage"]>[0]
    type Streamed = Parameters<Consumption.Service["listBranches"]>[0]
    // Optional here, required by the wire's declaration (core's Endpoint.Input).
    expectTypeOf<{}>().toMatchTypeOf<Pick<Page, "org_id">>()
    expectTypeOf<{}>().toMatchTypeOf<Pick<Streamed, "org_id">>()
    expectTypeOf<{}>().not.toMatchTypeOf<Pick<Endpoint.Input<typeof Api.Consumption.listProjects>, "org_id">>()
    expectTypeOf<typeof range>().toMatchTypeOf<Page>()
    expectTypeOf<typeof range & { readonly project_ids: ReadonlyArray<typeof projectId> }>().toMatchTypeOf<Streamed>()
    expectTypeOf<Page["from"]>().toEqualTypeOf<DateTime.Utc>()
    // The client's Input: the same for an endpoint whose query takes no org_id.
    expectTypeOf<DbPlatformClient.Input<typeof Api.Roles.get>>().toEqualTypeOf<Endpoint.Input<typeof Api.Roles.get>>()
  })
})
