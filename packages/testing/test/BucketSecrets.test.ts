/**
 * A presigned URL is a bearer secret until it expires (docs/contract.md §28.3): its signature, and
 * so the URL, reaches none of what a program observes of the client (its logs at Debug and up,
 * its spans, its errors however printed, its results printed), nor the fake's request log, nor a
 * snapshot of the fake's state (which keeps only the signature's SHA-256). The run goes through a
 * retried presign, uploads and downloads with the URLs, and failures.
 */
import { Buckets } from "@dbplatform/client"
import { BranchId, ProjectId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import * as Tracer from "effect/Tracer"
import * as util from "node:util"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import * as Fault from "../src/Fault.js"
import * as Snapshot from "../src/Snapshot.js"

const project_id = ProjectId.make("bucket-secrets-000001")
const branch_id = BranchId.make("br-main-000001")
const object = { project_id, branch_id, bucket_name: "private", object_key: "reports/q3.pdf" }

/** Every span's name, attributes, events and exit, printed. */
const spans: Array<string> = []
const tracer = Tracer.make({
  span: (name, parent, context, links, startTime, kind) => {
    const attributes = new Map<string, unknown>()
    const events: Array<unknown> = []
    const span: Tracer.Span = {
      _tag: "Span",
      name,
      spanId: `span-${spans.length}`,
      traceId: "trace",
      sampled: true,
      parent,
      context,
      links: [...links],
      kind,
      attributes,
      status: { _tag: "Started", startTime },
      end: (_end, exit) => {
        spans.push(
          [
            name,
            JSON.stringify([...attributes]),
            JSON.stringify(events),
            Exit.match(exit, {
              onFailure: (cause) => Cause.pretty(cause, { renderErrorCause: true }),
              onSuccess: (value) => util.inspect(value, { depth: 10 })
            })
          ].join("\n")
        )
      },
      attribute: (key, value) => {
        attributes.set(key, value)
      },
      event: (eventName, _time, eventAttributes) => {
        events.push({ eventName, eventAttributes })
      },
      addLinks: () => {}
    }
    return span
  },
  context: (f) => f()
})

describe("presigned URLs are secrets", () => {
  it.effect("in no log, span, error, printed result, request log or snapshot", () => {
    const logs: Array<string> = []
    const errors: Array<string> = []
    const collector = Logger.make((options) => {
      logs.push(Logger.stringLogger.log(options))
      if (!Cause.isEmpty(options.cause)) logs.push(Cause.pretty(options.cause, { renderErrorCause: true }))
    })
    const failing = <A, E extends object, R>(self: Effect.Effect<A, E, R>, tag: string) =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(self)
        expect((error as { _tag?: string })._tag).toBe(tag)
        errors.push(String(error), JSON.stringify(error), util.inspect(error, { depth: 10 }))
      })
    const run = Effect.gen(function* () {
      const platform = yield* FakePlatform.FakePlatform
      const buckets = yield* Buckets.Buckets
      // A presign retried after a 503 (not processed), then answered.
      yield* platform.faults.inject(Fault.status(503), { method: "POST" })
      const upload = yield* buckets.presignObject({ ...object, operation: "upload", content_type: "application/pdf" })
      const put = yield* Buckets.transfer(upload, new Uint8Array([37, 80, 68, 70]))
      expect(put.status).toBe(200)
      const download = yield* buckets.presignObject({ ...object, operation: "download", expires_in_seconds: 5 })
      const got = yield* Buckets.transfer(download)
      expect(Array.from(got.body)).toEqual([37, 80, 68, 70])
      // Failures: an unknown bucket, a malformed answer to a presign, an expired URL.
      yield* failing(buckets.presignObject({ ...object, bucket_name: "none", operation: "download" }), "NotFound")
      yield* platform.faults.inject(Fault.malformedJson, { method: "POST" })
      yield* failing(buckets.presignObject({ ...object, operation: "download" }), "MalformedResponse")
      yield* TestClock.adjust("10 seconds")
      const expired = yield* Buckets.transfer(download)
      expect(expired.status).toBe(403)
      const snapshot = JSON.stringify(yield* Schema.encode(Snapshot.Snapshot)(yield* platform.snapshot))
      return {
        results: { upload, download, put, got },
        requests: yield* platform.requests,
        snapshot,
        expired: new TextDecoder().decode(expired.body)
      }
    })
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(run)
      for (let second = 0; second < 60 && Option.isNone(yield* Fiber.poll(fiber)); second++) {
        yield* TestClock.adjust("1 second")
      }
      const { expired, requests, results, snapshot } = yield* Fiber.join(fiber)
      const urls = [results.upload.url, results.download.url].map(Redacted.value)
      const signatures = urls.map((url) => new URL(url).searchParams.get("X-Amz-Signature")!)
      expect(signatures.every((signature) => /^[0-9a-f]{64}$/.test(signature))).toBe(true)
      const printed = [JSON.stringify(results), String(results.upload), util.inspect(results, { depth: 20 })]
      const requestLog = JSON.stringify(requests)
      const collected = [...logs, ...spans, ...errors, ...printed, requestLog, snapshot, expired].join("\n")
      // What was collected is not empty: the retry logged, the calls traced, the data plane's requests logged.
      expect(logs.some((line) => line.includes("retrying Buckets.presignObject"))).toBe(true)
      expect(spans.some((span) => span.startsWith("Buckets.presignObject"))).toBe(true)
      expect(spans.filter((span) => span.startsWith("Buckets.transfer")).length).toBe(3)
      expect(requests.filter((request) => request.path.startsWith("/_storage/")).length).toBe(3)
      expect(snapshot).toContain("reports/q3.pdf")
      for (const secret of [...urls, ...signatures]) expect(collected).not.toContain(secret)
    }).pipe(
      Effect.provide(
        DbPlatformTest.layer({
          seed: {
            projects: [{ id: project_id }],
            branches: [{ project_id, id: branch_id, name: "main", default: true }],
            buckets: [{ branch_id, name: "private" }]
          }
        })
      ),
      Effect.provide(Logger.replace(Logger.defaultLogger, collector)),
      Logger.withMinimumLogLevel(LogLevel.All),
      Effect.withTracer(tracer)
    )
  })
})
