/**
 * The kinds of record the fake keeps, declared once each: the shape a `Snapshot` holds it in, how
 * to get its id, its parent kind (for cascading deletes and orphan checks), its place in its
 * parent's newest-first list, and what is wrong with one on its own. The `Snapshot` schema, the
 * change record, seeds, restore and the emulator's journal replay are all derived from the
 * registry {@link Kinds}: a new kind is a schema and an entry in its resource's `kinds.ts`, and
 * its place in `internal/kinds.ts`.
 */
import { DecodeIssue, Operation, OperationId } from "@dbplatform/core"
import * as DateTime from "effect/DateTime"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"

/** A time: epoch milliseconds in memory, an RFC 3339 UTC string in JSON. */
export const SnapshotTime = Schema.DateTimeUtc.pipe(
  Schema.transform(Schema.Number, { strict: true, decode: DateTime.toEpochMillis, encode: DateTime.unsafeMake })
).annotations({ identifier: "SnapshotTime" })

/**
 * A key: `hash` is the SHA-256 of its value, 64 lower-case hex digits. Since 0.5.0 a key of an
 * organization has its `org_id`, and one scoped to a project of it also its `project_id`
 * (docs/contract.md §21); a personal key has neither (and a key saved before is personal).
 */
export const SnapshotApiKey = Schema.Struct({
  id: Schema.Int.pipe(Schema.positive()),
  name: Schema.String,
  hash: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)),
  created_at: SnapshotTime,
  revoked: Schema.Boolean,
  last_used_at: Schema.NullOr(SnapshotTime),
  last_used_from_addr: Schema.String,
  org_id: Schema.optional(Schema.String),
  project_id: Schema.optional(Schema.String)
}).annotations({ identifier: "SnapshotApiKey" })

/** One step of an operation's life: from `at` on, it has `status`. */
export const SnapshotStep = Schema.Struct({ at: SnapshotTime, status: Operation.fields.status })

/** An operation with its whole life: `steps` in ascending time, the first one `scheduling` at `created_at`. */
export const SnapshotOperation = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  branch_id: Schema.optional(Schema.String),
  endpoint_id: Schema.optional(Schema.String),
  action: Operation.fields.action,
  created_at: SnapshotTime,
  steps: Schema.NonEmptyArray(SnapshotStep),
  failures_count: Operation.fields.failures_count.pipe(Schema.nonNegative()),
  error: Operation.fields.error,
  retry_at: Schema.optional(SnapshotTime)
}).annotations({ identifier: "SnapshotOperation" })

/**
 * What core's `schema` says is wrong with `value` (`DecodeIssue.format`), or `undefined` when it
 * decodes: the problems of a seed or a snapshot name what the contract expects in core's words.
 */
export const refusalOf = <A, I>(
  schema: Schema.Schema<A, I>,
  value: unknown,
  options?: DecodeIssue.Options
): string | undefined => {
  const decoded = Schema.decodeUnknownEither(schema)(value)
  return Either.isLeft(decoded) ? DecodeIssue.format(decoded.left.issue, options) : undefined
}

/**
 * The organization of a project that names none: every project of the fake belongs to it unless
 * its seed says otherwise (`org_id`, docs/contract.md §10.4).
 */
export const defaultOrgId = "org-dbplatform-000000"

/** Branch and compute endpoint ids, as the platform's: `^[a-z0-9-]{1,60}$`. */
const idPattern = /^[a-z0-9-]{1,60}$/

/** What is wrong with a branch, compute endpoint or snapshot id `id` (`label`), if anything. */
export const slugProblem = (label: string, id: string): ReadonlyArray<string> =>
  idPattern.test(id) ? [] : [`${label} "${DecodeIssue.excerpt(id)}": a ${label} id is 1 to 60 of a-z, 0-9 and -`]

/**
 * How one kind is kept. `rank` orders the items of one parent (ascending; ties by id): newest
 * first is `-created_at`. `parent`: the kind an item belongs to and its id there; an item
 * without one belongs to the account. `check`: what is wrong with one item on its own.
 */
export interface KindSpec<S extends Schema.Schema.AnyNoContext, Id extends string | number, P extends string = string> {
  /** How problems name it: `project`, `API key`. */
  readonly label: string
  readonly schema: S
  /** The schema of its id, for a `Delete` change. */
  readonly id: Schema.Schema<Id, Id>
  readonly idOf: (item: Schema.Schema.Type<S>) => Id
  readonly parent?: { readonly kind: P; readonly of: (item: Schema.Schema.Type<S>) => string } | undefined
  readonly rank: (item: Schema.Schema.Type<S>) => number
  readonly check?: ((item: Schema.Schema.Type<S>) => ReadonlyArray<string>) | undefined
  /** The item as the fake keeps it, from one saved by an older version. */
  readonly upgrade?: ((item: Schema.Schema.Type<S>) => Schema.Schema.Type<S>) | undefined
  /**
   * How a change of part of an item is recorded and made (a `Patch` change), for a kind whose
   * items are large and change a little at a time (a database and its schema's history):
   * `schema`, the patch as a journal holds it; `apply`, the item after it, the same when applied
   * twice.
   */
  readonly patch?:
    | {
        readonly schema: Schema.Schema.AnyNoContext
        readonly apply: (item: Schema.Schema.Type<S>, patch: never) => Schema.Schema.Type<S>
      }
    | undefined
}

