/**
 * The bucket endpoints: a branch's object storage, whose buckets and objects branch with its data
 * (a branch sees its own and those of its ancestors as they were when it was made), listed,
 * created, deleted, downloaded and presigned for an upload or a download (`docs/contract.md` §28).
 *
 * @since 0.6.0
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../Endpoint.js"
import { branchParams, Cursor, IntegerParameter, withMessage } from "../internal/input.js"
import { openEnum } from "../internal/openEnum.js"
import { Timestamp } from "../Timestamp.js"

/**
 * The known access levels of a bucket: `private` (every request authenticated, the default) and
 * `public_read` (anyone may read its objects) (§28.1).
 *
 * @since 0.6.0
 * @category schemas
 */
export const KnownBucketAccessLevel = Schema.Literal("private", "public_read")

/**
 * A bucket's access level: one of {@link KnownBucketAccessLevel}, or another the platform may add.
 *
 * @since 0.6.0
 * @category schemas
 */
export type BucketAccessLevel = typeof KnownBucketAccessLevel.Type | (string & {})

/**
 * Open enum schema of {@link BucketAccessLevel}.
 *
 * @since 0.6.0
 * @category schemas
 */
export const BucketAccessLevel: Schema.Schema<BucketAccessLevel> = openEnum(KnownBucketAccessLevel, "BucketAccessLevel")

/**
 * A bucket of a branch: its `name` (unique on the branch), `access_level`, and when it was
 * created (for one inherited from an ancestor branch, when the ancestor created it) (§28.1).
 *
 * @since 0.6.0
 * @category schemas
 */
export class Bucket extends Schema.Class<Bucket>("Bucket")({
  name: Schema.String,
  access_level: BucketAccessLevel,
  created_at: Timestamp
}) {}

/**
 * Answer of `GET .../buckets`: `{ buckets }`, every bucket the branch sees, its ancestors' too
 * (§28.1).
 *
 * @since 0.6.0
 * @category schemas
 */
export class BucketList extends Schema.Class<BucketList>("BucketList")({
  buckets: Schema.Array(Bucket)
}) {}

/**
 * Answer of `POST .../buckets` (201): `{ bucket }` (§28.1).
 *
 * @since 0.6.0
 * @category schemas
 */
export class BucketResponse extends Schema.Class<BucketResponse>("BucketResponse")({
  bucket: Bucket
}) {}

/** A bucket's name as a client sends it, in a path or a body: 1 to 255 characters. */
const BucketName = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255)).annotations(
  withMessage("must be 1 to 255 characters")
)

/**
 * An object's key as a client sends it in a path: 1 to 1024 characters, sent as one path segment
 * (a `/` in it goes as `%2F`, as every path parameter is encoded) (§28.2).
 */
const ObjectKey = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(1024)).annotations(
  withMessage("must be 1 to 1024 characters")
)

/**
 * Body of `POST .../buckets`: `name` (1 to 255 characters, unique on the branch) and
 * `access_level` (`private` when absent) (§28.1).
 *
 * @since 0.6.0
 * @category schemas
 */
export class BucketCreateRequest extends Schema.Class<BucketCreateRequest>("BucketCreateRequest")({
  name: BucketName,
  access_level: Schema.optional(KnownBucketAccessLevel.annotations(withMessage("must be private or public_read")))
}) {}

/**
 * An object of a bucket as a list shows it: its `key`, `size` in bytes, `last_modified` and
 * `etag` (its content's hash) (§28.2).
 *
 * @since 0.6.0
 * @category schemas
 */
export class BucketObject extends Schema.Class<BucketObject>("BucketObject")({
  key: Schema.String,
  size: Schema.Number,
  last_modified: Timestamp,
  etag: Schema.String
}) {}

/**
 * Answer of `GET .../buckets/{bucket_name}/objects`: one page of the objects the branch sees
 * under `prefix` (echoed), the `folders` a `delimiter` folds keys into (the common prefixes, each
 * ending with the delimiter; empty without one), whether more follow (`is_truncated`) and the
 * cursor of the next page (`next_cursor`, absent or empty on the last) (§28.2).
 *
 * @since 0.6.0
 * @category schemas
 */
export class BucketObjectsPage extends Schema.Class<BucketObjectsPage>("BucketObjectsPage")({
  folders: Schema.Array(Schema.String),
  objects: Schema.Array(BucketObject),
  prefix: Schema.String,
  next_cursor: Schema.optional(Schema.String),
  is_truncated: Schema.Boolean
}) {}

/**
 * Answer of `DELETE .../objects-by-prefix`: how many objects stored on the branch were deleted
 * (`deleted`, 0 when none matched) (§28.2).
 *
 * @since 0.6.0
 * @category schemas
 */
export class BucketObjectsDeleted extends Schema.Class<BucketObjectsDeleted>("BucketObjectsDeleted")({
  deleted: Schema.Number
}) {}

