import { FakePlatform } from "@dbplatform/testing"
import * as Duration from "effect/Duration"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

/** What `--rate-limit` takes, for the messages of a value it refuses. */
const usage =
  "a rate limit is platform (700/1m per account + 40/1s per route) or account=LIMIT/INTERVAL,route=LIMIT/INTERVAL (either or both), e.g. account=700/1m,route=40/1s; units ms, s, m, h"

const scales = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const

/** `LIMIT/INTERVAL`, e.g. `40/1s` or `700/1m` (`/s`: one second), or a reason it is not one. */
const windowOf = (text: string): FakePlatform.RateLimitWindow | string => {
  const match = /^(\d{1,9})\/(\d{0,9})(ms|s|m|h)$/.exec(text)
  if (match === null) return `"${text}" is not LIMIT/INTERVAL`
  const [, limit, amount, unit] = match
  const interval = Number(amount === "" ? 1 : amount) * scales[unit as keyof typeof scales]
  if (Number(limit) < 1 || interval < 1) return `"${text}": the limit and the interval must be at least 1`
  return { limit: Number(limit), interval: Duration.millis(interval) }
}

/** The rate limit `text` names, or why it names none. */
const rateLimitOf = (text: string): FakePlatform.RateLimit | string => {
  if (text === "platform") return FakePlatform.platformRateLimit
  const parts: { account?: FakePlatform.RateLimitWindow; route?: FakePlatform.RateLimitWindow } = {}
  for (const part of text.split(",")) {
    const [scope, window, ...rest] = part.split("=")
    if (rest.length > 0 || window === undefined || (scope !== "account" && scope !== "route"))
      return `"${part}" is not account=LIMIT/INTERVAL or route=LIMIT/INTERVAL`
    if (parts[scope] !== undefined) return `${scope} is given twice`
    const parsed = windowOf(window)
    if (typeof parsed === "string") return parsed
    parts[scope] = parsed
  }
  return parts
}

const RateLimitFromSelf = Schema.declare(
  (input: unknown): input is FakePlatform.RateLimit => typeof input === "object" && input !== null
)

/**
 * The value of `--rate-limit`: `platform` (the platform's published limits, 700 requests a
 * minute per account and 40 a second per route), or `account=LIMIT/INTERVAL`,
 * `route=LIMIT/INTERVAL` or both joined by a comma, e.g. `account=700/1m,route=40/1s` (units
 * `ms`, `s`, `m`, `h`; `40/s` is `40/1s`). Decodes to `FakePlatform.Options.rateLimit`.
 */
export const RateLimitFlag = Schema.transformOrFail(Schema.String, RateLimitFromSelf, {
  strict: true,
  decode: (text, _, ast) => {
    const parsed = rateLimitOf(text.trim())
    return typeof parsed === "string"
      ? ParseResult.fail(new ParseResult.Type(ast, text, `${parsed}: ${usage}`))
      : ParseResult.succeed(parsed)
  },
  encode: (rateLimit) =>
    ParseResult.succeed(
      (["account", "route"] as const)
        .flatMap((scope) => {
          const window = rateLimit[scope]
          return window === undefined ? [] : [`${scope}=${window.limit}/${Duration.toMillis(window.interval)}ms`]
        })
        .join(",")
    )
})

/** The rate limit in words, for the line the emulator prints at start: `700 per 1m per account, 40 per 1s per route`. */
export const describeRateLimit = (rateLimit: FakePlatform.RateLimit): string =>
  (["account", "route"] as const)
    .flatMap((scope) => {
      const window = rateLimit[scope]
      return window === undefined ? [] : [`${window.limit} per ${Duration.format(window.interval)} per ${scope}`]
    })
    .join(", ")
