/**
 * The project permission endpoints: who else has access to a project, by email; grant and revoke
 * (`docs/contract.md` §22.1).
 *
 * @since 0.5.0
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import { Email, ProjectIdParameter, projectParams, withMessage } from "../internal/input.js"
import { Timestamp } from "../Timestamp.js"

/**
 * An access to a project granted to a user by email: its `id`, `granted_to_email`, `granted_at`
 * and, once revoked, `revoked_at` (§22.1).
 *
 * @since 0.5.0
 * @category schemas
 */
export class ProjectPermission extends Schema.Class<ProjectPermission>("ProjectPermission")({
  id: Schema.String,
  granted_to_email: Schema.String,
  granted_at: Timestamp,
  revoked_at: Schema.optional(Timestamp)
}) {}

/**
 * Answer of `GET /projects/{project_id}/permissions`: `{ project_permissions }` (§22.1).
 *
 * @since 0.5.0
 * @category schemas
 */
export class ProjectPermissionList extends Schema.Class<ProjectPermissionList>("ProjectPermissionList")({
  project_permissions: Schema.Array(ProjectPermission)
}) {}

/**
 * Body of `POST /projects/{project_id}/permissions`: `{ email }` (§22.1).
 *
 * @since 0.5.0
 * @category schemas
 */
export const GrantPermissionRequest = Schema.Struct({ email: Email }).annotations({
  identifier: "GrantPermissionRequest"
})

/**
 * The project permission endpoints (§22.1).
 *
 * @since 0.5.0
 * @category endpoints
 */
export const ProjectPermissions = Endpoint.group("ProjectPermissions", {
  /**
   * `GET /projects/{project_id}/permissions`: the accesses granted to the project and not
   * revoked, `{ project_permissions }`, all at once (§22.1). 404 for an unknown project.
   */
  list: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/permissions",
    params: projectParams,
    success: ProjectPermissionList,
    errors: ["NotFound", "Forbidden", "BadRequest"],
    list: { items: (answer) => answer.project_permissions }
  }),
  /**
   * `POST /projects/{project_id}/permissions`: grants access to the project to the user with
   * `email`; answers the `ProjectPermission` (§22.1). 400 for a malformed email, 404 for an
   * unknown project. Granting an email that has access already answers its permission as it is.
   */
  grant: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/permissions",
    params: projectParams,
    body: GrantPermissionRequest,
    success: ProjectPermission,
    errors: ["BadRequest", "NotFound", "Forbidden"]
  }),
  /**
   * `DELETE /projects/{project_id}/permissions/{permission_id}`: revokes an access; answers the
   * `ProjectPermission` with its `revoked_at` (§22.1). 404 for an unknown project or permission
   * (one revoked already included).
   */
  revoke: Endpoint.make({
    method: "DELETE",
    route: "/projects/{project_id}/permissions/{permission_id}",
    params: Schema.Struct({
      project_id: ProjectIdParameter,
      permission_id: Schema.String.pipe(Schema.minLength(1)).annotations(withMessage("must not be empty"))
    }),
    success: ProjectPermission,
    errors: ["BadRequest", "NotFound", "Forbidden"],
    about: (permission) => ({ permission_id: permission.id })
  })
})
