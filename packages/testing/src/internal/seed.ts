import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import {
  InvalidSeed,
  type Seed,
  type SeedBranch,
  type SeedBranchAuth,
  type SeedDatabase,
  type SeedEndpoint,
  type SeedOperation,
  type SeedProject,
  type SeedRole
} from "../Seed.js"
import type { DdlParser } from "../DdlParser.js"
import { applyDdl } from "../resources/BranchSchema/ddl.js"
import { tablesOfJson } from "../resources/BranchSchema/json.js"
import { type Ddl, overLimit, seedSchemaLimitBytes } from "../resources/BranchSchema/parse.js"
import { branchId, endpointId, hashOf, seededDice, uuid } from "../engine/ids.js"
import { accountMember, defaultPlan, impliedOrganization, memberId } from "../resources/Organizations/steps.js"
import { newPassword } from "../resources/Roles/steps.js"
import type { StoredBranchAuth } from "../resources/BranchAuth/steps.js"
import type { StoredCredential } from "../resources/Credentials/steps.js"
import { type Collections, defaultOrgId, type Item, present } from "../engine/kinds.js"
import { bucketId, objectId } from "../resources/Buckets/kinds.js"
import { etagOf } from "../resources/Buckets/steps.js"
import { type Life, stepsOf } from "../engine/operations.js"
import {
  firstKeyId,
  type State,
  type StoredBranch,
  type StoredDatabase,
  type StoredEndpoint,
  type StoredKey,
  type StoredMember,
  type StoredOperation,
  type StoredOrganization,
  type StoredProject,
  type StoredRole
} from "../engine/state.js"
import { accountUser } from "../engine/caller.js"
import { hashKey } from "../engine/authentication.js"
import { load } from "./kinds.js"
import type { Table } from "../resources/BranchSchema/sql.js"

/** A seed's project with its defaults, created `age` (30 days by default) before `now`. */
export const seedProject = (project: SeedProject, now: number): StoredProject =>
  present({
    id: project.id,
    name: project.name ?? project.id,
    region_id: project.region_id ?? "aws-us-east-2",
    platform_id: project.platform_id ?? "aws",
    provisioner: project.provisioner ?? "k8s-neonvm",
    pg_version: project.pg_version ?? 17,
    org_id: project.org_id ?? defaultOrgId,
    history_retention_seconds: project.history_retention_seconds,
    default_endpoint_settings: project.default_endpoint_settings,
    settings: project.settings,
    integration: project.integration,
    // `false` is left out; anything but a boolean is kept, for `kinds` to report.
    shared: project.shared === false ? undefined : project.shared,
    created_at: now - Duration.toMillis(project.age ?? "30 days")
  })

/** How long an operation runs when its seed or start does not say: 2 seconds. */
export const defaultRunsFor = Duration.toMillis("2 seconds")

/** The id a seed's branch without one gets: `br-...`, the same for the same project and place. */
const generatedBranchId = (projectId: string, place: number) => branchId(seededDice(hashOf(`${projectId}/${place}`)))

/**
 * The default branch `main` of `project`, ready at its creation: what a project of a seed
 * without branches, and one a scenario adds, starts with (as the platform creates a project).
 */
export const defaultBranchOf = (project: StoredProject): StoredBranch => ({
  id: generatedBranchId(project.id, 0),
  project_id: project.id,
  name: "main",
  default: true,
  protected: false,
  created_at: project.created_at,
  updated_at: project.created_at,
  ready_at: project.created_at
})

