/**
 * The fake's S3 data plane (docs/contract.md §28.3, §28.7): under `/_storage/{branch_id}/{bucket}`
 * (path style, the key's `/` as they are; the real platform names the branch in the host, the
 * fake in the first segment of the path, which S3 clients keep as the endpoint's base path).
 *
 * - **Presigned URLs.** A `PUT` with a presigned upload URL stores the body as the object (with
 *   its bound `Content-Type`), a `GET` with a presigned download URL answers its bytes. The
 *   signature is checked by its SHA-256 against the URLs the fake issued.
 * - **A credential's S3 keys** (an `Authorization: AWS4-HMAC-SHA256 ...` header whose access key
 *   id is a credential's `token_id`, verified by `Credentials/signature.ts`): ListObjectsV2
 *   (`GET /_storage/{branch_id}/{bucket}?list-type=2`: `prefix`, `delimiter`, `max-keys` (at most
 *   1000), `continuation-token`, `start-after`, `encoding-type=url`; S3's `ListBucketResult`) and
 *   GetObject with `storage:read`, PutObject (a whole body, signed or `UNSIGNED-PAYLOAD`; no
 *   `aws-chunked` upload) with `storage:write`; a credential of another branch, or without the
 *   scope, `AccessDenied`.
 * - **Anonymous.** A `GET` of an object of a `public_read` bucket; nothing else.
 *
 * Refusals are S3's: an XML `<Error>` with its `Code` (`SignatureDoesNotMatch`,
 * `InvalidAccessKeyId`, `AccessDenied`, also once a presigned URL expired, `NoSuchBucket`,
 * `NoSuchKey` for an object deleted since, `EntityTooLarge`...). No URL, signature or key is kept
 * nor logged (the request log redacts `X-Amz-Signature`, `X-Amz-Credential` and the
 * `Authorization` header past its scheme).
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Body } from "@dbplatform/core"
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex } from "@noble/hashes/utils.js"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Encoding from "effect/Encoding"
import * as Ref from "effect/Ref"
import { hashKey } from "../../engine/authentication.js"
import { change } from "../../engine/change.js"
import { type FakeState, get, type State, type StoredBranch } from "../../engine/state.js"
import { Status } from "../../engine/status.js"
import { isSigV4, verifySignature } from "../Credentials/signature.js"
import { dataPlanePath } from "./handlers.js"
import {
  bucketAt,
  maxObjectBytes,
  objectAt,
  type ObjectsPage,
  objectsPage,
  putObject,
  s3Region,
  type StorageRefusal,
  type StoredObject
} from "./steps.js"

/** Whether a request's path is the data plane's. */
export const isDataPlane = (url: string): boolean => {
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "")
  return path.startsWith(`${dataPlanePath}/`)
}