/** A kind's entry, as declared (its `P`: the kind of its parent, checked against {@link Kinds}). */
export const kind = <S extends Schema.Schema.AnyNoContext, Id extends string | number, const P extends string = never>(
  spec: KindSpec<S, Id, P>
) => spec

/** The `rank` of a kind listed newest first. */
export const newestFirst = (item: { readonly created_at: number }) => -item.created_at

/** A key (the engine's own kind: requests authenticate with one, `authentication.ts`). */
export const api_keys = kind({
  label: "API key",
  schema: SnapshotApiKey,
  id: Schema.Number,
  idOf: (key) => key.id,
  rank: (key) => key.id
})

/** An operation (the engine's own kind: the control plane runs them, `operations.ts`). */
export const operations = kind({
  label: "operation",
  schema: SnapshotOperation,
  id: Schema.String,
  idOf: (operation) => operation.id,
  // A branch's operations outlive it, as history: they belong to the project.
  parent: { kind: "projects", of: (operation) => operation.project_id },
  rank: newestFirst,
  check: (operation) => {
    const refused = refusalOf(OperationId, operation.id, { values: "never" })
    return refused === undefined ? [] : [`operation "${DecodeIssue.excerpt(operation.id)}": ${refused}`]
  }
})

/**
 * The kinds the fake keeps, by name: the registry every kind joins. The engine declares its own
 * two (`api_keys`, `operations`); each resource adds its kinds in its `kinds.ts` (`declare module`
 * of this module), and `internal/kinds.ts` lists them all, in the order a snapshot lists them, as
 * the table the state is made from. The engine names a resource's kind (`"branches"`) through
 * this registry, never by importing the resource.
 */
export interface Kinds {
  readonly api_keys: typeof api_keys
  readonly operations: typeof operations
}

/** A kind's name: `api_keys`, `projects`, `branches`, `endpoints`, `roles`, `databases`, `operations`, ... */
export type Kind = keyof Kinds

/** An item of kind `K` as the fake keeps it (a snapshot's form, times epoch ms). */
export type Item<K extends Kind> = Schema.Schema.Type<Kinds[K]["schema"]>

/** The id of an item of kind `K`. */
export type Id<K extends Kind> = Schema.Schema.Type<Kinds[K]["id"]>

/** A kind's own spec, seen through one type (a table lookup by a name known only at run time). */
export const specIn = <K extends Kind>(table: Kinds, kind: K): KindSpec<Kinds[K]["schema"], Id<K>, Kind> =>
  table[kind] as unknown as KindSpec<Kinds[K]["schema"], Id<K>, Kind>

/** One change of the state: an item of a kind put in place of the one with its id (or added). */
export type Upsert = {
  readonly [K in Kind]: { readonly _tag: "Upsert"; readonly kind: K; readonly item: Item<K> }
}[Kind]

/** One change of the state: the item of a kind with this id removed (nothing when there is none). */
export type Delete = { readonly [K in Kind]: { readonly _tag: "Delete"; readonly kind: K; readonly id: Id<K> } }[Kind]

/** The whole state as data: one array per kind, and the id the next key gets. */
export type Collections = { readonly [K in Kind]: ReadonlyArray<Item<K>> } & { readonly next_key_id: number }

/** The whole state replaced (a reset, a seed loaded, a snapshot restored). */
export interface Replace {
  readonly _tag: "State"
  readonly snapshot: Collections & { readonly version: 2 }
}

/**
 * One change of the state: the item of a kind with this id changed by `patch`, as its kind's
 * `patch` makes it (a database's schema: a new version, as the tables it changed), so that the
 * record grows with the change and not with the item.
 */
export type Patch = {
  readonly [K in Kind]: { readonly _tag: "Patch"; readonly kind: K; readonly id: Id<K>; readonly patch: unknown }
}[Kind]

/** One change record: what the journal, snapshots, seeds and restore all use. */
export type Change = Upsert | Delete | Replace | Patch

/** An `Upsert` of `item`, of kind `kind`. */
export const upsert = <K extends Kind>(kind: K, item: Item<K>): Change => ({ _tag: "Upsert", kind, item }) as Change

/** A `Delete` of the item of kind `kind` with id `id`. */
export const remove = <K extends Kind>(kind: K, id: Id<K>): Change => ({ _tag: "Delete", kind, id }) as Change

/** `fields` without its keys set to `undefined`, so a record built in code equals one decoded from its JSON. */
export const present = <A extends object>(fields: A): A => {
  let kept: Record<string, unknown> | undefined
  for (const key in fields) {
    if (fields[key] === undefined) {
      if (kept === undefined) {
        kept = {}
        for (const before in fields) {
          if (before === key) break
          kept[before] = fields[before]
        }
      }
    } else if (kept !== undefined) {
      kept[key] = fields[key]
    }
  }
  return (kept ?? fields) as A
}
