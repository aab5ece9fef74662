/**
 * Roles: the Postgres roles of a branch: list, create, read, delete, reveal and reset a role's
 * password (`docs/contract.md` §15.2). Each method is core's table entry (`Endpoint.roles`): its
 * input, answer and exact errors come from there (`docs/design.md` §1.2). Passwords are
 * `Redacted` from the wire on.
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
 * The `Roles` service (§15.2). Each method sends one request and fails with exactly the errors of
 * its endpoint: any call's (`CallError`), `InvalidRequest` for input the table's schemas refuse (a
 * name longer than 63 bytes...; nothing is sent), and the statuses its entry declares. Every
 * answer about a role is checked to be about the branch and role asked for; another is a
 * `MalformedResponse`. A password (`role.password` of a create or a reset, `password` of a
 * reveal) is a `Redacted<string>`: no log, span, error or `JSON.stringify` shows it; read it with
 * `Redacted.value` where a driver needs it. A 423 is retried by the client's retry policy; wait
 * for the `apply_config` an answer carries before connecting with the role (a reset password
 * works once it has finished).
 *
 * @since 0.3.0
 */
export interface Service {
  /** `GET /projects/{p}/branches/{b}/roles`: `{ roles }`, the branch's roles, without passwords. */
  readonly list: Resource.Method<typeof Endpoint.listRoles>
  /** `POST /projects/{p}/branches/{b}/roles` with `{ role: { name } }` (201): the role with its `password` (`Redacted`, this once) and `operations` (`apply_config`); 409 `Conflict` for a taken name (not retried). */
  readonly create: Resource.Method<typeof Endpoint.createRole>
  /** `GET /projects/{p}/branches/{b}/roles/{role_name}`: `{ role }`, without its password. */
  readonly get: Resource.Method<typeof Endpoint.getRole>
  /** `DELETE /projects/{p}/branches/{b}/roles/{role_name}`: `Some({ role, operations })` (`apply_config`), or `None` on a 204 (no such role); `BadRequest` for a role that owns a database (delete it, or give it another owner, first). */
  readonly delete: Resource.Method<typeof Endpoint.deleteRole>
  /** `GET /projects/{p}/branches/{b}/roles/{role_name}/reveal_password`: `{ password }` (`Redacted`). */
  readonly revealPassword: Resource.Method<typeof Endpoint.revealRolePassword>
  /** `POST /projects/{p}/branches/{b}/roles/{role_name}/reset_password`: the role with its new `password` (`Redacted`) and `operations` (`apply_config`); the old password works until they finish. */
  readonly resetPassword: Resource.Method<typeof Endpoint.resetRolePassword>
}

/**
 * The tag of the {@link Service}; `yield* Roles.Roles` in a program, provided by {@link layer} or
 * `DbPlatform.layer`.
 *
 * @since 0.3.0
 * @category tags
 */
export class Roles extends Context.Tag("@dbplatform/client/Roles")<Roles, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.3.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.map(DbPlatformClient, (client) =>
  Roles.of(
    Resource.methods(client, Endpoint.roles, {
      list: ({ params }, answer) => notAllOf("role", params.branch_id, answer.roles),
      create: ({ params, body }, answer) => notAbout("role", params.branch_id, body.role.name, answer.role),
      get: ({ params }, answer) => notAbout("role", params.branch_id, params.role_name, answer.role),
      delete: ({ params }, answer) =>
        answer._tag === "Some" ? notAbout("role", params.branch_id, params.role_name, answer.value.role) : undefined,
      resetPassword: ({ params }, answer) => notAbout("role", params.branch_id, params.role_name, answer.role)
    })
  )
)

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.3.0
 * @category layers
 */
export const layer: Layer.Layer<Roles, never, DbPlatformClient> = Layer.effect(Roles, make)
