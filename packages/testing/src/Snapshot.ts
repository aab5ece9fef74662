/**
 * The whole state of a fake account as plain data, to save it and start a fake from it later
 * (`FakePlatform.Service.snapshot`, `FakePlatform.restore`): the API keys as hashes (never their
 * values), the projects, their branches and compute endpoints, and the operations with their
 * whole life (past and planned steps), every time absolute. Its JSON form
 * (`Schema.encode(Snapshot)`) is the emulator's `--state` file: times are RFC 3339 UTC strings.
 *
 * One array per kind of record, and one change record for all of them ({@link SnapshotChange}):
 * both are derived from the fake's table of kinds (docs/design.md §4).
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import * as Record from "effect/Record"
import * as Schema from "effect/Schema"
import type { ParseOptions } from "effect/SchemaAST"
import { accountUser } from "./engine/caller.js"
import { type Change, type Collections, defaultOrgId, type Kind } from "./engine/kinds.js"
import { applyAll, snapshotOf } from "./engine/state.js"
import { kindNames, kinds, stateOf } from "./internal/kinds.js"

export {
  /**
   * A key as the fake keeps it: `hash` is the SHA-256 of its value, 64 lower-case hex digits.
   *
   * @since 0.1.0
   */
  SnapshotApiKey,
  /**
   * A branch (since 0.3.0): `id`, `project_id`, `parent_id` (absent for a root branch), `name`,
   * `default`, `protected`, `created_at`, `updated_at`, and `ready_at`: its `current_state` is
   * `init` before that time and `ready` from it (docs/contract.md §2.5); `checked_at` (optional,
   * since 0.3.0), the time of the control plane's last `check_availability` on it (§12); and,
   * optional, since 0.5.0, for a branch restored from a snapshot (§19): `restore_status`
   * (`restored` or `finalized`), `restored_from` (the snapshot's id), `restored_as` (the id of the
   * branch it stands in for); `annotation_value` (its annotation's values, strings by name, as its
   * creation gave them; docs/contract.md §11.4).
   *
   * @since 0.3.0
   */
  SnapshotBranch,
  /**
   * A branch deleted within its 7 days of recovery (since 0.5.0; docs/contract.md §18.1): the
   * fields of {@link SnapshotBranch} as it was, `deleted_at`, and `deletion_method` (`user`, a
   * request; `ttl`, its expiry). `GET .../branches?include_deleted=true` lists it.
   *
   * @since 0.5.0
   */
  SnapshotDeletedBranch,
  /**
   * A snapshot of a branch's data, the platform's resource (since 0.5.0; docs/contract.md §19),
   * not to be confused with {@link Snapshot}, the fake's whole state: `id`, `project_id`,
   * `source_branch_id`, `name`, `lsn` and `timestamp` (the point of the branch's history it
   * holds), `created_at`, `expires_at` (optional: when the control plane deletes it), `manual`
   * (`false` when a backup schedule took it), and the data it holds: `roles` (`name`,
   * `password`, `protected`) and `databases` (`name`, `owner_name`) as they were at that point.
   * It holds passwords in clear: a snapshot with any is a secret.
   *
   * @since 0.5.0
   */
  SnapshotBranchSnapshot,
  /**
   * A branch's backup schedule (since 0.5.0; docs/contract.md §19): `id` (the branch's id),
   * `project_id`, `branch_id`, `schedule` (`frequency`, and optional `hour`, `day`, `month`,
   * `retention_seconds`), `updated_at`, and `taken_until`, the time up to which the control plane
   * has taken the snapshots it calls for.
   *
   * @since 0.5.0
   */
  SnapshotBackupSchedule,
  /**
   * A compute endpoint (since 0.3.0): `id`, `project_id`, `branch_id`, `type` (`read_write` or
   * `read_only`), `autoscaling_limit_min_cu` and `autoscaling_limit_max_cu` (compute units),
   * `suspend_timeout_seconds` (s), `created_at`, `updated_at`, `active_at` (the end of its last
   * `start_compute`), and, optional, `suspended_at` (the end of its last `suspend_compute`) and
   * `last_active` (its last connection): its `current_state` is `init` until `active_at`, then
   * `active` or `idle` after whichever of `active_at` and `suspended_at` came last
   * (docs/contract.md §12). Since 0.5.0, optional, as a request gave them: `name`, `settings`,
   * `provisioner`, `disabled`, `passwordless_access`, `pooler_enabled`, `pooler_mode`.
   *
   * @since 0.3.0
   */
  SnapshotEndpoint,
  /**
   * A database of a branch (since 0.3.0): `id` (an integer unique in the account),
   * `project_id`, `branch_id`, `name`, `owner_name` (a role of the same branch), `created_at`,
   * `updated_at` (docs/contract.md §15.1).
   *
   * @since 0.3.0
   */
  SnapshotDatabase,
  /**
   * A role of a branch (since 0.3.0): `id` (`{branch_id}/{name}`), `project_id`, `branch_id`,
   * `name`, `password`, `protected`, `created_at`, `updated_at` (docs/contract.md §15.2). It holds
   * the role's password in clear, so the fake can reveal it: a snapshot with roles is a secret.
   * Since 0.5.0, `no_login` (optional): a role that cannot log in, with no password (empty).
   *
   * @since 0.3.0
   */
  SnapshotRole,
  /**
   * An operation with its whole life: `steps` in ascending time, the first one `scheduling` at
   * `created_at`. The fields are core's `Operation` fields, but ids are plain strings (a bad id
   * is reported with every other problem of the state, not as a decoding error), times are
   * absolute, and the `status` and `updated_at` of a moment are read from `steps`. The fake holds
   * its operations in this shape, and seeds (`Seed.SeedOperation`) take the same fields.
   *
   * @since 0.1.0
   */
  SnapshotOperation,
  /**
   * An organization: `id` (`^[a-z0-9-]{1,60}$`), `name`, `handle`, `plan`, `managed_by`,
   * `created_at`, `updated_at` (docs/contract.md §20). A snapshot without organizations (before
   * 0.5.0) gets those its projects name, each with the account's user as its admin.
   *
   * @since 0.5.0
   */
  SnapshotOrganization,
  /**
   * A member of an organization: `id` (the membership's UUID), `org_id`, `user_id` (a UUID),
   * `email`, `role` (`admin`, `member`, ...: open) and `joined_at` (docs/contract.md §20).
   *
   * @since 0.5.0
   */
  SnapshotMember,
  /**
   * An invitation to an organization: `id` (a UUID), `org_id`, `email`, `role`, `invited_by`
   * (the inviting user's UUID) and `invited_at` (docs/contract.md §20). A snapshot without
   * invitations (before 0.5.0) has none.
   *
   * @since 0.5.0
   */
  SnapshotInvitation,
  /**
   * An access to a project granted by email: `id`, `project_id`, `granted_to_email`,
   * `granted_at` (docs/contract.md §22.1); a revoked one is not kept.
   *
   * @since 0.5.0
   */
  SnapshotPermission,
  /**
   * A VPC endpoint assigned to an organization in a region: `id`
   * (`{org_id}/{region_id}/{vpc_endpoint_id}`), `org_id`, `region_id`, `vpc_endpoint_id`,
   * `label`, `created_at`, and `deleted_at` once deleted (kept: it cannot be added back)
   * (docs/contract.md §22.3).
   *
   * @since 0.5.0
   */
  SnapshotVpcEndpoint,
  /**
   * A project's restriction to a VPC endpoint: `id` (`{project_id}/{vpc_endpoint_id}`),
   * `project_id`, `vpc_endpoint_id`, `label`, `created_at` (docs/contract.md §22.3).
   *
   * @since 0.5.0
   */
  SnapshotVpcRestriction,
  /**
   * A project transfer request: `id` (a UUID), `project_id`, `created_at`, `expires_at`
   * (docs/contract.md §22.4); an accepted one is not kept.
   *
   * @since 0.5.0
   */
  SnapshotTransferRequest,
  /**
   * A project (the fields the fake keeps; the others are derived when it is listed). `org_id`
   * (added in 0.2.0) is optional so that older snapshots still load: a project without one belongs
   * to the fake's default organization. `shared` (added in 0.2.0): `true` for a project of another
   * account shared with this one, listed by `GET /projects/shared` and not by `GET /projects`
   * (docs/contract.md §10.6); absent (or `false`) for one of the account's own. Since 0.3.0, also
   * optional (an older snapshot gets the defaults): `updated_at`, `history_retention_seconds`
   * (86 400 s) and `default_endpoint_settings` (docs/contract.md §14). Since 0.5.0, also
   * optional: `settings` (docs/contract.md §22.2), `integration` (docs/contract.md §22.4),
   * `store_passwords` (absent: `true`), and `pg_settings` and `pgbouncer_settings` in
   * `default_endpoint_settings` (docs/contract.md §14.2).
   *
   * @since 0.1.0
   */
  SnapshotProject,
  /**
   * One step of an operation's life: from `at` on, it has `status`.
   *
   * @since 0.1.0
   */
  SnapshotStep,
  /**
   * A time: epoch milliseconds in memory, an RFC 3339 UTC string in JSON.
   *
   * @since 0.1.0
   */
  SnapshotTime
} from "./internal/kinds.js"

