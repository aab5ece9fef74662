/**
 * Requests per second and per-request time of the SDK client against the fake platform served
 * on a loopback port, beside a plain `fetch` + `JSON.parse` of the same requests on the same
 * server. Run with `pnpm --filter @dbplatform/testing bench`; `bench/summary.mjs` prints the
 * ratio and the client's overhead per request from the results.
 */
import { createServer } from "node:http"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { DbPlatform, Operations, Projects } from "@dbplatform/client"
import { OperationId, ProjectId } from "@dbplatform/core"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Redacted from "effect/Redacted"
import { afterAll, bench, describe } from "vitest"
import { FakePlatform, Seed } from "../src/index.js"

const seed = Seed.realistic()
const projectId = ProjectId.make(seed.projects![0]!.id)

const server = ManagedRuntime.make(
  FakePlatform.layerServer.pipe(
    Layer.provideMerge(FakePlatform.layer(seed)),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
  )
)
const { apiKey, baseUrl } = await server.runPromise(
  Effect.all({
    apiKey: Effect.map(FakePlatform.FakePlatform, (fake) => fake.bootstrapKey),
    baseUrl: FakePlatform.serverBaseUrl
  })
)
const headers = { authorization: `Bearer ${Redacted.value(apiKey)}`, accept: "application/json" }

const client = ManagedRuntime.make(DbPlatform.layer({ baseUrl, apiKey }).pipe(Layer.provide(FetchHttpClient.layer)))
const { operations, projects } = await client.runPromise(
  Effect.all({ operations: Operations.Operations, projects: Projects.Projects })
)
const operationId = OperationId.make(
  (await client.runPromise(operations.page(projectId, { limit: 1 }))).operations[0]!.id
)

afterAll(async () => {
  await client.dispose()
  await server.dispose()
})

const fetchJson = async (path: string) => {
  const response = await fetch(`${baseUrl}${path}`, { headers })
  if (!response.ok) throw new Error(`${response.status} on ${path}`)
  return JSON.parse(await response.text()) as unknown
}

const options = { time: 3000, warmupTime: 500 }

describe("GET /projects/{project_id}/operations?limit=10", () => {
  bench(
    "fetch + JSON.parse",
    () => fetchJson(`/projects/${projectId}/operations?limit=10`).then(() => undefined),
    options
  )
  bench(
    "client: Operations.page",
    () => client.runPromise(operations.page(projectId, { limit: 10 })).then(() => undefined),
    options
  )
})

describe("GET /projects/{project_id}/operations/{operation_id}", () => {
  bench(
    "fetch + JSON.parse",
    () => fetchJson(`/projects/${projectId}/operations/${operationId}`).then(() => undefined),
    options
  )
  bench(
    "client: Operations.get",
    () => client.runPromise(operations.get(projectId, operationId)).then(() => undefined),
    options
  )
})

describe("GET /projects", () => {
  bench("fetch + JSON.parse", () => fetchJson("/projects").then(() => undefined), options)
  bench("client: Projects.page", () => client.runPromise(projects.page()).then(() => undefined), options)
})
