/**
 * The fake's project transfer routes (docs/contract.md §22.4): each decodes with its entry of
 * core's `Api.ProjectTransfers` and runs a step of `steps.ts`, or reads the state.
 */
import { Api } from "@dbplatform/core"
import * as Effect from "effect/Effect"
import { acceptTransferRequest, createTransferRequest, transferProjects } from "./steps.js"
import { type Handlers } from "../../engine/route.js"
import type { FakeState } from "../../engine/state.js"
import { at } from "../../engine/wire.js"
import { change } from "../../engine/change.js"

/** Skips the checks of the answers' constructors: the fake builds them from its own state. */
const unchecked = true

/** How the fake answers the project transfer endpoints, over `fake`. */
export const transferHandlers = (fake: FakeState): Handlers<typeof Api.ProjectTransfers> => ({
  transfer: ({ body, params }) =>
    change(
      fake,
      () => transferProjects(params.source_org_id, body.destination_org_id, body.project_ids),
      () => new Api.ProjectsTransferred({}, unchecked)
    ),
  createRequest: ({ body, params }) =>
    change(
      fake,
      (dice) => createTransferRequest(params.project_id, body.ttl_seconds, dice),
      (request) =>
        new Api.ProjectTransferRequest(
          {
            id: request.id,
            project_id: params.project_id,
            created_at: at(request.created_at),
            expires_at: at(request.expires_at)
          },
          unchecked
        )
    ),
  acceptRequest: ({ body, params }) =>
    Effect.asVoid(
      change(
        fake,
        () => acceptTransferRequest(params.project_id, params.request_id, body.org_id),
        () => undefined
      )
    )
})
