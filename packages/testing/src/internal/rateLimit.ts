import * as Duration from "effect/Duration"
import * as Option from "effect/Option"

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

/** The times (epoch ms) of the requests let through in the last `interval`, oldest first. */
class SlidingWindow {
  private readonly times: Array<number> = []
  private readonly intervalMs: number

  constructor(readonly window: RateLimitWindow) {
    this.intervalMs = Duration.toMillis(window.interval)
  }

  /** The milliseconds until a request is allowed at `now`: 0 when it is allowed now. */
  waitAt(now: number): number {
    while (this.times.length > 0 && this.times[0]! <= now - this.intervalMs) this.times.shift()
    return this.times.length < this.window.limit ? 0 : this.times[0]! + this.intervalMs - now
  }

  add(now: number): void {
    this.times.push(now)
  }

  clear(): void {
    this.times.length = 0
  }
}

/** A request refused by the rate limit: which limit, and the milliseconds until it allows one again. */
export interface Limited {
  readonly scope: "account" | "route"
  readonly window: RateLimitWindow
  readonly waitMs: number
}

/**
 * The state of a rate limit (see {@link RateLimit}): one sliding window for the account, one per
 * route. Why not Effect's `RateLimiter`: it makes the caller wait for a permit (a client-side
 * throttle), while a server must decide at once to refuse, and say for how long (`Retry-After`);
 * it has no per-key windows and cannot tell the time until a permit.
 */
export class RateLimits {
  private readonly account: SlidingWindow | undefined
  private readonly routes = new Map<string, SlidingWindow>()

  constructor(private readonly rateLimit: RateLimit) {
    this.account = rateLimit.account === undefined ? undefined : new SlidingWindow(rateLimit.account)
  }

  /**
   * Counts a request to `route` (e.g. `GET /projects/{project_id}/operations`) at `now` (epoch
   * ms) when both limits allow it, and answers `undefined`; else counts nothing (the request is
   * not carried out) and answers the limit that refuses it, the longer wait when both do.
   */
  take(route: string, now: number): Limited | undefined {
    let perRoute: SlidingWindow | undefined
    if (this.rateLimit.route !== undefined) {
      perRoute = this.routes.get(route)
      if (perRoute === undefined) {
        perRoute = new SlidingWindow(this.rateLimit.route)
        this.routes.set(route, perRoute)
      }
    }
    const accountWait = this.account?.waitAt(now) ?? 0
    const routeWait = perRoute?.waitAt(now) ?? 0
    if (accountWait > 0 || routeWait > 0) {
      return accountWait >= routeWait
        ? { scope: "account", window: this.account!.window, waitMs: accountWait }
        : { scope: "route", window: perRoute!.window, waitMs: routeWait }
    }
    this.account?.add(now)
    perRoute?.add(now)
    return undefined
  }

  /** Forgets every request counted: the limits as when they were made (the fake's `reset`). */
  clear(): void {
    this.account?.clear()
    this.routes.clear()
  }
}

/** `Retry-After` for a wait of `waitMs`: whole seconds, rounded up, at least 1. */
export const retryAfterSeconds = (waitMs: number): string => String(Math.max(1, Math.ceil(waitMs / 1000)))
