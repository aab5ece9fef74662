import { describe, expect, it } from "@effect/vitest"
import { Cause, Duration, Effect, Either, Exit, Option, Schema } from "effect"
import {
  BadRequest,
  Conflict,
  Forbidden,
  fromResponse,
  GeneralError,
  type HttpStatusError,
  InvalidApiKey,
  InvalidBaseUrl,
  InvalidRequest,
  isDbPlatformError,
  Locked,
  MalformedResponse,
  NotAcceptable,
  NotFound,
  Operation,
  OperationFailed,
  OperationStillPending,
  RateLimited,
  RetryStop,
  retryAfterDelay,
  ServerError,
  ServiceUnavailable,
  TransportError,
  TypeId,
  Unauthorized,
  UnexpectedStatus
} from "../src/index.js"

const table: ReadonlyArray<{
  readonly status: number
  readonly tag: HttpStatusError["_tag"]
  readonly cls: new (...args: Array<any>) => HttpStatusError
  readonly reason: string
}> = [
  { status: 400, tag: "BadRequest", cls: BadRequest, reason: "Bad Request" },
  { status: 422, tag: "BadRequest", cls: BadRequest, reason: "Unprocessable Entity" },
  { status: 401, tag: "Unauthorized", cls: Unauthorized, reason: "Unauthorized" },
  { status: 403, tag: "Forbidden", cls: Forbidden, reason: "Forbidden" },
  { status: 404, tag: "NotFound", cls: NotFound, reason: "Not Found" },
  { status: 406, tag: "NotAcceptable", cls: NotAcceptable, reason: "Not Acceptable" },
  { status: 409, tag: "Conflict", cls: Conflict, reason: "Conflict" },
  { status: 423, tag: "Locked", cls: Locked, reason: "Locked" },
  { status: 429, tag: "RateLimited", cls: RateLimited, reason: "Too Many Requests" },
  { status: 500, tag: "ServerError", cls: ServerError, reason: "Internal Server Error" },
  { status: 502, tag: "ServerError", cls: ServerError, reason: "Bad Gateway" },
  { status: 504, tag: "ServerError", cls: ServerError, reason: "Gateway Timeout" },
  { status: 503, tag: "ServiceUnavailable", cls: ServiceUnavailable, reason: "Service Unavailable" },
  { status: 418, tag: "UnexpectedStatus", cls: UnexpectedStatus, reason: "HTTP error" },
  { status: 302, tag: "UnexpectedStatus", cls: UnexpectedStatus, reason: "HTTP error" }
]

const operationsRoute = "/projects/{project_id}/operations"
const operationsPath = "/projects/spring-example-302709/operations"

