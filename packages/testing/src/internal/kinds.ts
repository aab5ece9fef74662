/**
 * The kinds of record the fake keeps, declared once each: the shape a `Snapshot` holds it in, how
 * to get its id, its parent kind (for cascading deletes and orphan checks), its place in its
 * parent's newest-first list, and what is wrong with one on its own. The `Snapshot` schema, the
 * change record, seeds, restore and the emulator's journal replay are all derived from
 * {@link kinds}: a new kind is a schema and an entry here.
 */
import { Api, DecodeIssue, Operation, OperationId, ProjectId, ProjectSettingsRequest } from "@dbplatform/core"
import * as DateTime from "effect/DateTime"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { changesBetween, withChanges } from "./ddl.js"

/** A time: epoch milliseconds in memory, an RFC 3339 UTC string in JSON. */
export const SnapshotTime = Schema.DateTimeUtc.pipe(
  Schema.transform(Schema.Number, { strict: true, decode: DateTime.toEpochMillis, encode: DateTime.unsafeMake })
).annotations({ identifier: "SnapshotTime" })

/**
 * A key: `hash` is the SHA-256 of its value, 64 lower-case hex digits. Since 0.5.0 a key of an
 * organization has its `org_id`, and one scoped to a project of it also its `project_id`
 * (docs/contract.md §21); a personal key has neither (and a key saved before is personal).
 */
export const SnapshotApiKey = Schema.Struct({
  id: Schema.Int.pipe(Schema.positive()),
  name: Schema.String,
  hash: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)),
  created_at: SnapshotTime,
  revoked: Schema.Boolean,
  last_used_at: Schema.NullOr(SnapshotTime),
  last_used_from_addr: Schema.String,
  org_id: Schema.optional(Schema.String),
  project_id: Schema.optional(Schema.String)
}).annotations({ identifier: "SnapshotApiKey" })

/**
 * A project (the fields the fake keeps; the others are derived when it is listed). Since 0.3.0
 * also, each optional (a project saved before has the defaults): `updated_at` (its
 * `created_at`), `history_retention_seconds` (86 400: a day) and `default_endpoint_settings`
 * (those of a compute endpoint created without settings: 0.25 compute units, suspend timeout 0).
 * Since 0.5.0, `deleted_at`: a deleted project is kept, with everything under it, hidden from
 * every read but `GET /projects?recoverable=true`, until it is recovered or its 7 days of
 * recovery pass (docs/contract.md §18).
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
  created_at: SnapshotTime,
  updated_at: Schema.optional(SnapshotTime),
  history_retention_seconds: Schema.optional(Schema.Int.pipe(Schema.between(0, 2_592_000))),
  default_endpoint_settings: Schema.optional(
    Schema.Struct({
      autoscaling_limit_min_cu: Schema.optional(Schema.Number),
      autoscaling_limit_max_cu: Schema.optional(Schema.Number),
      suspend_timeout_seconds: Schema.optional(Schema.Int)
    })
  ),
  /** Since 0.5.0: the project's settings as requests gave them (docs/contract.md §22.2); none: absent. */
  settings: Schema.optional(Schema.typeSchema(ProjectSettingsRequest)),
  /**
   * Since 0.5.0: the integration installed on the project (`github`, `vercel`), which a transfer
   * between organizations refuses (docs/contract.md §22.4); the fake installs none itself.
   */
  integration: Schema.optional(Schema.String),
  deleted_at: Schema.optional(SnapshotTime)
}).annotations({ identifier: "SnapshotProject" })

/**
 * A branch: `current_state` is `init` before `ready_at`, `ready` from it. `checked_at` is the
 * time of the last `check_availability` the control plane ran on it (none yet: absent). Since
 * 0.5.0, each optional (docs/contract.md §18): `expires_at` (the control plane deletes it after)
 * and `ttl_interval_seconds` (from when `expires_at` was set to it), `init_source` (absent:
 * `parent-data`), `parent_timestamp` and `parent_lsn` (the point of the parent's history it
 * started from), `archived` (created in archival storage).
 */
