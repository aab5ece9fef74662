import { OperationId, ProjectId } from "@dbplatform/core"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { InvalidSeed, type Seed, type SeedOperation, type SeedProject } from "../Seed.js"
import type { Snapshot, SnapshotChange } from "../Snapshot.js"

/** A key as the fake keeps it: the SHA-256 of its value, never the value (`docs/contract.md` §10.3). */
export interface StoredKey {
  readonly id: number
  readonly name: string
  readonly hash: string
  readonly created_at: number
  revoked: boolean
  last_used_at: number | null
  last_used_from_addr: string
}

export interface StoredProject {
  readonly id: string
  readonly name: string
  readonly region_id: string
  readonly platform_id: string
  readonly provisioner: string
  readonly pg_version: number
  readonly created_at: number
}

/** One step of an operation's life: from `at` (epoch ms) on, it has `status`. */
export interface Step {
  readonly at: number
  readonly status: string
}

/**
 * An operation's life as a list of steps (ascending `at`). `fail` and `cancel` rewrite the
 * steps after the moment they happen, so the fields below are mutable.
 */
export interface StoredOperation {
  readonly id: string
  readonly project_id: string
  readonly branch_id: string | undefined
  readonly endpoint_id: string | undefined
  readonly action: string
  readonly created_at: number
  steps: ReadonlyArray<Step>
  failures_count: number
  error: string | undefined
  retry_at: number | undefined
}

/** The uuid of the fake account's user, `created_by` of every key. */
export const userId = "5b7a3a36-3f5e-4e38-9a5b-9c6a0f3e2d11"

const pendingStatuses: ReadonlySet<string> = new Set(["scheduling", "running", "cancelling"])

/** Whether `status` is still in progress: `scheduling`, `running` or `cancelling` (`docs/contract.md` §10.5). */
export const isPendingStatus = (status: string): boolean => pendingStatuses.has(status)

/**
 * The step in force at `now`, or at the operation's `created_at` when that is later: operations
 * started together get `created_at`s a millisecond apart, so the later ones are created just
 * after `now`, and a step set at their creation (a failure, a cancel) is in force at once.
 */
export const stepAt = (operation: StoredOperation, now: number): Step => {
  const at = Math.max(now, operation.created_at)
  let current = operation.steps[0]!
  for (const step of operation.steps) {
    if (step.at <= at) current = step
  }
  return current
}

/**
 * The steps of an operation that waits (`scheduling`) until `begin`, then is `scheduling` for
 * its first second (or fifth of `runsFor`, whichever is shorter), `running`, and takes
 * `status` at `begin + runsFor`; with `status` `scheduling` or `running` it stops there.
 */
export const stepsOf = (created: number, begin: number, runsFor: number, status: string): ReadonlyArray<Step> => {
  const steps: Array<Step> = [{ at: created, status: "scheduling" }]
  if (status !== "scheduling") steps.push({ at: begin + Math.min(1000, runsFor / 5), status: "running" })
  if (status !== "scheduling" && status !== "running") steps.push({ at: begin + runsFor, status })
  return steps
}

/** Distinct creation times in one list, so a `created_at` cursor never skips an item. */
const distinct = (taken: Set<number>, at: number): number => {
  let time = at
  while (taken.has(time)) time += 1
  taken.add(time)
  return time
}

/** Inserts `item` into `list` (newest first by `created_at`), after any item created at the same time. */
const insertNewestFirst = <A extends { readonly created_at: number }>(list: Array<A>, item: A): void => {
  let low = 0
  let high = list.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (list[middle]!.created_at >= item.created_at) low = middle + 1
    else high = middle
  }
  list.splice(low, 0, item)
}

const isProjectId = Schema.is(ProjectId)
const isOperationId = Schema.is(OperationId)

/**
 * An operation as the store adds it: every field resolved, times absolute (epoch ms).
 * `created_at` is moved forward by a millisecond or more if the project has one then.
 */
export interface NewOperation extends Readonly<Omit<StoredOperation, "steps">> {
  /** When it starts to run (`created_at` unless it waits for another). */
  readonly begin: number
  readonly runsFor: number
  readonly status: string
}

/**
 * The in-memory state of one fake account. Single-threaded: every method runs to completion.
 * `revision` grows with every change, so a caller can tell when to save it. When `onChange` is
 * set, every change made through the methods below (not a key's `last_used_*`) is passed to it
 * at once, with the whole record as it is after the change.
 */