describe("fromResponse", () => {
  it.each(table)("maps $status to $tag", ({ status, tag, cls, reason }) => {
    const error = fromResponse({
      method: "GET",
      route: operationsRoute,
      path: operationsPath,
      status,
      code: "E_SOMETHING",
      message: "body message",
      requestId: "req-123"
    })
    expect(error).toBeInstanceOf(cls)
    expect(error).toBeInstanceOf(Error)
    expect(error._tag).toBe(tag)
    expect(error.status).toBe(status)
    expect(error.method).toBe("GET")
    expect(error.route).toBe(operationsRoute)
    expect(error.path).toBe(operationsPath)
    expect(error.code).toBe("E_SOMETHING")
    expect(error.description).toBe("body message")
    expect(error.requestId).toBe("req-123")
    expect(error.retryStop).toBeUndefined()
    expect(error.message).toBe(`GET ${operationsPath}: ${status} ${reason}: body message (request id req-123)`)
  })

  it.each(table)("names the request and $status in the message when the body had none", ({ status, reason }) => {
    const error = fromResponse({ method: "DELETE", route: "/api_keys/{key_id}", path: "/api_keys/165432", status })
    expect(error.message).toBe(`DELETE /api_keys/165432: ${status} ${reason}`)
    expect(error.description).toBeUndefined()
    expect(error.code).toBeUndefined()
    expect(error.requestId).toBeUndefined()
  })

  it("leaves the description out when the body's message is empty, keeping an empty code", () => {
    const error = fromResponse({
      method: "POST",
      route: "/api_keys",
      path: "/api_keys",
      status: 409,
      code: "",
      message: "",
      requestId: "req-9"
    })
    expect(error).toBeInstanceOf(Conflict)
    expect(error.description).toBeUndefined()
    expect(error.message).toBe("POST /api_keys: 409 Conflict (request id req-9)")
    expect(error.code).toBe("")
    expect(error.requestId).toBe("req-9")
  })

  it("has message as a getter, not a field of the error", () => {
    const error = fromResponse({ method: "GET", route: "/projects", path: "/projects", status: 401, message: "m" })
    expect(Object.keys(error)).not.toContain("message")
    expect(error.message).toBe("GET /projects: 401 Unauthorized: m")
    expect(String(error)).toContain("GET /projects: 401 Unauthorized: m")
  })

  it("names method, the path sent (not the route template), status, the server's message and the request id in the message", () => {
    const error = fromResponse({
      method: "GET",
      route: operationsRoute,
      path: operationsPath,
      status: 404,
      code: "PROJECT_NOT_FOUND",
      message: "project spring-example-302709 not found",
      requestId: "d7c6f1a0-1111-4a4a-9999-0123456789ab"
    })
    expect(error.message).toContain("GET")
    expect(error.message).toContain(operationsPath)
    expect(error.message).not.toContain(operationsRoute)
    expect(error.route).toBe(operationsRoute)
    expect(error.message).toContain("404")
    expect(error.message).toContain("project spring-example-302709 not found")
    expect(error.message).toContain("d7c6f1a0-1111-4a4a-9999-0123456789ab")
    expect(error.message).toBe(
      `GET ${operationsPath}: 404 Not Found: project spring-example-302709 not found (request id d7c6f1a0-1111-4a4a-9999-0123456789ab)`
    )
  })

  it.each([
    {
      status: 423,
      method: "POST",
      route: "/projects/{project_id}/endpoints/{endpoint_id}/suspend",
      path: "/projects/spring-x-1/endpoints/ep-a-1/suspend",
      text: "423 Locked: project already has running operations"
    },
    {
      status: 429,
      method: "GET",
      route: "/projects/{project_id}/branches",
      path: "/projects/spring-x-1/branches",
      text: "429 Too Many Requests: project already has running operations"
    }
  ])(
    "a $status names the path sent, ids filled in; the route template stays a field",
    ({ method, path, route, status, text }) => {
      const error = fromResponse({ method, route, path, status, message: "project already has running operations" })
      expect(error.message).toBe(`${method} ${path}: ${text}`)
      expect(error.message).not.toContain("{")
      expect(error.route).toBe(route)
      expect(error.path).toBe(path)
    }
  )

  it("maps other 5xx statuses to ServerError", () => {
    for (const status of [501, 507, 599]) {
      const error = fromResponse({ method: "GET", route: "/projects", path: "/projects", status })
      expect(error).toBeInstanceOf(ServerError)
      expect(error.message).toBe(`GET /projects: ${status} HTTP error`)
    }
  })

  it("maps other non-2xx statuses to UnexpectedStatus", () => {
    for (const status of [100, 301, 304, 405, 410, 451, 600]) {
      const error = fromResponse({ method: "GET", route: "/projects", path: "/projects", status })
      expect(error).toBeInstanceOf(UnexpectedStatus)
      expect(error.status).toBe(status)
    }
  })

  it.each(["30", "Wed, 21 Oct 2015 07:28:00 GMT"])("carries Retry-After %j on 429", (retryAfter) => {
    const error = fromResponse({ method: "GET", route: "/projects", path: "/projects", status: 429, retryAfter })
    expect(error).toBeInstanceOf(RateLimited)
    expect((error as RateLimited).retryAfter).toBe(retryAfter)
  })

  it("leaves retryAfter undefined on 429 without Retry-After", () => {
    const error = fromResponse({ method: "GET", route: "/projects", path: "/projects", status: 429 })
    expect(error).toBeInstanceOf(RateLimited)
    expect((error as RateLimited).retryAfter).toBeUndefined()
  })

  it("carries Retry-After on 503", () => {
    const error = fromResponse({ method: "POST", route: "/api_keys", path: "/api_keys", status: 503, retryAfter: "5" })
    expect(error).toBeInstanceOf(ServiceUnavailable)
    expect((error as ServiceUnavailable).retryAfter).toBe("5")
  })

  it("carries Retry-After on 423", () => {
    const error = fromResponse({
      method: "DELETE",
      route: "/api_keys/{key_id}",
      path: "/api_keys/1",
      status: 423,
      retryAfter: "1"
    })
    expect(error).toBeInstanceOf(Locked)
    expect((error as Locked).retryAfter).toBe("1")
  })

  it("drops Retry-After on statuses that are not retried for it", () => {
    const error = fromResponse({ method: "GET", route: "/projects", path: "/projects", status: 500, retryAfter: "5" })
    expect(error).toBeInstanceOf(ServerError)
    expect(error).not.toHaveProperty("retryAfter")
  })

  it("carries the retry stop and says it in the message", () => {
    const retryStop: RetryStop = { _tag: "RetriesExhausted", attempts: 4 }
    const error = fromResponse({ method: "GET", route: "/projects", path: "/projects", status: 502, retryStop })
    expect(error.retryStop).toEqual(retryStop)
    expect(error.message).toBe("GET /projects: 502 Bad Gateway; gave up after 4 attempts: the retry schedule ended")
  })

  it.effect("yields errors that can be caught by tag", () =>
    Effect.gen(function* () {
      const retryAfter = yield* Effect.fail(
        fromResponse({ method: "GET", route: "/projects", path: "/projects", status: 429, retryAfter: "2" })
      ).pipe(
        Effect.catchTags({
          RateLimited: (e) => Effect.succeed(e.retryAfter),
          ServiceUnavailable: () => Effect.succeed("unexpected")
        })
      )
      expect(retryAfter).toBe("2")

      const error = yield* Effect.flip(
        Effect.fail(fromResponse({ method: "GET", route: "/x", path: "/x", status: 401 }))
      )
      expect(error._tag).toBe("Unauthorized")
    })
  )

  it.effect("yields as a failure from Effect.gen", () =>
    Effect.gen(function* () {
      const program = Effect.gen(function* () {
        return yield* fromResponse({
          method: "GET",
          route: "/projects/{project_id}",
          path: "/projects/p",
          status: 404,
          message: "project not found"
        })
      })
      const error = yield* Effect.flip(program)
      expect(error).toBeInstanceOf(NotFound)
      expect(error.description).toBe("project not found")
      expect(error.message).toBe("GET /projects/p: 404 Not Found: project not found")
    })
  )

  it("a 404 with its base URL names the URL sent, and the missing /api/v2 when the base URL lacks it", () => {
    const at = (baseUrl: string, status = 404) =>
      fromResponse({
        method: "GET",
        route: "/projects",
        path: "/projects",
        baseUrl,
        status,
        message: "route not found"
      })
    expect(at("https://host/api/v2").message).toBe(
      "GET /projects: 404 Not Found: route not found; sent to https://host/api/v2/projects"
    )
    expect(at("https://host").message).toBe(
      "GET /projects: 404 Not Found: route not found; sent to https://host/projects: the base URL https://host does not end with the API's version segment /api/v2 (is it https://host/api/v2?)"
    )
    expect(at("https://host", 401).message).toBe("GET /projects: 401 Unauthorized: route not found")
    expect(at("https://host").baseUrl).toBe("https://host")
  })
})

