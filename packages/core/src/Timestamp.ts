/**
 * Timestamps of the control API v2 (`docs/contract.md` §2, §10.1).
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { excerpt } from "./DecodeIssue.js"

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
export const Timestamp = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/, {
    message: (issue) =>
      `expected an RFC 3339 timestamp such as 2022-11-15T20:13:35Z, got ${typeof issue.actual === "string" ? `"${excerpt(issue.actual)}"` : typeof issue.actual}`
  }),
  Schema.compose(Schema.DateTimeUtc)
).annotations({ identifier: "Timestamp" })
/**
 * A decoded {@link Timestamp}: a `DateTime.Utc`.
 *
 * @since 0.1.0
 * @category schemas
 */
export type Timestamp = typeof Timestamp.Type
