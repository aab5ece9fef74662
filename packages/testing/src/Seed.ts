/**
 * What the fake platform holds when it starts: API keys, projects and operations, with times
 * relative to the moment it starts (the `Clock`'s time, so `TestClock` drives them).
 *
 * @since 0.1.0
 */
import type { OperationAction, OperationStatus } from "@dbplatform/core"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { PCGRandom } from "effect/Utils"

/**
 * A project of the seed. Unset fields get realistic values.
 *
 * @since 0.1.0
 */
export interface SeedProject {
  /** Matches `^[a-z0-9-]{1,60}$`, e.g. `spring-example-302709`. */
  readonly id: string
  readonly name?: string | undefined
  readonly region_id?: string | undefined
  readonly platform_id?: string | undefined
  readonly provisioner?: string | undefined
  readonly pg_version?: number | undefined
  /** How long before the start the project was created; 30 days by default. */
  readonly age?: Duration.DurationInput | undefined
}

/**
 * An operation of the seed. It is `scheduling` for its first second (or fifth of `runsFor`,
 * whichever is shorter), then `running`, then takes `status` once `runsFor` has passed since
 * it was created, and keeps it. With `status` `scheduling` or `running` it never goes further.
 *
 * @since 0.1.0
 */
export interface SeedOperation {
  readonly project_id: string
  readonly action: OperationAction
  /** A UUID; generated when absent. */
  readonly id?: string | undefined
  readonly branch_id?: string | undefined
  /** Absent for `create_branch`. */
  readonly endpoint_id?: string | undefined
  /** How long before the start it was created; 0 by default. */
  readonly age?: Duration.DurationInput | undefined
  /** How long it runs from creation to `status`; 2 seconds by default. */
  readonly runsFor?: Duration.DurationInput | undefined
  /** Where it ends; `finished` by default. */
  readonly status?: OperationStatus | undefined
  readonly failures_count?: number | undefined
  /** Message of the last failure. */
  readonly error?: string | undefined
  /** When a failed step is retried, relative to the start. */
  readonly retryIn?: Duration.DurationInput | undefined
}

/**
 * What the fake holds when it starts: the bootstrap key's value, projects and operations. Every
 * field is optional; `{}` is an account with only its bootstrap key.
 *
 * @since 0.1.0
 */
export interface Seed {
  /**
   * The value of the account's first key (created in the console, §5.7), named `bootstrap`.
   * Random when absent; read it from `FakePlatform.bootstrapKey`.
   */
  readonly bootstrapKey?: string | undefined
  readonly projects?: ReadonlyArray<SeedProject> | undefined
  readonly operations?: ReadonlyArray<SeedOperation> | undefined
}

/**
 * A seed (or a seed file, or a saved `Snapshot`) the fake cannot serve: `problems` lists each
 * bad or repeated id, each operation of an unknown project, and for a seed file each field that
 * does not decode.
 *
 * @since 0.1.0
 */
export class InvalidSeed extends Data.TaggedError("InvalidSeed")<{ readonly problems: ReadonlyArray<string> }> {
  override get message(): string {
    return `invalid seed: ${this.problems.join("; ")}`
  }
}

/**
 * An empty account: the bootstrap key and nothing else.
 *
 * @since 0.1.0
 */
export const empty: Seed = {}

const adjectives = ["spring", "wispy", "proud", "silent", "ancient", "bold", "young", "late", "holy", "round"]
const nouns = ["example", "meadow", "mud", "river", "sun", "leaf", "grass", "cloud", "dawn", "frost"]
const regions = ["aws-us-east-2", "aws-eu-central-1", "aws-us-west-2", "azure-eastus2"]

/**
 * Options of {@link realistic}.
 *
 * @since 0.1.0
 */
export interface RealisticOptions {
  /** Number of projects; 4 by default. */
  readonly projects?: number | undefined
  /** Past operations per project, over the last 30 days; 150 by default. */
  readonly operationsPerProject?: number | undefined
  /** Operations still pending at the start, in the first project; 3 by default. */
  readonly pending?: number | undefined
  /** How long the pending ones take to finish after the start; 8 s to 14 s by default. */
  readonly pendingFor?: readonly [Duration.DurationInput, Duration.DurationInput] | undefined
  /** PRNG seed; the same seed gives the same account. */
  readonly seed?: number | undefined
  readonly bootstrapKey?: string | undefined
}

/**
 * A realistic account: several projects in several regions, each with its `create_timeline`
 * and a history of operations across many actions and statuses (availability checks, compute
 * starts and suspends, config changes, branch creations and archives; a few failed, in error,
 * cancelled or skipped, with `failures_count` and `error`), and a few operations still
 * running in the first project.
 *
 * @since 0.1.0
 */
