/**
 * The kinds of record of the DataApi group the fake keeps (`engine/kinds.ts`): each one's shape as a
 * `Snapshot` holds it, and its entry of the table of kinds (`internal/kinds.ts`).
 */
import * as Schema from "effect/Schema"
import { kind, newestFirst, SnapshotTime } from "../../engine/kinds.js"

/**
 * The Data API of a database (docs/contract.md §25): `id` is its database's id (one Data API per
 * database; renaming the database keeps it, deleting the database deletes it). `settings` holds
 * the settings given, each optional (absent: the platform's default).
 */
export const SnapshotDataApi = Schema.Struct({
  id: Schema.Int.pipe(Schema.positive()),
  project_id: Schema.String,
  branch_id: Schema.String,
  auth_provider: Schema.optional(Schema.String),
  jwks_url: Schema.optional(Schema.String),
  provider_name: Schema.optional(Schema.String),
  jwt_audience: Schema.optional(Schema.String),
  add_default_grants: Schema.Boolean,
  skip_auth_schema: Schema.Boolean,
  settings: Schema.Struct({
    db_aggregates_enabled: Schema.optional(Schema.Boolean),
    db_anon_role: Schema.optional(Schema.String),
    db_extra_search_path: Schema.optional(Schema.String),
    db_max_rows: Schema.optional(Schema.Number),
    db_schemas: Schema.optional(Schema.Array(Schema.String)),
    jwt_role_claim_key: Schema.optional(Schema.String),
    jwt_cache_max_lifetime: Schema.optional(Schema.Number),
    openapi_mode: Schema.optional(Schema.String),
    server_cors_allowed_origins: Schema.optional(Schema.String),
    server_timing_enabled: Schema.optional(Schema.Boolean)
  }),
  created_at: SnapshotTime,
  updated_at: SnapshotTime
}).annotations({ identifier: "SnapshotDataApi" })

export const data_apis = kind({
  label: "Data API",
  schema: SnapshotDataApi,
  id: Schema.Number,
  idOf: (api) => api.id,
  // Its database's id: a database's Data API goes with it.
  parent: { kind: "databases", of: (api) => String(api.id) },
  rank: newestFirst
})

declare module "../../engine/kinds.js" {
  interface Kinds {
    readonly data_apis: typeof data_apis
  }
}
