// @ts-check
/**
 * The builds of `@dbplatform/client` a contender runs: this workspace's (`loadOwn`), and a second
 * one to run beside it, "before" beside "after": `BENCH_BASELINE` names its `dist` folder (e.g.
 * `/work/main/packages/client/dist`, a checkout of `main` built with `turbo run build`). The
 * test-suite section also runs that checkout's `@dbplatform/testing` (`loadBaselineTesting`):
 * `BENCH_BASELINE_TESTING` names its `dist` folder, `packages/testing/dist` of the same checkout
 * by default.
 *
 * That build must run on its own copy of `effect` and `@effect/platform` (those its package
 * resolves), not this workspace's: an Effect value of one copy is not one of the other. So its
 * modules are imported through a module written to a temporary folder whose `node_modules` is
 * a link to the baseline package's own: the bare imports of both resolve to the same files.
 */
import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { pathToFileURL } from "node:url"

/** The `dist` folder of the baseline build, or `undefined` when `BENCH_BASELINE` is not set. */
export const baselineDist = process.env.BENCH_BASELINE === undefined ? undefined : resolve(process.env.BENCH_BASELINE)

/**
 * The `dist` folder of the baseline's `@dbplatform/testing`: `BENCH_BASELINE_TESTING`, or the
 * `testing` package beside the baseline's client (`<checkout>/packages/testing/dist`);
 * `undefined` when `BENCH_BASELINE` is not set.
 */
export const baselineTestingDist =
  process.env.BENCH_BASELINE_TESTING !== undefined
    ? resolve(process.env.BENCH_BASELINE_TESTING)
    : baselineDist === undefined
      ? undefined
      : join(dirname(dirname(baselineDist)), "testing", "dist")

/**
 * The modules a contender of our client uses, from one build and its own `effect`.
 * @typedef {object} ClientModules
 * @property {typeof import("@dbplatform/client").DbPlatform} DbPlatform
 * @property {typeof import("@dbplatform/client").Operations} Operations
 * @property {typeof import("@dbplatform/client").Projects} Projects
 * @property {typeof import("@dbplatform/core").ProjectId} ProjectId
 * @property {typeof import("@dbplatform/core").OperationId} OperationId
 * @property {typeof import("@dbplatform/core").Operation} Operation
 * @property {typeof import("effect/Effect")} Effect
 * @property {typeof import("effect/Layer")} Layer
 * @property {typeof import("effect/ManagedRuntime")} ManagedRuntime
 * @property {typeof import("effect/Redacted")} Redacted
 * @property {typeof import("effect/Schedule")} Schedule
 * @property {typeof import("effect/Schema")} Schema
 * @property {typeof import("effect/Stream")} Stream
 * @property {typeof import("@effect/platform/FetchHttpClient")} FetchHttpClient
 */

/**
 * The modules a test suite of our client uses, from one build of `@dbplatform/testing`: the
 * client services and `effect` its `DbPlatformTest.layer` builds with (those its package resolves).
 * @typedef {object} TestingModules
 * @property {typeof import("@dbplatform/testing").DbPlatformTest} DbPlatformTest
 * @property {typeof import("@dbplatform/testing").Seed} Seed
 * @property {typeof import("@dbplatform/client").Operations} Operations
 * @property {typeof import("@dbplatform/client").Projects} Projects
 * @property {typeof import("effect/Effect")} Effect
 * @property {typeof import("effect/ManagedRuntime")} ManagedRuntime
 */

/**
 * This workspace's build and the `effect` it runs on, imported when called (a process that walks
 * with the baseline loads no other client).
 * @returns {Promise<ClientModules>}
 */
export const loadOwn = async () => {
  const [
    { DbPlatform, Operations, Projects },
    { Operation, OperationId, ProjectId },
    Effect,
    Layer,
    ManagedRuntime,
    Redacted
  ] = await Promise.all([
    import("@dbplatform/client"),
    import("@dbplatform/core"),
    import("effect/Effect"),
    import("effect/Layer"),
    import("effect/ManagedRuntime"),
    import("effect/Redacted")
  ])
  const [Schedule, Schema, Stream, FetchHttpClient] = await Promise.all([
    import("effect/Schedule"),
    import("effect/Schema"),
    import("effect/Stream"),
    import("@effect/platform/FetchHttpClient")
  ])
  return {
    DbPlatform,
    Operations,
    Projects,
    Operation,
    OperationId,
    ProjectId,
    Effect,
    Layer,
    ManagedRuntime,
    Redacted,
    Schedule,
    Schema,
    Stream,
    FetchHttpClient
  }
}

/**
 * This workspace's `@dbplatform/testing`, with the client and `effect` it resolves, imported when
 * called.
 * @returns {Promise<TestingModules>}
 */
export const loadOwnTesting = async () => {
  const [{ DbPlatformTest, Seed }, { Operations, Projects }, Effect, ManagedRuntime] = await Promise.all([
    import("@dbplatform/testing"),
    import("@dbplatform/client"),
    import("effect/Effect"),
    import("effect/ManagedRuntime")
  ])
  return { DbPlatformTest, Seed, Operations, Projects, Effect, ManagedRuntime }
}