type Kinds = typeof kinds

/** One array per kind, each of its snapshot schema. */
const collections = Object.fromEntries(kindNames.map((kind) => [kind, Schema.Array(kinds[kind].schema)])) as {
  readonly [K in Kind]: Schema.Array$<Kinds[K]["schema"]>
}

const NextKeyId = Schema.Int.pipe(Schema.positive())

/** The kinds every version 2 snapshot has; a kind added since (`roles`, `databases`, and later ones) may be absent: none. */
const firstKinds: ReadonlyArray<Kind> = ["api_keys", "projects", "branches", "endpoints", "operations"]

const laterKinds = kindNames.filter((kind) => !firstKinds.includes(kind))

/** An array per kind added since version 2 began, each absent meaning none. */
const laterCollections = Object.fromEntries(
  laterKinds.map((kind) => [kind, Schema.optionalWith(collections[kind], { default: () => [] })])
) as {
  readonly [K in Kind]: Schema.optionalWith<Schema.Array$<Kinds[K]["schema"]>, { default: () => [] }>
}

/** Version 2: one array per kind; one added after version 2 began may be absent: none. */
const SnapshotV2 = Schema.Struct({
  version: Schema.Literal(2),
  next_key_id: NextKeyId,
  ...collections,
  ...laterCollections
})

