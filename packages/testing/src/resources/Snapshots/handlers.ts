/**
 * The fake's snapshot routes (docs/contract.md §19): each decodes with its entry of core's
 * `Api.Snapshots` and runs a mutation or a read of `steps.ts` or `restores.ts`.
 */
import { Api, BranchId } from "@dbplatform/core"
import * as DateTime from "effect/DateTime"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { present } from "../../engine/kinds.js"
import { type Handlers } from "../../engine/route.js"
import { finalizeRestore, restoreSnapshot } from "./restores.js"
import {
  createSnapshot,
  deleteSnapshot,
  scheduleOf,
  setBackupSchedule,
  type StoredBranchSnapshot,
  snapshotsOf,
  updateSnapshot
} from "./steps.js"
import type { FakeState } from "../../engine/state.js"
import { at, branchAt, computeEndpointAt, operationAt, operationsStarted, unchecked } from "../../engine/wire.js"
import { change, read } from "../../engine/change.js"
import { type Authorizations, anyKey } from "../../engine/authorization.js"

/** A snapshot as a real server sends it (docs/contract.md §19): its data stays in the fake. */
export const snapshotAt = (snapshot: StoredBranchSnapshot): Api.Snapshot =>
  new Api.Snapshot(
    present({
      id: Api.SnapshotId.make(snapshot.id, unchecked),
      name: snapshot.name,
      lsn: snapshot.lsn,
      timestamp: at(snapshot.timestamp),
      source_branch_id: BranchId.make(snapshot.source_branch_id, unchecked),
      created_at: at(snapshot.created_at),
      expires_at: snapshot.expires_at === undefined ? undefined : at(snapshot.expires_at),
      manual: snapshot.manual
    }),
    unchecked
  )

/**
 * The query of `POST /projects/{project_id}/snapshots/{snapshot_id}/restore`: the deprecated
 * `name` of the new branch, which the body's `name` replaces (the same limits as the body's).
 */
const DeprecatedRestoreQuery = Schema.Struct({ name: Api.SnapshotRestoreRequest.fields.name })

const millis = (time: DateTime.Utc | undefined) => (time === undefined ? undefined : DateTime.toEpochMillis(time))

/** How the fake answers each entry of core's `Api.Snapshots`. */
export const snapshotHandlers = (fake: FakeState): Handlers<typeof Api.Snapshots> => ({
  create: ({ params, query }) =>
    change(
      fake,
      (dice) =>
        createSnapshot(
          params.project_id,
          params.branch_id,
          {
            lsn: query.lsn,
            timestamp: millis(query.timestamp),
            name: query.name,
            expires_at: millis(query.expires_at)
          },
          dice
        ),
      ({ operations, snapshot }, now) =>
        new Api.SnapshotCreated(
          { snapshot: snapshotAt(snapshot), operations: operations.map((operation) => operationAt(operation, now)) },
          unchecked
        )
    ),
  list: ({ params }) =>
    read(fake, (state) =>
      Either.map(
        snapshotsOf(state, params.project_id),
        (snapshots) => new Api.SnapshotsList({ snapshots: snapshots.map(snapshotAt) }, unchecked)
      )
    ),
  update: ({ body, params }) =>
    change(
      fake,
      () =>
        updateSnapshot(params.project_id, params.snapshot_id, {
          name: body.snapshot.name,
          expires_at: body.snapshot.expires_at === null ? null : millis(body.snapshot.expires_at)
        }),
      (snapshot) => new Api.SnapshotEnvelope({ snapshot: snapshotAt(snapshot) }, unchecked)
    ),
  delete: ({ params }) =>
    change(fake, (dice) => deleteSnapshot(params.project_id, params.snapshot_id, dice), operationsStarted),
  restore: {
    // The deprecated query `name` the document still declares (core does not: docs/design.md §1.4).
    query: DeprecatedRestoreQuery,
    handle: ({ body, params, query }) =>
      change(
        fake,
        (dice) =>
          restoreSnapshot(
            params.project_id,
            params.snapshot_id,
            // The body's `name` takes the deprecated query's place; the query's serves when the body has none.
            present({ ...body, name: body.name ?? (query as typeof DeprecatedRestoreQuery.Type | undefined)?.name }),
            dice
          ),
        (restored, now) =>
          new Api.SnapshotRestored(
            {
              branch: branchAt(restored.branch, now),
              endpoints: restored.endpoints.map((endpoint) => computeEndpointAt(endpoint, restored.project, now)),
              operations: restored.operations.map((operation) => operationAt(operation, now))
            },
            unchecked
          )
      )
  },
  finalizeRestore: ({ body, params }) =>
    change(fake, (dice) => finalizeRestore(params.project_id, params.branch_id, body, dice), operationsStarted),
  getBackupSchedule: ({ params }) =>
    read(fake, (state) =>
      Either.map(scheduleOf(state, params.project_id, params.branch_id), (schedule) => ({ schedule }))
    ),
  setBackupSchedule: ({ body, params }) =>
    change(
      fake,
      () => setBackupSchedule(params.project_id, params.branch_id, body.schedule),
      () => new Api.BackupScheduleSet({}, unchecked)
    )
})

/** Which kinds of key may call each Snapshots endpoint, and what another gets (docs/contract.md §21). */
export const snapshotAuthorizations: Authorizations<typeof Api.Snapshots> = {
  create: anyKey,
  list: anyKey,
  update: anyKey,
  delete: anyKey,
  restore: anyKey,
  finalizeRestore: anyKey,
  getBackupSchedule: anyKey,
  setBackupSchedule: anyKey
}
