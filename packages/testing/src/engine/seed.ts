/**
 * What every group's part of a seed file shares: a duration relative to the start
 * ({@link SeedDuration}), a key's value, and the engine's own kind of a seed, its operations.
 * `Seed.ts` assembles the groups' parts (`resources/<Group>/seed.ts`) and documents them.
 */
import { OperationAction, OperationStatus } from "@dbplatform/core"
import * as Duration from "effect/Duration"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { SnapshotOperation } from "./kinds.js"

/** The longest duration a seed takes: 100 years, in ms (a time it makes stays a valid date). */
const maxSeedMillis = 100 * 365.25 * 24 * 60 * 60 * 1000

/** A number of milliseconds a seed takes: at least 0, at most 100 years. */
const SeedMillis = Schema.NonNegative.pipe(
  Schema.lessThanOrEqualTo(maxSeedMillis, { message: () => "a duration must be at most 100 years" })
)

/** A string Effect's `Duration` reads, not negative, at most 100 years. */
const SeedDurationText = Schema.String.pipe(
  Schema.filter(
    // `Duration` reads "-5 minutes" as 0: a negative amount is refused here instead.
    (text) =>
      !text.trimStart().startsWith("-") &&
      Option.exists(Duration.decodeUnknown(text), (duration) => Duration.toMillis(duration) <= maxSeedMillis),
    {
      message: () =>
        'a duration is a number of milliseconds or a string such as "3 seconds" or "30 days", not negative and at most 100 years'
    }
  )
)

/** What a seed's duration is in code: any `Duration.DurationInput` (a `Duration`, a bigint of nanoseconds, ...). */
const DurationInput = Schema.declare(
  (input: unknown): input is Duration.DurationInput => Option.isSome(Duration.decodeUnknown(input)),
  { identifier: "DurationInput" }
)

/**
 * `Seed.SeedDuration` (documented there). A file holds a number or a string, decoded as it is; a
 * duration given in code in another form (a `Duration`, a bigint of nanoseconds, a `[seconds,
 * nanos]` pair) is written as its milliseconds.
 */
export const SeedDuration: Schema.Schema<Duration.DurationInput, number | string> = Schema.transform(
  Schema.Union(SeedMillis, SeedDurationText),
  DurationInput,
  {
    strict: true,
    // A string is one `Duration` reads (`SeedDurationText` checked it).
    decode: (input) => input as Duration.DurationInput,
    encode: (input) => (typeof input === "number" || typeof input === "string" ? input : Duration.toMillis(input))
  }
).annotations({ identifier: "SeedDuration" })

/** A key's value in a seed file: a non-empty string without leading or trailing spaces. */
export const SeedKeyValue = Schema.NonEmptyTrimmedString.annotations({
  message: () => ({ message: "must be a non-empty string without leading or trailing spaces", override: true })
})

const operation = SnapshotOperation.fields

/** `Seed.SeedOperationFile` (documented there). */
export const SeedOperationFile = Schema.Struct({
  project_id: operation.project_id,
  action: OperationAction.pipe(Schema.minLength(1)),
  /** A UUID; generated when absent. */
  id: Schema.optional(operation.id),
  branch_id: operation.branch_id,
  /** Absent for `create_branch`. */
  endpoint_id: operation.endpoint_id,
  /** How long before the start it was created; 0 by default. */
  age: Schema.optional(SeedDuration),
  /** How long it runs from creation to `status`; 2 seconds by default. */
  runsFor: Schema.optional(SeedDuration),
  /** Where it ends; `finished` by default. */
  status: Schema.optional(OperationStatus.pipe(Schema.minLength(1))),
  failures_count: Schema.optional(operation.failures_count),
  /** Message of the last failure. */
  error: operation.error,
  /** When a failed step is retried, relative to the start. */
  retryIn: Schema.optional(SeedDuration)
}).annotations({ identifier: "SeedOperation" })
