import * as Effect from "effect/Effect"
import { InvalidSeed } from "../Seed.js"
import type { Snapshot } from "../Snapshot.js"
import { defaultOrgId, orgIdProblem } from "./seed.js"
import { operationSnapshot, Store } from "./state.js"

/** The state of `store` as a `Snapshot` (times epoch ms). */
export const snapshotOf = (store: Store): Snapshot => ({
  version: 1,
  next_key_id: store.nextKeyId,
  api_keys: Array.from(store.keys.values(), (key) => ({ ...key })),
  projects: store.projects.map((project) => ({ ...project })),
  operations: Array.from(store.operations.values()).flatMap((operations) => operations.map(operationSnapshot))
})

/**
 * The store a snapshot describes, or every problem in it: a bad or repeated id, a bad `org_id`,
 * a repeated key hash, an operation of an unknown project. A project saved without `org_id` (before 0.2.0)
 * belongs to the default organization.
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
    // A bad `org_id` is reported, but the project is kept: its operations are not "of an unknown project".
    const orgProblem = orgIdProblem(project)
    if (orgProblem !== undefined) problems.push(orgProblem)
    if (problem === undefined) store.addProject({ ...project, org_id: project.org_id ?? defaultOrgId })
    else problems.push(problem)
  }
  store.loadOperations(() => {
    for (const operation of snapshot.operations) {
      const problem = store.operationProblem(operation.id, operation.project_id)
      if (problem === undefined) store.restoreOperation({ ...operation, steps: [...operation.steps] })
      else problems.push(problem)
    }
  })
  return problems.length === 0 ? Effect.succeed(store) : Effect.fail(new InvalidSeed({ problems }))
}
