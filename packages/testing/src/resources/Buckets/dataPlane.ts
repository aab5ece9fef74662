/**
 * The fake's S3 data plane, as far as a presigned URL goes (docs/contract.md §28.3): under
 * `/_storage/{branch_id}/{bucket}/{key}` (path style, the key's `/` as they are), a `PUT` with a
 * presigned upload URL stores the body as the object (with its bound `Content-Type`), a `GET`
 * with a presigned download URL answers its bytes, and a `GET` without a signature answers an
 * object of a `public_read` bucket. Refusals are S3's: an XML `<Error>` with its `Code`
 * (`SignatureDoesNotMatch`, `AccessDenied` once expired, `NoSuchKey` for an object deleted
 * since, `EntityTooLarge`). The signature is checked by its SHA-256 against the URLs the fake
 * issued; the URL is never kept nor logged (the request log redacts `X-Amz-Signature` and
 * `X-Amz-Credential`).
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { Body } from "@dbplatform/core"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Ref from "effect/Ref"
import { hashKey } from "../../engine/authentication.js"
import { change } from "../../engine/change.js"
import { type FakeState, get } from "../../engine/state.js"
import { Status } from "../../engine/status.js"
import { dataPlanePath } from "./handlers.js"
import { bucketAt, maxObjectBytes, objectAt, putObject, type StoredObject } from "./steps.js"

/** Whether a request's path is the data plane's. */
export const isDataPlane = (url: string): boolean => {
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "")
  return path.startsWith(`${dataPlanePath}/`)
}

/** S3's error answer: an XML `<Error>` with its code and message. */
const s3Error = (status: number, code: string, message: string) =>
  HttpServerResponse.text(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
    { status, contentType: "application/xml" }
  )

/** An object's bytes, as S3 answers a `GET`. */
const objectResponse = (object: StoredObject) =>
  HttpServerResponse.uint8Array(object.body, {
    status: 200,
    contentType: object.content_type ?? "application/octet-stream",
    headers: { etag: object.etag, "last-modified": new Date(object.created_at).toUTCString() }
  })

/** The branch, bucket and key a data-plane path names, each segment decoded; `undefined` when it names no object. */
const objectPath = (pathname: string) => {
  const segments = pathname.slice(dataPlanePath.length + 1).split("/")
  if (segments.length < 3) return undefined
  try {
    const [branch, bucket, ...key] = segments.map(decodeURIComponent)
    return key.join("/") === "" ? undefined : { branch: branch!, bucket: bucket!, key: key.join("/") }
  } catch {
    return undefined
  }
}

/**
 * The data plane's answer to the request in context, over `fake` (see the module's docs). A
 * `PUT`'s body is read up to 8 MiB; past it, `EntityTooLarge`, and nothing is kept.
 */
export const dataPlane = (
  fake: FakeState
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const url = new URL(request.url, "http://fake")
    const target = objectPath(url.pathname)
    if (target === undefined) return yield* s3Error(Status.badRequest, "InvalidRequest", "The path names no object")
    const signature = url.searchParams.get("X-Amz-Signature")
    const state = yield* Ref.get(fake.ref)
    const now = yield* Clock.currentTimeMillis
    if (signature === null) {
      // Anonymous: a `GET` of an object of a `public_read` bucket, nothing else.
      const branch = get(state, "branches", target.branch)
      const seen = branch === undefined ? undefined : bucketAt(state, branch, target.bucket, Number.POSITIVE_INFINITY)
      if (request.method !== "GET" || branch === undefined || seen?.bucket.access_level !== "public_read") {
        return yield* s3Error(Status.forbidden, "AccessDenied", "Access Denied")
      }
      const object = objectAt(state, branch, target.bucket, target.key, Number.POSITIVE_INFINITY)
      return yield* object === undefined
        ? s3Error(Status.notFound, "NoSuchKey", "The specified key does not exist.")
        : Effect.succeed(objectResponse(object))
    }
    const grant = get(state, "presigned_urls", hashKey(signature))
    if (
      grant === undefined ||
      grant.branch_id !== target.branch ||
      grant.bucket !== target.bucket ||
      grant.key !== target.key ||
      grant.method !== request.method
    ) {
      return yield* s3Error(
        Status.forbidden,
        "SignatureDoesNotMatch",
        "The request signature we calculated does not match the signature you provided."
      )
    }
    if (now >= grant.expires_at) return yield* s3Error(Status.forbidden, "AccessDenied", "Request has expired")
    if (grant.method === "GET") {
      const branch = get(state, "branches", grant.branch_id)
      const object =
        branch === undefined ? undefined : objectAt(state, branch, grant.bucket, grant.key, Number.POSITIVE_INFINITY)
      return yield* object === undefined
        ? s3Error(Status.notFound, "NoSuchKey", "The specified key does not exist.")
        : Effect.succeed(objectResponse(object))
    }
    const contentType = request.headers["content-type"]
    if (grant.content_type !== undefined && contentType !== grant.content_type) {
      return yield* s3Error(
        Status.forbidden,
        "SignatureDoesNotMatch",
        "The request signature we calculated does not match the signature you provided."
      )
    }
    const declared = request.headers["content-length"]
    if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > maxObjectBytes) {
      return yield* s3Error(
        Status.badRequest,
        "EntityTooLarge",
        `Your proposed upload exceeds the maximum allowed size of ${maxObjectBytes} bytes`
      )
    }
    const body = yield* Effect.either(Body.bytes(request.stream, { maxBytes: maxObjectBytes, past: "drain" }))
    if (Either.isLeft(body)) {
      return yield* body.left._tag === "BodyTooLarge"
        ? s3Error(
            Status.badRequest,
            "EntityTooLarge",
            `Your proposed upload exceeds the maximum allowed size of ${maxObjectBytes} bytes`
          )
        : s3Error(Status.badRequest, "IncompleteBody", "The request body could not be read")
    }
    const stored = yield* Effect.either(
      change(fake, () => putObject(grant.branch_id, grant.bucket, grant.key, body.right, contentType))
    )
    return yield* Either.isLeft(stored)
      ? s3Error(stored.left.status, stored.left.code, stored.left.message)
      : Effect.succeed(HttpServerResponse.empty({ status: 200, headers: { etag: stored.right.etag } }))
  })
