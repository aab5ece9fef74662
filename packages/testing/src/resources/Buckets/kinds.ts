/**
 * The kinds of record of the Buckets group the fake keeps (`engine/kinds.ts`): each one's shape as a
 * `Snapshot` holds it, and its entry of the table of kinds (`internal/kinds.ts`). A branch's
 * buckets and objects are its own records; what it inherits from its ancestors is read from
 * theirs, as they were at its branch point (`steps.ts`), never copied.
 */
import { Api } from "@dbplatform/core"
import * as Encoding from "effect/Encoding"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { kind, SnapshotTime } from "../../engine/kinds.js"

/**
 * A bucket record of a branch (docs/contract.md §28.1): a bucket created there (`created_at`),
 * deleted there from `deleted_at` on (kept while a child branch made before then still sees it),
 * or, `hides`, a deletion there of a bucket it inherited (its ancestors keep theirs). Core's
 * `Bucket` as the fake keeps it: its `name` and `access_level`, the branch and project it is on,
 * times in epoch ms.
 */
export const SnapshotBucket = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  branch_id: Schema.String,
  name: Schema.String,
  access_level: Api.KnownBucketAccessLevel,
  created_at: SnapshotTime,
  deleted_at: Schema.optional(SnapshotTime),
  hides: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "SnapshotBucket" })

/** `bytes` in base64, by `btoa` over the bytes as a binary string built 32 KiB at a time. */
const toBase64 = (bytes: Uint8Array): string => {
  const parts: Array<string> = []
  for (let at = 0; at < bytes.length; at += 0x8000) {
    parts.push(String.fromCharCode(...bytes.subarray(at, at + 0x8000)))
  }
  return btoa(parts.join(""))
}

/**
 * Bytes as base64 in JSON. Not `Schema.Uint8ArrayFromBase64`, whose encoding builds its text a
 * character at a time: 74 ms and over 2 MiB of garbage per 64 KiB object, which made the
 * emulator's state file of 1,000 such objects take 3 GiB to write (docs/contract.md §28.6).
 */
const Base64Bytes = Schema.transformOrFail(Schema.String, Schema.Uint8ArrayFromSelf, {
  strict: true,
  decode: (text, _, ast) =>
    Either.mapLeft(Encoding.decodeBase64(text), () => new ParseResult.Type(ast, text, "must be base64")),
  encode: (bytes) => ParseResult.succeed(toBase64(bytes))
}).annotations({ identifier: "Base64Bytes" })

/**
 * An object record of a branch (docs/contract.md §28.2): its bytes (`body`, base64 in JSON), size,
 * `etag` and the `Content-Type` it was uploaded with, written at `created_at` (its
 * `last_modified`); or, `deleted`, its deletion there (hiding one the branch inherits). The
 * current record of a key has the id {@link objectId}; a record it replaced is kept as a
 * `bucket_object_versions` one while a child branch still sees it.
 */
export const SnapshotBucketObject = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  branch_id: Schema.String,
  bucket: Schema.String,
  key: Schema.String,
  body: Base64Bytes,
  etag: Schema.String,
  content_type: Schema.optional(Schema.String),
  created_at: SnapshotTime,
  deleted: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "SnapshotBucketObject" })

/**
 * An object record replaced on its branch at `superseded_at`, kept because a child branch made
 * between its `created_at` and then still sees it (copy-on-write, docs/contract.md §28.2).
 */
export const SnapshotBucketObjectVersion = Schema.Struct({
  ...SnapshotBucketObject.fields,
  superseded_at: SnapshotTime
}).annotations({ identifier: "SnapshotBucketObjectVersion" })

/**
 * A presigned URL the fake issued (docs/contract.md §28.3): the SHA-256 of its signature (`id`;
 * the URL itself is never kept), what it allows (`method` `PUT` or `GET` of the object `key` of
 * `bucket` on the branch), the `Content-Type` an upload must send (`content_type`), and when it
 * expires.
 */
export const SnapshotPresignedUrl = Schema.Struct({
  id: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)),
  project_id: Schema.String,
  branch_id: Schema.String,
  bucket: Schema.String,
  key: Schema.String,
  method: Schema.Literal("PUT", "GET"),
  content_type: Schema.optional(Schema.String),
  created_at: SnapshotTime,
  expires_at: SnapshotTime
}).annotations({ identifier: "SnapshotPresignedUrl" })

/** The id of a branch's bucket record: the branch and the name, as a JSON array. */
export const bucketId = (branchId: string, name: string): string => JSON.stringify([branchId, name])

/** The id of the current record of an object of a branch's bucket: branch, bucket and key, as a JSON array. */
export const objectId = (branchId: string, bucket: string, key: string): string =>
  JSON.stringify([branchId, bucket, key])

/** The id of a replaced record of an object: its current id's parts and the time it was written. */
export const versionId = (branchId: string, bucket: string, key: string, createdAt: number): string =>
  JSON.stringify([branchId, bucket, key, createdAt])

/** A branch's records listed in id order: by bucket, then key (a constant rank; ties by id). */
const byId = () => 0

export const buckets = kind({
  label: "bucket",
  schema: SnapshotBucket,
  id: Schema.String,
  idOf: (bucket) => bucket.id,
  parent: { kind: "branches", of: (bucket) => bucket.branch_id },
  rank: byId,
  check: (bucket) => (bucket.id === bucketId(bucket.branch_id, bucket.name) ? [] : [`bucket ${bucket.id}: id mismatch`])
})

export const bucket_objects = kind({
  label: "bucket object",
  schema: SnapshotBucketObject,
  id: Schema.String,
  idOf: (object) => object.id,
  parent: { kind: "branches", of: (object) => object.branch_id },
  rank: byId,
  check: (object) =>
    object.id === objectId(object.branch_id, object.bucket, object.key)
      ? []
      : [`bucket object ${object.id}: id mismatch`]
})

export const bucket_object_versions = kind({
  label: "bucket object version",
  schema: SnapshotBucketObjectVersion,
  id: Schema.String,
  idOf: (object) => object.id,
  parent: { kind: "branches", of: (object) => object.branch_id },
  rank: byId
})

export const presigned_urls = kind({
  label: "presigned URL",
  schema: SnapshotPresignedUrl,
  id: Schema.String,
  idOf: (url) => url.id,
  parent: { kind: "branches", of: (url) => url.branch_id },
  rank: (url) => url.expires_at
})

declare module "../../engine/kinds.js" {
  interface Kinds {
    readonly buckets: typeof buckets
    readonly bucket_objects: typeof bucket_objects
    readonly bucket_object_versions: typeof bucket_object_versions
    readonly presigned_urls: typeof presigned_urls
  }
}
