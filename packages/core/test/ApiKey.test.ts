import * as util from "node:util"
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Either, Logger, Option, ParseResult, Redacted, Schema } from "effect"
import { ApiKey, ApiKeyCreated, ApiKeyId, ApiKeyList, ApiKeyRevoked, CreateApiKeyRequest } from "../src/index.js"

/** The readable report of a payload that must not decode. */
const decodeFailure = <A, I>(schema: Schema.Schema<A, I>, input: unknown): string => {
  const result = Schema.decodeUnknownEither(schema)(input)
  if (Either.isRight(result)) {
    throw new Error(`expected decoding to fail, got ${String(result.right)}`)
  }
  return ParseResult.TreeFormatter.formatErrorSync(result.left)
}

const secret = "xq7v2n9k4m1p8r3s6t0w5y2z8a4b7c1d9e3f6g0h2j5l8n1q4s7u0w3y6z9b2d5f"
const creatorId = "6f2b1c9e-3d4a-4e8b-9c7d-1a2b3c4d5e6f"

/** `GET /api_keys` as a real server sends it: `created_by` is an object here. */
const listPayload = [
  {
    id: 165432,
    name: "ci",
    created_at: "2022-11-15T20:13:35Z",
    created_by: { id: creatorId, name: "Ada", image: "https://example.com/ada.png" },
    last_used_at: "2022-12-09T08:47:52.20417Z",
    last_used_from_addr: "192.0.2.10",
    some_new_field: 1
  },
  {
    id: 165433,
    name: "never used, null",
    created_at: "2022-12-01T10:00:00.5Z",
    created_by: { id: creatorId, name: "Ada", image: "" },
    last_used_at: null,
    last_used_from_addr: ""
  },
  {
    id: 165434,
    name: "never used, absent",
    created_at: "2022-12-01T10:00:00Z",
    created_by: { id: creatorId, name: "Ada" },
    last_used_from_addr: ""
  }
]

describe("ApiKeyList (GET /api_keys)", () => {
  it("decodes a bare array of real list items", () => {
    const keys = Schema.decodeUnknownSync(ApiKeyList)(listPayload)
    expect(keys).toHaveLength(3)
    expect(keys.map((key) => key.id)).toEqual([165432, 165433, 165434])
    expect(keys.map((key) => key.name)).toEqual(["ci", "never used, null", "never used, absent"])
    expect(keys[0]).toBeInstanceOf(ApiKey)
    expect(keys[0]).not.toHaveProperty("some_new_field")
  })

  it("decodes created_by as the creator object", () => {
    const [first] = Schema.decodeUnknownSync(ApiKeyList)(listPayload)
    expect(first?.created_by?.id).toBe(creatorId)
    expect(first?.created_by?.name).toBe("Ada")
    expect(first?.created_by?.image).toBe("https://example.com/ada.png")
  })

  it("decodes last_used_at present, null and absent to an Option", () => {
    const [used, nullUsed, absentUsed] = Schema.decodeUnknownSync(ApiKeyList)(listPayload)
    expect(Option.isSome(used!.last_used_at)).toBe(true)
    const lastUsed = Option.getOrThrow(used!.last_used_at)
    expect(DateTime.isUtc(lastUsed)).toBe(true)
    expect(DateTime.toEpochMillis(lastUsed)).toBe(1670575672204)
    expect(Option.isNone(nullUsed!.last_used_at)).toBe(true)
    expect(Option.isNone(absentUsed!.last_used_at)).toBe(true)
  })

  it("keeps an empty last_used_from_addr", () => {
    const keys = Schema.decodeUnknownSync(ApiKeyList)(listPayload)
    expect(keys.map((key) => key.last_used_from_addr)).toEqual(["192.0.2.10", "", ""])
  })

  it("decodes created_at with and without fractional seconds", () => {
    const [first, second] = Schema.decodeUnknownSync(ApiKeyList)(listPayload)
    expect(DateTime.toEpochMillis(first!.created_at)).toBe(1668543215000)
    expect(DateTime.toEpochMillis(second!.created_at)).toBe(Date.UTC(2022, 11, 1, 10, 0, 0, 500))
  })

  it("decodes a list item with only the fields of spec §2.2", () => {
    const key = Schema.decodeUnknownSync(ApiKey)({
      id: 7,
      name: "spec",
      created_at: "2022-11-15T20:13:35Z",
      last_used_at: "2022-11-16T08:00:00Z",
      last_used_from_addr: "198.51.100.7"
    })
    expect(key.created_by).toBeUndefined()
    expect(Option.map(key.last_used_at, DateTime.toEpochMillis)).toEqual(Option.some(Date.UTC(2022, 10, 16, 8)))
  })

  it("decodes an empty list", () => {
    expect(Schema.decodeUnknownSync(ApiKeyList)([])).toEqual([])
  })

  it("never exposes a key value in a list item", () => {
    const [first] = Schema.decodeUnknownSync(ApiKeyList)([{ ...listPayload[0], key: secret }])
    expect(first).not.toHaveProperty("key")
  })

  it("names the index and field of a bad last_used_at", () => {
    const message = decodeFailure(ApiKeyList, [listPayload[0], { ...listPayload[1], last_used_at: "last tuesday" }])
    expect(message).toContain("[1]")
    expect(message).toContain('["last_used_at"]')
    expect(message).toContain("last tuesday")
  })

  it("rejects an item without last_used_from_addr", () => {
    const { last_used_from_addr: _addr, ...withoutAddr } = listPayload[0]!
    const message = decodeFailure(ApiKeyList, [withoutAddr])
    expect(message).toContain('["last_used_from_addr"]')
    expect(message).toContain("is missing")
  })

  it.each([
    ["a string", "165432"],
    ["fractional", 1.5],
    ["an unsafe integer", 2 ** 53],
    ["an unsafe negative integer", -(2 ** 53)],
    ["not finite", Number.POSITIVE_INFINITY],
    ["NaN", Number.NaN]
  ])("rejects an id that is %s", (_label, id) => {
    const message = decodeFailure(ApiKey, { ...listPayload[0], id })
    expect(message).toContain('["id"]')
    expect(message).toContain("ApiKeyId")
  })

  it.each([
    ["zero", 0],
    ["negative", -1],
    ["the largest safe integer", Number.MAX_SAFE_INTEGER],
    ["the smallest safe integer", Number.MIN_SAFE_INTEGER]
  ])("accepts an id that is %s (any safe integer)", (_label, id) => {
    const key = Schema.decodeUnknownSync(ApiKey)({ ...listPayload[0], id })
    expect(key.id).toBe(id)
    expect(Schema.is(ApiKeyId)(id)).toBe(true)
  })

  it("rejects a non-array answer", () => {
    expect(Either.isLeft(Schema.decodeUnknownEither(ApiKeyList)({ api_keys: listPayload }))).toBe(true)
  })
})