export class Store {
  readonly keys = new Map<number, StoredKey>()
  readonly keysByHash = new Map<string, StoredKey>()
  /** Newest first by `created_at`. */
  readonly projects: Array<StoredProject> = []
  /** Per project, newest first by `created_at`. */
  readonly operations = new Map<string, Array<StoredOperation>>()
  readonly operationsById = new Map<string, StoredOperation>()
  private readonly projectTimes = new Set<number>()
  private readonly operationTimes = new Map<string, Set<number>>()
  nextKeyId = 1000001
  revision = 0
  /** Told of each change as it is made (a journal); none by default. */
  onChange: ((change: SnapshotChange) => void) | undefined = undefined

  /** Marks a change. */
  changed(): void {
    this.revision += 1
  }

  addKey(name: string, hash: string, now: number): StoredKey {
    return this.keyChanged(
      this.restoreKey({
        id: this.nextKeyId,
        name,
        hash,
        created_at: now,
        revoked: false,
        last_used_at: null,
        last_used_from_addr: ""
      })
    )
  }

  /** Revokes `key`. */
  revokeKey(key: StoredKey): StoredKey {
    key.revoked = true
    this.changed()
    return this.keyChanged(key)
  }

  private keyChanged(key: StoredKey): StoredKey {
    this.onChange?.({ _tag: "ApiKey", api_key: { ...key } })
    return key
  }

  private operationChanged(operation: StoredOperation): StoredOperation {
    this.onChange?.({ _tag: "Operation", operation: operationSnapshot(operation) })
    return operation
  }

  /** Adds a key as it was saved. */
  restoreKey(key: StoredKey): StoredKey {
    this.keys.set(key.id, key)
    this.keysByHash.set(key.hash, key)
    this.nextKeyId = Math.max(this.nextKeyId, key.id + 1)
    this.changed()
    return key
  }

  /** A problem with a new project's id, or `undefined` when it can be added. */
  projectProblem(id: string): string | undefined {
    if (!isProjectId(id)) return `project id ${JSON.stringify(id)} does not match ^[a-z0-9-]{1,60}$`
    if (this.operations.has(id)) return `project id ${id} appears twice`
    return undefined
  }

  /** Adds a project whose id is good (see `projectProblem`); its `created_at` is made distinct. */
  addProject(project: StoredProject): StoredProject {
    const stored = { ...project, created_at: distinct(this.projectTimes, project.created_at) }
    insertNewestFirst(this.projects, stored)
    this.operations.set(stored.id, [])
    this.changed()
    this.onChange?.({ _tag: "Project", project: { ...stored } })
    return stored
  }

  /** A problem with a new operation's id or project, or `undefined` when it can be added. */
  operationProblem(id: string, projectId: string): string | undefined {
    if (!this.operations.has(projectId)) return `operation of unknown project ${projectId}`
    if (!isOperationId(id)) return `operation id ${JSON.stringify(id)} is not a UUID`
    if (this.operationsById.has(id)) return `operation id ${id} appears twice`
    return undefined
  }

  /** Adds an operation whose id and project are good (see `operationProblem`). */
  addOperation(operation: NewOperation): StoredOperation {
    const taken = this.operationTimes.get(operation.project_id) ?? new Set<number>()
    this.operationTimes.set(operation.project_id, taken)
    const created = distinct(taken, operation.created_at)
    const begin = Math.max(operation.begin, created)
    const stored = this.restoreOperation({
      id: operation.id,
      project_id: operation.project_id,
      branch_id: operation.branch_id,
      endpoint_id: operation.endpoint_id,
      action: operation.action,
      created_at: created,
      steps: stepsOf(created, begin, operation.runsFor, operation.status),
      failures_count: operation.failures_count,
      error: operation.error,
      retry_at: operation.retry_at
    })
    return this.operationChanged(stored)
  }

  /** Adds an operation as it was saved (its project known, its id new). */
  restoreOperation(operation: StoredOperation): StoredOperation {
    const taken = this.operationTimes.get(operation.project_id) ?? new Set<number>()
    this.operationTimes.set(operation.project_id, taken)
    taken.add(operation.created_at)
    insertNewestFirst(this.operations.get(operation.project_id)!, operation)
    this.operationsById.set(operation.id, operation)
    this.changed()
    return operation
  }

