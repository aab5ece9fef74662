import { OperationId, ProjectId } from "@dbplatform/core"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { InvalidSeed, type Seed } from "../Seed.js"

/** A key as the fake keeps it: the SHA-256 of its value, never the value (wire-facts). */
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
interface Step {
  readonly at: number
  readonly status: string
}

export interface StoredOperation {
  readonly id: string
  readonly project_id: string
  readonly branch_id: string | undefined
  readonly endpoint_id: string | undefined
  readonly action: string
  readonly created_at: number
  readonly steps: ReadonlyArray<Step>
  readonly failures_count: number
  readonly error: string | undefined
  readonly retry_at: number | undefined
}

/** The uuid of the fake account's user, `created_by` of every key. */
export const userId = "5b7a3a36-3f5e-4e38-9a5b-9c6a0f3e2d11"

const pendingStatuses: ReadonlySet<string> = new Set(["scheduling", "running", "cancelling"])

/** The step in force at `now`. */
const stepAt = (operation: StoredOperation, now: number): Step => {
  let current = operation.steps[0]!
  for (const step of operation.steps) {
    if (step.at <= now) current = step
  }
  return current
}

/** Distinct creation times in one project, so a `created_at` cursor never skips an item. */
const distinct = (taken: Set<number>, at: number): number => {
  let time = at
  while (taken.has(time)) time += 1
  taken.add(time)
  return time
}

/** The in-memory state of one fake account. Single-threaded: every method runs to completion. */
export class Store {
  readonly keys = new Map<number, StoredKey>()
  readonly keysByHash = new Map<string, StoredKey>()
  /** Newest first by `created_at`. */
  readonly projects: Array<StoredProject> = []
  /** Per project, newest first by `created_at`. */
  readonly operations = new Map<string, Array<StoredOperation>>()
  readonly operationsById = new Map<string, StoredOperation>()
  private nextKeyId = 1000001

  addKey(name: string, hash: string, now: number): StoredKey {
    const key: StoredKey = {
      id: this.nextKeyId++,
      name,
      hash,
      created_at: now,
      revoked: false,
      last_used_at: null,
      last_used_from_addr: ""
    }
    this.keys.set(key.id, key)
    this.keysByHash.set(hash, key)
    return key
  }

  /**
   * The state a seed describes, its times relative to `now` (epoch ms), or every problem
   * found in it: a bad or repeated project or operation id, an operation of an unknown project.
   */
  static fromSeed(seed: Seed, now: number): Effect.Effect<Store, InvalidSeed> {
    const problems: Array<string> = []
    const store = new Store()
    const projectTimes = new Set<number>()
    for (const project of seed.projects ?? []) {
      if (!isProjectId(project.id))
        problems.push(`project id ${JSON.stringify(project.id)} does not match ^[a-z0-9-]{1,60}$`)
      if (store.operations.has(project.id)) problems.push(`project id ${project.id} appears twice`)
      store.projects.push({
        id: project.id,
        name: project.name ?? project.id,
        region_id: project.region_id ?? "aws-us-east-2",
        platform_id: project.platform_id ?? "aws",
        provisioner: project.provisioner ?? "k8s-neonvm",
        pg_version: project.pg_version ?? 17,
        created_at: distinct(projectTimes, now - Duration.toMillis(project.age ?? "30 days"))
      })
      store.operations.set(project.id, [])
    }
    store.projects.sort((a, b) => b.created_at - a.created_at)
    const operationTimes = new Map<string, Set<number>>()
    for (const operation of seed.operations ?? []) {
      const list = store.operations.get(operation.project_id)
      if (list === undefined) {
        problems.push(`operation of unknown project ${operation.project_id}`)
        continue
      }
      const id = operation.id ?? crypto.randomUUID()
      if (!isOperationId(id)) problems.push(`operation id ${JSON.stringify(id)} is not a UUID`)
      if (store.operationsById.has(id)) problems.push(`operation id ${id} appears twice`)
      const taken = operationTimes.get(operation.project_id) ?? new Set<number>()
      operationTimes.set(operation.project_id, taken)
      const created = distinct(taken, now - Duration.toMillis(operation.age ?? 0))
      const runsFor = Duration.toMillis(operation.runsFor ?? "2 seconds")
      const status = operation.status ?? "finished"
      const steps: Array<Step> = [{ at: created, status: "scheduling" }]
      if (status !== "scheduling") steps.push({ at: created + Math.min(1000, runsFor / 5), status: "running" })
      if (status !== "scheduling" && status !== "running") steps.push({ at: created + runsFor, status })
      const stored: StoredOperation = {
        id,
        project_id: operation.project_id,
        branch_id: operation.branch_id,
        endpoint_id: operation.endpoint_id,
        action: operation.action,
        created_at: created,
        steps,
        failures_count: operation.failures_count ?? 0,
        error: operation.error,
        retry_at: operation.retryIn === undefined ? undefined : now + Duration.toMillis(operation.retryIn)
      }
      list.push(stored)
      store.operationsById.set(id, stored)
    }
    for (const list of store.operations.values()) list.sort((a, b) => b.created_at - a.created_at)
    return problems.length === 0 ? Effect.succeed(store) : Effect.fail(new InvalidSeed({ problems }))
  }
}

const isProjectId = Schema.is(ProjectId)
const isOperationId = Schema.is(OperationId)

/** Epoch ms as the ISO 8601 UTC string the API sends. */
export const iso = (ms: number) => new Date(ms).toISOString()

/** An operation as a real server sends it at `now` (wire-facts "Operations"). */
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
    total_duration_ms: (done ? step.at : now) - operation.created_at
  }
}

/** A project list item as a real server sends it (wire-facts "Projects"). */
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

/** A key as `GET /api_keys` lists it (wire-facts "API keys"). */
export const keyListJson = (key: StoredKey) => ({
  id: key.id,
  name: key.name,
  created_at: iso(key.created_at),
  created_by: { id: userId, name: "Ada Lovelace", image: "" },
  last_used_at: key.last_used_at === null ? null : iso(key.last_used_at),
  last_used_from_addr: key.last_used_from_addr
})

/** A key as `DELETE /api_keys/{key_id}` answers (wire-facts "API keys"). */
export const keyRevokedJson = (key: StoredKey) => ({
  id: key.id,
  name: key.name,
  created_at: iso(key.created_at),
  created_by: userId,
  last_used_at: key.last_used_at === null ? null : iso(key.last_used_at),
  last_used_from_addr: key.last_used_from_addr,
  revoked: key.revoked
})
