/**
 * The state of one fake account: one immutable keyed collection per kind (`kinds.ts`) in a
 * `SynchronizedRef`, changed only by change records (`Change`) applied by one function
 * ({@link apply}), the same one the emulator's journal replay uses. A mutation is a pure step
 * from the state and the time to the changes it makes and its answer ({@link Mutation}), run by
 * {@link mutate}, which records its changes in the journal (an Effect) while it holds the state.
 */
import * as Clock from "effect/Clock"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as HashMap from "effect/HashMap"
import * as Option from "effect/Option"
import * as Order from "effect/Order"
import * as RedBlackTree from "effect/RedBlackTree"
import * as Schema from "effect/Schema"
import { map as mapRecord } from "effect/Record"
import * as SynchronizedRef from "effect/SynchronizedRef"
import type { Dice } from "./ids.js"
import { type Change, type Collections, type Id, type Item, type Kind, type Kinds, remove, specIn } from "./kinds.js"

/** A key as the fake keeps it: the SHA-256 of its value, never the value (`docs/contract.md` §10.3). */
export type StoredKey = Item<"api_keys">
/** A project as the fake keeps it; the other fields of an answer are derived (`wire.ts`). */
export type StoredProject = Item<"projects">
/** A branch as the fake keeps it. */
export type StoredBranch = Item<"branches">
/** A compute endpoint as the fake keeps it. */
export type StoredEndpoint = Item<"endpoints">
/** A role as the fake keeps it, with its password (docs/contract.md §15.2). */
export type StoredRole = Item<"roles">
/** A database as the fake keeps it. */
export type StoredDatabase = Item<"databases">
/** An operation as the fake keeps it: its life as steps (ascending `at`). */
export type StoredOperation = Item<"operations">
/** An organization as the fake keeps it. */
export type StoredOrganization = Item<"organizations">
/** A member of an organization as the fake keeps it. */
export type StoredMember = Item<"members">
/** An invitation to an organization as the fake keeps it. */
export type StoredInvitation = Item<"invitations">

/** Where an item sits among its parent's: its kind's `rank`, then its id. */
type Rank = readonly [rank: number, id: string | number]

/** A rank after every id of its `rank`: where a page after a cursor starts. */
const afterEveryId = Symbol("afterEveryId")
type Probe = readonly [rank: number, id: string | number | typeof afterEveryId]

const byRank: Order.Order<Probe> = (a, b) => {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1
  if (a[1] === b[1]) return 0
  if (a[1] === afterEveryId) return 1
  if (b[1] === afterEveryId) return -1
  return a[1] < b[1] ? -1 : 1
}

/** The items of one parent, in their kind's order (newest first, or keys by id). */
export type Group<A> = RedBlackTree.RedBlackTree<Rank, A>

/** One kind's items: by id, and by parent (the account's own items under `""`) in order. */
export interface Collection<K extends Kind> {
  readonly byId: HashMap.HashMap<Id<K>, Item<K>>
  readonly byParent: HashMap.HashMap<string, Group<Item<K>>>
}

/**
 * The whole state, immutable: one collection per kind, the id the next key gets, and
 * `revision`, which grows with every change (a key's last use too), so a caller can tell when a
 * snapshot is worth saving again.
 */
export type State = { readonly [K in Kind]: Collection<K> } & {
  readonly next_key_id: number
  readonly revision: number
  /** The table of kinds it was made from (`internal/kinds.ts`). */
  readonly kinds: Kinds
}

/** The id the first key of an account gets; later keys count up from it. */
export const firstKeyId = 1_000_001

/** One collection per kind of `kinds`, `of` each. */
const perKind = (kinds: Kinds, of: (kind: Kind) => Collection<Kind>): { readonly [K in Kind]: Collection<K> } =>
  // `mapRecord` answers one type for every kind; each collection is of its own kind.
  mapRecord(kinds, (_, kind) => of(kind)) as { readonly [K in Kind]: Collection<K> }

/** An account with nothing in it, of the kinds of `kinds`. */
export const emptyState = (kinds: Kinds): State => ({
  ...perKind(kinds, () => ({ byId: HashMap.empty(), byParent: HashMap.empty() })),
  next_key_id: firstKeyId,
  revision: 0,
  kinds
})

/** The names of the kinds of `state`, in table order. */
const kindsOf = (state: State) => Object.keys(state.kinds) as ReadonlyArray<Kind>

const parentOf = <K extends Kind>(kinds: Kinds, kind: K, item: Item<K>): string =>
  specIn(kinds, kind).parent?.of(item) ?? ""
