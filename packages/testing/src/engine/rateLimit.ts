import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as HashMap from "effect/HashMap"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"

/**
 * One limit of the fake's rate limit: at most `limit` requests in any `interval` (a sliding
 * window on the `Clock`).
 *
 * @since 0.2.0
 */
export interface RateLimitWindow {
  /** Requests allowed in any one `interval`: an integer >= 1. */
  readonly limit: number
  /** The window, on the `Clock`, e.g. `"1 second"` or `"1 minute"`; > 0. */
  readonly interval: Duration.DurationInput
}

/**
 * The fake's rate limit, modelled on the platform's published one (docs/contract.md §10.2):
 * `account` counts every request of the account (all its keys together), `route` the requests
 * to each route (method and route template, e.g. `GET /projects/{project_id}/operations` for
 * any project) on their own. Either or both; a request must pass both.
 *
 * @since 0.2.0
 */
export interface RateLimit {
  /** Per account, e.g. `{ limit: 700, interval: "1 minute" }`. */
  readonly account?: RateLimitWindow | undefined
  /** Per route, e.g. bursts of `{ limit: 40, interval: "1 second" }`. */
  readonly route?: RateLimitWindow | undefined
}

/**
 * The platform's published rate limit (docs/contract.md §10.2): 700 requests a minute per
 * account, bursts of 40 a second per route.
 *
 * @since 0.2.0
 */
export const platformRateLimit: RateLimit = {
  account: { limit: 700, interval: "1 minute" },
  route: { limit: 40, interval: "1 second" }
}

const windowProblem = (name: string, window: RateLimitWindow | undefined): string | undefined => {
  if (window === undefined) return undefined
  if (typeof window !== "object" || window === null) return `rateLimit.${name} must be { limit, interval }`
  const limitOk = Number.isInteger(window.limit) && window.limit >= 1
  const intervalMs = Option.match(Duration.decodeUnknown(window.interval), {
    onNone: () => Number.NaN,
    onSome: Duration.toMillis
  })
  return limitOk && intervalMs > 0 && Number.isFinite(intervalMs)
    ? undefined
    : `rateLimit.${name}: limit must be an integer >= 1 and interval a finite duration > 0, got ${String(window.limit)} per ${String(window.interval)}`
}

/** Why `rateLimit` cannot be used, or `undefined`: a bad window, or neither `account` nor `route`. */
export const rateLimitProblem = (rateLimit: RateLimit): string | undefined => {
  if (rateLimit.account === undefined && rateLimit.route === undefined) {
    return 'rateLimit needs account, route or both, e.g. { account: { limit: 700, interval: "1 minute" }, route: { limit: 40, interval: "1 second" } }'
  }
  return windowProblem("account", rateLimit.account) ?? windowProblem("route", rateLimit.route)
}

/** `window` as words: `40 requests per 1s`. */
export const describeWindow = (window: RateLimitWindow): string =>
  `${window.limit} requests per ${Duration.format(window.interval)}`

/**
 * The times (epoch ms) of the requests one window let through, oldest first: only those of the
 * last `interval` count.
 */
type Times = ReadonlyArray<number>

/** A window's `limit` and `interval` in milliseconds. */
interface Sliding {
  readonly window: RateLimitWindow
  readonly intervalMs: number
}

const slidingOf = (window: RateLimitWindow | undefined): Sliding | undefined =>
  window === undefined ? undefined : { window, intervalMs: Duration.toMillis(window.interval) }

/** `times` without those older than `sliding`'s interval at `now`. */
const recent = (times: Times, sliding: Sliding, now: number): Times => {
  const first = times.findIndex((time) => time > now - sliding.intervalMs)
  return first < 0 ? [] : first === 0 ? times : times.slice(first)
}

/** The milliseconds until `sliding` allows a request at `now`, given the `recent` times: 0 when it allows one now. */
const waitOf = (times: Times, sliding: Sliding, now: number): number =>
  times.length < sliding.window.limit ? 0 : times[0]! + sliding.intervalMs - now

/** A request refused by the rate limit: which limit, and the milliseconds until it allows one again. */
export interface Limited {
  readonly scope: "account" | "route"
  readonly window: RateLimitWindow
  readonly waitMs: number
}

/** The requests counted: the account's, and each route's (by `METHOD template`). */
interface Counted {
  readonly account: Times
  readonly routes: HashMap.HashMap<string, Times>
}

const nothingCounted: Counted = { account: [], routes: HashMap.empty() }

/**
 * The state of a rate limit (see {@link RateLimit}) in a `Ref`: one sliding window for the
 * account, one per route. Why not Effect's `RateLimiter`: it makes the caller wait for a permit (a
 * client-side throttle), while a server must decide at once to refuse, and say for how long
 * (`Retry-After`); it has no per-key windows and cannot tell the time until a permit.
 */
export interface RateLimits {
  /**
   * Counts a request to `route` (e.g. `GET /projects/{project_id}/operations`) at `now` (epoch
   * ms) when both limits allow it, and answers `None`; else counts nothing (the request is not
   * carried out) and answers the limit that refuses it, the longer wait when both do.
   */
  readonly take: (route: string, now: number) => Effect.Effect<Option.Option<Limited>>
  /** Forgets every request counted: the limits as when they were made (the fake's `reset`). */
  readonly clear: Effect.Effect<void>
}

/** The {@link RateLimits} of `rateLimit`, nothing counted yet. */
export const makeRateLimits = (rateLimit: RateLimit): Effect.Effect<RateLimits> => {
  const account = slidingOf(rateLimit.account)
  const perRoute = slidingOf(rateLimit.route)
  /** The step of `take`: what it answers, and the requests counted after it. */
  const take = (counted: Counted, route: string, now: number): readonly [Option.Option<Limited>, Counted] => {
    const accountTimes = account === undefined ? [] : recent(counted.account, account, now)
    const routeTimes =
      perRoute === undefined
        ? []
        : recent(
            Option.getOrElse(HashMap.get(counted.routes, route), () => []),
            perRoute,
            now
          )
    const accountWait = account === undefined ? 0 : waitOf(accountTimes, account, now)
    const routeWait = perRoute === undefined ? 0 : waitOf(routeTimes, perRoute, now)
    if (accountWait > 0 || routeWait > 0) {
      const limited: Limited =
        accountWait >= routeWait
          ? { scope: "account", window: account!.window, waitMs: accountWait }
          : { scope: "route", window: perRoute!.window, waitMs: routeWait }
      return [Option.some(limited), counted]
    }
    return [
      Option.none(),
      {
        account: account === undefined ? counted.account : [...accountTimes, now],
        routes: perRoute === undefined ? counted.routes : HashMap.set(counted.routes, route, [...routeTimes, now])
      }
    ]
  }
  return Effect.map(Ref.make(nothingCounted), (ref) => ({
    take: (route, now) => Ref.modify(ref, (counted) => take(counted, route, now)),
    clear: Ref.set(ref, nothingCounted)
  }))
}

/** `Retry-After` for a wait of `waitMs`: whole seconds, rounded up, at least 1. */
export const retryAfterSeconds = (waitMs: number): string => String(Math.max(1, Math.ceil(waitMs / 1000)))
