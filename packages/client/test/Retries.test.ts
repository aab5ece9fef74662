import { ApiKeyId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as HttpClient from "@effect/platform/HttpClient"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as TestClock from "effect/TestClock"
import { readFileSync } from "node:fs"
import { ApiKeys, DbPlatform, DbPlatformClient, Projects } from "../src/index.js"
import { version } from "../src/internal/version.js"
import { hang, json, raw, type Reply, type Scripted, scripted, transportFailure } from "./scripted.js"

const baseUrl = "http://fake.test/api/v2"

const layerFor = (script: Scripted, options: Partial<DbPlatformClient.Options> = {}) =>
  DbPlatform.layer({ baseUrl, apiKey: Redacted.make("secret-key"), ...options }).pipe(Layer.provide(script.layer))

const projectsPage = { projects: [], applications: {}, integrations: {} }
const apiKeyCreated = {
  id: 7,
  key: "dbp_live_0123456789abcdef",
  name: "ci",
  created_at: "2022-11-15T20:13:35Z",
  created_by: "1232111b-2ea1-4d5a-b5c4-6ea0bda8ed2a"
}
const apiKeyRevoked = {
  id: 7,
  name: "ci",
  created_at: "2022-11-15T20:13:35Z",
  created_by: "1232111b-2ea1-4d5a-b5c4-6ea0bda8ed2a",
  last_used_from_addr: "",
  revoked: true
}

/** A retry policy of the caller's: two retries, 1 s apart. */
const fixedTwice = Schedule.spaced("1 second").pipe(Schedule.intersect(Schedule.recurs(2)))

/** Waits long enough for every retry the default policy makes (its waits add up to at most 7.5 s). */
const settle = TestClock.adjust("1 minute")

/** One call per method, and the answer that ends it well. */
const calls: Record<
  "GET" | "POST" | "DELETE",
  {
    readonly run: Effect.Effect<unknown, { readonly _tag: string; readonly message: string }, DbPlatform.DbPlatform>
    readonly ok: Reply
  }
> = {
  GET: { run: Effect.flatMap(Projects.Projects, (projects) => projects.listPage()), ok: json(200, projectsPage) },
  POST: {
    run: Effect.flatMap(ApiKeys.ApiKeys, (apiKeys) => apiKeys.create({ key_name: "ci" })),
    ok: json(200, apiKeyCreated)
  },
  DELETE: {
    run: Effect.flatMap(ApiKeys.ApiKeys, (apiKeys) => apiKeys.revoke({ key_id: ApiKeyId.make(7) })),
    ok: json(200, apiKeyRevoked)
  }
}

/** docs/contract.md §10.2: which failures each method may send again. */
const failures: ReadonlyArray<{
  readonly label: string
  readonly reply: Reply
  readonly retried: "any" | "GET" | "no"
}> = [
  { label: "423", reply: raw(423, null), retried: "any" },
  { label: "429", reply: raw(429, null), retried: "any" },
  { label: "503", reply: raw(503, null), retried: "any" },
  { label: "500", reply: raw(500, null), retried: "GET" },
  { label: "502", reply: raw(502, "<html>bad gateway</html>", { "content-type": "text/html" }), retried: "GET" },
  { label: "504", reply: raw(504, null), retried: "GET" },
  { label: "no response", reply: transportFailure(new Error("socket hang up")), retried: "GET" },
  { label: "400", reply: raw(400, null), retried: "no" },
  { label: "401", reply: raw(401, null), retried: "no" },
  { label: "404", reply: raw(404, null), retried: "no" }
]

describe("which failures are sent again", () => {
  for (const method of ["GET", "POST", "DELETE"] as const) {
    for (const { label, reply, retried } of failures) {
      const expected = retried === "any" || (retried === "GET" && method === "GET")
      it.effect(`${method} after ${label}: ${expected ? "retried, then succeeds" : "not retried"}`, () => {
        const script = scripted([reply, calls[method].ok])
        return Effect.gen(function* () {
          const fiber = yield* Effect.fork(Effect.either(calls[method].run))
          yield* settle
          const result = yield* Fiber.join(fiber)
          expect(script.requests).toHaveLength(expected ? 2 : 1)
          expect(result._tag).toBe(expected ? "Right" : "Left")
          // an error not safe to retry says nothing of retries
          if (result._tag === "Left") {
            expect((result.left as { readonly retryStop?: unknown }).retryStop).toBeUndefined()
            expect(result.left.message).not.toMatch(/retried|gave up/)
          }
        }).pipe(Effect.provide(layerFor(script)))
      })
    }
  }

  it.effect("a GET failing every time is sent 5 times, then fails with the last error", () => {
    const script = scripted([raw(503, null)])
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(Effect.flip(calls.GET.run))
      yield* TestClock.adjust("7500 millis")
      const error = yield* Fiber.join(fiber)
      expect(error._tag).toBe("ServiceUnavailable")
      expect(error).toMatchObject({ retryStop: { _tag: "RetriesExhausted", attempts: 5 } })
      expect(error.message).toBe(
        `GET /projects: 503 Service Unavailable (request id ${script.requests[0]?.headers["x-request-id"]}); gave up after 5 attempts: the retry schedule ended`
      )
      expect(script.requests).toHaveLength(5)
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("a custom retrySchedule replaces the default", () => {
    const script = scripted([raw(503, null)])
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(Effect.flip(calls.GET.run))
      yield* TestClock.adjust("1 second")
      expect(script.requests).toHaveLength(2)
      yield* TestClock.adjust("1 second")
      const error = yield* Fiber.join(fiber)
      expect(error._tag).toBe("ServiceUnavailable")
      expect(error).toMatchObject({ retryStop: { _tag: "RetriesExhausted", attempts: 3 } })
      expect(error.message).toContain("; gave up after 3 attempts: the retry schedule ended")
      expect(script.requests).toHaveLength(3)
    }).pipe(Effect.provide(layerFor(script, { retrySchedule: fixedTwice })))
  })
})

describe("Retry-After", () => {
  it.effect("a 503 with Retry-After: 3 waits 3 s, not the shorter backoff", () => {
    const script = scripted([raw(503, null, { "retry-after": "3" }), calls.GET.ok])
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(calls.GET.run)
      yield* TestClock.adjust("2999 millis")
      expect(script.requests).toHaveLength(1)
      yield* TestClock.adjust("1 millis")
      yield* Fiber.join(fiber)
      expect(script.requests).toHaveLength(2)
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("a Retry-After over maxRetryAfter fails at once, saying when the server asked to come back", () => {
    const script = scripted([raw(429, null, { "retry-after": "120" }), calls.GET.ok])
    return Effect.gen(function* () {
      const error = yield* Effect.flip(calls.GET.run)
      expect(error).toMatchObject({
        _tag: "RateLimited",
        retryAfter: "120",
        retryStop: { _tag: "RetryAfterTooLong", attempts: 1, askedMillis: 120_000, maxMillis: 60_000 }
      })
      expect(error.message).toBe(
        `GET /projects: 429 Too Many Requests (request id ${script.requests[0]?.headers["x-request-id"]}); not retried: the server asked to retry in 2m, longer than the 1m this client waits`
      )
      expect(script.requests).toHaveLength(1)
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("a Retry-After past the deadline fails at once", () => {
    const script = scripted([raw(423, null, { "retry-after": "20" }), calls.DELETE.ok])
    return Effect.gen(function* () {
      const error = yield* Effect.flip(calls.DELETE.run)
      expect(error).toMatchObject({
        _tag: "Locked",
        retryAfter: "20",
        retryStop: { _tag: "DeadlineReached", attempts: 1, delayMillis: 20_000, deadlineMillis: 10_000 }
      })
      expect(error.message).toMatch(
        /^DELETE \/api_keys\/7: 423 Locked \(request id [0-9a-f-]{36}\); not retried: a retry in 20s would pass the call's 10s deadline$/
      )
      expect(script.requests).toHaveLength(1)
    }).pipe(Effect.provide(layerFor(script, { deadline: "10 seconds" })))
  })
})

/** A failed name lookup as Node's `fetch` reports it: `TypeError: fetch failed`, caused by getaddrinfo's error and its `code`. */
const lookupFailure = (code: string, viaFetch = true) => {
  const lookup = Object.assign(new Error(`getaddrinfo ${code} nohost.invalid`), {
    code,
    syscall: "getaddrinfo",
    hostname: "nohost.invalid"
  })
  return transportFailure(viaFetch ? new TypeError("fetch failed", { cause: lookup }) : lookup)
}

describe("host names that do not resolve", () => {
  for (const viaFetch of [true, false]) {
    it.effect(
      `ENOTFOUND${viaFetch ? " (fetch's TypeError, caused by it)" : " (the error itself)"} is not retried`,
      () => {
        const script = scripted([lookupFailure("ENOTFOUND", viaFetch)])
        return Effect.gen(function* () {
          const fiber = yield* Effect.fork(Effect.flip(calls.GET.run))
          yield* settle
          const error = yield* Fiber.join(fiber)
          expect(script.requests).toHaveLength(1)
          expect(error._tag).toBe("TransportError")
          expect((error as { readonly retryStop?: unknown }).retryStop).toBeUndefined()
          expect(error.message).toContain("getaddrinfo ENOTFOUND nohost.invalid")
          expect(error.message).not.toMatch(/retried|gave up/)
        }).pipe(Effect.provide(layerFor(script)))
      }
    )
  }

  it.effect("EAI_AGAIN (the resolver did not answer: temporary) is retried as any no-response", () => {
    const script = scripted([lookupFailure("EAI_AGAIN")])
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(Effect.flip(calls.GET.run))
      yield* settle
      const error = yield* Fiber.join(fiber)
      expect(script.requests).toHaveLength(5)
      expect(error).toMatchObject({ _tag: "TransportError", retryStop: { _tag: "RetriesExhausted", attempts: 5 } })
    }).pipe(Effect.provide(layerFor(script)))
  })
})

describe("timeouts and interruption", () => {
  it.effect("interrupting a call aborts its request in flight", () => {
    const script = scripted([hang])
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(calls.GET.run)
      yield* TestClock.adjust("1 second")
      expect(script.signals).toHaveLength(1)
      expect(script.signals[0]?.aborted).toBe(false)
      yield* Fiber.interrupt(fiber)
      expect(script.signals[0]?.aborted).toBe(true)
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("a request with no answer within requestTimeout is aborted and fails with TransportError", () => {
    const script = scripted([hang])
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(Effect.flip(calls.POST.run))
      yield* TestClock.adjust("2 seconds")
      const error = yield* Fiber.join(fiber)
      expect(error).toMatchObject({
        _tag: "TransportError",
        method: "POST",
        route: "/api_keys",
        path: "/api_keys",
        description: "no complete response within 2s; the request was aborted"
      })
      expect((error as { readonly retryStop?: unknown }).retryStop).toBeUndefined()
      expect(error.message).toBe(
        `POST /api_keys: no response: no complete response within 2s; the request was aborted (request id ${script.requests[0]?.headers["x-request-id"]})`
      )
      expect(script.signals[0]?.aborted).toBe(true)
      expect(script.requests).toHaveLength(1)
    }).pipe(Effect.provide(layerFor(script, { requestTimeout: "2 seconds" })))
  })

  it.effect("a request answered in time is not aborted when its timeout later passes", () => {
    const script = scripted([calls.GET.ok])
    return Effect.gen(function* () {
      yield* calls.GET.run
      yield* TestClock.adjust("1 minute")
      expect(script.signals).toHaveLength(1)
      expect(script.signals[0]?.aborted).toBe(false)
    }).pipe(Effect.provide(layerFor(script, { requestTimeout: "2 seconds" })))
  })

  // The one test on the live clock: there the timeout is a `setTimeout`, not a fiber on the
  // `TestClock`. It waits for that timer (20 ms), and asserts nothing about how long it took.
  it.live("on the live clock, a request with no answer is aborted by a timer when requestTimeout passes", () => {
    const script = scripted([hang])
    return Effect.gen(function* () {
      const error = yield* Effect.flip(calls.POST.run)
      expect(error).toMatchObject({
        _tag: "TransportError",
        description: "no complete response within 20ms; the request was aborted"
      })
      expect(script.signals[0]?.aborted).toBe(true)
      expect(script.requests).toHaveLength(1)
    }).pipe(Effect.provide(layerFor(script, { requestTimeout: "20 millis" })))
  })

  // The defaults: a server that accepts a request and never answers holds a call 30 s, no more.
  for (const method of ["GET", "POST"] as const) {
    it.effect(`with the defaults, a ${method} to a server that never answers fails at 30 s with TransportError`, () => {
      const script = scripted([hang])
      return Effect.gen(function* () {
        const fiber = yield* Effect.fork(Effect.flip(calls[method].run))
        yield* TestClock.adjust("29999 millis")
        expect(Option.isNone(yield* Fiber.poll(fiber))).toBe(true)
        yield* TestClock.adjust("1 millis")
        // Ended at 30 s (polled: a call still running would fail here, not wait on the TestClock).
        expect(Option.isSome(yield* Fiber.poll(fiber))).toBe(true)
        const error = yield* Fiber.join(fiber)
        expect(error).toMatchObject({
          _tag: "TransportError",
          description: "no complete response within 30s; the request was aborted"
        })
        expect(error.message).toContain("no response: no complete response within 30s")
        expect(script.requests).toHaveLength(1)
        expect(script.signals[0]?.aborted).toBe(true)
      }).pipe(Effect.provide(layerFor(script)))
    })
  }

  it.effect("a GET that timed out is sent again; the last attempt's timeout is cut to the deadline", () => {
    const script = scripted([hang])
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(Effect.flip(calls.GET.run))
      yield* TestClock.adjust("5 seconds")
      const error = yield* Fiber.join(fiber)
      expect(error._tag).toBe("TransportError")
      expect(error).toMatchObject({ retryStop: { _tag: "DeadlineReached", deadlineMillis: 5000 } })
      expect(script.requests.length).toBeGreaterThanOrEqual(2)
      expect(error).toMatchObject({ retryStop: { attempts: script.requests.length } })
      expect(script.signals.every((signal) => signal.aborted)).toBe(true)
    }).pipe(Effect.provide(layerFor(script, { requestTimeout: "2 seconds", deadline: "5 seconds" })))
  })
})

describe("timeouts of requests a transformClient makes", () => {
  it.effect(
    "a redirect hop (transformClient: HttpClient.followRedirects) is aborted at the request timeout too",
    () => {
      const script = scripted([raw(302, null, { location: "http://fake.test/api/v2/projects?page=2" }), hang])
      return Effect.gen(function* () {
        const fiber = yield* Effect.fork(
          Effect.flip(Effect.flatMap(Projects.Projects, (projects) => projects.listPage()))
        )
        yield* TestClock.adjust("2 seconds")
        const error = yield* Fiber.join(fiber)
        expect(error).toMatchObject({
          _tag: "TransportError",
          description: "no complete response within 2s; the request was aborted"
        })
        expect(script.requests).toHaveLength(2)
        expect(script.signals.every((signal) => signal.aborted)).toBe(true)
      }).pipe(
        Effect.provide(
          DbPlatform.layer({
            baseUrl: "http://fake.test/api/v2",
            apiKey: Redacted.make("k"),
            requestTimeout: "2 seconds",
            retrySchedule: Schedule.stop,
            transformClient: HttpClient.followRedirects(3)
          }).pipe(Layer.provide(script.layer))
        )
      )
    }
  )
})

describe("headers", () => {
  it.effect("X-Request-ID is one UUID per call, the same on its retries; User-Agent names the SDK", () => {
    const script = scripted([raw(503, null), calls.GET.ok, calls.GET.ok])
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(calls.GET.run)
      yield* settle
      yield* Fiber.join(fiber)
      yield* calls.GET.run
      const ids = script.requests.map((request) => request.headers["x-request-id"])
      expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
      expect(ids[1]).toBe(ids[0])
      expect(ids[2]).not.toBe(ids[0])
      expect(script.requests[0]?.headers["user-agent"]).toBe(DbPlatformClient.userAgent)
      expect(DbPlatformClient.userAgent).toBe(`dbplatform-effect/${version} (@dbplatform/client)`)
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect("X-Request-ID comes from the RequestIds service a program provides, one per call", () => {
    const script = scripted([raw(503, null), calls.GET.ok, calls.GET.ok])
    let issued = 0
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(calls.GET.run)
      yield* settle
      yield* Fiber.join(fiber)
      yield* calls.GET.run
      expect(script.requests.map((request) => request.headers["x-request-id"])).toEqual(["req-1", "req-1", "req-2"])
    }).pipe(
      Effect.provide(layerFor(script)),
      Effect.provideService(DbPlatformClient.RequestIds, { next: Effect.sync(() => `req-${++issued}`) })
    )
  })

  it("the version in User-Agent is the package's", () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
    expect(version).toBe(pkg.version)
  })
})

describe("logs", () => {
  it.effect("each retry is logged at Debug with status and delay, and nothing else is logged", () => {
    const script = scripted([raw(429, null, { "retry-after": "1" }), raw(502, null), calls.GET.ok])
    const lines: Array<{ level: string; message: unknown; annotations: Record<string, unknown> }> = []
    const logger = Logger.make(({ annotations, logLevel, message }) => {
      lines.push({ level: logLevel.label, message, annotations: Object.fromEntries(annotations) })
    })
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(calls.GET.run)
      yield* settle
      yield* Fiber.join(fiber)
      expect(lines).toHaveLength(2)
      expect(lines[0]).toMatchObject({
        level: "DEBUG",
        message: ["retrying Projects.list after 1s"],
        annotations: {
          status: 429,
          delayMillis: 1000,
          attempt: 1,
          requestId: script.requests[0]?.headers["x-request-id"]
        }
      })
      expect(lines[1]).toMatchObject({ level: "DEBUG", annotations: { status: 502, attempt: 2 } })
    }).pipe(
      Effect.provide(layerFor(script)),
      Effect.provide(Logger.replace(Logger.defaultLogger, logger)),
      Logger.withMinimumLogLevel(LogLevel.All)
    )
  })
})