describe("RetryStop", () => {
  const render = (retryStop: RetryStop) =>
    new ServiceUnavailable({ method: "POST", route: "/api_keys", path: "/api_keys", status: 503, retryStop }).message

  it.each<[RetryStop, string]>([
    [
      { _tag: "RetryAfterTooLong", attempts: 1, askedMillis: 120_000, maxMillis: 30_000 },
      "; not retried: the server asked to retry in 2m, longer than the 30s this client waits"
    ],
    [
      { _tag: "RetryAfterTooLong", attempts: 3, askedMillis: 90_000, maxMillis: 60_000 },
      "; gave up after 3 attempts: the server asked to retry in 1m 30s, longer than the 1m this client waits"
    ],
    [
      { _tag: "DeadlineReached", attempts: 1, delayMillis: 850, deadlineMillis: 500 },
      "; not retried: a retry in 850ms would pass the call's 500ms deadline"
    ],
    [
      { _tag: "DeadlineReached", attempts: 2, delayMillis: 2000, deadlineMillis: 30_000 },
      "; gave up after 2 attempts: a retry in 2s would pass the call's 30s deadline"
    ],
    [{ _tag: "RetriesExhausted", attempts: 1 }, "; not retried: the retry schedule ended"],
    [{ _tag: "RetriesExhausted", attempts: 5 }, "; gave up after 5 attempts: the retry schedule ended"]
  ])("renders %o in the message", (retryStop, text) => {
    expect(render(retryStop)).toBe(`POST /api_keys: 503 Service Unavailable${text}`)
  })

  it("rounds fractional milliseconds in the message", () => {
    expect(render({ _tag: "DeadlineReached", attempts: 2, delayMillis: 849.6, deadlineMillis: 1000.2 })).toBe(
      "POST /api_keys: 503 Service Unavailable; gave up after 2 attempts: a retry in 850ms would pass the call's 1s deadline"
    )
  })

  it("comes after the server's message and request id", () => {
    const error = fromResponse({
      method: "GET",
      route: "/projects",
      path: "/projects",
      status: 429,
      message: "slow down",
      requestId: "req-1",
      retryStop: { _tag: "RetriesExhausted", attempts: 3 }
    })
    expect(error.message).toBe(
      "GET /projects: 429 Too Many Requests: slow down (request id req-1); gave up after 3 attempts: the retry schedule ended"
    )
  })

  it("decodes each case and refuses an unknown tag or a fractional attempt count", () => {
    const decode = Schema.decodeUnknownEither(RetryStop)
    expect(Either.isRight(decode({ _tag: "RetriesExhausted", attempts: 2 }))).toBe(true)
    expect(Either.isRight(decode({ _tag: "DeadlineReached", attempts: 1, delayMillis: 1, deadlineMillis: 2 }))).toBe(
      true
    )
    expect(Either.isRight(decode({ _tag: "RetryAfterTooLong", attempts: 1, askedMillis: 1, maxMillis: 2 }))).toBe(true)
    expect(Either.isLeft(decode({ _tag: "GaveUp", attempts: 2 }))).toBe(true)
    expect(Either.isLeft(decode({ _tag: "RetriesExhausted", attempts: 1.5 }))).toBe(true)
    expect(Either.isLeft(decode({ _tag: "DeadlineReached", attempts: 1, delayMillis: 1 }))).toBe(true)
  })
})

