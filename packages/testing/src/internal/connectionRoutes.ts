/**
 * The fake's connection route (docs/contract.md §13.1): `GET /projects/{project_id}/connection_uri`,
 * decoded with its entry of core's table, a read of `connections.ts`.
 */
import type { Endpoint } from "@dbplatform/core"
import { connectionUri } from "./connections.js"
import { read, route } from "./route.js"
import type { FakeState } from "./state.js"

/** The table entries the connection route serves. */
export interface ConnectionTable {
  readonly getConnectionUri: typeof Endpoint.getConnectionUri
}

/** The connection route over `fake`, from `table`. */
export const connectionRoutes = (fake: FakeState, table: ConnectionTable) => [
  route(table.getConnectionUri, ({ params, query }) =>
    read(fake, (state) => connectionUri(state, params.project_id, query))
  )
]
