/**
 * The Functions endpoints (beta): a branch's functions, keyed by their `slug`, and their
 * deployments (`docs/contract.md` §29). There is no create route: a function's first deployment,
 * which carries its code as a ZIP, brings it about.
 *
 * @since 0.6.0
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import { branchParams, Cursor, PageLimit, withMessage } from "../internal/input.js"
import { CursorPagination } from "../Pagination.js"

/**
 * A function's slug: 1 to 20 of `a-z` and `0-9`, unique on its branch and immutable (§29).
 *
 * @since 0.6.0
 * @category schemas
 */
export const FunctionSlug = Schema.String.pipe(Schema.pattern(/^[a-z0-9]{1,20}$/)).annotations(
  withMessage("must be 1 to 20 of a-z and 0-9")
)

/**
 * A deployment of a function: `id` (its version number, increasing per function), `status`
 * (`pending`, `building`, `completed` or `failed`), `memory_mib` (MiB), `runtime` (`nodejs24`),
 * `created_at`, `environment` (the NAMES of its variables, sorted: values are write-only and never
 * answered) and `error` (only when `failed`) (§29.1).
 *
 * @since 0.6.0
 * @category schemas
 */
export class FunctionDeployment extends Schema.Class<FunctionDeployment>("FunctionDeployment")({
  id: Schema.Int,
  status: Schema.Literal("pending", "building", "completed", "failed"),
  memory_mib: Schema.Int,
  runtime: Schema.String,
  created_at: Schema.String,
  environment: Schema.optional(Schema.Array(Schema.String)),
  error: Schema.optional(Schema.String)
}) {}

/**
 * A function of a branch: `id` (opaque), `slug`, `name` (its display name, the slug when none is
 * set), `invocation_url` (its host's first label is `<branch_id>-<slug>`; `""` when it has no
 * invoke host), `current_deployment` (the newest, whatever its status; absent before the first),
 * `active_deployment` (the newest that completed: the one that serves; absent until one does)
 * and `created_at` (§29.1).
 *
 * @since 0.6.0
 * @category schemas
 */
export class BranchFunction extends Schema.Class<BranchFunction>("BranchFunction")({
  id: Schema.String,
  slug: Schema.String,
  name: Schema.String,
  invocation_url: Schema.String,
  current_deployment: Schema.optional(FunctionDeployment),
  active_deployment: Schema.optional(FunctionDeployment),
  created_at: Schema.String
}) {}

/**
 * Answer of `GET /projects/{project_id}/branches/{branch_id}/functions`: one page of the branch's
 * functions, and `pagination.next`, the cursor of the next page (absent on the last) (§29.2).
 *
 * @since 0.6.0
 * @category schemas
 */
export class FunctionsPage extends Schema.Class<FunctionsPage>("FunctionsPage")({
  functions: Schema.Array(BranchFunction),
  pagination: Schema.optional(CursorPagination)
}) {}

/**
 * `{ function }`: the answer of a function's GET and PATCH (§29.3).
 *
 * @since 0.6.0
 * @category schemas
 */
export class FunctionResponse extends Schema.Class<FunctionResponse>("FunctionResponse")({
  function: BranchFunction
}) {}

/**
 * `{ deployment }`: the answer (201) of a deployment's creation (§29.4).
 *
 * @since 0.6.0
 * @category schemas
 */
export class FunctionDeploymentResponse extends Schema.Class<FunctionDeploymentResponse>("FunctionDeploymentResponse")({
  deployment: FunctionDeployment
}) {}

/**
 * Body of `PATCH .../functions/{slug}`: `name`, the display name (1 to 256 characters, trimmed;
 * blank refused), or `null` to fall back to the slug (§29.3).
 *
 * @since 0.6.0
 * @category schemas
 */
export class FunctionUpdateRequest extends Schema.Class<FunctionUpdateRequest>("FunctionUpdateRequest")({
  name: Schema.NullOr(
    Schema.String.pipe(Schema.minLength(1), Schema.maxLength(256)).annotations(
      withMessage("must be 1 to 256 characters")
    )
  )
}) {}

/**
 * The environment of a deployment: variable names to values, each value `Redacted` (write-only:
 * never answered, never logged). On the wire it is one text part holding a JSON object of
 * strings, `{"KEY":"VALUE"}`; an empty value removes the variable (§29.4).
 *
 * @since 0.6.0
 * @category schemas
 */