/** The branches of a seed, with their defaults, `created_at` relative to `now`. */
const seedBranches = (seed: Seed, projects: ReadonlyArray<StoredProject>, now: number): ReadonlyArray<StoredBranch> => {
  const byProject = new Map<string, Array<SeedBranch>>()
  for (const branch of seed.branches ?? []) {
    byProject.set(branch.project_id, [...(byProject.get(branch.project_id) ?? []), branch])
  }
  const branches: Array<StoredBranch> = []
  const done = new Set<string>()
  for (const project of projects) {
    if (done.has(project.id)) continue
    done.add(project.id)
    const own = byProject.get(project.id) ?? []
    byProject.delete(project.id)
    if (own.length === 0) {
      branches.push(defaultBranchOf(project))
      continue
    }
    const marked = own.findIndex((branch) => branch.default === true)
    const defaultAt = Math.max(0, marked)
    const ids = own.map((branch, i) => branch.id ?? generatedBranchId(project.id, i))
    own.forEach((branch, i) => {
      const isDefault = i === defaultAt || branch.default === true
      branches.push(
        seedBranch(
          branch,
          ids[i]!,
          project.created_at,
          now,
          isDefault ? branch.parent_id : (branch.parent_id ?? ids[defaultAt]),
          isDefault
        )
      )
    })
  }
  // Branches of projects the seed does not have: kept, to be reported as orphans.
  for (const [projectId, own] of byProject) {
    own.forEach((branch, i) =>
      branches.push(
        seedBranch(
          branch,
          branch.id ?? generatedBranchId(projectId, i),
          now,
          now,
          branch.parent_id,
          branch.default === true
        )
      )
    )
  }
  return branches
}

const seedBranch = (
  branch: SeedBranch,
  id: string,
  projectCreated: number,
  now: number,
  parentId: string | undefined,
  isDefault: boolean
): StoredBranch => {
  const created = branch.age === undefined ? projectCreated : now - Duration.toMillis(branch.age)
  return present({
    id,
    project_id: branch.project_id,
    parent_id: parentId,
    name: branch.name ?? (isDefault ? "main" : id),
    default: isDefault,
    protected: branch.protected ?? false,
    created_at: created,
    updated_at: created,
    ready_at: branch.readyIn === undefined ? created : now + Duration.toMillis(branch.readyIn),
    // The control plane's history before the seed is not replayed: its next check is an hour after `now`.
    checked_at: now,
    expires_at: branch.expiresIn === undefined ? undefined : now + Duration.toMillis(branch.expiresIn),
    ttl_interval_seconds:
      branch.expiresIn === undefined ? undefined : Math.round(Duration.toMillis(branch.expiresIn) / 1000),
    archived: branch.archived === true ? true : undefined
  })
}

/** The compute endpoints of a seed, with their defaults, `created_at` relative to `now`. */
const seedEndpoints = (
  seed: Seed,
  branches: ReadonlyArray<StoredBranch>,
  now: number
): ReadonlyArray<StoredEndpoint> => {
  const byId = new Map(branches.map((branch) => [branch.id, branch]))
  return (seed.endpoints ?? []).map((endpoint: SeedEndpoint, i) => {
    const branch = byId.get(endpoint.branch_id)
    const created = endpoint.age !== undefined ? now - Duration.toMillis(endpoint.age) : (branch?.created_at ?? now)
    return {
      id: endpoint.id ?? endpointId(seededDice(hashOf(`${endpoint.branch_id}/${i}`))),
      project_id: branch?.project_id ?? "",
      branch_id: endpoint.branch_id,
      type: endpoint.type ?? "read_write",
      autoscaling_limit_min_cu: endpoint.autoscaling_limit_min_cu ?? 0.25,
      autoscaling_limit_max_cu: endpoint.autoscaling_limit_max_cu ?? 0.25,
      suspend_timeout_seconds: endpoint.suspend_timeout_seconds ?? 0,
      created_at: created,
      updated_at: created,
      active_at: endpoint.activeIn === undefined ? created : now + Duration.toMillis(endpoint.activeIn),
      // Active when the seed is loaded: its suspend timeout counts from `now`.
      last_active: now
    }
  })
}

/**
 * The roles and databases of a seed, with their defaults, `created_at` relative to `now` (with
 * their branch when no `age`; distinct per branch). A role without a password gets one, a
 * database without an id one no other database of the seed has: the same for the same seed.
 */
