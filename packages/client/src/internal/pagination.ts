import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type { InvalidRequest } from "@dbplatform/core"
import { validate } from "./input.js"

/** One fetched page: its items and the cursor the server sent with it, if any. */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly cursor: string | undefined
}

/** Items fetched per request by a stream when the caller does not say. */
const defaultPageSize = 100

/**
 * Every item of a cursor-paginated list, newest first, fetching a page only when the consumer
 * pulls and holding one page at a time (§4 rules 1–3; wire-facts "Operations"). `pageSize`
 * (100 by default) is checked with `Limit` first: out of range, the stream fails with
 * `InvalidRequest` and nothing is sent. The walk ends on a page shorter than `pageSize`, an
 * empty page, a page without a cursor, or a cursor equal to the one just sent (a server that
 * would loop).
 */
export const paginate = <A, E, R>(
  Limit: Schema.Schema<number>,
  pageSize: number | undefined,
  fetch: (limit: number, cursor: string | undefined) => Effect.Effect<Page<A>, E, R>
): Stream.Stream<A, E | InvalidRequest, R> =>
  validate(Limit, pageSize ?? defaultPageSize).pipe(
    Effect.map((limit) =>
      Stream.paginateChunkEffect(undefined as string | undefined, (cursor) =>
        Effect.map(fetch(limit, cursor), (page) => {
          const last = page.items.length < limit || page.cursor === undefined || page.cursor === cursor
          return [Chunk.fromIterable(page.items), last ? Option.none() : Option.some(page.cursor)] as const
        })
      )
    ),
    Stream.unwrap
  )
