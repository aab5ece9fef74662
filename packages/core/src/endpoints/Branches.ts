/**
 * The branch endpoints: list, count, create, read, update, delete, restore a project's branches, make one the default, list a branch's compute endpoints (`docs/contract.md` §11.4).
 *
 * @since 0.4.0
 */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import {
  AnnotationValue,
  Branch,
  BranchCreateRequest,
  BranchCreated,
  BranchEnvelope,
  BranchOperations,
  BranchRestoreRequest,
  BranchUpdateRequest,
  BranchesCount,
  BranchesPage
} from "../Branch.js"
import { ComputeEndpoint, ComputeEndpoints } from "../ComputeEndpoint.js"
import { branchParams, Cursor, PageLimit, projectParams, withMessage } from "../internal/input.js"
import { Timestamp } from "../Timestamp.js"

/**
 * The page size of `GET /projects/{project_id}/branches`: 1 to 10 000; without a `limit`, all
 * branches at once (observed behaviour of the deployed API, §11.4).
 *
 * @since 0.4.0
 * @category endpoints
 */
export const branchesPageLimits: Endpoint.PageLimits = { max: 10_000, default: undefined }

/**
 * Answer of `POST /projects/{project_id}/branches/{branch_id}/recover` (§18.3): the branch
 * recovered and, where the platform sends them, its compute endpoints (idle). No operations.
 *
 * @since 0.5.0
 * @category schemas
 */
export class BranchRecovered extends Schema.Class<BranchRecovered>("BranchRecovered")({
  branch: Branch,
  endpoints: Schema.optional(Schema.Array(ComputeEndpoint))
}) {}

/**
 * A masking rule of an anonymized branch (§18.4): the column to mask (`database_name`,
 * `schema_name`, `table_name`, `column_name`; one rule per column) and how, `masking_function`
 * (a PostgreSQL Anonymizer SQL expression: `anon.fake_email()`, `anon.random_string(10)`,
 * `anon.hash(email)`) or `masking_value` (a literal stored instead). The platform marks every
 * field sensitive: they name the data that is personal; none is a credential.
 *
 * @since 0.5.0
 * @category schemas
 */
export class MaskingRule extends Schema.Class<MaskingRule>("MaskingRule")({
  database_name: Schema.String.pipe(Schema.minLength(1)).annotations(withMessage("must not be empty")),
  schema_name: Schema.String.pipe(Schema.minLength(1)).annotations(withMessage("must not be empty")),
  table_name: Schema.String.pipe(Schema.minLength(1)).annotations(withMessage("must not be empty")),
  column_name: Schema.String.pipe(Schema.minLength(1)).annotations(withMessage("must not be empty")),
  masking_function: Schema.optional(Schema.String),
  masking_value: Schema.optional(Schema.String)
}) {}

/**
 * The masking rules of an anonymized branch, `{ masking_rules }`: the answer of `GET` and `PATCH
 * .../masking_rules`, and the body of the `PATCH` (the whole set: it replaces the rules) (§18.4).
 *
 * @since 0.5.0
 * @category schemas
 */
export class MaskingRules extends Schema.Class<MaskingRules>("MaskingRules")({
  masking_rules: Schema.Array(MaskingRule)
}) {}

/**
 * Body of `POST /projects/{project_id}/branch_anonymized` (§18.4), every field optional:
 * `branch_create` (the body of a branch creation but its annotation: the branch and its compute
 * endpoints),
 * `annotation_value`, `masking_rules` (the first rules) and `start_anonymization` (`true`: run it
 * once the branch is ready; `false` by default).
 *
 * @since 0.5.0
 * @category schemas
 */
export const BranchAnonymizedCreateRequest = Schema.Struct({
  // The branch and its compute endpoints; its annotation is the body's own `annotation_value`.
  branch_create: Schema.optional(BranchCreateRequest.omit("annotation_value")),
  annotation_value: Schema.optional(AnnotationValue),
  masking_rules: Schema.optional(Schema.Array(MaskingRule)),
  start_anonymization: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "BranchAnonymizedCreateRequest" })

/**
 * The last anonymization of a branch (§18.4): when it started and completed (`completed_at` is
 * set when it failed too), who started it (`triggered_by`, a user's UUID, and
 * `triggered_by_username`), and how many columns it masked (`masked_columns`); each where sent.
 *
 * @since 0.5.0
 * @category schemas
 */
export class AnonymizationRun extends Schema.Class<AnonymizationRun>("AnonymizationRun")({
  started_at: Schema.optional(Timestamp),
  completed_at: Schema.optional(Timestamp),
  triggered_by: Schema.optional(Schema.String),
  triggered_by_username: Schema.optional(Schema.String),
  masked_columns: Schema.optional(Schema.Number)
}) {}

