import { describe, expect, it } from "@effect/vitest"
import { Either, ParseResult, Schema } from "effect"
import { ApiKeyCreated, DecodeIssue, OperationsPage, Timestamp } from "../src/index.js"

const secret = "sk_live_9f8e7d6c5b4a39281706f5e4d3c2b1a0xq7v2n9k4m1p8r3s6t0w"

/** The parse issue of a value that must not decode with `schema`. */
const issueOf = (
  schema: Schema.Schema<any, any>,
  input: unknown,
  errors: "first" | "all" = "all"
): ParseResult.ParseIssue => {
  const result = Schema.decodeUnknownEither(schema, { errors })(input)
  if (Either.isRight(result)) throw new Error(`expected decoding to fail, got ${String(result.right)}`)
  return result.left.issue
}

const formatted = (schema: Schema.Schema<any, any>, input: unknown, options?: DecodeIssue.Options): string =>
  DecodeIssue.format(issueOf(schema, input), options)

/** Every substring of `text` of `length` characters: none of them may appear in a message. */
const fragments = (text: string, length: number): ReadonlyArray<string> =>
  Array.from({ length: text.length - length + 1 }, (_, i) => text.slice(i, i + length))

describe("DecodeIssue.format", () => {
  it("names the path of the problem as a.0.b", () => {
    const schema = Schema.Struct({ a: Schema.Array(Schema.Struct({ b: Schema.String })) })
    expect(formatted(schema, { a: [{ b: "ok" }, { b: 12 }] })).toBe("a.1.b: expected string, got 12")
    expect(formatted(schema, { a: [{}] })).toBe("a.0.b: is missing")
  })

  it("has no path for a problem at the top", () => {
    expect(formatted(Schema.Number, "x")).toBe('expected number, got "x"')
    expect(formatted(Schema.Struct({ a: Schema.Number }), [1, 2])).toBe("expected an object, got an array of 2 items")
  })

  it("says what is unexpected with onExcessProperty: error", () => {
    const result = Schema.decodeUnknownEither(Schema.Struct({ a: Schema.Number }), { onExcessProperty: "error" })({
      a: 1,
      b: 2
    })
    if (Either.isRight(result)) throw new Error("expected decoding to fail")
    expect(DecodeIssue.format(result.left.issue)).toBe('b: is unexpected, expected: "a"')
  })

  it("says a key is not a field when the issue brings no message of its own (Endpoint.encode's)", () => {
    const issue = new ParseResult.Pointer("foo", { foo: 1 }, new ParseResult.Unexpected(1))
    expect(DecodeIssue.format(issue)).toBe("foo: is not a field this endpoint takes")
  })

  it("summarizes values by their kind, never walking into them", () => {
    const schema = Schema.Struct({ n: Schema.Number })
    expect(formatted(schema, { n: null })).toBe("n: expected number, got null")
    expect(formatted(schema, { n: true })).toBe("n: expected number, got true")
    expect(formatted(schema, { n: { deep: [1, 2] } })).toBe("n: expected number, got an object")
    expect(formatted(schema, { n: [1, 2, 3] })).toBe("n: expected number, got an array of 3 items")
  })

  it("uses the schema's identifier to say what was expected", () => {
    const Id = Schema.String.pipe(Schema.pattern(/^[a-z]+$/)).annotations({ identifier: "LowerId" })
    expect(formatted(Schema.Struct({ id: Id }), { id: "ABC" })).toBe('id: expected LowerId, got "ABC"')
  })

  it("lists at most maxIssues problems (3 by default), then '; and more'", () => {
    const schema = Schema.Struct({
      a: Schema.Number,
      b: Schema.Number,
      c: Schema.Number,
      d: Schema.Number,
      e: Schema.Number
    })
    const bad = { a: "x", b: "y", c: "z", d: "w", e: "v" }
    expect(formatted(schema, bad)).toBe(
      'a: expected number, got "x"; b: expected number, got "y"; c: expected number, got "z"; and more'
    )
    expect(formatted(schema, bad, { maxIssues: 1 })).toBe('a: expected number, got "x"; and more')
    expect(formatted(schema, bad, { maxIssues: 5 })).not.toContain("and more")
    expect(formatted(schema, { ...bad, d: 1, e: 2 })).toBe(
      'a: expected number, got "x"; b: expected number, got "y"; c: expected number, got "z"'
    )
  })

  it("lists one problem per path", () => {
    const schema = Schema.Struct({ a: Schema.String.pipe(Schema.minLength(3), Schema.pattern(/^\d+$/)) })
    expect(formatted(schema, { a: "x" }).split("; ")).toHaveLength(1)
  })

  describe('values: "never"', () => {
    const schemas: ReadonlyArray<readonly [string, Schema.Schema<any, any>]> = [
      ["number", Schema.Number],
      ["integer", Schema.Int],
      ["UUID", Schema.UUID],
      ["literal", Schema.Literal("a", "b")],
      ["bounded string", Schema.NonEmptyString.pipe(Schema.maxLength(5))],
      ["pattern", Schema.String.pipe(Schema.pattern(/^\d+$/))],
      ["union", Schema.Union(Schema.Number, Schema.Boolean)],
      ["template literal", Schema.TemplateLiteral("x-", Schema.Number)],
      ["struct", Schema.Struct({ k: Schema.String })],
      ["array", Schema.Array(Schema.Number)]
    ]

    it.each(schemas)("never quotes the refused value (%s)", (_label, schema) => {
      const input = { value: secret, list: [secret], nested: { deeper: secret } }
      const wrapped = Schema.Struct({
        value: schema,
        list: Schema.Array(schema),
        nested: Schema.Struct({ deeper: schema })
      })
      const message = formatted(wrapped, input, { values: "never" })
      expect(message).not.toBe("")
      for (const fragment of fragments(secret, 8)) expect(message).not.toContain(fragment)
      // The default quotes an excerpt: the check above is not vacuous.
      expect(formatted(wrapped, input)).toContain(secret.slice(0, 20))
    })

    it("never quotes the key of a created API key in a body that does not decode", () => {
      const body = { id: secret, key: secret, name: 12, created_at: "2022-12-09T08:47:52Z" }
      const message = formatted(ApiKeyCreated, body, { values: "never" })
      expect(message).toContain("id: expected")
      for (const fragment of fragments(secret, 8)) expect(message).not.toContain(fragment)
    })
  })

  it("formats a 5000-deep nested array without overflowing the stack, naming the first problem", () => {
    let deep: unknown = [secret]
    for (let i = 0; i < 5000; i++) deep = [deep]
    expect(formatted(Schema.Array(Schema.Number), deep)).toBe("0: expected number, got an array of 1 items")
    expect(formatted(Schema.Struct({ a: Schema.Array(Schema.Array(Schema.String)) }), { a: deep })).toBe(
      "a.0.0: expected string, got an array of 1 items"
    )
    const message = formatted(OperationsPage, { operations: deep, pagination: deep }, { values: "never" })
    expect(message).toContain("operations.0")
    expect(message).not.toContain(secret.slice(0, 8))
  })

  it("lets a message annotation win over what the schema expects", () => {
    const schema = Schema.Struct({
      n: Schema.Number.annotations({ message: () => "n must be a number" }),
      s: Schema.String.pipe(Schema.minLength(3, { message: () => "s is at least 3 characters" })),
      limit: Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 10)).annotations({
        message: () => ({ message: "limit must be from 1 to 10", override: true })
      })
    })
    expect(formatted(schema, { n: "x", s: "ab", limit: "11" })).toBe(
      "n: n must be a number; s: s is at least 3 characters; limit: limit must be from 1 to 10"
    )
    // override: the outer message replaces the inner ones, even for a value of the wrong type.
    expect(formatted(schema, { n: 1, s: "abc", limit: "abc" })).toBe("limit: limit must be from 1 to 10")
  })

  it("leaves message annotations out under values: never (they may quote the value)", () => {
    const schema = Schema.Struct({ n: Schema.Number.annotations({ message: (issue) => `n is not ${String(issue)}` }) })
    expect(formatted(schema, { n: secret }, { values: "never" })).toBe("n: expected number")
  })

  it("escapes and cuts a key of the path", () => {
    const schema = Schema.Record({ key: Schema.String, value: Schema.Number })
    const message = formatted(schema, { "a\nb": "x" })
    expect(message).toBe('a\\nb: expected number, got "x"')
    expect(message).not.toContain("\n")
  })

  it("keeps a message short however many problems there are", () => {
    const schema = Schema.Array(Schema.Number)
    const message = formatted(
      schema,
      Array.from({ length: 10_000 }, () => "x".repeat(1000)),
      { maxIssues: 1000 }
    )
    expect(message.length).toBeLessThanOrEqual(400)
    expect(message.endsWith("...")).toBe(true)
  })
})

