/**
 * The Buckets group's part of a seed (a branch's buckets and their objects): its schema, in a
 * seed file as in code, derived from the kinds the fake keeps (`kinds.ts`), with times relative
 * to the start. `Seed.ts` assembles the parts and documents them.
 */
import * as Schema from "effect/Schema"
import { SeedDuration } from "../../engine/seed.js"
import { SnapshotBucket, SnapshotBucketObject } from "./kinds.js"

/** `Seed.SeedBucketObjectFile` (documented there). */
export const SeedBucketObjectFile = Schema.Struct({
  /** The object's key, 1 to 1024 characters (`/` allowed). */
  key: SnapshotBucketObject.fields.key.pipe(Schema.minLength(1), Schema.maxLength(1024)),
  /** Its bytes as UTF-8 text; empty when neither this nor `content_base64` is given. */
  content: Schema.optional(Schema.String),
  /** Its bytes in base64 (instead of `content`). */
  content_base64: Schema.optional(Schema.Uint8ArrayFromBase64),
  /** The `Content-Type` it was uploaded with. */
  content_type: Schema.optional(Schema.String),
  /** How long before the start it was written; with its bucket when absent. */
  age: Schema.optional(SeedDuration)
}).annotations({ identifier: "SeedBucketObject" })

/** `Seed.SeedBucketFile` (documented there). */
export const SeedBucketFile = Schema.Struct({
  branch_id: SnapshotBucket.fields.branch_id,
  /** 1 to 255 characters, unique on the branch. */
  name: SnapshotBucket.fields.name.pipe(Schema.minLength(1), Schema.maxLength(255)),
  /** `private` by default. */
  access_level: Schema.optional(SnapshotBucket.fields.access_level),
  /** How long before the start it was created; with its branch when absent. */
  age: Schema.optional(SeedDuration),
  objects: Schema.optional(Schema.Array(SeedBucketObjectFile))
}).annotations({ identifier: "SeedBucket" })
