import { Endpoint } from "@dbplatform/core"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { InvalidSeed, type Seed, type SeedOperation, type SeedProject } from "../Seed.js"
import { type Life, refusalOf, Store, type StoredOperation, type StoredProject } from "./state.js"

/**
 * The organization of a project that names none: every project of the fake belongs to it unless
 * its seed says otherwise (`org_id`, docs/contract.md §10.4).
 */
export const defaultOrgId = "org-dbplatform-000000"

/** A problem with a seed project's `org_id`, or `undefined` when it is good or absent. */
export const orgIdProblem = (project: SeedProject): string | undefined => {
  const refused = project.org_id === undefined ? undefined : refusalOf(Endpoint.OrgId, project.org_id)
  return refused === undefined ? undefined : `project ${project.id}: org_id ${refused}`
}

/**
 * A problem with a seed project's `shared` (a seed built in code may hold anything), or
 * `undefined` when it is a boolean or absent.
 */
export const sharedProblem = (project: SeedProject): string | undefined =>
  project.shared === undefined || typeof project.shared === "boolean"
    ? undefined
    : `project ${project.id}: shared must be true or false, got ${typeof project.shared}`

/** A seed's project with its defaults, created `age` (30 days by default) before `now`. */
export const seedProject = (project: SeedProject, now: number): StoredProject => ({
  id: project.id,
  name: project.name ?? project.id,
  region_id: project.region_id ?? "aws-us-east-2",
  platform_id: project.platform_id ?? "aws",
  provisioner: project.provisioner ?? "k8s-neonvm",
  pg_version: project.pg_version ?? 17,
  org_id: project.org_id ?? defaultOrgId,
  ...(project.shared === true ? { shared: true } : {}),
  created_at: now - Duration.toMillis(project.age ?? "30 days")
})

/** How long an operation runs when its seed or start does not say: 2 seconds. */
export const defaultRunsFor = Duration.toMillis("2 seconds")

/** A seed's operation with its defaults, its times relative to `now`, and how it lives. */
const seedOperation = (operation: SeedOperation, id: string, now: number): [Omit<StoredOperation, "steps">, Life] => {
  const created = now - Duration.toMillis(operation.age ?? 0)
  return [
    {
      id,
      project_id: operation.project_id,
      branch_id: operation.branch_id,
      endpoint_id: operation.endpoint_id,
      action: operation.action,
      created_at: created,
      failures_count: operation.failures_count ?? 0,
      error: operation.error,
      retry_at: operation.retryIn === undefined ? undefined : now + Duration.toMillis(operation.retryIn)
    },
    {
      begin: created,
      runsFor: operation.runsFor === undefined ? defaultRunsFor : Duration.toMillis(operation.runsFor),
      status: operation.status ?? "finished"
    }
  ]
}

/**
 * The state a seed describes, its times relative to `now` (epoch ms), or every problem found in
 * it: a bad or repeated project id, a bad `org_id` or `shared`, a bad or repeated operation id, an operation of
 * an unknown project.
 */
export const storeOfSeed = (seed: Seed, now: number): Effect.Effect<Store, InvalidSeed> => {
  const problems: Array<string> = []
  const store = new Store()
  for (const project of seed.projects ?? []) {
    const problem = store.projectProblem(project.id) ?? orgIdProblem(project) ?? sharedProblem(project)
    if (problem !== undefined) problems.push(problem)
    if (problem === undefined || !store.operations.has(project.id)) store.addProject(seedProject(project, now))
  }
  store.loadOperations(() => {
    for (const operation of seed.operations ?? []) {
      const id = operation.id ?? crypto.randomUUID()
      const problem = store.operationProblem(id, operation.project_id)
      if (problem !== undefined) {
        problems.push(problem)
        if (!store.operations.has(operation.project_id) || store.operationsById.has(id)) continue
      }
      store.addOperation(...seedOperation(operation, id, now))
    }
  })
  return problems.length === 0 ? Effect.succeed(store) : Effect.fail(new InvalidSeed({ problems }))
}
