/**
 * What the fake's bucket routes and its presigned URLs do (docs/contract.md §28): a branch's
 * buckets and objects kept as records of that branch (`kinds.ts`), its ancestors' read from theirs
 * as they were at its branch point (copy-on-write: nothing is copied when a branch is made); each
 * mutation a pure step over the state.
 *
 * - **What a branch sees.** Its own bucket of a name, or else its parent's as of its branch point
 *   (`parent_timestamp`, or its creation), and so on up; an object likewise, but in a bucket the
 *   branch created itself only its own objects. A record that replaces or deletes one a descendant
 *   still sees is kept (`bucket_object_versions`, a bucket's `deleted_at`), so a child keeps what
 *   it saw when it was made.
 * - **Deleting.** An object: 404 when the branch does not see it; one it inherits is hidden on it
 *   (a `deleted` record), its ancestors keep theirs. By prefix: only the objects stored on the
 *   branch (inherited ones it never wrote stay). A bucket: with the objects the branch stored in it.
 * - **Limits.** An object holds at most {@link maxObjectBytes} (8 MiB), and all objects the fake
 *   keeps (every branch, replaced versions a child still sees included) at most
 *   {@link maxStoredBytes} (256 MiB): an upload past either is refused, and nothing is kept.
 * - **Presigned URLs.** Each is its signature's SHA-256 with what it allows (method, object,
 *   `Content-Type`) until it expires on the fake's clock; expired ones are dropped when the branch
 *   presigns again.
 */
import type { Api } from "@dbplatform/core"
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex } from "@noble/hashes/utils.js"
import * as Either from "effect/Either"
import { hashKey } from "../../engine/authentication.js"
import { type Dice, uuid } from "../../engine/ids.js"
import { type Change, type Item, remove, upsert } from "../../engine/kinds.js"
import { branchOf } from "../../engine/records.js"
import { notFound, type Refusal, refused } from "../../engine/refusal.js"
import { get, itemsOf, type Mutation, type State, type StoredBranch } from "../../engine/state.js"
import { Status } from "../../engine/status.js"
import { bucketId, objectId, versionId } from "./kinds.js"

/** A bucket record as the fake keeps it. */
export type StoredBucket = Item<"buckets">
/** An object record as the fake keeps it. */
export type StoredObject = Item<"bucket_objects">
/** A presigned URL as the fake keeps it (its signature's hash). */
export type StoredPresignedUrl = Item<"presigned_urls">

/** The most bytes one object holds: 8 MiB. */
export const maxObjectBytes = 8 * 1024 * 1024

/** The most bytes the fake keeps in objects, every branch's and replaced versions a child sees: 256 MiB. */
export const maxStoredBytes = 256 * 1024 * 1024

/** A presigned URL's life when the request names none: 900 s. */
export const defaultPresignSeconds = 900

/** The point of its parent's history a branch started from (epoch ms). */
const branchPoint = (branch: StoredBranch): number => branch.parent_timestamp ?? branch.created_at

/** The parent of `branch` and the time of it `branch` sees, no later than `at`; none for a root. */
const parentAt = (state: State, branch: StoredBranch, at: number) => {
  if (branch.parent_id === undefined) return undefined
  const parent = get(state, "branches", branch.parent_id)
  return parent === undefined ? undefined : { parent, at: Math.min(at, branchPoint(branch)) }
}

/** A bucket as `branch` sees it at `at`: the record, and whether the branch (not an ancestor) created it. */
export interface SeenBucket {
  readonly bucket: StoredBucket
  readonly own: boolean
}

/** The bucket `name` as `branch` sees it at `at` (epoch ms; `Infinity`: now). */
export const bucketAt = (state: State, branch: StoredBranch, name: string, at: number): SeenBucket | undefined => {
  let current: StoredBranch | undefined = branch
  let time = at
  let own = true
  while (current !== undefined) {
    const record = get(state, "buckets", bucketId(current.id, name))
    if (record !== undefined && record.created_at <= time) {
      if (record.hides === true || (record.deleted_at !== undefined && record.deleted_at <= time)) return undefined
      return { bucket: record, own }
    }
    const up = parentAt(state, current, time)
    current = up?.parent
    time = up?.at ?? time
    own = false
  }
  return undefined
}

/** The record of `key` in `bucket` that `branch` itself held at `at`: its current one, or a version it replaced. */
const ownObjectAt = (
  state: State,
  branchId: string,
  bucket: string,
  key: string,
  at: number
): StoredObject | undefined => {
  const current = get(state, "bucket_objects", objectId(branchId, bucket, key))
  if (current !== undefined && current.created_at <= at) return current
  for (const version of itemsOf(state, "bucket_object_versions", branchId)) {
    if (version.bucket === bucket && version.key === key && version.created_at <= at && at < version.superseded_at) {
      return version
    }
  }
  return undefined
}

