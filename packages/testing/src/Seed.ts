/**
 * What the fake platform holds when it starts: API keys, projects, their branches, compute
 * endpoints, roles and databases, and operations, with times relative to the moment it starts (the `Clock`'s time, so
 * `TestClock` drives them).
 *
 * @since 0.1.0
 */
import { DecodeIssue } from "@dbplatform/core"
import * as Data from "effect/Data"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as EngineSeed from "./engine/seed.js"
import * as Realistic from "./internal/realistic.js"
import * as BranchesSeed from "./resources/Branches/seed.js"
import * as BucketsSeed from "./resources/Buckets/seed.js"
import * as ComputeEndpointsSeed from "./resources/ComputeEndpoints/seed.js"
import * as BranchAuthSeed from "./resources/BranchAuth/seed.js"
import * as CredentialsSeed from "./resources/Credentials/seed.js"
import * as DatabasesSeed from "./resources/Databases/seed.js"
import * as OrganizationsSeed from "./resources/Organizations/seed.js"
import * as ProjectsSeed from "./resources/Projects/seed.js"
import * as RolesSeed from "./resources/Roles/seed.js"

// Each group's part of a seed is in its own place (`resources/<Group>/seed.ts`, the engine's in
// `engine/seed.ts`); this module assembles them and is their public documentation.

/**
 * A duration in a seed file (at most 100 years): a number of milliseconds (>= 0), or a string Effect's `Duration`
 * reads, such as `"3 seconds"`, `"30 days"`, `"1500 millis"` (not negative: `"-5 minutes"` is refused).
 * In code, any `Duration.DurationInput`: one of another form (a `Duration`, a bigint of
 * nanoseconds) is encoded as its number of milliseconds.
 *
 * @since 0.1.0
 */
export const SeedDuration: Schema.Schema<Duration.DurationInput, number | string> = EngineSeed.SeedDuration

/**
 * A project of a seed, in a seed file as in code: the fields the fake keeps of a project
 * (`Snapshot.SnapshotProject`), all optional but `id`, and `age` instead of `created_at`.
 *
 * @since 0.2.0
 */
export const SeedProjectFile = ProjectsSeed.SeedProjectFile

/**
 * A member of a seed's organization (since 0.5.0): a user by `email`, with a `role` (`admin`,
 * `member`, `editor`, `viewer`, `collaborator`; open), `member` by default. `user_id` (a UUID) is
 * derived from the email when absent; the account's own user is `you@example.com`.
 *
 * @since 0.5.0
 */
export const SeedMemberFile = OrganizationsSeed.SeedMemberFile

/**
 * A member of a seed's organization.
 *
 * @since 0.5.0
 */
export interface SeedMember extends Schema.Schema.Type<typeof SeedMemberFile> {}

/**
 * An API key of a seed's organization (since 0.5.0, docs/contract.md §21): its `name`, its value
 * `key` (the fake keeps only its hash; a request sends it as `Authorization: Bearer <key>`), and
 * `project_id`, a project of the organization, for a key that acts for that project only.
 * Created with its organization.
 *
 * @since 0.5.0
 */
export const SeedOrganizationKeyFile = OrganizationsSeed.SeedOrganizationKeyFile

/**
 * An API key of a seed's organization.
 *
 * @since 0.5.0
 */
export interface SeedOrganizationKey extends Schema.Schema.Type<typeof SeedOrganizationKeyFile> {}

/**
 * An organization of a seed (since 0.5.0): `id` (`^[a-z0-9-]{1,60}$`), and optional `name` (its
 * id), `handle` (its id), `plan` (`free_v3`), `spending_limit_cents` (its monthly spending
 * limit in cents, since 0.5.0; none by default), `age` (30 days), `members`: absent, the
 * account's user is its only member, an admin; given, exactly those, and `api_keys`, the
 * organization's keys by value (none by default). A project's `org_id` that no organization of
 * the seed declares is implied the same way (docs/contract.md §20, §21).
 *
 * @since 0.5.0
 */
