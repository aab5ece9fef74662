/**
 * The Data API endpoints: the HTTP (REST) interface a branch serves over one of its databases,
 * created, read, updated and deleted per database (`docs/contract.md` §25).
 *
 * @since 0.5.0
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import { branchParams, NameParameter, withMessage } from "../internal/input.js"
import { AbsoluteUrl } from "../internal/url.js"

/** A database of a branch in a path: `project_id`, `branch_id` and `database_name`. */
const dataApiParams = Schema.Struct({ ...branchParams.fields, database_name: NameParameter })

/**
 * How the Data API checks a request's token, as the platform names it: `neon_auth` (the
 * branch's own auth service, §26) or `external` (an identity provider's JWKS); open: a value
 * the platform adds later decodes as its string (§25).
 *
 * @since 0.5.0
 * @category schemas
 */
export type DataApiAuthProvider = "neon_auth" | "external" | (string & {})

/**
 * Open enum schema of {@link DataApiAuthProvider}.
 *
 * @since 0.5.0
 * @category schemas
 */
export const DataApiAuthProvider: Schema.Schema<DataApiAuthProvider> = Schema.Union(
  Schema.String,
  Schema.Literal("neon_auth", "external")
).annotations({ identifier: "DataApiAuthProvider" })

/** A non-negative integer setting. */
const Count = Schema.Int.pipe(Schema.nonNegative()).annotations(withMessage("must be a non-negative integer"))

/**
 * The settings of a Data API, each optional (absent: the platform's default): aggregates on
 * (`db_aggregates_enabled`, default `true`), the role of anonymous requests (`db_anon_role`,
 * default `anonymous`), extra schemas on the search path (`db_extra_search_path`), the most rows
 * one request answers (`db_max_rows`), the schemas it exposes (`db_schemas`, default
 * `["public"]`), the JWT claim holding the role (`jwt_role_claim_key`, default `.role`), how
 * long a JWT is cached (`jwt_cache_max_lifetime`, seconds), the OpenAPI mode (`openapi_mode`,
 * e.g. `ignore-privileges` or `disabled`, the default), the CORS origins
 * (`server_cors_allowed_origins`) and `Server-Timing` headers (`server_timing_enabled`) (§25).
 *
 * @since 0.5.0
 * @category schemas
 */
export class DataApiSettings extends Schema.Class<DataApiSettings>("DataApiSettings")({
  db_aggregates_enabled: Schema.optional(Schema.Boolean),
  db_anon_role: Schema.optional(Schema.String),
  db_extra_search_path: Schema.optional(Schema.String),
  db_max_rows: Schema.optional(Count),
  db_schemas: Schema.optional(Schema.Array(Schema.String)),
  jwt_role_claim_key: Schema.optional(Schema.String),
  jwt_cache_max_lifetime: Schema.optional(Count),
  openapi_mode: Schema.optional(Schema.String),
  server_cors_allowed_origins: Schema.optional(Schema.String),
  server_timing_enabled: Schema.optional(Schema.Boolean)
}) {}

/**
 * Body of `POST …/data-api/{database_name}`, every field optional: `auth_provider`
 * ({@link DataApiAuthProvider}), for an `external` one its `jwks_url` (an absolute URL),
 * `provider_name` and `jwt_audience` (tokens with another audience are refused; tokens without
 * one are still taken), `add_default_grants` (grant the tables of `public` to authenticated
 * users, default `false`), `skip_auth_schema` (create no auth schema and row-level-security
 * functions, default `false`) and `settings` (§25).
 *
 * @since 0.5.0
 * @category schemas
 */
export class DataApiCreateRequest extends Schema.Class<DataApiCreateRequest>("DataApiCreateRequest")({
  auth_provider: Schema.optional(DataApiAuthProvider),
  jwks_url: Schema.optional(AbsoluteUrl),
  provider_name: Schema.optional(Schema.String),
  jwt_audience: Schema.optional(Schema.String),
  add_default_grants: Schema.optional(Schema.Boolean),
  skip_auth_schema: Schema.optional(Schema.Boolean),
  settings: Schema.optional(DataApiSettings)
}) {}