describe("MalformedResponse", () => {
  it("names the request, the status and what is wrong, with the request id", () => {
    const error = new MalformedResponse({
      method: "GET",
      route: operationsRoute,
      path: operationsPath,
      status: 200,
      description: "operations.0.id: expected a UUID",
      requestId: "req-7"
    })
    expect(error).toBeInstanceOf(Error)
    expect(error._tag).toBe("MalformedResponse")
    expect(error.message).toBe(
      `GET ${operationsPath}: the 200 answer cannot be used: operations.0.id: expected a UUID (request id req-7)`
    )
  })

  it("leaves the request id out when there was none", () => {
    const error = new MalformedResponse({
      method: "GET",
      route: "/api_keys",
      path: "/api_keys",
      status: 200,
      description: "expected an array"
    })
    expect(error.message).toBe("GET /api_keys: the 200 answer cannot be used: expected an array")
  })
})

describe("TransportError", () => {
  it("names the request and what happened, with the request id and retry stop", () => {
    const error = new TransportError({
      method: "GET",
      route: "/projects",
      path: "/projects",
      description: "connection refused",
      requestId: "req-5",
      retryStop: { _tag: "RetriesExhausted", attempts: 3 }
    })
    expect(error._tag).toBe("TransportError")
    expect(error.message).toBe(
      "GET /projects: no response: connection refused (request id req-5); gave up after 3 attempts: the retry schedule ended"
    )
  })

  it("keeps its cause and shows it in Cause.pretty (with renderErrorCause)", () => {
    const cause = new Error("connect ECONNREFUSED 127.0.0.1:443")
    const error = new TransportError({
      method: "POST",
      route: "/api_keys",
      path: "/api_keys",
      description: "connection refused",
      cause
    })
    expect(error.cause).toBe(cause)
    expect(error.message).toBe("POST /api_keys: no response: connection refused")
    const pretty = Cause.pretty(Cause.fail(error), { renderErrorCause: true })
    expect(pretty).toContain("POST /api_keys: no response: connection refused")
    expect(pretty).toContain("[cause]: Error: connect ECONNREFUSED 127.0.0.1:443")
  })

  it.effect("keeps its cause through a failed Effect", () =>
    Effect.gen(function* () {
      const cause = new Error("socket hang up")
      const exit = yield* Effect.exit(
        Effect.fail(
          new TransportError({ method: "GET", route: "/x", path: "/x", description: "connection dropped", cause })
        )
      )
      expect(Exit.isFailure(exit)).toBe(true)
      if (Exit.isFailure(exit)) {
        const failure = Option.getOrThrow(Cause.failureOption(exit.cause))
        expect(failure.cause).toBe(cause)
        expect(Cause.pretty(exit.cause, { renderErrorCause: true })).toContain("[cause]: Error: socket hang up")
      }
    })
  )
})