/**
 * The object `key` of `bucket` as `branch` sees it at `at` (`Infinity`: now), inherited ones
 * included (none in a bucket the branch created itself, but its own); `undefined` when deleted
 * or never written.
 */
export const objectAt = (
  state: State,
  branch: StoredBranch,
  bucket: string,
  key: string,
  at: number
): StoredObject | undefined => {
  let current: StoredBranch | undefined = branch
  let time = at
  while (current !== undefined) {
    const record = ownObjectAt(state, current.id, bucket, key, time)
    if (record !== undefined) return record.deleted === true ? undefined : record
    const seen = get(state, "buckets", bucketId(current.id, bucket))
    if (seen !== undefined && seen.hides !== true && seen.created_at <= time) return undefined
    const up = parentAt(state, current, time)
    current = up?.parent
    time = up?.at ?? time
  }
  return undefined
}

/** Every object `branch` sees in `bucket` now, by key (deleted ones left out), in key order. */
export const objectsOf = (state: State, branch: StoredBranch, bucket: string): Array<StoredObject> => {
  const seen = new Map<string, StoredObject>()
  let current: StoredBranch | undefined = branch
  let time = Number.POSITIVE_INFINITY
  while (current !== undefined) {
    const held = new Map<string, StoredObject>()
    for (const record of itemsOf(state, "bucket_objects", current.id)) {
      if (record.bucket === bucket && record.created_at <= time) held.set(record.key, record)
    }
    if (Number.isFinite(time)) {
      for (const version of itemsOf(state, "bucket_object_versions", current.id)) {
        if (version.bucket === bucket && version.created_at <= time && time < version.superseded_at) {
          held.set(version.key, version)
        }
      }
    }
    for (const [key, record] of held) if (!seen.has(key)) seen.set(key, record)
    const record = get(state, "buckets", bucketId(current.id, bucket))
    if (record !== undefined && record.hides !== true && record.created_at <= time) break
    const up = parentAt(state, current, time)
    current = up?.parent
    time = up?.at ?? time
  }
  return Array.from(seen.values())
    .filter((object) => object.deleted !== true)
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
}

/**
 * The branch points (epoch ms) at which the descendants of `branch` see it: each descendant's
 * own point, or an earlier one of a branch between them.
 */
const descendantPoints = (state: State, branch: StoredBranch): Array<number> => {
  const points: Array<number> = []
  for (const other of itemsOf(state, "branches", branch.project_id)) {
    let at = Number.POSITIVE_INFINITY
    let current: StoredBranch | undefined = other
    while (current !== undefined && current.id !== branch.id) {
      at = Math.min(at, branchPoint(current))
      current = current.parent_id === undefined ? undefined : get(state, "branches", current.parent_id)
    }
    if (current !== undefined && other.id !== branch.id) points.push(at)
  }
  return points
}

/** Whether a descendant of `branch` sees a record of it that lived from `from` until `until`. */
const seenByDescendant = (points: ReadonlyArray<number>, from: number, until: number): boolean =>
  points.some((point) => point >= from && point < until)

/**
 * The changes that replace the current record of an object of `branch` at `now` (by `next`, or
 * nothing): the old one kept as a version when a descendant still sees it.
 */
const replacing = (points: ReadonlyArray<number>, old: StoredObject | undefined, now: number): ReadonlyArray<Change> =>
  old !== undefined && seenByDescendant(points, old.created_at, now)
    ? [
        upsert("bucket_object_versions", {
          ...old,
          id: versionId(old.branch_id, old.bucket, old.key, old.created_at),
          superseded_at: now
        })
      ]
    : []

/** The bucket `name` the branch sees, or a 404. */
const seenBucket = (state: State, branch: StoredBranch, name: string) => {
  const seen = bucketAt(state, branch, name, Number.POSITIVE_INFINITY)
  return seen === undefined ? notFound("bucket") : Either.right(seen)
}

/** The branch `branchId` of project `projectId` (a 404 for either). */
const branchIn = (state: State, projectId: string, branchId: string) =>
  Either.map(branchOf(state, projectId, branchId), ([, branch]) => branch)