describe("ApiKeyCreated (POST /api_keys)", () => {
  const created = {
    id: 165435,
    key: secret,
    name: "deploy",
    created_at: "2022-12-09T08:47:52.20417Z",
    created_by: creatorId,
    another_new_field: "x"
  }

  it("decodes a real creation response with created_by as a uuid string", () => {
    const result = Schema.decodeUnknownSync(ApiKeyCreated)(created)
    expect(result).toBeInstanceOf(ApiKeyCreated)
    expect(result.id).toBe(165435)
    expect(result.name).toBe("deploy")
    expect(result.created_by).toBe(creatorId)
    expect(DateTime.toEpochMillis(result.created_at!)).toBe(1670575672204)
    expect(result).not.toHaveProperty("another_new_field")
  })

  it("decodes the spec §2.1 minimum { id, key }", () => {
    const result = Schema.decodeUnknownSync(ApiKeyCreated)({ id: 1, key: secret })
    expect(result.id).toBe(1)
    expect(Redacted.value(result.key)).toBe(secret)
    expect(result.name).toBeUndefined()
    expect(result.created_at).toBeUndefined()
    expect(result.created_by).toBeUndefined()
  })

  it("decodes key to a Redacted that gives the secret back only through Redacted.value", () => {
    const result = Schema.decodeUnknownSync(ApiKeyCreated)(created)
    expect(Redacted.isRedacted(result.key)).toBe(true)
    expect(Redacted.value(result.key)).toBe(secret)
  })

  it("does not show the secret through String, template literals, JSON or util.inspect", () => {
    const result = Schema.decodeUnknownSync(ApiKeyCreated)(created)
    const renderings = [
      String(result.key),
      `${result.key}`,
      JSON.stringify(result.key),
      util.inspect(result.key),
      util.inspect(result.key, { depth: null, showHidden: true }),
      String(result),
      JSON.stringify(result),
      util.inspect(result, { depth: null })
    ]
    for (const rendering of renderings) {
      expect(rendering).not.toContain(secret)
      expect(rendering).not.toContain(secret.slice(0, 12))
    }
    expect(String(result.key)).toBe("<redacted>")
    expect(JSON.parse(JSON.stringify(result))).toMatchObject({ id: 165435, key: "<redacted>" })
  })

  it.effect("does not show the secret when the response is logged with Effect's loggers", () =>
    Effect.gen(function* () {
      const result = Schema.decodeUnknownSync(ApiKeyCreated)(created)
      const lines: Array<string> = []
      const capture = (logger: Logger.Logger<unknown, string>) =>
        Logger.replace(Logger.defaultLogger, logger.pipe(Logger.map((line) => lines.push(line))))
      yield* Effect.log("created", result, result.key).pipe(Effect.provide(capture(Logger.logfmtLogger)))
      yield* Effect.log("created", result, result.key).pipe(Effect.provide(capture(Logger.stringLogger)))
      yield* Effect.log({ created: result }).pipe(
        Effect.provide(capture(Logger.jsonLogger)),
        Effect.annotateLogs("key", result.key)
      )
      expect(lines).toHaveLength(3)
      for (const line of lines) {
        expect(line).toContain("redacted")
        expect(line).not.toContain(secret)
      }
    })
  )

  it("rejects a response without key", () => {
    const { key: _key, ...withoutKey } = created
    const message = decodeFailure(ApiKeyCreated, withoutKey)
    expect(message).toContain('["key"]')
    expect(message).toContain("is missing")
  })

  it("rejects a non-string key, naming the field", () => {
    const message = decodeFailure(ApiKeyCreated, { ...created, key: 12345 })
    expect(message).toContain('["key"]')
  })
})

