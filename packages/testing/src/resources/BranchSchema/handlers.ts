/**
 * The fake's branch schema routes (docs/contract.md §24): each decodes with its entry of core's
 * `Api.BranchSchema` and reads the state with `steps.ts`.
 */
import type { Api } from "@dbplatform/core"
import * as Effect from "effect/Effect"
import { compareSchemas, comparisonOf, readSchema } from "./steps.js"
import { type Handlers } from "../../engine/route.js"
import type { FakeState } from "../../engine/state.js"
import { read } from "../../engine/change.js"
import { type Authorizations, anyKey } from "../../engine/authorization.js"

/** How the fake answers each entry of core's `Api.BranchSchema`, over `fake`. */
export const branchSchemaHandlers = (fake: FakeState): Handlers<typeof Api.BranchSchema> => ({
  get: ({ params, query }) =>
    read(fake, (state, now) => readSchema(state, now, params.project_id, params.branch_id, query)),
  compare: ({ params, query }) =>
    Effect.flatMap(
      read(fake, (state, now) => comparisonOf(state, now, params.project_id, params.branch_id, query)),
      compareSchemas
    )
})

/** Which kinds of key may call each BranchSchema endpoint, and what another gets (docs/contract.md §21). */
export const branchSchemaAuthorizations: Authorizations<typeof Api.BranchSchema> = {
  get: anyKey,
  compare: anyKey
}
