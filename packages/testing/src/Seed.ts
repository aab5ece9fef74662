/**
 * What the fake platform holds when it starts: API keys, projects, their branches, compute
 * endpoints, roles and databases, and operations, with times relative to the moment it starts (the `Clock`'s time, so
 * `TestClock` drives them).
 *
 * @since 0.1.0
 */
import { DecodeIssue, OperationAction, OperationStatus } from "@dbplatform/core"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { branchId, endpointId, seededDice, slug, uuid } from "./engine/ids.js"
import { defaultOrgId, SnapshotOperation } from "./engine/kinds.js"
import { regions as catalog } from "./resources/Regions.js"
import { newPassword } from "./resources/Roles/steps.js"
import { newKeyValue } from "./engine/authentication.js"
import { SnapshotBranch } from "./resources/Branches/kinds.js"
import { SnapshotDatabase } from "./resources/Databases/kinds.js"
import { SnapshotEndpoint } from "./resources/ComputeEndpoints/kinds.js"
import { SnapshotMember, SnapshotOrganization } from "./resources/Organizations/kinds.js"
import { SnapshotProject } from "./resources/Projects/kinds.js"
import { SnapshotRole } from "./resources/Roles/kinds.js"

/** The longest duration a seed takes: 100 years, in ms (a time it makes stays a valid date). */
const maxSeedMillis = 100 * 365.25 * 24 * 60 * 60 * 1000

/**
 * A duration in a seed file (at most 100 years): a number of milliseconds (>= 0), or a string Effect's `Duration`
 * reads, such as `"3 seconds"`, `"30 days"`, `"1500 millis"` (not negative: `"-5 minutes"` is refused).
 *
 * @since 0.1.0
 */