/** S3's error answer: an XML `<Error>` with its code and message. */
const s3Error = (status: number, code: string, message: string) =>
  HttpServerResponse.text(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xmlText(message)}</Message></Error>`,
    { status, contentType: "application/xml" }
  )

/** S3's error answer to a refusal. */
const refusedWith = (refusal: StorageRefusal) => s3Error(refusal.status, refusal.code, refusal.message)

const signatureMismatch = () =>
  s3Error(
    Status.forbidden,
    "SignatureDoesNotMatch",
    "The request signature we calculated does not match the signature you provided."
  )

const noSuchKey = () => s3Error(Status.notFound, "NoSuchKey", "The specified key does not exist.")

const noSuchBucket = () => s3Error(Status.notFound, "NoSuchBucket", "The specified bucket does not exist")

const accessDenied = (message = "Access Denied") => s3Error(Status.forbidden, "AccessDenied", message)

/** An object's bytes, as S3 answers a `GET`. */
const objectResponse = (object: StoredObject) =>
  HttpServerResponse.uint8Array(object.body, {
    status: 200,
    contentType: object.content_type ?? "application/octet-stream",
    headers: { etag: object.etag, "last-modified": new Date(object.created_at).toUTCString() }
  })

/** The branch, bucket and key (none for the bucket itself) a data-plane path names, each segment decoded. */
const bucketPath = (pathname: string) => {
  const segments = pathname.slice(dataPlanePath.length + 1).split("/")
  try {
    const [branch = "", bucket = "", ...key] = segments.map(decodeURIComponent)
    if (branch === "" || bucket === "") return undefined
    return { branch, bucket, key: key.join("/") === "" ? undefined : key.join("/") }
  } catch {
    return undefined
  }
}

/** The branch, bucket and key a data-plane path names; `undefined` when it names no object. */
const objectPath = (pathname: string) => {
  const target = bucketPath(pathname)
  return target?.key === undefined ? undefined : { ...target, key: target.key }
}

/** The object `key` of `bucket` as the branch sees it now, as S3 answers a `GET`. */
const objectGet = (state: State, branchId: string, bucket: string, key: string) => {
  const branch = get(state, "branches", branchId)
  const object = branch === undefined ? undefined : objectAt(state, branch, bucket, key, Number.POSITIVE_INFINITY)
  return object === undefined ? noSuchKey() : Effect.succeed(objectResponse(object))
}

/**
 * Stores the request's body as the object `key` of `bucket` on the branch, with `contentType`:
 * read up to 8 MiB (past it, `EntityTooLarge`, nothing kept); when `payloadHash` (hex) is given,
 * a body of another SHA-256 is refused (`XAmzContentSHA256Mismatch`), nothing kept.
 */
const objectPut = (
  fake: FakeState,
  request: HttpServerRequest.HttpServerRequest,
  target: { readonly branch: string; readonly bucket: string; readonly key: string },
  contentType: string | undefined,
  payloadHash?: string
) =>
  Effect.gen(function* () {
    const tooLarge = () =>
      s3Error(
        Status.badRequest,
        "EntityTooLarge",
        `Your proposed upload exceeds the maximum allowed size of ${maxObjectBytes} bytes`
      )
    const declared = request.headers["content-length"]
    if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > maxObjectBytes) {
      return yield* tooLarge()
    }
    const body = yield* Effect.either(Body.bytes(request.stream, { maxBytes: maxObjectBytes, past: "drain" }))
    if (Either.isLeft(body)) {
      return yield* body.left._tag === "BodyTooLarge"
        ? tooLarge()
        : s3Error(Status.badRequest, "IncompleteBody", "The request body could not be read")
    }
    if (payloadHash !== undefined && bytesToHex(sha256(body.right)) !== payloadHash) {
      return yield* s3Error(
        Status.badRequest,
        "XAmzContentSHA256Mismatch",
        "The provided 'x-amz-content-sha256' header does not match what was computed."
      )
    }
    const stored = yield* Effect.either(
      change(fake, () => putObject(target.branch, target.bucket, target.key, body.right, contentType))
    )
    return yield* Either.isLeft(stored)
      ? refusedWith(stored.left)
      : Effect.succeed(HttpServerResponse.empty({ status: 200, headers: { etag: stored.right.etag } }))
  })

/** Text escaped for XML. */
const xmlText = (text: string): string =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")

/** The most keys one ListObjectsV2 answers, as S3's. */
const maxListKeys = 1000

/**
 * ListObjectsV2 of `bucket` as `branch` sees it (see the module's docs): the page after
 * `continuation-token` (the base64url of the previous page's last key or folder, opaque to a
 * client) or `start-after`, under `prefix`, folded at `delimiter`.
 */
const listObjects = (state: State, branch: StoredBranch, bucket: string, query: URLSearchParams) =>
  Effect.gen(function* () {
    const invalid = (name: string, message: string) =>
      s3Error(Status.badRequest, "InvalidArgument", `${message} (argument ${name})`)
    const maxKeysText = query.get("max-keys")
    if (maxKeysText !== null && !/^\d{1,9}$/.test(maxKeysText)) {
      return yield* invalid("max-keys", "Provided max-keys not an integer or within integer range")
    }
    const encoding = query.get("encoding-type")
    if (encoding !== null && encoding !== "url") return yield* invalid("encoding-type", "Invalid Encoding Method")
    const token = query.get("continuation-token")
    const decodedToken = token === null ? undefined : Encoding.decodeBase64UrlString(token)
    if (decodedToken !== undefined && Either.isLeft(decodedToken)) {
      return yield* invalid("continuation-token", "The continuation token provided is incorrect")
    }
    const startAfter = query.get("start-after") ?? undefined
    const after = decodedToken?.right ?? ""
    const cursor = startAfter !== undefined && startAfter > after ? startAfter : after
    const maxKeys = Math.min(Number(maxKeysText ?? maxListKeys), maxListKeys)
    const prefix = query.get("prefix") ?? ""
    const delimiter = query.get("delimiter") ?? ""
    const page: Either.Either<ObjectsPage, unknown> =
      maxKeys === 0
        ? Either.right({ folders: [], objects: [], prefix, is_truncated: false, next_cursor: "" })
        : objectsPage(
            state,
            { project_id: branch.project_id, branch_id: branch.id, bucket_name: bucket },
            { prefix, delimiter, cursor: cursor === "" ? undefined : cursor, limit: maxKeys }
          )
    if (Either.isLeft(page)) return yield* noSuchBucket()
    const encoded = (text: string) => xmlText(encoding === "url" ? encodeURIComponent(text).replace(/%2F/g, "/") : text)
    const element = (name: string, value: string) => `<${name}>${value}</${name}>`
    const { folders, objects, is_truncated, next_cursor } = page.right
    const xml = [
      `<?xml version="1.0" encoding="UTF-8"?>`,
      `<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">`,
      element("Name", xmlText(bucket)),
      element("Prefix", encoded(prefix)),
      ...(delimiter === "" ? [] : [element("Delimiter", encoded(delimiter))]),
      ...(startAfter === undefined ? [] : [element("StartAfter", encoded(startAfter))]),
      ...(token === null ? [] : [element("ContinuationToken", xmlText(token))]),
      element("KeyCount", String(folders.length + objects.length)),
      element("MaxKeys", String(maxKeys)),
      element("IsTruncated", String(is_truncated)),
      ...(is_truncated ? [element("NextContinuationToken", Encoding.encodeBase64Url(next_cursor))] : []),
      ...(encoding === null ? [] : [element("EncodingType", "url")]),
      ...objects.map((object) =>
        element(
          "Contents",
          [
            element("Key", encoded(object.key)),
            element("LastModified", new Date(object.created_at).toISOString()),
            element("ETag", xmlText(object.etag)),
            element("Size", String(object.body.length)),
            element("StorageClass", "STANDARD")
          ].join("")
        )
      ),
      ...folders.map((folder) => element("CommonPrefixes", element("Prefix", encoded(folder)))),
      `</ListBucketResult>`
    ].join("")
    return HttpServerResponse.text(xml, { status: 200, contentType: "application/xml" })
  })

