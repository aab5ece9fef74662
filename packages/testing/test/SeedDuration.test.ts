import { describe, expect, it } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as Seed from "../src/Seed.js"

describe("Seed.SeedDuration", () => {
  it("decodes a file's number or string as it is", () => {
    expect(Schema.decodeUnknownSync(Seed.SeedDuration)(1500)).toBe(1500)
    expect(Schema.decodeUnknownSync(Seed.SeedDuration)("3 seconds")).toBe("3 seconds")
  })

  it("encodes a duration given in code in any form, as its milliseconds when it is not a number or a string", () => {
    const encode = Schema.encodeSync(Seed.SeedDuration)
    expect(encode(1500)).toBe(1500)
    expect(encode("3 seconds")).toBe("3 seconds")
    expect(encode(Duration.seconds(3))).toBe(3000)
    expect(encode(Duration.days(30))).toBe(30 * 24 * 60 * 60 * 1000)
    expect(encode(BigInt(2_000_000))).toBe(2)
    // A controlled clock's advance (`ControlApi.ClockAdvance`) and a realistic seed hold `Duration`s.
    expect(Schema.encodeSync(Seed.SeedFile)({ projects: [{ id: "p-1", age: Duration.days(60) }] })).toEqual({
      projects: [{ id: "p-1", age: 60 * 24 * 60 * 60 * 1000 }]
    })
  })

  it("refuses to encode a duration of more than 100 years, or a negative text", () => {
    const encode = Schema.encodeEither(Seed.SeedDuration)
    expect(Either.isLeft(encode(Duration.infinity))).toBe(true)
    expect(Either.isLeft(encode(Duration.days(365 * 101)))).toBe(true)
    expect(Either.isLeft(encode("-5 minutes" as Duration.DurationInput))).toBe(true)
  })
})