/** A `Data.tuple`: the tree finds the node to remove by `Equal.equals`, so a rank is compared by value. */
const rankOf = <K extends Kind>(kinds: Kinds, kind: K, item: Item<K>): Rank =>
  Data.tuple(specIn(kinds, kind).rank(item), specIn(kinds, kind).idOf(item))

const without = <K extends Kind>(kinds: Kinds, collection: Collection<K>, kind: K, item: Item<K>): Collection<K> => {
  const parent = parentOf(kinds, kind, item)
  const group = HashMap.get(collection.byParent, parent)
  if (Option.isNone(group)) return collection
  const rest = RedBlackTree.removeFirst(group.value, rankOf(kinds, kind, item))
  return {
    byId: HashMap.remove(collection.byId, specIn(kinds, kind).idOf(item)),
    byParent:
      RedBlackTree.size(rest) === 0
        ? HashMap.remove(collection.byParent, parent)
        : HashMap.set(collection.byParent, parent, rest)
  }
}

const withItem = <K extends Kind>(kinds: Kinds, collection: Collection<K>, kind: K, item: Item<K>): Collection<K> => {
  const id = specIn(kinds, kind).idOf(item)
  const old = HashMap.get(collection.byId, id)
  const base = Option.isSome(old) ? without(kinds, collection, kind, old.value) : collection
  const parent = parentOf(kinds, kind, item)
  const group = Option.getOrElse(HashMap.get(base.byParent, parent), () => RedBlackTree.empty<Rank, Item<K>>(byRank))
  return {
    byId: HashMap.set(base.byId, id, item),
    byParent: HashMap.set(base.byParent, parent, RedBlackTree.insert(group, rankOf(kinds, kind, item), item))
  }
}

/**
 * `state` after `change`: an `Upsert` puts its item in place of the one with its id (or adds
 * it; a key's id keeps `next_key_id` above it), a `Delete` removes the item with its id (if
 * any), a `Patch` puts in its place the item its kind's `patch` makes of it (nothing when there is
 * none), a `State` replaces everything. `revision` is left to the caller.
 */
export const apply = (state: State, change: Change): State => {
  switch (change._tag) {
    case "State":
      return { ...makeState(state.kinds, change.snapshot), revision: state.revision }
    case "Upsert": {
      const kind = change.kind as Kind
      const next = {
        ...state,
        [kind]: withItem(state.kinds, state[kind] as Collection<Kind>, kind, change.item as Item<Kind>)
      }
      return change.kind === "api_keys"
        ? { ...next, next_key_id: Math.max(state.next_key_id, change.item.id + 1) }
        : next
    }
    case "Delete": {
      const kind = change.kind as Kind
      const collection = state[kind] as Collection<Kind>
      const old = HashMap.get(collection.byId, change.id as Id<Kind>)
      return Option.isNone(old) ? state : { ...state, [kind]: without(state.kinds, collection, kind, old.value) }
    }
    case "Patch": {
      const kind = change.kind as Kind
      const collection = state[kind] as Collection<Kind>
      const patch = specIn(state.kinds, kind).patch
      const old = HashMap.get(collection.byId, change.id as Id<Kind>)
      return Option.isNone(old) || patch === undefined
        ? state
        : { ...state, [kind]: withItem(state.kinds, collection, kind, patch.apply(old.value, change.patch as never)) }
    }
  }
}

/** `state` after each of `changes`, in order. */
export const applyAll = (state: State, changes: ReadonlyArray<Change>): State => changes.reduce(apply, state)

/** The collection of `items` of `kind`, built at once (the first item with an id wins). */
const collectionOf = <K extends Kind>(kinds: Kinds, kind: K, items: ReadonlyArray<Item<K>>): Collection<K> => {
  const spec = specIn(kinds, kind)
  const groups = new Map<string, Array<readonly [Rank, Item<K>]>>()
  const byId = HashMap.mutate(HashMap.empty<Id<K>, Item<K>>(), (byId) => {
    for (const stored of items) {
      const item = spec.upgrade === undefined ? stored : spec.upgrade(stored)
      const id = spec.idOf(item)
      if (HashMap.has(byId, id)) continue
      HashMap.set(byId, id, item)
      const parent = parentOf(kinds, kind, item)
      const group = groups.get(parent)
      if (group === undefined) groups.set(parent, [[rankOf(kinds, kind, item), item]])
      else group.push([rankOf(kinds, kind, item), item])
    }
  })
  const byParent = HashMap.mutate(HashMap.empty<string, Group<Item<K>>>(), (byParent) => {
    for (const [parent, entries] of groups) HashMap.set(byParent, parent, RedBlackTree.fromIterable(entries, byRank))
  })
  return { byId, byParent }
}

