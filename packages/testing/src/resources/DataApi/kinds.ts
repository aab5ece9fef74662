/**
 * The kinds of record of the DataApi group the fake keeps (`engine/kinds.ts`): each one's shape as a
 * `Snapshot` holds it, and its entry of the table of kinds (`internal/kinds.ts`).
 */
import { Api } from "@dbplatform/core"
import * as Schema from "effect/Schema"
import * as Struct from "effect/Struct"
import { kind, newestFirst, SnapshotTime } from "../../engine/kinds.js"

/**
 * The Data API of a database (docs/contract.md §25): `id` is its database's id (one Data API per
 * database; renaming the database keeps it, deleting the database deletes it). `settings` holds
 * the settings given, each optional (absent: the platform's default). What its create request
 * (core's `DataApiCreateRequest`) gave, with `add_default_grants` and `skip_auth_schema` filled
 * in (`false` when absent), its settings core's `DataApiSettings`, and its times in epoch ms.
 */
export const SnapshotDataApi = Schema.Struct({
  id: Schema.Int.pipe(Schema.positive()),
  project_id: Schema.String,
  branch_id: Schema.String,
  ...Struct.pick(Api.DataApiCreateRequest.fields, "auth_provider", "jwks_url", "provider_name", "jwt_audience"),
  add_default_grants: Schema.Boolean,
  skip_auth_schema: Schema.Boolean,
  settings: Schema.Struct(Api.DataApiSettings.fields),
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
