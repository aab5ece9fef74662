/**
 * The kinds of record of the ProjectTransfers group the fake keeps (`engine/kinds.ts`): each one's shape as a
 * `Snapshot` holds it, and its entry of the table of kinds (`internal/kinds.ts`).
 */
import * as Schema from "effect/Schema"
import { kind, newestFirst, SnapshotTime } from "../../engine/kinds.js"

/**
 * A request to transfer a project (docs/contract.md §22.4): `id` a UUID; it can be accepted
 * until `expires_at`, once (an accepted request is removed).
 */
export const SnapshotTransferRequest = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  created_at: SnapshotTime,
  expires_at: SnapshotTime
}).annotations({ identifier: "SnapshotTransferRequest" })

export const transfer_requests = kind({
  label: "transfer request",
  schema: SnapshotTransferRequest,
  id: Schema.String,
  idOf: (request) => request.id,
  parent: { kind: "projects", of: (request) => request.project_id },
  rank: newestFirst
})

declare module "../../engine/kinds.js" {
  interface Kinds {
    readonly transfer_requests: typeof transfer_requests
  }
}
