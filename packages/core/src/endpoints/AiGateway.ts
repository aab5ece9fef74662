/**
 * The AI gateway endpoint: the OpenAI-compatible root a branch's AI gateway answers at
 * (`docs/contract.md` §28.5).
 *
 * @since 0.6.0
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import { branchParams } from "../internal/input.js"

/**
 * Answer of `GET .../branches/{branch_id}/ai_gateway`: `enabled` (always `true` in a 200) and
 * `base_url`, an OpenAI-compatible root without a route (a client adds one, such as
 * `/ai-gateway/openai/v1/responses`) (§28.5).
 *
 * @since 0.6.0
 * @category schemas
 */
export class BranchAiGateway extends Schema.Class<BranchAiGateway>("BranchAiGateway")({
  enabled: Schema.Boolean,
  base_url: Schema.String
}) {}

/**
 * The AI gateway endpoint of a branch (`docs/contract.md` §28.5), in private beta on the
 * platform.
 *
 * @since 0.6.0
 * @category endpoints
 */
export const AiGateway = Endpoint.group("AiGateway", {
  /**
   * `GET .../branches/{branch_id}/ai_gateway`: the branch's AI gateway ({@link BranchAiGateway}).
   * 404 (`NotFound`) when there is none, its body's `reason` saying why (`ai_gateway_unavailable`,
   * or `branch_not_found` for an unknown project or branch) (§28.5).
   */
  get: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/branches/{branch_id}/ai_gateway",
    params: branchParams,
    success: BranchAiGateway,
    errors: ["NotFound", "BadRequest"]
  })
})
