/**
 * The fake's connection route (docs/contract.md §13.1): `GET /projects/{project_id}/connection_uri`,
 * decoded with its entry of core's `Api.Connections`, a read of `steps.ts`.
 */
import type { Api } from "@dbplatform/core"
import { connectionUri } from "./steps.js"
import { type Handlers } from "../../engine/route.js"
import type { FakeState } from "../../engine/state.js"
import { read } from "../../engine/change.js"
import { type Authorizations, anyKey } from "../../engine/authorization.js"

/** How the fake answers the entry of `group` (core's `Api.Connections`), over `fake`. */
export const connectionHandlers = (
  fake: FakeState,
  _group: typeof Api.Connections
): Handlers<typeof Api.Connections> => ({
  uri: ({ params, query }) => read(fake, (state) => connectionUri(state, params.project_id, query))
})

/** Which kinds of key may call each Connections endpoint, and what another gets (docs/contract.md §21). */
export const connectionAuthorizations: Authorizations<typeof Api.Connections> = {
  uri: anyKey
}
