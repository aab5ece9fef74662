import { describe, expect, it } from "@effect/vitest"
import { Cause, Config, ConfigProvider, Data, Effect, FiberId } from "effect"
import { ErrorLine, InvalidApiKey, NotFound, TransportError, Unauthorized } from "../src/index.js"

/** The ConfigError `config` fails with when read from `env`. */
const configError = <A>(config: Config.Config<A>, env: Record<string, string>) =>
  Effect.runSync(Effect.flip(Effect.withConfigProvider(config, ConfigProvider.fromMap(new Map(Object.entries(env))))))

class Tagged extends Data.TaggedError("Tagged")<{ readonly detail: string }> {}

describe("ErrorLine", () => {
  it("an error of the SDK: its tag and message (method, path sent, status)", () => {
    const error = new NotFound({ method: "DELETE", route: "/api_keys/{key_id}", path: "/api_keys/7", status: 404 })
    expect(ErrorLine.fromError(error)).toBe("NotFound: DELETE /api_keys/7: 404 Not Found")
    const transport = new TransportError({
      method: "GET",
      route: "/projects",
      path: "/projects",
      description: "connect ECONNREFUSED\n127.0.0.1:1"
    })
    expect(ErrorLine.fromError(transport)).toBe(
      "TransportError: GET /projects: no response: connect ECONNREFUSED 127.0.0.1:1"
    )
    expect(ErrorLine.fromError(new InvalidApiKey({ message: "the API key is empty" }))).toBe(
      "InvalidApiKey: the API key is empty"
    )
  })

  it("a missing or invalid redacted variable: named, its redacted message left out", () => {
    expect(ErrorLine.fromError(configError(Config.redacted("DBPLATFORM_API_KEY"), {}))).toBe(
      "configuration: Missing data at DBPLATFORM_API_KEY"
    )
    const invalid = configError(Config.redacted(Config.integer("SECRET")), { SECRET: "hunter2" })
    expect(ErrorLine.fromError(invalid)).toBe("configuration: Invalid data at SECRET")
    expect(ErrorLine.fromError(invalid)).not.toContain("hunter2")
  })

  it("several configuration problems: each named, on one line", () => {
    const error = configError(Config.all([Config.redacted("A"), Config.integer("PORT")]), { PORT: "abc" })
    expect(ErrorLine.fromError(error)).toBe(
      `configuration: Missing data at A; Invalid data at PORT: Expected an integer value but received "abc"`
    )
  })

  it("any other error: its tag and message, or its text, on one line", () => {
    expect(ErrorLine.fromError(new Error("line one\n  line two"))).toBe("line one line two")
    expect(ErrorLine.fromError(new Tagged({ detail: "x" }))).toBe("Tagged")
    expect(ErrorLine.fromError({ _tag: "ServeError", message: "listen EADDRINUSE" })).toBe(
      "ServeError: listen EADDRINUSE"
    )
    expect(ErrorLine.fromError({ _tag: "X", message: "X: already tagged" })).toBe("X: already tagged")
    const listen = Object.assign(new Error("listen EADDRINUSE: address already in use 127.0.0.1:4010"), {
      code: "EADDRINUSE"
    })
    expect(ErrorLine.fromError({ _tag: "ServeError", cause: listen })).toBe(
      "ServeError: listen EADDRINUSE: address already in use 127.0.0.1:4010"
    )
    expect(ErrorLine.fromError("plain\ttext")).toBe("plain text")
    expect(ErrorLine.fromError(42)).toBe("42")
    expect(ErrorLine.fromError(new Error("bidi \u202e and nul \u0000"))).toBe("bidi \\u202e and nul \\u0000")
  })

  it("a message longer than lineLimit is cut", () => {
    const line = ErrorLine.fromError(new Error("x".repeat(5000)))
    expect(line.length).toBe(ErrorLine.lineLimit)
    expect(line.endsWith("...")).toBe(true)
  })

  it("a cut never splits a character in two (code points, not UTF-16 units)", () => {
    const line = ErrorLine.fromError(new Error(`aa${"\u{1F600}".repeat(1200)}`))
    // No lone surrogate (half of a character) anywhere in the line.
    expect(/\p{Cs}/u.test(line)).toBe(false)
    expect(Array.from(line)).toHaveLength(ErrorLine.lineLimit)
    expect(line.endsWith("...")).toBe(true)
  })

  it("an error that cannot be turned into text is still printed, never thrown", () => {
    const throwing = Object.defineProperty({}, "message", {
      get() {
        throw new Error("no")
      }
    })
    expect(() => ErrorLine.fromError(Object.create(null))).not.toThrow()
    expect(ErrorLine.fromError(Object.create(null))).toBe("[object Object]")
    expect(ErrorLine.fromError({ message: Object.create(null) })).toBe("[object Object]")
    expect(ErrorLine.fromError(throwing)).toBe("an error that cannot be printed ([object Object])")
    expect(ErrorLine.fromCause(Cause.fail(Object.create(null)), { verbose: true })).toBe("[object Object]")
  })

  it("a rejection of Effect.runPromise (a FiberFailure): the error it holds, tag and verbose details included", async () => {
    const error = new Unauthorized({
      method: "GET",
      route: "/projects",
      path: "/projects",
      status: 401,
      code: "AUTH",
      description: "API key is not valid",
      requestId: "r1"
    })
    const rejection = await Effect.runPromise(Effect.fail(error)).catch((e: unknown) => e)
    expect(ErrorLine.fromError(rejection)).toBe(ErrorLine.fromError(error))
    expect(ErrorLine.fromError(rejection)).toMatch(/^Unauthorized: GET \/projects: 401/)
    expect(ErrorLine.fromError(rejection, { verbose: true })).toContain("route: /projects")
  })

  it("a cause: the first failure, else the first defect, else interrupted", () => {
    const both = Cause.sequential(Cause.die(new Error("defect")), Cause.fail(new Error("failed")))
    expect(ErrorLine.fromCause(both)).toBe("failed")
    expect(ErrorLine.fromCause(Cause.die(new Error("defect")))).toBe("defect")
    expect(ErrorLine.fromCause(Cause.interrupt(FiberId.none))).toBe("interrupted")
  })

  it("an error response: method, path sent, status, the server's message and request id; route template and code on verbose", () => {
    const error = new Unauthorized({
      method: "GET",
      route: "/projects/{project_id}",
      path: "/projects/bold-dawn-433334",
      status: 401,
      code: "UNAUTHORIZED",
      description: "API key is not valid",
      requestId: "3f2c9a"
    })
    expect(ErrorLine.fromError(error)).toBe(
      "Unauthorized: GET /projects/bold-dawn-433334: 401 Unauthorized: API key is not valid (request id 3f2c9a)"
    )
    expect(ErrorLine.fromError(error, { verbose: true })).toBe(
      "Unauthorized: GET /projects/bold-dawn-433334: 401 Unauthorized: API key is not valid (request id 3f2c9a)" +
        "; route: /projects/{project_id}; error code: UNAUTHORIZED"
    )
  })

  it("verbose: each link of the cause chain with its name and code, at most causeDepth", () => {
    const network = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" })
    const fetchFailed = new TypeError("fetch failed", { cause: network })
    const transport = new TransportError({
      method: "GET",
      route: "/projects",
      path: "/projects",
      description: "fetch failed: connect ECONNREFUSED 127.0.0.1:1",
      requestId: "r-1",
      cause: fetchFailed
    })
    const plain =
      "TransportError: GET /projects: no response: fetch failed: connect ECONNREFUSED 127.0.0.1:1 (request id r-1)"
    expect(ErrorLine.fromError(transport)).toBe(plain)
    expect(ErrorLine.fromError(transport, { verbose: true })).toBe(
      `${plain}; route: /projects; caused by TypeError: fetch failed; caused by Error [ECONNREFUSED]: connect ECONNREFUSED 127.0.0.1:1`
    )
    let deep: Error = new Error("level 9")
    for (let level = 8; level >= 0; level--) deep = new Error(`level ${level}`, { cause: deep })
    const line = ErrorLine.fromError(deep, { verbose: true })
    expect(line.match(/caused by/g)).toHaveLength(ErrorLine.causeDepth)
    expect(line).toContain("caused by Error: level 5")
    expect(line).not.toContain("level 6")
  })

  it("an error of @effect/cli (by its type id): invalid arguments, which it has printed already", () => {
    const validation = { _tag: "InvalidValue", [Symbol.for("@effect/cli/ValidationError")]: Symbol.for("x") }
    expect(ErrorLine.isValidationError(validation)).toBe(true)
    expect(ErrorLine.isValidationError(new Error("x"))).toBe(false)
    expect(ErrorLine.fromCause(Cause.fail(validation))).toBe("invalid arguments (see above)")
  })

  it("failure: the line a program prints before it exits 1", () => {
    const error = new NotFound({ method: "DELETE", route: "/api_keys/{key_id}", path: "/api_keys/7", status: 404 })
    expect(ErrorLine.failure("my-tool", Cause.fail(error))).toBe(
      "my-tool failed: NotFound: DELETE /api_keys/7: 404 Not Found\n"
    )
    expect(ErrorLine.failure("my-tool", Cause.fail(error), { verbose: true })).toBe(
      "my-tool failed: NotFound: DELETE /api_keys/7: 404 Not Found; route: /api_keys/{key_id}\n"
    )
  })
})
