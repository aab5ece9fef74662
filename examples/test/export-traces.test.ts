/**
 * The OpenTelemetry example (src/export-traces.ts) against the fake, its spans caught by an
 * `InMemorySpanExporter`: one client span per call, named after its endpoint, a child of the
 * application's span, with the attributes the client README lists; the failed call's span says
 * so; the API key is in no span.
 */
import { DbPlatformTest, Seed } from "@dbplatform/testing"
import { expect, it } from "@effect/vitest"
import { SpanKind, SpanStatusCode } from "@opentelemetry/api"
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base"
import * as Effect from "effect/Effect"
import * as util from "node:util"
import { layerTracing, program } from "../src/export-traces.js"

/** A key easy to spot; its tail alone counts as a leak too. */
const apiKey = `dbp_${"tr4c3d".repeat(5)}_0123456789abcdef`
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

it.effect("exports one client span per call, with its route, status and request id, and no secret", () =>
  Effect.gen(function* () {
    const exporter = new InMemorySpanExporter()
    // Read before the Layer is released: shutting the provider down empties the exporter.
    const spans = yield* program.pipe(
      Effect.zipRight(Effect.sync(() => exporter.getFinishedSpans())),
      Effect.provide(layerTracing(exporter))
    )

    expect(spans.map((span) => [span.name, span.kind])).toEqual([
      ["Projects.list", SpanKind.CLIENT],
      ["Operations.list", SpanKind.CLIENT],
      ["Operations.get", SpanKind.CLIENT],
      ["ApiKeys.create", SpanKind.CLIENT],
      ["ApiKeys.revoke", SpanKind.CLIENT],
      ["ApiKeys.revoke", SpanKind.CLIENT],
      ["dbplatform-example", SpanKind.INTERNAL]
    ])
    const root = spans[6]!
    const calls = spans.slice(0, 6)
    expect(root.parentSpanContext).toBeUndefined()
    for (const span of calls) {
      expect(span.parentSpanContext?.spanId).toBe(root.spanContext().spanId)
      expect(span.spanContext().traceId).toBe(root.spanContext().traceId)
    }
    expect(root.resource.attributes["service.name"]).toBe("dbplatform-example")

    // Exactly these attributes: method, route template (never the path with its ids), status,
    // resend count, request id (one per call).
    const routes: ReadonlyArray<readonly [string, string, number]> = [
      ["GET", "/projects", 200],
      ["GET", "/projects/{project_id}/operations", 200],
      ["GET", "/projects/{project_id}/operations/{operation_id}", 200],
      ["POST", "/api_keys", 200],
      ["DELETE", "/api_keys/{key_id}", 200],
      ["DELETE", "/api_keys/{key_id}", 404]
    ]
    for (const [i, [method, route, status]] of routes.entries()) {
      expect(calls[i]!.attributes).toEqual({
        "http.request.method": method,
        "url.template": route,
        "http.response.status_code": status,
        "http.request.resend_count": 0,
        "dbplatform.request_id": expect.stringMatching(uuid)
      })
    }
    expect(new Set(calls.map((span) => span.attributes["dbplatform.request_id"])).size).toBe(6)

    // The five calls that succeeded end OK with no event; the second revoke (404) ends in ERROR
    // with one exception event: the error's tag and its message, which names the request id.
    for (const span of calls.slice(0, 5)) {
      expect(span.status.code).toBe(SpanStatusCode.OK)
      expect(span.events).toEqual([])
    }
    const failed = calls[5]!
    expect(failed.status.code).toBe(SpanStatusCode.ERROR)
    expect(failed.events.map((event) => event.name)).toEqual(["exception"])
    expect(failed.events[0]!.attributes?.["exception.type"]).toBe("NotFound")
    expect(String(failed.events[0]!.attributes?.["exception.message"])).toContain("404")
    expect(String(failed.events[0]!.attributes?.["exception.message"])).toContain(
      String(failed.attributes["dbplatform.request_id"])
    )

    // No part of the key in any span: name, attributes, events, status, resource, links.
    for (const span of spans) {
      const printed = util.inspect(
        {
          name: span.name,
          attributes: span.attributes,
          events: span.events,
          status: span.status,
          resource: span.resource.attributes,
          links: span.links
        },
        { depth: 12 }
      )
      expect(printed).not.toContain(apiKey)
      expect(printed).not.toContain(apiKey.slice(-16))
    }
  }).pipe(Effect.provide(DbPlatformTest.layer({ seed: Seed.realistic({ bootstrapKey: apiKey }) })))
)
