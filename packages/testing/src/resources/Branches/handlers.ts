/**
 * The fake's branch routes (docs/contract.md §11): each decodes with its entry of core's
 * `Api.Branches` and runs a mutation or a read of `steps.ts`.
 */
import { Api } from "@dbplatform/core"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import {
  type BranchChange,
  branchesPageOf,
  createBranch,
  deleteBranch,
  endpointsOfBranch,
  matchingBranches,
  recoverBranch,
  restoreBranch,
  setDefaultBranch,
  toTheSecond,
  updateBranch
} from "./steps.js"
import {
  type StoredAnonymization,
  anonymizedBranch,
  anonymizedStatusAt,
  createAnonymizedBranch,
  startAnonymization,
  updateMaskingRules
} from "./anonymized.js"
import { connectionDetails, connectionsOf } from "../Connections/steps.js"
import { type Handlers } from "../../engine/route.js"
import type { FakeState } from "../../engine/state.js"
import {
  branchCreated,
  branchEnvelope,
  branchesCount,
  branchesPage,
  branchOperations,
  computeEndpoints,
  unchecked
} from "../../engine/wire.js"
import { branchOf, projectOf, withProject } from "../../engine/records.js"
import { change, read } from "../../engine/change.js"
import { type Authorizations, anyKey } from "../../engine/authorization.js"

/** How the fake answers each entry of `group` (core's `Api.Branches`, or a test's change of it). */
export const branchHandlers = (fake: FakeState, _group: typeof Api.Branches): Handlers<typeof Api.Branches> => ({
  list: ({ params, query }) =>
    read(fake, (state, now) => {
      const sort = { sort_by: query.sort_by ?? "updated_at", sort_order: query.sort_order ?? "desc" } as const
      const matching = matchingBranches(state, params.project_id, query.search, query.include_deleted === true, now)
      return Either.flatMap(projectOf(state, params.project_id), () =>
        Either.map(branchesPageOf(matching, sort, query.cursor, query.limit), ({ page, next }) =>
          branchesPage(page, next, sort, now)
        )
      )
    }),
  count: ({ params, query }) =>
    Effect.map(
      read(fake, (state) => withProject(state, params.project_id)),
      (state) => branchesCount(matchingBranches(state, params.project_id, query.search).length)
    ),
  create: ({ params, body }) =>
    change(
      fake,
      (dice) =>
        createBranch(
          params.project_id,
          {
            ...body.branch,
            expires_at: expiryOf(body.branch?.expires_at),
            parent_timestamp: millisOf(body.branch?.parent_timestamp),
            annotation_value: body.annotation_value,
            endpoints: body.endpoints ?? []
          },
          dice
        ),
      (created, now) =>
        branchCreated(
          created,
          connectionsOf(created.project, created.endpoints, created.roles, created.databases).map(connectionDetails),
          now
        )
    ),
  get: ({ params }) =>
    read(fake, (state, now) =>
      Either.map(branchOf(state, params.project_id, params.branch_id), ([, branch]) => branchEnvelope(branch, now))
    ),
  update: ({ params, body }) =>
    change(
      fake,
      () =>
        updateBranch(params.project_id, params.branch_id, {
          ...body.branch,
          expires_at: body.branch.expires_at === null ? null : expiryOf(body.branch.expires_at)
        }),
      answerOf
    ),
  delete: ({ params, query }) =>
    change(
      fake,
      (dice) => deleteBranch(params.project_id, params.branch_id, dice, query.hard_delete === true),
      (deleted, now) =>
        deleted === undefined ? Option.none() : Option.some(branchOperations(deleted.branch, deleted.operations, now))
    ),
  restore: ({ params, body }) =>
    change(
      fake,
      (dice) =>
        restoreBranch(
          params.project_id,
          params.branch_id,
          { ...body, source_timestamp: millisOf(body.source_timestamp) },
          dice
        ),
      answerOf
    ),
  setAsDefault: ({ params }) => change(fake, () => setDefaultBranch(params.project_id, params.branch_id), answerOf),
  listEndpoints: ({ params }) =>
    read(fake, (state, now) =>
      Either.map(branchOf(state, params.project_id, params.branch_id), ([project, branch]) =>
        computeEndpoints(endpointsOfBranch(state, branch.id), project, now)
      )
    ),
  createAnonymized: ({ params, body }) =>
    change(
      fake,
      (dice) =>
        createAnonymizedBranch(
          params.project_id,
          {
            ...body.branch_create?.branch,
            expires_at: expiryOf(body.branch_create?.branch?.expires_at),
            parent_timestamp: millisOf(body.branch_create?.branch?.parent_timestamp),
            annotation_value: body.annotation_value,
            endpoints: body.branch_create?.endpoints ?? []
          },
          body.masking_rules ?? [],
          body.start_anonymization === true,
          dice
        ),
      (created, now) =>
        branchCreated(
          created,
          connectionsOf(created.project, created.endpoints, created.roles, created.databases).map(connectionDetails),
          now
        )
    ),
  getMaskingRules: ({ params }) =>
    read(fake, (state) =>
      Either.map(
        anonymizedBranch(state, params.project_id, params.branch_id),
        (anonymization) => new Api.MaskingRules({ masking_rules: rulesOf(anonymization) }, unchecked)
      )
    ),
  updateMaskingRules: ({ params, body }) =>
    change(
      fake,
      () => updateMaskingRules(params.project_id, params.branch_id, body.masking_rules),
      (anonymization) => new Api.MaskingRules({ masking_rules: rulesOf(anonymization) }, unchecked)
    ),
  getAnonymizedStatus: ({ params }) =>
    read(fake, (state, now) =>
      Either.map(anonymizedBranch(state, params.project_id, params.branch_id), (anonymization) =>
        anonymizedStatusAt(anonymization, now)
      )
    ),
  startAnonymization: ({ params }) =>
    change(fake, () => startAnonymization(params.project_id, params.branch_id), anonymizedStatusAt),
  recover: ({ params }) =>
    change(
      fake,
      () => recoverBranch(params.project_id, params.branch_id),
      ({ project, branch, endpoints }, now) =>
        new Api.BranchRecovered(
          {
            branch: branchEnvelope(branch, now).branch,
            endpoints: computeEndpoints(endpoints, project, now).endpoints
          },
          unchecked
        )
    )
})

