/**
 * The fake's HTTP app around its answer (`FakePlatform.Service.httpApp`): what happens to every
 * request before the platform's own handling, as a proxy in front of the API would do it. The
 * request target is checked, the request logged (credentials redacted, a path segment that is an
 * API key of the account too), a pending fault given, a path with traversal refused; and a bug of
 * the fake is answered 500 and logged, never a crash.
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import { hashKey } from "./authentication.js"
import { answerWith, ConnectionDropped, type PendingFaults } from "./faults.js"
import { pathRefusal } from "./limits.js"
import { Refusal } from "./refusal.js"
import { type RequestLog, recordOf } from "./requestLog.js"
import { refusalResponse } from "./route.js"
import { type FakeState, itemsOf, type State } from "./state.js"
import { Status } from "./status.js"

/**
 * The HTTP app of `fake` whose real answer is `answer` (the body size, the control plane,
 * authentication, the rate limit, then the routes): each request is logged in `log` when it
 * arrives and may take a fault of `faults` instead.
 */
export const httpAppOf = <E, R>(
  fake: FakeState,
  log: RequestLog,
  faults: PendingFaults,
  answer: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R | HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const url = urlOf(request.url)
    if (url === undefined) {
      yield* log.add(recordOf(request, new URL("http://fake/"), undefined))
      return yield* refusalResponse(
        new Refusal({ status: Status.badRequest, message: "request target is not a valid path" })
      )
    }
    const fault = Option.getOrUndefined(yield* faults.take(request.method, url.pathname))
    yield* log.add(recordOf(request, url, fault?._tag, isKeyOf(yield* Ref.get(fake.ref))))
    if (fault !== undefined) return yield* answerWith(fault, answer)
    const badPath = pathRefusal(rawPathOf(request.url))
    return yield* badPath === undefined ? answer : refusalResponse(new Refusal(badPath))
  }).pipe(
    // The last resort, for a bug of the fake: malformed input is refused above with a 4xx. A
    // dropped connection (`Fault.drop`) and interruption go on as they are.
    Effect.catchAllCause((cause) => {
      if (Cause.isInterruptedOnly(cause)) return Effect.interrupt
      const dropped = Cause.find(cause, (reason) =>
        reason._tag === "Die" && reason.defect instanceof ConnectionDropped ? Option.some(reason.defect) : Option.none()
      )
      return Option.isSome(dropped)
        ? Effect.die(dropped.value)
        : Effect.zipRight(
            Effect.logError("dbplatform fake: internal error", cause),
            refusalResponse(new Refusal({ status: Status.internalError, message: "internal error" }))
          )
    })
  )

/** The hashes of the API keys of each `api_keys` collection (immutable: a change makes another), made once. */
const keyHashes = new WeakMap<State["api_keys"], ReadonlySet<string>>()

/**
 * Whether a text is the value of an API key of `state` (revoked or not): its SHA-256 is a key's
 * hash. For the request log, which keeps `<redacted>` in place of a path segment that is one.
 */
const isKeyOf =
  (state: State) =>
  (text: string): boolean => {
    let hashes = keyHashes.get(state.api_keys)
    if (hashes === undefined) {
      hashes = new Set(Array.from(itemsOf(state, "api_keys"), (key) => key.hash))
      keyHashes.set(state.api_keys, hashes)
    }
    return hashes.has(hashKey(text))
  }

/** The request target as a URL, or `undefined` when it is not one. */
const urlOf = (target: string): URL | undefined => {
  try {
    return new URL(target, "http://fake")
  } catch {
    return undefined
  }
}

/** The path of a request target as sent (not normalised: `..` stays), without its query. */
const rawPathOf = (target: string): string => {
  const path = target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "")
  const end = path.search(/[?#]/)
  return end < 0 ? path : path.slice(0, end)
}
