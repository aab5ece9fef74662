/**
 * Branches: a project's copies of its data, each with its own compute endpoints, roles and
 * databases; the request bodies of the branch endpoints and the shapes they answer with
 * (`docs/contract.md` §11).
 *
 * @since 0.3.0
 */
import * as Schema from "effect/Schema"
import {
  ComputeEndpoint,
  ComputeEndpointSettingsRequest,
  KnownComputeEndpointType,
  Provisioner
} from "./ComputeEndpoint.js"
import { ConnectionDetails } from "./ConnectionDetails.js"
import { Database } from "./Database.js"
import { BranchId, ProjectId } from "./Ids.js"
import { BranchIdInput, computeEndpointSettings, withMessage } from "./internal/input.js"
import { openEnum } from "./internal/openEnum.js"
import { Operation } from "./Operation.js"
import { CursorPagination } from "./Pagination.js"
import { Role } from "./Role.js"
import { Timestamp } from "./Timestamp.js"

/**
 * The branch states known today: `init` (being created, not yet queryable), `ready`,
 * `archived` (in archival storage: slow queries), `resetting` (being reset to a point in time)
 * (§11.1).
 *
 * @since 0.3.0
 * @category schemas
 */
export const KnownBranchState = Schema.Literal("init", "ready", "archived", "resetting")

/**
 * A branch's state: one of {@link KnownBranchState}, or any other string a newer server sends
 * (kept as is).
 *
 * @since 0.3.0
 * @category schemas
 */
export type BranchState = typeof KnownBranchState.Type | (string & {})

/**
 * Open enum schema of {@link BranchState}.
 *
 * @since 0.3.0
 * @category schemas
 */
export const BranchState: Schema.Schema<BranchState> = openEnum(KnownBranchState, "BranchState")

/**
 * Where a branch restored from a snapshot stands, known today (§19): `restored` (a branch to
 * look at, not yet in the place of the branch it stands in for), `finalized` (in its place for
 * good), `detaching` (a one-time optimisation of either, after which it is as before).
 *
 * @since 0.5.0
 * @category schemas
 */
export const KnownBranchRestoreStatus = Schema.Literal("restored", "finalized", "detaching")

/**
 * A branch's restore status: one of {@link KnownBranchRestoreStatus}, or any other string a
 * newer server sends (kept as is).
 *
 * @since 0.5.0
 * @category schemas
 */
export type BranchRestoreStatus = typeof KnownBranchRestoreStatus.Type | (string & {})

/**
 * Open enum schema of {@link BranchRestoreStatus}.
 *
 * @since 0.5.0
 * @category schemas
 */
export const BranchRestoreStatus: Schema.Schema<BranchRestoreStatus> = openEnum(
  KnownBranchRestoreStatus,
  "BranchRestoreStatus"
)

/**
 * Who created a branch, as the platform resolves it (§11.1): the `name` of the user,
 * organization, integration or API key, and `image`, the URL of its avatar; each where the
 * platform knows it.
 *
 * @since 0.5.0
 * @category schemas
 */
export class BranchCreator extends Schema.Class<BranchCreator>("BranchCreator")({
  name: Schema.optional(Schema.String),
  image: Schema.optional(Schema.String)
}) {}

/**
 * An action the platform does not allow on a branch now, and why (§11.1): `name` (e.g.
 * `restore`, `delete-rw-endpoint`: open) and `reason`, a sentence for people.
 *
 * @since 0.5.0
 * @category schemas
 */
export class BranchRestrictedAction extends Schema.Class<BranchRestrictedAction>("BranchRestrictedAction")({
  name: Schema.String,
  reason: Schema.String
}) {}

/**
 * How a deleted branch was deleted, known today (§11.1): `user` (a request) or `ttl` (its
 * `expires_at` passed).
 *
 * @since 0.5.0
 * @category schemas
 */
export const KnownBranchDeletionMethod = Schema.Literal("user", "ttl")

/**
 * A branch's deletion method: one of {@link KnownBranchDeletionMethod}, or any other string a
 * newer server sends (kept as is).
 *
 * @since 0.5.0
 * @category schemas
 */
export type BranchDeletionMethod = typeof KnownBranchDeletionMethod.Type | (string & {})