describe("ApiKeyRevoked (DELETE /api_keys/{key_id})", () => {
  it("decodes a real revocation response with created_by as a uuid string", () => {
    const revoked = Schema.decodeUnknownSync(ApiKeyRevoked)({
      id: 165432,
      name: "ci",
      created_at: "2022-11-15T20:13:35Z",
      created_by: creatorId,
      last_used_at: "2022-12-09T08:47:52.20417Z",
      last_used_from_addr: "192.0.2.10",
      revoked: true,
      extra: [1]
    })
    expect(revoked).toBeInstanceOf(ApiKeyRevoked)
    expect(revoked.id).toBe(165432)
    expect(revoked.revoked).toBe(true)
    expect(revoked.created_by).toBe(creatorId)
    expect(DateTime.toEpochMillis(revoked.created_at!)).toBe(1668543215000)
    expect(Option.map(revoked.last_used_at, DateTime.toEpochMillis)).toEqual(Option.some(1670575672204))
  })

  it("decodes a never-used key (last_used_at null, address empty)", () => {
    const revoked = Schema.decodeUnknownSync(ApiKeyRevoked)({
      id: 2,
      name: "unused",
      created_at: "2022-11-15T20:13:35Z",
      created_by: creatorId,
      last_used_at: null,
      last_used_from_addr: "",
      revoked: true
    })
    expect(Option.isNone(revoked.last_used_at)).toBe(true)
    expect(revoked.last_used_from_addr).toBe("")
  })

  it("decodes the spec §2.3 minimum", () => {
    const revoked = Schema.decodeUnknownSync(ApiKeyRevoked)({
      id: 3,
      name: "spec",
      revoked: true,
      last_used_at: "2022-11-15T20:13:35Z",
      last_used_from_addr: "198.51.100.7"
    })
    expect(revoked.created_at).toBeUndefined()
    expect(revoked.created_by).toBeUndefined()
    expect(Option.isSome(revoked.last_used_at)).toBe(true)
  })

  it("rejects revoked sent as a string", () => {
    const message = decodeFailure(ApiKeyRevoked, {
      id: 3,
      name: "spec",
      revoked: "true",
      last_used_from_addr: ""
    })
    expect(message).toContain('["revoked"]')
  })
})

describe("CreateApiKeyRequest", () => {
  const decode = Schema.decodeUnknownSync(CreateApiKeyRequest)

  it("accepts a plain name", () => {
    expect(decode({ key_name: "ci" }).key_name).toBe("ci")
  })

  it("trims surrounding whitespace", () => {
    expect(decode({ key_name: "  deploy key \n" }).key_name).toBe("deploy key")
  })

  it("encodes to the wire body with the trimmed name", () => {
    expect(Schema.encodeSync(CreateApiKeyRequest)(decode({ key_name: "\tci  " }))).toEqual({ key_name: "ci" })
  })

  it("accepts a 64-character name", () => {
    const name = "k".repeat(64)
    expect(decode({ key_name: name }).key_name).toBe(name)
  })

  it("accepts a 64-character name with surrounding whitespace (length counts after trimming)", () => {
    const name = "k".repeat(64)
    expect(decode({ key_name: `  ${name}  ` }).key_name).toBe(name)
  })

  it("rejects a 65-character name, saying why", () => {
    const message = decodeFailure(CreateApiKeyRequest, { key_name: "k".repeat(65) })
    expect(message).toContain('["key_name"]')
    expect(message).toContain("must be at most 64 characters")
  })

  it.each(["", " ", "   ", "\t\n "])("rejects the empty or blank name %j, saying why", (key_name) => {
    const message = decodeFailure(CreateApiKeyRequest, { key_name })
    expect(message).toContain('["key_name"]')
    expect(message).toContain("must not be empty")
  })

  it("rejects a missing or non-string key_name", () => {
    expect(decodeFailure(CreateApiKeyRequest, {})).toContain('["key_name"]')
    expect(decodeFailure(CreateApiKeyRequest, { key_name: 42 })).toContain('["key_name"]')
  })
})
