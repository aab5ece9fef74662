/**
 * The fake's project advisor (docs/contract.md §14.6): its checks over a database's schema as the
 * fake keeps it, kept by `category` and `min_severity`, the default branch without `branch_id`,
 * and what it refuses (the Data API off, several databases and no name, an unknown branch).
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as FakePlatform from "../src/FakePlatform.js"
import { projectId, send } from "./helpers.js"

const main = "br-main-100001"

const seed = {
  projects: [{ id: projectId }],
  branches: [{ project_id: projectId, id: main, name: "main", default: true }],
  roles: [{ branch_id: main, name: "owner" }],
  databases: [{ branch_id: main, name: "app", owner_name: "owner" }]
}

/** The status and JSON body of `GET /projects/{projectId}/advisors?{query}`. */
const advisors = (fake: FakePlatform.Service, query = "") =>
  Effect.gen(function* () {
    const response = yield* send(fake, HttpClientRequest.get(`/projects/${projectId}/advisors${query}`), {
      key: fake.bootstrapKey
    })
    return { status: response.status, body: (yield* response.json) as any }
  })

/** The fake of {@link seed} with `app`'s schema and its Data API on. */
const withSchema = Effect.gen(function* () {
  const fake = yield* FakePlatform.make(seed)
  yield* fake.scenario.migrate(
    projectId,
    main,
    "app",
    "CREATE TABLE public.users (id bigint PRIMARY KEY, email text);" +
      "CREATE TABLE public.orders (user_id bigint REFERENCES public.users (id), total numeric);" +
      "CREATE SCHEMA internal; CREATE TABLE internal.jobs (id bigint PRIMARY KEY)"
  )
  const on = yield* send(
    fake,
    yield* HttpClientRequest.bodyJson(
      HttpClientRequest.post(`/projects/${projectId}/branches/${main}/data-api/app`),
      {}
    ),
    { key: fake.bootstrapKey }
  )
  expect(on.status).toBe(201)
  return fake
})

describe("the project advisor (docs/contract.md §14.6)", () => {
  it.effect("finds RLS off in public, a foreign key without an index, a table without a primary key", () =>
    Effect.gen(function* () {
      const fake = yield* withSchema
      const { status, body } = yield* advisors(fake)
      expect(status).toBe(200)
      expect(body.issues.map((issue: any) => [issue.name, issue.level, issue.metadata.name])).toEqual([
        ["rls_disabled_in_public", "ERROR", "orders"],
        ["rls_disabled_in_public", "ERROR", "users"],
        ["unindexed_foreign_keys", "INFO", "orders"],
        ["no_primary_key", "INFO", "orders"]
      ])
      const first = body.issues.find((issue: any) => issue.name === "no_primary_key")
      expect(first).toMatchObject({
        facing: "INTERNAL",
        categories: ["PERFORMANCE"],
        detail: "Table `public.orders` does not have a primary key.",
        cache_key: "no_primary_key_public_orders"
      })
    })
  )

  it.effect("min_severity is a floor and category a filter", () =>
    Effect.gen(function* () {
      const fake = yield* withSchema
      const errors = yield* advisors(fake, "?min_severity=WARN")
      expect(errors.body.issues.map((issue: any) => issue.level)).toEqual(["ERROR", "ERROR"])
      const performance = yield* advisors(fake, `?branch_id=${main}&database_name=app&category=PERFORMANCE`)
      expect(performance.body.issues.map((issue: any) => issue.name)).toEqual([
        "unindexed_foreign_keys",
        "no_primary_key"
      ])
      expect((yield* advisors(fake, "?min_severity=LOW")).status).toBe(400)
    })
  )

  it.effect(
    "refuses: the Data API off (400), several databases and no name (400), unknown branch or database (404)",
    () =>
      Effect.gen(function* () {
        const fake = yield* FakePlatform.make({
          ...seed,
          databases: [...seed.databases, { branch_id: main, name: "other", owner_name: "owner" }]
        })
        expect((yield* advisors(fake, "?database_name=app")).status).toBe(400)
        expect((yield* advisors(fake)).status).toBe(400)
        expect((yield* advisors(fake, "?branch_id=br-none-100009")).status).toBe(404)
        expect((yield* advisors(fake, "?database_name=nothing")).status).toBe(404)
      })
  )
})
