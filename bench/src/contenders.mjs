// @ts-check
/**
 * The four contenders, each sending the same requests one at a time:
 *
 * - `fetch`: the global `fetch` and `JSON.parse`, no checks but the status;
 * - `floor` ("the Effect floor"): a bare `FetchHttpClient` from `@effect/platform`, its own
 *   per-request `http.client` span turned off (`HttpClient.withTracerDisabledWhen(() => true)`, as
 *   our client turns it off: it makes one span per call of its own), with
 *   `HttpClientResponse.schemaBodyJson` and core's schemas (each endpoint's `success` schema);
 * - `ours`: `@dbplatform/client` with its defaults (`DbPlatform.layer` over `FetchHttpClient`);
 * - `sdk`: the platform's official TypeScript SDK, `@neon/sdk` 6.1.2 (`createNeonClient`);
 * - `baseline`, only when `BENCH_BASELINE` names another build of our client (`builds.mjs`):
 *   that build, as `ours`, on its own copy of `effect` (before and after a change, in one run).
 *
 * Effect contenders run their requests in one Effect (a loop of `yield*`), as an Effect program
 * does; the others in an `async` loop.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { DbPlatform, Operations, Projects } from "@dbplatform/client"
import { Api, Operation, OperationId, ProjectId } from "@dbplatform/core"
import { createNeonClient } from "@neon/sdk"
import { listProjectOperations } from "@neon/sdk/raw"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { baselineDist, clientLayer, fetchLayer, operationCalls, projectsPage } from "./builds.mjs"

/** @typedef {"operation" | "projects" | "operations10"} Request */
/** @typedef {"fetch" | "floor" | "ours" | "baseline" | "sdk"} Name */

/**
 * @typedef {object} Target
 * @property {string} baseUrl with `/api/v2`
 * @property {string} apiKey
 * @property {string} projectId
 * @property {string} operationId
 */

/**
 * @typedef {object} Contender
 * @property {(request: Request, n: number) => Promise<void>} run sends `request` `n` times, one at a time
 * @property {() => Promise<void>} dispose
 */

/** @type {ReadonlyArray<Name>} */
export const names =
  baselineDist === undefined ? ["fetch", "floor", "ours", "sdk"] : ["fetch", "floor", "ours", "baseline", "sdk"]

/** @type {Record<Name, string>} */
export const labels = {
  fetch: "fetch + JSON.parse",
  floor: "Effect floor (no http.client span)",
  ours: "@dbplatform/client",
  baseline: "@dbplatform/client before (BENCH_BASELINE)",
  sdk: "@neon/sdk 6.1.2"
}

/** This workspace's build of our client, and the `effect` it runs on. */
/** @type {import("./builds.mjs").ClientModules} */
export const ownModules = {
  DbPlatform,
  Operations,
  Projects,
  ProjectId,
  Operation,
  OperationId,
  Effect,
  Layer,
  ManagedRuntime,
  Redacted,
  Schedule,
  Schema,
  Stream,
  FetchHttpClient
}

/**
 * The path (after `/api/v2`) of each request.
 * @param {Target} target
 * @returns {Record<Request, string>}
 */
export const paths = (target) => ({
  operation: `/projects/${target.projectId}/operations/${target.operationId}`,
  projects: "/projects",
  operations10: `/projects/${target.projectId}/operations?limit=10`
})

/**
 * @param {Target} target
 * @param {typeof globalThis.fetch} [fetchFunction] the `fetch` to send with (to count requests)
 * @returns {Contender}
 */
export const fetchContender = (target, fetchFunction = globalThis.fetch) => {
  const headers = { authorization: `Bearer ${target.apiKey}`, accept: "application/json" }
  const urls = paths(target)
  return {
    run: async (request, n) => {
      const url = `${target.baseUrl}${urls[request]}`
      for (let i = 0; i < n; i++) {
        const response = await fetchFunction(url, { headers })
        if (!response.ok) throw new Error(`${response.status} on ${url}`)
        JSON.parse(await response.text())
      }
    },
    dispose: async () => {}
  }
}

/**
 * The Effect floor: `FetchHttpClient` without the platform's per-request `http.client` span
 * (`withTracerDisabledWhen(() => true)`), `filterStatusOk`, `schemaBodyJson` with the endpoint's
 * `success` schema.
 * @param {Target} target
 * @param {typeof globalThis.fetch} [fetchFunction]
 * @returns {Contender}
 */
export const floorContender = (target, fetchFunction) => {
  const runtime = ManagedRuntime.make(fetchLayer(ownModules, fetchFunction))
  const headers = { authorization: `Bearer ${target.apiKey}`, accept: "application/json" }
  const urls = paths(target)
  const success = {
    operation: Api.Operations.get.success,
    projects: Api.Projects.list.success,
    operations10: Api.Operations.list.success
  }
  return {
    run: (request, n) =>
      runtime.runPromise(
        Effect.gen(function* () {
          const client = HttpClient.filterStatusOk(
            HttpClient.withTracerDisabledWhen(yield* HttpClient.HttpClient, () => true)
          )
          const url = `${target.baseUrl}${urls[request]}`
          /** @type {(response: HttpClientResponse.HttpClientResponse) => Effect.Effect<unknown, unknown>} */
          const decode = HttpClientResponse.schemaBodyJson(/** @type {any} */ (success[request]))
          for (let i = 0; i < n; i++) {
            yield* Effect.flatMap(client.get(url, { headers }), decode)
          }
        })
      ),
    dispose: () => runtime.dispose()
  }
}