describe("logs when the schedule ends", () => {
  it.effect("a retry schedule that ends logs only the retries it made", () => {
    const script = scripted([raw(503, null)])
    const lines: Array<unknown> = []
    const logger = Logger.make(({ message }) => {
      lines.push(message)
    })
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(Effect.flip(calls.GET.run))
      yield* TestClock.adjust("10 seconds")
      const error = yield* Fiber.join(fiber)
      expect(script.requests).toHaveLength(3)
      expect(lines).toEqual([["retrying Projects.list after 1s"], ["retrying Projects.list after 1s"]])
      expect(error).toMatchObject({ retryStop: { _tag: "RetriesExhausted", attempts: 3 } })
    }).pipe(
      Effect.provide(
        layerFor(script, { retrySchedule: Schedule.spaced("1 second").pipe(Schedule.intersect(Schedule.recurs(2))) })
      ),
      Effect.provide(Logger.replace(Logger.defaultLogger, logger)),
      Logger.withMinimumLogLevel(LogLevel.All)
    )
  })
})

describe("rate limit", () => {
  it.effect("rateLimit holds requests beyond `limit` per interval until the next interval", () => {
    const script = scripted([calls.GET.ok])
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(
        Effect.all(
          Array.from({ length: 5 }, () => calls.GET.run),
          { concurrency: 5 }
        )
      )
      yield* TestClock.adjust("10 millis")
      expect(script.requests).toHaveLength(2)
      yield* TestClock.adjust("980 millis")
      expect(script.requests).toHaveLength(2)
      yield* TestClock.adjust("20 millis")
      expect(script.requests).toHaveLength(4)
      yield* TestClock.adjust("1 second")
      yield* Fiber.join(fiber)
      expect(script.requests).toHaveLength(5)
    }).pipe(Effect.provide(layerFor(script, { rateLimit: { limit: 2, interval: "1 second" } })))
  })

  it.effect("without rateLimit, concurrent calls are all sent at once", () => {
    const script = scripted([calls.GET.ok])
    return Effect.gen(function* () {
      yield* Effect.all(
        Array.from({ length: 5 }, () => calls.GET.run),
        { concurrency: 5 }
      )
      expect(script.requests).toHaveLength(5)
    }).pipe(Effect.provide(layerFor(script)))
  })
})

