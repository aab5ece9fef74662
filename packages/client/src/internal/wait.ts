import { OperationFailed, OperationStillPending } from "@dbplatform/core"
import * as Effect from "effect/Effect"
import type * as Operations from "../Operations.js"
import type { Waiter } from "../Resource.js"

/**
 * Waits with `operations.awaitAll` for what an answer carries, and fails when one ended badly
 * (`OperationFailed`, the first such) or had not ended when the wait stopped
 * (`OperationStillPending`): what a mutation called with `{ wait }` does (`docs/design.md` §1.3).
 */
export const finished =
  (operations: Operations.Service): Waiter<Operations.ReadError> =>
  (answer, options) =>
    Effect.flatMap(
      operations.awaitAll(answer, options),
      ({ failed, pending }): Effect.Effect<void, OperationFailed | OperationStillPending> => {
        const [bad] = failed
        if (bad !== undefined) return Effect.fail(new OperationFailed({ operation: bad }))
        const [late] = pending
        return late === undefined ? Effect.void : Effect.fail(new OperationStillPending({ operation: late }))
      }
    )
