import { Endpoint, type Operation, OperationFailed, OperationStillPending } from "@dbplatform/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type { Service as Client } from "../DbPlatformClient.js"
import type * as Operations from "../Operations.js"
import type { Waiter } from "../Resource.js"

/**
 * Waits with `operations.awaitAll` for what an answer carries, and fails when one ended badly
 * (`OperationFailed`, the first such) or had not ended when the wait stopped
 * (`OperationStillPending`): what a mutation called with `{ wait }` does (`docs/design.md` §1.3).
 * Succeeds with each operation's last state read.
 */
export const finished =
  (operations: Operations.Service): Waiter<Operations.ReadError> =>
  (answer, options) =>
    Effect.flatMap(
      operations.awaitAll(answer, options),
      ({
        failed,
        operations,
        pending
      }): Effect.Effect<ReadonlyArray<Operation>, OperationFailed | OperationStillPending> => {
        const [bad] = failed
        if (bad !== undefined) return Effect.fail(new OperationFailed({ operation: bad }))
        const [late] = pending
        return late === undefined
          ? Effect.succeed(operations)
          : Effect.fail(new OperationStillPending({ operation: late }))
      }
    )

/**
 * A copy of `value` with `fields` over its own: the same prototype, so that a `Schema.Class`
 * instance (a decoded answer, a `Branch`) stays one, with its `Equal` and `Hash` over its fields.
 */
const withFields = <A extends object>(value: A, fields: object): A =>
  Object.assign(Object.create(Object.getPrototypeOf(value)) as A, value, fields)

/** The secrets (`Redacted`) `own` has and `read` has not: a password an answer shows once. */
const secretsOnly = (own: object, read: object): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(own).filter(([key, value]) => Redacted.isRedacted(value) && !Object.hasOwn(read, key))
  )

/** What carries the operations: the answer, or the value of the `Some` a delete answers. */
type Carrier = { readonly operations: ReadonlyArray<Operation> }

/**
 * `answer` as a wait that ended well leaves it (`docs/design.md` §1.3): each operation it carries
 * in the state `states` last read it (the same operations, in the same order), and, when
 * `endpoint` declares a `readBack` and there were operations to wait for, every resource the
 * read's envelope holds (`{ branch }`) as that GET reads it now, in place of the answer's (a
 * field the read lacks is gone, a `pending_state` that ended; but a secret only the answer
 * carries, `Redacted`, such as a role's `password` shown once, is kept). The read is a call of
 * its own (`client.execute`: its retries, span, typed errors and answer checks).
 */
export const settled = (
  client: Client,
  endpoint: Endpoint.Endpoint,
  input: unknown,
  answer: Endpoint.CarriesOperations,
  states: ReadonlyArray<Operation>
): Effect.Effect<any, unknown> => {
  const last = new Map(states.map((state) => [state.id, state] as const))
  const update = (carrier: Carrier): Carrier =>
    withFields(carrier, { operations: carrier.operations.map((operation) => last.get(operation.id) ?? operation) })
  if (Option.isOption(answer)) return Effect.succeed(Option.map(answer, update))
  const now = update(answer)
  const readBack = endpoint.readBack
  if (readBack === undefined || Endpoint.operationsOf(answer).length === 0) return Effect.succeed(now)
  return Effect.map(client.execute(readBack.entry(), readBack.input(now, input ?? {})), (read: object) => {
    const resources: Record<string, unknown> = {}
    for (const [key, resource] of Object.entries(read)) {
      const own = (now as Readonly<Record<string, unknown>>)[key]
      if (typeof own === "object" && own !== null && typeof resource === "object" && resource !== null) {
        resources[key] = withFields(resource, secretsOnly(own, resource))
      }
    }
    return withFields(now, resources)
  })
}