/**
 * The state of the kinds of `kinds` that `collections` describe, as they are (see
 * {@link loadState} for the one that checks them).
 */
export const makeState = (kinds: Kinds, collections: Collections): State => {
  const keys = collections.api_keys
  const next = keys.reduce((next, key) => Math.max(next, key.id + 1), Math.max(firstKeyId, collections.next_key_id))
  return {
    ...perKind(kinds, (kind) => collectionOf(kinds, kind, collections[kind])),
    next_key_id: next,
    revision: 0,
    kinds
  }
}

/** The item of `kind` with `id`, if any. */
export const get = <K extends Kind>(state: State, kind: K, id: Id<K>): Item<K> | undefined =>
  Option.getOrUndefined(HashMap.get((state[kind] as Collection<K>).byId, id))

/** The items of `kind` of the parent `parentId` (`""`: the account's), in order (newest first, keys by id). */
export const itemsOf = <K extends Kind>(state: State, kind: K, parentId = ""): IterableIterator<Item<K>> =>
  Option.match(HashMap.get((state[kind] as Collection<K>).byParent, parentId), {
    onNone: () => [][Symbol.iterator](),
    onSome: RedBlackTree.values
  })

/**
 * The items of `kind` of the parent `parentId`, newest first, created before `cursor` (epoch ms;
 * all when `undefined`): where a page after a `created_at` cursor starts (docs/contract.md §2.6),
 * found in the tree, not by a scan.
 */
export const itemsBefore = <K extends Kind>(
  state: State,
  kind: K,
  parentId: string,
  cursor: number | undefined
): Iterable<Item<K>> => {
  if (cursor === undefined) return itemsOf(state, kind, parentId)
  const group = HashMap.get((state[kind] as Collection<K>).byParent, parentId)
  if (Option.isNone(group)) return []
  const entries = RedBlackTree.greaterThan(group.value as RedBlackTree.RedBlackTree<Probe, Item<K>>, [
    -cursor,
    afterEveryId
  ])
  return {
    *[Symbol.iterator]() {
      for (const [, item] of entries) yield item
    }
  }
}

/** The first `limit` of `items` (all when `undefined`). */
export const take = <A>(items: Iterable<A>, limit: number | undefined, keep: (item: A) => boolean = () => true) => {
  const page: Array<A> = []
  if (limit === 0) return page
  for (const item of items) {
    if (!keep(item)) continue
    page.push(item)
    if (page.length === limit) break
  }
  return page
}

/** Whether the parent `parentId` has an item of `kind` created at `at` (a newest-first kind). */
const createdAt = (state: State, kind: Kind, parentId: string, at: number): boolean => {
  const first = itemsBefore(state, kind, parentId, at + 1)
    [Symbol.iterator]()
    .next()
  return !first.done && (first.value as { readonly created_at: number }).created_at === at
}

/**
 * `at`, or the first millisecond after it at which no item of `kind` of `parentId` was created:
 * items of one parent get distinct creation times, so a `created_at` cursor never skips one.
 * `taken` holds the times of items about to be added with it.
 */
export const distinctTime = (
  state: State,
  kind: Kind,
  parentId: string,
  at: number,
  taken: ReadonlySet<number> = new Set()
): number => {
  let time = at
  while (taken.has(time) || createdAt(state, kind, parentId, time)) time += 1
  return time
}

/**
 * A new id from `make` that no item of `kind` has, nor any of `taken` (ids about to be added with
 * it); the dice decide, so `TestRandom` does too.
 */
export const freshId = <K extends Kind>(
  state: State,
  kind: K,
  make: () => Id<K>,
  taken: ReadonlySet<Id<K>> = new Set()
): Id<K> => {
  let id = make()
  while (taken.has(id) || get(state, kind, id) !== undefined) id = make()
  return id
}

/**
 * The `Delete`s that remove the item of `kind` with `id` and everything under it, children
 * first: a project's branches (and their endpoints) and operations, a branch's endpoints. A
 * branch's operations stay: they belong to its project, as history.
 */
export const cascade = <K extends Kind>(state: State, kind: K, id: Id<K>): ReadonlyArray<Change> => {
  const changes: Array<Change> = []
  for (const child of kindsOf(state)) {
    const spec = specIn(state.kinds, child)
    if (spec.parent?.kind !== kind) continue
    for (const item of itemsOf(state, child, String(id))) changes.push(...cascade(state, child, spec.idOf(item)))
  }
  if (get(state, kind, id) !== undefined) changes.push(remove(kind, id))
  return changes
}