const seedData = (
  seed: Seed,
  branches: ReadonlyArray<StoredBranch>,
  now: number,
  problems: Array<string>,
  schemas: SeedSchemas
): { readonly roles: ReadonlyArray<StoredRole>; readonly databases: ReadonlyArray<StoredDatabase> } => {
  const byId = new Map(branches.map((branch) => [branch.id, branch]))
  const times = new Map<string, Set<number>>()
  const createdAt = (kind: string, branchId: string, age: SeedRole["age"]) => {
    const key = `${kind}/${branchId}`
    const taken = times.get(key) ?? new Set<number>()
    times.set(key, taken)
    return distinct(taken, age === undefined ? (byId.get(branchId)?.created_at ?? now) : now - Duration.toMillis(age))
  }
  const roles = (seed.roles ?? []).map((role): StoredRole => {
    const created = createdAt("roles", role.branch_id, role.age)
    return {
      id: `${role.branch_id}/${role.name}`,
      project_id: byId.get(role.branch_id)?.project_id ?? "",
      branch_id: role.branch_id,
      name: role.name,
      password: role.password ?? newPassword(seededDice(hashOf(`${role.branch_id}/${role.name}/password`))),
      protected: role.protected ?? false,
      created_at: created,
      updated_at: created
    }
  })
  const ids = new Set((seed.databases ?? []).flatMap((database) => (database.id === undefined ? [] : [database.id])))
  const databases = (seed.databases ?? []).map((database): StoredDatabase => {
    const created = createdAt("databases", database.branch_id, database.age)
    let id = database.id
    if (id === undefined) {
      const dice = seededDice(hashOf(`${database.branch_id}/${database.name}`))
      do id = 1_000_000 + dice.below(9_000_000)
      while (ids.has(id))
      ids.add(id)
    }
    const tables = seedSchema(database.schema, schemas)
    if (Either.isLeft(tables))
      problems.push(`database ${database.name} of branch ${database.branch_id}: ${tables.left}`)
    const history = Either.isRight(tables) && tables.right.length > 0 ? [{ at: created, tables: tables.right }] : []
    return {
      id,
      project_id: byId.get(database.branch_id)?.project_id ?? "",
      branch_id: database.branch_id,
      name: database.name,
      owner_name: database.owner_name,
      created_at: created,
      updated_at: created,
      ...(history.length > 0 ? { schema_history: history } : {})
    }
  })
  return { roles, databases }
}

/** The SQL schemas of a seed's databases read (by text), or why each cannot be: see {@link seedSchemas}. */
export type SeedSchemas = ReadonlyMap<string, Either.Either<Ddl, string>>

/**
 * The tables of a seed database's `schema`: SQL DDL (read by {@link seedSchemas}) applied to no
 * tables, or a JSON table list; none when absent.
 */
const seedSchema = (
  schema: SeedDatabase["schema"],
  schemas: SeedSchemas
): Either.Either<ReadonlyArray<Table>, string> => {
  if (schema === undefined) return Either.right([])
  if (typeof schema !== "string") return tablesOfJson(schema.tables)
  const parsed = schemas.get(schema)
  return parsed === undefined
    ? Either.left("a schema as SQL needs the SQL parser (seedState reads it)")
    : Either.map(
        Either.flatMap(parsed, (ddl) => applyDdl([], ddl)),
        (applied) => applied.tables
      )
}

/**
 * The schemas a seed's databases give as SQL, each distinct text read once with `parser` (a text
 * that cannot be read is kept with why, a problem of each database that gives it). `InvalidSeed`
 * when the distinct texts are more than `seedSchemaLimitBytes` together (nothing is read then).
 */
export const seedSchemas = (seed: Seed, parser: DdlParser): Effect.Effect<SeedSchemas, InvalidSeed> =>
  Effect.gen(function* () {
    const texts = new Set<string>()
    for (const database of seed.databases ?? []) if (typeof database.schema === "string") texts.add(database.schema)
    const schemas = new Map<string, Either.Either<Ddl, string>>()
    if (texts.size === 0) return schemas
    const bytes = overLimit(Array.from(texts).join(""), seedSchemaLimitBytes)
    if (bytes !== undefined) {
      return yield* new InvalidSeed({
        problems: [
          `the SQL of the databases' schemas is ${bytes} bytes, more than the fake's limit of ${seedSchemaLimitBytes} bytes for a seed`
        ]
      })
    }
    for (const text of texts) {
      schemas.set(
        text,
        Either.mapLeft(yield* Effect.either(parser.parse(text)), (error) => error.reason)
      )
    }
    return schemas
  })