export const SnapshotBranch = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  parent_id: Schema.optional(Schema.String),
  name: Schema.String,
  default: Schema.Boolean,
  protected: Schema.Boolean,
  created_at: SnapshotTime,
  updated_at: SnapshotTime,
  ready_at: SnapshotTime,
  checked_at: Schema.optional(SnapshotTime),
  expires_at: Schema.optional(SnapshotTime),
  ttl_interval_seconds: Schema.optional(Schema.Int),
  init_source: Schema.optional(Schema.String),
  parent_timestamp: Schema.optional(SnapshotTime),
  parent_lsn: Schema.optional(Schema.String),
  archived: Schema.optional(Schema.Boolean),
  // Restored from a snapshot (docs/contract.md §19): `restored` or `finalized`, the snapshot's
  // id, and the id of the branch it stands in for.
  restore_status: Schema.optional(Schema.String),
  restored_from: Schema.optional(Schema.String),
  restored_as: Schema.optional(Schema.String)
}).annotations({ identifier: "SnapshotBranch" })

/**
 * A compute endpoint: `active_at` is the end of its last `start_compute`, `suspended_at` the end
 * of its last `suspend_compute` (never suspended: absent), `last_active` its last connection
 * (none: absent). Its `current_state` is `init` until it first becomes `active`, then `active`
 * or `idle` after whichever of the two came last (docs/contract.md §12).
 */
export const SnapshotEndpoint = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  branch_id: Schema.String,
  type: Schema.String,
  autoscaling_limit_min_cu: Schema.Number,
  autoscaling_limit_max_cu: Schema.Number,
  suspend_timeout_seconds: Schema.Number,
  created_at: SnapshotTime,
  updated_at: SnapshotTime,
  active_at: SnapshotTime,
  suspended_at: Schema.optional(SnapshotTime),
  last_active: Schema.optional(SnapshotTime)
}).annotations({ identifier: "SnapshotEndpoint" })

/**
 * A role of a branch (a Postgres user). `id` is `{branch_id}/{name}`: a role is named uniquely
 * on its branch, and a branch's roles are copied to a child under the child's id. `password` is
 * kept so the fake can reveal it (docs/contract.md §15.2): a state that holds roles holds secrets.
 */
export const SnapshotRole = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  branch_id: Schema.String,
  name: Schema.String,
  password: Schema.String,
  protected: Schema.Boolean,
  created_at: SnapshotTime,
  updated_at: SnapshotTime
}).annotations({ identifier: "SnapshotRole" })

/**
 * A column of a table of a database's schema (docs/contract.md §24.3): its Postgres `type` as the
 * catalog spells it, `nullable`, and its `default` and `generated` expressions as SQL text when it
 * has them (a generated column has no default).
 */
export const SnapshotSchemaColumn = Schema.Struct({
  name: Schema.String,
  type: Schema.String,
  nullable: Schema.Boolean,
  default: Schema.optional(Schema.String),
  generated: Schema.optional(Schema.String)
}).annotations({ identifier: "SnapshotSchemaColumn" })

/** A table constraint: `primary_key`, `unique` or `foreign_key` (with the table it refers to), always named. */
export const SnapshotSchemaConstraint = Schema.Struct({
  type: Schema.Literal("primary_key", "unique", "foreign_key"),
  name: Schema.String,
  columns: Schema.NonEmptyArray(Schema.String),
  referenced_table: Schema.optional(
    Schema.Struct({ schema: Schema.String, table: Schema.String, columns: Schema.Array(Schema.String) })
  )
}).annotations({ identifier: "SnapshotSchemaConstraint" })

/** A table of a database's schema: its Postgres schema (`public`), name, columns in order and constraints. */
export const SnapshotSchemaTable = Schema.Struct({
  schema: Schema.String,
  name: Schema.String,
  columns: Schema.Array(SnapshotSchemaColumn),
  constraints: Schema.Array(SnapshotSchemaConstraint)
}).annotations({ identifier: "SnapshotSchemaTable" })

const TableList = Schema.Array(SnapshotSchemaTable)
const decodeTableList = ParseResult.decodeUnknown(TableList)

/**
 * A list of tables in JSON: checked field by field when decoded, written as it is when encoded (a
 * table is plain JSON data in memory too: no field of it is transformed), so that a version of
 * 5,000 tables is written in the time `JSON.stringify` takes, not walked by its schema.
 */
export const SnapshotSchemaTables = Schema.transformOrFail(
  Schema.Unknown,
  // In memory: a list of tables, as the fake made them or decoded them (checked above), not walked again.
  Schema.declare((input): input is typeof TableList.Type => Array.isArray(input), {
    identifier: "SnapshotSchemaTableList"
  }),
  {
    strict: true,
    decode: (input, options) => decodeTableList(input, options),
    encode: (tables) => ParseResult.succeed(tables)
  }
).annotations({ identifier: "SnapshotSchemaTables" })