/** The buckets a branch sees now, its ancestors' too, in name order (docs/contract.md §28.1). */
export const bucketsOf = (state: State, projectId: string, branchId: string) =>
  Either.map(branchIn(state, projectId, branchId), (branch) => {
    const names = new Set<string>()
    let current: StoredBranch | undefined = branch
    while (current !== undefined) {
      for (const record of itemsOf(state, "buckets", current.id)) names.add(record.name)
      current = current.parent_id === undefined ? undefined : get(state, "branches", current.parent_id)
    }
    return Array.from(names)
      .sort()
      .flatMap((name) => {
        const seen = bucketAt(state, branch, name, Number.POSITIVE_INFINITY)
        return seen === undefined ? [] : [seen.bucket]
      })
  })

/** Creates a bucket on a branch (docs/contract.md §28.1): 409 for a name the branch sees. */
export const createBucket =
  (
    projectId: string,
    branchId: string,
    request: typeof Api.BucketCreateRequest.Type
  ): Mutation<StoredBucket, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const branch = yield* branchIn(state, projectId, branchId)
      if (bucketAt(state, branch, request.name, Number.POSITIVE_INFINITY) !== undefined) {
        return yield* refused(Status.conflict, `bucket ${JSON.stringify(request.name)} already exists on the branch`)
      }
      const bucket: StoredBucket = {
        id: bucketId(branch.id, request.name),
        project_id: projectId,
        branch_id: branch.id,
        name: request.name,
        access_level: request.access_level ?? "private",
        created_at: now
      }
      // The objects a deleted bucket of this name kept for a child stay with it: only the new one's count.
      const stale = Array.from(itemsOf(state, "bucket_objects", branch.id)).filter(
        (object) => object.bucket === request.name
      )
      const points = descendantPoints(state, branch)
      return {
        changes: [
          ...stale.flatMap((object) => [...replacing(points, object, now), remove("bucket_objects", object.id)]),
          upsert("buckets", bucket)
        ],
        answer: bucket
      }
    })

/**
 * Deletes a bucket from a branch (docs/contract.md §28.1): 404 when the branch does not see it;
 * the objects it stored in it go with it (kept as versions while a child sees them).
 */
export const deleteBucket =
  (projectId: string, branchId: string, name: string): Mutation<undefined, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const branch = yield* branchIn(state, projectId, branchId)
      const seen = yield* seenBucket(state, branch, name)
      const points = descendantPoints(state, branch)
      const objects = Array.from(itemsOf(state, "bucket_objects", branch.id)).filter((object) => object.bucket === name)
      const changes: Array<Change> = objects.flatMap((object) => [
        ...replacing(points, object, now),
        remove("bucket_objects", object.id)
      ])
      if (!seen.own) {
        changes.push(
          upsert("buckets", {
            ...seen.bucket,
            id: bucketId(branch.id, name),
            branch_id: branch.id,
            created_at: now,
            deleted_at: now,
            hides: true
          })
        )
      } else if (seenByDescendant(points, seen.bucket.created_at, now)) {
        changes.push(upsert("buckets", { ...seen.bucket, deleted_at: now }))
      } else {
        changes.push(remove("buckets", seen.bucket.id))
      }
      return { changes, answer: undefined }
    })

/** A page of objects (docs/contract.md §28.2): the objects and folders after `cursor`, at most `limit`. */
export interface ObjectsPage {
  readonly folders: ReadonlyArray<string>
  readonly objects: ReadonlyArray<StoredObject>
  readonly prefix: string
  readonly next_cursor: string
  readonly is_truncated: boolean
}

/**
 * The objects a branch sees in a bucket, under `prefix`, folded at `delimiter`, in key order
 * after `cursor` (the last key or folder of the previous page), at most `limit` objects and
 * folders (docs/contract.md §28.2). 404 for a bucket the branch does not see.
 */
export const objectsPage = (
  state: State,
  params: { readonly project_id: string; readonly branch_id: string; readonly bucket_name: string },
  query: {
    readonly prefix?: string | undefined
    readonly delimiter?: string | undefined
    readonly cursor?: string | undefined
    readonly limit?: number | undefined
  }
): Either.Either<ObjectsPage, Refusal> =>
  Either.gen(function* () {
    const branch = yield* branchIn(state, params.project_id, params.branch_id)
    yield* seenBucket(state, branch, params.bucket_name)
    const prefix = query.prefix ?? ""
    const delimiter = query.delimiter === "" ? undefined : query.delimiter
    const limit = query.limit ?? 1000
    const folders: Array<string> = []
    const objects: Array<StoredObject> = []
    let last: string | undefined
    let truncated = false
    for (const object of objectsOf(state, branch, params.bucket_name)) {
      if (!object.key.startsWith(prefix)) continue
      const rest = object.key.slice(prefix.length)
      const cut = delimiter === undefined ? -1 : rest.indexOf(delimiter)
      const entry = cut < 0 ? object.key : prefix + rest.slice(0, cut + (delimiter?.length ?? 0))
      if (query.cursor !== undefined && entry <= query.cursor) continue
      if (entry === last) continue
      if (folders.length + objects.length === limit) {
        truncated = true
        break
      }
      if (cut < 0) objects.push(object)
      else folders.push(entry)
      last = entry
    }
    return { folders, objects, prefix, next_cursor: truncated ? (last ?? "") : "", is_truncated: truncated }
  })