export const SeedOrganizationFile = OrganizationsSeed.SeedOrganizationFile

/**
 * An organization of the seed.
 *
 * @since 0.5.0
 */
export interface SeedOrganization extends Schema.Schema.Type<typeof SeedOrganizationFile> {}

/**
 * A project of the seed. Unset fields get realistic values.
 *
 * @since 0.1.0
 */
export interface SeedProject extends Schema.Schema.Type<typeof SeedProjectFile> {}

/**
 * A branch of a seed, in a seed file as in code (since 0.3.0): the fields the fake keeps of a
 * branch (`Snapshot.SnapshotBranch`), all optional but `project_id`, and `age` and `readyIn`
 * instead of times. A project of a seed without branches gets one, `main`, its default, created
 * and ready with the project. Of a project's branches, the one with `default: true` is its
 * default (the first listed when none says so); a branch without `parent_id` other than the
 * default is a child of the default.
 *
 * @since 0.3.0
 */
export const SeedBranchFile = BranchesSeed.SeedBranchFile

/**
 * A branch of the seed (see {@link SeedBranchFile}).
 *
 * @since 0.3.0
 */
export interface SeedBranch extends Schema.Schema.Type<typeof SeedBranchFile> {}

/**
 * A compute endpoint of a seed, in a seed file as in code (since 0.3.0): the fields the fake
 * keeps of one (`Snapshot.SnapshotEndpoint`), all optional but `branch_id` (a branch of the seed
 * given with its `id`), its project that of its branch, and `age` and `activeIn` instead of
 * times. A branch has at most one `read_write` endpoint. The control plane does not replay what
 * happened before the seed was loaded: a seed's compute endpoints were last active then (their
 * suspend timeout counts from the start), and its branches last checked then (docs/contract.md §12).
 *
 * @since 0.3.0
 */
export const SeedEndpointFile = ComputeEndpointsSeed.SeedEndpointFile

/**
 * A compute endpoint of the seed (see {@link SeedEndpointFile}).
 *
 * @since 0.3.0
 */
export interface SeedEndpoint extends Schema.Schema.Type<typeof SeedEndpointFile> {}

/**
 * A credential of a seed (since 0.5.0, docs/contract.md §11.7): `branch_id` (a branch of the
 * seed given with its `id`), `api_token` (its bearer token, by value, so that a test can present
 * it; the fake keeps only its SHA-256), `scopes`, and optional `token_id` (`nak_live_` and 32 hex
 * digits; derived from the token when absent), `name`, `age` (created at the start by default)
 * and `revokedAgo` (revoked that long before the start; not revoked by default).
 *
 * @since 0.5.0
 */
export const SeedCredentialFile = CredentialsSeed.SeedCredentialFile

/**
 * A credential of the seed (see {@link SeedCredentialFile}).
 *
 * @since 0.5.0
 */
export interface SeedCredential extends Schema.Schema.Type<typeof SeedCredentialFile> {}
/**
 * A bucket of a seed, in a seed file as in code (since 0.6.0; docs/contract.md §28): `branch_id`
 * (a branch of the seed given with its `id`), `name` (1 to 255 characters, unique on the
 * branch), `access_level` (`private` by default), `age` instead of a time (with its branch when
 * absent) and its `objects`, each a `key` with its bytes as text (`content`) or base64
 * (`content_base64`), its `content_type` and `age` (with its bucket when absent). A child branch
 * of the seed sees its parent's buckets and objects as of its creation, as a branch made by a
 * request does.
 *
 * @since 0.6.0
 */
export const SeedBucketFile = BucketsSeed.SeedBucketFile

/**
 * A bucket of the seed (see {@link SeedBucketFile}).
 *
 * @since 0.6.0
 */
export interface SeedBucket extends Schema.Schema.Type<typeof SeedBucketFile> {}

