/**
 * A branch's scoped service credentials (docs/contract.md §11.7): created with their two secrets,
 * which the answer shows once (the fake keeps the SHA-256 of the bearer token, and the S3 secret
 * its data plane verifies signatures with), listed without them, revoked (kept, with `revoked_at`).
 */
import type { Api } from "@dbplatform/core"
import * as Either from "effect/Either"
import { hashKey } from "../../engine/authentication.js"
import type { Dice } from "../../engine/ids.js"
import { type Item, upsert } from "../../engine/kinds.js"
import { branchOf } from "../../engine/records.js"
import { notFound, type Refusal } from "../../engine/refusal.js"
import { get, itemsOf, type Mutation, type State } from "../../engine/state.js"

/** A credential as the fake keeps it. */
export type StoredCredential = Item<"credentials">

/** `n` hex digits from `dice`. */
const hex = (dice: Dice, n: number): string => {
  let digits = ""
  for (let i = 0; i < n; i++) digits += dice.below(16).toString(16)
  return digits
}

/** A credential made, with its two secrets (shown once; only the S3 secret is kept, to verify signatures). */
export interface CredentialIssued {
  readonly credential: StoredCredential
  readonly api_token: string
  readonly s3_secret_access_key: string
}

/**
 * `POST .../branches/{branch_id}/credentials` as a pure step: a credential of the branch with
 * `scopes` (each once, in the order given), its `token_id` `nak_live_` and 32 hex digits, its
 * `token_id_short` their first 12, its secrets from `dice`: `api_token` (`nat_live_` and 64 hex
 * digits, the fake's form: the reference gives none) and `s3_secret_access_key` (`nsk_live_` and
 * 64 hex digits). 404 for an unknown project or branch.
 */
export const createCredential =
  (
    projectId: string,
    branchId: string,
    request: typeof Api.CredentialCreateRequest.Type,
    dice: Dice
  ): Mutation<CredentialIssued, Refusal> =>
  (state, now) =>
    Either.map(branchOf(state, projectId, branchId), () => {
      const id = hex(dice, 32)
      const api_token = `nat_live_${hex(dice, 64)}`
      const s3_secret_access_key = `nsk_live_${hex(dice, 64)}`
      const credential: StoredCredential = {
        token_id: `nak_live_${id}`,
        token_id_short: id.slice(0, 12),
        ...(request.name === undefined ? {} : { name: request.name }),
        principal_type: request.principal_type,
        project_id: projectId,
        branch_id: branchId,
        scopes: Array.from(new Set(request.scopes)),
        token_hash: hashKey(api_token),
        s3_secret_access_key,
        created_at: now
      }
      return { changes: [upsert("credentials", credential)], answer: { credential, api_token, s3_secret_access_key } }
    })

/** The credentials of a branch, newest first, revoked ones too. 404 for an unknown project or branch. */
export const credentialsOf = (
  state: State,
  projectId: string,
  branchId: string
): Either.Either<ReadonlyArray<StoredCredential>, Refusal> =>
  Either.map(branchOf(state, projectId, branchId), () => Array.from(itemsOf(state, "credentials", branchId)))

/**
 * `DELETE .../credentials/{token_id}` as a pure step: the credential revoked at `now`, kept and
 * listed with its `revoked_at`; one revoked already stays as it is (idempotent). 404 for an
 * unknown credential, project or branch.
 */
export const revokeCredential =
  (projectId: string, branchId: string, tokenId: string): Mutation<void, Refusal> =>
  (state, now) =>
    Either.flatMap(branchOf(state, projectId, branchId), () => {
      const credential = get(state, "credentials", tokenId)
      if (credential === undefined || credential.branch_id !== branchId) return notFound("credential")
      if (credential.revoked_at !== undefined) return Either.right({ changes: [], answer: undefined })
      return Either.right({ changes: [upsert("credentials", { ...credential, revoked_at: now })], answer: undefined })
    })
