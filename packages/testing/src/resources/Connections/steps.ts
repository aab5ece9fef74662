/**
 * Connection strings in the fake (docs/contract.md §13): a role, the password the fake keeps for
 * it, a database of the same branch and a compute endpoint's host make a connection URI,
 * `postgresql://role:password@host/database?sslmode=require`. `GET /projects/{project_id}/connection_uri`
 * reads one ({@link connectionUri}); a branch creation answers one per database of the new branch
 * when it creates a `read_write` compute endpoint ({@link connectionsOf}).
 */
import { ConnectionDetails, ConnectionParameters, ConnectionUri } from "@dbplatform/core"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import { defaultBranch } from "../Branches/steps.js"
import {
  get,
  itemsOf,
  type State,
  type StoredDatabase,
  type StoredEndpoint,
  type StoredProject,
  type StoredRole
} from "../../engine/state.js"
import { endpointHost, unchecked } from "../../engine/wire.js"
import { notFound, type Refusal } from "../../engine/refusal.js"
import { branchOf, projectOf } from "../../engine/records.js"

/** Where a connection goes: the compute endpoint, the role and the database, of one project. */
export interface Connection {
  readonly project: StoredProject
  readonly endpointId: string
  readonly role: StoredRole
  readonly database: StoredDatabase
}

/**
 * The connection URI of `connection`: `postgresql://role:password@host/database?sslmode=require`,
 * the role, password and database URL-encoded, `host` the compute endpoint's (the pooler's with
 * `pooled`).
 */
export const uriOf = ({ database, endpointId, project, role }: Connection, pooled: boolean): string =>
  `postgresql://${encodeURIComponent(role.name)}:${encodeURIComponent(role.password)}@${endpointHost(endpointId, project, pooled)}/${encodeURIComponent(database.name)}?sslmode=require`

/** `connection` as a branch creation answers it: the direct URI and its parts (docs/contract.md §11.3). */
export const connectionDetails = (connection: Connection): ConnectionDetails =>
  new ConnectionDetails(
    {
      connection_uri: Redacted.make(uriOf(connection, false)),
      connection_parameters: new ConnectionParameters(
        {
          database: connection.database.name,
          role: connection.role.name,
          host: endpointHost(connection.endpointId, connection.project),
          pooler_host: endpointHost(connection.endpointId, connection.project, true),
          password: Redacted.make(connection.role.password)
        },
        unchecked
      )
    },
    unchecked
  )

/**
 * The connections a branch creation answers (docs/contract.md §13.2): through the `read_write`
 * compute endpoint it created, one per database of the new branch, as its owner role; none
 * without such an endpoint (a branch's database always has its owner among the branch's roles).
 */
export const connectionsOf = (
  project: StoredProject,
  endpoints: ReadonlyArray<StoredEndpoint>,
  roles: ReadonlyArray<StoredRole>,
  databases: ReadonlyArray<StoredDatabase>
): ReadonlyArray<Connection> => {
  const readWrite = endpoints.find((endpoint) => endpoint.type === "read_write")
  if (readWrite === undefined) return []
  return databases.flatMap((database) => {
    const role = roles.find((role) => role.name === database.owner_name)
    return role === undefined ? [] : [{ project, endpointId: readWrite.id, role, database }]
  })
}

/** What `GET /projects/{project_id}/connection_uri` asks for (docs/contract.md §13.1). */
export interface ConnectionQuery {
  readonly database_name: string
  readonly role_name: string
  readonly branch_id?: string | undefined
  readonly endpoint_id?: string | undefined
  readonly pooled?: boolean | undefined
}

/** The compute endpoint a connection of `branchId` goes through: its `read_write` one, else its first. */
const endpointOfBranch = (state: State, branchId: string): StoredEndpoint | undefined => {
  let first: StoredEndpoint | undefined
  for (const endpoint of itemsOf(state, "endpoints", branchId)) {
    if (endpoint.type === "read_write") return endpoint
    first ??= endpoint
  }
  return first
}

/**
 * The answer of `GET /projects/{project_id}/connection_uri` (docs/contract.md §13.1): the URI of
 * `role_name` to `database_name` on `branch_id` (the project's default branch when absent; the
 * branch of `endpoint_id` when only that is given) through `endpoint_id` (the branch's
 * `read_write` compute endpoint when absent, else its first). 404 for an unknown project, branch,
 * compute endpoint (or one of another branch), role or database, and for a branch without a
 * compute endpoint.
 */
export const connectionUri = (
  state: State,
  projectId: string,
  query: ConnectionQuery
): Either.Either<ConnectionUri, Refusal> =>
  Either.gen(function* () {
    const project = yield* projectOf(state, projectId)
    const asked = query.endpoint_id === undefined ? undefined : get(state, "endpoints", query.endpoint_id)
    if (query.endpoint_id !== undefined && asked?.project_id !== projectId) return yield* notFound("compute endpoint")
    const branchId = query.branch_id ?? asked?.branch_id ?? defaultBranch(state, projectId)?.id
    if (branchId === undefined) return yield* notFound("branch")
    const [, branch] = yield* branchOf(state, projectId, branchId)
    if (asked !== undefined && asked.branch_id !== branch.id) {
      return yield* notFound(`compute endpoint ${asked.id} on branch ${branch.id}`)
    }
    const endpoint = asked ?? endpointOfBranch(state, branch.id)
    if (endpoint === undefined) return yield* notFound(`compute endpoint of branch ${branch.id}`)
    const role = get(state, "roles", `${branch.id}/${query.role_name}`)
    if (role === undefined) return yield* notFound("role")
    let database: StoredDatabase | undefined
    for (const candidate of itemsOf(state, "databases", branch.id)) {
      if (candidate.name === query.database_name) database = candidate
    }
    if (database === undefined) return yield* notFound("database")
    const uri = uriOf({ project, endpointId: endpoint.id, role, database }, query.pooled === true)
    return new ConnectionUri({ uri: Redacted.make(uri) }, unchecked)
  })