/**
 * Open enum schema of {@link BranchDeletionMethod}.
 *
 * @since 0.5.0
 * @category schemas
 */
export const BranchDeletionMethod: Schema.Schema<BranchDeletionMethod> = openEnum(
  KnownBranchDeletionMethod,
  "BranchDeletionMethod"
)

/**
 * Where a deleted branch stands (§11.1): when it was deleted, until when it can be brought back,
 * and how it was deleted. Only a branch listed with `include_deleted=true` has it (the
 * platform's branch recovery, a preview feature).
 *
 * @since 0.5.0
 * @category schemas
 */
export class BranchRecovery extends Schema.Class<BranchRecovery>("BranchRecovery")({
  deleted_at: Timestamp,
  recoverable_until: Timestamp,
  deletion_method: BranchDeletionMethod
}) {}

/**
 * A branch's annotation as the platform answers it (§11.1): free-form `value`s by name (strings,
 * at most 50), on an `object` (`type`, e.g. `console/branch`, and its `id`).
 *
 * @since 0.5.0
 * @category schemas
 */
export class Annotation extends Schema.Class<Annotation>("Annotation")({
  object: Schema.Struct({ type: Schema.String, id: Schema.String }),
  value: Schema.Record({ key: Schema.String, value: Schema.String }),
  created_at: Schema.optional(Timestamp),
  updated_at: Schema.optional(Timestamp)
}) {}

/**
 * An annotation's values as a request gives them (§11.4): strings by name, at most 50
 * (`{ "ci/run": "1234" }`).
 *
 * @since 0.5.0
 * @category schemas
 */
export const AnnotationValue = Schema.Record({ key: Schema.String, value: Schema.String })
  .pipe(Schema.filter((value) => Object.keys(value).length <= 50))
  .annotations({ identifier: "AnnotationValue", ...withMessage("must have at most 50 values") })

/**
 * A branch (§11.1). `parent_id` is absent on a project's root branch; `default` marks the
 * project's default branch (one per project); a `protected` branch is kept from some changes.
 * `pending_state` is the state it is moving to, while it changes. Units: `cpu_used_sec`,
 * `active_time_seconds` and `compute_time_seconds` in seconds (`cpu_used_sec` deprecated by the
 * platform, reset each billing period); `written_data_bytes`, `data_transfer_bytes` and
 * `logical_size` in bytes. `parent_lsn` is a Postgres log sequence number (`0/1F2E3D4`). Unknown
 * fields are ignored.
 *
 * Since 0.5.0 (`docs/contract.md` §18): `expires_at`, when the platform deletes the branch (by a
 * background job, not at that exact second); `ttl_interval_seconds`, read-only, the seconds from
 * the moment `expires_at` was last set to that time; `init_source`, `parent-data` or
 * `schema-only` (a branch with its source's roles and databases but none of its data, shown
 * without a `parent_id`), kept as any string a newer server sends. Also `primary` (deprecated by
 * the platform: `default`), `created_by` ({@link BranchCreator}), `restricted_actions` (what may
 * not be done to it now: {@link BranchRestrictedAction}) and `recovery` (a deleted branch's,
 * {@link BranchRecovery}).
 *
 * @since 0.3.0
 * @category schemas
 */
export class Branch extends Schema.Class<Branch>("Branch")({
  id: BranchId,
  project_id: ProjectId,
  parent_id: Schema.optional(BranchId),
  name: Schema.String,
  current_state: BranchState,
  pending_state: Schema.optional(BranchState),
  state_changed_at: Timestamp,
  creation_source: Schema.String,
  default: Schema.Boolean,
  protected: Schema.Boolean,
  created_at: Timestamp,
  updated_at: Timestamp,
  cpu_used_sec: Schema.Number,
  active_time_seconds: Schema.Number,
  compute_time_seconds: Schema.Number,
  written_data_bytes: Schema.Number,
  data_transfer_bytes: Schema.Number,
  // Restored from a snapshot (§19): its restore status, the snapshot's id, and the id of the
  // branch it stands in for.
  restore_status: Schema.optional(BranchRestoreStatus),
  restored_from: Schema.optional(Schema.String),
  restored_as: Schema.optional(Schema.String),
  logical_size: Schema.optional(Schema.Number),
  parent_lsn: Schema.optional(Schema.String),
  parent_timestamp: Schema.optional(Timestamp),
  last_reset_at: Schema.optional(Timestamp),
  expires_at: Schema.optional(Timestamp),
  init_source: Schema.optional(Schema.String),
  ttl_interval_seconds: Schema.optional(Schema.Int),
  primary: Schema.optional(Schema.Boolean),
  created_by: Schema.optional(BranchCreator),
  restricted_actions: Schema.optional(Schema.Array(BranchRestrictedAction)),
  recovery: Schema.optional(BranchRecovery)
}) {}

