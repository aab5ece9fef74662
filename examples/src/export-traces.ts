/**
 * Exports the SDK's spans with OpenTelemetry (`@effect/opentelemetry`). Each call is one span of
 * kind client named after its endpoint (`Projects.list`, `Operations.get`, `ApiKeys.revoke`...),
 * a child of the application's span around it, with `http.request.method`, `url.template`,
 * `http.response.status_code` (or `error.type` when no response came), `http.request.resend_count`
 * and `dbplatform.request_id`; a failed call's span has status ERROR and an `exception` event
 * with the error's message. The API key is in none of them. Here a `ConsoleSpanExporter` prints
 * each span as it ends; an application puts its own exporter (OTLP...) in its place, behind a
 * `BatchSpanProcessor`. Run: `node examples/build/src/export-traces.js`.
 */
import { ApiKeys, Operations, Projects } from "@dbplatform/client"
import * as NodeSdk from "@effect/opentelemetry/NodeSdk"
import { ConsoleSpanExporter, SimpleSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import type * as Resource from "@effect/opentelemetry/Resource"
import { fileURLToPath } from "node:url"
import { run } from "./run.js"

/**
 * Effect's tracer backed by an OpenTelemetry `NodeTracerProvider` that hands each span to
 * `exporter` as it ends; the provider is flushed and shut down when the Layer is released.
 */
export const layerTracing = (exporter: SpanExporter): Layer.Layer<Resource.Resource> =>
  NodeSdk.layer(() => ({
    resource: { serviceName: "dbplatform-example" },
    spanProcessor: new SimpleSpanProcessor(exporter)
  }))

/** Six calls under one span of the application's: five that succeed and one that fails. */
export const program = Effect.gen(function* () {
  const projects = yield* Projects.Projects
  const operations = yield* Operations.Operations
  const apiKeys = yield* ApiKeys.ApiKeys
  const page = yield* projects.listPage({ limit: 5 }) // span Projects.list
  const project = page.projects[0]!
  const latest = yield* operations.listPage({ project_id: project.id, limit: 1 }) // span Operations.list
  const { operation } = yield* operations.get({ project_id: project.id, operation_id: latest.operations[0]!.id }) // span Operations.get
  const created = yield* apiKeys.create({ key_name: "traced" }) // span ApiKeys.create
  yield* apiKeys.revoke({ key_id: created.id }) // span ApiKeys.revoke
  // Revoking it again answers 404: the span ends with status ERROR and http.response.status_code 404.
  const again = yield* apiKeys.revoke({ key_id: created.id }).pipe(
    Effect.as("revoked twice?"),
    Effect.catchTag("NotFound", (error) => Effect.succeed(`second revoke: ${error._tag} (${error.status})`))
  )
  return [
    `${page.projects.length} projects; ${project.id}'s latest operation: ${operation.action} ${operation.status}`,
    `created and revoked key ${created.id}; ${again}`
  ].join("\n")
}).pipe(Effect.withSpan("dbplatform-example"))

// Run when started with node, not when the test imports it.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  run(program.pipe(Effect.provide(layerTracing(new ConsoleSpanExporter()))))
}