/** The object a branch sees (docs/contract.md §28.2), inherited ones too; 404 for none. */
export const objectOf = (state: State, projectId: string, branchId: string, bucket: string, key: string) =>
  Either.gen(function* () {
    const branch = yield* branchIn(state, projectId, branchId)
    yield* seenBucket(state, branch, bucket)
    const object = objectAt(state, branch, bucket, key, Number.POSITIVE_INFINITY)
    return object === undefined ? yield* notFound("object") : object
  })

/**
 * The changes that delete the object `key` the branch sees: its own record replaced (kept while
 * a descendant sees it), and a `deleted` record in its place when an ancestor's would show.
 */
const deletion = (
  state: State,
  branch: StoredBranch,
  bucket: string,
  key: string,
  now: number,
  points: ReadonlyArray<number>
): ReadonlyArray<Change> => {
  const own = get(state, "bucket_objects", objectId(branch.id, bucket, key))
  const seen = bucketAt(state, branch, bucket, Number.POSITIVE_INFINITY)
  const up = seen?.own === true ? undefined : parentAt(state, branch, Number.POSITIVE_INFINITY)
  const inherited = up === undefined ? undefined : objectAt(state, up.parent, bucket, key, up.at)
  const changes = [...replacing(points, own, now)]
  if (inherited !== undefined) {
    changes.push(
      upsert("bucket_objects", {
        id: objectId(branch.id, bucket, key),
        project_id: branch.project_id,
        branch_id: branch.id,
        bucket,
        key,
        body: new Uint8Array(0),
        etag: "",
        created_at: now,
        deleted: true
      })
    )
  } else if (own !== undefined) {
    changes.push(remove("bucket_objects", own.id))
  }
  return changes
}

/** Deletes an object the branch sees (docs/contract.md §28.2): 404 for none. */
export const deleteObject =
  (projectId: string, branchId: string, bucket: string, key: string): Mutation<undefined, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      yield* objectOf(state, projectId, branchId, bucket, key)
      const branch = yield* branchIn(state, projectId, branchId)
      return { changes: deletion(state, branch, bucket, key, now, descendantPoints(state, branch)), answer: undefined }
    })

/**
 * Deletes the objects stored on the branch in a bucket whose key starts with `prefix`
 * (docs/contract.md §28.2); answers how many. Inherited objects it never wrote stay. 404 for a
 * bucket the branch does not see.
 */
export const deleteObjectsByPrefix =
  (projectId: string, branchId: string, bucket: string, prefix: string): Mutation<number, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const branch = yield* branchIn(state, projectId, branchId)
      yield* seenBucket(state, branch, bucket)
      const points = descendantPoints(state, branch)
      const stored = Array.from(itemsOf(state, "bucket_objects", branch.id)).filter(
        (object) => object.bucket === bucket && object.deleted !== true && object.key.startsWith(prefix)
      )
      return {
        changes: stored.flatMap((object) => deletion(state, branch, bucket, object.key, now, points)),
        answer: stored.length
      }
    })

/** The bytes the fake keeps in objects, per state of its object collections (made once each). */
const storedBytes = new WeakMap<object, number>()

/** The bytes every object and kept version of `state` holds. */
const bytesOf = (state: State): number => {
  const collections = state.bucket_objects
  const versions = state.bucket_object_versions
  let objects = storedBytes.get(collections)
  if (objects === undefined) {
    objects = 0
    for (const branch of state.branches.byId) {
      for (const object of itemsOf(state, "bucket_objects", branch[0])) objects += object.body.length
    }
    storedBytes.set(collections, objects)
  }
  let kept = storedBytes.get(versions)
  if (kept === undefined) {
    kept = 0
    for (const branch of state.branches.byId) {
      for (const version of itemsOf(state, "bucket_object_versions", branch[0])) kept += version.body.length
    }
    storedBytes.set(versions, kept)
  }
  return objects + kept
}

