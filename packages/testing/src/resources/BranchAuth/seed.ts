/**
 * The BranchAuth group's part of a seed (a branch's Neon Auth: its users and settings): its
 * schema, in a seed file as in code, derived from the kind the fake keeps (`kinds.ts`). `Seed.ts`
 * assembles the parts and documents them.
 */
import * as Schema from "effect/Schema"
import { SnapshotAuthUser, SnapshotBranchAuth } from "./kinds.js"

const auth = SnapshotBranchAuth.fields
const user = SnapshotAuthUser.fields

/** `Seed.SeedBranchAuthFile` (documented there). */
export const SeedBranchAuthFile = Schema.Struct({
  branch_id: Schema.String,
  auth_provider: Schema.optional(Schema.Literal("mock", "stack", "better_auth")),
  database_name: Schema.optional(Schema.String),
  name: Schema.optional(auth.name),
  domains: Schema.optional(Schema.Array(Schema.String)),
  users: Schema.optional(
    Schema.Array(
      Schema.Struct({
        email: user.email,
        name: user.name,
        roles: Schema.optional(user.roles),
        id: Schema.optional(user.id)
      })
    )
  ),
  email_and_password: auth.email_and_password,
  email_provider: auth.email_provider,
  allow_localhost: auth.allow_localhost,
  organization: auth.organization,
  magic_link: auth.magic_link,
  phone_number: auth.phone_number,
  webhooks: auth.webhooks
}).annotations({ identifier: "SeedBranchAuth" })
