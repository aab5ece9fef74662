/**
 * The fake's project permission routes (docs/contract.md §22.1): each decodes with its entry of
 * core's `Api.ProjectPermissions` and runs a step of `steps.ts`, or reads the state.
 */
import { Api } from "@dbplatform/core"
import * as Either from "effect/Either"
import { grantPermission, permissionsOf, revokePermission, type StoredPermission } from "./steps.js"
import { type Handlers } from "../../engine/route.js"
import type { FakeState } from "../../engine/state.js"
import { at } from "../../engine/wire.js"
import { change, read } from "../../engine/change.js"

/** Skips the checks of the answers' constructors: the fake builds them from its own state. */
const unchecked = true

/** A permission as the routes answer it; `revokedAt` (epoch ms) once revoked. */
const permissionOf = (permission: StoredPermission, revokedAt?: number) =>
  new Api.ProjectPermission(
    {
      id: permission.id,
      granted_to_email: permission.granted_to_email,
      granted_at: at(permission.granted_at),
      ...(revokedAt === undefined ? {} : { revoked_at: at(revokedAt) })
    },
    unchecked
  )

/** How the fake answers the project permission endpoints, over `fake`. */
export const permissionHandlers = (fake: FakeState): Handlers<typeof Api.ProjectPermissions> => ({
  list: ({ params }) =>
    read(fake, (state) =>
      Either.map(
        permissionsOf(state, params.project_id),
        (permissions) =>
          new Api.ProjectPermissionList({ project_permissions: permissions.map((p) => permissionOf(p)) }, unchecked)
      )
    ),
  grant: ({ body, params }) =>
    change(
      fake,
      (dice) => grantPermission(params.project_id, body.email, dice),
      (permission) => permissionOf(permission)
    ),
  revoke: ({ params }) =>
    change(
      fake,
      () => revokePermission(params.project_id, params.permission_id),
      ({ permission, revoked_at }) => permissionOf(permission, revoked_at)
    )
})
