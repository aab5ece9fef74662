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
import * as Redacted from "effect/Redacted"
import {
  authenticate,
  hashKey,
  newKeyValue,
  type RecordedRequest,
  Refusal,
  refusalResponse,
  router
} from "./internal/routes.js"
import { Store } from "./internal/store.js"
import type { InvalidSeed, Seed } from "./Seed.js"

export type {
  /**
   * One request the fake served, as `Service.requests` lists it: `method`, `path` (e.g.
   * `/api/v2/projects`) and `query` (decoded parameters); no headers, so no secrets.
   *
   * @since 0.1.0
   */
  RecordedRequest
} from "./internal/routes.js"

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
 * The fake platform: its bootstrap key, its HTTP app, and what it stored and served, for
 * assertions.
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
  /** Every request served so far, oldest first (method, path, query; no headers). */
  readonly requests: Effect.Effect<ReadonlyArray<RecordedRequest>>
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
    const requests: Array<RecordedRequest> = []
    const routes = yield* HttpRouter.toHttpApp(router(store))
    const record = HttpServerRequest.HttpServerRequest.pipe(
      Effect.map((request) => {
        const url = new URL(request.url, "http://fake")
        requests.push({ method: request.method, path: url.pathname, query: Object.fromEntries(url.searchParams) })
      })
    )
    const httpApp: HttpApp.Default = record.pipe(
      Effect.zipRight(authenticate(store)),
      Effect.zipRight(routes),
      Effect.catchTags({
        Refusal: refusalResponse,
        RouteNotFound: () => refusalResponse(new Refusal({ status: 404, message: "route not found" }))
      }),
      Effect.catchAllCause(() => refusalResponse(new Refusal({ status: 500, message: "internal error" })))
    )
    return FakePlatform.of({
      bootstrapKey: Redacted.make(bootstrapValue),
      httpApp,
      apiKeys: Effect.sync(() =>
        Array.from(store.keys.values(), ({ id, name, hash, revoked }) => ({ id, name, hash, revoked }))
      ),
      requests: Effect.sync(() => requests.slice())
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
