import { describe, expect, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import { Body } from "../src/index.js"

const encode = (text: string) => new TextEncoder().encode(text)

/** A body of `chunks`, counting how many were pulled. */
const counted = (chunks: ReadonlyArray<Uint8Array>) => {
  const pulled = { count: 0 }
  const body = Stream.fromIterable(chunks).pipe(
    Stream.rechunk(1),
    Stream.tap(() => Effect.sync(() => pulled.count++))
  )
  return { body, pulled }
}

describe("Body.text", () => {
  it.effect("joins the chunks, a character split between two included; an empty body is empty", () =>
    Effect.gen(function* () {
      const euro = encode("€")
      const body = Stream.make(encode('{"price":"1'), euro.subarray(0, 1), euro.subarray(1), encode('"}'))
      expect(yield* Body.text(body, { maxBytes: 64 })).toBe('{"price":"1€"}')
      expect(yield* Body.text(Stream.empty, { maxBytes: 64 })).toBe("")
    })
  )

  it.effect("a body of exactly maxBytes is read; one byte more fails with TooLarge", () =>
    Effect.gen(function* () {
      expect(yield* Body.text(Stream.make(encode("abcd")), { maxBytes: 4 })).toBe("abcd")
      const error = yield* Effect.flip(Body.text(Stream.make(encode("abcde")), { maxBytes: 4 }))
      expect(error).toMatchObject({ _tag: "BodyTooLarge", maxBytes: 4 })
    })
  )

  it.effect("past the limit, stop pulls no further chunk; drain pulls them all", () =>
    Effect.gen(function* () {
      const chunks = Array.from({ length: 10 }, () => encode("xxxx"))
      const stopped = counted(chunks)
      expect(yield* Effect.flip(Body.bytes(stopped.body, { maxBytes: 6 }))).toBeInstanceOf(Body.TooLarge)
      expect(stopped.pulled.count).toBe(2)
      const drained = counted(chunks)
      expect(yield* Effect.flip(Body.bytes(drained.body, { maxBytes: 6, past: "drain" }))).toBeInstanceOf(Body.TooLarge)
      expect(drained.pulled.count).toBe(10)
    })
  )

  it.effect("bytes that are not UTF-8: U+FFFD by default, NotUtf8 with malformed: fail", () =>
    Effect.gen(function* () {
      const body = Stream.make(new Uint8Array([0x61, 0xff, 0x62]))
      expect(yield* Body.text(body, { maxBytes: 64 })).toBe("a\uFFFDb")
      const error = yield* Effect.flip(Body.text(body, { maxBytes: 64, malformed: "fail" }))
      expect(error).toBeInstanceOf(Body.NotUtf8)
    })
  )

  it.effect("a failure of the body is passed on", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Body.text(Stream.fail("connection reset" as const), { maxBytes: 64 }))
      expect(error).toBe("connection reset")
    })
  )
})