  /**
   * Rewrites the life of `operation` from `now` on: the steps before `now` stay, then `steps`.
   * The first step (`scheduling` at creation) always stays. `failure` sets `failures_count`,
   * `error` and `retry_at` in the same change.
   */
  rewrite(
    operation: StoredOperation,
    now: number,
    steps: ReadonlyArray<Step>,
    failure?: Pick<StoredOperation, "failures_count" | "error" | "retry_at">
  ): void {
    operation.steps = [...operation.steps.filter((step, i) => i === 0 || step.at <= now), ...steps]
    if (failure !== undefined) {
      operation.failures_count = failure.failures_count
      operation.error = failure.error
      operation.retry_at = failure.retry_at
    }
    this.changed()
    this.operationChanged(operation)
  }

  /**
   * The state a seed describes, its times relative to `now` (epoch ms), or every problem
   * found in it: a bad or repeated project or operation id, an operation of an unknown project.
   */
  static fromSeed(seed: Seed, now: number): Effect.Effect<Store, InvalidSeed> {
    const problems: Array<string> = []
    const store = new Store()
    for (const project of seed.projects ?? []) {
      const problem = store.projectProblem(project.id)
      if (problem !== undefined) problems.push(problem)
      if (problem === undefined || !store.operations.has(project.id)) store.addProject(seedProject(project, now))
    }
    for (const operation of seed.operations ?? []) {
      const id = operation.id ?? crypto.randomUUID()
      const problem = store.operationProblem(id, operation.project_id)
      if (problem !== undefined) {
        problems.push(problem)
        if (!store.operations.has(operation.project_id) || store.operationsById.has(id)) continue
      }
      store.addOperation(seedOperation(operation, id, now))
    }
    return problems.length === 0 ? Effect.succeed(store) : Effect.fail(new InvalidSeed({ problems }))
  }
}

/** A seed's project with its defaults, created `age` (30 days by default) before `now`. */
export const seedProject = (project: SeedProject, now: number): StoredProject => ({
  id: project.id,
  name: project.name ?? project.id,
  region_id: project.region_id ?? "aws-us-east-2",
  platform_id: project.platform_id ?? "aws",
  provisioner: project.provisioner ?? "k8s-neonvm",
  pg_version: project.pg_version ?? 17,
  created_at: now - Duration.toMillis(project.age ?? "30 days")
})

/** A seed's operation with its defaults, its times relative to `now`. */
const seedOperation = (operation: SeedOperation, id: string, now: number): NewOperation => {
  const created = now - Duration.toMillis(operation.age ?? 0)
  return {
    id,
    project_id: operation.project_id,
    branch_id: operation.branch_id,
    endpoint_id: operation.endpoint_id,
    action: operation.action,
    created_at: created,
    begin: created,
    runsFor: Duration.toMillis(operation.runsFor ?? "2 seconds"),
    status: operation.status ?? "finished",
    failures_count: operation.failures_count ?? 0,
    error: operation.error,
    retry_at: operation.retryIn === undefined ? undefined : now + Duration.toMillis(operation.retryIn)
  }
}

/** Epoch ms as the ISO 8601 UTC string the API sends. */
export const iso = (ms: number) => new Date(ms).toISOString()

/** An operation as a real server sends it at `now` (docs/contract.md §10.5). */
export const operationJson = (operation: StoredOperation, now: number) => {
  const step = stepAt(operation, now)
  const done = !pendingStatuses.has(step.status)
  return {
    id: operation.id,
    project_id: operation.project_id,
    ...(operation.branch_id !== undefined ? { branch_id: operation.branch_id } : {}),
    ...(operation.endpoint_id !== undefined ? { endpoint_id: operation.endpoint_id } : {}),
    action: operation.action,
    status: step.status,
    failures_count: operation.failures_count,
    ...(operation.error !== undefined && done ? { error: operation.error } : {}),
    ...(operation.retry_at !== undefined && done ? { retry_at: iso(operation.retry_at) } : {}),
    created_at: iso(operation.created_at),
    updated_at: iso(step.at),
    total_duration_ms: Math.max(0, (done ? step.at : now) - operation.created_at)
  }
}
/** A project list item as a real server sends it (docs/contract.md §10.4). */
export const projectJson = (project: StoredProject) => ({
  id: project.id,
  platform_id: project.platform_id,
  region_id: project.region_id,
  name: project.name,
  provisioner: project.provisioner,
  default_endpoint_settings: {
    autoscaling_limit_min_cu: 0.25,
    autoscaling_limit_max_cu: 2,
    suspend_timeout_seconds: 0
  },
  settings: { allowed_ips: { ips: [], protected_branches_only: false }, enable_logical_replication: false },
  pg_version: project.pg_version,
  proxy_host: `${project.region_id}.dbplatform.test`,
  branch_logical_size_limit: 512,
  branch_logical_size_limit_bytes: 512 * 1024 * 1024,
  store_passwords: true,
  active_time: 0,
  cpu_used_sec: 0,
  creation_source: "console",
  created_at: iso(project.created_at),
  updated_at: iso(project.created_at),
  owner_id: userId,
  history_retention_seconds: 86400,
  locked: false
})

