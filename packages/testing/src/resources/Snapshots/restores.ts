/**
 * Restoring a snapshot to a new branch, and finalizing that restore (docs/contract.md §19): each
 * a pure step over the state (`engine/state.ts` `Mutation`).
 *
 * - A restore makes a new branch beside the branch it stands in for (the target: the snapshot's
 *   source branch unless `target_branch_id` says otherwise; same parent), holding the snapshot's
 *   roles and databases, `restore_status` `restored`, `restored_from` the snapshot's id,
 *   `restored_as` the target's id; it starts `create_branch` and is `ready` once that ends.
 * - Finalizing puts it in the target's place: the target's compute endpoints move to it (an
 *   `active` one restarted: `suspend_compute` then `start_compute`; an `idle` one just moves),
 *   it takes the target's name, default flag and protection, and `restore_status` `finalized`;
 *   the target is renamed `name`, or `{its name}_old_{time}` (RFC 3339 to the second) when none
 *   is given (the published reference says a name is generated, not which: the fake's choice).
 *   `finalize_restore: true` on the restore does both in one step.
 * - A mutation of a project with a pending operation answers 423 and changes nothing.
 */
import * as Either from "effect/Either"
import { branchId as newBranchId, databaseId, type Dice, uuid } from "../../engine/ids.js"
import { type Change, present, upsert } from "../../engine/kinds.js"
import { endOf, type OperationToStart, startOperations, runsFor } from "../../engine/operations.js"
import { secondsIso, snapshotOf } from "./steps.js"
import {
  applyAll,
  distinctTime,
  get,
  itemsOf,
  type Mutation,
  type State,
  type StoredBranch,
  type StoredEndpoint,
  type StoredOperation,
  type StoredProject,
  freshId
} from "../../engine/state.js"
import { Status } from "../../engine/status.js"
import { notFound, refused, type Refusal } from "../../engine/refusal.js"
import { endpointStateAt } from "../../engine/wire.js"
import { branchOf, unlockedProject } from "../../engine/records.js"

/** What a restore answers: the restored branch, its compute endpoints and the operations started. */
export interface SnapshotRestore {
  readonly project: StoredProject
  readonly branch: StoredBranch
  readonly endpoints: ReadonlyArray<StoredEndpoint>
  readonly operations: ReadonlyArray<StoredOperation>
}

/** The branch of project `projectId` named `name`, other than `except`, if any. */
const branchNamed = (state: State, projectId: string, name: string, except?: string) => {
  for (const branch of itemsOf(state, "branches", projectId)) {
    if (branch.name === name && branch.id !== except) return branch
  }
  return undefined
}

const nameTaken = (name: string) => refused(Status.conflict, `branch with name ${JSON.stringify(name)} already exists`)

/** The longest branch name: 256 characters. */
const nameLength = 256

/** Starts operations with ids no operation has, nor any started before in the same step (`taken`). */
const operationStarter =
  (state: State, dice: Dice, taken: Set<string>) =>
  (action: keyof typeof runsFor, branchId: string, endpointId?: string): OperationToStart => {
    const id = freshId(state, "operations", () => uuid(dice), taken)
    taken.add(id)
    return present({ id, action, branch_id: branchId, endpoint_id: endpointId, runsFor: runsFor[action] })
  }

/** The target of a branch restored from a snapshot, or a 400 (not restored, or finalized), or a 404 (gone). */
const targetOf = (state: State, projectId: string, restored: StoredBranch) => {
  if (restored.restored_from === undefined || restored.restored_as === undefined) {
    return refused(Status.badRequest, `branch ${restored.id} was not restored from a snapshot`)
  }
  if (restored.restore_status !== "restored") {
    return refused(Status.badRequest, `the restore of branch ${restored.id} is already finalized`)
  }
  const target = get(state, "branches", restored.restored_as)
  return target === undefined || target.project_id !== projectId ? notFound("target branch") : Either.right(target)
}

/** A finalization: its changes and operations (those started before it in the same step first), the branch as it leaves it. */
interface Finalization {
  readonly changes: ReadonlyArray<Change>
  readonly branch: StoredBranch
  readonly endpoints: ReadonlyArray<StoredEndpoint>
  readonly operations: ReadonlyArray<StoredOperation>
}

/**
 * `restored` put in `target`'s place at `now` (see the module's description), in `state` as it is
 * with `restored` in it; `before`: operations started first in the same step (a restore's
 * `create_branch`), `settle` what they make of `restored`. 409 for a `name` another branch has, or
 * when both branches have a `read_write` compute endpoint.
 */