/** The host a request was sent to: its `host` header, or (in memory, a web request has none) its URL's. */
const hostOf = (request: HttpServerRequest.HttpServerRequest): string => {
  try {
    return request.headers.host ?? new URL(request.originalUrl, "http://localhost").host
  } catch {
    return "localhost"
  }
}

/**
 * A request signed with a credential's S3 keys (see the module's docs): the signature verified,
 * then the credential's branch and scope, then ListObjectsV2, GetObject or PutObject.
 */
const signedRequest = (fake: FakeState, request: HttpServerRequest.HttpServerRequest, url: URL) =>
  Effect.gen(function* () {
    const target = bucketPath(url.pathname)
    if (target === undefined) return yield* s3Error(Status.badRequest, "InvalidRequest", "The path names no bucket")
    const state = yield* Ref.get(fake.ref)
    const now = yield* Clock.currentTimeMillis
    const branch = get(state, "branches", target.branch)
    const project = branch === undefined ? undefined : get(state, "projects", branch.project_id)
    const verified = yield* Effect.either(
      verifySignature(
        state,
        {
          method: request.method,
          target: request.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, ""),
          headers: request.headers,
          host: hostOf(request)
        },
        s3Region(project?.region_id),
        now
      )
    )
    if (Either.isLeft(verified)) return yield* refusedWith(verified.left)
    const credential = verified.right
    const write = request.method === "PUT"
    if (!write && request.method !== "GET") {
      return yield* s3Error(
        Status.methodNotAllowed,
        "MethodNotAllowed",
        "The specified method is not allowed against this resource."
      )
    }
    if (branch === undefined || credential.branch_id !== branch.id) {
      return yield* accessDenied("Access Denied: the credential is another branch's")
    }
    const scope = write ? "storage:write" : "storage:read"
    if (!credential.scopes.includes(scope)) return yield* accessDenied(`Access Denied: the credential lacks ${scope}`)
    if (bucketAt(state, branch, target.bucket, Number.POSITIVE_INFINITY) === undefined) return yield* noSuchBucket()
    if (target.key === undefined) {
      if (write) return yield* s3Error(Status.notImplemented, "NotImplemented", "CreateBucket is not served here")
      if (url.searchParams.get("list-type") !== "2") {
        return yield* s3Error(Status.notImplemented, "NotImplemented", "Only ListObjectsV2 (list-type=2) is served")
      }
      return yield* listObjects(state, branch, target.bucket, url.searchParams)
    }
    if (!write) return yield* objectGet(state, branch.id, target.bucket, target.key)
    const payload = request.headers["x-amz-content-sha256"] ?? ""
    if (payload.startsWith("STREAMING-")) {
      return yield* s3Error(Status.notImplemented, "NotImplemented", "aws-chunked uploads are not served")
    }
    return yield* objectPut(
      fake,
      request,
      { branch: branch.id, bucket: target.bucket, key: target.key },
      request.headers["content-type"],
      /^[0-9a-f]{64}$/.test(payload) ? payload : undefined
    )
  })

