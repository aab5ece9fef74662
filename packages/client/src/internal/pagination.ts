import { type Endpoint, InvalidRequest } from "@dbplatform/core"
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
  /** How many entries the page's `limit` counted (an object list's folders too); its items' number when absent. */
  readonly size?: number | undefined
}

/** Items fetched per request by a stream when the caller does not say. */
export const defaultPageSize = 100

/**
 * When a walk stops early: `initial` state, and `step`, which gives for each page, from the
 * state before it, the state after it and whether that page is the last one wanted. Pure: it may
 * be called more than once for a page.
 */
export interface Stop<A, S> {
  readonly initial: S
  readonly step: (state: S, page: Page<A>) => { readonly state: S; readonly last: boolean }
}

/**
 * Where a walk is: the cursor to send next, every cursor the server sent so far, and the state
 * of its {@link Stop}.
 */
interface Walk<S> {
  readonly cursor: string | undefined
  readonly seen: HashSet.HashSet<string>
  readonly state: S
}

/**
 * `pageSize` refused by `endpoint`'s page limits, by its own name (the caller wrote `pageSize`,
 * not the `limit` it is sent as): an `InvalidRequest`, e.g. `GET /projects: pageSize: must be an
 * integer from 1 to 400`; `undefined` when it is absent or in range.
 */
const refusedPageSize = (endpoint: Endpoint.Endpoint, pageSize: number | undefined): InvalidRequest | undefined => {
  const max = endpoint.pageLimits?.max
  if (pageSize === undefined || max === undefined || (Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= max)) {
    return undefined
  }
  return new InvalidRequest({
    message: `${endpoint.method} ${endpoint.route}: pageSize: must be an integer from 1 to ${max}, got ${pageSize}`
  })
}

/**
 * Every item of a cursor-paginated list of `endpoint`, newest first, fetching a page only when
 * the consumer pulls and holding one page at a time (`docs/contract.md` §4 rules 1–3, §10.5).
 * `fetch` gets the `limit` (`pageSize`, 100 by default; one out of the endpoint's page limits
 * fails the stream with an `InvalidRequest` naming `pageSize`, and nothing is sent), the cursor,
 * and a `check` to pass to the call, which
 * refuses a full page whose cursor the server already sent in this walk (a server or proxy that
 * would loop, `A → B → A` or `A → A`): the call fails with `MalformedResponse`, and no request is
 * sent after the repeat. `toPage` reads an answer's items, cursor and size (the entries its limit
 * counted, when more than its items). The walk ends on a page shorter than `pageSize`, an empty page, a full page without a cursor, or a page
 * `options.stop` says is the last one wanted; it starts at `options.cursor` (the newest items)
 * when given.
 */
export const paginate = <P, A, E, R, S = undefined>(
  endpoint: Endpoint.Endpoint,
  pageSize: number | undefined,
  fetch: (
    limit: number,
    cursor: string | undefined,
    check: (answer: P) => string | undefined
  ) => Effect.Effect<P, E, R>,
  toPage: (answer: P) => Page<A>,
  options: {
    readonly cursor?: string | undefined
    readonly stop?: Stop<A, S> | undefined
  } = {}
): Stream.Stream<A, E | InvalidRequest, R> => {
  const refused = refusedPageSize(endpoint, pageSize)
  if (refused !== undefined) return Stream.fail(refused)
  const limit = pageSize ?? defaultPageSize
  const { stop } = options
  /** Where the walk is after `page`: the cursor to follow next (none after a short page, one without a cursor, or the last one wanted). */
  const after = (page: Page<A>, walk: Walk<S>) => {
    const next = stop?.step(walk.state, page)
    return {
      cursor: (page.size ?? page.items.length) < limit || next?.last === true ? undefined : page.cursor,
      state: next === undefined ? walk.state : next.state
    }
  }
  return Stream.paginateChunkEffect<Walk<S>, A, E, R>(
    // Without a stop there is no state to keep: `S` is `undefined`.
    { cursor: options.cursor, seen: HashSet.empty(), state: stop?.initial as S },
    (walk) =>
      Effect.map(
        fetch(limit, walk.cursor, (answer) => {
          const { cursor } = after(toPage(answer), walk)
          return cursor !== undefined && HashSet.has(walk.seen, cursor)
            ? `the server sent the cursor ${excerpt(cursor)} a second time, after ${HashSet.size(walk.seen) + 1} pages: following it would loop`
            : undefined
        }),
        (answer) => {
          const page = toPage(answer)
          const { cursor, state } = after(page, walk)
          return [
            Chunk.fromIterable(page.items),
            Option.map(Option.fromNullable(cursor), (cursor) => ({
              cursor,
              seen: HashSet.add(walk.seen, cursor),
              state
            }))
          ] as const
        }
      )
  )
}
