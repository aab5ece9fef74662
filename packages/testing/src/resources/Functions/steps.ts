/**
 * What the fake's Functions routes do (docs/contract.md §29.5): a branch's functions kept as
 * `functions` records under it (deleting the branch deletes them); each mutation a pure step over
 * the state.
 *
 * - A branch created from another gets copies of its functions (`inherited`), as they are at its
 *   creation ({@link inheritedFunctions}); a change on either branch stays on it.
 * - Deploy: 404 for an unknown project or branch; 400 with no part, or for the first deployment of
 *   a slug without a `zip`. A new slug with a zip creates the function. An omitted part keeps the
 *   latest deployment's; an environment variable with an empty value is removed. A deployment to
 *   an inherited function makes it the branch's own (the fake's choice: the reference does not say).
 * - The build runs on the fake's clock, from the deployment's creation: `pending` for
 *   {@link pendingMillis}, `building` until {@link buildMillis}, then `completed`, or `failed` for a
 *   bundle that is not a ZIP archive. The fake runs no function: a completed deployment only says
 *   so, and its `invocation_url` answers nothing.
 * - Rename: 404 for a function the branch only inherits; `null` clears the name; a blank name 400.
 * - Delete: 404 for an unknown function; a function the branch inherits may be deleted on it.
 */
import type { Api } from "@dbplatform/core"
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex } from "@noble/hashes/utils.js"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import { type Dice, uuid } from "../../engine/ids.js"
import { type Change, type Item, remove, upsert } from "../../engine/kinds.js"
import { branchOf } from "../../engine/records.js"
import { refused, notFound, type Refusal } from "../../engine/refusal.js"
import { distinctTime, get, itemsOf, type Mutation, type State } from "../../engine/state.js"
import { Status } from "../../engine/status.js"

/** A function as the fake keeps it. */
export type StoredFunction = Item<"functions">

/** A deployment as the fake keeps it. */
export type StoredDeployment = StoredFunction["deployments"][number]

/** How long a deployment stays `pending`, in ms from its creation. */
export const pendingMillis = 2_000

/** When a deployment's build ends (`completed` or `failed`), in ms from its creation. */
export const buildMillis = 10_000

/** The memory of a deployment, in MiB (the fake's choice: the reference gives no default). */
export const memoryMib = 256

/** How many deployments of a function the fake keeps (the newest). */
const keptDeployments = 10

/** The record id of the function `slug` of branch `branchId`. */
export const functionKey = (branchId: string, slug: string) => `${branchId}/${slug}`

/** The status of `deployment` at `now` (epoch ms). */
export const statusAt = (
  deployment: StoredDeployment,
  now: number
): "pending" | "building" | "completed" | "failed" => {
  const age = now - deployment.created_at
  if (age < pendingMillis) return "pending"
  if (age < buildMillis) return "building"
  return deployment.bundle_is_zip ? "completed" : "failed"
}

/** Why a failed build failed. */
export const failedBuild = "the bundle is not a ZIP archive"

/** The functions of a branch, newest first; a 404 for an unknown project or branch. */
export const functionsOfBranch = (state: State, projectId: string, branchId: string) =>
  Either.map(branchOf(state, projectId, branchId), () => itemsOf(state, "functions", branchId))

/** The function `slug` of a branch; a 404 for it, the branch or the project. */
export const functionOf = (
  state: State,
  projectId: string,
  branchId: string,
  slug: string
): Either.Either<StoredFunction, Refusal> =>
  Either.flatMap(branchOf(state, projectId, branchId), () => {
    const found = get(state, "functions", functionKey(branchId, slug))
    return found === undefined ? notFound("function") : Either.right(found)
  })

/**
 * The copies of branch `parentId`'s functions for its new child `branchId` (created at `created`),
 * marked `inherited`: the upserts to add with the branch.
 */
export const inheritedFunctions = (state: State, parentId: string, branchId: string): ReadonlyArray<Change> =>
  Array.from(itemsOf(state, "functions", parentId), (fn) =>
    upsert("functions", { ...fn, id: functionKey(branchId, fn.slug), branch_id: branchId, inherited: true })
  )