/** A seed's operation with its defaults, its times relative to `now`, created at `created`. */
const seedOperation = (operation: SeedOperation, created: number, now: number): StoredOperation => {
  const life: Life = {
    begin: created,
    runsFor: operation.runsFor === undefined ? defaultRunsFor : Duration.toMillis(operation.runsFor),
    status: operation.status ?? "finished"
  }
  return present({
    id: operation.id ?? crypto.randomUUID(),
    project_id: operation.project_id,
    branch_id: operation.branch_id,
    endpoint_id: operation.endpoint_id,
    action: operation.action,
    created_at: created,
    steps: stepsOf(created, life),
    failures_count: operation.failures_count ?? 0,
    error: operation.error,
    retry_at: operation.retryIn === undefined ? undefined : now + Duration.toMillis(operation.retryIn)
  })
}

/**
 * `at`, or the first millisecond after it not in `taken` (then taken): items of one parent get
 * distinct creation times, so a `created_at` cursor never skips one.
 */
const distinct = (taken: Set<number>, at: number): number => {
  let time = at
  while (taken.has(time)) time += 1
  taken.add(time)
  return time
}

/**
 * A seed's organizations and their members, times relative to `now` (epoch ms); one without
 * `members` has the account's user as its admin. Those its projects only name are implied when
 * the state is loaded (`state.load`).
 */
const seedOrganizations = (
  seed: Seed,
  now: number
): {
  readonly organizations: ReadonlyArray<StoredOrganization>
  readonly members: ReadonlyArray<StoredMember>
  readonly keys: ReadonlyArray<StoredKey>
} => {
  const organizations: Array<StoredOrganization> = []
  const members: Array<StoredMember> = []
  const keys: Array<StoredKey> = []
  for (const organization of seed.organizations ?? []) {
    const created = now - Duration.toMillis(organization.age ?? "30 days")
    // Its keys (§21), created with it; ids as the account's first keys get them, in the seed's
    // order (the bootstrap key comes after).
    for (const key of organization.api_keys ?? []) {
      keys.push({
        id: firstKeyId + keys.length,
        name: key.name,
        hash: hashKey(key.key),
        created_at: created,
        revoked: false,
        last_used_at: null,
        last_used_from_addr: "",
        org_id: organization.id,
        ...(key.project_id === undefined ? {} : { project_id: key.project_id })
      })
    }
    organizations.push({
      ...impliedOrganization(organization.id, created),
      name: organization.name ?? organization.id,
      handle: organization.handle ?? organization.id,
      plan: organization.plan ?? defaultPlan,
      ...(organization.spending_limit_cents === undefined
        ? {}
        : { spending_limit_cents: organization.spending_limit_cents })
    })
    if (organization.members === undefined) members.push(accountMember(organization.id, "admin", created))
    for (const member of organization.members ?? []) {
      const user_id =
        member.user_id ?? (member.email === accountUser.email ? accountUser.id : uuid(seededDice(hashOf(member.email))))
      members.push({
        id: memberId(organization.id, user_id),
        org_id: organization.id,
        user_id,
        email: member.email,
        role: member.role ?? "member",
        joined_at: member.age === undefined ? created : now - Duration.toMillis(member.age)
      })
    }
  }
  return { organizations, members, keys }
}

/**
 * The buckets of a seed and their objects, times relative to `now` (a bucket with its branch, an
 * object with its bucket, when no `age`; an object never before its bucket).
 */