/**
 * Body of `PATCH …/data-api/{database_name}`: `settings` (optional), each given setting replacing
 * the one before; the schema cache is refreshed either way (§25).
 *
 * @since 0.5.0
 * @category schemas
 */
export class DataApiUpdateRequest extends Schema.Class<DataApiUpdateRequest>("DataApiUpdateRequest")({
  settings: Schema.optional(DataApiSettings)
}) {}

/**
 * Answer of `POST …/data-api/{database_name}`: `{ url }`, where the Data API serves (§25).
 *
 * @since 0.5.0
 * @category schemas
 */
export class DataApiCreated extends Schema.Class<DataApiCreated>("DataApiCreated")({
  url: Schema.String
}) {}

/**
 * Answer of `GET …/data-api/{database_name}`: its `url`, its deployment `status` (a string the
 * document does not enumerate; the fake answers `ready`), and, where the platform sends them, its
 * `settings` and the schemas it can expose (`available_schemas`); either may be `null` (§25).
 *
 * @since 0.5.0
 * @category schemas
 */
export class DataApiConfiguration extends Schema.Class<DataApiConfiguration>("DataApiConfiguration")({
  url: Schema.String,
  status: Schema.String,
  settings: Schema.optional(Schema.NullOr(DataApiSettings)),
  available_schemas: Schema.optional(Schema.NullOr(Schema.Array(Schema.String)))
}) {}

/**
 * The empty object `{}` an update and a delete of a Data API answer with (§25).
 *
 * @since 0.5.0
 * @category schemas
 */
export const DataApiEmpty = Schema.Struct({}).annotations({ identifier: "DataApiEmpty" })

/**
 * The Data API endpoints, one Data API per database of a branch (`docs/contract.md` §25).
 *
 * @since 0.5.0
 * @category endpoints
 */
export const DataApi = Endpoint.group("DataApi", {
  /**
   * `GET /projects/{project_id}/branches/{branch_id}/data-api/{database_name}`: the database's
   * Data API, `{ url, status, settings?, available_schemas? }` (§25). 404 for an unknown project,
   * branch or database, or a database without a Data API; 400 for a malformed id.
   */
  get: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/branches/{branch_id}/data-api/{database_name}",
    params: dataApiParams,
    success: DataApiConfiguration,
    errors: ["NotFound", "BadRequest"]
  }),
  /**
   * `POST /projects/{project_id}/branches/{branch_id}/data-api/{database_name}`: creates the
   * database's Data API; answers 201 `{ url }` (§25). 400 for a body the server refuses (an
   * `external` provider without `jwks_url`, `neon_auth` on a branch without auth), 404 for an
   * unknown project, branch or database, 409 when the database has a Data API already, 423 while
   * a conflicting operation runs.
   */
  create: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/branches/{branch_id}/data-api/{database_name}",
    params: dataApiParams,
    body: DataApiCreateRequest,
    success: DataApiCreated,
    statuses: [201],
    errors: ["BadRequest", "NotFound", "Conflict", "Locked"]
  }),
  /**
   * `PATCH /projects/{project_id}/branches/{branch_id}/data-api/{database_name}`: changes its
   * settings and refreshes its schema cache; answers **201** with `{}`, as the platform does
   * (§25). 404 for an unknown project, branch or database, or one without a Data API; 400 for a
   * body the server refuses; 423 while a conflicting operation runs.
   */
  update: Endpoint.make({
    method: "PATCH",
    route: "/projects/{project_id}/branches/{branch_id}/data-api/{database_name}",
    params: dataApiParams,
    body: DataApiUpdateRequest,
    success: DataApiEmpty,
    statuses: [201],
    errors: ["BadRequest", "NotFound", "Locked"]
  }),
  /**
   * `DELETE /projects/{project_id}/branches/{branch_id}/data-api/{database_name}`: deletes the
   * database's Data API (its URL stops answering); answers 200 `{}` (§25). 404 for an unknown
   * project, branch or database, or one without a Data API; 400 for a malformed id; 423 while a
   * conflicting operation runs.
   */
  delete: Endpoint.make({
    method: "DELETE",
    route: "/projects/{project_id}/branches/{branch_id}/data-api/{database_name}",
    params: dataApiParams,
    success: DataApiEmpty,
    errors: ["BadRequest", "NotFound", "Locked"]
  })
})