/** Sets or clears (`null`) the display name of a function the branch owns. */
export const renameFunction =
  (projectId: string, branchId: string, slug: string, name: string | null): Mutation<StoredFunction, Refusal> =>
  (state) =>
    Either.gen(function* () {
      const fn = yield* functionOf(state, projectId, branchId, slug)
      if (fn.inherited === true) return yield* notFound("function")
      const trimmed = name?.trim()
      if (trimmed === "") return yield* refused(Status.badRequest, "name must not be blank")
      const { name: _old, ...rest } = fn
      const renamed: StoredFunction = trimmed === undefined ? rest : { ...rest, name: trimmed }
      return { changes: [upsert("functions", renamed)], answer: renamed }
    })

/** Deletes a function of the branch. */
export const deleteFunction =
  (projectId: string, branchId: string, slug: string): Mutation<void, Refusal> =>
  (state) =>
    Either.map(functionOf(state, projectId, branchId, slug), (fn) => ({
      changes: [remove("functions", fn.id)],
      answer: undefined
    }))

/** What `POST .../deployments` takes, decoded: core's body (`FunctionDeployRequest`). */
export type DeployRequest = typeof Api.FunctionDeployRequest.Type

/** The environment's names after `request`'s: set ones added, empty ones removed, sorted. */
const namesAfter = (before: ReadonlyArray<string>, request: DeployRequest): ReadonlyArray<string> => {
  if (request.environment === undefined) return before
  const names = new Set(before)
  for (const [name, value] of Object.entries(request.environment)) {
    // The value is read only to tell an empty one (a removal); it is never kept.
    if (Redacted.value(value) === "") names.delete(name)
    else names.add(name)
  }
  return [...names].sort()
}

/** Creates a deployment (and, for a new slug with a zip, the function). */
export const deployFunction =
  (
    projectId: string,
    branchId: string,
    slug: string,
    request: DeployRequest,
    dice: Dice
  ): Mutation<StoredDeployment, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      yield* branchOf(state, projectId, branchId)
      if (request.zip === undefined && request.runtime === undefined && request.environment === undefined) {
        return yield* refused(Status.badRequest, "a deployment needs at least one of zip, runtime and environment")
      }
      const existing = get(state, "functions", functionKey(branchId, slug))
      const latest = existing?.deployments[existing.deployments.length - 1]
      if (latest === undefined && request.zip === undefined) {
        return yield* refused(Status.badRequest, "the first deployment of a function must include zip")
      }
      const bundle =
        request.zip === undefined
          ? {
              bundle_sha256: latest!.bundle_sha256,
              bundle_bytes: latest!.bundle_bytes,
              bundle_is_zip: latest!.bundle_is_zip
            }
          : {
              bundle_sha256: bytesToHex(sha256(request.zip)),
              bundle_bytes: request.zip.length,
              bundle_is_zip: isZip(request.zip)
            }
      const deployment: StoredDeployment = {
        id: (latest?.id ?? 0) + 1,
        runtime: request.runtime ?? latest?.runtime ?? "nodejs24",
        memory_mib: latest?.memory_mib ?? memoryMib,
        created_at: now,
        environment: namesAfter(latest?.environment ?? [], request),
        ...bundle
      }
      const base: StoredFunction =
        existing === undefined
          ? {
              id: functionKey(branchId, slug),
              function_id: uuid(dice),
              project_id: projectId,
              branch_id: branchId,
              slug,
              created_at: distinctTime(state, "functions", branchId, now),
              deployments: []
            }
          : existing
      const { inherited: _inherited, ...owned } = base
      const fn: StoredFunction = { ...owned, deployments: [...base.deployments, deployment].slice(-keptDeployments) }
      return { changes: [upsert("functions", fn)], answer: deployment }
    })

/** Whether `bytes` start as a ZIP archive does (a local file header, or an empty archive's end record). */
const isZip = (bytes: Uint8Array): boolean =>
  bytes.length >= 4 &&
  bytes[0] === 0x50 &&
  bytes[1] === 0x4b &&
  (bytes[2] === 3 || bytes[2] === 5) &&
  bytes[3] === bytes[2] + 1