/**
 * Answer of `GET /projects/{project_id}/branches/{branch_id}`: `{ branch, annotation }`, the
 * branch and its {@link Annotation} (since 0.5.0) (§11.4).
 *
 * @since 0.3.0
 * @category schemas
 */
export class BranchEnvelope extends Schema.Class<BranchEnvelope>("BranchEnvelope")({
  branch: Branch,
  annotation: Annotation
}) {}

/**
 * Answer of a request that changes a branch (update, delete, restore, set as default):
 * `{ branch, operations }`, the branch as it is now and the operations the request started,
 * possibly none (§11.4, §11.5).
 *
 * @since 0.3.0
 * @category schemas
 */
export class BranchOperations extends Schema.Class<BranchOperations>("BranchOperations")({
  branch: Branch,
  operations: Schema.Array(Operation)
}) {}

/**
 * Answer of `POST /projects/{project_id}/branches` (201): the new branch, the compute endpoints
 * created with it, the operations started (`create_branch`, and `start_compute` per compute
 * endpoint), its roles and databases (copies of the parent's), and `connection_uris` where the
 * platform sends them, secrets `Redacted` (§11.4, §11.5).
 *
 * @since 0.3.0
 * @category schemas
 */
export class BranchCreated extends Schema.Class<BranchCreated>("BranchCreated")({
  branch: Branch,
  endpoints: Schema.Array(ComputeEndpoint),
  operations: Schema.Array(Operation),
  roles: Schema.Array(Role),
  databases: Schema.Array(Database),
  // Exact: an optional field is a union with `undefined`, and a union that fails names the value
  // it was given, URIs and passwords included.
  connection_uris: Schema.optionalWith(Schema.Array(ConnectionDetails), { exact: true })
}) {}

/**
 * Answer of `GET /projects/{project_id}/branches`: `{ branches, annotations, pagination? }`, one
 * page in the order asked for, and (since 0.5.0) the branches' {@link Annotation}s by branch id
 * (§11.4).
 *
 * @since 0.3.0
 * @category schemas
 */
export class BranchesPage extends Schema.Class<BranchesPage>("BranchesPage")({
  branches: Schema.Array(Branch),
  annotations: Schema.Record({ key: Schema.String, value: Annotation }),
  pagination: Schema.optional(CursorPagination)
}) {}

/**
 * Answer of `GET /projects/{project_id}/branches/count`: `{ count }`, how many branches match
 * the `search` (all when none) (§11.4).
 *
 * @since 0.3.0
 * @category schemas
 */
export class BranchesCount extends Schema.Class<BranchesCount>("BranchesCount")({
  count: Schema.Int
}) {}

/** A branch name: 1 to 256 characters. */
const BranchName = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(256)).annotations(
  withMessage("must be 1 to 256 characters")
)

/**
 * A compute endpoint to create with a branch (§11.4): its `type` (`read_write`, at most one per
 * branch, or `read_only`), its autoscaling limits in compute units (0.25 and up), and
 * `suspend_timeout_seconds`, seconds of inactivity before it is suspended (`0`: the platform's
 * default, `-1`: never, at most 604 800). Since 0.5.0 also `settings`
 * ({@link ComputeEndpointSettingsRequest}) and `provisioner` ({@link Provisioner}).
 *
 * @since 0.3.0
 * @category schemas
 */
export const BranchCreateEndpoint = Schema.Struct({
  type: KnownComputeEndpointType.annotations(withMessage("must be read_write or read_only")),
  ...computeEndpointSettings,
  settings: Schema.optional(ComputeEndpointSettingsRequest),
  provisioner: Schema.optional(Provisioner)
}).annotations({ identifier: "BranchCreateEndpoint" })