/**
 * A role of a seed (a Postgres user of a branch), in a seed file as in code (since 0.3.0): the
 * fields the fake keeps of one (`Snapshot.SnapshotRole`), all optional but `branch_id` (a branch
 * of the seed given with its `id`) and `name` (unique on its branch), its project that of its
 * branch, and `age` instead of times. Its `password` is what `reveal_password` answers: generated
 * when absent (the same for the same seed). A project of a seed gets no role unless it names one.
 *
 * @since 0.3.0
 */
export const SeedRoleFile = RolesSeed.SeedRoleFile

/**
 * A role of the seed (see {@link SeedRoleFile}).
 *
 * @since 0.3.0
 */
export interface SeedRole extends Schema.Schema.Type<typeof SeedRoleFile> {}

/**
 * A database's schema as a JSON table list, in a seed (since 0.5.0): `{ tables }`, each table
 * with its `schema` (`public`), `name`, `columns` (`name`, `type` as the catalog spells it,
 * `nullable` (true by default), `generated`) and `constraints` (`type` `primary_key`, `unique` or
 * `foreign_key`, `columns`, `name` (Postgres's name when absent), `referenced_table` for a foreign
 * key): the shape of `GET .../schema?format=json` (docs/contract.md §24.2).
 *
 * @since 0.5.0
 */
export const SeedSchemaJson = DatabasesSeed.SeedSchemaJson

/**
 * A database of a seed, in a seed file as in code (since 0.3.0): the fields the fake keeps of one
 * (`Snapshot.SnapshotDatabase`), all optional but `branch_id` (a branch of the seed given with its
 * `id`), `name` (unique on its branch) and `owner_name` (a role of the seed on the same branch),
 * its project that of its branch, and `age` instead of times.
 *
 * @since 0.3.0
 */
export const SeedDatabaseFile = DatabasesSeed.SeedDatabaseFile

/**
 * A database of the seed (see {@link SeedDatabaseFile}).
 *
 * @since 0.3.0
 */
export interface SeedDatabase extends Schema.Schema.Type<typeof SeedDatabaseFile> {}

/**
 * A branch's Neon Auth in a seed (since 0.6.0, docs/contract.md §26): `branch_id` (a branch of
 * the seed given with its `id`), and optionally its `auth_provider` (`better_auth` when absent),
 * the `database_name` its users are kept in (the branch's first database of the seed when
 * absent), the app's `name`, its trusted `domains` (absolute URLs), its `users` (`email`, `name`,
 * `roles` (`["user"]` when absent), `id` (generated when absent, the same for the same seed)),
 * and its settings as the API answers them: `email_and_password`, `email_provider` (`{ type:
 * "standard", host, port, username, password, sender_email, sender_name }` or `{ type: "shared"
 * }`: a seed with an SMTP password is a secret), `allow_localhost`, `organization`, `magic_link`,
 * `phone_number`, `webhooks`; each setting absent is the API's default.
 *
 * @since 0.6.0
 */
export const SeedBranchAuthFile = BranchAuthSeed.SeedBranchAuthFile

/**
 * A branch's Neon Auth of the seed (see {@link SeedBranchAuthFile}).
 *
 * @since 0.6.0
 */
export interface SeedBranchAuth extends Schema.Schema.Type<typeof SeedBranchAuthFile> {}

/**
 * An operation of a seed, in a seed file as in code: the fields the fake keeps of an operation
 * (`Snapshot.SnapshotOperation`, core's `Operation` fields), all optional but `project_id` and
 * `action`, with times relative to the start instead of absolute ones.
 *
 * @since 0.2.0
 */
export const SeedOperationFile = EngineSeed.SeedOperationFile

/**
 * An operation of the seed. It is `scheduling` for its first second (or fifth of `runsFor`,
 * whichever is shorter), then `running`, then takes `status` once `runsFor` has passed since
 * it was created, and keeps it. With `status` `scheduling` or `running` it never goes further.
 *
 * @since 0.1.0
 */
export interface SeedOperation extends Schema.Schema.Type<typeof SeedOperationFile> {}

/**
 * What the fake holds when it starts: the bootstrap key's value, projects, branches, compute
 * endpoints, roles, databases and operations. Every field is optional; `{}` is an account with only its bootstrap key.
 *
 * @since 0.1.0
 */
