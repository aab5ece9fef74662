/**
 * The program the size budget measures first (`scripts/size.mjs`): what a production user
 * bundles to list projects and wait for one operation, over `fetch`, configured from the
 * environment, providing only the two services it uses (a program bundles the endpoint groups of
 * the services it provides). Typechecked with the examples; bundled, not run.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { DbPlatformClient, Operations, Projects } from "@dbplatform/client"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
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

/** The two services, over one client configured from the environment. */
const services = Projects.layer.pipe(
  Layer.provideMerge(Operations.layer),
  Layer.provide(DbPlatformClient.layerConfig())
)

program
  .pipe(Effect.provide(services), Effect.provide(FetchHttpClient.layer), Effect.runPromise)
  .then(console.log, console.error)
