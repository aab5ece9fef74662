/**
 * Roles: the Postgres roles of a branch, the request body that creates one and the answers of
 * the role endpoints (`docs/contract.md` §11.3, §15).
 *
 * @since 0.3.0
 */
import * as Schema from "effect/Schema"
import { BranchId } from "./Ids.js"
import { PostgresName } from "./internal/input.js"
import { openEnum } from "./internal/openEnum.js"
import { Operation } from "./Operation.js"
import { Timestamp } from "./Timestamp.js"

/**
 * How a role authenticates, known today (§15.2): `password`, `oauth`, or `no_login` (a role
 * that cannot log in).
 *
 * @since 0.5.0
 * @category schemas
 */
export const KnownRoleAuthenticationMethod = Schema.Literal("password", "oauth", "no_login")

/**
 * A role's authentication method: one of {@link KnownRoleAuthenticationMethod}, or any other
 * string a newer server sends (kept as is).
 *
 * @since 0.5.0
 * @category schemas
 */
export type RoleAuthenticationMethod = typeof KnownRoleAuthenticationMethod.Type | (string & {})

/**
 * Open enum schema of {@link RoleAuthenticationMethod}.
 *
 * @since 0.5.0
 * @category schemas
 */
export const RoleAuthenticationMethod: Schema.Schema<RoleAuthenticationMethod> = openEnum(
  KnownRoleAuthenticationMethod,
  "RoleAuthenticationMethod"
)

/**
 * A Postgres role of a branch (§11.3). `password` is sent only where the platform reveals it
 * (when the role is created, e.g. with a branch): it decodes to a `Redacted<string>`, which
 * never shows in a log, `String()` or `JSON.stringify`, and encodes back to the string.
 * `protected` roles cannot be changed by users. `authentication_method` (since 0.5.0,
 * {@link RoleAuthenticationMethod}) says how it logs in, where the platform sends it. Unknown
 * fields are ignored.
 *
 * @since 0.3.0
 * @category schemas
 */
export class Role extends Schema.Class<Role>("Role")({
  branch_id: BranchId,
  name: Schema.String,
  // Exact: an optional field is a union with `undefined`, and a union that fails names the value.
  password: Schema.optionalWith(Schema.Redacted(Schema.String), { exact: true }),
  protected: Schema.optional(Schema.Boolean),
  authentication_method: Schema.optional(RoleAuthenticationMethod),
  created_at: Timestamp,
  updated_at: Timestamp
}) {}

/**
 * Answer of `GET /projects/{project_id}/branches/{branch_id}/roles`: `{ roles }`, the branch's
 * roles, without their passwords (§15.2).
 *
 * @since 0.3.0
 * @category schemas
 */
export class RoleList extends Schema.Class<RoleList>("RoleList")({
  roles: Schema.Array(Role)
}) {}

/**
 * Answer of `GET /projects/{project_id}/branches/{branch_id}/roles/{role_name}`: `{ role }`,
 * without its password (§15.2).
 *
 * @since 0.3.0
 * @category schemas
 */
export class RoleEnvelope extends Schema.Class<RoleEnvelope>("RoleEnvelope")({
  role: Role
}) {}

/**
 * Answer of a request that changes a role (create, delete, reset its password): `{ role,
 * operations }`, the role and the operations the request started (`apply_config`). A create
 * and a password reset carry the role's new `password` (`Redacted`), this once (§15.2, §15.3).
 *
 * @since 0.3.0
 * @category schemas
 */
export class RoleOperations extends Schema.Class<RoleOperations>("RoleOperations")({
  role: Role,
  operations: Schema.Array(Operation)
}) {}

/**
 * Answer of `GET /projects/{project_id}/branches/{branch_id}/roles/{role_name}/reveal_password`:
 * `{ password }`, the role's current password, decoded to a `Redacted<string>` (§15.2).
 *
 * @since 0.3.0
 * @category schemas
 */
export class RolePassword extends Schema.Class<RolePassword>("RolePassword")({
  password: Schema.Redacted(Schema.String)
}) {}

/**
 * Body of `POST /projects/{project_id}/branches/{branch_id}/roles` (§15.2): `{ role: { name,
 * no_login? } }`, a name of 1 to 63 bytes (UTF-8), unique on the branch; since 0.5.0,
 * `no_login: true` creates a role that cannot log in.
 *
 * @since 0.3.0
 * @category schemas
 */
export const RoleCreateRequest = Schema.Struct({
  role: Schema.Struct({ name: PostgresName, no_login: Schema.optional(Schema.Boolean) })
}).annotations({ identifier: "RoleCreateRequest" })
