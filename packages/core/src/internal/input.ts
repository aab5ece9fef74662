import * as Schema from "effect/Schema"
import { BranchId, EndpointId } from "../Ids.js"

/** `override: true`: the message replaces those of the schemas it refines. */
export const withMessage = (message: string) => ({ message: () => ({ message, override: true }) })

/**
 * A branch id as a client sends it, in a path or a body: `^[a-z0-9-]{1,60}$`, e.g.
 * `br-wispy-meadow-118737` (`docs/contract.md` §11.1).
 */
export const BranchIdInput = Schema.String.pipe(
  Schema.pattern(/^[a-z0-9-]{1,60}$/),
  Schema.compose(BranchId)
).annotations(withMessage("must be 1 to 60 of a-z, 0-9 and -"))

/**
 * A compute endpoint id as a client sends it, in a path, a query or a body: `^[a-z0-9-]{1,60}$`,
 * e.g. `ep-proud-mud-a5x8dq2u` (`docs/contract.md` §11.1).
 */
export const EndpointIdInput = Schema.String.pipe(
  Schema.pattern(/^[a-z0-9-]{1,60}$/),
  Schema.compose(EndpointId)
).annotations(withMessage("must be 1 to 60 of a-z, 0-9 and -"))