export interface Seed {
  /**
   * The value of the account's first key (created in the console, docs/contract.md §5 rule 7),
   * named `bootstrap`. Random when absent; read it from `FakePlatform.bootstrapKey`.
   */
  readonly bootstrapKey?: string | undefined
  readonly projects?: ReadonlyArray<SeedProject> | undefined
  /** Branches (since 0.3.0); a project without any gets its default branch `main`. */
  readonly branches?: ReadonlyArray<SeedBranch> | undefined
  /** Compute endpoints of the seed's branches (since 0.3.0). */
  readonly endpoints?: ReadonlyArray<SeedEndpoint> | undefined
  /** Roles of the seed's branches (since 0.3.0). */
  readonly roles?: ReadonlyArray<SeedRole> | undefined
  /** Databases of the seed's branches, each owned by a role of its branch (since 0.3.0). */
  readonly databases?: ReadonlyArray<SeedDatabase> | undefined
  readonly operations?: ReadonlyArray<SeedOperation> | undefined
  /** Organizations and their members (since 0.5.0); one a project names without declaring it is implied. */
  readonly organizations?: ReadonlyArray<SeedOrganization> | undefined
  /** Neon Auth of the seed's branches: users and settings (since 0.6.0). */
  readonly branch_auths?: ReadonlyArray<SeedBranchAuth> | undefined
  /** Credentials of the seed's branches (since 0.5.0). */
  readonly credentials?: ReadonlyArray<SeedCredential> | undefined
  /** Buckets of the seed's branches and their objects (since 0.6.0). */
  readonly buckets?: ReadonlyArray<SeedBucket> | undefined
}

/**
 * A seed (or a seed file, or a saved `Snapshot`) the fake cannot serve: `problems` lists each
 * bad or repeated id or `org_id`, each item of an unknown parent (an operation or a branch of an
 * unknown project, an endpoint of an unknown branch), a project with branches but not exactly
 * one default, a branch whose parent is not a branch of its project, a branch with more than one
 * `read_write` endpoint, a database whose owner is not a role of its branch (a role or a database
 * of an unknown branch, a role named twice on a branch), and for a seed file what does not decode.
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

/**
 * Options of {@link realistic}: how many `projects` (4 by default), `operationsPerProject` (150,
 * over the last 30 days), `pending` operations at the start (3, in the first project) and how
 * long they take (`pendingFor`, 8 s to 14 s), the PRNG `seed` (the same seed gives the same
 * account), and the values of the `bootstrapKey`, the organization's key `ci`
 * (`organizationKey`, since 0.5.0, docs/contract.md §21) and its key scoped to the first project
 * (`projectKey`), random when absent.
 *
 * @since 0.1.0
 */
export interface RealisticOptions extends Realistic.RealisticOptions {}

/**
 * A realistic account: several projects in several regions, each with its default branch `main`
 * (a `read_write` compute endpoint on it), up to two children of it (some with an endpoint), on
 * each branch the roles `neondb_owner` and `app` and the databases `neondb` and `app` they own
 * (a child's are copies of its parent's, passwords included; since 0.3.0), its
 * `create_timeline` and a history of operations on those branches and endpoints across many
 * actions and statuses (availability checks, compute starts and suspends, config changes, branch creations and archives; a few failed, in error,
 * cancelled or skipped, with `failures_count` and `error`), and a few operations still
 * running in the first project: a branch being created (`init` until its operation ends) and its
 * endpoint being started. Since 0.5.0 its projects belong to an organization, "Acme Data" (the
 * default organization, `org-dbplatform-000000`, on plan `scale_v3`), whose members are the
 * account's user (an admin) and four others, and which has two API keys (docs/contract.md §21):
 * `ci`, for all its projects, and one scoped to the first project, their values random unless
 * given (`organizationKey`, `projectKey`); the account's user has an organization of its own too,
 * "Personal" (`org-personal-…`, on `free_v3`, the user its only member, an admin, no project yet),
 * so that a project can move between two organizations of the user; and an organization of
 * another team, "Partner Labs" (`org-partner-…`, on `launch_v3`), of which the account's user is
 * not a member, has one more project, `partner-data`, with its `main` branch (docs/contract.md
 * §20.4). `projects` counts the account's own projects only.
 *
 * @since 0.1.0
 */