/** The data plane's answer to the request in context, over `fake` (see the module's docs). */
export const dataPlane = (
  fake: FakeState
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const url = new URL(request.url, "http://fake")
    const signature = url.searchParams.get("X-Amz-Signature")
    if (signature === null && isSigV4(request.headers)) return yield* signedRequest(fake, request, url)
    const target = objectPath(url.pathname)
    if (target === undefined) return yield* s3Error(Status.badRequest, "InvalidRequest", "The path names no object")
    const state = yield* Ref.get(fake.ref)
    const now = yield* Clock.currentTimeMillis
    if (signature === null) {
      // Anonymous: a `GET` of an object of a `public_read` bucket, nothing else.
      const branch = get(state, "branches", target.branch)
      const seen = branch === undefined ? undefined : bucketAt(state, branch, target.bucket, Number.POSITIVE_INFINITY)
      if (request.method !== "GET" || branch === undefined || seen?.bucket.access_level !== "public_read") {
        return yield* accessDenied()
      }
      return yield* objectGet(state, branch.id, target.bucket, target.key)
    }
    const grant = get(state, "presigned_urls", hashKey(signature))
    if (
      grant === undefined ||
      grant.branch_id !== target.branch ||
      grant.bucket !== target.bucket ||
      grant.key !== target.key ||
      grant.method !== request.method
    ) {
      return yield* signatureMismatch()
    }
    if (now >= grant.expires_at) return yield* accessDenied("Request has expired")
    if (grant.method === "GET") return yield* objectGet(state, grant.branch_id, grant.bucket, grant.key)
    const contentType = request.headers["content-type"]
    if (grant.content_type !== undefined && contentType !== grant.content_type) return yield* signatureMismatch()
    return yield* objectPut(
      fake,
      request,
      { branch: grant.branch_id, bucket: grant.bucket, key: grant.key },
      contentType
    )
  })
