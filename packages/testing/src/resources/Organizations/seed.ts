/**
 * The Organizations group's part of a seed (its organizations, their members and API keys): its schema, in a seed file as in code, derived
 * from the kind the fake keeps (`kinds.ts`), with times relative to the start. `Seed.ts`
 * assembles the parts and documents them.
 */
import * as Schema from "effect/Schema"
import { SeedDuration, SeedKeyValue } from "../../engine/seed.js"
import { SnapshotMember, SnapshotOrganization } from "./kinds.js"

const organization = SnapshotOrganization.fields
const member = SnapshotMember.fields

/** `Seed.SeedMemberFile` (documented there). */
export const SeedMemberFile = Schema.Struct({
  email: member.email,
  role: Schema.optional(member.role),
  user_id: Schema.optional(member.user_id),
  /** How long before the start the member joined; the organization's age by default. */
  age: Schema.optional(SeedDuration)
}).annotations({ identifier: "SeedMember" })

/** `Seed.SeedOrganizationKeyFile` (documented there). */
export const SeedOrganizationKeyFile = Schema.Struct({
  name: Schema.String,
  key: SeedKeyValue,
  project_id: Schema.optional(Schema.String)
}).annotations({ identifier: "SeedOrganizationKey" })

/** `Seed.SeedOrganizationFile` (documented there). */
export const SeedOrganizationFile = Schema.Struct({
  id: organization.id,
  name: Schema.optional(organization.name),
  handle: Schema.optional(organization.handle),
  plan: Schema.optional(organization.plan),
  spending_limit_cents: organization.spending_limit_cents,
  age: Schema.optional(SeedDuration),
  members: Schema.optional(Schema.Array(SeedMemberFile)),
  api_keys: Schema.optional(Schema.Array(SeedOrganizationKeyFile))
}).annotations({ identifier: "SeedOrganization" })
