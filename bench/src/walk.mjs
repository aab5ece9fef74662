// @ts-check
/**
 * One walk of every operation of project `walk-<count>` on the canned server at pages of 1000,
 * by one contender, in a process of its own (run with `--expose-gc`), so that its peak RSS is
 * its own: it imports only that contender's modules. Prints one JSON line: the time (ms), the operations seen, the peak RSS (MB), and the
 * heap used after a forced GC before and after the walk (MB), the client being built and kept.
 *
 * The floor is the bare client without the platform's `http.client` span, as in `contenders.mjs`.
 *
 * `baseline` walks as `ours` does, with the build `BENCH_BASELINE` names (`builds.mjs`).
 *
 * `node --expose-gc walk.mjs <fetch|floor|ours|baseline|sdk> <count> <baseUrl> <apiKey>`
 */
import { baselineDist, clientLayer, loadBaseline, loadOwn, operationCalls } from "./builds.mjs"

const [name = "fetch", countText = "10000", baseUrl = "", apiKey = ""] = process.argv.slice(2)
const projectId = `walk-${countText}`
const pageSize = 1000
const headers = { authorization: `Bearer ${apiKey}`, accept: "application/json" }
const target = { baseUrl, apiKey, projectId, operationId: "" }
/** @param {string | undefined} cursor */
const pageUrl = (cursor) =>
  `${baseUrl}/projects/${projectId}/operations?limit=${pageSize}${cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`}`

/** @type {() => Promise<number>} */
let walk
/** @type {() => Promise<unknown>} */
let dispose = async () => undefined
/** @type {() => Promise<unknown>} */
let prepare = async () => undefined
if (name === "fetch") {
  walk = async () => {
    let seen = 0
    /** @type {string | undefined} */
    let cursor
    for (;;) {
      const response = await fetch(pageUrl(cursor), { headers })
      if (!response.ok) throw new Error(`${response.status}`)
      const page = JSON.parse(await response.text())
      seen += page.operations.length
      if (page.operations.length < pageSize) return seen
      cursor = page.pagination.cursor
    }
  }
} else if (name === "floor") {
  const [FetchHttpClient, HttpClient, HttpClientResponse, { Api }, Effect, ManagedRuntime] = await Promise.all([
    import("@effect/platform/FetchHttpClient"),
    import("@effect/platform/HttpClient"),
    import("@effect/platform/HttpClientResponse"),
    import("@dbplatform/core"),
    import("effect/Effect"),
    import("effect/ManagedRuntime")
  ])
  const runtime = ManagedRuntime.make(FetchHttpClient.layer)
  const decode = HttpClientResponse.schemaBodyJson(Api.Operations.list.success)
  walk = () =>
    runtime.runPromise(
      Effect.gen(function* () {
        const client = HttpClient.filterStatusOk(
          HttpClient.withTracerDisabledWhen(yield* HttpClient.HttpClient, () => true)
        )
        let seen = 0
        /** @type {string | undefined} */
        let cursor
        for (;;) {
          const page = yield* Effect.flatMap(client.get(pageUrl(cursor), { headers }), decode)
          seen += page.operations.length
          if (page.operations.length < pageSize) return seen
          cursor = page.pagination?.cursor
        }
      })
    )
  dispose = () => runtime.dispose()
  prepare = () => runtime.runtime()
} else if (name === "ours" || name === "baseline") {
  if (name === "baseline" && baselineDist === undefined) throw new Error("the baseline walk needs BENCH_BASELINE")
  const modules = name === "baseline" && baselineDist !== undefined ? await loadBaseline(baselineDist) : await loadOwn()
  const runtime = modules.ManagedRuntime.make(clientLayer(modules, target))
  const project_id = modules.ProjectId.make(projectId)
  walk = () =>
    runtime.runPromise(
      modules.Effect.flatMap(modules.Operations.Operations, (operations) =>
        modules.Stream.runCount(operationCalls(operations).list({ project_id }, { pageSize }))
      )
    )
  dispose = () => runtime.dispose()
  prepare = () => runtime.runtime()
} else {
  const [{ createNeonClient }, { listProjectOperations }] = await Promise.all([
    import("@neon/sdk"),
    import("@neon/sdk/raw")
  ])
  // As `sdkClient` in `contenders.mjs` makes it.
  const neon = createNeonClient({ apiKey, baseUrl, throwOnError: true })
  walk = async () => {
    let seen = 0
    /** @type {string | undefined} */
    let cursor
    for (;;) {
      const data = await listProjectOperations({
        client: neon.client,
        path: { project_id: projectId },
        query: { limit: pageSize, ...(cursor === undefined ? {} : { cursor }) },
        throwOnError: true
      })
      seen += data.operations.length
      if (data.operations.length < pageSize) return seen
      cursor = data.pagination?.cursor
    }
  }
}

const gc = /** @type {() => void} */ (globalThis.gc)
const mb = (/** @type {number} */ bytes) => bytes / 1024 / 1024
// The client is built before the baseline, so that the baseline holds what it keeps anyway; so is
// Node's `fetch` (every contender sends with it), which loads its modules on its first request.
await prepare()
await fetch(`${baseUrl}/projects/${projectId}/operations?limit=1`, { headers }).then((response) => response.text())
gc()
const baseline = process.memoryUsage().heapUsed
const started = performance.now()
const operations = await walk()
const ms = performance.now() - started
gc()
const after = process.memoryUsage().heapUsed
process.stdout.write(
  `${JSON.stringify({
    name,
    operations,
    ms,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    baselineHeapMb: mb(baseline),
    retainedHeapMb: mb(after - baseline)
  })}\n`
)
await dispose()
