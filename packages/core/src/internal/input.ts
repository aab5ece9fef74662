import * as Schema from "effect/Schema"
import type { PageLimits } from "../Endpoint.js"
import { ApiKeyId, BranchId, EndpointId, OperationId, ProjectId } from "../Ids.js"

/** `override: true`: the message replaces those of the schemas it refines. */
export const withMessage = (message: string) => ({ message: () => ({ message, override: true }) })

/**
 * An email address as a client sends it (an invitation, a project permission): 1 to 256
 * characters, one `@` with text on both sides, no spaces.
 */
export const Email = Schema.String.pipe(Schema.maxLength(256), Schema.pattern(/^[^\s@]+@[^\s@]+$/)).annotations(
  withMessage("must be an email address of at most 256 characters")
)

/**
 * A branch id as a client sends it, in a path or a body: `^[a-z0-9-]{1,60}$`, e.g.
 * `br-wispy-meadow-118737` (`docs/contract.md` §11.1).
 */
export const BranchIdInput = Schema.String.pipe(
  Schema.pattern(/^[a-z0-9-]{1,60}$/),
  Schema.compose(BranchId)
).annotations(withMessage("must be 1 to 60 of a-z, 0-9 and -"))

/**
 * A Postgres name (a role's, a database's) as a client sends it in a body: 1 to 63 bytes of
 * UTF-8, the longest identifier Postgres keeps (`docs/contract.md` §15.1).
 */
export const PostgresName = Schema.String.pipe(
  Schema.filter((name) => {
    const bytes = new TextEncoder().encode(name).length
    return bytes >= 1 && bytes <= 63
  })
).annotations(withMessage("must be 1 to 63 bytes"))

/** A role's or a database's name in a path: not empty (a name no item has is a 404). */
export const NameParameter = Schema.String.pipe(Schema.minLength(1)).annotations(withMessage("must not be empty"))

/**
 * A compute endpoint id as a client sends it, in a path: `^[a-z0-9-]{1,60}$`, e.g.
 * `ep-cool-darkness-123456` (`docs/contract.md` §12).
 */
export const EndpointIdInput = Schema.String.pipe(
  Schema.pattern(/^[a-z0-9-]{1,60}$/),
  Schema.compose(EndpointId)
).annotations(withMessage("must be 1 to 60 of a-z, 0-9 and -"))

/** A number of compute units: 0.25 and up. */
export const ComputeUnitsInput = Schema.Number.pipe(Schema.finite(), Schema.greaterThanOrEqualTo(0.25)).annotations(
  withMessage("must be a number of compute units, 0.25 or more")
)

/** Seconds of inactivity before a compute endpoint is suspended: `0` the platform's default, `-1` never, at most a week. */
export const SuspendTimeoutInput = Schema.Int.pipe(Schema.between(-1, 604_800)).annotations(
  withMessage("must be an integer from -1 to 604800 (seconds)")
)

/**
 * The settings of a compute endpoint a request may give (`docs/contract.md` §12): autoscaling
 * limits in compute units and the suspend timeout in seconds, each optional.
 */
export const computeEndpointSettings = {
  autoscaling_limit_min_cu: Schema.optional(ComputeUnitsInput),
  autoscaling_limit_max_cu: Schema.optional(ComputeUnitsInput),
  suspend_timeout_seconds: Schema.optional(SuspendTimeoutInput)
}

/** An integer from `min` to `max`, sent as decimal digits, e.g. `limit`. */
export const IntegerParameter = (min: number, max: number, unit = "") =>
  Schema.String.pipe(
    Schema.pattern(/^\d{1,9}$/),
    Schema.compose(Schema.NumberFromString),
    Schema.int(),
    Schema.between(min, max)
  ).annotations(withMessage(`must be an integer from ${min} to ${max}${unit}`))

/** `limit` of a list endpoint: 1 to `limits.max`. */
export const PageLimit = (limits: PageLimits) => IntegerParameter(1, limits.max)

/**
 * `cursor`: the `pagination.cursor` of the previous page, sent back as it came (§2.6); not
 * empty.
 */
export const Cursor = Schema.String.pipe(Schema.minLength(1)).annotations(withMessage("must not be empty"))

/** An API key id in a path: an integer in decimal, e.g. `165432` (int64 with no minimum, §10.3). */
export const KeyIdParameter = Schema.String.pipe(
  Schema.pattern(/^-?\d{1,16}$/),
  Schema.compose(Schema.NumberFromString),
  Schema.compose(ApiKeyId)
).annotations(withMessage("must be an integer"))

export const ProjectIdParameter = ProjectId.annotations(withMessage("must be 1 to 60 of a-z, 0-9 and -"))
export const OperationIdParameter = OperationId.annotations(withMessage("must be a UUID"))
/** A branch id in a path: `^[a-z0-9-]{1,60}$` (§11.1). */
export const BranchIdParameter = BranchIdInput

/** A project in a path: `project_id`. */
export const projectParams = Schema.Struct({ project_id: ProjectIdParameter })

/** A project's branch in a path: `project_id` and `branch_id`. */
export const branchParams = Schema.Struct({ project_id: ProjectIdParameter, branch_id: BranchIdParameter })
