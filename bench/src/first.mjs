// @ts-check
/**
 * Import + first request, in a fresh process: imports one contender's modules, builds its
 * client and reads one operation. Prints one JSON line: ms from the process's start
 * (`performance.now()`) to the end of the imports, and to the first answer decoded.
 *
 * The floor is the bare client without the platform's `http.client` span, as in `contenders.mjs`.
 *
 * `node first.mjs <fetch|floor|ours|sdk> <baseUrl> <apiKey> <projectId> <operationId>`
 *
 * Bundled as an application would be (esbuild, one file per contender), `process.env.BENCH_FIRST`
 * is replaced with the contender's name, so that the bundle holds only its branch.
 */
const [argument = "fetch", baseUrl = "", apiKey = "", projectId = "", operationId = ""] = process.argv.slice(2)
const name = process.env.BENCH_FIRST ?? argument
const path = `/projects/${projectId}/operations/${operationId}`
const headers = { authorization: `Bearer ${apiKey}`, accept: "application/json" }

/** @type {number} */
let imported
if (name === "fetch") {
  imported = performance.now()
  const response = await fetch(`${baseUrl}${path}`, { headers })
  if (!response.ok) throw new Error(`${response.status}`)
  JSON.parse(await response.text())
} else if (name === "floor") {
  const [FetchHttpClient, HttpClient, HttpClientResponse, { Api }, Effect] = await Promise.all([
    import("@effect/platform/FetchHttpClient"),
    import("@effect/platform/HttpClient"),
    import("@effect/platform/HttpClientResponse"),
    import("@dbplatform/core"),
    import("effect/Effect")
  ])
  imported = performance.now()
  await Effect.runPromise(
    Effect.gen(function* () {
      const client = HttpClient.filterStatusOk(
        HttpClient.withTracerDisabledWhen(yield* HttpClient.HttpClient, () => true)
      )
      const response = yield* client.get(`${baseUrl}${path}`, { headers })
      return yield* HttpClientResponse.schemaBodyJson(Api.Operations.get.success)(response)
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )
} else if (name === "ours") {
  const [FetchHttpClient, { DbPlatform, Operations }, { OperationId, ProjectId }, Effect, Redacted] = await Promise.all(
    [
      import("@effect/platform/FetchHttpClient"),
      import("@dbplatform/client"),
      import("@dbplatform/core"),
      import("effect/Effect"),
      import("effect/Redacted")
    ]
  )
  imported = performance.now()
  await Effect.runPromise(
    Effect.flatMap(Operations.Operations, (operations) =>
      operations.get({ project_id: ProjectId.make(projectId), operation_id: OperationId.make(operationId) })
    ).pipe(
      Effect.provide(DbPlatform.layer({ baseUrl, apiKey: Redacted.make(apiKey) })),
      Effect.provide(FetchHttpClient.layer)
    )
  )
} else {
  const { createNeonClient } = await import("@neon/sdk")
  imported = performance.now()
  const neon = createNeonClient({ apiKey, baseUrl, throwOnError: true })
  await neon.operations.get({ projectId, operationId })
}
process.stdout.write(`${JSON.stringify({ name, importMs: imported, firstMs: performance.now() })}\n`)