/**
 * An object's content as `GET .../objects/{object_key}/download` answers it: its bytes (`body`),
 * `content_length` in bytes, `etag`, and the headers the platform sets against a browser
 * (`content_type` `application/octet-stream`, `content_disposition` `attachment`,
 * `x_content_type_options` `nosniff`) (§28.2).
 *
 * @since 0.6.0
 * @category schemas
 */
export class BucketObjectContent extends Schema.Class<BucketObjectContent>("BucketObjectContent")({
  body: Schema.Uint8ArrayFromSelf,
  content_length: Schema.Number,
  etag: Schema.optional(Schema.String),
  content_type: Schema.optional(Schema.String),
  content_disposition: Schema.optional(Schema.String),
  x_content_type_options: Schema.optional(Schema.String)
}) {}

/** The response headers a download's content reads, by their lower-cased names. */
const contentHeaders = {
  etag: "etag",
  content_type: "content-type",
  content_disposition: "content-disposition",
  x_content_type_options: "x-content-type-options"
} as const

/**
 * A download's answer as it comes, `{ body, headers }` (`Endpoint.Bytes`), read as its
 * {@link BucketObjectContent}: `content_length` is the bytes' length (the transport ends the
 * body at its `Content-Length`).
 */
const ObjectContentFromBytes = Schema.transform(
  Schema.Struct({
    body: Schema.Uint8ArrayFromSelf,
    headers: Schema.Record({ key: Schema.String, value: Schema.String })
  }),
  Schema.typeSchema(BucketObjectContent),
  {
    strict: true,
    decode: ({ body, headers }) => {
      const read: Record<string, string> = {}
      for (const [field, header] of Object.entries(contentHeaders)) {
        const value = headers[header]
        if (value !== undefined) read[field] = value
      }
      return new BucketObjectContent({ body, content_length: body.length, ...read })
    },
    encode: (content) => {
      const headers: Record<string, string> = { "content-length": String(content.body.length) }
      for (const [field, header] of Object.entries(contentHeaders)) {
        const value = content[field as keyof typeof contentHeaders]
        if (value !== undefined) headers[header] = value
      }
      return { body: content.body, headers }
    }
  }
)

/**
 * The known directions of a presigned URL: `upload` (a `PUT` of the bytes) and `download` (a
 * `GET`) (§28.3).
 *
 * @since 0.6.0
 * @category schemas
 */
export const PresignOperation = Schema.Literal("upload", "download").annotations(
  withMessage("must be upload or download")
)

/**
 * Body of `POST .../objects/{object_key}/presign`: `operation` (`upload` or `download`),
 * `content_type` (an upload's: bound into the signature, to be sent on the `PUT`), and
 * `expires_in_seconds` (1 to 604 800 s, 900 when absent) (§28.3).
 *
 * @since 0.6.0
 * @category schemas
 */
export class PresignRequest extends Schema.Class<PresignRequest>("PresignRequest")({
  operation: PresignOperation,
  content_type: Schema.optional(Schema.String),
  expires_in_seconds: Schema.optional(
    Schema.Int.pipe(Schema.between(1, 604_800)).annotations(
      withMessage("must be an integer from 1 to 604800 (seconds)")
    )
  )
}) {}

/**
 * Answer of `POST .../objects/{object_key}/presign`: the presigned `url` (a bearer secret until
 * `expires_at`, so `Redacted`), the `method` to send it with (`PUT` for an upload, `GET` for a
 * download), the `headers` to send with it as they are (an upload's `Content-Type`; may be
 * empty), and `expires_at` (§28.3).
 *
 * @since 0.6.0
 * @category schemas
 */
export class PresignedUrl extends Schema.Class<PresignedUrl>("PresignedUrl")({
  url: Schema.Redacted(Schema.String),
  method: Schema.String,
  headers: Schema.Record({ key: Schema.String, value: Schema.String }),
  expires_at: Timestamp
}) {}

/** A branch's bucket in a path. */
const bucketParams = Schema.Struct({ ...branchParams.fields, bucket_name: BucketName })

/** An object of a branch's bucket in a path. */
const objectParams = Schema.Struct({ ...bucketParams.fields, object_key: ObjectKey })

/** The page size of an object list: at most 1000, 1000 when none is sent. */
const objectPageLimits: Endpoint.PageLimits = { max: 1000, default: 1000 }

/**
 * A prefix of `DELETE .../objects-by-prefix`: 1 to 1024 characters, ending with `/` (a folder: a
 * partial segment cannot take its siblings), no control characters (§28.2).
 */
const FolderPrefix = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(1024),
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  Schema.pattern(/^[^\u0000-\u001f\u007f]*\/$/)
).annotations(withMessage("must be 1 to 1024 characters ending with /, without control characters"))