/** An empty array per kind. */
const noItems = (): Omit<Collections, "next_key_id"> => Record.map(kinds, () => [])

/** Version 1 (0.1.0 to 0.2.x): keys, projects and operations; read as version 2 with nothing else. */
const SnapshotV1 = Schema.transform(
  Schema.Struct({
    version: Schema.Literal(1),
    next_key_id: NextKeyId,
    api_keys: collections.api_keys,
    projects: collections.projects,
    operations: collections.operations
  }),
  Schema.typeSchema(SnapshotV2),
  {
    strict: true,
    decode: (v1) => ({
      ...v1,
      ...noItems(),
      api_keys: v1.api_keys,
      projects: v1.projects,
      operations: v1.operations,
      version: 2 as const
    }),
    // Never used to encode: a snapshot is always written as version 2 (the union's first member).
    encode: (v2) => ({
      version: 1 as const,
      next_key_id: v2.next_key_id,
      api_keys: v2.api_keys,
      projects: v2.projects,
      operations: v2.operations
    })
  }
)

/**
 * The state of a fake account, version 2 (since 0.3.0): `next_key_id` (the id the next created
 * key gets) and one array per kind of record: `api_keys`, `projects`, `branches`, `endpoints`,
 * `roles`, `databases`, `operations`, `organizations`, `members`, `invitations`, `permissions`,
 * `vpc_endpoints`, `vpc_restrictions`, `transfer_requests`, `branch_snapshots`, `backup_schedules`,
 * `data_apis`, `branch_auths`, `jwks`, `deleted_branches` (a kind added after version 2 began may
 * be absent: none).
 * A version 1 snapshot (0.1.0 to 0.2.x: no `branches` nor `endpoints`) still
 * decodes, as version 2 with none; a snapshot is always encoded as version 2.
 *
 * @since 0.1.0
 */
