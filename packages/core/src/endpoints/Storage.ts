/**
 * The storage endpoint: whether a branch's object storage is usable, and the S3 endpoint that
 * serves it (`docs/contract.md` §28.4).
 *
 * @since 0.6.0
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import { branchParams } from "../internal/input.js"

/**
 * Answer of `GET .../branches/{branch_id}/storage`: `enabled` (always `true` in a 200), the
 * branch's S3-compatible endpoint (`s3_endpoint`), its `region` (never empty) and
 * `force_path_style` (always `true`: the bucket goes in the path) (§28.4).
 *
 * @since 0.6.0
 * @category schemas
 */
export class BranchStorage extends Schema.Class<BranchStorage>("BranchStorage")({
  enabled: Schema.Boolean,
  s3_endpoint: Schema.String,
  region: Schema.String,
  force_path_style: Schema.Boolean
}) {}

/**
 * The storage endpoint of a branch (`docs/contract.md` §28.4), in private beta on the platform.
 *
 * @since 0.6.0
 * @category endpoints
 */
export const Storage = Endpoint.group("Storage", {
  /**
   * `GET .../branches/{branch_id}/storage`: the branch's storage ({@link BranchStorage}). 404
   * (`NotFound`) when storage is not usable there, its body's `reason` saying why
   * (`org_not_entitled`, `region_unavailable`, `branch_directory_missing`, or `branch_not_found`
   * for an unknown project or branch) (§28.4).
   */
  get: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/branches/{branch_id}/storage",
    params: branchParams,
    success: BranchStorage,
    errors: ["NotFound", "BadRequest"]
  })
})
