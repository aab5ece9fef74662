/**
 * What the fake's project transfer routes do (docs/contract.md §22.4), each mutation a pure step
 * over the state (`engine/state.ts` `Mutation`): the account's user must be a member of both
 * organizations; the destination must take the projects: at most its plan's project count, a plan
 * not below the source's (else 406 with the limits); a project with an integration cannot move
 * (422). A moved project loses its VPC restrictions (they name its former organization's
 * endpoints). A transfer request can be accepted once before it expires, on the fake's `Clock`.
 */
import * as Either from "effect/Either"
import { type Dice, uuid } from "../../engine/ids.js"
import { type Change, defaultOrgId, present, remove, upsert } from "../../engine/kinds.js"
import { organizationImplied } from "../Organizations/steps.js"
import { applyAll, get, itemsOf, type Mutation, type State, type StoredProject } from "../../engine/state.js"
import { Status } from "../../engine/status.js"
import { refused, Refusal } from "../../engine/refusal.js"
import { projectOf, unlockedProject, memberOrganization } from "../../engine/records.js"

/** A transfer request as the fake keeps it. */
export type StoredTransferRequest = NonNullable<ReturnType<typeof get<"transfer_requests">>>

const notAcceptable = 406
const unprocessable = 422

/** How many projects an organization of a plan may hold (the fake's figures), by plan family. */
export const planProjectLimits: Readonly<Record<string, number>> = {
  free: 100,
  launch: 100,
  scale: 1000,
  business: 5000
}

/** The plans from the lowest, by family: a transfer may not go to a lower one. */
const planOrder: ReadonlyArray<string> = ["free", "launch", "scale", "business", "enterprise"]

/**
 * The family of a plan: its name without the version (`free_v3` is `free`, `scale_v3` `scale`);
 * `direct_sales` and `direct_sales_v3`, the published document's Enterprise, are `enterprise`.
 */
const familyOf = (plan: string) => {
  const family = plan.replace(/_v\d+$/, "")
  return family === "direct_sales" ? "enterprise" : family
}

/** One limit the destination does not meet: its `name`, what was `expected` and the `actual` value. */
export interface Limit {
  readonly name: string
  readonly expected: string
  readonly actual: string
}

/** How many projects organization `orgId` holds. */
const projectCount = (state: State, orgId: string) => {
  let count = 0
  for (const project of itemsOf(state, "projects")) if ((project.org_id ?? defaultOrgId) === orgId) count++
  return count
}

/**
 * The limits destination `toOrg` does not meet to take `moving` projects from `fromOrg` (whose
 * plan is `fromPlan`; none known: only the count): its plan's project count
 * (`projects_count`), a plan not below the source's (`subscription_type`).
 */
const limitsUnmet = (state: State, toOrg: string, moving: number, fromPlan: string | undefined) => {
  const to = get(state, "organizations", toOrg)
  if (to === undefined) return []
  const limits: Array<Limit> = []
  const max = planProjectLimits[familyOf(to.plan)]
  const after = projectCount(state, toOrg) + moving
  if (max !== undefined && after > max) {
    limits.push({ name: "projects_count", expected: String(max), actual: String(after) })
  }
  const fromRank = fromPlan === undefined ? -1 : planOrder.indexOf(familyOf(fromPlan))
  const toRank = planOrder.indexOf(familyOf(to.plan))
  if (fromPlan !== undefined && fromRank >= 0 && toRank >= 0 && toRank < fromRank) {
    limits.push({ name: "subscription_type", expected: fromPlan, actual: to.plan })
  }
  return limits
}

/** `project` moved to organization `orgId` at `now`, without its VPC restrictions. */
const moved = (state: State, project: StoredProject, orgId: string, now: number): ReadonlyArray<Change> => [
  ...Array.from(itemsOf(state, "vpc_restrictions", project.id), (restriction) =>
    remove("vpc_restrictions", restriction.id)
  ),
  upsert("projects", present({ ...project, org_id: orgId, updated_at: Math.max(now, project.updated_at ?? 0) }))
]

/**
 * Moves `projectIds` from organization `fromOrg` to `toOrg` (docs/contract.md §22.4): 404 for an
 * unknown organization or a project not in `fromOrg`, 403 unless the account's user is a member
 * of both, 400 when they are the same, 422 for projects with an integration, 406 for the limits
 * the destination does not meet, 423 while a project has an operation running.
 */