export const Snapshot: Schema.Schema<typeof SnapshotV2.Type, typeof SnapshotV2.Encoded | typeof SnapshotV1.Encoded> =
  Schema.Union(SnapshotV2, SnapshotV1).annotations({ identifier: "Snapshot" })

/**
 * The decoded state: `{ version: 2, next_key_id, api_keys, projects, branches, endpoints,
 * roles, databases, operations, organizations, members, ... }` (one array per kind), times in epoch milliseconds.
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

const KindName = Schema.Literal(...kindNames)

/**
 * A change of a kind's item (`Upsert`: `item`), id (`Delete`: `id`) or part (`Patch`: `id` and
 * `patch`): `kind` decoded first, then each field with that kind's schema for it from the table,
 * so a bad line is named by its field.
 */
const kindChange = <Tag extends string>(
  tag: Tag,
  schemas: { readonly [field: string]: (kind: Kind) => Schema.Schema.AnyNoContext }
) => {
  const Encoded = Schema.TaggedStruct(tag, {
    kind: KindName,
    ...Record.map(schemas, () => Schema.Unknown)
  })
  const convert =
    (direction: "decode" | "encode") =>
    (change: any, options: ParseOptions): Effect.Effect<any, ParseResult.ParseIssue> =>
      Effect.reduce(Object.entries(schemas), change, (converted, [field, schemaOf]) => {
        const schema = schemaOf(change.kind as Kind)
        const convert = direction === "decode" ? ParseResult.decodeUnknown(schema) : ParseResult.encodeUnknown(schema)
        return Effect.mapBoth(convert(change[field], options), {
          onFailure: (issue) => new ParseResult.Pointer(field, change, issue),
          onSuccess: (value) => ({ ...converted, [field]: value })
        })
      })
  return Schema.transformOrFail(Encoded, Schema.typeSchema(Encoded), {
    strict: false,
    decode: convert("decode"),
    encode: convert("encode")
  })
}

/** The patch of a kind that declares none: refused. */
const noPatch = Schema.Unknown.pipe(Schema.filter(() => "this kind of record takes no Patch"))

/** `Upsert`, `Delete` and `Patch` (for a kind with a `patch`; refused for another), for every kind of the table. */
const kindChanges = [
  kindChange("Upsert", { item: (kind) => kinds[kind].schema }),
  kindChange("Delete", { id: (kind) => kinds[kind].id }),
  kindChange("Patch", {
    id: (kind) => kinds[kind].id,
    patch: (kind): Schema.Schema.AnyNoContext =>
      (kinds[kind] as { readonly patch?: { readonly schema: Schema.Schema.AnyNoContext } }).patch?.schema ?? noPatch
  })
]

/** The changes a version 1 journal holds (0.1.0 to 0.2.x), read as today's. */
const changesV1 = [
  ["ApiKey", "api_key", "api_keys"],
  ["Project", "project", "projects"],
  ["Operation", "operation", "operations"]
].map(([tag, field, kind]) =>
  Schema.transform(
    Schema.TaggedStruct(tag!, { [field!]: kinds[kind as Kind].schema as Schema.Schema.AnyNoContext }),
    Schema.typeSchema(Schema.TaggedStruct("Upsert", { kind: Schema.Literal(kind!), item: Schema.Any })),
    {
      strict: false,
      decode: (v1: any) => ({ _tag: "Upsert", kind, item: v1[field!] }),
      encode: (change: any) => ({ _tag: tag, [field!]: change.item })
    }
  )
)

