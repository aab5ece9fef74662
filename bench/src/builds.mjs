// @ts-check
/**
 * The builds of `@dbplatform/client` a contender runs: this workspace's (`loadOwn`), and a second
 * one to run beside it, "before" beside "after": `BENCH_BASELINE` names its `dist` folder (e.g.
 * `/work/main/packages/client/dist`, a checkout of `main` built with `turbo run build`).
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
 * The modules a contender of our client uses, from one build and its own `effect`.
 * @typedef {object} ClientModules
 * @property {typeof import("@dbplatform/client").DbPlatform} DbPlatform
 * @property {typeof import("@dbplatform/client").Operations} Operations
 * @property {typeof import("@dbplatform/client").Projects} Projects
 * @property {typeof import("@dbplatform/core").ProjectId} ProjectId
 * @property {typeof import("@dbplatform/core").OperationId} OperationId
 * @property {typeof import("effect/Effect")} Effect
 * @property {typeof import("effect/Layer")} Layer
 * @property {typeof import("effect/ManagedRuntime")} ManagedRuntime
 * @property {typeof import("effect/Redacted")} Redacted
 * @property {typeof import("effect/Stream")} Stream
 * @property {typeof import("@effect/platform/FetchHttpClient")} FetchHttpClient
 */

/**
 * This workspace's build and the `effect` it runs on, imported when called (a process that walks
 * with the baseline loads no other client).
 * @returns {Promise<ClientModules>}
 */
export const loadOwn = async () => {
  const [{ DbPlatform, Operations, Projects }, { OperationId, ProjectId }, Effect, Layer, ManagedRuntime, Redacted] =
    await Promise.all([
      import("@dbplatform/client"),
      import("@dbplatform/core"),
      import("effect/Effect"),
      import("effect/Layer"),
      import("effect/ManagedRuntime"),
      import("effect/Redacted")
    ])
  const [Stream, FetchHttpClient] = await Promise.all([
    import("effect/Stream"),
    import("@effect/platform/FetchHttpClient")
  ])
  return {
    DbPlatform,
    Operations,
    Projects,
    OperationId,
    ProjectId,
    Effect,
    Layer,
    ManagedRuntime,
    Redacted,
    Stream,
    FetchHttpClient
  }
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

/** @type {Promise<ClientModules> | undefined} */
let loaded

/**
 * The baseline build's modules (imported once per process).
 * @param {string} dist
 * @returns {Promise<ClientModules>}
 */
export const loadBaseline = (dist) => {
  if (loaded !== undefined) return loaded
  const folder = mkdtempSync(join(tmpdir(), "dbplatform-bench-baseline-"))
  symlinkSync(join(dirname(dist), "node_modules"), join(folder, "node_modules"), "dir")
  const client = JSON.stringify(pathToFileURL(join(dist, "esm", "index.js")).href)
  writeFileSync(
    join(folder, "modules.mjs"),
    [
      `export { DbPlatform, Operations, Projects } from ${client}`,
      `export { OperationId, ProjectId } from "@dbplatform/core"`,
      ...["Effect", "Layer", "ManagedRuntime", "Redacted", "Stream"].map(
        (name) => `export * as ${name} from "effect/${name}"`
      ),
      `export * as FetchHttpClient from "@effect/platform/FetchHttpClient"`
    ].join("\n")
  )
  loaded = import(pathToFileURL(join(folder, "modules.mjs")).href)
  return loaded
}
