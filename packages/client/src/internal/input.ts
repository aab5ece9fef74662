import { InvalidRequest } from "@dbplatform/core"
import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

/** Validates caller input with `schema`; a failure is an `InvalidRequest` and nothing is sent. */
export const validate = <A, I>(schema: Schema.Schema<A, I>, input: unknown): Effect.Effect<A, InvalidRequest> =>
  Schema.decodeUnknown(schema)(input).pipe(
    Effect.mapError((error) => new InvalidRequest({ message: ParseResult.TreeFormatter.formatErrorSync(error) }))
  )

/** A page size: an integer from 1 to `max`. */
export const PageSize = (max: number) =>
  Schema.Number.pipe(
    Schema.int({ message: () => `limit must be an integer from 1 to ${max}` }),
    Schema.between(1, max, { message: () => `limit must be an integer from 1 to ${max}` })
  ).annotations({ identifier: "limit" })

/** Checks a `limit` when one is given; without one the server's default applies. */
export const checkLimit = (
  Limit: Schema.Schema<number>,
  limit: number | undefined
): Effect.Effect<void, InvalidRequest> => (limit === undefined ? Effect.void : validate(Limit, limit))