/** A database's schema from `at` on (until the next version): its tables, by schema and name. */
export const SnapshotSchemaVersion = Schema.Struct({
  at: SnapshotTime,
  tables: SnapshotSchemaTables
}).annotations({ identifier: "SnapshotSchemaVersion" })

/** A version of a schema as the change from the version before it: the tables added or changed, and those dropped. */
const SnapshotSchemaVersionChange = Schema.Struct({
  at: SnapshotTime,
  changed: SnapshotSchemaTables,
  dropped: Schema.Array(Schema.Struct({ schema: Schema.String, name: Schema.String }))
}).annotations({ identifier: "SnapshotSchemaVersionChange" })

/**
 * A database's schema history (since 0.6.0 in this form): in memory, each version holds its tables
 * whole (sharing with the version before it the tables it did not change); in JSON, the first
 * version gives its `tables` whole and each later one the change from the version before it
 * (`changed`: the tables added or changed, whole; `dropped`: `{ schema, name }` of each table
 * dropped), unless whole is as short. So a state file grows with each migration's change, not with
 * the whole schema per version. A history whose versions are all whole (as 0.5 wrote it) reads as
 * it is; one that starts with a change is refused.
 */
export const SnapshotSchemaHistory = Schema.transformOrFail(
  Schema.Array(Schema.Union(SnapshotSchemaVersion, SnapshotSchemaVersionChange)),
  Schema.Array(Schema.typeSchema(SnapshotSchemaVersion)),
  {
    strict: true,
    decode: (versions, _, ast) => {
      const history: Array<typeof SnapshotSchemaVersion.Type> = []
      for (const version of versions) {
        const last = history[history.length - 1]
        if ("tables" in version) history.push(version)
        else if (last === undefined) {
          return ParseResult.fail(
            new ParseResult.Type(ast, versions, "the first version of a schema history gives its tables whole")
          )
        } else history.push({ at: version.at, tables: withChanges(last.tables, version.changed, version.dropped) })
      }
      return ParseResult.succeed(history)
    },
    encode: (history) =>
      ParseResult.succeed(
        history.map((version, i) => {
          if (i === 0) return version
          const change = changesBetween(history[i - 1]!.tables, version.tables)
          return change.changed.length + change.dropped.length < version.tables.length
            ? { at: version.at, changed: change.changed, dropped: change.dropped }
            : version
        })
      )
  }
).annotations({ identifier: "SnapshotSchemaHistory" })

/**
 * A database of a branch, owned by the role of that branch named `owner_name`. `id` is unique in
 * the account. `schema_history` (since 0.5.0; absent: no tables ever) holds its schema's versions
 * in ascending `at`, each in force until the next: the last is its schema now, and a point in
 * time reads the one in force then (docs/contract.md §24.3). A branch's copy of a database keeps
 * the history, so the branch reads its parent's past before it was created. In JSON the versions
 * after the first are written as changes (see {@link SnapshotSchemaHistory}).
 */
export const SnapshotDatabase = Schema.Struct({
  id: Schema.Int.pipe(Schema.positive()),
  project_id: Schema.String,
  branch_id: Schema.String,
  name: Schema.String,
  owner_name: Schema.String,
  created_at: SnapshotTime,
  updated_at: SnapshotTime,
  schema_history: Schema.optional(SnapshotSchemaHistory)
}).annotations({ identifier: "SnapshotDatabase" })

/**
 * An organization (docs/contract.md §20): its projects name it by `org_id`. `managed_by` is
 * `console` for one the fake creates. Every organization a project names exists: one a seed or a
 * request names without declaring it is made with the account's user as its admin.
 */
export const SnapshotOrganization = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  handle: Schema.String,
  plan: Schema.String,
  managed_by: Schema.String,
  created_at: SnapshotTime,
  updated_at: SnapshotTime
}).annotations({ identifier: "SnapshotOrganization" })

/**
 * A member of an organization: a user (`user_id`, a UUID, and `email`) with a `role` (`admin`,
 * `member`, ...; open), joined at `joined_at`. `id` is the membership's own UUID.
 */
