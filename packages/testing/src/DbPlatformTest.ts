/**
 * Everything a test needs in one Layer: the fake platform from a seed, the in-memory
 * `HttpClient` routed to it, and every service of `DbPlatform.layer` (`ApiKeys`, `Projects`,
 * `Operations`, `Branches`, `ComputeEndpoints`, `Connections`, `Databases`, `Roles`, and the
 * `DbPlatformClient` they share) authenticated with the bootstrap key.
 *
 * ```ts
 * it.effect("lists projects", () =>
 *   Effect.gen(function* () {
 *     const projects = yield* Projects.Projects
 *     const page = yield* projects.listPage({ limit: 2 })
 *     ...
 *   }).pipe(Effect.provide(DbPlatformTest.layer({ seed: Seed.realistic() }))))
 * ```
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import { DbPlatform, type DbPlatformClient } from "@dbplatform/client"
import { Endpoint } from "@dbplatform/core"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as FakeHttpClient from "./FakeHttpClient.js"
import * as FakePlatform from "./FakePlatform.js"
import { InvalidSeed, type Seed } from "./Seed.js"

/**
 * The base URL the in-memory client uses.
 *
 * @since 0.1.0
 */
export const baseUrl = `http://dbplatform.test${Endpoint.basePath}`

/**
 * The fake (from `seed`, empty by default; with `rateLimit`, its opt-in rate limit per account
 * and per route, see `FakePlatform.Options`), the in-memory `HttpClient`, and the client services, built with
 * `client`'s settings (e.g. `retrySchedule: Schedule.stop` to see each fault's error at once, or a
 * shorter `deadline`). Fails with `InvalidSeed` if the seed has a bad or repeated id, or a
 * `bootstrapKey` an HTTP header cannot carry. The fake is
 * built when the Layer is, so its times start at the `Clock`'s time then (0 under `TestClock`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: {
    readonly seed?: Seed | undefined
    readonly rateLimit?: FakePlatform.RateLimit | undefined
    readonly client?: Omit<DbPlatformClient.Options, "baseUrl" | "apiKey"> | undefined
  } = {}
): Layer.Layer<
  DbPlatform.DbPlatform | DbPlatformClient.DbPlatformClient | FakePlatform.FakePlatform | HttpClient.HttpClient,
  InvalidSeed
> => {
  const fake = FakePlatform.layer(options.seed, { rateLimit: options.rateLimit })
  const httpClient = FakeHttpClient.layer
  const client = Layer.unwrapEffect(
    Effect.map(FakePlatform.FakePlatform, (platform) =>
      DbPlatform.layer({ ...options.client, baseUrl, apiKey: platform.bootstrapKey })
    )
  ).pipe(
    // Only the seed's bootstrapKey can be a key the client refuses.
    Layer.catchAll((error) => Layer.fail(new InvalidSeed({ problems: [`bootstrapKey: ${error.message}`] })))
  )
  return client.pipe(Layer.provideMerge(httpClient), Layer.provideMerge(fake))
}