/** A key as `GET /api_keys` lists it (docs/contract.md §10.3). */
export const keyListJson = (key: StoredKey) => ({
  id: key.id,
  name: key.name,
  created_at: iso(key.created_at),
  created_by: { id: userId, name: "Ada Lovelace", image: "" },
  last_used_at: key.last_used_at === null ? null : iso(key.last_used_at),
  last_used_from_addr: key.last_used_from_addr
})

/** A key as `DELETE /api_keys/{key_id}` answers (docs/contract.md §10.3). */
export const keyRevokedJson = (key: StoredKey) => ({
  id: key.id,
  name: key.name,
  created_at: iso(key.created_at),
  created_by: userId,
  last_used_at: key.last_used_at === null ? null : iso(key.last_used_at),
  last_used_from_addr: key.last_used_from_addr,
  revoked: key.revoked
})

/** The state of `store` as a `Snapshot` (times epoch ms). */
export const snapshotOf = (store: Store): Snapshot => ({
  version: 1,
  next_key_id: store.nextKeyId,
  api_keys: Array.from(store.keys.values(), (key) => ({ ...key })),
  projects: store.projects.map((project) => ({ ...project })),
  operations: Array.from(store.operations.values()).flatMap((operations) => operations.map(operationSnapshot))
})

/** An operation as a `Snapshot` holds it. */
const operationSnapshot = (operation: StoredOperation): Snapshot["operations"][number] => ({
  id: operation.id,
  project_id: operation.project_id,
  ...(operation.branch_id !== undefined ? { branch_id: operation.branch_id } : {}),
  ...(operation.endpoint_id !== undefined ? { endpoint_id: operation.endpoint_id } : {}),
  action: operation.action,
  created_at: operation.created_at,
  steps: operation.steps.map((step) => ({ ...step })) as unknown as Snapshot["operations"][number]["steps"],
  failures_count: operation.failures_count,
  ...(operation.error !== undefined ? { error: operation.error } : {}),
  ...(operation.retry_at !== undefined ? { retry_at: operation.retry_at } : {})
})

/**
 * The store a snapshot describes, or every problem in it: a bad or repeated id, a repeated key
 * hash, an operation of an unknown project.
 */
export const storeOf = (snapshot: Snapshot): Effect.Effect<Store, InvalidSeed> => {
  const store = new Store()
  const problems: Array<string> = []
  for (const key of snapshot.api_keys) {
    if (store.keys.has(key.id)) problems.push(`API key id ${key.id} appears twice`)
    else if (store.keysByHash.has(key.hash)) problems.push(`API key ${key.id} has the hash of another key`)
    else store.restoreKey({ ...key })
  }
  store.nextKeyId = Math.max(store.nextKeyId, snapshot.next_key_id)
  for (const project of snapshot.projects) {
    const problem = store.projectProblem(project.id)
    if (problem === undefined) store.addProject(project)
    else problems.push(problem)
  }
  for (const operation of snapshot.operations) {
    const problem = store.operationProblem(operation.id, operation.project_id)
    if (problem !== undefined) {
      problems.push(problem)
      continue
    }
    store.restoreOperation({
      id: operation.id,
      project_id: operation.project_id,
      branch_id: operation.branch_id,
      endpoint_id: operation.endpoint_id,
      action: operation.action,
      created_at: operation.created_at,
      steps: operation.steps,
      failures_count: operation.failures_count,
      error: operation.error,
      retry_at: operation.retry_at
    })
  }
  return problems.length === 0 ? Effect.succeed(store) : Effect.fail(new InvalidSeed({ problems }))
}
