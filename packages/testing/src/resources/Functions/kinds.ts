/**
 * The kinds of record of the Functions group the fake keeps (`engine/kinds.ts`): each one's shape
 * as a `Snapshot` holds it, and its entry of the table of kinds (`internal/kinds.ts`).
 */
import * as Schema from "effect/Schema"
import { kind, newestFirst, SnapshotTime } from "../../engine/kinds.js"

/**
 * A deployment of a function as the fake keeps it (docs/contract.md §29.5): its version `id`,
 * `runtime`, `memory_mib`, when it was created (its status follows from that and the clock), the
 * NAMES of its environment variables (sorted; the values are never kept), and its bundle: the
 * SHA-256 of the ZIP's bytes (64 hex digits), its size in bytes, and whether it is a ZIP archive
 * (a build of one that is not fails). The bytes themselves are not kept.
 */
export const SnapshotFunctionDeployment = Schema.Struct({
  id: Schema.Int,
  runtime: Schema.String,
  memory_mib: Schema.Int,
  created_at: SnapshotTime,
  environment: Schema.Array(Schema.String),
  bundle_sha256: Schema.String,
  bundle_bytes: Schema.Int,
  bundle_is_zip: Schema.Boolean
}).annotations({ identifier: "SnapshotFunctionDeployment" })

/**
 * A function of a branch (docs/contract.md §29): `id`, the record's, `<branch_id>/<slug>`;
 * `function_id`, the opaque id answered (a child's copy keeps its parent's); its display `name`
 * (absent: the slug); `inherited` while the branch only has it from its parent (a rename is then
 * a 404); its deployments, oldest first (the last 10 kept).
 */
export const SnapshotFunction = Schema.Struct({
  id: Schema.String,
  function_id: Schema.String,
  project_id: Schema.String,
  branch_id: Schema.String,
  slug: Schema.String,
  name: Schema.optional(Schema.String),
  inherited: Schema.optional(Schema.Boolean),
  created_at: SnapshotTime,
  deployments: Schema.Array(SnapshotFunctionDeployment)
}).annotations({ identifier: "SnapshotFunction" })

export const functions = kind({
  label: "function",
  schema: SnapshotFunction,
  id: Schema.String,
  idOf: (fn) => fn.id,
  parent: { kind: "branches", of: (fn) => fn.branch_id },
  rank: newestFirst
})

declare module "../../engine/kinds.js" {
  interface Kinds {
    readonly functions: typeof functions
  }
}
