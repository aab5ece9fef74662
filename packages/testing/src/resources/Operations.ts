/**
 * The fake's operation routes (docs/contract.md §2.5, §10.5): a project's operations, newest
 * first, as they are at the time of the request. The control plane runs them
 * (`engine/operations.ts`, `engine/controlPlane.ts`).
 */
import type { Api } from "@dbplatform/core"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { pageOf } from "../engine/pagination.js"
import { type Handlers } from "../engine/route.js"
import { type FakeState, get } from "../engine/state.js"
import { operationEnvelope, operationsPage } from "../engine/wire.js"
import { notFound } from "../engine/refusal.js"
import { withProject } from "../engine/records.js"
import { read } from "../engine/change.js"

/** How the fake answers the operation endpoints of `group`, over `fake`. */
export const operationHandlers = (fake: FakeState, group: typeof Api.Operations): Handlers<typeof Api.Operations> => ({
  list: ({ params, query }) =>
    Effect.gen(function* () {
      const state = yield* read(fake, (state) => withProject(state, params.project_id))
      const now = yield* Clock.currentTimeMillis
      const { page, next } = yield* pageOf(group.list, state, "operations", params.project_id, query, now)
      return operationsPage(page, next, now)
    }),
  get: ({ params }) =>
    Effect.gen(function* () {
      const state = yield* read(fake, (state) => withProject(state, params.project_id))
      const operation = get(state, "operations", params.operation_id)
      if (operation === undefined || operation.project_id !== params.project_id) {
        return yield* notFound("operation")
      }
      return operationEnvelope(operation, yield* Clock.currentTimeMillis)
    })
})
