import { describe, expect, it } from "@effect/vitest"
import { Cause, Config, ConfigProvider, Data, Effect, FiberId } from "effect"
import { ErrorLine, InvalidApiKey, NotFound, TransportError } from "../src/index.js"

/** The ConfigError `config` fails with when read from `env`. */
const configError = <A>(config: Config.Config<A>, env: Record<string, string>) =>
  Effect.runSync(Effect.flip(Effect.withConfigProvider(config, ConfigProvider.fromMap(new Map(Object.entries(env))))))

class Tagged extends Data.TaggedError("Tagged")<{ readonly detail: string }> {}

describe("ErrorLine", () => {
  it("an error of the SDK: its tag and message (method, route, status)", () => {
    const error = new NotFound({ method: "DELETE", route: "/api_keys/{key_id}", path: "/api_keys/7", status: 404 })
    expect(ErrorLine.fromError(error)).toBe("NotFound: DELETE /api_keys/{key_id}: 404 Not Found")
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
    expect(ErrorLine.fromError("plain\ttext")).toBe("plain text")
    expect(ErrorLine.fromError(42)).toBe("42")
    expect(ErrorLine.fromError(new Error("bidi \u202e and nul \u0000"))).toBe("bidi \\u202e and nul \\u0000")
  })

  it("a message longer than lineLimit is cut", () => {
    const line = ErrorLine.fromError(new Error("x".repeat(5000)))
    expect(line.length).toBe(ErrorLine.lineLimit)
    expect(line.endsWith("...")).toBe(true)
  })

  it("a cause: the first failure, else the first defect, else interrupted", () => {
    const both = Cause.sequential(Cause.die(new Error("defect")), Cause.fail(new Error("failed")))
    expect(ErrorLine.fromCause(both)).toBe("failed")
    expect(ErrorLine.fromCause(Cause.die(new Error("defect")))).toBe("defect")
    expect(ErrorLine.fromCause(Cause.interrupt(FiberId.none))).toBe("interrupted")
  })
})
