/**
 * The Credentials group's part of a seed (a branch's credentials): its schema, in a seed file as in code, derived
 * from the kind the fake keeps (`kinds.ts`), with times relative to the start. `Seed.ts`
 * assembles the parts and documents them.
 */
import { Api } from "@dbplatform/core"
import * as Schema from "effect/Schema"
import { SeedDuration, SeedKeyValue } from "../../engine/seed.js"
import { SnapshotCredential } from "./kinds.js"

const credential = SnapshotCredential.fields

/** `Seed.SeedCredentialFile` (documented there). */
export const SeedCredentialFile = Schema.Struct({
  branch_id: credential.branch_id,
  /** Its bearer token, so that a test can present it; the fake keeps only its SHA-256. */
  api_token: SeedKeyValue,
  /** `nak_live_` and 32 hex digits; generated from `api_token` when absent. */
  token_id: Schema.optional(Schema.String.pipe(Schema.pattern(/^nak_live_[0-9a-f]{32}$/))),
  name: Api.CredentialCreateRequest.fields.name,
  scopes: Api.CredentialCreateRequest.fields.scopes,
  /** How long before the start it was created; at the start when absent. */
  age: Schema.optional(SeedDuration),
  /** How long before the start it was revoked; not revoked when absent. */
  revokedAgo: Schema.optional(SeedDuration)
}).annotations({ identifier: "SeedCredential" })
