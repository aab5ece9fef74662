import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as HashSet from "effect/HashSet"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { excerpt } from "./call.js"

/** One fetched page: its items, and the cursor the server sent with it if any. */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly cursor: string | undefined
}

/** Items fetched per request by a stream when the caller does not say. */
export const defaultPageSize = 100

/**
 * Where a walk is: the cursor to send next, every cursor the server sent so far, and the last
 * item of the page before (what `options.last` compares a page with).
 */
interface Walk<A> {
  readonly cursor: string | undefined
  readonly seen: HashSet.HashSet<string>
  readonly previousEnd: A | undefined
}

/**
 * Every item of a cursor-paginated list, newest first, fetching a page only when the consumer
 * pulls and holding one page at a time (`docs/contract.md` §4 rules 1–3, §10.5). `fetch` gets
 * the `limit` (`pageSize`, 100 by default; the endpoint's schema refuses one out of range with
 * `InvalidRequest`, and nothing is sent), the cursor, and a `check` to pass to the call, which
 * refuses a full page whose cursor the server already sent in this walk (a server or proxy that
 * would loop, `A → B → A` or `A → A`): the call fails with `MalformedResponse`, and no request is
 * sent after the repeat. `toPage` reads an answer's items and cursor. The walk ends on a page
 * shorter than `pageSize`, an empty page, a full page without a cursor, or a page
 * `options.last(page, previousEnd)` says is the last one wanted (`previousEnd`: the last item of
 * the page before, if any; it may be called more than once for a page); it starts at
 * `options.cursor` (the newest items) when given.
 */
export const paginate = <P, A, E, R>(
  pageSize: number | undefined,
  fetch: (
    limit: number,
    cursor: string | undefined,
    check: (answer: P) => string | undefined
  ) => Effect.Effect<P, E, R>,
  toPage: (answer: P) => Page<A>,
  options: {
    readonly cursor?: string | undefined
    readonly last?: ((page: Page<A>, previousEnd: A | undefined) => boolean) | undefined
  } = {}
): Stream.Stream<A, E, R> => {
  const limit = pageSize ?? defaultPageSize
  /** The cursor to follow after `page`: none after a short page, one without a cursor, or the last one wanted. */
  const nextCursor = (page: Page<A>, walk: Walk<A>) =>
    page.items.length < limit || options.last?.(page, walk.previousEnd) === true ? undefined : page.cursor
  return Stream.paginateChunkEffect<Walk<A>, A, E, R>(
    { cursor: options.cursor, seen: HashSet.empty(), previousEnd: undefined },
    (walk) =>
      Effect.map(
        fetch(limit, walk.cursor, (answer) => {
          const next = nextCursor(toPage(answer), walk)
          return next !== undefined && HashSet.has(walk.seen, next)
            ? `the server sent the cursor ${excerpt(next)} a second time, after ${HashSet.size(walk.seen) + 1} pages: following it would loop`
            : undefined
        }),
        (answer) => {
          const page = toPage(answer)
          return [
            Chunk.fromIterable(page.items),
            Option.map(Option.fromNullable(nextCursor(page, walk)), (cursor) => ({
              cursor,
              seen: HashSet.add(walk.seen, cursor),
              previousEnd: page.items.at(-1)
            }))
          ] as const
        }
      )
  )
}