/**
 * `FetchHttpClient.layer` (of the `effect` copy `modules` come from), sending with
 * `fetchFunction` when given.
 * @param {Pick<ClientModules, "FetchHttpClient" | "Layer">} modules
 * @param {typeof globalThis.fetch} [fetchFunction]
 */
export const fetchLayer = ({ FetchHttpClient, Layer }, fetchFunction) =>
  fetchFunction === undefined
    ? FetchHttpClient.layer
    : Layer.provide(FetchHttpClient.layer, Layer.succeed(FetchHttpClient.Fetch, fetchFunction))

/**
 * The layer of our client (of the build `modules` come from) with its defaults over
 * `FetchHttpClient` (with `fetchFunction`).
 * @param {ClientModules} modules
 * @param {{ readonly baseUrl: string, readonly apiKey: string }} target
 * @param {typeof globalThis.fetch} [fetchFunction]
 */
export const clientLayer = (modules, target, fetchFunction) => {
  const { DbPlatform, Layer, Redacted } = modules
  return DbPlatform.layer({ baseUrl: target.baseUrl, apiKey: Redacted.make(target.apiKey) }).pipe(
    Layer.provide(fetchLayer(modules, fetchFunction))
  )
}

/**
 * The `Operations` service of a build of our client as the contenders call it: this workspace's,
 * whose methods take one input object (`get({ project_id, operation_id })`,
 * `listPage({ project_id, limit })`, `list({ project_id }, { pageSize })`), or a baseline's built
 * before that shape (`get(projectId, operationId)`, `page(projectId, { limit })`,
 * `list(projectId, { pageSize })`), whose methods are put in the same shape.
 * @param {import("@dbplatform/client").Operations.Service} operations
 * @returns {Pick<import("@dbplatform/client").Operations.Service, "get" | "listPage" | "list">}
 */
export const operationCalls = (operations) => {
  if (typeof operations.listPage === "function") return operations
  /** @type {any} the positional methods of a build before one input object per call */
  const positional = operations
  return {
    get: (input) => positional.get(input.project_id, input.operation_id),
    listPage: ({ project_id, ...options }) => positional.page(project_id, options),
    list: (input, options) => positional.list(input.project_id, options)
  }
}

/**
 * `projects.listPage()` of a build of our client (`projects.page()` before one input object per
 * call; see {@link operationCalls}).
 * @param {import("@dbplatform/client").Projects.Service} projects
 * @returns {import("@dbplatform/client").Projects.Service["listPage"]}
 */
export const projectsPage = (projects) => {
  if (typeof projects.listPage === "function") return projects.listPage
  /** @type {any} */
  const positional = projects
  return () => positional.page()
}

/**
 * Imports `lines` (a module's source) written to a new temporary folder whose `node_modules` is a
 * link to `packageDist`'s package's own, so that its bare imports resolve as that package's do.
 * @param {string} packageDist
 * @param {ReadonlyArray<string>} lines
 * @returns {Promise<any>}
 */
const importBeside = (packageDist, lines) => {
  const folder = mkdtempSync(join(tmpdir(), "dbplatform-bench-baseline-"))
  symlinkSync(join(dirname(packageDist), "node_modules"), join(folder, "node_modules"), "dir")
  writeFileSync(join(folder, "modules.mjs"), lines.join("\n"))
  return import(pathToFileURL(join(folder, "modules.mjs")).href)
}

/** @type {Promise<ClientModules> | undefined} */
let loaded

/**
 * The baseline build's modules (imported once per process).
 * @param {string} dist
 * @returns {Promise<ClientModules>}
 */
export const loadBaseline = (dist) => {
  if (loaded !== undefined) return loaded
  const client = JSON.stringify(pathToFileURL(join(dist, "esm", "index.js")).href)
  loaded = importBeside(dist, [
    `export { DbPlatform, Operations, Projects } from ${client}`,
    `export { Operation, OperationId, ProjectId } from "@dbplatform/core"`,
    ...["Effect", "Layer", "ManagedRuntime", "Redacted", "Schedule", "Schema", "Stream"].map(
      (name) => `export * as ${name} from "effect/${name}"`
    ),
    `export * as FetchHttpClient from "@effect/platform/FetchHttpClient"`
  ])
  return loaded
}

/** @type {Promise<TestingModules> | undefined} */
let loadedTesting

/**
 * The baseline's `@dbplatform/testing` (its `dist` folder), with the client and `effect` its
 * package resolves (imported once per process). For a checkout's own `testing` and client, that
 * client is the module `loadBaseline` imports, on the same `effect`.
 * @param {string} dist
 * @returns {Promise<TestingModules>}
 */
export const loadBaselineTesting = (dist) => {
  if (loadedTesting !== undefined) return loadedTesting
  const testing = JSON.stringify(pathToFileURL(join(dist, "esm", "index.js")).href)
  loadedTesting = importBeside(dist, [
    `export { DbPlatformTest, Seed } from ${testing}`,
    `export { Operations, Projects } from "@dbplatform/client"`,
    ...["Effect", "ManagedRuntime"].map((name) => `export * as ${name} from "effect/${name}"`)
  ])
  return loadedTesting
}
