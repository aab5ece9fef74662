import { FakePlatform } from "@dbplatform/testing"
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { describe, expect, it } from "vitest"
import { describeRateLimit, RateLimitFlag } from "../src/internal/rateLimitFlag.js"

const decode = Schema.decodeUnknownEither(RateLimitFlag)
const millis = (rateLimit: FakePlatform.RateLimit) => ({
  account: rateLimit.account && { limit: rateLimit.account.limit, ms: Duration.toMillis(rateLimit.account.interval) },
  route: rateLimit.route && { limit: rateLimit.route.limit, ms: Duration.toMillis(rateLimit.route.interval) }
})

describe("--rate-limit", () => {
  it("platform is the platform's published limits", () => {
    expect(decode("platform")).toEqual(Either.right(FakePlatform.platformRateLimit))
    expect(describeRateLimit(FakePlatform.platformRateLimit)).toBe("700 per 1m per account, 40 per 1s per route")
  })

  it.each([
    ["account=700/1m,route=40/1s", { account: { limit: 700, ms: 60_000 }, route: { limit: 40, ms: 1000 } }],
    ["route=40/s,account=5/2h", { account: { limit: 5, ms: 7_200_000 }, route: { limit: 40, ms: 1000 } }],
    ["account=3/500ms", { account: { limit: 3, ms: 500 }, route: undefined }],
    ["route=1/10s", { account: undefined, route: { limit: 1, ms: 10_000 } }]
  ])("%s: either limit, both, in any order", (flag, expected) => {
    const decoded = decode(flag)
    expect(Either.isRight(decoded) && millis(decoded.right)).toEqual(expected)
  })

  it.each([
    ["40/1s", "is not account=LIMIT/INTERVAL or route=LIMIT/INTERVAL"],
    ["fast", "is not account=LIMIT/INTERVAL or route=LIMIT/INTERVAL"],
    ["account=0/1m", "must be at least 1"],
    ["route=40/0s", "must be at least 1"],
    ["route=40/1d", "is not LIMIT/INTERVAL"],
    ["account=1/1m,account=2/1m", "account is given twice"],
    ["account=1/1m,", "is not account=LIMIT/INTERVAL"],
    ["", "is not account=LIMIT/INTERVAL"]
  ])("%j is refused, saying why and what it takes", (flag, reason) => {
    const decoded = decode(flag)
    expect(Either.isLeft(decoded)).toBe(true)
    const message = Either.isLeft(decoded) ? decoded.left.message : ""
    expect(message).toContain(reason)
    expect(message).toContain("platform (700/1m per account + 40/1s per route)")
  })
})
