/**
 * The kinds of record of the Roles group the fake keeps (`engine/kinds.ts`): each one's shape as a
 * `Snapshot` holds it, and its entry of the table of kinds (`internal/kinds.ts`).
 */
import { DecodeIssue, Role, RoleCreateRequest } from "@dbplatform/core"
import * as Schema from "effect/Schema"
import { kind, newestFirst, SnapshotTime } from "../../engine/kinds.js"

/**
 * A role of a branch (a Postgres user). `id` is `{branch_id}/{name}`: a role is named uniquely
 * on its branch, and a branch's roles are copied to a child under the child's id. `password` is
 * kept so the fake can reveal it (docs/contract.md §15.2): a state that holds roles holds secrets.
 * Core's `Role` as the fake keeps it: the password in clear where core's is `Redacted`, and
 * always there, as `protected`; ids plain strings, times in epoch ms. Since 0.5.0, `no_login`
 * (optional, core's schema of it): a role that cannot log in, which has no password (`password`
 * is empty).
 */
export const SnapshotRole = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  branch_id: Schema.String,
  name: Role.fields.name,
  password: Schema.String,
  protected: Schema.Boolean,
  created_at: SnapshotTime,
  updated_at: SnapshotTime,
  ...RoleCreateRequest.fields.role.pick("no_login").fields
}).annotations({ identifier: "SnapshotRole" })

export const roles = kind({
  label: "role",
  schema: SnapshotRole,
  id: Schema.String,
  idOf: (role) => role.id,
  parent: { kind: "branches", of: (role) => role.branch_id },
  rank: newestFirst,
  check: (role) =>
    role.id === `${role.branch_id}/${role.name}`
      ? []
      : [`role "${DecodeIssue.excerpt(role.id)}": its id is not {branch_id}/{name}`]
})

declare module "../../engine/kinds.js" {
  interface Kinds {
    readonly roles: typeof roles
  }
}
