/**
 * The records every resource's steps look up, or the refusal when they may not act on them: a
 * 404 for what is not there (a deleted project too, docs/contract.md §18), a 423 while a project
 * has a pending operation (§11.6).
 */
import * as Either from "effect/Either"
import { roleIn } from "./caller.js"
import { isDeleted } from "./lifecycle.js"
import { lockedBy } from "./operations.js"
import { notFound, type Refusal, refused } from "./refusal.js"
import { get, type State, type StoredBranch, type StoredProject } from "./state.js"
import { Status } from "./status.js"

/** 423: the project has a pending operation; nothing is done (docs/contract.md §11.6). */
const locked = refused(423, "project already has running conflicting operations")

/** The project `projectId`, or a 404 (also for a deleted one, kept for recovery: docs/contract.md §18). */
export const projectOf = (state: State, projectId: string): Either.Either<StoredProject, Refusal> => {
  const project = get(state, "projects", projectId)
  return project === undefined || isDeleted(project) ? notFound("project") : Either.right(project)
}

/** The branch `branchId` of project `projectId`, or a 404 (for either). */
export const branchOf = (
  state: State,
  projectId: string,
  branchId: string
): Either.Either<readonly [StoredProject, StoredBranch], Refusal> =>
  Either.flatMap(projectOf(state, projectId), (project) => {
    const branch = get(state, "branches", branchId)
    return branch === undefined || branch.project_id !== projectId
      ? notFound("branch")
      : Either.right([project, branch] as const)
  })

/** The project `projectId` for a mutation: a 404 when unknown, a 423 while it has a pending operation. */
export const unlockedProject = (state: State, projectId: string, now: number) =>
  Either.flatMap(projectOf(state, projectId), (project) =>
    lockedBy(state, projectId, now) === undefined ? Either.right(project) : locked
  )

/**
 * Organization `orgId`, or a 404: for one that does not exist, and for one the account's user is
 * not a member of, as the fake answers every organization a key does not reach (docs/contract.md §21).
 */
export const memberOrganization = (state: State, orgId: string) => {
  const organization = get(state, "organizations", orgId)
  if (organization === undefined) return refused(Status.notFound, "organization not found")
  return roleIn(state, undefined, orgId) === undefined
    ? refused(Status.notFound, "organization not found")
    : Either.right(organization)
}

/** `state`, or a 404 unless it has the project `projectId` (not deleted: docs/contract.md §18). */
export const withProject = (state: State, projectId: string): Either.Either<State, Refusal> =>
  Either.map(projectOf(state, projectId), () => state)
