import * as Schema from "effect/Schema"

/**
 * An open enum: the `known` values typed, and any other string a newer server sends kept as
 * it is, so that an answer never fails on a new value. `String` is tried first: a union tries
 * its members in order, and the known values first would cost a comparison with each per decode.
 */
export const openEnum = <const Known extends readonly [string, ...Array<string>]>(
  known: Schema.Literal<Known>,
  identifier: string
): Schema.Schema<Known[number] | (string & {})> => Schema.Union(Schema.String, known).annotations({ identifier })