const seedBuckets = (
  seed: Seed,
  branches: ReadonlyArray<StoredBranch>,
  now: number
): { readonly buckets: ReadonlyArray<Item<"buckets">>; readonly objects: ReadonlyArray<Item<"bucket_objects">> } => {
  const byId = new Map(branches.map((branch) => [branch.id, branch]))
  const buckets: Array<Item<"buckets">> = []
  const objects: Array<Item<"bucket_objects">> = []
  for (const bucket of seed.buckets ?? []) {
    const branch = byId.get(bucket.branch_id)
    const created = bucket.age !== undefined ? now - Duration.toMillis(bucket.age) : (branch?.created_at ?? now)
    buckets.push({
      id: bucketId(bucket.branch_id, bucket.name),
      project_id: branch?.project_id ?? "",
      branch_id: bucket.branch_id,
      name: bucket.name,
      access_level: bucket.access_level ?? "private",
      created_at: created
    })
    for (const object of bucket.objects ?? []) {
      const body = object.content_base64 ?? new TextEncoder().encode(object.content ?? "")
      objects.push({
        id: objectId(bucket.branch_id, bucket.name, object.key),
        project_id: branch?.project_id ?? "",
        branch_id: bucket.branch_id,
        bucket: bucket.name,
        key: object.key,
        body,
        etag: etagOf(body),
        ...(object.content_type === undefined ? {} : { content_type: object.content_type }),
        created_at: Math.max(created, object.age === undefined ? created : now - Duration.toMillis(object.age))
      })
    }
  }
  return { buckets, objects }
}

/**
 * A seed's Neon Auth of its branches (docs/contract.md §26), times relative to `now` (epoch ms):
 * the users kept in the branch's first database of the seed unless `database_name` says; a
 * branch or a database the seed does not have is a problem.
 */
const seedBranchAuths = (
  seed: Seed,
  branches: ReadonlyArray<StoredBranch>,
  databases: ReadonlyArray<StoredDatabase>,
  now: number,
  problems: Array<string>
): ReadonlyArray<StoredBranchAuth> =>
  (seed.branch_auths ?? []).flatMap((auth: SeedBranchAuth): ReadonlyArray<StoredBranchAuth> => {
    const branch = branches.find((branch) => branch.id === auth.branch_id)
    if (branch === undefined) {
      problems.push(`branch_auths: ${JSON.stringify(auth.branch_id)} is not a branch of the seed`)
      return []
    }
    const database = databases.find(
      (database) =>
        database.branch_id === auth.branch_id &&
        (auth.database_name === undefined || database.name === auth.database_name)
    )
    if (database === undefined) {
      problems.push(
        `branch_auths: branch ${auth.branch_id} has no database ${auth.database_name ?? ""} to keep its users in`
      )
      return []
    }
    const provider = auth.auth_provider ?? "better_auth"
    const { auth_provider: _, branch_id: __, database_name: ___, domains, users, name, ...settings } = auth
    return [
      {
        ...settings,
        id: branch.id,
        project_id: branch.project_id,
        auth_provider: provider,
        auth_provider_project_id: uuid(seededDice(hashOf(`${branch.id}/auth`))),
        db_name: database.name,
        name: name ?? branch.project_id,
        created_at: now,
        domains: (domains ?? []).map((domain) => ({ domain, auth_provider: provider })),
        oauth_providers: [],
        users: (users ?? []).map((user) => ({
          id: user.id ?? uuid(seededDice(hashOf(`${branch.id}/users/${user.email}`))),
          email: user.email,
          ...(user.name === undefined ? {} : { name: user.name }),
          roles: user.roles ?? ["user"],
          created_at: now
        }))
      }
    ]
  })

/**
 * The credentials of a seed (docs/contract.md §11.7): each of its branch's project, its
 * `token_id` given or derived from its token, the SHA-256 of its token kept, never the token.
 */
const seedCredentials = (
  seed: Seed,
  branches: ReadonlyArray<StoredBranch>,
  now: number
): ReadonlyArray<StoredCredential> => {
  const byId = new Map(branches.map((branch) => [branch.id, branch]))
  return (seed.credentials ?? []).map((credential) => {
    const hash = hashKey(credential.api_token)
    const tokenId = credential.token_id ?? `nak_live_${hash.slice(0, 32)}`
    return {
      token_id: tokenId,
      token_id_short: tokenId.slice("nak_live_".length, "nak_live_".length + 12),
      ...(credential.name === undefined ? {} : { name: credential.name }),
      principal_type: "user",
      project_id: byId.get(credential.branch_id)?.project_id ?? "",
      branch_id: credential.branch_id,
      scopes: Array.from(new Set(credential.scopes)),
      token_hash: hash,
      created_at: credential.age === undefined ? now : now - Duration.toMillis(credential.age),
      ...(credential.revokedAgo === undefined ? {} : { revoked_at: now - Duration.toMillis(credential.revokedAgo) })
    }
  })
}

