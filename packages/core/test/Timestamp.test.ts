import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either, ParseResult, Schema } from "effect"
import { Timestamp } from "../src/index.js"

describe("Timestamp", () => {
  it.each([
    ["2022-11-15T20:13:35Z", 1668543215000],
    ["2022-12-09T08:47:52.20417Z", 1670575672204],
    ["2022-12-09T08:47:52.2Z", 1670575672200],
    ["2022-12-09T08:47:52.123456789Z", 1670575672123]
  ])("decodes %s to DateTime.Utc at epoch millis %d", (input, millis) => {
    const instant = Schema.decodeUnknownSync(Timestamp)(input)
    expect(DateTime.isUtc(instant)).toBe(true)
    expect(DateTime.toEpochMillis(instant)).toBe(millis)
  })

  it("encodes to ISO 8601 with milliseconds, ending in Z", () => {
    const instant = Schema.decodeUnknownSync(Timestamp)("2022-11-15T20:13:35Z")
    expect(Schema.encodeSync(Timestamp)(instant)).toBe("2022-11-15T20:13:35.000Z")
  })

  it.each(["not a timestamp", "2022-13-45T99:00:00Z", "", "1", "2022", "Nov 15 2022", "2022-11-15 20:13:35"])(
    "rejects %j with a readable message",
    (input) => {
      const result = Schema.decodeUnknownEither(Timestamp)(input)
      expect(Either.isLeft(result)).toBe(true)
      if (Either.isLeft(result)) {
        const message = ParseResult.TreeFormatter.formatErrorSync(result.left)
        expect(message).toContain("Timestamp")
        expect(message).toContain(JSON.stringify(input))
      }
    }
  )

  it("rejects a number", () => {
    expect(Either.isLeft(Schema.decodeUnknownEither(Timestamp)(1668543215000))).toBe(true)
  })
})
