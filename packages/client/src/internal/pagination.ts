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

/** Where a walk is: the cursor to send next, every cursor the server sent so far, and how many pages it fetched. */
interface Walk {
  readonly cursor: string | undefined
  readonly seen: HashSet.HashSet<string>
  readonly pages: number
}

/**
 * Every item of a cursor-paginated list, newest first, fetching a page only when the consumer
 * pulls and holding one page at a time (`docs/contract.md` §4 rules 1–3, §10.5). `fetch` gets
 * the `limit` (`pageSize`, 100 by default; the endpoint's schema refuses one out of range with
 * `InvalidRequest`, and nothing is sent), the cursor, and a `check` to pass to the call, which
 * refuses a full page whose cursor the server already sent in this walk (a server or proxy that
 * would loop, `A → B → A` or `A → A`): the call fails with `MalformedResponse`, and no request is
 * sent after the repeat. `toPage` reads an answer's items and cursor. The walk ends on a page
 * shorter than `pageSize`, an empty page, a full page without a cursor, or a page `options.last`
 * says is the last one wanted, or after `options.maxPages` pages (however the server pages: a
 * cursor that steps back by a microsecond a page never repeats); it starts at `options.cursor`
 * (the newest items) when given.
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
    readonly last?: ((page: Page<A>) => boolean) | undefined
    readonly maxPages?: number | undefined
  } = {}
): Stream.Stream<A, E, R> => {
  const limit = pageSize ?? defaultPageSize
  const maxPages = options.maxPages ?? Number.POSITIVE_INFINITY
  /**
   * The cursor to follow after `page`, page number `pages` of the walk: none after a short page,
   * one without a cursor, the last one wanted, or the last page allowed.
   */
  const nextCursor = (page: Page<A>, pages: number) =>
    page.items.length < limit || pages >= maxPages || options.last?.(page) === true ? undefined : page.cursor
  return Stream.paginateChunkEffect<Walk, A, E, R>(
    { cursor: options.cursor, seen: HashSet.empty(), pages: 0 },
    (walk) =>
      Effect.map(
        fetch(limit, walk.cursor, (answer) => {
          const next = nextCursor(toPage(answer), walk.pages + 1)
          return next !== undefined && HashSet.has(walk.seen, next)
            ? `the server sent the cursor ${excerpt(next)} a second time, after ${HashSet.size(walk.seen) + 1} pages: following it would loop`
            : undefined
        }),
        (answer) => {
          const page = toPage(answer)
          return [
            Chunk.fromIterable(page.items),
            Option.map(Option.fromNullable(nextCursor(page, walk.pages + 1)), (cursor) => ({
              cursor,
              seen: HashSet.add(walk.seen, cursor),
              pages: walk.pages + 1
            }))
          ] as const
        }
      )
  )
}
