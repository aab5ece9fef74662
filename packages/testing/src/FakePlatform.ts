/**
 * A fake of the platform's control API v2 (`control-api-v2.md`; `wire-facts.md`): API keys,
 * projects and operations held in memory, served by an `HttpApp` with the real routes,
 * statuses, `GeneralError` bodies, defaults and limits.
 *
 * - Every route answers 401 to a missing, unknown or revoked key; revocation is immediate.
 * - Keys are stored as SHA-256 hashes, never as values.
 * - Unknown ids are 404; a bad `limit`, cursor, id or `key_name` is 400; unknown routes 404.
 * - Lists are newest first with a `created_at` cursor (`GET /projects`: limit 1..400, 10 by
 *   default; operations: limit 1..1000, all by default).
 * - Operations move `scheduling` -> `running` -> their end as the `Clock` advances, so
 *   `TestClock.adjust` plays them out.
 * - `faults` injects what a proxy, a gateway or the network can do to a request (`Fault`);
 *   `requests` logs every request with its headers (the key redacted) and the fault it got.
 *
 * @since 0.1.0
 */
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type { Fault } from "./Fault.js"
import { answerWith, PendingFaults } from "./internal/faults.js"
import { type RecordedRequest, recordOf, RequestLog } from "./internal/requestLog.js"
import { authenticate, hashKey, newKeyValue, Refusal, refusalResponse, router } from "./internal/routes.js"
import { Store } from "./internal/store.js"
import type { InvalidSeed, Seed } from "./Seed.js"

export type {
  /**
   * One request the fake received, as `Service.requests` lists it: `method`, `path` (e.g.
   * `/api/v2/projects`), `query` (decoded parameters), `headers` (lower-case names, with
   * `authorization` cut to its scheme: `Bearer <redacted>`) and `fault` (the tag of the fault it
   * got, if any).
   *
   * @since 0.1.0
   */
  RecordedRequest
} from "./internal/requestLog.js"

/**
 * A key as the fake stores it: its hash, never its value.
 *
 * @since 0.1.0
 */
export interface StoredApiKey {
  readonly id: number
  readonly name: string
  /** SHA-256 of the value, hex. */
  readonly hash: string
  readonly revoked: boolean
}

/**
 * Where an injected fault applies.
 *
 * @since 0.1.0
 */
export interface InjectOptions {
  /** The request method, e.g. `"POST"` (any case); any method when absent. */
  readonly method?: string | undefined
  /**
   * The path relative to `/api/v2`, without query: exact (`"/api_keys"`) or a route template
   * whose `:name` segments match any one segment (`"/projects/:project_id/operations"`); any
   * path when absent.
   */
  readonly path?: string | undefined
  /** How many matching requests get the fault: an integer >= 1 or `Infinity` (until cleared); 1 by default. */
  readonly times?: number | undefined
}

/**
 * The fault injector of the fake (see `Fault`).
 *
 * @since 0.1.0
 */
export interface Faults {
  /**
   * Gives `fault` to the next `times` requests matching `method` and `path` (see
   * {@link InjectOptions}). A request takes the first pending fault that matches it, in
   * injection order, so a fault injected with `times: Infinity` shadows later ones for the
   * requests it matches. Faults apply before authentication, as a proxy in front of the API
   * answers; a `Fault.status(..., { processed: true })` applies after the real handling.
   * Dies with an `IllegalArgumentException` on a `times` below 1 or not an integer, or a
   * `path` not starting with `/` or holding a query.
   */
  readonly inject: (fault: Fault, options?: InjectOptions) => Effect.Effect<void>
  /** Removes every pending fault; requests after it are answered normally. */
  readonly clear: Effect.Effect<void>
}

/**
 * The fake platform: its bootstrap key, its HTTP app, its fault injector, and what it stored
 * and served, for assertions.
 *
 * @since 0.1.0
 */
