import * as Chunk from "effect/Chunk"
import { pipe } from "effect/Function"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"

/** One fetched page: its items and the cursor the server sent with it, if any. */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly cursor: string | undefined
}

/**
 * Every item of a cursor-paginated list, newest first, fetching a page only when the consumer
 * pulls and holding one page at a time (§4 rules 1–3; wire-facts "Operations"). The walk ends
 * on a page shorter than `pageSize`, an empty page, a page without a cursor, or a cursor equal
 * to the one just sent (a server that would loop).
 */
export const paginate = <A, E, R>(
  pageSize: number,
  fetch: (cursor: string | undefined) => Effect.Effect<Page<A>, E, R>
): Stream.Stream<A, E, R> =>
  Stream.paginateChunkEffect(undefined as string | undefined, (cursor) =>
    pipe(
      fetch(cursor),
      Effect.map((page) => {
        const last = page.items.length < pageSize || page.cursor === undefined || page.cursor === cursor
        return [Chunk.fromIterable(page.items), last ? Option.none() : Option.some(page.cursor)] as const
      })
    )
  )