/**
 * The states of an anonymized branch known today (§18.4): `created`, `initialized` (ready to
 * anonymize), `initialization_error`, `anonymizing`, `anonymized`, `error`.
 *
 * @since 0.5.0
 * @category schemas
 */
export const KnownAnonymizationState = Schema.Literal(
  "created",
  "initialized",
  "initialization_error",
  "anonymizing",
  "anonymized",
  "error"
)

/**
 * The status of an anonymized branch (§18.4): `project_id`, `branch_id`, `state` (one of
 * {@link KnownAnonymizationState}, or any other string a newer server sends), `status_message`
 * (progress, or what failed), `created_at`, `updated_at`, `failed_at` (when it failed) and
 * `last_run`. The answer of `GET .../anonymized_status` and `POST .../anonymize`.
 *
 * @since 0.5.0
 * @category schemas
 */
export class AnonymizedBranchStatus extends Schema.Class<AnonymizedBranchStatus>("AnonymizedBranchStatus")({
  project_id: Schema.String,
  branch_id: Schema.String,
  state: Schema.String,
  status_message: Schema.optional(Schema.String),
  created_at: Timestamp,
  updated_at: Timestamp,
  failed_at: Schema.optional(Timestamp),
  last_run: Schema.optional(AnonymizationRun)
}) {}

/** A boolean query parameter: `true` or `false`. */
const TrueOrFalse = Schema.BooleanFromString.annotations(withMessage("must be true or false"))

/**
 * The branch endpoints: list, count, create, read, update, delete, restore a project's branches, make one the default, list a branch's compute endpoints (`docs/contract.md` §11.4), recover a deleted one (§18.3), create and anonymize an anonymized branch (§18.4).
 *
 * @since 0.4.0
 * @category endpoints
 */