export const SnapshotMember = Schema.Struct({
  id: Schema.String,
  org_id: Schema.String,
  user_id: Schema.String,
  email: Schema.String,
  role: Schema.String,
  joined_at: SnapshotTime
}).annotations({ identifier: "SnapshotMember" })

/**
 * An invitation to an organization (docs/contract.md §20): the invited `email` and the `role`
 * offered, sent by the user `invited_by` (a UUID) at `invited_at`. `id` is its UUID. It stays
 * listed once accepted.
 */
export const SnapshotInvitation = Schema.Struct({
  id: Schema.String,
  org_id: Schema.String,
  email: Schema.String,
  role: Schema.String,
  invited_by: Schema.String,
  invited_at: SnapshotTime
}).annotations({ identifier: "SnapshotInvitation" })

/**
 * An access to a project granted by email (docs/contract.md §22.1); `id` is unique in the
 * account. A revoked access is removed: the list shows those in force.
 */
export const SnapshotPermission = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  granted_to_email: Schema.String,
  granted_at: SnapshotTime
}).annotations({ identifier: "SnapshotPermission" })

/**
 * A VPC endpoint assigned to an organization in a region (docs/contract.md §22.3): `id` is
 * `{org_id}/{region_id}/{vpc_endpoint_id}`. It is `accepted` a minute after `created_at`.
 * `deleted_at` marks one deleted from the organization: it is kept, since it cannot be added
 * back, and lists leave it out.
 */
export const SnapshotVpcEndpoint = Schema.Struct({
  id: Schema.String,
  org_id: Schema.String,
  region_id: Schema.String,
  vpc_endpoint_id: Schema.String,
  label: Schema.String,
  created_at: SnapshotTime,
  deleted_at: Schema.optional(SnapshotTime)
}).annotations({ identifier: "SnapshotVpcEndpoint" })

/**
 * A project's restriction to connections through a VPC endpoint of its organization
 * (docs/contract.md §22.3): `id` is `{project_id}/{vpc_endpoint_id}`.
 */
export const SnapshotVpcRestriction = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  vpc_endpoint_id: Schema.String,
  label: Schema.String,
  created_at: SnapshotTime
}).annotations({ identifier: "SnapshotVpcRestriction" })

/**
 * A request to transfer a project (docs/contract.md §22.4): `id` a UUID; it can be accepted
 * until `expires_at`, once (an accepted request is removed).
 */
export const SnapshotTransferRequest = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  created_at: SnapshotTime,
  expires_at: SnapshotTime
}).annotations({ identifier: "SnapshotTransferRequest" })

/**
 * A snapshot of a branch's data (docs/contract.md §19), the platform's record kept by the fake
 * (not to be confused with `Snapshot`, the fake's whole state as data): `source_branch_id` the
 * branch it was taken of, `timestamp` and `lsn` the point of that branch's history it holds,
 * `created_at`, `expires_at` (when the control plane deletes it; absent: kept), `manual`
 * (`false` for one a backup schedule took), and the data it holds in the fake's notion of data:
 * the branch's roles (with their passwords) and databases as at that point.
 */
export const SnapshotBranchSnapshot = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  source_branch_id: Schema.String,
  name: Schema.String,
  lsn: Schema.String,
  timestamp: SnapshotTime,
  created_at: SnapshotTime,
  expires_at: Schema.optional(SnapshotTime),
  manual: Schema.Boolean,
  roles: Schema.Array(Schema.Struct({ name: Schema.String, password: Schema.String, protected: Schema.Boolean })),
  databases: Schema.Array(Schema.Struct({ name: Schema.String, owner_name: Schema.String }))
}).annotations({ identifier: "SnapshotBranchSnapshot" })

/**
 * A branch's backup schedule (docs/contract.md §19): `id` is the branch's id (one schedule per
 * branch), `schedule` its entries as the request gave them, and `taken_until` the time up to
 * which the control plane has taken the snapshots it calls for.
 */
export const SnapshotBackupSchedule = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  branch_id: Schema.String,
  schedule: Schema.Array(
    Schema.Struct({
      frequency: Schema.String,
      hour: Schema.optional(Schema.Int),
      day: Schema.optional(Schema.Int),
      month: Schema.optional(Schema.Int),
      retention_seconds: Schema.optional(Schema.Int)
    })
  ),
  updated_at: SnapshotTime,
  taken_until: SnapshotTime
}).annotations({ identifier: "SnapshotBackupSchedule" })