describe("isDbPlatformError", () => {
  const operation = Schema.decodeUnknownSync(Operation)({
    id: "a07f8772-1877-4da9-a939-3a3ae62d1d8d",
    project_id: "spring-example-302709",
    branch_id: "br-wispy-meadow-118737",
    action: "start_compute",
    status: "failed",
    failures_count: 1,
    created_at: "2022-12-09T08:47:52Z",
    updated_at: "2022-12-09T08:47:56Z"
  })

  it.each<[string, unknown]>([
    ...table.map(({ status, tag }): [string, unknown] => [
      `${tag} (${status})`,
      fromResponse({ method: "GET", route: "/projects", path: "/projects", status })
    ]),
    [
      "MalformedResponse",
      new MalformedResponse({ method: "GET", route: "/x", path: "/x", status: 200, description: "bad" })
    ],
    ["TransportError", new TransportError({ method: "GET", route: "/x", path: "/x", description: "timeout" })],
    ["InvalidRequest", new InvalidRequest({ message: "limit must be an integer from 1 to 1000" })],
    ["InvalidApiKey", new InvalidApiKey({ message: "a line feed (U+000A) at position 65 of 65" })],
    ["InvalidBaseUrl", new InvalidBaseUrl({ message: "the base URL holds a query" })],
    ["OperationFailed", new OperationFailed({ operation })],
    ["OperationStillPending", new OperationStillPending({ operation })]
  ])("is true for %s", (_label, error) => {
    expect(isDbPlatformError(error)).toBe(true)
    expect((error as Record<PropertyKey, unknown>)[TypeId]).toBe(TypeId)
  })

  it.each<[string, unknown]>([
    ["a plain Error", new Error("boom")],
    ["an object with only a _tag", { _tag: "NotFound" }],
    ["an object shaped like an error response", { _tag: "NotFound", status: 404, method: "GET", message: "x" }],
    ["a tagged error of another library", new (class Other extends Schema.TaggedError<any>()("Other", {}) {})()],
    ["null", null],
    ["undefined", undefined],
    ["a string", "NotFound"]
  ])("is false for %s", (_label, value) => {
    expect(isDbPlatformError(value)).toBe(false)
  })

  it("tells its classes from another library's of the same tag", () => {
    // Same tag, same fields: only the scoped schema identifier (`@dbplatform/core/NotFound`) tells them apart.
    class OtherNotFound extends Schema.TaggedError<OtherNotFound>()("NotFound", {
      method: Schema.String,
      route: Schema.String,
      path: Schema.String,
      status: Schema.Int
    }) {}
    const fields = { method: "GET", route: "/projects", path: "/projects", status: 404 }
    expect(Schema.is(NotFound)(fromResponse(fields))).toBe(true)
    expect(Schema.is(NotFound)(new OtherNotFound(fields))).toBe(false)
    expect(isDbPlatformError(new OtherNotFound(fields))).toBe(false)
  })

  it("uses the global symbol @dbplatform/core/DbPlatformError", () => {
    expect(TypeId).toBe(Symbol.for("@dbplatform/core/DbPlatformError"))
  })
})

