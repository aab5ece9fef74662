/**
 * A data-plane request signed with a credential's S3 keys (docs/contract.md §11.7, §28.7): AWS
 * Signature Version 4 in the `Authorization` header, its access key id the credential's
 * `token_id`, its secret the credential's `s3_secret_access_key`, for the service `s3` in the
 * region of the branch's project (what `GET .../storage` answers). The fake recomputes the
 * signature with `@smithy/signature-v4`, the signer of AWS's own SDKs (docs/design.md §7), over
 * the request as it came: its method, its path as sent (S3 does not encode it again), its query,
 * the headers its `SignedHeaders` names and the payload hash of its `x-amz-content-sha256`; and
 * compares. Refusals are S3's (`StorageRefusal`): 400 `AuthorizationHeaderMalformed` (a header
 * that does not parse, or signed for another region), 400 `InvalidRequest` (no
 * `x-amz-content-sha256` signed), 403 `AccessDenied` (no `x-amz-date`), 403 `InvalidAccessKeyId`
 * (an unknown, revoked or expired credential: S3's word for a key it does not honour), 403
 * `SignatureDoesNotMatch`. The request time is not compared with the fake's clock (a test's
 * `TestClock` and the signer's clock differ); a credential's expiry is.
 */
import { Sha256 } from "@aws-crypto/sha256-js"
import { SignatureV4 } from "@smithy/signature-v4"
import * as Effect from "effect/Effect"
import { get, type State } from "../../engine/state.js"
import { Status } from "../../engine/status.js"
import type { StorageRefusal } from "../Buckets/steps.js"
import type { StoredCredential } from "./steps.js"

/** The scheme of an `Authorization` header signed with SigV4. */
export const sigV4Scheme = "AWS4-HMAC-SHA256"

/** `Credential=<key>/<yyyymmdd>/<region>/<service>/aws4_request, SignedHeaders=<a;b>, Signature=<hex>`. */
const authorizationPattern =
  /^AWS4-HMAC-SHA256\s+Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/aws4_request\s*,\s*SignedHeaders=([a-z0-9!#$%&'*+.^_`|~-]+(?:;[a-z0-9!#$%&'*+.^_`|~-]+)*)\s*,\s*Signature=([0-9a-f]{64})\s*$/

/** `x-amz-date`: `yyyymmddThhmmssZ`. */
const amzDatePattern = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/

/** A refusal as S3 words it. */
const refusal = (status: number, code: string, message: string): StorageRefusal => ({ status, code, message })

const mismatch = refusal(
  Status.forbidden,
  "SignatureDoesNotMatch",
  "The request signature we calculated does not match the signature you provided. Check your key and signing method."
)

/** Whether a request's headers carry a SigV4 `Authorization` (names lower-cased). */
export const isSigV4 = (headers: Readonly<Record<string, string | undefined>>): boolean =>
  headers.authorization?.trimStart().startsWith(`${sigV4Scheme} `) === true

/** A request as the verifier reads it: method, its target as sent (path and query), its headers (names lower-cased). */
export interface SignedRequest {
  readonly method: string
  readonly target: string
  readonly headers: Readonly<Record<string, string | undefined>>
  /** The host the request was sent to, when no `host` header says it (an in-memory request). */
  readonly host: string
}

/** A query string as the signer reads it: each name's decoded values. */
const queryOf = (search: string): Record<string, string | Array<string>> => {
  const query: Record<string, string | Array<string>> = {}
  for (const [name, value] of new URLSearchParams(search)) {
    const held = query[name]
    query[name] = held === undefined ? value : Array.isArray(held) ? [...held, value] : [held, value]
  }
  return query
}

/**
 * The live credential that signed `request` for `region` at `now` (epoch ms), the signature
 * recomputed and compared; or S3's refusal (see the module's docs). Never logs, keeps or answers
 * a secret.
 */
export const verifySignature = (
  state: State,
  request: SignedRequest,
  region: string,
  now: number
): Effect.Effect<StoredCredential, StorageRefusal> =>
  Effect.gen(function* () {
    const parsed = authorizationPattern.exec(request.headers.authorization?.trim() ?? "")
    if (parsed === null) {
      return yield* Effect.fail(
        refusal(Status.badRequest, "AuthorizationHeaderMalformed", "The authorization header is malformed")
      )
    }
    const [, accessKeyId = "", day = "", scopeRegion = "", service = "", signedList = "", signature = ""] = parsed
    const credential = get(state, "credentials", accessKeyId)
    if (
      credential === undefined ||
      credential.revoked_at !== undefined ||
      (credential.expires_at !== undefined && credential.expires_at <= now)
    ) {
      return yield* Effect.fail(
        refusal(
          Status.forbidden,
          "InvalidAccessKeyId",
          "The AWS Access Key Id you provided does not exist in our records."
        )
      )
    }
    if (service !== "s3" || scopeRegion !== region) {
      return yield* Effect.fail(
        refusal(
          Status.badRequest,
          "AuthorizationHeaderMalformed",
          `The authorization header is malformed; the region '${scopeRegion}' is wrong; expecting '${region}'`
        )
      )
    }
    const signedNames = signedList.split(";")
    const payloadHash = request.headers["x-amz-content-sha256"]
    if (payloadHash === undefined || !signedNames.includes("x-amz-content-sha256")) {
      return yield* Effect.fail(
        refusal(Status.badRequest, "InvalidRequest", "Missing required header for this request: x-amz-content-sha256")
      )
    }
    const date = amzDatePattern.exec(request.headers["x-amz-date"] ?? "")
    if (date === null) {
      return yield* Effect.fail(
        refusal(Status.forbidden, "AccessDenied", "AWS authentication requires a valid Date or x-amz-date header")
      )
    }
    const secretAccessKey = credential.s3_secret_access_key
    if (secretAccessKey === undefined || !request.headers["x-amz-date"]!.startsWith(day)) {
      return yield* Effect.fail(mismatch)
    }
    const headers: Record<string, string> = {}
    for (const name of signedNames) {
      const value = name === "host" ? (request.headers.host ?? request.host) : request.headers[name]
      if (value === undefined) return yield* Effect.fail(mismatch)
      headers[name] = value
    }
    const question = request.target.indexOf("?")
    const path = question < 0 ? request.target : request.target.slice(0, question)
    const [, year = 0, month = 0, dayOfMonth = 0, hours = 0, minutes = 0, seconds = 0] = date.map(Number)
    const signer = new SignatureV4({
      credentials: { accessKeyId, secretAccessKey },
      region,
      service: "s3",
      sha256: Sha256,
      uriEscapePath: false,
      applyChecksum: false
    })
    const signed = yield* Effect.tryPromise(() =>
      signer.sign(
        {
          method: request.method,
          protocol: "http:",
          hostname: headers.host ?? request.host,
          path,
          query: queryOf(question < 0 ? "" : request.target.slice(question + 1)),
          headers
        },
        {
          signingDate: new Date(Date.UTC(year, month - 1, dayOfMonth, hours, minutes, seconds)),
          signableHeaders: new Set(signedNames)
        }
      )
    ).pipe(Effect.mapError(() => mismatch))
    const expected = /Signature=([0-9a-f]{64})$/.exec(signed.headers.authorization ?? "")?.[1]
    return expected === signature ? credential : yield* Effect.fail(mismatch)
  })