export const transferProjects =
  (fromOrg: string, toOrg: string, projectIds: ReadonlyArray<string>): Mutation<void, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const source = yield* memberOrganization(state, fromOrg)
      yield* memberOrganization(state, toOrg)
      if (fromOrg === toOrg) {
        return yield* refused(Status.badRequest, "destination_org_id: must differ from the source organization")
      }
      const ids = Array.from(new Set(projectIds))
      const projects: Array<StoredProject> = []
      for (const id of ids) {
        const project = get(state, "projects", id)
        if (project === undefined || project.shared === true || (project.org_id ?? defaultOrgId) !== fromOrg) {
          return yield* refused(Status.notFound, `project ${id} not found in organization ${fromOrg}`)
        }
        projects.push(project)
      }
      const integrated = projects.filter((project) => project.integration !== undefined)
      if (integrated.length > 0) {
        return yield* Either.left<Refusal>(
          new Refusal({
            status: unprocessable,
            message: "projects with an integration cannot be transferred",
            details: { projects: integrated.map((project) => ({ id: project.id, integration: project.integration })) }
          })
        )
      }
      const limits = limitsUnmet(state, toOrg, projects.length, source.plan)
      if (limits.length > 0) {
        return yield* Either.left<Refusal>(
          new Refusal({
            status: notAcceptable,
            message: `the destination organization cannot take the projects: ${limits.map((limit) => limit.name).join(", ")}`,
            details: { limits }
          })
        )
      }
      for (const project of projects) yield* unlockedProject(state, project.id, now)
      return { changes: projects.flatMap((project) => moved(state, project, toOrg, now)), answer: undefined }
    })

/** How long a transfer request can be accepted when its creation does not say: a day, in seconds. */
export const defaultTransferTtlSeconds = 86_400

/** A request to transfer project `projectId`, which expires `ttlSeconds` (a day by default) after `now`. */
export const createTransferRequest =
  (projectId: string, ttlSeconds: number | undefined, dice: Dice): Mutation<StoredTransferRequest, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      yield* projectOf(state, projectId)
      let id = uuid(dice)
      while (get(state, "transfer_requests", id) !== undefined) id = uuid(dice)
      const request: StoredTransferRequest = {
        id,
        project_id: projectId,
        created_at: now,
        expires_at: now + (ttlSeconds ?? defaultTransferTtlSeconds) * 1000
      }
      return { changes: [upsert("transfer_requests", request)], answer: request }
    })

/**
 * Accepts transfer request `requestId` of project `projectId`, moving it to `orgId` (the
 * account's default organization, made if need be, when absent): 404 for an unknown request or
 * organization, 400 for one expired at `now`, 403 for an organization the account's user is not
 * a member of, 406 with the reasons when the organization cannot take the project. The request
 * is used up.
 */
export const acceptTransferRequest =
  (projectId: string, requestId: string, orgId: string | undefined): Mutation<void, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const project = yield* projectOf(state, projectId)
      const request = get(state, "transfer_requests", requestId)
      if (request === undefined || request.project_id !== projectId) {
        return yield* refused(Status.notFound, "transfer request not found")
      }
      if (now >= request.expires_at) return yield* refused(Status.badRequest, "transfer request has expired")
      const destination = orgId ?? defaultOrgId
      const implied = orgId === undefined ? organizationImplied(state, destination, now) : []
      if (implied.length === 0) yield* memberOrganization(state, destination)
      const from = get(state, "organizations", project.org_id ?? defaultOrgId)
      // An organization implied now has the default plan: its limits are checked as any other's.
      const target = applyAll(state, implied)
      const limits = limitsUnmet(target, destination, destination === project.org_id ? 0 : 1, from?.plan)
      if (limits.length > 0) {
        return yield* Either.left<Refusal>(
          new Refusal({
            status: notAcceptable,
            message: "the organization does not satisfy the plan requirements to own the project",
            details: {
              reasons: limits.map((limit) => ({
                code: limit.name,
                message: `${limit.name}: expected ${limit.expected}, actual ${limit.actual}`
              }))
            }
          })
        )
      }
      return {
        changes: [...implied, ...moved(state, project, destination, now), remove("transfer_requests", requestId)],
        answer: undefined
      }
    })