describe("GeneralError", () => {
  it("decodes an error body with request_id, ignoring unknown fields", () => {
    const body = Schema.decodeUnknownSync(GeneralError)({
      code: "PROJECT_NOT_FOUND",
      message: "project not found",
      request_id: "d7c6f1a0-1111-4a4a-9999-0123456789ab",
      details: { hint: "check the id" }
    })
    expect(body.code).toBe("PROJECT_NOT_FOUND")
    expect(body.message).toBe("project not found")
    expect(body.request_id).toBe("d7c6f1a0-1111-4a4a-9999-0123456789ab")
    expect(body).not.toHaveProperty("details")
  })

  it("decodes an empty code and a missing request_id", () => {
    const body = Schema.decodeUnknownSync(GeneralError)({ code: "", message: "authentication required" })
    expect(body.code).toBe("")
    expect(body.request_id).toBeUndefined()
  })

  it("rejects a body without message or code", () => {
    expect(Either.isLeft(Schema.decodeUnknownEither(GeneralError)({ code: "X" }))).toBe(true)
    expect(Either.isLeft(Schema.decodeUnknownEither(GeneralError)({ message: "m" }))).toBe(true)
  })

  it("rejects a plain-text or HTML body a proxy may send", () => {
    expect(Either.isLeft(Schema.decodeUnknownEither(GeneralError)("<html>502 Bad Gateway</html>"))).toBe(true)
    expect(Either.isLeft(Schema.decodeUnknownEither(GeneralError)(null))).toBe(true)
  })
})

describe("retryAfterDelay", () => {
  const now = Date.UTC(2015, 9, 21, 7, 27, 0)
  it.each([
    ["2", 2000],
    [" 30 ", 30_000],
    ["0", 0],
    ["1.5", 1500],
    ["Wed, 21 Oct 2015 07:28:00 GMT", 60_000],
    ["Wed, 21 Oct 2015 07:26:00 GMT", 0]
  ])("%j from now is %i ms", (header, millis) => {
    expect(Option.map(retryAfterDelay(header, now), Duration.toMillis)).toEqual(Option.some(millis))
  })

  it.each([undefined, "", "soon", "-5", "1e3"])("%j is no delay", (header) => {
    expect(retryAfterDelay(header, now)).toEqual(Option.none())
  })
})