export const realistic = (options: RealisticOptions = {}): Seed => Realistic.realistic(options)

/**
 * The JSON form of a {@link Seed} (the emulator's `--seed FILE`), checked field by field; an
 * unknown field is an error, so a typo does not pass silently. Every field is optional but
 * `projects[].id`, `branches[].project_id`, `endpoints[].branch_id`, `roles[].branch_id` and
 * `name`, `databases[].branch_id`, `name` and `owner_name`, `operations[].project_id` and
 * `operations[].action`:
 *
 * ```json
 * {
 *   "bootstrapKey": "a-test-key-of-your-choice",
 *   "projects": [{ "id": "spring-example-302709", "name": "billing", "region_id": "aws-eu-central-1", "pg_version": 17,
 *     "org_id": "org-billing-302709", "age": "30 days" },
    { "id": "quiet-river-118004", "name": "partner-data", "shared": true }],
 *   "branches": [{ "project_id": "spring-example-302709", "id": "br-spring-river-302709", "name": "main" },
 *     { "project_id": "spring-example-302709", "id": "br-wispy-meadow-118737", "name": "preview", "age": "2 hours" }],
 *   "endpoints": [{ "branch_id": "br-wispy-meadow-118737", "id": "ep-proud-mud-a5x8dq2u" }],
 *   "roles": [{ "branch_id": "br-spring-river-302709", "name": "neondb_owner" }],
 *   "databases": [{ "branch_id": "br-spring-river-302709", "name": "neondb", "owner_name": "neondb_owner" }],
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
 * Ids are checked when the fake starts (`InvalidSeed`): project, branch and endpoint ids and
 * `org_id`s match `^[a-z0-9-]{1,60}$`, operation ids are UUIDs.
 *
 * @since 0.1.0
 */
export const SeedFile = Schema.Struct({
  bootstrapKey: Schema.optional(EngineSeed.SeedKeyValue),
  projects: Schema.optional(Schema.Array(SeedProjectFile)),
  branches: Schema.optional(Schema.Array(SeedBranchFile)),
  endpoints: Schema.optional(Schema.Array(SeedEndpointFile)),
  roles: Schema.optional(Schema.Array(SeedRoleFile)),
  databases: Schema.optional(Schema.Array(SeedDatabaseFile)),
  operations: Schema.optional(Schema.Array(SeedOperationFile)),
  organizations: Schema.optional(Schema.Array(SeedOrganizationFile)),
  branch_auths: Schema.optional(Schema.Array(SeedBranchAuthFile)),
  credentials: Schema.optional(Schema.Array(SeedCredentialFile)),
  buckets: Schema.optional(Schema.Array(SeedBucketFile))
}).annotations({ identifier: "SeedFile" })

/** How many problems of a seed file `fromJson` names. */
const seedFileIssues = 10

/**
 * Reads a seed from the JSON text of a {@link SeedFile}. Fails with `InvalidSeed` when the text
 * is not JSON or a field is missing, unknown or of the wrong type: one problem naming up to ten
 * of them (`path: message; ...`, core's `DecodeIssue.format`). A refused `bootstrapKey` is named,
 * never its value (it is a key).
 *
 * @since 0.1.0
 */
export const fromJson = (text: string): Effect.Effect<Seed, InvalidSeed> =>
  Schema.decodeUnknown(Schema.parseJson(SeedFile), { onExcessProperty: "error", errors: "all" })(text).pipe(
    Effect.mapError(
      (error) => new InvalidSeed({ problems: [DecodeIssue.format(error.issue, { maxIssues: seedFileIssues })] })
    )
  )