const finalize = (
  state: State,
  projectId: string,
  restored: StoredBranch,
  target: StoredBranch,
  name: string | undefined,
  now: number,
  start: ReturnType<typeof operationStarter>,
  before: ReadonlyArray<OperationToStart>,
  settle: (branch: StoredBranch, operations: ReadonlyArray<StoredOperation>) => StoredBranch
): Either.Either<Finalization, Refusal> =>
  Either.gen(function* () {
    const renamed = name ?? `${target.name}_old_${secondsIso(now)}`.slice(0, nameLength)
    if (renamed === target.name || branchNamed(state, projectId, renamed, target.id) !== undefined) {
      return yield* nameTaken(renamed)
    }
    const moving = Array.from(itemsOf(state, "endpoints", target.id))
    const hasReadWrite = (branchId: string) =>
      Array.from(itemsOf(state, "endpoints", branchId)).some((endpoint) => endpoint.type === "read_write")
    if (hasReadWrite(target.id) && hasReadWrite(restored.id)) {
      return yield* refused(
        Status.conflict,
        `branch ${restored.id} has a read_write compute endpoint of its own, and so has ${target.id}: a branch has at most one`
      )
    }
    const starts = [...before]
    for (const endpoint of moving) {
      if (endpointStateAt(endpoint, now).current !== "active") continue
      starts.push(start("suspend_compute", restored.id, endpoint.id), start("start_compute", restored.id, endpoint.id))
    }
    const started = startOperations(state, projectId, starts, now)
    const endOfAction = (endpointId: string, action: string) => {
      const operation = started.operations.find((op) => op.endpoint_id === endpointId && op.action === action)
      return operation === undefined ? undefined : endOf(operation)
    }
    const endpoints = moving.map((endpoint): StoredEndpoint => {
      const suspended = endOfAction(endpoint.id, "suspend_compute")
      const active = endOfAction(endpoint.id, "start_compute")
      return {
        ...endpoint,
        branch_id: restored.id,
        updated_at: Math.max(now, endpoint.updated_at),
        ...(suspended === undefined ? {} : { suspended_at: suspended }),
        ...(active === undefined ? {} : { active_at: active })
      }
    })
    const branch: StoredBranch = {
      ...settle(restored, started.operations),
      name: target.name,
      default: target.default,
      protected: target.protected,
      restore_status: "finalized",
      updated_at: Math.max(now, restored.updated_at)
    }
    const replaced: StoredBranch = {
      ...target,
      name: renamed,
      default: false,
      updated_at: Math.max(now, target.updated_at)
    }
    return {
      changes: [
        upsert("branches", replaced),
        upsert("branches", branch),
        ...endpoints.map((endpoint) => upsert("endpoints", endpoint)),
        ...started.changes
      ],
      branch,
      endpoints,
      operations: started.operations
    }
  })

/** What `POST /projects/{project_id}/snapshots/{snapshot_id}/restore` asks for. */
export interface SnapshotRestoreRequest {
  readonly name?: string | undefined
  readonly target_branch_id?: string | undefined
  readonly finalize_restore?: boolean | undefined
}

/**
 * Restores a snapshot to a new branch (docs/contract.md §19): 404 for an unknown snapshot or
 * target, 409 for a `name` another branch has; starts `create_branch`, and, finalized at once,
 * the restarts of the target's active compute endpoints.
 */
export const restoreSnapshot =
  (
    projectId: string,
    snapshotId: string,
    request: SnapshotRestoreRequest,
    dice: Dice
  ): Mutation<SnapshotRestore, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const [project, snapshot] = yield* snapshotOf(state, projectId, snapshotId)
      yield* unlockedProject(state, projectId, now)
      const target = get(state, "branches", request.target_branch_id ?? snapshot.source_branch_id)
      if (target === undefined || target.project_id !== projectId) return yield* notFound("target branch")
      const id = freshId(state, "branches", () => newBranchId(dice))
      const name = request.name ?? id
      if (branchNamed(state, projectId, name) !== undefined) return yield* nameTaken(name)
      const created = distinctTime(state, "branches", projectId, now)
      const restored: StoredBranch = present({
        id,
        project_id: projectId,
        parent_id: target.parent_id,
        name,
        default: false,
        protected: false,
        created_at: created,
        updated_at: created,
        ready_at: created,
        restore_status: "restored",
        restored_from: snapshot.id,
        restored_as: target.id
      })
      const roles = snapshot.roles.map((role, i) =>
        upsert("roles", {
          ...role,
          id: `${id}/${role.name}`,
          project_id: projectId,
          branch_id: id,
          created_at: created + i,
          updated_at: created + i
        })
      )
      const databaseIds = new Set<number>()
      const databases = snapshot.databases.map((database, i) => {
        const databaseIdTaken = freshId(state, "databases", () => databaseId(dice), databaseIds)
        databaseIds.add(databaseIdTaken)
        return upsert("databases", {
          ...database,
          id: databaseIdTaken,
          project_id: projectId,
          branch_id: id,
          created_at: created + i,
          updated_at: created + i
        })
      })
      const start = operationStarter(state, dice, new Set())
      const creation = start("create_branch", id)
      const ready = (branch: StoredBranch, operations: ReadonlyArray<StoredOperation>): StoredBranch => ({
        ...branch,
        ready_at: endOf(operations[0]!)
      })
      if (request.finalize_restore !== true) {
        const started = startOperations(state, projectId, [creation], now)
        const branch = ready(restored, started.operations)
        return {
          changes: [upsert("branches", branch), ...roles, ...databases, ...started.changes],
          answer: { project, branch, endpoints: [], operations: started.operations }
        }
      }
      const withRestored = applyAll(state, [upsert("branches", restored), ...roles, ...databases])
      const done = yield* finalize(withRestored, projectId, restored, target, undefined, now, start, [creation], ready)
      return {
        changes: [upsert("branches", restored), ...roles, ...databases, ...done.changes],
        answer: { project, branch: done.branch, endpoints: done.endpoints, operations: done.operations }
      }
    })

/**
 * Finalizes the restore of a branch restored from a snapshot (docs/contract.md §19): 400 for a
 * branch not restored from one or already finalized, 404 when the branch it stands in for is
 * gone, 409 for a `name` another branch has.
 */
export const finalizeRestore =
  (
    projectId: string,
    branchId: string,
    request: { readonly name?: string | undefined },
    dice: Dice
  ): Mutation<ReadonlyArray<StoredOperation>, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const [, restored] = yield* branchOf(state, projectId, branchId)
      yield* unlockedProject(state, projectId, now)
      const target = yield* targetOf(state, projectId, restored)
      const start = operationStarter(state, dice, new Set())
      const done = yield* finalize(state, projectId, restored, target, request.name, now, start, [], (branch) => branch)
      return { changes: done.changes, answer: done.operations }
    })