/** The encoded form of a change, as a journal line holds it. */
type ChangeEncoded =
  | {
      readonly [K in Kind]: {
        readonly _tag: "Upsert"
        readonly kind: K
        readonly item: Schema.Schema.Encoded<Kinds[K]["schema"]>
      }
    }[Kind]
  | {
      readonly [K in Kind]: {
        readonly _tag: "Delete"
        readonly kind: K
        readonly id: Schema.Schema.Encoded<Kinds[K]["id"]>
      }
    }[Kind]
  | { readonly _tag: "State"; readonly snapshot: Schema.Schema.Encoded<typeof Snapshot> }
  | { readonly _tag: "Patch"; readonly kind: Kind; readonly id: string | number; readonly patch: unknown }

/**
 * One change of a fake's state as it is made, for a journal (`FakePlatform.Options.journal`),
 * one record for every kind (since 0.3.0): `Upsert { kind, item }` puts `item` (the whole record
 * after the change) in place of the item of `kind` with its id, or adds it; `Delete { kind, id }`
 * removes the item of `kind` with `id` (a cascade is one `Delete` per item: a project's branches,
 * endpoints and operations, a branch's endpoints); `State { snapshot }` replaces the whole state
 * (`FakePlatform.Service.reset`, `load`, `restore`); `Patch { kind, id, patch }` (since 0.6.0)
 * changes part of the item of `kind` with `id` as its kind says, for a kind whose items are large
 * and change a little at a time: a `databases` patch is a new version of the database's schema as
 * the change a migration made (docs/contract.md §24.3): `{ at, from, changed, dropped }`, the
 * tables added or changed (whole) and dropped (`{ schema, name }`) from its last version, in force
 * from `at`, the versions before `from` dropped; its record grows with the migration, not with the
 * schema. `kind` is `api_keys`, `projects`,
 * `branches`, `endpoints` or `operations`. Applying a journal's changes in order to the snapshot
 * it started from gives the state ({@link applyChanges}); applying one twice changes nothing.
 * The changes of version 1 (`ApiKey`, `Project`, `Operation`) still decode, as `Upsert`s.
 *
 * @since 0.1.0
 */
export const SnapshotChange = Schema.Union(
  ...kindChanges,
  Schema.TaggedStruct("State", { snapshot: Snapshot }),
  ...changesV1
).annotations({ identifier: "SnapshotChange" }) as unknown as Schema.Schema<Change, ChangeEncoded>

/**
 * A decoded change (see {@link SnapshotChange}), times in epoch milliseconds.
 *
 * @since 0.1.0
 */
export type SnapshotChange = Change

/**
 * `snapshot` with `changes` applied in order (since 0.3.0), as the fake applies them: the state a
 * journal describes, from the snapshot it started from. The arrays come out in the order a
 * fake's `snapshot` lists them (keys by id; projects newest first; each project's branches and
 * operations, each branch's endpoints, newest first), so two equal states give equal snapshots.
 *
 * @since 0.3.0
 */
export const applyChanges = (snapshot: Snapshot, changes: ReadonlyArray<SnapshotChange>): Snapshot =>
  changes.length === 0 ? snapshot : snapshotOf(applyAll(stateOf(snapshot), changes))

/**
 * The organization of `snapshot`'s account that its organization API keys go to (since 0.5.0,
 * docs/contract.md §20.4, §21): one whose admin the account's user (`you@example.com`) is, the
 * role that may create an organization's keys. The fake's default organization
 * (`org-dbplatform-000000`) when the user is one of its admins, else the oldest of the others
 * (ties: the first by id); `undefined` when the user is the admin of none. The emulator makes
 * `DBPLATFORM_EMULATOR_ORG_KEY` a key of it and names it in its startup hint.
 *
 * @since 0.5.0
 */
export const accountOrganization = (snapshot: Snapshot): string | undefined => {
  const administered = new Set(
    snapshot.members
      .filter((member) => member.user_id === accountUser.id && member.role === "admin")
      .map((member) => member.org_id)
  )
  if (administered.has(defaultOrgId) && snapshot.organizations.some((org) => org.id === defaultOrgId)) {
    return defaultOrgId
  }
  return snapshot.organizations
    .filter((organization) => administered.has(organization.id))
    .sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1))[0]?.id
}