/**
 * The Data API of a database (docs/contract.md §25): `id` is its database's id (one Data API per
 * database; renaming the database keeps it, deleting the database deletes it). `settings` holds
 * the settings given, each optional (absent: the platform's default).
 */
export const SnapshotDataApi = Schema.Struct({
  id: Schema.Int.pipe(Schema.positive()),
  project_id: Schema.String,
  branch_id: Schema.String,
  auth_provider: Schema.optional(Schema.String),
  jwks_url: Schema.optional(Schema.String),
  provider_name: Schema.optional(Schema.String),
  jwt_audience: Schema.optional(Schema.String),
  add_default_grants: Schema.Boolean,
  skip_auth_schema: Schema.Boolean,
  settings: Schema.Struct({
    db_aggregates_enabled: Schema.optional(Schema.Boolean),
    db_anon_role: Schema.optional(Schema.String),
    db_extra_search_path: Schema.optional(Schema.String),
    db_max_rows: Schema.optional(Schema.Number),
    db_schemas: Schema.optional(Schema.Array(Schema.String)),
    jwt_role_claim_key: Schema.optional(Schema.String),
    jwt_cache_max_lifetime: Schema.optional(Schema.Number),
    openapi_mode: Schema.optional(Schema.String),
    server_cors_allowed_origins: Schema.optional(Schema.String),
    server_timing_enabled: Schema.optional(Schema.Boolean)
  }),
  created_at: SnapshotTime,
  updated_at: SnapshotTime
}).annotations({ identifier: "SnapshotDataApi" })

/**
 * The auth service of a branch (docs/contract.md §26): `id` is the branch's id (one per branch),
 * with its trusted domains and OAuth providers. Its keys are not kept: they are shown once, when
 * it is enabled, and nothing reveals them later. An OAuth provider's `client_secret` is kept in
 * clear, because the provider list answers it (as a role's password, docs/design.md §4).
 */
export const SnapshotBranchAuth = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  auth_provider: Schema.String,
  auth_provider_project_id: Schema.String,
  db_name: Schema.String,
  name: Schema.String,
  created_at: SnapshotTime,
  domains: Schema.Array(Schema.Struct({ domain: Schema.String, auth_provider: Schema.String })),
  oauth_providers: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      type: Schema.String,
      client_id: Schema.optional(Schema.String),
      client_secret: Schema.optional(Schema.String),
      microsoft_tenant_id: Schema.optional(Schema.String)
    })
  )
}).annotations({ identifier: "SnapshotBranchAuth" })

/** A JWKS of a project (docs/contract.md §27): scoped to `branch_id` when it has one. */
export const SnapshotJwks = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  branch_id: Schema.optional(Schema.String),
  jwks_url: Schema.String,
  provider_name: Schema.String,
  jwt_audience: Schema.optional(Schema.String),
  role_names: Schema.Array(Schema.String),
  created_at: SnapshotTime,
  updated_at: SnapshotTime
}).annotations({ identifier: "SnapshotJwks" })

/** One step of an operation's life: from `at` on, it has `status`. */
export const SnapshotStep = Schema.Struct({ at: SnapshotTime, status: Operation.fields.status })

/** An operation with its whole life: `steps` in ascending time, the first one `scheduling` at `created_at`. */
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
 * What core's `schema` says is wrong with `value` (`DecodeIssue.format`), or `undefined` when it
 * decodes: the problems of a seed or a snapshot name what the contract expects in core's words.
 */
export const refusalOf = <A, I>(
  schema: Schema.Schema<A, I>,
  value: unknown,
  options?: DecodeIssue.Options
): string | undefined => {
  const decoded = Schema.decodeUnknownEither(schema)(value)
  return Either.isLeft(decoded) ? DecodeIssue.format(decoded.left.issue, options) : undefined
}

/**
 * The organization of a project that names none: every project of the fake belongs to it unless
 * its seed says otherwise (`org_id`, docs/contract.md §10.4).
 */
export const defaultOrgId = "org-dbplatform-000000"

/** Branch and compute endpoint ids, as the platform's: `^[a-z0-9-]{1,60}$`. */
const idPattern = /^[a-z0-9-]{1,60}$/

const slugProblem = (label: string, id: string): ReadonlyArray<string> =>
  idPattern.test(id) ? [] : [`${label} "${DecodeIssue.excerpt(id)}": a ${label} id is 1 to 60 of a-z, 0-9 and -`]