/** An anonymized branch's masking rules as the API answers them. */
const rulesOf = (anonymization: StoredAnonymization) =>
  anonymization.masking_rules.map((rule) => new Api.MaskingRule(rule, unchecked))

/** The answer of a branch mutation: the branch and the operations it started, as they are now. */
const answerOf = ({ branch, operations }: BranchChange, now: number) => branchOperations(branch, operations, now)

/** A time of a request body as the fake keeps it: epoch ms (absent stays absent). */
const millisOf = (at: DateTime.Utc | undefined): number | undefined =>
  at === undefined ? undefined : DateTime.toEpochMillis(at)

/** An expiry of a request body as the fake keeps it: epoch ms, to the second (absent stays absent). */
const expiryOf = (at: DateTime.Utc | undefined): number | undefined =>
  at === undefined ? undefined : toTheSecond(DateTime.toEpochMillis(at))

/** Which kinds of key may call each Branches endpoint, and what another gets (docs/contract.md §21). */
export const branchAuthorizations: Authorizations<typeof Api.Branches> = {
  list: anyKey,
  count: anyKey,
  create: anyKey,
  get: anyKey,
  update: anyKey,
  delete: anyKey,
  restore: anyKey,
  setAsDefault: anyKey,
  listEndpoints: anyKey,
  recover: anyKey,
  createAnonymized: anyKey,
  getMaskingRules: anyKey,
  updateMaskingRules: anyKey,
  getAnonymizedStatus: anyKey,
  startAnonymization: anyKey
}
