/**
 * One span per call (docs/design.md §1): named after the endpoint, kind `client`, with method,
 * route template, status, resend count and request id; no nested client span from the
 * platform's `HttpClient`; no secret in any span or its exit.
 */
import { ApiKeyId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import type * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import * as Tracer from "effect/Tracer"
import * as util from "node:util"
import { ApiKeys, DbPlatform, Operations, Projects } from "../src/index.js"
import { apiKeyCreated, baseUrl, operationId, operationItem, projectId, projectsPage } from "./fixtures.js"
import { json, type Recorded, type Reply, scripted } from "./scripted.js"

/** A key easy to spot, and its tail alone (a partial leak counts too). */
const apiKey = `dbp_${"tr4c3d".repeat(5)}_fedcba9876543210`

/** A span as the test tracer keeps it. */
class RecordedSpan implements Tracer.Span {
  readonly _tag = "Span"
  readonly spanId: string
  readonly traceId = "test-trace"
  readonly sampled = true
  readonly attributes = new Map<string, unknown>()
  readonly links: Array<Tracer.SpanLink>
  status: Tracer.SpanStatus
  constructor(
    readonly name: string,
    readonly parent: Option.Option<Tracer.AnySpan>,
    readonly context: Context.Context<never>,
    links: ReadonlyArray<Tracer.SpanLink>,
    startTime: bigint,
    readonly kind: Tracer.SpanKind,
    id: number
  ) {
    this.spanId = `span-${id}`
    this.links = [...links]
    this.status = { _tag: "Started", startTime }
  }
  end(endTime: bigint, exit: Exit.Exit<unknown, unknown>): void {
    this.status = { _tag: "Ended", startTime: this.status.startTime, endTime, exit }
  }
  attribute(key: string, value: unknown): void {
    this.attributes.set(key, value)
  }
  event(): void {}
  addLinks(links: ReadonlyArray<Tracer.SpanLink>): void {
    this.links.push(...links)
  }
}

/** Answers by route: a 503 on the first read of the operation, then the answers a server gives. */
const answer = (request: Recorded, index: number): Reply => {
  const path = new URL(request.url).pathname.replace("/api/v2", "")
  if (request.method === "POST") return json(200, apiKeyCreated)
  if (request.method === "DELETE") return json(200, { id: 42, name: "ci", revoked: true, last_used_from_addr: "" })
  if (path === "/api_keys") return json(200, [])
  if (path === "/projects") return json(200, projectsPage)
  if (path.endsWith("/operations")) return json(200, { operations: [operationItem(1)], pagination: { cursor: "c" } })
  return index === 4 ? json(503, { code: "", message: "try again" }) : json(200, { operation: operationItem(1) })
}

describe("spans", () => {
  it.effect("one client span per call, named after its endpoint; a retried call is one span with resend count 1", () =>
    Effect.gen(function* () {
      const spans: Array<RecordedSpan> = []
      const tracer = Tracer.make({
        span: (name, parent, context, links, startTime, kind) => {
          const span = new RecordedSpan(name, parent, context, links, startTime, kind, spans.length + 1)
          spans.push(span)
          return span
        },
        context: (f) => f()
      })
      const script = scripted(answer)
      const layer = DbPlatform.layer({ baseUrl, apiKey: Redacted.make(apiKey) }).pipe(Layer.provide(script.layer))
      const program = Effect.gen(function* () {
        const apiKeys = yield* ApiKeys.ApiKeys
        const projects = yield* Projects.Projects
        const operations = yield* Operations.Operations
        yield* apiKeys.create({ key_name: "ci" })
        yield* apiKeys.listPage()
        yield* apiKeys.revoke({ key_id: ApiKeyId.make(42) })
        yield* projects.listPage()
        const fiber = yield* Effect.fork(operations.get({ project_id: projectId, operation_id: operationId }))
        yield* TestClock.adjust("1 minute")
        yield* Fiber.join(fiber)
        yield* Stream.runDrain(operations.list({ project_id: projectId }))
      })
      yield* program.pipe(Effect.provide(layer), Effect.withTracer(tracer))

      // Every span the run made is one of ours: the platform's per-request span is off.
      expect(spans.map((span) => [span.name, span.kind])).toEqual([
        ["ApiKeys.create", "client"],
        ["ApiKeys.list", "client"],
        ["ApiKeys.revoke", "client"],
        ["Projects.list", "client"],
        ["Operations.get", "client"],
        ["Operations.list", "client"]
      ])
      expect(spans.every((span) => span.parent._tag === "None")).toBe(true)
      expect(script.requests).toHaveLength(7)

      const attributes = spans.map((span) => Object.fromEntries(span.attributes))
      expect(attributes[2]).toMatchObject({
        "http.request.method": "DELETE",
        "url.template": "/api_keys/{key_id}",
        "http.response.status_code": 200,
        "http.request.resend_count": 0
      })
      // The read of the operation got a 503, then its answer: one span, resent once.
      expect(attributes[4]).toMatchObject({
        "http.request.method": "GET",
        "url.template": "/projects/{project_id}/operations/{operation_id}",
        "http.response.status_code": 200,
        "http.request.resend_count": 1
      })
      for (const [i, span] of spans.entries()) {
        expect(span.status._tag).toBe("Ended")
        expect(attributes[i]!["dbplatform.request_id"]).toBe(
          script.requests[i < 5 ? i : i + 1]?.headers["x-request-id"]
        )
      }

      // No part of the key in any span, attribute or exit, however it is printed.
      const printed = spans.map((span) => util.inspect(span, { depth: 12 }) + JSON.stringify(attributes))
      for (const text of printed) {
        expect(text).not.toContain(apiKey)
        expect(text).not.toContain(apiKey.slice(-16))
      }
    })
  )
})