export const realistic = (options: RealisticOptions = {}): Seed => {
  const pcg = new PCGRandom(options.seed ?? 302709)
  const random = () => pcg.number()
  const pick = <A>(values: ReadonlyArray<A>): A => values[Math.floor(random() * values.length)]!
  const uuid = () =>
    "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx".replace(/[xy]/g, (c) => {
      const r = Math.floor(random() * 16)
      return (c === "x" ? r : (r & 0x3) | 0x8).toString(16)
    })
  const slug = () => `${pick(adjectives)}-${pick(nouns)}-${String(100000 + Math.floor(random() * 900000))}`
  const day = Duration.toMillis("1 day")

  const projects: Array<SeedProject> = Array.from({ length: options.projects ?? 4 }, (_, i) => ({
    id: slug(),
    name: ["billing", "analytics", "staging", "web-app", "ingest", "search"][i % 6]!,
    region_id: regions[i % regions.length]!,
    pg_version: 15 + (i % 3),
    age: Duration.millis((60 + i * 7) * day)
  }))

  const operations: Array<SeedOperation> = []
  for (const project of projects) {
    const branch = `br-${pick(adjectives)}-${pick(nouns)}-${String(100000 + Math.floor(random() * 900000))}`
    const endpoint = `ep-${pick(adjectives)}-${pick(nouns)}-${uuid().slice(0, 8)}`
    const count = options.operationsPerProject ?? 150
    // The project's first operation: its timeline, created with it.
    operations.push({
      project_id: project.id,
      id: uuid(),
      action: "create_timeline",
      branch_id: branch,
      age: project.age,
      runsFor: "3 seconds"
    })
    for (let i = 0; i < count; i++) {
      // Spread over 30 days, newest last; distinct creation times.
      const age = Duration.millis(Math.floor(((count - i) / count) * 30 * day) + Math.floor(random() * 1000))
      const roll = random()
      const base = { project_id: project.id, id: uuid(), branch_id: branch, age }
      if (roll < 0.38) {
        operations.push({ ...base, action: "check_availability", endpoint_id: endpoint, runsFor: "4 seconds" })
      } else if (roll < 0.58) {
        operations.push({ ...base, action: "suspend_compute", endpoint_id: endpoint, runsFor: "2 seconds" })
      } else if (roll < 0.78) {
        operations.push({ ...base, action: "start_compute", endpoint_id: endpoint, runsFor: "3 seconds" })
      } else if (roll < 0.85) {
        operations.push({ ...base, action: "apply_config", endpoint_id: endpoint, runsFor: "1 second" })
      } else if (roll < 0.9) {
        operations.push({ ...base, action: "create_branch", runsFor: "2 seconds" })
      } else if (roll < 0.92) {
        operations.push({ ...base, action: "apply_storage_config", runsFor: "1 second" })
      } else if (roll < 0.935) {
        operations.push({ ...base, action: "timeline_archive", runsFor: "1 second" })
      } else if (roll < 0.95) {
        operations.push({ ...base, action: "start_compute", endpoint_id: endpoint, status: "cancelled" })
      } else if (roll < 0.96) {
        operations.push({
          ...base,
          action: "apply_config",
          endpoint_id: endpoint,
          status: "error",
          failures_count: 1,
          error: "role synchronisation failed"
        })
      } else if (roll < 0.98) {
        operations.push({
          ...base,
          action: "start_compute",
          endpoint_id: endpoint,
          status: "failed",
          failures_count: 1 + Math.floor(random() * 3),
          error: "compute start timed out"
        })
      } else {
        operations.push({ ...base, action: "check_availability", endpoint_id: endpoint, status: "skipped" })
      }
    }
  }

  const first = projects[0]
  if (first !== undefined) {
    const [from, to] = (options.pendingFor ?? ["8 seconds", "14 seconds"]).map(Duration.toMillis) as [number, number]
    const branch = `br-${pick(adjectives)}-${pick(nouns)}-${String(100000 + Math.floor(random() * 900000))}`
    const pending = options.pending ?? 3
    for (let i = 0; i < pending; i++) {
      const action = i === 0 ? "create_branch" : i === 1 ? "start_compute" : "apply_config"
      operations.push({
        project_id: first.id,
        id: uuid(),
        action,
        branch_id: branch,
        ...(action === "create_branch" ? {} : { endpoint_id: `ep-${pick(adjectives)}-${uuid().slice(0, 8)}` }),
        age: Duration.millis(pending - i),
        runsFor: Duration.millis(from + Math.floor(((to - from) * i) / Math.max(1, pending - 1)))
      })
    }
  }

  return { bootstrapKey: options.bootstrapKey, projects, operations }
}