/** A seed as the `Snapshot` data it describes, its times relative to `now` (epoch ms), unchecked. */
export const collectionsOfSeed = (
  seed: Seed,
  now: number,
  problems: Array<string> = [],
  schemas: SeedSchemas = new Map()
): Collections => {
  const projectTimes = new Set<number>()
  const projects = (seed.projects ?? []).map((project) => {
    const stored = seedProject(project, now)
    return { ...stored, created_at: distinct(projectTimes, stored.created_at) }
  })
  const branches = seedBranches(seed, projects, now)
  const { databases, roles } = seedData(seed, branches, now, problems, schemas)
  const operationTimes = new Map<string, Set<number>>()
  const operations = (seed.operations ?? []).map((operation) => {
    const taken = operationTimes.get(operation.project_id) ?? new Set<number>()
    operationTimes.set(operation.project_id, taken)
    return seedOperation(operation, distinct(taken, now - Duration.toMillis(operation.age ?? 0)), now)
  })
  const { organizations, members, keys } = seedOrganizations(seed, now)
  const stored = seedBuckets(seed, branches, now)
  return {
    next_key_id: 1,
    api_keys: keys,
    organizations,
    members,
    invitations: [],
    permissions: [],
    vpc_endpoints: [],
    vpc_restrictions: [],
    transfer_requests: [],
    projects,
    branches,
    endpoints: seedEndpoints(seed, branches, now),
    roles,
    databases,
    operations,
    // A seed takes no snapshots nor backup schedules (docs/contract.md §19): the API makes them.
    branch_snapshots: [],
    backup_schedules: [],
    // Nor deleted branches (docs/contract.md §18.1): only a deletion keeps one.
    deleted_branches: [],
    data_apis: [],
    branch_auths: seedBranchAuths(seed, branches, databases, now, problems),
    jwks: [],
    credentials: seedCredentials(seed, branches, now),
    // Nor anonymized branches (docs/contract.md §18.4): the API makes them.
    anonymizations: [],
    // Nor functions (docs/contract.md §29.5): a deployment makes one.
    functions: [],
    buckets: stored.buckets,
    bucket_objects: stored.objects,
    bucket_object_versions: [],
    presigned_urls: []
  }
}

/**
 * The state a seed describes, its times relative to `now` (epoch ms), its SQL schemas read
 * (`schemas`, {@link seedSchemas}), or every problem found in it (`InvalidSeed`): a bad or
 * repeated id, a bad `org_id` or `shared`, an item of an unknown parent, a branch tree or
 * endpoints the platform could not have (see `state.problems`).
 */
export const stateOfSeed = (
  seed: Seed,
  now: number,
  schemas: SeedSchemas = new Map()
): Either.Either<State, InvalidSeed> => {
  const problems: Array<string> = []
  const loaded = load(collectionsOfSeed(seed, now, problems, schemas))
  if (problems.length > 0) {
    return Either.left(new InvalidSeed({ problems: [...problems, ...(Either.isLeft(loaded) ? loaded.left : [])] }))
  }
  return Either.mapLeft(loaded, (found) => new InvalidSeed({ problems: found }))
}

/**
 * {@link stateOfSeed} at the `Clock`'s time now, the seed's SQL schemas read with `parser` first
 * (docs/contract.md §24.3).
 */
export const seedState = (seed: Seed, parser: DdlParser): Effect.Effect<State, InvalidSeed> =>
  Effect.flatMap(seedSchemas(seed, parser), (schemas) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => stateOfSeed(seed, now, schemas))
  )
