/**
 * A refusal: what the fake answers instead of doing what a request asks, with `status` and a
 * `GeneralError` body (docs/contract.md §10.1). One type for every refusal: a request's input
 * that does not decode, a key that may not, a pure step's `Left` (`state.ts` `Mutation`), a
 * record that is not there.
 */
import { DecodeIssue } from "@dbplatform/core"
import * as Data from "effect/Data"
import * as Either from "effect/Either"
import type * as ParseResult from "effect/ParseResult"
import { Status } from "./status.js"

/** A refusal: answered with `status` and a `GeneralError` body (docs/contract.md §10.1). */
export class Refusal extends Data.TaggedError("Refusal")<{
  readonly status: number
  readonly message: string
  readonly code?: string
  /** Headers of the answer, e.g. `retry-after`. */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** Fields of the body beside the `GeneralError`'s, e.g. a 406's `limits` (docs/contract.md §22.4). */
  readonly details?: Readonly<Record<string, unknown>> | undefined
}> {}

/** A request's input that does not decode is a 400 saying why, in core's words (docs/contract.md §10.1, §10.2). */
export const badRequest = (issue: ParseResult.ParseIssue) =>
  new Refusal({ status: Status.badRequest, message: DecodeIssue.format(issue) })

/** A refusal with `status` and `message`, as a step's `Left` (an Either is an Effect: a handler may `yield*` it). */
export const refused = (status: number, message: string): Either.Either<never, Refusal> =>
  Either.left(new Refusal({ status, message }))

/** A 404 for `what` (`project`, `branch`), as a step's `Left`. */
export const notFound = (what: string) => refused(Status.notFound, `${what} not found`)
