/**
 * Timestamps of the control API v2 (`docs/contract.md` §2, §10.1).
 *
 * @since 0.1.0
 */
import * as DateTime from "effect/DateTime"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { excerpt } from "./DecodeIssue.js"

/** RFC 3339 in UTC or with an offset, with or without fractional seconds. */
const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

/**
 * An RFC 3339 UTC string, with or without fractional seconds (`2022-11-15T20:13:35Z`,
 * `2022-12-09T08:47:52.20417Z`), decoded to a `DateTime.Utc` (millisecond precision).
 * Encodes as ISO 8601 with milliseconds.
 *
 * @example
 * ```ts
 * import { Timestamp } from "@dbplatform/core"
 * import { DateTime, Schema } from "effect"
 *
 * const at = Schema.decodeUnknownSync(Timestamp)("2022-12-09T08:47:52.20417Z")
 * console.log(DateTime.formatIso(at)) // 2022-12-09T08:47:52.204Z
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const Timestamp = Schema.transformOrFail(Schema.String, Schema.DateTimeUtcFromSelf, {
  strict: true,
  // The form and the date are checked in one step (a third less than a pattern refinement
  // composed with `Schema.DateTimeUtc`): a timestamp is most of an operation's decoding.
  decode: (text, _, ast) => {
    const millis = rfc3339.test(text) ? Date.parse(text) : Number.NaN
    return Number.isNaN(millis)
      ? ParseResult.fail(
          new ParseResult.Type(
            ast,
            text,
            `expected an RFC 3339 timestamp such as 2022-11-15T20:13:35Z, got "${excerpt(text)}"`
          )
        )
      : ParseResult.succeed(DateTime.unsafeMake(millis))
  },
  encode: (at) => ParseResult.succeed(DateTime.formatIso(at))
}).annotations({ identifier: "Timestamp" })
/**
 * A decoded {@link Timestamp}: a `DateTime.Utc`.
 *
 * @since 0.1.0
 * @category schemas
 */
export type Timestamp = typeof Timestamp.Type
