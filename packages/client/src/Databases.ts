/**
 * Databases: the Postgres databases of a branch: list, create, read, rename or give another
 * owner, delete (`docs/contract.md` §15.1). Each method is core's table entry
 * (`Endpoint.databases`): its input, answer and exact errors come from there
 * (`docs/design.md` §1.2).
 *
 * @since 0.3.0
 */
import { Endpoint } from "@dbplatform/core"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { DbPlatformClient } from "./DbPlatformClient.js"
import { notAbout, notAllOf } from "./internal/branchItem.js"
import * as Resource from "./Resource.js"

/**
 * The `Databases` service (§15.1). Each method sends one request and fails with exactly the
 * errors of its endpoint: any call's (`CallError`), `InvalidRequest` for input the table's
 * schemas refuse (a name longer than 63 bytes...; nothing is sent), and the statuses its entry
 * declares. Every answer is checked to be about the branch (and database) asked for; another is a
 * `MalformedResponse`. A 423 (the project is busy with another operation) is retried by the
 * client's retry policy; wait for the `apply_config` an answer carries
 * (`Operations.awaitAll(created.operations)`) before using the database.
 *
 * @since 0.3.0
 */
export interface Service {
  /** `GET /projects/{p}/branches/{b}/databases`: `{ databases }`, the branch's databases. */
  readonly list: Resource.Method<typeof Endpoint.listDatabases>
  /** `POST /projects/{p}/branches/{b}/databases` with `{ database: { name, owner_name } }` (201): the database and `operations` (`apply_config`); 409 `Conflict` for a taken name (not retried), 404 `NotFound` for an owner that is not a role of the branch. */
  readonly create: Resource.Method<typeof Endpoint.createDatabase>
  /** `GET /projects/{p}/branches/{b}/databases/{database_name}`: `{ database }`. */
  readonly get: Resource.Method<typeof Endpoint.getDatabase>
  /** `PATCH /projects/{p}/branches/{b}/databases/{database_name}` with `{ database: { name?, owner_name? } }`: the database as changed and `operations` (`apply_config`); 409 for a taken name, 404 for an unknown owner. */
  readonly update: Resource.Method<typeof Endpoint.updateDatabase>
  /** `DELETE /projects/{p}/branches/{b}/databases/{database_name}`: `Some({ database, operations })` (`apply_config`), or `None` on a 204 (no such database). */
  readonly delete: Resource.Method<typeof Endpoint.deleteDatabase>
}

/**
 * The tag of the {@link Service}; `yield* Databases.Databases` in a program, provided by
 * {@link layer} or `DbPlatform.layer`.
 *
 * @since 0.3.0
 * @category tags
 */
export class Databases extends Context.Tag("@dbplatform/client/Databases")<Databases, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.3.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.map(DbPlatformClient, (client) =>
  Databases.of(
    Resource.methods(client, Endpoint.databases, {
      list: ({ params }, answer) => notAllOf("database", params.branch_id, answer.databases),
      create: ({ params, body }, answer) => notAbout("database", params.branch_id, body.database.name, answer.database),
      get: ({ params }, answer) => notAbout("database", params.branch_id, params.database_name, answer.database),
      update: ({ params, body }, answer) =>
        notAbout("database", params.branch_id, body.database.name ?? params.database_name, answer.database),
      delete: ({ params }, answer) =>
        answer._tag === "Some"
          ? notAbout("database", params.branch_id, params.database_name, answer.value.database)
          : undefined
    })
  )
)

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.3.0
 * @category layers
 */
export const layer: Layer.Layer<Databases, never, DbPlatformClient> = Layer.effect(Databases, make)
