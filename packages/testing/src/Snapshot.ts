/**
 * The whole state of a fake account as plain data, to save it and start a fake from it later
 * (`FakePlatform.Service.snapshot`, `FakePlatform.restore`): the API keys as hashes (never their
 * values), the projects, and the operations with their whole life (past and planned steps),
 * every time absolute. Its JSON form (`Schema.encode(Snapshot)`) is the emulator's `--state`
 * file: times are RFC 3339 UTC strings.
 *
 * @since 0.1.0
 */
import { Operation } from "@dbplatform/core"
import * as DateTime from "effect/DateTime"
import * as Schema from "effect/Schema"

/**
 * A time: epoch milliseconds in memory, an RFC 3339 UTC string in JSON.
 *
 * @since 0.1.0
 */
export const SnapshotTime = Schema.DateTimeUtc.pipe(
  Schema.transform(Schema.Number, { strict: true, decode: DateTime.toEpochMillis, encode: DateTime.unsafeMake })
).annotations({ identifier: "SnapshotTime" })

/**
 * A key as the fake keeps it: `hash` is the SHA-256 of its value, 64 lower-case hex digits.
 *
 * @since 0.1.0
 */
export const SnapshotApiKey = Schema.Struct({
  id: Schema.Int.pipe(Schema.positive()),
  name: Schema.String,
  hash: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)),
  created_at: SnapshotTime,
  revoked: Schema.Boolean,
  last_used_at: Schema.NullOr(SnapshotTime),
  last_used_from_addr: Schema.String
}).annotations({ identifier: "SnapshotApiKey" })

/**
 * A project (the fields the fake keeps; the others are derived when it is listed). `org_id`
 * (added in 0.2.0) is optional so that older snapshots still load: a project without one belongs
 * to the fake's default organization. `shared` (added in 0.2.0): `true` for a project of another
 * account shared with this one, listed by `GET /projects/shared` and not by `GET /projects`
 * (docs/contract.md §10.6); absent (or `false`) for one of the account's own.
 *
 * @since 0.1.0
 */
export const SnapshotProject = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  region_id: Schema.String,
  platform_id: Schema.String,
  provisioner: Schema.String,
  pg_version: Schema.Int,
  org_id: Schema.optional(Schema.String),
  shared: Schema.optional(Schema.Boolean),
  created_at: SnapshotTime
}).annotations({ identifier: "SnapshotProject" })

/**
 * One step of an operation's life: from `at` on, it has `status`.
 *
 * @since 0.1.0
 */
export const SnapshotStep = Schema.Struct({ at: SnapshotTime, status: Operation.fields.status })

/**
 * An operation with its whole life: `steps` in ascending time, the first one `scheduling` at
 * `created_at`. The fields are core's `Operation` fields, but ids are plain strings (a bad id
 * is reported with every other problem of the state, not as a decoding error), times are
 * absolute, and the `status` and `updated_at` of a moment are read from `steps`. The fake holds
 * its operations in this shape, and seeds (`Seed.SeedOperation`) take the same fields.
 *
 * @since 0.1.0
 */
export const SnapshotOperation = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  branch_id: Schema.optional(Schema.String),
  endpoint_id: Schema.optional(Schema.String),
  action: Operation.fields.action,
  created_at: SnapshotTime,
  steps: Schema.NonEmptyArray(SnapshotStep),
  failures_count: Operation.fields.failures_count.pipe(Schema.nonNegative()),
  error: Operation.fields.error,
  retry_at: Schema.optional(SnapshotTime)
}).annotations({ identifier: "SnapshotOperation" })

/**
 * The state of a fake account, version 1. `next_key_id` is the id the next created key gets.
 *
 * @since 0.1.0
 */
export const Snapshot = Schema.Struct({
  version: Schema.Literal(1),
  next_key_id: Schema.Int.pipe(Schema.positive()),
  api_keys: Schema.Array(SnapshotApiKey),
  projects: Schema.Array(SnapshotProject),
  operations: Schema.Array(SnapshotOperation)
}).annotations({ identifier: "Snapshot" })

/**
 * The decoded state: `{ version: 1, next_key_id, api_keys, projects, operations }`, times in
 * epoch milliseconds.
 *
 * @since 0.1.0
 */
export type Snapshot = typeof Snapshot.Type

/**
 * The JSON text of a snapshot, and back (`Schema.parseJson(Snapshot)`): what a state file holds.
 *
 * @since 0.1.0
 */
export const SnapshotFromJson = Schema.parseJson(Snapshot)

/**
 * One change of a fake's state as it is made, for a journal (`FakePlatform.Options.journal`):
 * the whole record after the change, to put in place of the record with the same id (or add
 * when there is none). `ApiKey`: a key created or revoked; `Project`: a project added;
 * `Operation`: an operation started, failed or cancelled; `State` (since 0.2.0): the whole state
 * replaced by `snapshot` (`FakePlatform.Service.reset`, `load`, `restore`), every record before it
 * dropped. Applying a journal's changes in order to the snapshot it started from gives the
 * state; applying one twice changes nothing.
 *
 * @since 0.1.0
 */
export const SnapshotChange = Schema.Union(
  Schema.TaggedStruct("ApiKey", { api_key: SnapshotApiKey }),
  Schema.TaggedStruct("Project", { project: SnapshotProject }),
  Schema.TaggedStruct("Operation", { operation: SnapshotOperation }),
  Schema.TaggedStruct("State", { snapshot: Snapshot })
).annotations({ identifier: "SnapshotChange" })

/**
 * A decoded change (see {@link SnapshotChange}), times in epoch milliseconds.
 *
 * @since 0.1.0
 */
export type SnapshotChange = typeof SnapshotChange.Type
