/**
 * The program the size budget measures second (`scripts/size.mjs`): the same as `minimal.ts`,
 * but providing every service at once (`DbPlatform.layerConfig()`), so it bundles every endpoint
 * group. Typechecked with the examples; bundled, not run.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { DbPlatform, Operations, Projects } from "@dbplatform/client"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"

const program = Effect.gen(function* () {
  const projects = yield* Projects.Projects
  const operations = yield* Operations.Operations
  const project = yield* projects.list().pipe(Stream.runHead, Effect.flatten)
  const latest = yield* operations.listPage({ project_id: project.id, limit: 1 })
  const operation = latest.operations[0]
  return operation === undefined
    ? "none"
    : (yield* operations.await({ project_id: project.id, operation_id: operation.id })).status
})

program
  .pipe(Effect.provide(DbPlatform.layerConfig()), Effect.provide(FetchHttpClient.layer), Effect.runPromise)
  .then(console.log, console.error)