export const Branches = Endpoint.group("Branches", {
  /**
   * `GET /projects/{project_id}/branches`: one page of a project's branches (§11.4). Query:
   * `search` (part of a name or id), `sort_by` (`name`, `created_at` or `updated_at`, the
   * default), `sort_order` (`asc` or `desc`, the default), `cursor` (a page's `pagination.next`),
   * `limit` (1 to 10 000; all when absent); since 0.5.0 `include_deleted` (`true`: the branches
   * deleted within their recovery window too, each with its `recovery`; the platform's branch
   * recovery, a preview feature). 404 for an unknown project, 403 for one the key may not see,
   * 400 for a query the server refuses.
   */
  list: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/branches",
    params: projectParams,
    query: Schema.Struct({
      search: Schema.optional(Schema.String),
      sort_by: Schema.optional(
        Schema.Literal("name", "created_at", "updated_at").annotations(
          withMessage("must be name, created_at or updated_at")
        )
      ),
      sort_order: Schema.optional(Schema.Literal("asc", "desc").annotations(withMessage("must be asc or desc"))),
      cursor: Schema.optional(Cursor),
      limit: Schema.optional(PageLimit(branchesPageLimits)),
      include_deleted: Schema.optional(TrueOrFalse)
    }),
    success: BranchesPage,
    errors: ["NotFound", "Forbidden", "BadRequest"],
    pageLimits: branchesPageLimits,
    list: { items: (page) => page.branches, cursor: (page) => page.pagination?.next }
  }),
  /**
   * `GET /projects/{project_id}/branches/count`: how many branches the project has, `{ count }`;
   * query `search` (part of a name or id) counts those that match (§11.4). 404 for an unknown
   * project, 403, 400 for a query the server refuses.
   */
  count: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/branches/count",
    params: projectParams,
    query: Schema.Struct({ search: Schema.optional(Schema.String) }),
    success: BranchesCount,
    errors: ["NotFound", "Forbidden", "BadRequest"]
  }),
  /**
   * `POST /projects/{project_id}/branches`: creates a branch, with the compute endpoints to create
   * with it, and answers 201 with the branch, its compute endpoints, roles, databases, connection
   * URIs where the platform sends them, and the operations started: `create_branch`, and
   * `start_compute` per compute endpoint (§11.4, §11.5). 400 for a body the server refuses, 404
   * for an unknown project or parent, 403, 409 for a name another branch of the project has, 423
   * while a conflicting operation runs (§11.6). Since 0.5.0 the branch may expire (`expires_at`),
   * be schema-only (`init_source`), start from a point of its parent's history
   * (`parent_timestamp` or `parent_lsn`: a 400 outside the project's history window) or be
   * created archived (§18).
   */
  create: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/branches",
    params: projectParams,
    body: BranchCreateRequest,
    success: BranchCreated,
    statuses: [201],
    startsOperations: true,
    errors: ["BadRequest", "NotFound", "Forbidden", "Conflict", "Locked"],
    readBack: {
      entry: (): Endpoint.Named<"Branches.get"> => Branches.get,
      input: ({ branch }) => ({ project_id: branch.project_id, branch_id: branch.id })
    }
  }),
  /**
   * `GET /projects/{project_id}/branches/{branch_id}`: one branch (§11.4). 404 for an unknown
   * project or branch, 403, 400 for a malformed id.
   */
  get: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/branches/{branch_id}",
    params: branchParams,
    success: BranchEnvelope,
    errors: ["NotFound", "Forbidden", "BadRequest"],
    about: ({ branch }) => ({ branch_id: branch.id })
  }),
  /**
   * `PATCH /projects/{project_id}/branches/{branch_id}`: renames a branch, changes its
   * protection, or (since 0.5.0) sets or clears (`null`) its `expires_at` (§18); answers the
   * branch and the operations started (none, §11.5). 400 for an expiry not in the future or on
   * the default branch, 409 for a name another branch of the project has, 423 while a
   * conflicting operation runs (§11.6).
   */
  update: Endpoint.make({
    method: "PATCH",
    route: "/projects/{project_id}/branches/{branch_id}",
    params: branchParams,
    body: BranchUpdateRequest,
    success: BranchOperations,
    startsOperations: true,
    errors: ["BadRequest", "NotFound", "Forbidden", "Conflict", "Locked"],
    about: ({ branch }) => ({ branch_id: branch.id }),
    readBack: {
      entry: (): Endpoint.Named<"Branches.get"> => Branches.get,
      input: ({ branch }) => ({ project_id: branch.project_id, branch_id: branch.id })
    }
  }),
  /**
   * `DELETE /projects/{project_id}/branches/{branch_id}`: deletes a branch and its compute
   * endpoints. Answers 200 with the branch and the operations started (`suspend_compute` per
   * compute endpoint, then `delete_timeline`), decoded as `Some`; or 204 with no body, decoded as
   * `None` (nothing left to delete) (§11.4, §11.5). Since 0.5.0 the query `hard_delete` (`true`:
   * deleted for good at once, not kept for the platform's branch recovery, a preview feature). 400
   * for the default branch or a branch with children, 404 for an unknown project or branch, 423
   * while a conflicting operation runs (§11.6).
   */
  delete: Endpoint.make({
    method: "DELETE",
    route: "/projects/{project_id}/branches/{branch_id}",
    params: branchParams,
    query: Schema.Struct({ hard_delete: Schema.optional(TrueOrFalse) }),
    success: Schema.OptionFromUndefinedOr(BranchOperations),
    statuses: [200, 204],
    startsOperations: true,
    errors: ["BadRequest", "NotFound", "Forbidden", "Locked"],
    about: (deleted) => ({ branch_id: Option.getOrUndefined(deleted)?.branch.id })
  }),
  /**
   * `POST /projects/{project_id}/branches/{branch_id}/restore`: restores a branch's data from a
   * source branch, at a point in time or its latest (§11.4); answers the branch and the operations
   * started (§11.5). 404 for an unknown branch or source, 409 for a `preserve_under_name` another
   * branch has, 423 while a conflicting operation runs (§11.6).
   */
  restore: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/branches/{branch_id}/restore",
    params: branchParams,
    body: BranchRestoreRequest,
    success: BranchOperations,
    startsOperations: true,
    errors: ["BadRequest", "NotFound", "Forbidden", "Conflict", "Locked"],
    about: ({ branch }) => ({ branch_id: branch.id }),
    readBack: {
      entry: (): Endpoint.Named<"Branches.get"> => Branches.get,
      input: ({ branch }) => ({ project_id: branch.project_id, branch_id: branch.id })
    }
  }),
  /**
   * `POST /projects/{project_id}/branches/{branch_id}/set_as_default`: makes a branch the
   * project's default (the one before stops being it); answers the branch and the operations
   * started (none, §11.5). 423 while a conflicting operation runs (§11.6).
   */
  setAsDefault: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/branches/{branch_id}/set_as_default",
    params: branchParams,
    success: BranchOperations,
    startsOperations: true,
    errors: ["BadRequest", "NotFound", "Forbidden", "Locked"],
    about: ({ branch }) => ({ branch_id: branch.id }),
    readBack: {
      entry: (): Endpoint.Named<"Branches.get"> => Branches.get,
      input: ({ branch }) => ({ project_id: branch.project_id, branch_id: branch.id })
    }
  }),
  /**
   * `GET /projects/{project_id}/branches/{branch_id}/endpoints`: the compute endpoints of a
   * branch, `{ endpoints }` (§11.4). 404 for an unknown project or branch.
   */
  listEndpoints: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/branches/{branch_id}/endpoints",
    params: branchParams,
    success: ComputeEndpoints,
    errors: ["NotFound", "Forbidden", "BadRequest"],
    list: { items: (answer) => answer.endpoints }
  }),
  /**
   * `POST /projects/{project_id}/branches/{branch_id}/recover`: recovers a branch deleted within
   * its 7 days of recovery (one `list` with `include_deleted: true` shows with its `recovery`);
   * answers `{ branch, endpoints? }`, the branch again with its compute endpoints, idle, and its
   * connection strings unchanged; an expiry it had is cleared (§18.3). Starts no operation. 404 for
   * a branch never deleted, deleted for good or past its window; 400 for one whose parent is
   * deleted; 409 for one that is not deleted, or whose name another branch took since.
   */
  recover: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/branches/{branch_id}/recover",
    params: branchParams,
    success: BranchRecovered,
    errors: ["BadRequest", "NotFound", "Forbidden", "Conflict"],
    about: ({ branch }) => ({ branch_id: branch.id })
  }),
  /**
   * `POST /projects/{project_id}/branch_anonymized`: creates an anonymized branch, a copy of its
   * parent whose masked columns are overwritten when anonymization runs (PostgreSQL Anonymizer,
   * static masking), a beta of the platform (§18.4). Body: `branch_create` (as `create`'s body),
   * `annotation_value`, `masking_rules`, `start_anonymization`. Answers 201 as `create` does and
   * starts operations as it does (`{ wait }` answers once they have finished, the branch read
   * back). 400 for a body refused, 404 for an unknown project or parent, 409 for a name taken,
   * 423 while a conflicting operation runs.
   */
  createAnonymized: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/branch_anonymized",
    params: projectParams,
    body: BranchAnonymizedCreateRequest,
    success: BranchCreated,
    statuses: [201],
    startsOperations: true,
    errors: ["BadRequest", "NotFound", "Forbidden", "Conflict", "Locked"],
    readBack: {
      entry: (): Endpoint.Named<"Branches.get"> => Branches.get,
      input: ({ branch }) => ({ project_id: branch.project_id, branch_id: branch.id })
    }
  }),
  /**
   * `GET /projects/{project_id}/branches/{branch_id}/masking_rules`: the masking rules of an
   * anonymized branch, `{ masking_rules }` (§18.4). 400 for a branch that is not anonymized, 404
   * for an unknown project or branch.
   */
  getMaskingRules: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/branches/{branch_id}/masking_rules",
    params: branchParams,
    success: MaskingRules,
    errors: ["BadRequest", "NotFound", "Forbidden"]
  }),
  /**
   * `PATCH /projects/{project_id}/branches/{branch_id}/masking_rules`: replaces the masking rules
   * of an anonymized branch with `masking_rules`; answers the rules now set (§18.4). 400 for a
   * branch that is not anonymized or a column named twice, 409 while anonymization runs, 404 for
   * an unknown project or branch.
   */
  updateMaskingRules: Endpoint.make({
    method: "PATCH",
    route: "/projects/{project_id}/branches/{branch_id}/masking_rules",
    params: branchParams,
    body: Schema.Struct({ masking_rules: Schema.Array(MaskingRule) }),
    success: MaskingRules,
    errors: ["BadRequest", "NotFound", "Forbidden", "Conflict"]
  }),
  /**
   * `GET /projects/{project_id}/branches/{branch_id}/anonymized_status`: the status of an
   * anonymized branch, its `state` moving `created` → `initialized` → (`anonymizing` →
   * `anonymized` or `error`) (§18.4). No operation tracks anonymization: poll this. 400 for a
   * branch that is not anonymized, 404 for an unknown project or branch.
   */
  getAnonymizedStatus: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/branches/{branch_id}/anonymized_status",
    params: branchParams,
    success: AnonymizedBranchStatus,
    errors: ["BadRequest", "NotFound", "Forbidden"]
  }),
  /**
   * `POST /projects/{project_id}/branches/{branch_id}/anonymize`: starts anonymizing an anonymized
   * branch in state `initialized`, `error` or `anonymized` (a new run); answers its status,
   * `anonymizing` (§18.4). Starts no operation: poll `getAnonymizedStatus`. 400 for a branch that
   * is not anonymized, 409 for one in another state, 404 for an unknown project or branch.
   */
  startAnonymization: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/branches/{branch_id}/anonymize",
    params: branchParams,
    success: AnonymizedBranchStatus,
    errors: ["BadRequest", "NotFound", "Forbidden", "Conflict"]
  })
})