export const SeedDuration: Schema.Schema<Duration.DurationInput, number | string> = Schema.Union(
  Schema.NonNegative.pipe(
    Schema.lessThanOrEqualTo(maxSeedMillis, { message: () => "a duration must be at most 100 years" })
  ),
  Schema.String.pipe(
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
).annotations({ identifier: "SeedDuration" }) as Schema.Schema<any, number | string>

const project = SnapshotProject.fields

/**
 * A project of a seed, in a seed file as in code: the fields the fake keeps of a project
 * (`Snapshot.SnapshotProject`), all optional but `id`, and `age` instead of `created_at`.
 *
 * @since 0.2.0
 */
export const SeedProjectFile = Schema.Struct({
  /** Matches `^[a-z0-9-]{1,60}$`, e.g. `spring-example-302709` (checked when the fake starts). */
  id: project.id,
  name: Schema.optional(project.name),
  region_id: Schema.optional(project.region_id),
  platform_id: Schema.optional(project.platform_id),
  provisioner: Schema.optional(project.provisioner),
  pg_version: Schema.optional(project.pg_version),
  /** The organization it belongs to (`org_id`, `^[a-z0-9-]{1,60}$`); the fake's default one when absent. */
  org_id: project.org_id,
  /**
   * `true`: a project of another account shared with this one, listed by `GET /projects/shared`
   * and not by `GET /projects` (docs/contract.md §10.6); its operations are read as any other's.
   * Absent (or `false`): one of the account's own.
   */
  shared: project.shared,
  /** Seconds of history kept for point-in-time restores (0 to 2 592 000); 86 400 (a day) by default. Since 0.3.0. */
  history_retention_seconds: project.history_retention_seconds,
  /**
   * The settings of the compute endpoints created in it without their own (compute units,
   * seconds); 0.25 compute units and a suspend timeout of 0 (the platform's default) when absent.
   * Since 0.3.0.
   */
  default_endpoint_settings: project.default_endpoint_settings,
  /**
   * Its settings (IP allow list, blocked connections, quotas...: core's `ProjectSettingsRequest`,
   * docs/contract.md §22.2); none when absent. Since 0.5.0.
   */
  settings: project.settings,
  /**
   * The integration installed on it (`github`, `vercel`): a transfer to another organization
   * refuses it with a 422 (docs/contract.md §22.4); none when absent. Since 0.5.0.
   */
  integration: project.integration,
  /** How long before the start the project was created; 30 days by default. */
  age: Schema.optional(SeedDuration)
}).annotations({ identifier: "SeedProject" })

const organization = SnapshotOrganization.fields
const member = SnapshotMember.fields

/**
 * A member of a seed's organization (since 0.5.0): a user by `email`, with a `role` (`admin`,
 * `member`, `editor`, `viewer`, `collaborator`; open), `member` by default. `user_id` (a UUID) is
 * derived from the email when absent; the account's own user is `you@example.com`.
 *
 * @since 0.5.0
 */
export const SeedMemberFile = Schema.Struct({
  email: member.email,
  role: Schema.optional(member.role),
  user_id: Schema.optional(member.user_id),
  /** How long before the start the member joined; the organization's age by default. */
  age: Schema.optional(SeedDuration)
}).annotations({ identifier: "SeedMember" })

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
export const SeedOrganizationKeyFile = Schema.Struct({
  name: Schema.String,
  key: Schema.NonEmptyTrimmedString.annotations({
    message: () => ({ message: "must be a non-empty string without leading or trailing spaces", override: true })
  }),
  project_id: Schema.optional(Schema.String)
}).annotations({ identifier: "SeedOrganizationKey" })

/**
 * An API key of a seed's organization.
 *
 * @since 0.5.0
 */
export interface SeedOrganizationKey extends Schema.Schema.Type<typeof SeedOrganizationKeyFile> {}

/**
 * An organization of a seed (since 0.5.0): `id` (`^[a-z0-9-]{1,60}$`), and optional `name` (its
 * id), `handle` (its id), `plan` (`free_v3`), `age` (30 days), `members`: absent, the
 * account's user is its only member, an admin; given, exactly those, and `api_keys`, the
 * organization's keys by value (none by default). A project's `org_id` that no organization of
 * the seed declares is implied the same way (docs/contract.md §20, §21).
 *
 * @since 0.5.0
 */
export const SeedOrganizationFile = Schema.Struct({
  id: organization.id,
  name: Schema.optional(organization.name),
  handle: Schema.optional(organization.handle),
  plan: Schema.optional(organization.plan),
  age: Schema.optional(SeedDuration),
  members: Schema.optional(Schema.Array(SeedMemberFile)),
  api_keys: Schema.optional(Schema.Array(SeedOrganizationKeyFile))
}).annotations({ identifier: "SeedOrganization" })

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

const branch = SnapshotBranch.fields

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
export const SeedBranchFile = Schema.Struct({
  project_id: branch.project_id,
  /** Matches `^[a-z0-9-]{1,60}$`, e.g. `br-wispy-meadow-118737`; generated when absent (the same for the same seed). */
  id: Schema.optional(branch.id),
  /** `main` for the default branch, the id for the others, when absent. */
  name: Schema.optional(branch.name.pipe(Schema.minLength(1), Schema.maxLength(256))),
  parent_id: branch.parent_id,
  default: Schema.optional(branch.default),
  /** `false` by default. */
  protected: Schema.optional(branch.protected),
  /** How long before the start it was created; with its project when absent. */
  age: Schema.optional(SeedDuration),
  /** How long after the start it becomes `ready` (`init` until then); ready at its creation when absent. */
  readyIn: Schema.optional(SeedDuration),
  /**
   * Since 0.5.0: how long after the start it expires (`expires_at`; the control plane deletes
   * it at the sweep after, docs/contract.md §18); it does not expire when absent. Not on the
   * project's default branch.
   */
  expiresIn: Schema.optional(SeedDuration),
  /** Since 0.5.0: `true` for a branch in archival storage (`current_state` `archived` once ready). */
  archived: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "SeedBranch" })

/**
 * A branch of the seed (see {@link SeedBranchFile}).
 *
 * @since 0.3.0
 */
export interface SeedBranch extends Schema.Schema.Type<typeof SeedBranchFile> {}

const endpoint = SnapshotEndpoint.fields

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
export const SeedEndpointFile = Schema.Struct({
  branch_id: endpoint.branch_id,
  /** Matches `^[a-z0-9-]{1,60}$`, e.g. `ep-proud-mud-a5x8dq2u`; generated when absent. */
  id: Schema.optional(endpoint.id),
  /** `read_write` by default. */
  type: Schema.optional(Schema.Literal("read_write", "read_only")),
  /** Compute units; 0.25 by default. */
  autoscaling_limit_min_cu: Schema.optional(endpoint.autoscaling_limit_min_cu.pipe(Schema.positive())),
  /** Compute units; 0.25 by default. */
  autoscaling_limit_max_cu: Schema.optional(endpoint.autoscaling_limit_max_cu.pipe(Schema.positive())),
  /** Seconds of inactivity before it suspends (0: the platform's default); 0 by default. */
  suspend_timeout_seconds: Schema.optional(endpoint.suspend_timeout_seconds.pipe(Schema.int())),
  /** How long before the start it was created; with its branch when absent. */
  age: Schema.optional(SeedDuration),
  /** How long after the start it becomes `active` (`init` until then); active at its creation when absent. */
  activeIn: Schema.optional(SeedDuration)
}).annotations({ identifier: "SeedEndpoint" })

/**
 * A compute endpoint of the seed (see {@link SeedEndpointFile}).
 *
 * @since 0.3.0
 */
export interface SeedEndpoint extends Schema.Schema.Type<typeof SeedEndpointFile> {}

const role = SnapshotRole.fields

/**
 * A role of a seed (a Postgres user of a branch), in a seed file as in code (since 0.3.0): the
 * fields the fake keeps of one (`Snapshot.SnapshotRole`), all optional but `branch_id` (a branch
 * of the seed given with its `id`) and `name` (unique on its branch), its project that of its
 * branch, and `age` instead of times. Its `password` is what `reveal_password` answers: generated
 * when absent (the same for the same seed). A project of a seed gets no role unless it names one.
 *
 * @since 0.3.0
 */
export const SeedRoleFile = Schema.Struct({
  branch_id: role.branch_id,
  name: role.name.pipe(Schema.minLength(1), Schema.maxLength(63)),
  /** Generated when absent: 16 letters and digits. */
  password: Schema.optional(role.password.pipe(Schema.minLength(1))),
  /** `false` by default. */
  protected: Schema.optional(role.protected),
  /** How long before the start it was created; with its branch when absent. */
  age: Schema.optional(SeedDuration)
}).annotations({ identifier: "SeedRole" })

/**
 * A role of the seed (see {@link SeedRoleFile}).
 *
 * @since 0.3.0
 */
export interface SeedRole extends Schema.Schema.Type<typeof SeedRoleFile> {}

const database = SnapshotDatabase.fields

/**
 * A database's schema as a JSON table list, in a seed (since 0.5.0): `{ tables }`, each table
 * with its `schema` (`public`), `name`, `columns` (`name`, `type` as the catalog spells it,
 * `nullable` (true by default), `generated`) and `constraints` (`type` `primary_key`, `unique` or
 * `foreign_key`, `columns`, `name` (Postgres's name when absent), `referenced_table` for a foreign
 * key): the shape of `GET .../schema?format=json` (docs/contract.md §24.2).
 *
 * @since 0.5.0
 */
export const SeedSchemaJson = Schema.Struct({
  tables: Schema.Array(
    Schema.Struct({
      schema: Schema.String,
      name: Schema.String,
      columns: Schema.Array(
        Schema.Struct({
          name: Schema.String,
          type: Schema.String,
          nullable: Schema.optional(Schema.Boolean),
          generated: Schema.optional(Schema.Boolean)
        })
      ),
      constraints: Schema.optional(
        Schema.Array(
          Schema.Struct({
            type: Schema.String,
            columns: Schema.Array(Schema.String),
            name: Schema.optional(Schema.String),
            referenced_table: Schema.optional(
              Schema.Struct({ schema: Schema.String, table: Schema.String, columns: Schema.Array(Schema.String) })
            )
          })
        )
      )
    })
  )
}).annotations({ identifier: "SeedSchemaJson" })

/**
 * A database of a seed, in a seed file as in code (since 0.3.0): the fields the fake keeps of one
 * (`Snapshot.SnapshotDatabase`), all optional but `branch_id` (a branch of the seed given with its
 * `id`), `name` (unique on its branch) and `owner_name` (a role of the seed on the same branch),
 * its project that of its branch, and `age` instead of times.
 *
 * @since 0.3.0
 */
export const SeedDatabaseFile = Schema.Struct({
  branch_id: database.branch_id,
  name: database.name.pipe(Schema.minLength(1), Schema.maxLength(63)),
  owner_name: database.owner_name,
  /** A positive integer unique in the account; generated when absent (the same for the same seed). */
  id: Schema.optional(database.id),
  /** How long before the start it was created; with its branch when absent. */
  age: Schema.optional(SeedDuration),
  /**
   * Its schema (since 0.5.0; no tables when absent), in force from its creation: SQL DDL text
   * (`CREATE TABLE ...`; docs/contract.md §24.3 says which statements change it), or a JSON table
   * list as `GET .../schema?format=json` answers it (`{ tables }`).
   */
  schema: Schema.optional(Schema.Union(Schema.String, SeedSchemaJson))
}).annotations({ identifier: "SeedDatabase" })

/**
 * A database of the seed (see {@link SeedDatabaseFile}).
 *
 * @since 0.3.0
 */
export interface SeedDatabase extends Schema.Schema.Type<typeof SeedDatabaseFile> {}

const operation = SnapshotOperation.fields

/**
 * An operation of a seed, in a seed file as in code: the fields the fake keeps of an operation
 * (`Snapshot.SnapshotOperation`, core's `Operation` fields), all optional but `project_id` and
 * `action`, with times relative to the start instead of absolute ones.
 *
 * @since 0.2.0
 */
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

/** The realistic account's regions: those `GET /regions` lists. */
const regions = catalog.map((region) => region.region_id)

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
  /**
   * The value of the organization's key `ci` (since 0.5.0, docs/contract.md §21), for all its
   * projects; random when absent (read it from the seed: `organizations[0].api_keys[0].key`).
   */
  readonly organizationKey?: string | undefined
  /**
   * The value of the organization's key scoped to the first project (since 0.5.0), named after
   * it; random when absent (`organizations[0].api_keys[1].key`).
   */
  readonly projectKey?: string | undefined
}