describe("DecodeIssue.excerpt", () => {
  it("keeps a short printable text as it is", () => {
    expect(DecodeIssue.excerpt("spring-example-302709")).toBe("spring-example-302709")
    expect(DecodeIssue.excerpt("")).toBe("")
  })

  it("escapes line feeds, tabs and other controls", () => {
    expect(DecodeIssue.excerpt("line\nbreak")).toBe("line\\nbreak")
    expect(DecodeIssue.excerpt("a\tb")).toBe("a\\tb")
    expect(DecodeIssue.excerpt("a\r\u0000b")).toBe("a\\u000d\\u0000b")
  })

  it("escapes bidi overrides and line separators (U+202E, U+2028)", () => {
    expect(DecodeIssue.excerpt("abc\u202edef")).toBe("abc\\u202edef")
    expect(DecodeIssue.excerpt("a\u2028b\u2029c")).toBe("a\\u2028b\\u2029c")
    expect(DecodeIssue.excerpt("x\u202e")).not.toContain("\u202e")
  })

  it("escapes a lone surrogate but keeps an emoji", () => {
    expect(DecodeIssue.excerpt("a\ud800b")).toBe("a\\ud800b")
    expect(DecodeIssue.excerpt("ok 😀")).toBe("ok 😀")
  })

  it("cuts a long text to 40 characters ending with ...", () => {
    const cut = DecodeIssue.excerpt("x".repeat(100))
    expect(cut).toHaveLength(DecodeIssue.excerptLimit)
    expect(DecodeIssue.excerptLimit).toBe(40)
    expect(cut).toBe(`${"x".repeat(37)}...`)
  })

  it("never cuts an escape in half", () => {
    const cut = DecodeIssue.excerpt(`${"x".repeat(36)}\n${"y".repeat(10)}`)
    expect(cut).toBe(`${"x".repeat(36)}...`)
    expect(cut.length).toBeLessThanOrEqual(40)
    expect(DecodeIssue.excerpt("\u202e".repeat(50)).length).toBeLessThanOrEqual(40)
    expect(DecodeIssue.excerpt("\u202e".repeat(50))).toBe(`${"\\u202e".repeat(6)}...`)
  })

  it("keeps a text of 37 characters whole", () => {
    expect(DecodeIssue.excerpt("z".repeat(37))).toBe("z".repeat(37))
  })

  it("reads only the start of a huge text", () => {
    const huge = `${"a".repeat(50)}${"\n".repeat(10_000_000)}`
    expect(DecodeIssue.excerpt(huge)).toBe(`${"a".repeat(37)}...`)
  })
})

describe("format with values: never, for messages schemas build from the value", () => {
  const secret = "sk_live_9f8e7d6c5b4a39281706f5e4d3c2b1a0"
  it.each([
    ["NumberFromString", Schema.Struct({ n: Schema.NumberFromString })],
    ["Timestamp", Schema.Struct({ created_at: Timestamp })],
    ["DateTimeUtc", Schema.Struct({ at: Schema.DateTimeUtc })]
  ])("%s: the refused value is not quoted", (_, schema) => {
    const value = { n: secret, created_at: secret, at: secret }
    const result = Schema.decodeUnknownEither(schema as Schema.Schema<unknown, unknown>)(value)
    if (result._tag !== "Left") throw new Error("expected a decode failure")
    const message = DecodeIssue.format(result.left.issue, { values: "never" })
    expect(message).not.toContain(secret.slice(0, 12))
    expect(message).not.toContain(secret.slice(-12))
    expect(message).toMatch(/^\w+: expected /)
  })
})