/**
 * The id of the item of `kind` that a child names as its parent by `key` (a parent's id as a
 * string, `byParent`'s key): a number for a kind whose ids are numbers (a database, the parent of
 * its Data API).
 */
const parentKey = (kinds: Kinds, kind: Kind, key: string): Id<Kind> =>
  specIn(kinds, kind).id === Schema.Number ? Number(key) : key

/**
 * What is wrong with `state` whatever its resources, one line each: two keys with one hash, an
 * organization's key of no organization it has (or scoped to a project without one), an orphan.
 */
export const stateProblems = (state: State): Array<string> => {
  const found: Array<string> = []
  const hashes = new Set<string>()
  for (const key of itemsOf(state, "api_keys")) {
    if (hashes.has(key.hash)) found.push(`API key ${key.id} has the hash of another key`)
    hashes.add(key.hash)
    // An organization's key (§21): of an organization the state has; one scoped to a project
    // is an organization's (its project may be gone since: the key then reaches nothing).
    if (key.org_id !== undefined && get(state, "organizations", key.org_id) === undefined) {
      found.push(`API key ${key.id} of unknown organization ${key.org_id}`)
    }
    if (key.project_id !== undefined && key.org_id === undefined) {
      found.push(`API key ${key.id} is scoped to project ${key.project_id} but belongs to no organization`)
    }
  }
  for (const kind of kindsOf(state)) {
    const parent = specIn(state.kinds, kind).parent
    if (parent === undefined) continue
    for (const [parentId, group] of (state[kind] as Collection<Kind>).byParent) {
      if (get(state, parent.kind, parentKey(state.kinds, parent.kind, parentId)) === undefined) {
        const label = `${state.kinds[kind].label} of unknown ${state.kinds[parent.kind].label} ${parentId}`
        for (let i = RedBlackTree.size(group); i > 0; i--) found.push(label)
      }
    }
  }
  return found
}

/**
 * The state of the kinds of `kinds` that `collections` describe, or every problem in them: each
 * item's own (a bad id, a bad `org_id`), a repeated id (the first item with it is kept), then
 * `problems` of the whole state. `complete` adds what the collections imply (`internal/kinds.ts`).
 */
export const loadState = (
  kinds: Kinds,
  collections: Collections,
  complete: (collections: Collections) => Collections,
  problems: (state: State) => ReadonlyArray<string>
): Either.Either<State, ReadonlyArray<string>> => {
  const found: Array<string> = []
  const kept = { ...collections } as { [K in Kind]: ReadonlyArray<Item<K>> } & { next_key_id: number }
  for (const kind of Object.keys(kinds) as ReadonlyArray<Kind>) {
    const spec = specIn(kinds, kind)
    const ids = new Set<string | number>()
    const items: Array<Item<Kind>> = []
    for (const item of collections[kind] as ReadonlyArray<Item<Kind>>) {
      const id = spec.idOf(item)
      found.push(...(spec.check?.(item) ?? []))
      if (ids.has(id)) {
        found.push(`${spec.label} id ${id} appears twice`)
        continue
      }
      ids.add(id)
      items.push(item)
    }
    ;(kept as Record<Kind, ReadonlyArray<Item<Kind>>>)[kind] = items
  }
  const state = makeState(kinds, complete(kept))
  found.push(...problems(state))
  return found.length === 0 ? Either.right(state) : Either.left(found)
}

/**
 * The state as `Snapshot` data: keys by id, projects newest first, then each parent's items of
 * a kind newest first, parents in their own order (the order two equal states share).
 */
export const snapshotOf = (state: State): Collections & { readonly version: 2 } => {
  const lists = {} as { [K in Kind]: Array<Item<K>> }
  for (const kind of kindsOf(state)) {
    const parent = specIn(state.kinds, kind).parent
    const list: Array<Item<Kind>> = []
    const collection = state[kind] as Collection<Kind>
    const parentIds =
      parent === undefined
        ? [""]
        : (lists[parent.kind] as ReadonlyArray<Item<Kind>>).map((item) =>
            String(specIn(state.kinds, parent.kind).idOf(item))
          )
    const seen = new Set(parentIds)
    // Orphans (a state that `problems` refuses) last, by parent id, so that nothing is lost.
    const orphans = Array.from(HashMap.keys(collection.byParent))
      .filter((id) => !seen.has(id))
      .sort()
    for (const parentId of [...parentIds, ...orphans]) list.push(...itemsOf(state, kind, parentId))
    ;(lists as Record<Kind, Array<Item<Kind>>>)[kind] = list
  }
  return { version: 2, next_key_id: state.next_key_id, ...lists }
}

