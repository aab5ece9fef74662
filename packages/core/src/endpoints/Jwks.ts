/**
 * The JWKS endpoints: the JSON Web Key Sets of a project's own identity provider, against which
 * its compute endpoints verify the JWTs an app authenticates with (`docs/contract.md` §27).
 *
 * @since 0.5.0
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import { BranchIdInput, projectParams, withMessage } from "../internal/input.js"
import { HttpsUrl } from "../internal/url.js"
import { Operation } from "../Operation.js"
import { Timestamp } from "../Timestamp.js"

/**
 * A JWKS of a project: its `id`, the project, the branch it is scoped to (absent: every
 * branch), the URL listing the keys (`jwks_url`), the identity provider's name
 * (`provider_name`: Clerk, Auth0...), when it was created and last changed, the audience a JWT
 * must have (`jwt_audience`), and the roles it maps to (`role_names`) (§27).
 *
 * @since 0.5.0
 * @category schemas
 */
export class ProjectJwks extends Schema.Class<ProjectJwks>("ProjectJwks")({
  id: Schema.String,
  project_id: Schema.String,
  branch_id: Schema.optional(Schema.String),
  jwks_url: Schema.String,
  provider_name: Schema.String,
  created_at: Timestamp,
  updated_at: Timestamp,
  jwt_audience: Schema.optional(Schema.String),
  role_names: Schema.optional(Schema.Array(Schema.String))
}) {}

/**
 * Answer of `GET /projects/{project_id}/jwks`: `{ jwks }`, every JWKS of the project (§27).
 *
 * @since 0.5.0
 * @category schemas
 */
export class JwksList extends Schema.Class<JwksList>("JwksList")({
  jwks: Schema.Array(ProjectJwks)
}) {}

/**
 * Answer of `POST /projects/{project_id}/jwks` (201): the JWKS added and the operations that
 * reconfigure the compute endpoints it applies to (§27).
 *
 * @since 0.5.0
 * @category schemas
 */
export class JwksOperations extends Schema.Class<JwksOperations>("JwksOperations")({
  jwks: ProjectJwks,
  operations: Schema.Array(Operation)
}) {}

/**
 * Body of `POST /projects/{project_id}/jwks`: `jwks_url` (an `https://` URL answering a JSON Web
 * Key Set), `provider_name`, and optionally `branch_id` (scope it to one branch), `jwt_audience`,
 * and, kept for row-level security only and deprecated by the platform, `role_names` (at most
 * 10; default `authenticator`, `authenticated` and `anonymous`) and `skip_role_creation`
 * (default `false`) (§27).
 *
 * @since 0.5.0
 * @category schemas
 */
export class JwksAddRequest extends Schema.Class<JwksAddRequest>("JwksAddRequest")({
  jwks_url: HttpsUrl,
  provider_name: Schema.String.pipe(Schema.minLength(1)).annotations(withMessage("must not be empty")),
  branch_id: Schema.optional(BranchIdInput),
  jwt_audience: Schema.optional(Schema.String),
  role_names: Schema.optional(
    Schema.Array(Schema.String).pipe(Schema.maxItems(10)).annotations(withMessage("must be at most 10 role names"))
  ),
  skip_role_creation: Schema.optional(Schema.Boolean)
}) {}

/**
 * The JWKS endpoints of a project (`docs/contract.md` §27).
 *
 * @since 0.5.0
 * @category endpoints
 */
export const Jwks = Endpoint.group("Jwks", {
  /**
   * `GET /projects/{project_id}/jwks`: the project's JWKS, `{ jwks }` (§27). 404 for an unknown
   * project, 400 for a malformed id.
   */
  list: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/jwks",
    params: projectParams,
    success: JwksList,
    errors: ["NotFound", "BadRequest"],
    list: { items: (answer) => answer.jwks }
  }),
  /**
   * `POST /projects/{project_id}/jwks`: adds a JWKS; answers 201 with it and the operations
   * started: the compute endpoints it applies to take the new configuration (`apply_config`
   * each, the fake's choice of action: the reference names none) (§27). 400 for a body the
   * server refuses, 404 for an unknown project or branch, 423 while a conflicting operation runs.
   */
  add: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/jwks",
    params: projectParams,
    body: JwksAddRequest,
    success: JwksOperations,
    statuses: [201],
    startsOperations: true,
    errors: ["BadRequest", "NotFound", "Locked"]
  }),
  /**
   * `DELETE /projects/{project_id}/jwks/{jwks_id}`: removes a JWKS (JWTs signed by its keys stop
   * authenticating); answers 200 with it, and starts no operation (§27). 404 for an unknown
   * project or JWKS, 423 while a conflicting operation runs.
   */
  delete: Endpoint.make({
    method: "DELETE",
    route: "/projects/{project_id}/jwks/{jwks_id}",
    params: Schema.Struct({
      ...projectParams.fields,
      jwks_id: Schema.String.pipe(Schema.minLength(1)).annotations(withMessage("must not be empty"))
    }),
    success: ProjectJwks,
    errors: ["BadRequest", "NotFound", "Locked"],
    about: (jwks) => ({ jwks_id: jwks.id })
  })
})
