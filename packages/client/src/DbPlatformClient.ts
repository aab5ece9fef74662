/**
 * The HTTP client every service of this package calls through: base URL, bearer token,
 * `Accept: application/json`, and the mapping of each response to its value or typed error
 * (`control-api-v2.md` §4, §5, §7; wire-facts "General", "Statuses a client meets").
 *
 * It depends on no runtime package: provide any `HttpClient` (`FetchHttpClient.layer`,
 * `NodeHttpClient.layer`, `BunHttpClient.layer`, or `@dbplatform/testing`'s in-memory one).
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type { HttpStatusError, MalformedResponse, TransportError } from "@dbplatform/core"
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { identity } from "effect/Function"
import * as Layer from "effect/Layer"
import type * as Redacted from "effect/Redacted"
import type * as Schema from "effect/Schema"
import { decodeBody, statusError, transportError } from "./internal/response.js"

/**
 * What a call can fail with once it is sent: an error status, a success body that does not
 * decode, or no response at all.
 *
 * @since 0.1.0
 */
export type CallError = HttpStatusError | MalformedResponse | TransportError

/**
 * Settings of the client.
 *
 * @since 0.1.0
 */
export interface Options {
  /**
   * The API's base URL, including the version segment, e.g. `https://host/api/v2` (§9).
   * Request paths are appended to it.
   */
  readonly baseUrl: string
  /** The account's API key, sent as `Authorization: Bearer` (§5). Never logged. */
  readonly apiKey: Redacted.Redacted<string>
  /** Wraps the configured `HttpClient`, e.g. to add headers, tracing or retries. */
  readonly transformClient?: ((client: HttpClient.HttpClient) => HttpClient.HttpClient) | undefined
}

/**
 * The service: `execute` sends a request (path relative to the base URL) and decodes a 2xx
 * body with `schema`; any other status fails with its typed error.
 *
 * @since 0.1.0
 */
export interface Service {
  /** The `HttpClient` with base URL, bearer token and `Accept` applied. */
  readonly httpClient: HttpClient.HttpClient
  readonly execute: <A, I, R>(
    request: HttpClientRequest.HttpClientRequest,
    schema: Schema.Schema<A, I, R>
  ) => Effect.Effect<A, CallError, R>
}

/**
 * The tag of the client {@link Service}, which `ApiKeys`, `Projects` and `Operations` call
 * through.
 *
 * @since 0.1.0
 * @category tags
 */
export class DbPlatformClient extends Context.Tag("@dbplatform/client/DbPlatformClient")<DbPlatformClient, Service>() {}

/**
 * Builds the service over the `HttpClient` in context.
 *
 * @since 0.1.0
 */
export const make = (options: Options): Effect.Effect<Service, never, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const baseUrl = options.baseUrl.replace(/\/+$/, "")
    const httpClient = (yield* HttpClient.HttpClient).pipe(
      HttpClient.mapRequest((request) =>
        request.pipe(
          HttpClientRequest.prependUrl(baseUrl),
          HttpClientRequest.bearerToken(options.apiKey),
          HttpClientRequest.acceptJson
        )
      ),
      options.transformClient ?? identity
    )
    const execute = <A, I, R>(request: HttpClientRequest.HttpClientRequest, schema: Schema.Schema<A, I, R>) =>
      httpClient.execute(request).pipe(
        Effect.mapError(transportError(request)),
        Effect.flatMap(
          (response): Effect.Effect<A, CallError, R> =>
            response.status >= 200 && response.status < 300
              ? decodeBody(request, response, schema)
              : statusError(request, response)
        )
      )
    return DbPlatformClient.of({ httpClient, execute })
  })

/**
 * The client from explicit settings.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<DbPlatformClient, never, HttpClient.HttpClient> =>
  Layer.effect(DbPlatformClient, make(options))

/**
 * Where {@link layerConfig} reads its settings; each defaults to the environment variable named.
 *
 * @since 0.1.0
 */
export interface ConfigOptions {
  /** `DBPLATFORM_BASE_URL` by default; must be a URL. */
  readonly baseUrl?: Config.Config<string> | undefined
  /** `DBPLATFORM_API_KEY` by default, read as `Redacted`. */
  readonly apiKey?: Config.Config<Redacted.Redacted<string>> | undefined
  readonly transformClient?: Options["transformClient"]
}

/**
 * The client from configuration: `DBPLATFORM_BASE_URL` (a URL) and `DBPLATFORM_API_KEY`
 * (read as `Redacted`) unless other `Config`s are given. Fails with a `ConfigError` when one
 * is missing.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  config: ConfigOptions = {}
): Layer.Layer<DbPlatformClient, ConfigError.ConfigError, HttpClient.HttpClient> =>
  Layer.effect(
    DbPlatformClient,
    Effect.gen(function* () {
      const baseUrl = yield* config.baseUrl ?? Config.map(Config.url("DBPLATFORM_BASE_URL"), String)
      const apiKey = yield* config.apiKey ?? Config.redacted("DBPLATFORM_API_KEY")
      return yield* make({ baseUrl, apiKey, transformClient: config.transformClient })
    })
  )