/** A refusal of an upload, S3's way: `code` (`EntityTooLarge`...) and status. */
export interface StorageRefusal {
  readonly status: number
  readonly code: string
  readonly message: string
}

/** An object's entity tag: the SHA-256 of its bytes, its first 32 hex digits, quoted. */
export const etagOf = (body: Uint8Array): string => `"${bytesToHex(sha256(body)).slice(0, 32)}"`

/**
 * Writes the object `key` of `bucket` on the branch (a presigned `PUT`, docs/contract.md §28.3):
 * its bytes, `Content-Type` and the time; the record it replaces kept while a descendant sees it.
 * Refused past {@link maxObjectBytes} or {@link maxStoredBytes}, or for a bucket the branch no
 * longer sees (S3's `NoSuchBucket`).
 */
export const putObject =
  (
    branchId: string,
    bucket: string,
    key: string,
    body: Uint8Array,
    contentType: string | undefined
  ): Mutation<StoredObject, StorageRefusal> =>
  (state, now) => {
    const branch = get(state, "branches", branchId)
    if (branch === undefined || bucketAt(state, branch, bucket, Number.POSITIVE_INFINITY) === undefined) {
      return Either.left({
        status: Status.notFound,
        code: "NoSuchBucket",
        message: "The specified bucket does not exist"
      })
    }
    if (body.length > maxObjectBytes) {
      return Either.left({
        status: Status.badRequest,
        code: "EntityTooLarge",
        message: `Your proposed upload exceeds the maximum allowed size of ${maxObjectBytes} bytes`
      })
    }
    const old = get(state, "bucket_objects", objectId(branch.id, bucket, key))
    if (bytesOf(state) - (old?.body.length ?? 0) + body.length > maxStoredBytes) {
      return Either.left({
        status: Status.forbidden,
        code: "QuotaExceeded",
        message: `The fake keeps at most ${maxStoredBytes} bytes of objects`
      })
    }
    const object: StoredObject = {
      id: objectId(branch.id, bucket, key),
      project_id: branch.project_id,
      branch_id: branch.id,
      bucket,
      key,
      body,
      etag: etagOf(body),
      ...(contentType === undefined ? {} : { content_type: contentType }),
      created_at: now
    }
    return Either.right({
      changes: [...replacing(descendantPoints(state, branch), old, now), upsert("bucket_objects", object)],
      answer: object
    })
  }

/** A presigned URL made: its record, and the signature that only its URL carries. */
export interface Presigned {
  readonly url: StoredPresignedUrl
  readonly signature: string
  /** The region of the branch's project, as S3 spells it. */
  readonly region: string
}

/** The region a project's `region_id` names, as S3 spells it (`aws-us-east-2` → `us-east-2`). */
export const s3Region = (regionId: string | undefined): string =>
  regionId === undefined ? "us-east-1" : regionId.replace(/^[a-z]+-/, "") || "us-east-1"

/**
 * Presigns an upload (`PUT`) or download (`GET`) of an object of a bucket the branch sees
 * (docs/contract.md §28.3), valid `expires_in_seconds` (900 s when absent); the branch's expired
 * ones dropped. 404 for an unknown project, branch or bucket.
 */
export const presignObject =
  (
    params: {
      readonly project_id: string
      readonly branch_id: string
      readonly bucket_name: string
      readonly object_key: string
    },
    request: typeof Api.PresignRequest.Type,
    dice: Dice
  ): Mutation<Presigned, Refusal> =>
  (state, now) =>
    Either.gen(function* () {
      const [project, branch] = yield* branchOf(state, params.project_id, params.branch_id)
      yield* seenBucket(state, branch, params.bucket_name)
      const signature = `${uuid(dice)}${uuid(dice)}`.replace(/-/g, "")
      const upload = request.operation === "upload"
      const url: StoredPresignedUrl = {
        id: hashKey(signature),
        project_id: params.project_id,
        branch_id: branch.id,
        bucket: params.bucket_name,
        key: params.object_key,
        method: upload ? "PUT" : "GET",
        ...(upload && request.content_type !== undefined ? { content_type: request.content_type } : {}),
        created_at: now,
        expires_at: now + (request.expires_in_seconds ?? defaultPresignSeconds) * 1000
      }
      const expired = Array.from(itemsOf(state, "presigned_urls", branch.id)).filter((old) => old.expires_at <= now)
      return {
        changes: [...expired.map((old) => remove("presigned_urls", old.id)), upsert("presigned_urls", url)],
        answer: { url, signature, region: s3Region(project.region_id) }
      }
    })