/**
 * Where the fake records each mutation's changes to make them durable (the emulator's journal),
 * as an Effect: run once per mutation with all its changes, in order, while the state is held
 * (see {@link mutate}). It must not fail.
 */
export type Journal = (changes: ReadonlyArray<Change>) => Effect.Effect<void>

/**
 * What the control plane does on the clock (docs/design.md §4): whether anything is `due` by
 * `now` in a state, and the changes that `catchUp` with everything due by `now`, each at the time
 * it fell due. The engine runs it before every change (`controlPlane.ts`); the resources say what
 * falls due (`internal/duties.ts`).
 */
export interface ControlPlane {
  readonly due: (state: State, now: number) => boolean
  readonly catchUp: (state: State, now: number, dice: Dice) => ReadonlyArray<Change>
}

/** The fake's state, where its changes are recorded, and its control plane, for {@link mutate}. */
export interface FakeState {
  readonly ref: SynchronizedRef.SynchronizedRef<State>
  /** Records the changes of each mutation; `undefined` when the fake has no journal. */
  readonly journal: Journal | undefined
  readonly controlPlane: ControlPlane
}

/**
 * A new {@link FakeState} holding `state`, recording its changes in `journal` (if any), with
 * `controlPlane`.
 */
export const makeFakeState = (
  state: State,
  journal: Journal | undefined,
  controlPlane: ControlPlane
): Effect.Effect<FakeState> => Effect.map(SynchronizedRef.make(state), (ref) => ({ ref, journal, controlPlane }))

/** What a mutation does: its changes, and what it answers. */
export interface Outcome<A> {
  readonly changes: ReadonlyArray<Change>
  readonly answer: A
}

/**
 * A mutation as a pure step: from the state and the time now (epoch ms) to its changes and
 * answer, or a refusal `E` (nothing changes then).
 */
export type Mutation<A, E> = (state: State, now: number) => Either.Either<Outcome<A>, E>

/**
 * Changes the state with `step` while holding it (`SynchronizedRef.modifyEffect`),
 * uninterruptibly: the journal's record of a change and the change itself happen together, in
 * the order of the mutations, and neither without the other.
 */
const modify = <B>(fake: FakeState, step: (state: State) => Effect.Effect<readonly [B, State]>): Effect.Effect<B> =>
  Effect.uninterruptible(SynchronizedRef.modifyEffect(fake.ref, step))

const run = <A, E>(fake: FakeState, mutation: Mutation<A, E>, journal: Journal | undefined): Effect.Effect<A, E> =>
  Effect.flatMap(Clock.currentTimeMillis, (now) =>
    Effect.flatten(
      modify(fake, (state): Effect.Effect<readonly [Either.Either<A, E>, State]> => {
        const outcome = mutation(state, now)
        if (Either.isLeft(outcome)) return Effect.succeed([Either.left(outcome.left), state])
        const { answer, changes } = outcome.right
        if (changes.length === 0) return Effect.succeed([Either.right(answer), state])
        const next: State = { ...applyAll(state, changes), revision: state.revision + 1 }
        const result = Effect.succeed([Either.right(answer), next] as const)
        return journal === undefined ? result : Effect.zipRight(journal(changes), result)
      })
    )
  )

/**
 * Runs `mutation` on the `Clock`'s time while holding the state: its changes applied in order
 * (`apply`, as a journal is replayed), recorded in the journal before the new state is set,
 * `revision` bumped; a refusal changes nothing. The one way the fake's state changes, but for
 * {@link replace}.
 */
export const mutate = <A, E>(fake: FakeState, mutation: Mutation<A, E>): Effect.Effect<A, E> =>
  run(fake, mutation, fake.journal)

/**
 * {@link mutate} without recording in the journal: for a key's last use, which is not a change
 * of its own but rides along with the key's next change (and is in every snapshot).
 */
export const mutateUnrecorded = <A, E>(fake: FakeState, mutation: Mutation<A, E>): Effect.Effect<A, E> =>
  run(fake, mutation, undefined)

/** Puts `next` in place of the whole state, recorded in the journal as one `State` change. */
export const replace = (fake: FakeState, next: State): Effect.Effect<void> =>
  modify(fake, (state) => {
    const result = [undefined, { ...next, revision: state.revision + 1 }] as const
    const journal = fake.journal
    return journal === undefined
      ? Effect.succeed(result)
      : Effect.as(journal([{ _tag: "State", snapshot: snapshotOf(next) }]), result)
  })