type Project = typeof SnapshotProject.Type

const projectProblems = (project: Project): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const refused = refusalOf(ProjectId, project.id)
  if (refused !== undefined) problems.push(`project "${DecodeIssue.excerpt(project.id)}": ${refused}`)
  const org = project.org_id === undefined ? undefined : refusalOf(Api.OrgId, project.org_id)
  if (org !== undefined) problems.push(`project ${project.id}: org_id ${org}`)
  // A seed built in code may hold anything.
  if (project.shared !== undefined && typeof project.shared !== "boolean") {
    problems.push(`project ${project.id}: shared must be true or false, got ${typeof project.shared}`)
  }
  return problems
}

/**
 * How one kind is kept. `rank` orders the items of one parent (ascending; ties by id): newest
 * first is `-created_at`. `parent`: the kind an item belongs to and its id there; an item
 * without one belongs to the account. `check`: what is wrong with one item on its own.
 */
export interface KindSpec<S extends Schema.Schema.AnyNoContext, Id extends string | number, P extends string = string> {
  /** How problems name it: `project`, `API key`. */
  readonly label: string
  readonly schema: S
  /** The schema of its id, for a `Delete` change. */
  readonly id: Schema.Schema<Id, Id>
  readonly idOf: (item: Schema.Schema.Type<S>) => Id
  readonly parent?: { readonly kind: P; readonly of: (item: Schema.Schema.Type<S>) => string } | undefined
  readonly rank: (item: Schema.Schema.Type<S>) => number
  readonly check?: ((item: Schema.Schema.Type<S>) => ReadonlyArray<string>) | undefined
  /** The item as the fake keeps it, from one saved by an older version. */
  readonly upgrade?: ((item: Schema.Schema.Type<S>) => Schema.Schema.Type<S>) | undefined
}

const kind = <S extends Schema.Schema.AnyNoContext, Id extends string | number, const P extends string = never>(
  spec: KindSpec<S, Id, P>
) => spec

const newestFirst = (item: { readonly created_at: number }) => -item.created_at

/**
 * The kinds, in the order a snapshot lists them and problems are reported: a parent kind comes
 * before its children.
 */
