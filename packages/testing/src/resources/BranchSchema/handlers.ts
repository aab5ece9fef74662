/**
 * The fake's branch schema routes (docs/contract.md §24): each decodes with its entry of core's
 * `Api.BranchSchema` and reads the state with `steps.ts`.
 */
import type { Api } from "@dbplatform/core"
import { compareSchemas, readSchema } from "./steps.js"
import { type Handlers } from "../../engine/route.js"
import type { FakeState } from "../../engine/state.js"
import { read } from "../../engine/change.js"

/** How the fake answers each entry of core's `Api.BranchSchema`, over `fake`. */
export const branchSchemaHandlers = (fake: FakeState): Handlers<typeof Api.BranchSchema> => ({
  get: ({ params, query }) =>
    read(fake, (state, now) => readSchema(state, now, params.project_id, params.branch_id, query)),
  compare: ({ params, query }) =>
    read(fake, (state, now) => compareSchemas(state, now, params.project_id, params.branch_id, query))
})