export interface Service {
  /** The value of the account's first key, `bootstrap` (§5.7): valid until revoked. */
  readonly bootstrapKey: Redacted.Redacted<string>
  /** The HTTP app serving `/api/v2/...`; run it in memory or on an `HttpServer`. */
  readonly httpApp: HttpApp.Default
  /** The keys as stored: ids, names, hashes and whether revoked. */
  readonly apiKeys: Effect.Effect<ReadonlyArray<StoredApiKey>>
  /**
   * The requests received so far, oldest first, the last 10 000 only (older ones are
   * forgotten, so a long-running fake does not grow without limit). Each has its method,
   * path (with `/api/v2`), query, every header (names lower-cased; `authorization` keeps its
   * scheme only, `Bearer <redacted>`: no key value is ever kept) and, when it got one, the
   * `_tag` of its fault. A request is logged when it arrives, so a hanging one is there too.
   */
  readonly requests: Effect.Effect<ReadonlyArray<RecordedRequest>>
  /** Injects faults into the next requests (`Fault`), or clears them. */
  readonly faults: Faults
}

/**
 * The tag of the fake {@link Service}; `DbPlatformTest.layer` and {@link layer} provide it.
 *
 * @since 0.1.0
 * @category tags
 */
export class FakePlatform extends Context.Tag("@dbplatform/testing/FakePlatform")<FakePlatform, Service>() {}

/**
 * A fake account built from `seed`, its times relative to the `Clock`'s time now. Fails with
 * `InvalidSeed` listing every bad or repeated id and operation of an unknown project.
 *
 * @since 0.1.0
 */
export const make = (seed: Seed = {}): Effect.Effect<Service, InvalidSeed> =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const store = yield* Store.fromSeed(seed, now)
    const bootstrapValue = seed.bootstrapKey ?? newKeyValue()
    store.addKey("bootstrap", hashKey(bootstrapValue), now)
    const log = new RequestLog()
    const faults = yield* PendingFaults.make
    const routes = yield* HttpRouter.toHttpApp(router(store))
    /** The real answer: authentication, then the routes. */
    const answer = authenticate(store).pipe(
      Effect.zipRight(routes),
      Effect.catchTags({
        Refusal: refusalResponse,
        RouteNotFound: () => refusalResponse(new Refusal({ status: 404, message: "route not found" }))
      }),
      Effect.catchAllCause(() => refusalResponse(new Refusal({ status: 500, message: "internal error" })))
    )
    const httpApp: HttpApp.Default = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const url = new URL(request.url, "http://fake")
      const fault = Option.getOrUndefined(yield* faults.take(request.method, url.pathname))
      log.add(recordOf(request, url, fault?._tag))
      return yield* fault === undefined ? answer : answerWith(fault, answer)
    })
    return FakePlatform.of({
      bootstrapKey: Redacted.make(bootstrapValue),
      httpApp,
      apiKeys: Effect.sync(() =>
        Array.from(store.keys.values(), ({ id, name, hash, revoked }) => ({ id, name, hash, revoked }))
      ),
      requests: Effect.sync(() => log.all()),
      faults: {
        inject: (fault, options = {}) => faults.inject(fault, options),
        clear: faults.clear
      }
    })
  })

/**
 * The fake as a Layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (seed: Seed = {}): Layer.Layer<FakePlatform, InvalidSeed> => Layer.effect(FakePlatform, make(seed))

/**
 * Serves the fake on the `HttpServer` in context (e.g. `NodeHttpServer.layer(createServer,
 * { port: 0, host: "127.0.0.1" })`); its base URL is the server's address + `/api/v2`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerServer: Layer.Layer<never, never, FakePlatform | HttpServer.HttpServer> = Layer.unwrapEffect(
  Effect.map(FakePlatform, (fake) => HttpServer.serve(fake.httpApp))
)

/**
 * The base URL of the fake served on the `HttpServer` in context, e.g.
 * `http://127.0.0.1:43123/api/v2`.
 *
 * @since 0.1.0
 */
export const serverBaseUrl: Effect.Effect<string, never, HttpServer.HttpServer> = HttpServer.addressWith((address) =>
  Effect.succeed(
    address._tag === "TcpAddress"
      ? `http://${address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname}:${address.port}/api/v2`
      : "http://localhost/api/v2"
  )
)