/**
 * How a branch is initialised (§18): `parent-data` (the default: its parent's data, roles and
 * databases) or `schema-only` (its source's roles and databases, no data, and no parent link).
 *
 * @since 0.5.0
 * @category schemas
 */
export const InitSource = Schema.Literal("parent-data", "schema-only").annotations(
  withMessage("must be parent-data or schema-only")
)

/**
 * A Postgres log sequence number as the platform writes it: two hexadecimal numbers of up to 8
 * digits, `high/low` (`0/1F2E3D4`) (§18).
 *
 * @since 0.5.0
 * @category schemas
 */
export const Lsn = Schema.String.pipe(Schema.pattern(/^[0-9A-Fa-f]{1,8}\/[0-9A-Fa-f]{1,8}$/)).annotations(
  withMessage("must be a log sequence number such as 0/1F2E3D4")
)

/**
 * Body of `POST /projects/{project_id}/branches` (§11.4), every part optional (no body is `{}`):
 * `branch.name` (1 to 256 characters; the platform names it when absent), `branch.parent_id`
 * (the project's default branch when absent), `branch.protected`, and `endpoints`, the
 * compute endpoints to create with it.
 *
 * Since 0.5.0 (§18): `branch.expires_at` (an RFC 3339 {@link Timestamp}, fractional seconds
 * allowed; the branch is deleted after it), `branch.init_source` ({@link InitSource}),
 * `branch.parent_timestamp` or `branch.parent_lsn` (a point of the parent's history, within the
 * project's `history_retention_seconds`: a 400 outside it; not both), `branch.archived` (created
 * in archival storage), and `annotation_value`, the branch's annotation ({@link AnnotationValue};
 * the platform's CLI sends `{}`).
 *
 * @since 0.3.0
 * @category schemas
 */
export const BranchCreateRequest = Schema.Struct({
  branch: Schema.optional(
    Schema.Struct({
      name: Schema.optional(BranchName),
      parent_id: Schema.optional(BranchIdInput),
      protected: Schema.optional(Schema.Boolean),
      expires_at: Schema.optional(Timestamp),
      init_source: Schema.optional(InitSource),
      parent_timestamp: Schema.optional(Timestamp),
      parent_lsn: Schema.optional(Lsn),
      archived: Schema.optional(Schema.Boolean)
    })
  ),
  endpoints: Schema.optional(Schema.Array(BranchCreateEndpoint)),
  annotation_value: Schema.optional(AnnotationValue)
}).annotations({ identifier: "BranchCreateRequest" })

/**
 * Body of `PATCH /projects/{project_id}/branches/{branch_id}` (§11.4): `{ branch: { name?,
 * protected? } }`, the fields to change (a name of 1 to 256 characters). Since 0.5.0,
 * `expires_at` (§18): a new expiry (an RFC 3339 {@link Timestamp}, fractional seconds allowed),
 * or `null` to clear it (the branch then stays).
 *
 * @since 0.3.0
 * @category schemas
 */
export const BranchUpdateRequest = Schema.Struct({
  branch: Schema.Struct({
    name: Schema.optional(BranchName),
    protected: Schema.optional(Schema.Boolean),
    expires_at: Schema.optional(Schema.NullOr(Timestamp))
  })
}).annotations({ identifier: "BranchUpdateRequest" })

/**
 * Body of `POST /projects/{project_id}/branches/{branch_id}/restore` (§11.4): the branch whose
 * data to restore from (`source_branch_id`; the branch itself for a point in its own past), the
 * time to restore to (`source_timestamp`, or since 0.5.0 `source_lsn`, a log sequence number
 * ({@link Lsn}); the source's latest when neither), and `preserve_under_name`, a name under which
 * the branch's data before the restore is kept as a new branch.
 *
 * @since 0.3.0
 * @category schemas
 */
export const BranchRestoreRequest = Schema.Struct({
  source_branch_id: BranchIdInput,
  source_timestamp: Schema.optional(Timestamp),
  source_lsn: Schema.optional(Lsn),
  preserve_under_name: Schema.optional(BranchName)
}).annotations({ identifier: "BranchRestoreRequest" })
