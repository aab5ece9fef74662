/**
 * The fake's Functions routes (docs/contract.md §29): each decodes with its entry of core's
 * `Api.Functions` and runs a mutation or a read of `steps.ts`. The deployment's body is
 * `multipart/form-data` (`engine/limits.ts`, `readMultipartBody`).
 */
import { Api, CursorPagination } from "@dbplatform/core"
import * as Clock from "effect/Clock"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { type Authorizations, anyKey } from "../../engine/authorization.js"
import { change, read } from "../../engine/change.js"
import { pageOf } from "../../engine/pagination.js"
import { type Handlers } from "../../engine/route.js"
import type { FakeState } from "../../engine/state.js"
import { at, unchecked } from "../../engine/wire.js"
import {
  deleteFunction,
  deployFunction,
  failedBuild,
  functionOf,
  functionsOfBranch,
  renameFunction,
  statusAt,
  type StoredDeployment,
  type StoredFunction
} from "./steps.js"

/** A time as the API sends a function's: an RFC 3339 string. */
const timeAt = (ms: number) => DateTime.formatIso(at(ms))

/** A deployment as a real server sends it at `now`: names of its variables only, never values. */
const deploymentAt = (deployment: StoredDeployment, now: number) => {
  const status = statusAt(deployment, now)
  return new Api.FunctionDeployment(
    {
      id: deployment.id,
      status,
      memory_mib: deployment.memory_mib,
      runtime: deployment.runtime,
      created_at: timeAt(deployment.created_at),
      ...(deployment.environment.length === 0 ? {} : { environment: deployment.environment }),
      ...(status === "failed" ? { error: failedBuild } : {})
    },
    unchecked
  )
}

/** A function as a real server sends it at `now`. */
const functionAt = (fn: StoredFunction, now: number) => {
  const current = fn.deployments[fn.deployments.length - 1]
  let active: StoredDeployment | undefined
  for (const deployment of fn.deployments) if (statusAt(deployment, now) === "completed") active = deployment
  return new Api.BranchFunction(
    {
      id: fn.function_id,
      slug: fn.slug,
      name: fn.name ?? fn.slug,
      invocation_url: `https://${fn.branch_id}-${fn.slug}.functions.dbplatform.test/`,
      ...(current === undefined ? {} : { current_deployment: deploymentAt(current, now) }),
      ...(active === undefined ? {} : { active_deployment: deploymentAt(active, now) }),
      created_at: timeAt(fn.created_at)
    },
    unchecked
  )
}

/** How the fake answers each entry of core's `Api.Functions`, over `fake`. */
export const functionsHandlers = (fake: FakeState): Handlers<typeof Api.Functions> => ({
  list: ({ params, query }) =>
    Effect.gen(function* () {
      const state = yield* read(fake, (state) =>
        Either.map(functionsOfBranch(state, params.project_id, params.branch_id), () => state)
      )
      const now = yield* Clock.currentTimeMillis
      const { page } = yield* pageOf(Api.Functions.list, state, "functions", params.branch_id, query, now)
      const last = page[page.length - 1]
      // A full page may have more after it: its last item's time is the next cursor.
      const next = query.limit !== undefined && page.length === query.limit && last !== undefined
      return new Api.FunctionsPage(
        {
          functions: page.map((fn) => functionAt(fn, now)),
          pagination: new CursorPagination(next ? { next: timeAt(last.created_at) } : {}, unchecked)
        },
        unchecked
      )
    }),
  get: ({ params }) =>
    read(fake, (state, now) =>
      Either.map(
        functionOf(state, params.project_id, params.branch_id, params.slug),
        (fn) => new Api.FunctionResponse({ function: functionAt(fn, now) }, unchecked)
      )
    ),
  update: ({ body, params }) =>
    change(
      fake,
      () => renameFunction(params.project_id, params.branch_id, params.slug, body.name),
      (fn, now) => new Api.FunctionResponse({ function: functionAt(fn, now) }, unchecked)
    ),
  delete: ({ params }) => change(fake, () => deleteFunction(params.project_id, params.branch_id, params.slug)),
  createDeployment: ({ body, params }) =>
    change(
      fake,
      (dice) => deployFunction(params.project_id, params.branch_id, params.slug, body, dice),
      (deployment, now) => new Api.FunctionDeploymentResponse({ deployment: deploymentAt(deployment, now) }, unchecked)
    )
})

/** Which kinds of key may call each Functions endpoint, and what another gets (docs/contract.md §21). */
export const functionsAuthorizations: Authorizations<typeof Api.Functions> = {
  list: anyKey,
  get: anyKey,
  update: anyKey,
  delete: anyKey,
  createDeployment: anyKey
}
