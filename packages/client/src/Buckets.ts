/**
 * Buckets: a branch's object storage, which branches with its data: `list`, `create`, `delete`
 * buckets; `listObjects` (a `Stream` of the objects, following the cursor), `listObjectsPage`,
 * `getObject` (the bytes, read whole), `deleteObject`, `deleteObjectsByPrefix`; `presignObject`, a URL
 * to upload or download an object with (`Redacted`: a bearer secret until it expires)
 * (`docs/contract.md` §28).
 *
 * @since 0.6.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { TransportError } from "@dbplatform/core"
import * as Api from "@dbplatform/core/Api"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { DbPlatformClient } from "./DbPlatformClient.js"
import * as Resource from "./Resource.js"

/**
 * The `Buckets` service: one method per entry of core's `Api.Buckets` group, each called with one
 * input object whose keys are the wire's path, query and body names, answering the wire's shape,
 * and failing with exactly the errors its entry declares (`docs/design.md` §1.3). `list` is a
 * `Stream` of the branch's buckets (`listPage`: `{ buckets }`); `listObjects` a `Stream` of the
 * objects under `prefix`, following `next_cursor` one page at a time (`listObjectsPage`: one
 * page with its `folders`). `getObject` answers the object's bytes and headers
 * (`BucketObjectContent`); `presignObject` a `PresignedUrl` whose `url` is `Redacted`. There is
 * no upload entry: bytes go up through a presigned `PUT` (§28.3).
 *
 * @since 0.6.0
 */
export interface Service extends Resource.Methods<typeof Api.Buckets> {}

/**
 * The tag of the {@link Service}; `yield* Buckets.Buckets` in a program, provided by {@link layer} or
 * `DbPlatform.layer`.
 *
 * @since 0.6.0
 * @category tags
 */
export class Buckets extends Context.Tag("@dbplatform/client/Buckets")<Buckets, Service>() {}

/**
 * Builds the {@link Service} over the `DbPlatformClient` in context.
 *
 * @since 0.6.0
 */
export const make: Effect.Effect<Service, never, DbPlatformClient> = Effect.map(DbPlatformClient, (client) =>
  Buckets.of(Resource.methods(client, Api.Buckets))
)

/**
 * The {@link Service} as a Layer; needs a `DbPlatformClient` (`DbPlatform.layer` provides both).
 *
 * @since 0.6.0
 * @category layers
 */
export const layer: Layer.Layer<Buckets, never, DbPlatformClient> = Layer.effect(Buckets, make)

/**
 * What a presigned URL answered ({@link transfer}): its `status` (200 for an upload stored or a
 * download; S3's 403 once expired or for a `Content-Type` other than the one signed, 404 for an
 * object deleted since), its headers (names lower-cased: `etag`, `content-type`) and its body's
 * bytes (a download's object, or S3's XML `<Error>`).
 *
 * @since 0.6.0
 * @category models
 */
export interface Transferred {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: Uint8Array
}

/**
 * Sends `body` to a presigned upload URL, or reads a presigned download URL
 * (`presignObject`'s answer, docs/contract.md §28.3), with the `HttpClient` in context: its
 * `method`, `url` and `headers` as they are. The URL is a bearer secret, and `@effect/platform`'s
 * own client span records a request's full URL (`url.full`, `url.query`, the signature in it):
 * that span is turned off here, and the call is one span of its own, `Buckets.transfer`, with the
 * method and the status only. A request that gets no response fails with a `TransportError`
 * naming neither the URL nor its query (`path` `<presigned URL>`). An S3 refusal is an answer,
 * not an error: read its `status`.
 *
 * @since 0.6.0
 */
export const transfer = (
  presigned: Api.PresignedUrl,
  body?: Uint8Array
): Effect.Effect<Transferred, TransportError, HttpClient.HttpClient> =>
  Effect.useSpan(
    "Buckets.transfer",
    { kind: "client", captureStackTrace: false, attributes: { "http.request.method": presigned.method } },
    (span) =>
      Effect.flatMap(HttpClient.HttpClient, (client) => {
        const request = HttpClientRequest.make(presigned.method as "GET" | "PUT")(Redacted.value(presigned.url)).pipe(
          HttpClientRequest.setHeaders(presigned.headers),
          (request) =>
            body === undefined
              ? request
              : HttpClientRequest.bodyUint8Array(request, body, presigned.headers["Content-Type"])
        )
        return client
          .pipe(HttpClient.withTracerDisabledWhen(() => true))
          .execute(request)
          .pipe(
            Effect.flatMap((response) =>
              Effect.map(response.arrayBuffer, (bytes): Transferred => {
                span.attribute("http.response.status_code", response.status)
                return { status: response.status, headers: response.headers, body: new Uint8Array(bytes) }
              })
            ),
            Effect.scoped,
            // The transport's error holds the request, and so the URL: only its kind is kept.
            Effect.mapError(
              (error) =>
                new TransportError({
                  method: presigned.method,
                  route: "<presigned URL>",
                  path: "<presigned URL>",
                  description: `${error._tag}: ${error.reason}`
                })
            )
          )
      })
  )
