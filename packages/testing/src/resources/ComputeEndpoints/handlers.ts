/**
 * The fake's compute endpoint routes (docs/contract.md §12): each decodes with its entry of core's
 * `Api.ComputeEndpoints` and runs a mutation or a read of `steps.ts`.
 */
import { ComputeEndpointEnvelope, ComputeEndpointOperations, type Api } from "@dbplatform/core"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import {
  changeEndpointState,
  createEndpoint,
  deleteEndpoint,
  type EndpointChange,
  endpointOf,
  endpointsOfProject,
  restartPlan,
  startPlan,
  suspendPlan,
  updateEndpoint
} from "./steps.js"
import { type Dice } from "../../engine/ids.js"
import { type Handlers } from "../../engine/route.js"
import type { FakeState, Mutation } from "../../engine/state.js"
import { computeEndpointAt, computeEndpoints, operationAt } from "../../engine/wire.js"
import { type Refusal } from "../../engine/refusal.js"
import { projectOf } from "../../engine/records.js"
import { change, read } from "../../engine/change.js"
import { type Authorizations, anyKey } from "../../engine/authorization.js"

/** What a compute endpoint mutation answers: the compute endpoint and the operations it started, as they are `now`. */
export const computeEndpointOperations = ({ project, endpoint, operations }: EndpointChange, now: number) =>
  new ComputeEndpointOperations(
    {
      endpoint: computeEndpointAt(endpoint, project, now),
      operations: operations.map((operation) => operationAt(operation, now))
    },
    true
  )

/** Runs the mutation `make` builds with fresh dice, and answers what it changed as it is now. */
const answerChange = (fake: FakeState, make: (dice: Dice) => Mutation<EndpointChange, Refusal>) =>
  change(fake, make, computeEndpointOperations)

/** How the fake answers each entry of `group` (core's `Api.ComputeEndpoints`), over `fake`. */
export const computeEndpointHandlers = (
  fake: FakeState,
  _group: typeof Api.ComputeEndpoints
): Handlers<typeof Api.ComputeEndpoints> => ({
  list: ({ params }) =>
    read(fake, (state, now) =>
      Either.map(projectOf(state, params.project_id), (project) =>
        computeEndpoints(endpointsOfProject(state, project.id), project, now)
      )
    ),
  create: ({ params, body }) => answerChange(fake, (dice) => createEndpoint(params.project_id, body.endpoint, dice)),
  get: ({ params }) =>
    read(fake, (state, now) =>
      Either.map(
        endpointOf(state, params.project_id, params.endpoint_id),
        ([project, endpoint]) =>
          new ComputeEndpointEnvelope({ endpoint: computeEndpointAt(endpoint, project, now) }, true)
      )
    ),
  update: ({ params, body }) =>
    answerChange(fake, (dice) => updateEndpoint(params.project_id, params.endpoint_id, body.endpoint, dice)),
  delete: ({ params }) =>
    change(
      fake,
      (dice) => deleteEndpoint(params.project_id, params.endpoint_id, dice),
      (deleted, now) => (deleted === undefined ? Option.none() : Option.some(computeEndpointOperations(deleted, now)))
    ),
  start: ({ params }) =>
    answerChange(fake, (dice) => changeEndpointState(params.project_id, params.endpoint_id, startPlan, dice)),
  suspend: ({ params }) =>
    answerChange(fake, (dice) => changeEndpointState(params.project_id, params.endpoint_id, suspendPlan, dice)),
  restart: ({ params }) =>
    answerChange(fake, (dice) => changeEndpointState(params.project_id, params.endpoint_id, restartPlan, dice))
})

/** Which kinds of key may call each ComputeEndpoints endpoint, and what another gets (docs/contract.md §21). */
export const computeEndpointAuthorizations: Authorizations<typeof Api.ComputeEndpoints> = {
  list: anyKey,
  create: anyKey,
  get: anyKey,
  update: anyKey,
  delete: anyKey,
  start: anyKey,
  suspend: anyKey,
  restart: anyKey
}