/**
 * The layer of this workspace's client with its defaults over `FetchHttpClient` (with `fetchFunction`).
 * @param {Target} target
 * @param {typeof globalThis.fetch} [fetchFunction]
 */
export const oursLayer = (target, fetchFunction) => clientLayer(ownModules, target, fetchFunction)

/**
 * Our client, of the build `modules` come from (this workspace's, or the baseline's).
 * @param {import("./builds.mjs").ClientModules} modules
 * @param {Target} target
 * @param {typeof globalThis.fetch} [fetchFunction]
 * @returns {Contender}
 */
export const clientContender = (modules, target, fetchFunction) => {
  const { Effect, ManagedRuntime, OperationId, Operations, ProjectId, Projects } = modules
  const runtime = ManagedRuntime.make(clientLayer(modules, target, fetchFunction))
  const project_id = ProjectId.make(target.projectId)
  const operation_id = OperationId.make(target.operationId)
  return {
    run: (request, n) =>
      runtime.runPromise(
        Effect.gen(function* () {
          const operations = operationCalls(yield* Operations.Operations)
          const projects = yield* Projects.Projects
          const call =
            request === "operation"
              ? operations.get({ project_id, operation_id })
              : request === "projects"
                ? projectsPage(projects)()
                : operations.listPage({ project_id, limit: 10 })
          for (let i = 0; i < n; i++) yield* call
        })
      ),
    dispose: () => runtime.dispose()
  }
}

/**
 * Our client over `@dbplatform/testing`'s fake in memory, as a user's test suite has it:
 * `DbPlatformTest.layer({ seed: Seed.realistic() })` of the build `testing` come from (the client
 * with its defaults over `FakeHttpClient`, the fake answering in the caller's fiber). GET one
 * operation reads the newest operation of the first project `GET /projects` answers (both read
 * once, before the first timed request).
 * @param {import("./builds.mjs").TestingModules} testing
 * @returns {Contender}
 */
export const fakeContender = (testing) => {
  const { DbPlatformTest, Effect, ManagedRuntime, Operations, Projects, Seed } = testing
  const runtime = ManagedRuntime.make(DbPlatformTest.layer({ seed: Seed.realistic() }))
  const calls = runtime.runPromise(
    Effect.gen(function* () {
      const operations = operationCalls(yield* Operations.Operations)
      const listProjects = projectsPage(yield* Projects.Projects)
      const project = (yield* listProjects()).projects[0]
      if (project === undefined) throw new Error("the realistic seed has no project")
      const operation = (yield* operations.listPage({ project_id: project.id, limit: 1 })).operations[0]
      if (operation === undefined) throw new Error(`the realistic seed's project ${project.id} has no operation`)
      return {
        operation: operations.get({ project_id: project.id, operation_id: operation.id }),
        projects: listProjects()
      }
    })
  )
  return {
    run: async (request, n) => {
      if (request === "operations10") throw new Error("the fake contender sends GET one operation and GET /projects")
      const call = (await calls)[request]
      await runtime.runPromise(
        Effect.gen(function* () {
          for (let i = 0; i < n; i++) yield* call
        })
      )
    },
    dispose: () => runtime.dispose()
  }
}

/**
 * The official SDK's client, throwing on errors.
 * @param {Target} target
 * @param {typeof globalThis.fetch} [fetchFunction]
 */
export const sdkClient = (target, fetchFunction) =>
  createNeonClient({
    apiKey: target.apiKey,
    baseUrl: target.baseUrl,
    throwOnError: true,
    ...(fetchFunction === undefined ? {} : { fetch: fetchFunction })
  })

/**
 * The official SDK: `operations.get`, `projects.list().page()`, and its raw
 * `listProjectOperations` for a page with `limit` (its `operations.list` sends no `limit`).
 * @param {Target} target
 * @param {typeof globalThis.fetch} [fetchFunction]
 * @returns {Contender}
 */
export const sdkContender = (target, fetchFunction) => {
  const neon = sdkClient(target, fetchFunction)
  const { projectId, operationId } = target
  return {
    run: async (request, n) => {
      for (let i = 0; i < n; i++) {
        if (request === "operation") await neon.operations.get({ projectId, operationId })
        else if (request === "projects") await neon.projects.list().page()
        else {
          await listProjectOperations({
            client: neon.client,
            path: { project_id: projectId },
            query: { limit: 10 },
            throwOnError: true
          })
        }
      }
    },
    dispose: async () => {}
  }
}

/**
 * @param {Name} name
 * @param {Target} target
 * @param {typeof globalThis.fetch} [fetchFunction] the `fetch` every contender sends with (the global one by default)
 * @param {import("./builds.mjs").ClientModules} [baseline] the baseline build's modules, for `baseline`
 * @returns {Contender}
 */
export const contender = (name, target, fetchFunction, baseline) => {
  switch (name) {
    case "fetch":
      return fetchContender(target, fetchFunction)
    case "floor":
      return floorContender(target, fetchFunction)
    case "ours":
      return clientContender(ownModules, target, fetchFunction)
    case "baseline":
      if (baseline === undefined) throw new Error("the baseline contender needs BENCH_BASELINE")
      return clientContender(baseline, target, fetchFunction)
    case "sdk":
      return sdkContender(target, fetchFunction)
  }
}