describe("deadline and rate limit together", () => {
  it.effect("a request held by the rate limiter past the deadline is not sent", () => {
    const script = scripted([calls.POST.ok])
    return Effect.gen(function* () {
      const fiber = yield* Effect.fork(
        Effect.all([Effect.either(calls.POST.run), Effect.either(calls.POST.run)], { concurrency: 2 })
      )
      yield* TestClock.adjust("2 seconds")
      const [first, second] = yield* Fiber.join(fiber)
      expect(first._tag).toBe("Right")
      expect(second).toMatchObject({
        _tag: "Left",
        left: {
          _tag: "TransportError",
          description: "not sent: the call's deadline passed while it waited for the rate limiter"
        }
      })
      expect(second._tag === "Left" && second.left.message).toContain(
        "POST /api_keys: no response: not sent: the call's deadline passed"
      )
      // one POST reached the server: the second was never sent
      expect(script.requests).toHaveLength(1)
    }).pipe(Effect.provide(layerFor(script, { rateLimit: { limit: 1, interval: "1 second" }, deadline: "200 millis" })))
  })

  it.effect("the wait for the rate limiter ends at the deadline, not when the limiter lets the request go", () => {
    const script = scripted([calls.GET.ok])
    return Effect.gen(function* () {
      const first = yield* Effect.fork(calls.GET.run)
      const second = yield* Effect.fork(Effect.flip(calls.GET.run))
      yield* TestClock.adjust("2 seconds")
      yield* Fiber.join(first)
      // The limiter would let it go in 10 minutes; the call's 2 s deadline ended the wait.
      const error = yield* Fiber.join(second)
      expect(error).toMatchObject({
        _tag: "TransportError",
        description: "not sent: the call's deadline passed while it waited for the rate limiter"
      })
      expect(script.requests).toHaveLength(1)
    }).pipe(
      Effect.provide(layerFor(script, { rateLimit: { limit: 1, interval: "10 minutes" }, deadline: "2 seconds" }))
    )
  })

  it.effect(
    "a retry held by the rate limiter past the deadline is not sent: the call fails with the error before it",
    () => {
      // A 429 that asks for 1 s; the limiter (1 request per 10 s) holds the retry past the 5 s deadline.
      const script = scripted([raw(429, null, { "retry-after": "1" })])
      return Effect.gen(function* () {
        const fiber = yield* Effect.fork(Effect.flip(calls.POST.run))
        yield* TestClock.adjust("30 seconds")
        const error = yield* Fiber.join(fiber)
        expect(script.requests).toHaveLength(1)
        expect(error).toMatchObject({
          _tag: "RateLimited",
          status: 429,
          retryStop: { _tag: "DeadlineReached", attempts: 1 }
        })
      }).pipe(
        Effect.provide(layerFor(script, { rateLimit: { limit: 1, interval: "10 seconds" }, deadline: "5 seconds" }))
      )
    }
  )
})