/** The roles of each branch of {@link realistic}: the one a project is created with, and one for an application. */
const realisticRoles = ["neondb_owner", "app"] as const

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
export const realistic = (options: RealisticOptions = {}): Seed => {
  const dice = seededDice(options.seed ?? 302709)
  // Branches and endpoints beyond each project's default ones come from dice of their own, so
  // that the projects and operations are those of earlier versions for the same seed.
  const more = seededDice((options.seed ?? 302709) ^ 0x5bd1e995)
  const day = Duration.toMillis("1 day")
  const second = Duration.toMillis("1 second")

  const projects: Array<SeedProject> = Array.from({ length: options.projects ?? 4 }, (_, i) => ({
    id: slug(dice),
    name: ["billing", "analytics", "staging", "web-app", "ingest", "search"][i % 6]!,
    region_id: regions[i % regions.length]!,
    pg_version: 15 + (i % 3),
    age: Duration.millis((60 + i * 7) * day)
  }))

  const operations: Array<SeedOperation> = []
  const branches: Array<SeedBranch> = []
  const endpoints: Array<SeedEndpoint> = []
  // Roles and databases, with passwords from dice of their own (the ids above stay as they were).
  const secrets = seededDice((options.seed ?? 302709) ^ 0x2545f491)
  const roles: Array<SeedRole> = []
  const databases: Array<SeedDatabase> = []
  /** The default branch's roles and databases, and the same (copies, as a branch starts) on each child. */
  const withData = (branchIds: ReadonlyArray<string>) => {
    const passwords = realisticRoles.map(() => newPassword(secrets))
    for (const branch_id of branchIds) {
      realisticRoles.forEach((name, i) => roles.push({ branch_id, name, password: passwords[i]! }))
      databases.push(
        { branch_id, name: "neondb", owner_name: "neondb_owner" },
        { branch_id, name: "app", owner_name: "app" }
      )
    }
  }
  for (const project of projects) {
    // The default branch and its read_write endpoint; some children of it, some with an endpoint.
    const branch = branchId(dice)
    const endpoint = endpointId(dice)
    branches.push({ project_id: project.id, id: branch, name: "main", default: true })
    endpoints.push({ branch_id: branch, id: endpoint })
    const children = Array.from({ length: more.below(3) }, (_, i) => ({
      project_id: project.id,
      id: branchId(more),
      name: ["dev", "preview", "staging-copy"][i]!,
      age: Duration.millis((10 + more.below(40)) * day)
    }))
    branches.push(...children)
    withData([branch, ...children.map((child) => child.id)])
    for (const child of children) {
      if (more.fraction() < 0.5) endpoints.push({ branch_id: child.id, id: endpointId(more) })
    }
    const count = options.operationsPerProject ?? 150
    // The project's first operation: its timeline, created with it.
    operations.push({
      project_id: project.id,
      id: uuid(dice),
      action: "create_timeline",
      branch_id: branch,
      age: project.age,
      runsFor: "3 seconds"
    })
    for (let i = 0; i < count; i++) {
      // Spread over 30 days, newest last; distinct creation times.
      const age = Duration.millis(Math.floor(((count - i) / count) * 30 * day) + dice.below(second))
      const roll = dice.fraction()
      const base = { project_id: project.id, id: uuid(dice), branch_id: branch, age }
      if (roll < 0.38) {
        operations.push({ ...base, action: "check_availability", endpoint_id: endpoint, runsFor: "4 seconds" })
      } else if (roll < 0.58) {
        operations.push({ ...base, action: "suspend_compute", endpoint_id: endpoint, runsFor: "2 seconds" })
      } else if (roll < 0.78) {
        operations.push({ ...base, action: "start_compute", endpoint_id: endpoint, runsFor: "3 seconds" })
      } else if (roll < 0.85) {
        operations.push({ ...base, action: "apply_config", endpoint_id: endpoint, runsFor: "1 second" })
      } else if (roll < 0.9) {
        const created = children.length === 0 ? branch : children[more.below(children.length)]!.id
        operations.push({ ...base, branch_id: created, action: "create_branch", runsFor: "2 seconds" })
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
          failures_count: 1 + dice.below(3),
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
    const branch = branchId(dice)
    const pending = options.pending ?? 3
    const runsFor = (i: number) => from + Math.floor(((to - from) * i) / Math.max(1, pending - 1))
    // The branch being created, with its endpoint being started: init until its operation ends.
    const endpoint = endpointId(dice)
    if (pending > 0) {
      const main = branches.find((branch) => branch.project_id === first.id && branch.default === true)!
      for (const role of roles.filter((role) => role.branch_id === main.id)) roles.push({ ...role, branch_id: branch })
      for (const database of databases.filter((database) => database.branch_id === main.id)) {
        databases.push({ ...database, branch_id: branch })
      }
      branches.push({
        project_id: first.id,
        id: branch,
        name: "preview-pending",
        age: Duration.millis(pending),
        readyIn: Duration.millis(Math.max(0, runsFor(0) - pending))
      })
    }
    if (pending > 1) {
      endpoints.push({
        branch_id: branch,
        id: endpoint,
        age: Duration.millis(pending - 1),
        activeIn: Duration.millis(Math.max(0, runsFor(1) - (pending - 1)))
      })
    }
    for (let i = 0; i < pending; i++) {
      const action = i === 0 ? "create_branch" : i === 1 ? "start_compute" : "apply_config"
      operations.push({
        project_id: first.id,
        id: uuid(dice),
        action,
        branch_id: branch,
        ...(action === "create_branch" ? {} : { endpoint_id: endpoint }),
        age: Duration.millis(pending - i),
        runsFor: Duration.millis(runsFor(i))
      })
    }
  }

  // Since 0.5.0: the projects above are the default organization's, which has members beside the
  // account's user; and another team's organization, which the account's user is not a member
  // of, has a project of its own. From dice of their own: everything above is as it was.
  const partner = seededDice((options.seed ?? 302709) ^ 0x7f4a7c15)
  const partnerOrg = `org-partner-${partner.below(900_000) + 100_000}`
  const partnerProject: SeedProject = {
    id: slug(partner),
    name: "partner-data",
    org_id: partnerOrg,
    region_id: regions[1 % regions.length]!,
    pg_version: 17,
    age: Duration.millis(45 * day)
  }
  const partnerBranch = branchId(partner)
  branches.push({ project_id: partnerProject.id, id: partnerBranch, name: "main", default: true })
  endpoints.push({ branch_id: partnerBranch, id: endpointId(partner) })
  const partnerPasswords = realisticRoles.map(() => newPassword(partner))
  realisticRoles.forEach((name, i) => roles.push({ branch_id: partnerBranch, name, password: partnerPasswords[i]! }))
  databases.push(
    { branch_id: partnerBranch, name: "neondb", owner_name: "neondb_owner" },
    { branch_id: partnerBranch, name: "app", owner_name: "app" }
  )
  operations.push({
    project_id: partnerProject.id,
    id: uuid(partner),
    action: "create_timeline",
    branch_id: partnerBranch,
    age: partnerProject.age,
    runsFor: "3 seconds"
  })
  // Since 0.5.0: the account's user's own organization, where a project can be moved to or from
  // Acme Data (docs/contract.md §22.4). From dice of its own: everything above is as it was.
  const personalOrg = `org-personal-${seededDice((options.seed ?? 302709) ^ 0x1b873593).below(900_000) + 100_000}`
  const organizations: Array<SeedOrganization> = [
    {
      id: defaultOrgId,
      name: "Acme Data",
      handle: "acme-data",
      plan: "scale_v3",
      age: "120 days",
      members: [
        { email: "you@example.com", role: "admin", age: "120 days" },
        { email: "ana@acme.example", role: "admin", age: "90 days" },
        { email: "bo@acme.example", role: "member", age: "60 days" },
        { email: "cy@acme.example", role: "editor", age: "30 days" },
        { email: "di@acme.example", role: "viewer", age: "7 days" }
      ],
      api_keys: [
        { name: "ci", key: options.organizationKey ?? newKeyValue() },
        ...projects.slice(0, 1).map((project) => ({
          name: project.name ?? project.id,
          key: options.projectKey ?? newKeyValue(),
          project_id: project.id
        }))
      ]
    },
    {
      id: personalOrg,
      name: "Personal",
      handle: personalOrg,
      plan: "free_v3",
      age: "150 days",
      members: [{ email: "you@example.com", role: "admin", age: "150 days" }]
    },
    {
      id: partnerOrg,
      name: "Partner Labs",
      plan: "launch_v3",
      age: "200 days",
      members: [
        { email: "pat@partner.example", role: "admin", age: "200 days" },
        { email: "quinn@partner.example", role: "member", age: "100 days" }
      ]
    }
  ]

  return {
    bootstrapKey: options.bootstrapKey,
    projects: [...projects, partnerProject],
    branches,
    endpoints,
    roles,
    databases,
    operations,
    organizations
  }
}

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
  bootstrapKey: Schema.optional(
    Schema.NonEmptyTrimmedString.annotations({
      message: () => ({ message: "must be a non-empty string without leading or trailing spaces", override: true })
    })
  ),
  projects: Schema.optional(Schema.Array(SeedProjectFile)),
  branches: Schema.optional(Schema.Array(SeedBranchFile)),
  endpoints: Schema.optional(Schema.Array(SeedEndpointFile)),
  roles: Schema.optional(Schema.Array(SeedRoleFile)),
  databases: Schema.optional(Schema.Array(SeedDatabaseFile)),
  operations: Schema.optional(Schema.Array(SeedOperationFile)),
  organizations: Schema.optional(Schema.Array(SeedOrganizationFile))
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
