import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as HashSet from "effect/HashSet"
import * as Option from "effect/Option"
import type * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type { InvalidRequest, MalformedResponse } from "@dbplatform/core"
import { type Call, type ExpectedError, excerpt, malformedAnswer } from "./call.js"
import { validate } from "./input.js"

/** One fetched page: its items, the cursor the server sent with it if any, and the call that fetched it. */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly cursor: string | undefined
  readonly call: Call<ExpectedError>
}

/** Items fetched per request by a stream when the caller does not say. */
const defaultPageSize = 100

/** Where a walk is: the cursor to send next, and every cursor the server sent so far. */
interface Walk {
  readonly cursor: string | undefined
  readonly seen: HashSet.HashSet<string>
}

/**
 * Every item of a cursor-paginated list, newest first, fetching a page only when the consumer
 * pulls and holding one page at a time (§4 rules 1–3). `pageSize` (100 by default) is checked
 * with `Limit` first: out of range, the stream fails with `InvalidRequest` and nothing is sent.
 * The walk ends on a page shorter than `pageSize`, an empty page, or a full page without a
 * cursor. A full page whose cursor the server already sent in this walk (a server or proxy that
 * would loop, `A → B → A` or `A → A`) fails the stream with `MalformedResponse` at once: no
 * request is sent after the repeat.
 */
export const paginate = <A, E, R>(
  Limit: Schema.Schema<number>,
  pageSize: number | undefined,
  fetch: (limit: number, cursor: string | undefined) => Effect.Effect<Page<A>, E, R>
): Stream.Stream<A, E | InvalidRequest | MalformedResponse, R> =>
  validate(Limit, pageSize ?? defaultPageSize).pipe(
    Effect.map((limit) =>
      Stream.paginateChunkEffect<Walk, A, E | MalformedResponse, R>(
        { cursor: undefined, seen: HashSet.empty() },
        (walk) =>
          Effect.flatMap(fetch(limit, walk.cursor), (page) => {
            const items = Chunk.fromIterable(page.items)
            const next = page.cursor
            if (page.items.length < limit || next === undefined) return Effect.succeed([items, Option.none()] as const)
            if (HashSet.has(walk.seen, next)) {
              return Effect.fail(
                malformedAnswer(
                  page.call,
                  `the server sent the cursor ${excerpt(next)} a second time, after ${HashSet.size(walk.seen) + 1} pages: following it would loop`
                )
              )
            }
            return Effect.succeed([items, Option.some({ cursor: next, seen: HashSet.add(walk.seen, next) })] as const)
          })
      )
    ),
    Stream.unwrap
  )
