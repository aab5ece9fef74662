/**
 * Pages of a list over the state (docs/contract.md §2.6, §10.5): the items after a `created_at`
 * cursor, found in the kind's tree, not by a scan.
 */
import { type Endpoint, Timestamp } from "@dbplatform/core"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type { Kind } from "./kinds.js"
import { itemsBefore, type itemsOf, type State, take } from "./state.js"
import { badRequest, type Refusal } from "./refusal.js"

/**
 * A cursor of the fake: the `created_at` of the last item of the previous page
 * (docs/contract.md §2.6, §10.5), as epoch ms.
 */
const CursorTime = Timestamp.annotations({
  message: () => ({ message: "cursor must be an RFC 3339 timestamp from a previous page", override: true })
})

const cursorTime = (cursor: string | undefined): Effect.Effect<number | undefined, Refusal> => {
  if (cursor === undefined) return Effect.succeed(undefined)
  const decoded = Schema.decodeUnknownEither(CursorTime)(cursor)
  return Either.isLeft(decoded)
    ? Effect.fail(badRequest(decoded.left.issue))
    : Effect.succeed(DateTime.toEpochMillis(decoded.right))
}

/**
 * A page of the items of `kind` of `parentId` (newest first) that `keep` keeps: those after
 * `cursor` (found in the tree, not by a scan), at most `limit` (the endpoint's default when none
 * is sent), and the cursor of the next page (the `created_at` of the last item; on an empty
 * page, the one sent, or now).
 */
export const pageOf = <K extends Kind>(
  endpoint: Endpoint.Endpoint,
  state: State,
  kind: K,
  parentId: string,
  query: { readonly cursor?: string | undefined; readonly limit?: number | undefined },
  now: number,
  keep?: (item: ReturnType<typeof itemsOf<K>> extends Iterable<infer A> ? A : never) => boolean
) =>
  Effect.map(cursorTime(query.cursor), (cursor) => {
    const page = take(itemsBefore(state, kind, parentId, cursor), query.limit ?? endpoint.pageLimits?.default, keep)
    const last = page[page.length - 1] as { readonly created_at: number } | undefined
    return { page, next: last?.created_at ?? cursor ?? now }
  })
