/**
 * The fake's storage and AI gateway routes (docs/contract.md §28.4, §28.5): every branch of a
 * project the key reaches has object storage, served by the fake's own data plane
 * (`Buckets/dataPlane.ts`, under the origin the request was sent to), and an AI gateway root the
 * fake names but does not serve. An unknown project or branch is the platform's 404 with its
 * `reason`, `branch_not_found`; the fake has no organization without the entitlement, and no
 * region without storage or a gateway.
 */
import { Api } from "@dbplatform/core"
import * as Either from "effect/Either"
import { type Authorizations, anyKey } from "../engine/authorization.js"
import { read } from "../engine/change.js"
import { branchOf } from "../engine/records.js"
import { Refusal } from "../engine/refusal.js"
import type { Handlers } from "../engine/route.js"
import type { FakeState } from "../engine/state.js"
import { Status } from "../engine/status.js"
import { unchecked } from "../engine/wire.js"
import { dataPlanePath } from "./Buckets/handlers.js"
import { s3Region } from "./Buckets/steps.js"

/** A 404 with the platform's `code` and `reason` (docs/contract.md §28.4, §28.5). */
const unavailable = (code: string, message: string, reason: string) =>
  new Refusal({ status: Status.notFound, code, message, details: { reason } })

/** How the fake answers core's `Api.Storage`, over `fake`. */
export const storageHandlers = (fake: FakeState): Handlers<typeof Api.Storage> => ({
  get: ({ origin, params }) =>
    read(fake, (state) =>
      Either.match(branchOf(state, params.project_id, params.branch_id), {
        onLeft: () =>
          Either.left(unavailable("STORAGE_NOT_ENABLED", "project or branch not found", "branch_not_found")),
        onRight: ([project, branch]) =>
          Either.right(
            new Api.BranchStorage(
              {
                enabled: true,
                s3_endpoint: `${origin}${dataPlanePath}/${branch.id}`,
                region: s3Region(project.region_id),
                force_path_style: true
              },
              unchecked
            )
          )
      })
    )
})

/** How the fake answers core's `Api.AiGateway`, over `fake`. */
export const aiGatewayHandlers = (fake: FakeState): Handlers<typeof Api.AiGateway> => ({
  get: ({ origin, params }) =>
    read(fake, (state) =>
      Either.match(branchOf(state, params.project_id, params.branch_id), {
        onLeft: () =>
          Either.left(unavailable("AI_GATEWAY_NOT_ENABLED", "project or branch not found", "branch_not_found")),
        onRight: ([, branch]) =>
          Either.right(
            new Api.BranchAiGateway({ enabled: true, base_url: `${origin}/_ai_gateway/${branch.id}` }, unchecked)
          )
      })
    )
})

/** Which kinds of key may read a branch's storage (docs/contract.md §21). */
export const storageAuthorizations: Authorizations<typeof Api.Storage> = { get: anyKey }

/** Which kinds of key may read a branch's AI gateway (docs/contract.md §21). */
export const aiGatewayAuthorizations: Authorizations<typeof Api.AiGateway> = { get: anyKey }
