/**
 * Buckets: a branch's object storage, which branches with its data: `list`, `create`, `delete`
 * buckets; `listObjects` (a `Stream` of the objects, following the cursor), `listObjectsPage`,
 * `getObject` (the bytes, read whole), `deleteObject`, `deleteObjectsByPrefix`; `presignObject`, a URL
 * to upload or download an object with (`Redacted`: a bearer secret until it expires)
 * (`docs/contract.md` §28).
 *
 * @since 0.6.0
 */
import * as Api from "@dbplatform/core/Api"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
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