/**
 * The bucket endpoints of a branch (`docs/contract.md` §28), in private beta on the platform.
 *
 * @since 0.6.0
 * @category endpoints
 */
export const Buckets = Endpoint.group("Buckets", {
  /**
   * `GET .../branches/{branch_id}/buckets`: `{ buckets }`, the branch's buckets and those it
   * inherits from its ancestors, not paged (§28.1). 404 for an unknown project or branch.
   */
  list: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/branches/{branch_id}/buckets",
    params: branchParams,
    success: BucketList,
    errors: ["NotFound", "BadRequest"],
    list: { items: (answer) => answer.buckets }
  }),
  /**
   * `POST .../branches/{branch_id}/buckets`: creates a bucket on the branch; answers 201
   * `{ bucket }` (§28.1). 400 for a body refused, 404 for an unknown project or branch, 409 for a
   * name the branch already sees.
   */
  create: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/branches/{branch_id}/buckets",
    params: branchParams,
    body: BucketCreateRequest,
    success: BucketResponse,
    statuses: [201],
    errors: ["BadRequest", "NotFound", "Conflict"]
  }),
  /**
   * `DELETE .../buckets/{bucket_name}`: deletes a bucket from the branch (the objects it stores
   * there with it); answers 204 (§28.1). 404 for a bucket the branch does not see.
   */
  delete: Endpoint.make({
    method: "DELETE",
    route: "/projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}",
    params: bucketParams,
    success: Schema.Undefined,
    statuses: [204],
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `GET .../buckets/{bucket_name}/objects`: the objects the branch sees in the bucket (its
   * ancestors' as they were when it was made, and its own), in key order, under `prefix`, folded
   * into `folders` at a `delimiter`, a page of at most `limit` (1 to 1000, default 1000) objects
   * and folders after `cursor` (§28.2). A `list` streams the objects of every page. 404 for an
   * unknown project, branch or bucket.
   */
  listObjects: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects",
    params: bucketParams,
    query: Schema.Struct({
      prefix: Schema.optional(Schema.String),
      delimiter: Schema.optional(Schema.String),
      cursor: Schema.optional(Cursor),
      limit: Schema.optional(IntegerParameter(1, objectPageLimits.max))
    }),
    success: BucketObjectsPage,
    errors: ["BadRequest", "NotFound"],
    pageLimits: objectPageLimits,
    list: {
      items: (answer) => answer.objects,
      cursor: (answer) => (answer.is_truncated && answer.next_cursor !== "" ? answer.next_cursor : undefined),
      size: (answer) => answer.objects.length + answer.folders.length
    }
  }),
  /**
   * `DELETE .../buckets/{bucket_name}/objects/{object_key}`: deletes an object from the branch
   * (one it inherits is hidden on it, its ancestors keep theirs); answers 204 (§28.2). 404 for
   * an object the branch does not see.
   */
  deleteObject: Endpoint.make({
    method: "DELETE",
    route: "/projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key}",
    params: objectParams,
    success: Schema.Undefined,
    statuses: [204],
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `GET .../objects/{object_key}/download`: the object's bytes, `application/octet-stream`,
   * with its `Content-Length` and `ETag` ({@link BucketObjectContent}); inherited objects too
   * (§28.2). The bytes are read whole, up to the client's `maxResponseBytes` (16 MiB by
   * default). 404 for an object the branch does not see.
   */
  getObject: Endpoint.make({
    method: "GET",
    route: "/projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key}/download",
    params: objectParams,
    success: ObjectContentFromBytes,
    media: "bytes",
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `DELETE .../buckets/{bucket_name}/objects-by-prefix?prefix=`: deletes every object stored on
   * the branch whose key starts with `prefix` (a folder: ending with `/`); objects it inherits
   * and has not written are left alone; answers `{ deleted }` (§28.2). 400 for a prefix refused,
   * 404 for a bucket the branch does not see.
   */
  deleteObjectsByPrefix: Endpoint.make({
    method: "DELETE",
    route: "/projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects-by-prefix",
    params: bucketParams,
    query: Schema.Struct({ prefix: FolderPrefix }),
    success: BucketObjectsDeleted,
    errors: ["BadRequest", "NotFound"]
  }),
  /**
   * `POST .../objects/{object_key}/presign`: a URL that uploads (`PUT`) or downloads (`GET`) the
   * object without the API key, valid until `expires_at` ({@link PresignedUrl}; its `url`
   * `Redacted`) (§28.3). 400 for a body refused, 404 for an unknown branch or bucket.
   */
  presignObject: Endpoint.make({
    method: "POST",
    route: "/projects/{project_id}/branches/{branch_id}/buckets/{bucket_name}/objects/{object_key}/presign",
    params: objectParams,
    body: PresignRequest,
    success: PresignedUrl,
    errors: ["BadRequest", "NotFound"]
  })
})
