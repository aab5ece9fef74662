import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { ApiKeys, DbPlatform, Operations, Projects } from "@dbplatform/client"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { createServer } from "node:http"
import * as FakePlatform from "../src/FakePlatform.js"
import type { Seed } from "../src/Seed.js"
import { operationId, projectId } from "./helpers.js"

const seed: Seed = {
  projects: [{ id: projectId }, { id: "wispy-meadow-118737", age: "40 days" }],
  operations: [1, 2, 3].map((n) => ({
    project_id: projectId,
    id: operationId(n),
    action: "check_availability",
    endpoint_id: "ep-proud-mud-a5x8dq2u",
    age: `${n} minutes`
  }))
}

/** The fake served on an ephemeral port of 127.0.0.1; the server closes with the scope. */
const served = FakePlatform.layerServer.pipe(
  Layer.provideMerge(FakePlatform.layer(seed)),
  Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
)

/** Runs `self` with the real client over `fetch`, authenticated by `apiKey`. */
const overFetch = (baseUrl: string, apiKey: Redacted.Redacted<string>) =>
  Effect.provide(DbPlatform.layer({ baseUrl, apiKey }).pipe(Layer.provide(FetchHttpClient.layer)))

describe("over a real loopback socket", () => {
  it.live("the real client lists, pages, creates and revokes; the server closes with the test", () =>
    Effect.gen(function* () {
      const baseUrl = yield* Effect.gen(function* () {
        const fake = yield* FakePlatform.FakePlatform
        const baseUrl = yield* FakePlatform.serverBaseUrl
        expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v2$/)

        yield* Effect.gen(function* () {
          const projects = yield* Projects.Projects
          const operations = yield* Operations.Operations
          const apiKeys = yield* ApiKeys.ApiKeys

          const page = yield* projects.page()
          expect(page.projects.map((project) => project.id)).toEqual([projectId, "wispy-meadow-118737"])

          const first = yield* operations.page(projectId, { limit: 2 })
          expect(first.operations.map((operation) => operation.id)).toEqual([operationId(1), operationId(2)])
          const rest = yield* operations.page(projectId, { limit: 2, cursor: first.pagination!.cursor })
          expect(rest.operations.map((operation) => operation.id)).toEqual([operationId(3)])

          const created = yield* apiKeys.create("loopback")
          const withNew = yield* Projects.Projects.pipe(
            Effect.flatMap((projects) => projects.page({ limit: 1 })),
            overFetch(baseUrl, created.key)
          )
          expect(withNew.projects).toHaveLength(1)
          yield* apiKeys.revoke(created.id)
          const refused = yield* Projects.Projects.pipe(
            Effect.flatMap((projects) => projects.page()),
            overFetch(baseUrl, created.key),
            Effect.flip
          )
          expect(refused._tag).toBe("Unauthorized")

          // Over a socket the fake knows where a key was used from.
          const bootstrap = (yield* apiKeys.list()).find((key) => key.name === "bootstrap")!
          expect(bootstrap.last_used_from_addr).toContain("127.0.0.1")
        }).pipe(overFetch(baseUrl, fake.bootstrapKey))

        const anonymous = yield* Effect.promise(() => fetch(`${baseUrl}/projects`))
        expect(anonymous.status).toBe(401)
        expect(anonymous.headers.get("content-type")).toContain("application/json")
        const body = yield* Effect.promise(() => anonymous.json())
        expect(body).toMatchObject({ code: "", message: expect.any(String), request_id: expect.any(String) })
        return baseUrl
      }).pipe(Effect.provide(served))

      // The scope is closed: nothing listens there any more.
      const after = yield* Effect.either(Effect.tryPromise(() => fetch(`${baseUrl}/projects`)))
      expect(after._tag).toBe("Left")
    })
  )
})
