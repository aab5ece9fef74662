/**
 * The JSON body of every error response (docs/contract.md §10.1).
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

/**
 * `{ code, message, request_id? }`. `code` is a free string and may be `""`; `request_id`
 * echoes the `X-Request-ID` the client sent, when it sent one.
 *
 * @since 0.1.0
 * @category schemas
 */
export class GeneralError extends Schema.Class<GeneralError>("GeneralError")({
  code: Schema.String,
  message: Schema.String,
  request_id: Schema.optional(Schema.String)
}) {}