export const kinds = {
  api_keys: kind({
    label: "API key",
    schema: SnapshotApiKey,
    id: Schema.Number,
    idOf: (key) => key.id,
    rank: (key) => key.id
  }),
  projects: kind({
    label: "project",
    schema: SnapshotProject,
    id: Schema.String,
    idOf: (project) => project.id,
    rank: newestFirst,
    check: projectProblems,
    // A project saved without `org_id` (before 0.2.0) belongs to the default organization.
    upgrade: (project) => (project.org_id === undefined ? { ...project, org_id: defaultOrgId } : project)
  }),
  branches: kind({
    label: "branch",
    schema: SnapshotBranch,
    id: Schema.String,
    idOf: (branch) => branch.id,
    parent: { kind: "projects", of: (branch) => branch.project_id },
    rank: newestFirst,
    check: (branch) => slugProblem("branch", branch.id)
  }),
  endpoints: kind({
    label: "endpoint",
    schema: SnapshotEndpoint,
    id: Schema.String,
    idOf: (endpoint) => endpoint.id,
    parent: { kind: "branches", of: (endpoint) => endpoint.branch_id },
    rank: newestFirst,
    check: (endpoint) => slugProblem("endpoint", endpoint.id)
  }),
  roles: kind({
    label: "role",
    schema: SnapshotRole,
    id: Schema.String,
    idOf: (role) => role.id,
    parent: { kind: "branches", of: (role) => role.branch_id },
    rank: newestFirst,
    check: (role) =>
      role.id === `${role.branch_id}/${role.name}`
        ? []
        : [`role "${DecodeIssue.excerpt(role.id)}": its id is not {branch_id}/{name}`]
  }),
  databases: kind({
    label: "database",
    schema: SnapshotDatabase,
    id: Schema.Number,
    idOf: (database) => database.id,
    parent: { kind: "branches", of: (database) => database.branch_id },
    rank: newestFirst,
    // A schema's versions in ascending time, one per millisecond: a point in time reads one.
    check: (database) =>
      (database.schema_history ?? []).some((version, i, all) => i > 0 && version.at <= all[i - 1]!.at)
        ? [`database ${database.id}: its schema_history is not in ascending time`]
        : []
  }),
  data_apis: kind({
    label: "Data API",
    schema: SnapshotDataApi,
    id: Schema.Number,
    idOf: (api) => api.id,
    // Its database's id: a database's Data API goes with it.
    parent: { kind: "databases", of: (api) => String(api.id) },
    rank: newestFirst
  }),
  branch_auths: kind({
    label: "branch auth",
    schema: SnapshotBranchAuth,
    id: Schema.String,
    idOf: (auth) => auth.id,
    parent: { kind: "branches", of: (auth) => auth.id },
    rank: newestFirst
  }),
  jwks: kind({
    label: "JWKS",
    schema: SnapshotJwks,
    id: Schema.String,
    idOf: (jwks) => jwks.id,
    parent: { kind: "projects", of: (jwks) => jwks.project_id },
    rank: newestFirst
  }),
  operations: kind({
    label: "operation",
    schema: SnapshotOperation,
    id: Schema.String,
    idOf: (operation) => operation.id,
    // A branch's operations outlive it, as history: they belong to the project.
    parent: { kind: "projects", of: (operation) => operation.project_id },
    rank: newestFirst,
    check: (operation) => {
      const refused = refusalOf(OperationId, operation.id, { values: "never" })
      return refused === undefined ? [] : [`operation "${DecodeIssue.excerpt(operation.id)}": ${refused}`]
    }
  }),
  organizations: kind({
    label: "organization",
    schema: SnapshotOrganization,
    id: Schema.String,
    idOf: (organization) => organization.id,
    rank: newestFirst,
    check: (organization) => {
      const refused = refusalOf(Api.OrgId, organization.id)
      return refused === undefined ? [] : [`organization "${DecodeIssue.excerpt(organization.id)}": ${refused}`]
    }
  }),
  members: kind({
    label: "member",
    schema: SnapshotMember,
    id: Schema.String,
    idOf: (member) => member.id,
    parent: { kind: "organizations", of: (member) => member.org_id },
    rank: (member) => -member.joined_at
  }),
  invitations: kind({
    label: "invitation",
    schema: SnapshotInvitation,
    id: Schema.String,
    idOf: (invitation) => invitation.id,
    parent: { kind: "organizations", of: (invitation) => invitation.org_id },
    rank: (invitation) => -invitation.invited_at
  }),
  permissions: kind({
    label: "permission",
    schema: SnapshotPermission,
    id: Schema.String,
    idOf: (permission) => permission.id,
    parent: { kind: "projects", of: (permission) => permission.project_id },
    // Oldest first: the order accesses were granted in.
    rank: (permission) => permission.granted_at
  }),
  vpc_endpoints: kind({
    label: "VPC endpoint",
    schema: SnapshotVpcEndpoint,
    id: Schema.String,
    idOf: (endpoint) => endpoint.id,
    parent: { kind: "organizations", of: (endpoint) => endpoint.org_id },
    rank: (endpoint) => endpoint.created_at,
    check: (endpoint) =>
      endpoint.id === `${endpoint.org_id}/${endpoint.region_id}/${endpoint.vpc_endpoint_id}`
        ? []
        : [`VPC endpoint "${DecodeIssue.excerpt(endpoint.id)}": its id is not {org_id}/{region_id}/{vpc_endpoint_id}`]
  }),
  vpc_restrictions: kind({
    label: "VPC restriction",
    schema: SnapshotVpcRestriction,
    id: Schema.String,
    idOf: (restriction) => restriction.id,
    parent: { kind: "projects", of: (restriction) => restriction.project_id },
    rank: (restriction) => restriction.created_at,
    check: (restriction) =>
      restriction.id === `${restriction.project_id}/${restriction.vpc_endpoint_id}`
        ? []
        : [`VPC restriction "${DecodeIssue.excerpt(restriction.id)}": its id is not {project_id}/{vpc_endpoint_id}`]
  }),
  transfer_requests: kind({
    label: "transfer request",
    schema: SnapshotTransferRequest,
    id: Schema.String,
    idOf: (request) => request.id,
    parent: { kind: "projects", of: (request) => request.project_id },
    rank: newestFirst
  }),
  // Snapshots of branches and backup schedules (docs/contract.md §19). A snapshot outlives the
  // branch it was taken of: it belongs to the project.
  branch_snapshots: kind({
    label: "branch snapshot",
    schema: SnapshotBranchSnapshot,
    id: Schema.String,
    idOf: (snapshot) => snapshot.id,
    parent: { kind: "projects", of: (snapshot) => snapshot.project_id },
    rank: newestFirst,
    check: (snapshot) => slugProblem("snapshot", snapshot.id)
  }),
  backup_schedules: kind({
    label: "backup schedule",
    schema: SnapshotBackupSchedule,
    id: Schema.String,
    idOf: (schedule) => schedule.id,
    parent: { kind: "branches", of: (schedule) => schedule.branch_id },
    rank: () => 0,
    check: (schedule) =>
      schedule.id === schedule.branch_id ? [] : [`backup schedule ${schedule.id}: its id is not its branch's`]
  })
}

