/**
 * The kinds of record the fake keeps, declared once each: the shape a `Snapshot` holds it in, how
 * to get its id, its parent kind (for cascading deletes and orphan checks), its place in its
 * parent's newest-first list, and what is wrong with one on its own. The `Snapshot` schema, the
 * change record, seeds, restore and the emulator's journal replay are all derived from
 * {@link kinds}: a new kind is a schema and an entry here.
 */
import { Api, DecodeIssue, Operation, OperationId, ProjectId } from "@dbplatform/core"
import * as DateTime from "effect/DateTime"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"

/** A time: epoch milliseconds in memory, an RFC 3339 UTC string in JSON. */
export const SnapshotTime = Schema.DateTimeUtc.pipe(
  Schema.transform(Schema.Number, { strict: true, decode: DateTime.toEpochMillis, encode: DateTime.unsafeMake })
).annotations({ identifier: "SnapshotTime" })

/** A key: `hash` is the SHA-256 of its value, 64 lower-case hex digits. */
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
 * A project (the fields the fake keeps; the others are derived when it is listed). Since 0.3.0
 * also, each optional (a project saved before has the defaults): `updated_at` (its
 * `created_at`), `history_retention_seconds` (86 400: a day) and `default_endpoint_settings`
 * (those of a compute endpoint created without settings: 0.25 compute units, suspend timeout 0).
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
  )
}).annotations({ identifier: "SnapshotProject" })

/**
 * A branch: `current_state` is `init` before `ready_at`, `ready` from it. `checked_at` is the
 * time of the last `check_availability` the control plane ran on it (none yet: absent).
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
  checked_at: Schema.optional(SnapshotTime)
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

/** A database of a branch, owned by the role of that branch named `owner_name`. `id` is unique in the account. */
export const SnapshotDatabase = Schema.Struct({
  id: Schema.Int.pipe(Schema.positive()),
  project_id: Schema.String,
  branch_id: Schema.String,
  name: Schema.String,
  owner_name: Schema.String,
  created_at: SnapshotTime,
  updated_at: SnapshotTime
}).annotations({ identifier: "SnapshotDatabase" })

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
    rank: newestFirst
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
  })
}

/** The kinds table's type. */
export type Kinds = typeof kinds

/**
 * A kind's name: `api_keys`, `projects`, `branches`, `endpoints`, `roles`, `databases`,
 * `data_apis`, `branch_auths`, `jwks`, `operations`.
 */
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

/** One change record: what the journal, snapshots, seeds and restore all use. */
export type Change = Upsert | Delete | Replace

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