/**
 * A duration in a seed file: a number of milliseconds (>= 0), or a string Effect's `Duration`
 * reads, such as `"3 seconds"`, `"30 days"`, `"1500 millis"`.
 *
 * @since 0.1.0
 */
export const SeedDuration: Schema.Schema<Duration.DurationInput, number | string> = Schema.Union(
  Schema.NonNegative,
  Schema.String.pipe(
    Schema.filter((text) => Option.isSome(Duration.decodeUnknown(text)), {
      message: () => 'a duration is a number of milliseconds or a string such as "3 seconds" or "30 days"'
    })
  )
).annotations({ identifier: "SeedDuration" }) as Schema.Schema<any, number | string>

/**
 * The JSON form of a {@link Seed} (the emulator's `--seed FILE`), checked field by field; an
 * unknown field is an error, so a typo does not pass silently. Every field is optional but
 * `projects[].id`, `operations[].project_id` and `operations[].action`:
 *
 * ```json
 * {
 *   "bootstrapKey": "a-test-key-of-your-choice",
 *   "projects": [{ "id": "spring-example-302709", "name": "billing", "region_id": "aws-eu-central-1", "pg_version": 17, "age": "30 days" }],
 *   "operations": [
 *     { "project_id": "spring-example-302709", "action": "create_branch", "branch_id": "br-wispy-meadow-118737", "age": "2 hours" },
 *     { "project_id": "spring-example-302709", "action": "start_compute", "endpoint_id": "ep-proud-mud-a5x8dq2u",
 *       "runsFor": "20 seconds" },
 *     { "project_id": "spring-example-302709", "action": "apply_config", "status": "failed", "failures_count": 2,
 *       "error": "role synchronisation failed", "retryIn": "5 minutes", "age": "1 hour" }
 *   ]
 * }
 * ```
 *
 * Ids are checked when the fake starts (`InvalidSeed`): project ids match `^[a-z0-9-]{1,60}$`,
 * operation ids are UUIDs.
 *
 * @since 0.1.0
 */
export const SeedFile = Schema.Struct({
  bootstrapKey: Schema.optional(Schema.NonEmptyTrimmedString),
  projects: Schema.optional(
    Schema.Array(
      Schema.Struct({
        id: Schema.String,
        name: Schema.optional(Schema.String),
        region_id: Schema.optional(Schema.String),
        platform_id: Schema.optional(Schema.String),
        provisioner: Schema.optional(Schema.String),
        pg_version: Schema.optional(Schema.Int),
        age: Schema.optional(SeedDuration)
      })
    )
  ),
  operations: Schema.optional(
    Schema.Array(
      Schema.Struct({
        project_id: Schema.String,
        action: Schema.NonEmptyString,
        id: Schema.optional(Schema.String),
        branch_id: Schema.optional(Schema.String),
        endpoint_id: Schema.optional(Schema.String),
        age: Schema.optional(SeedDuration),
        runsFor: Schema.optional(SeedDuration),
        status: Schema.optional(Schema.NonEmptyString),
        failures_count: Schema.optional(Schema.NonNegativeInt),
        error: Schema.optional(Schema.String),
        retryIn: Schema.optional(SeedDuration)
      })
    )
  )
}).annotations({ identifier: "SeedFile" })

/**
 * Reads a seed from the JSON text of a {@link SeedFile}. Fails with `InvalidSeed` listing each
 * problem (`path: message`) when the text is not JSON or a field is missing, unknown or of the
 * wrong type. A refused `bootstrapKey` is named, never its value (it is a key).
 *
 * @since 0.1.0
 */
export const fromJson = (text: string): Effect.Effect<Seed, InvalidSeed> =>
  Schema.decodeUnknown(Schema.parseJson(SeedFile), { onExcessProperty: "error", errors: "all" })(text).pipe(
    Effect.mapError(
      (error) =>
        new InvalidSeed({
          problems: ParseResult.ArrayFormatter.formatErrorSync(error)
            .map((issue) =>
              issue.path.length === 0
                ? issue.message
                : issue.path[0] === "bootstrapKey"
                  ? "bootstrapKey: must be a non-empty string without leading or trailing spaces"
                  : `${issue.path.join(".")}: ${issue.message}`
            )
            .filter((problem, index, all) => all.indexOf(problem) === index)
        })
    )
  )