/** The kinds table's type. */
export type Kinds = typeof kinds

/** A kind's name: `api_keys`, `projects`, `branches`, `endpoints`, `roles`, `databases`, `operations`, ... */
export type Kind = keyof Kinds

/** The kinds' names, in table order. */
export const kindNames = Object.keys(kinds) as ReadonlyArray<Kind>

/** An item of kind `K` as the fake keeps it (a snapshot's form, times epoch ms). */
export type Item<K extends Kind> = Schema.Schema.Type<Kinds[K]["schema"]>

/** The id of an item of kind `K`. */
export type Id<K extends Kind> = Schema.Schema.Type<Kinds[K]["id"]>

/** The kinds' own specs, seen through one type (a table lookup by a name known only at run time). */
export const specOf = <K extends Kind>(kind: K): KindSpec<Kinds[K]["schema"], Id<K>, Kind> =>
  kinds[kind] as unknown as KindSpec<Kinds[K]["schema"], Id<K>, Kind>

/** One change of the state: an item of a kind put in place of the one with its id (or added). */
export type Upsert = {
  readonly [K in Kind]: { readonly _tag: "Upsert"; readonly kind: K; readonly item: Item<K> }
}[Kind]

/** One change of the state: the item of a kind with this id removed (nothing when there is none). */
export type Delete = { readonly [K in Kind]: { readonly _tag: "Delete"; readonly kind: K; readonly id: Id<K> } }[Kind]

/** The whole state as data: one array per kind, and the id the next key gets. */
export type Collections = { readonly [K in Kind]: ReadonlyArray<Item<K>> } & { readonly next_key_id: number }

/** The whole state replaced (a reset, a seed loaded, a snapshot restored). */
export interface Replace {
  readonly _tag: "State"
  readonly snapshot: Collections & { readonly version: 2 }
}

/**
 * One change of the state: a new version of the schema of the database `id` (docs/contract.md
 * §24.3), as the change from its last version: the tables `changed` (added or changed, whole) and
 * `dropped` (by schema and name), in force from `at`; the versions before `from` dropped. A
 * migration's record grows with what it changed, not with the schema (`ddl.ts`'s
 * `withSchemaVersion` applies it).
 */
export interface SchemaChange {
  readonly _tag: "Schema"
  readonly kind: "databases"
  readonly id: number
  readonly at: number
  readonly from: number
  readonly changed: ReadonlyArray<typeof SnapshotSchemaTable.Type>
  readonly dropped: ReadonlyArray<{ readonly schema: string; readonly name: string }>
}

/** One change record: what the journal, snapshots, seeds and restore all use. */
export type Change = Upsert | Delete | Replace | SchemaChange

/** An `Upsert` of `item`, of kind `kind`. */
export const upsert = <K extends Kind>(kind: K, item: Item<K>): Change => ({ _tag: "Upsert", kind, item }) as Change

/** A `Delete` of the item of kind `kind` with id `id`. */
export const remove = <K extends Kind>(kind: K, id: Id<K>): Change => ({ _tag: "Delete", kind, id }) as Change

/** `fields` without its keys set to `undefined`, so a record built in code equals one decoded from its JSON. */
export const present = <A extends object>(fields: A): A => {
  let kept: Record<string, unknown> | undefined
  for (const key in fields) {
    if (fields[key] === undefined) {
      if (kept === undefined) {
        kept = {}
        for (const before in fields) {
          if (before === key) break
          kept[before] = fields[before]
        }
      }
    } else if (kept !== undefined) {
      kept[key] = fields[key]
    }
  }
  return (kept ?? fields) as A
}