export const FunctionEnvironment = Schema.parseJson(
  Schema.Record({ key: Schema.String.pipe(Schema.minLength(1)), value: Schema.Redacted(Schema.String) })
)

/**
 * Body of `POST .../functions/{slug}/deployments`, sent as `multipart/form-data`: `zip` (the
 * code, a ZIP archive's bytes; required by the first deployment, else omitted to keep the
 * latest bundle), `runtime` (`nodejs24`), `environment` ({@link FunctionEnvironment}, values
 * `Redacted`). At least one part; an omitted one keeps the latest deployment's (§29.4).
 *
 * @since 0.6.0
 * @category schemas
 */
export const FunctionDeployRequest = Schema.Struct({
  zip: Schema.optional(Schema.Uint8ArrayFromSelf),
  runtime: Schema.optional(Schema.Literal("nodejs24").annotations(withMessage("must be nodejs24"))),
  environment: Schema.optional(FunctionEnvironment)
})

const functionsPageLimits = { max: 1000, default: undefined }

/** A function of a branch in a path: `project_id`, `branch_id` and `slug`. */
const functionParams = Schema.Struct({ ...branchParams.fields, slug: FunctionSlug })

/**
 * The Functions endpoints of a branch (beta; `docs/contract.md` §29). A branch created from
 * another inherits its functions; a change stays on the branch it is made on.
 *
 * @since 0.6.0
 * @category endpoints
 */
export const Functions = Endpoint.group("Functions", {
  /**
   * `GET /projects/{project_id}/branches/{branch_id}/functions`: one page of the branch's
   * functions, its own and those it inherits (§29.2). Query: `cursor` (a page's
   * `pagination.next`), `limit` (1 to 1000). 404 for an unknown project or branch.
   */
  list: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/branches/{branch_id}/functions",
    params: branchParams,
    query: Schema.Struct({
      cursor: Schema.optional(Cursor),
      limit: Schema.optional(PageLimit(functionsPageLimits))
    }),
    success: FunctionsPage,
    errors: ["NotFound", "BadRequest"],
    pageLimits: functionsPageLimits,
    list: { items: (page) => page.functions, cursor: (page) => page.pagination?.next }
  }),
  /**
   * `GET .../functions/{slug}`: one function, `{ function }`, with its current and active
   * deployments (§29.3). 404 for an unknown function, branch or project.
   */
  get: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/branches/{branch_id}/functions/{slug}",
    params: functionParams,
    success: FunctionResponse,
    errors: ["NotFound", "BadRequest"],
    about: (answer) => ({ slug: answer.function.slug })
  }),
  /**
   * `PATCH .../functions/{slug}`: sets the display `name` (`null`: back to the slug) (§29.3).
   * 404 for a function the branch only inherits (rename it on its own branch), 400 for a blank
   * name.
   */
  update: Endpoint.make({
    method: "PATCH",
    route: "/projects/{project_id}/branches/{branch_id}/functions/{slug}",
    params: functionParams,
    body: FunctionUpdateRequest,
    success: FunctionResponse,
    errors: ["NotFound", "BadRequest"],
    about: (answer) => ({ slug: answer.function.slug })
  }),
  /**
   * `DELETE .../functions/{slug}`: deletes the function on this branch; answers 204 (§29.3).
   * 404 for an unknown function.
   */
  delete: Endpoint.make({
    method: "DELETE",
    route: "/projects/{project_id}/branches/{branch_id}/functions/{slug}",
    params: functionParams,
    success: Schema.Void,
    statuses: [204],
    errors: ["NotFound", "BadRequest"]
  }),
  /**
   * `POST .../functions/{slug}/deployments`: deploys, sent as `multipart/form-data`
   * ({@link FunctionDeployRequest}); the first deployment of a slug (with a `zip`) creates the
   * function. Answers 201 `{ deployment }`, `pending`: the build runs on its own (`pending`,
   * `building`, then `completed` or `failed`), read with `get` (§29.4). 400 for no part, or a
   * first deployment without a zip; 404 for an unknown branch or project.
   */
  createDeployment: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/branches/{branch_id}/functions/{slug}/deployments",
    params: functionParams,
    body: FunctionDeployRequest,
    bodyEncoding: "multipart",
    success: FunctionDeploymentResponse,
    statuses: [201],
    errors: ["NotFound", "BadRequest"]
  })
})
