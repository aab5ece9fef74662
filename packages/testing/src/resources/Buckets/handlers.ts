/**
 * The fake's bucket routes (docs/contract.md §28): each decodes with its entry of core's
 * `Api.Buckets` and runs a mutation or a read of `steps.ts`. A presigned URL points at the fake's
 * own data plane (`dataPlane.ts`), under the origin the request was sent to.
 */
import { Api } from "@dbplatform/core"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import { type Authorizations, anyKey } from "../../engine/authorization.js"
import { change, read } from "../../engine/change.js"
import type { Handlers } from "../../engine/route.js"
import type { FakeState } from "../../engine/state.js"
import { at, unchecked } from "../../engine/wire.js"
import {
  bucketsOf,
  createBucket,
  deleteBucket,
  deleteObject,
  deleteObjectsByPrefix,
  objectOf,
  objectsPage,
  presignObject,
  type StoredBucket,
  type StoredObject,
  type StoredPresignedUrl
} from "./steps.js"

/** A bucket as a real server sends it. */
const bucketAt = (bucket: StoredBucket) =>
  new Api.Bucket({ name: bucket.name, access_level: bucket.access_level, created_at: at(bucket.created_at) }, unchecked)

/** An object as a list shows it. */
const objectAt = (object: StoredObject) =>
  new Api.BucketObject(
    { key: object.key, size: object.body.length, last_modified: at(object.created_at), etag: object.etag },
    unchecked
  )

/** The path of the fake's data plane for a branch: where its S3 endpoint and presigned URLs point. */
export const dataPlanePath = "/_storage"

/** `time` (epoch ms) as SigV4's `X-Amz-Date` writes it: `20261128T203500Z`. */
const amzDate = (time: number): string =>
  new Date(time)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "")

/**
 * The presigned URL of `url` with its `signature`, under `origin`: the object's path on the fake's
 * data plane (`/_storage/{branch_id}/{bucket}/{key}`, each segment of the key encoded), and the
 * SigV4 query a real one carries (the signature is the fake's secret, the rest says what it is).
 */
const presignedUrlOf = (origin: string, url: StoredPresignedUrl, signature: string, region: string): string => {
  const path = [url.branch_id, url.bucket, ...url.key.split("/")].map(encodeURIComponent).join("/")
  const query = new URLSearchParams({
    "X-Amz-Algorithm": "AWS4-HMAC-SHA256",
    "X-Amz-Credential": `fake/${amzDate(url.created_at).slice(0, 8)}/${region}/s3/aws4_request`,
    "X-Amz-Date": amzDate(url.created_at),
    "X-Amz-Expires": String(Math.round((url.expires_at - url.created_at) / 1000)),
    "X-Amz-SignedHeaders": url.content_type === undefined ? "host" : "content-type;host",
    "X-Amz-Signature": signature
  })
  return `${origin}${dataPlanePath}/${path}?${query.toString()}`
}

/** How the fake answers each entry of core's `Api.Buckets`, over `fake`. */
export const bucketHandlers = (fake: FakeState): Handlers<typeof Api.Buckets> => ({
  list: ({ params }) =>
    read(fake, (state) =>
      Either.map(
        bucketsOf(state, params.project_id, params.branch_id),
        (buckets) => new Api.BucketList({ buckets: buckets.map(bucketAt) }, unchecked)
      )
    ),
  create: ({ body, params }) =>
    change(
      fake,
      () => createBucket(params.project_id, params.branch_id, body),
      (bucket) => new Api.BucketResponse({ bucket: bucketAt(bucket) }, unchecked)
    ),
  delete: ({ params }) => change(fake, () => deleteBucket(params.project_id, params.branch_id, params.bucket_name)),
  listObjects: ({ params, query }) =>
    read(fake, (state) =>
      Either.map(
        objectsPage(state, params, query),
        (page) =>
          new Api.BucketObjectsPage(
            {
              folders: page.folders,
              objects: page.objects.map(objectAt),
              prefix: page.prefix,
              next_cursor: page.next_cursor,
              is_truncated: page.is_truncated
            },
            unchecked
          )
      )
    ),
  deleteObject: ({ params }) =>
    change(fake, () => deleteObject(params.project_id, params.branch_id, params.bucket_name, params.object_key)),
  getObject: ({ params }) =>
    read(fake, (state) =>
      Either.map(
        objectOf(state, params.project_id, params.branch_id, params.bucket_name, params.object_key),
        (object) =>
          new Api.BucketObjectContent(
            {
              body: object.body,
              content_length: object.body.length,
              etag: object.etag,
              content_type: "application/octet-stream",
              content_disposition: "attachment",
              x_content_type_options: "nosniff"
            },
            unchecked
          )
      )
    ),
  deleteObjectsByPrefix: ({ params, query }) =>
    change(
      fake,
      () => deleteObjectsByPrefix(params.project_id, params.branch_id, params.bucket_name, query.prefix),
      (deleted) => new Api.BucketObjectsDeleted({ deleted }, unchecked)
    ),
  presignObject: (input) =>
    change(
      fake,
      (dice) => presignObject(input.params, input.body, dice),
      ({ region, signature, url }) =>
        new Api.PresignedUrl(
          {
            url: Redacted.make(presignedUrlOf(input.origin, url, signature, region)),
            method: url.method,
            headers: url.content_type === undefined ? {} : { "Content-Type": url.content_type },
            expires_at: at(url.expires_at)
          },
          unchecked
        )
    )
})

/** Which kinds of key may call each Buckets endpoint, and what another gets (docs/contract.md §21). */
export const bucketAuthorizations: Authorizations<typeof Api.Buckets> = {
  list: anyKey,
  create: anyKey,
  delete: anyKey,
  listObjects: anyKey,
  deleteObject: anyKey,
  getObject: anyKey,
  deleteObjectsByPrefix: anyKey,
  presignObject: anyKey
}
