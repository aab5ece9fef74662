/**
 * Connections: the connection URI of a branch's database for a role
 * (`GET /projects/{project_id}/connection_uri`, `docs/contract.md` §13.1). The URI holds the
 * role's password: it is a `Redacted<string>` from the wire on, which no log, span, error or
 * `JSON.stringify` shows; `Redacted.value` reads it where a Postgres driver needs it.
 *
 * Its own service rather than a method of `Projects`: the answer is a secret, not a project's
 * record, and the branch, compute endpoint, role and database it names are all optional parts of
 * one query (`docs/design.md` §1.2).
 *
 * @since 0.3.0
 */
import { Endpoint } from "@dbplatform/core"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { DbPlatformClient } from "./DbPlatformClient.js"
import * as Resource from "./Resource.js"

/**
 * The `Connections` service (§13.1). Its method sends one request and fails with exactly the
 * errors of its endpoint: any call's (`CallError`), `InvalidRequest` for input the table's
 * schemas refuse (nothing is sent), `NotFound`, `Forbidden` and `BadRequest`.
 *
 * @since 0.3.0
 */
export interface Service {
  /**
   * `GET /projects/{p}/connection_uri` (`query`: `database_name`, `role_name`, `branch_id?` (the
   * project's default branch), `endpoint_id?` (the branch's `read_write` compute endpoint),
   * `pooled?` (through the connection pooler's host)): `{ uri }`, the URI a `Redacted<string>`,
   * `postgresql://role:password@host/database?sslmode=require`. 404 `NotFound` for an unknown
   * branch, compute endpoint, role or database.
   */
  readonly uri: Resource.Method<typeof Endpoint.getConnectionUri>
}

/**
 * The tag of the {@link Service}; `yield* Connections.Connections` in a program, provided by
 * {@link layer} or `DbPlatform.layer`.
 *
 * @since 0.3.0
 * @category tags
 */
export class Connections extends Context.Tag("@dbplatform/client/Connections")<Connections, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.3.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.map(DbPlatformClient, (client) =>
  Connections.of(Resource.methods(client, Endpoint.connections))
)

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.3.0
 * @category layers
 */
export const layer: Layer.Layer<Connections, never, DbPlatformClient> = Layer.effect(Connections, make)
