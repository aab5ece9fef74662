import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Either, Option, Schema } from "effect"
import {
  BadRequest,
  Conflict,
  Forbidden,
  fromResponse,
  GeneralError,
  type HttpStatusError,
  Locked,
  NotFound,
  RateLimited,
  retryAfterDelay,
  ServerError,
  ServiceUnavailable,
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

describe("fromResponse", () => {
  it.each(table)("maps $status to $tag", ({ status, tag, cls }) => {
    const error = fromResponse({
      method: "GET",
      path: "/projects/spring-example-302709/operations",
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
    expect(error.path).toBe("/projects/spring-example-302709/operations")
    expect(error.code).toBe("E_SOMETHING")
    expect(error.message).toBe("body message")
    expect(error.requestId).toBe("req-123")
  })

  it.each(table)(
    "synthesizes a message naming $status and the request when the body had none",
    ({ status, reason }) => {
      const error = fromResponse({ method: "DELETE", path: "/api_keys/165432", status })
      expect(error.message).toBe(`${status} ${reason} (DELETE /api_keys/165432)`)
      expect(error.code).toBeUndefined()
      expect(error.requestId).toBeUndefined()
    }
  )

  it("synthesizes a message when the body's message is empty, keeping an empty code", () => {
    const error = fromResponse({
      method: "POST",
      path: "/api_keys",
      status: 409,
      code: "",
      message: "",
      requestId: "req-9"
    })
    expect(error).toBeInstanceOf(Conflict)
    expect(error.message).toBe("409 Conflict (POST /api_keys)")
    expect(error.code).toBe("")
    expect(error.requestId).toBe("req-9")
  })

  it("maps other 5xx statuses to ServerError", () => {
    for (const status of [501, 507, 599]) {
      const error = fromResponse({ method: "GET", path: "/projects", status })
      expect(error).toBeInstanceOf(ServerError)
      expect(error.message).toContain(String(status))
      expect(error.message).toContain("GET /projects")
    }
  })

  it("maps other non-2xx statuses to UnexpectedStatus", () => {
    for (const status of [100, 301, 304, 405, 410, 451, 600]) {
      expect(fromResponse({ method: "GET", path: "/projects", status })).toBeInstanceOf(UnexpectedStatus)
    }
  })

  it.each(["30", "Wed, 21 Oct 2015 07:28:00 GMT"])("carries Retry-After %j on 429", (retryAfter) => {
    const error = fromResponse({ method: "GET", path: "/projects", status: 429, retryAfter })
    expect(error).toBeInstanceOf(RateLimited)
    expect((error as RateLimited).retryAfter).toBe(retryAfter)
  })

  it("leaves retryAfter undefined on 429 without Retry-After", () => {
    const error = fromResponse({ method: "GET", path: "/projects", status: 429 })
    expect(error).toBeInstanceOf(RateLimited)
    expect((error as RateLimited).retryAfter).toBeUndefined()
  })

  it("carries Retry-After on 503", () => {
    const error = fromResponse({ method: "POST", path: "/api_keys", status: 503, retryAfter: "5" })
    expect(error).toBeInstanceOf(ServiceUnavailable)
    expect((error as ServiceUnavailable).retryAfter).toBe("5")
  })

  it.effect("yields errors that can be caught by tag", () =>
    Effect.gen(function* () {
      const retryAfter = yield* Effect.fail(
        fromResponse({ method: "GET", path: "/projects", status: 429, retryAfter: "2" })
      ).pipe(
        Effect.catchTags({
          RateLimited: (e) => Effect.succeed(e.retryAfter),
          ServiceUnavailable: () => Effect.succeed("unexpected")
        })
      )
      expect(retryAfter).toBe("2")

      const error = yield* Effect.flip(Effect.fail(fromResponse({ method: "GET", path: "/x", status: 401 })))
      expect(error._tag).toBe("Unauthorized")
    })
  )

  it.effect("yields as a failure from Effect.gen", () =>
    Effect.gen(function* () {
      const program = Effect.gen(function* () {
        return yield* fromResponse({ method: "GET", path: "/projects", status: 404, message: "project not found" })
      })
      const error = yield* Effect.flip(program)
      expect(error).toBeInstanceOf(NotFound)
      expect(error.message).toBe("project not found")
    })
  )
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
