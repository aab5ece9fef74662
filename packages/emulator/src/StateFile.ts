/**
 * The emulator's `--state FILE`: the fake's whole state (`Snapshot` from `@dbplatform/testing`:
 * API keys as SHA-256 hashes, never their values; projects, branches, compute endpoints, roles
 * (with their passwords) and databases; operations with their whole life; written as version 2, a version 1 file still loads)
 * and, since 0.5.0, the clock it runs on (`ControlledClock`: frozen or running, and how far
 * ahead of real time), kept across restarts and crashes, in two files:
 *
 * - `FILE`: a whole snapshot, as JSON, with the clock as its `clock` field
 *   (`{ "now": epoch ms, "frozen": boolean, "offset": ms }`, absent in a file written before
 *   0.5.0 or by a journal without a clock). It is only ever replaced whole: written to `FILE.tmp`,
 *   flushed to disk (`fsync`), renamed over `FILE` (an atomic replace on POSIX file systems),
 *   then the directory is flushed too. A crash mid-write leaves at worst a torn `FILE.tmp`, which
 *   is never read and is overwritten by the next save.
 * - `FILE.journal`: the changes since that snapshot (`Snapshot.SnapshotChange`: `Upsert` with
 *   the whole item of a kind after the change, `Delete` with a kind and an id, or `State` with
 *   the whole state after a reset, a seed loaded or a snapshot restored), one JSON line per
 *   commit: the array of the changes written together, each request's changes whole in one
 *   commit, and last the clock as it stood when they were written (`{ "_tag": "Clock", ... }`,
 *   never reading before any change of the line). A change is answered only once its line is
 *   flushed to disk; changes made at the same time share one line and one `fsync` (group
 *   commit). A clock moved (frozen, advanced, resumed) with no change is a line of its own,
 *   flushed before the move is answered. At start, at shutdown and every `compactEvery` changes
 *   the journal is folded into `FILE` and emptied.
 *
 * Both files are created with mode 0600 (read and write by their owner only; an existing file is
 * narrowed to it when written): the state holds every role's password in clear, since the fake
 * answers `reveal_password` with it (`docs/design.md` §4).
 *
 * Loading reads `FILE` and applies the journal's lines in order, the clock of the last line that
 * has one winning; a torn last line (a crash in
 * the middle of an append) is ignored, as it was never acknowledged: a commit is applied whole
 * or not at all, never half a request's changes (a default branch moved from one branch but not
 * yet to the other). A line holding one change, not an array (as 0.2 wrote), loads too.
 *
 * @since 0.1.0
 */
import { open as openFile } from "node:fs/promises"
import { dirname } from "node:path"
import * as FileSystem from "@effect/platform/FileSystem"
import { DecodeIssue } from "@dbplatform/core"
import type { ControlledClock, FakePlatform } from "@dbplatform/testing"
import { Snapshot } from "@dbplatform/testing"
import * as Chunk from "effect/Chunk"
import * as Clock from "effect/Clock"
import * as Console from "effect/Console"
import * as Data from "effect/Data"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import type * as ParseResult from "effect/ParseResult"
import * as Queue from "effect/Queue"
import * as Ref from "effect/Ref"
import type * as Scope from "effect/Scope"
import * as Schema from "effect/Schema"

/**
 * A state file that cannot be read, decoded or written. `path` is the file, `reason` says
 * what went wrong in one line.
 *
 * @since 0.1.0
 * @category errors
 */
export class StateFileError extends Data.TaggedError("StateFileError")<{
  readonly path: string
  readonly reason: string
}> {
  override get message(): string {
    return `state file ${this.path}: ${this.reason}`
  }
}

/**
 * The mode of the state file and its journal: read and write by their owner only (`0o600`).
 * They hold secrets: the role passwords the fake keeps to answer `reveal_password`
 * (`docs/contract.md` §15.2).
 *
 * @since 0.3.0
 */
export const fileMode = 0o600

/**
 * Where a save writes before it renames over `path`.
 *
 * @since 0.1.0
 */
export const temporaryPath = (path: string): string => `${path}.tmp`

/**
 * The journal of `path`: the changes since the snapshot in `path`, one JSON line per commit (the array of the changes written together).
 *
 * @since 0.1.0
 */
export const journalPath = (path: string): string => `${path}.journal`

/** The clock a state file keeps (a `ControlledClock.ClockState`): its time, whether frozen, how far ahead of real time. */
const SavedClock = Schema.Struct({
  now: Schema.Number.pipe(Schema.finite()),
  frozen: Schema.Boolean,
  offset: Schema.Number.pipe(Schema.finite())
})

/** The clock in a journal line: its last element. */
const ClockLine = Schema.TaggedStruct("Clock", SavedClock.fields)

/** What `FILE` holds beside the snapshot: the clock, absent before 0.5.0. */
const FileClock = Schema.Struct({ clock: Schema.optional(SavedClock) })

const parseJson = Schema.decode(Schema.parseJson())
const decodeSnapshot = Schema.decodeUnknown(Snapshot.Snapshot, { errors: "all" })
const decodeFileClock = Schema.decodeUnknown(FileClock)
const encodeSnapshot = Schema.encode(Snapshot.Snapshot)
const decodeChange = Schema.decodeEither(Schema.parseJson(Snapshot.SnapshotChange))
const decodeCommit = Schema.decodeEither(
  Schema.parseJson(Schema.Array(Schema.Union(Snapshot.SnapshotChange, ClockLine)))
)
const encodeChange = Schema.encodeSync(Schema.parseJson(Snapshot.SnapshotChange))

/**
 * A journal line: one commit, the JSON array of its changes (each already JSON) and the clock
 * (when the journal has one), and a newline.
 */
const commitLine = (changes: Iterable<string>, clock: ControlledClock.ClockState | undefined): string => {
  const elements = Array.from(changes)
  if (clock !== undefined) elements.push(JSON.stringify({ _tag: "Clock", ...clockFields(clock) }))
  return `[${elements.join(",")}]\n`
}

/** The fields of `clock` a state file keeps, in their order. */
const clockFields = (clock: ControlledClock.ClockState): typeof SavedClock.Type => ({
  now: clock.now,
  frozen: clock.frozen,
  offset: clock.offset
})

/** What one journal line holds: its changes, in order, and the clock it was written with, if any. */
interface Commit {
  readonly changes: ReadonlyArray<Snapshot.SnapshotChange>
  readonly clock: ControlledClock.ClockState | undefined
}

/** A journal line: a commit (an array, maybe ending with the clock), or one change alone (as 0.2 wrote them). */
const decodeLine = (line: string): Either.Either<Commit, ParseResult.ParseError> =>
  line.startsWith("[")
    ? Either.map(decodeCommit(line), (elements) => {
        const changes: Array<Snapshot.SnapshotChange> = []
        let clock: ControlledClock.ClockState | undefined
        for (const element of elements) {
          if (element._tag === "Clock") clock = clockFields(element)
          else changes.push(element)
        }
        return { changes, clock }
      })
    : Either.map(decodeChange(line), (change) => ({ changes: [change], clock: undefined }))

/** What is wrong with a state file or journal line, in core's one formatter of decode issues. */
const describe = (error: ParseResult.ParseError): string => DecodeIssue.format(error.issue)

/**
 * `snapshot` with `changes` applied in order, as the fake applies them (`Snapshot.applyChanges`:
 * one generic step per change record, whatever the kind): an `Upsert` puts its item in place of
 * the one with its id or adds it (a key's id keeps `next_key_id` above it), a `Delete` removes
 * the item with its id, a `State` change (a reset, a seed loaded, a snapshot restored) replaces
 * everything before it.
 *
 * @since 0.1.0
 */
export const applyChanges = (
  snapshot: Snapshot.Snapshot,
  changes: ReadonlyArray<Snapshot.SnapshotChange>
): Snapshot.Snapshot => Snapshot.applyChanges(snapshot, changes)

/**
 * The changes in a journal's text, in order: each line a commit (the array of the changes
 * written together) or one change. A last line without its newline, and from the first line
 * that is not a commit on, lines after which no good line comes (a torn append), are left out
 * whole; a bad line followed by a good one is an error (1-based line number and why).
 *
 * @since 0.1.0
 */
export const parseJournal = (
  text: string
): Either.Either<ReadonlyArray<Snapshot.SnapshotChange>, { readonly line: number; readonly reason: string }> =>
  Either.map(readJournal(text), ({ changes }) => changes)

/** {@link parseJournal}, with the clock of the last line that has one. */
const readJournal = (text: string): Either.Either<Commit, { readonly line: number; readonly reason: string }> => {
  const lines = text.split("\n")
  lines.pop() // the text after the last newline: empty, or a torn append
  const changes: Array<Snapshot.SnapshotChange> = []
  let clock: ControlledClock.ClockState | undefined
  let bad: { readonly line: number; readonly reason: string } | undefined
  for (let i = 0; i < lines.length; i++) {
    const decoded = decodeLine(lines[i]!)
    if (Either.isLeft(decoded)) {
      bad ??= { line: i + 1, reason: describe(decoded.left) }
    } else if (bad !== undefined) {
      return Either.left(bad)
    } else {
      changes.push(...decoded.right.changes)
      clock = decoded.right.clock ?? clock
    }
  }
  return Either.right({ changes, clock })
}

/**
 * What a state file holds (since 0.5.0): the fake's state, and the clock it ran on when the
 * file was written with one (`JournalOptions.clock`); `None` for a file written before 0.5.0
 * or without a clock.
 *
 * @since 0.5.0
 * @category models
 */
export interface Saved {
  readonly snapshot: Snapshot.Snapshot
  /** Where the clock stood at the last change saved: give it to `ControlledClock.restore`. */
  readonly clock: Option.Option<ControlledClock.ClockState>
}

/**
 * The state saved in `path`: `None` when there is no such file (a journal without it is then
 * ignored, and emptied when the emulator starts). Otherwise the snapshot in `path` with the
 * changes of `FILE.journal` applied (a torn last line ignored). Fails with `StateFileError` when
 * either cannot be read or is not what it should be (each problem named); the files are left
 * as they are. `FILE.tmp` is never read. {@link loadSaved} reads the clock too.
 *
 * @since 0.1.0
 */
export const load = (
  path: string
): Effect.Effect<Option.Option<Snapshot.Snapshot>, StateFileError, FileSystem.FileSystem> =>
  Effect.map(
    loadSaved(path),
    Option.map((saved) => saved.snapshot)
  )

/**
 * What {@link load} reads, and the clock saved with it (since 0.5.0): the clock of the journal's
 * last line that has one, else the one in `FILE`, else `None` (a file written before 0.5.0).
 *
 * @since 0.5.0
 */
export const loadSaved = (path: string): Effect.Effect<Option.Option<Saved>, StateFileError, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const exists = yield* fs
      .exists(path)
      .pipe(Effect.mapError((error) => new StateFileError({ path, reason: `cannot be checked (${error.message})` })))
    if (!exists) return Option.none()
    const text = yield* fs
      .readFileString(path)
      .pipe(Effect.mapError((error) => new StateFileError({ path, reason: `cannot be read (${error.message})` })))
    const notStateFile = (error: ParseResult.ParseError) =>
      new StateFileError({ path, reason: `is not a state file: ${describe(error)}` })
    const json = yield* Effect.mapError(parseJson(text), notStateFile)
    const snapshot = yield* Effect.mapError(decodeSnapshot(json), notStateFile)
    const fileClock = yield* Effect.mapError(decodeFileClock(json), notStateFile)
    const journal = journalPath(path)
    const journalText = yield* fs.readFileString(journal).pipe(
      Effect.catchTag("SystemError", (error) =>
        error.reason === "NotFound" ? Effect.succeed("") : Effect.fail(error)
      ),
      Effect.mapError((error) => new StateFileError({ path: journal, reason: `cannot be read (${error.message})` }))
    )
    const { changes, clock } = yield* Either.mapLeft(
      readJournal(journalText),
      ({ line, reason }) => new StateFileError({ path: journal, reason: `line ${line} is not a change: ${reason}` })
    )
    return Option.some({
      snapshot: applyChanges(snapshot, changes),
      clock: Option.fromNullable(clock ?? fileClock.clock)
    })
  })

/** Flushes the directory of `path`, so that a rename or a new file in it survives a power cut. */
const syncDirectory = (path: string) =>
  Effect.tryPromise({
    try: async () => {
      const directory = await openFile(dirname(path), "r")
      try {
        await directory.sync()
      } finally {
        await directory.close()
      }
    },
    catch: (error) => new Error(`directory cannot be flushed (${error instanceof Error ? error.message : error})`)
  })

/**
 * Saves `snapshot` in `path`, with `clock` when given (since 0.5.0; `ControlledClock.state`):
 * writes `FILE.tmp` (mode 0600, {@link fileMode}), flushes it
 * (`fsync`), renames it over `FILE`, flushes the directory. Uninterruptible, so an interruption cannot stop it between the write
 * and the rename. Fails with `StateFileError` (the previous `FILE` is then untouched). Leaves
 * `FILE.journal` alone.
 *
 * @since 0.1.0
 */
export const save = (
  path: string,
  snapshot: Snapshot.Snapshot,
  clock?: ControlledClock.ClockState | undefined
): Effect.Effect<void, StateFileError, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const encoded = yield* Effect.orDie(encodeSnapshot(snapshot))
    const text = JSON.stringify(clock === undefined ? encoded : { ...encoded, clock: clockFields(clock) })
    const temporary = temporaryPath(path)
    yield* Effect.scoped(
      Effect.gen(function* () {
        const file = yield* fs.open(temporary, { flag: "w", mode: fileMode })
        // `mode` applies to a file created; one left by an earlier version keeps its own unless narrowed.
        yield* fs.chmod(temporary, fileMode)
        yield* file.writeAll(new TextEncoder().encode(`${text}\n`))
        yield* file.sync
      })
    )
    yield* fs.rename(temporary, path)
    yield* syncDirectory(path)
  }).pipe(
    Effect.mapError((error) => new StateFileError({ path, reason: `cannot be written (${error.message})` })),
    Effect.uninterruptible
  )

/**
 * How a {@link Journal} writes.
 *
 * @since 0.1.0
 */
export interface JournalOptions {
  /** Fold the journal into the state file after this many changes; 1000 by default. */
  readonly compactEvery?: number | undefined
  /**
   * `"journal"` (the default): one line per commit (the changes recorded since the previous
   * one) appended to `FILE.journal`, flushed before the answer. `"snapshot"`: no journal lines; every commit writes the whole state file instead
   * (`save`), which is much slower with a large state; kept to compare the two (README).
   */
  readonly mode?: "journal" | "snapshot" | undefined
  /**
   * The clock the fake runs on (`FakePlatform.Options.clock`; since 0.5.0): saved with every
   * commit and in `FILE`, so that {@link loadSaved} gives it back. A commit's clock never reads
   * before the changes it holds (the time each was made, read with the `Clock` the fake records
   * them on), nor before the clock saved before it unless the commit replaces the whole state (a
   * `reset` moves the clock back). A `sync` writes a line of the clock alone when it moved
   * (frozen, advanced, resumed) since it was last written, so a move is durable once `sync`
   * returns (the fake syncs after each, `FakePlatform.Service.clock`). None by default: no clock
   * is saved.
   */
  readonly clock?: ControlledClock.ControlledClock | undefined
}

/**
 * The state file kept durable change by change: give it to the fake as its journal
 * (`FakePlatform.Options.journal`), then call `start` with the fake's `snapshot`.
 *
 * @since 0.1.0
 */
export interface Journal extends FakePlatform.Journal {
  /**
   * Saves the state now as `FILE` and empties the journal, then keeps writing the changes
   * recorded; `current` gives the whole state whenever the journal is folded into `FILE` (every
   * `compactEvery` changes and at shutdown). Call it once, before serving requests.
   */
  readonly start: (current: Effect.Effect<Snapshot.Snapshot>) => Effect.Effect<void, StateFileError>
  /**
   * Fails with the first write that failed (disk full, ...); never succeeds. After it, `sync`
   * fails at once, nothing more is written, and the journal's owner should stop: the state in
   * memory then holds changes that are not on disk (none of them acknowledged).
   */
  readonly failure: Effect.Effect<never, StateFileError>
}

/**
 * What the journal's writer takes, in the order they came: a change recorded (as JSON), or a
 * `sync` waiting for every change queued before it to be on disk.
 */
type Entry = Data.TaggedEnum<{
  /** A change as JSON; `at`, the time it was made (epoch ms); `replaces`, whether it is a whole new state. */
  Change: { readonly json: string; readonly at: number; readonly replaces: boolean }
  Sync: { readonly done: Deferred.Deferred<void, StateFileError> }
}>
const Entry = Data.taggedEnum<Entry>()

/** The JSON of the changes in `batch`, in order. */
const changesOf = (batch: Chunk.Chunk<Entry>): Chunk.Chunk<string> =>
  Chunk.filterMap(batch, (entry) => (entry._tag === "Change" ? Option.some(entry.json) : Option.none()))

/** The `sync` calls waiting in `batch`. */
const syncsOf = (batch: Chunk.Chunk<Entry>): Chunk.Chunk<Deferred.Deferred<void, StateFileError>> =>
  Chunk.filterMap(batch, (entry) => (entry._tag === "Sync" ? Option.some(entry.done) : Option.none()))

/**
 * The earliest time the clock saved with `batch` may read: the latest time a change of it was
 * made after its last change of the whole state (a reset may move the clock back), and, when it
 * has none, the time of the clock saved before (`previous`).
 */
const floorOf = (batch: Chunk.Chunk<Entry>, previous: ControlledClock.ClockState | undefined): number => {
  let floor = previous?.now ?? Number.NEGATIVE_INFINITY
  for (const entry of batch) {
    if (entry._tag !== "Change") continue
    floor = entry.replaces ? entry.at : Math.max(floor, entry.at)
  }
  return floor
}

/** `clock`, moved on to `floor` when it reads before it (a running clock's offset grows with it). */
const atLeast = (clock: ControlledClock.ClockState, floor: number): ControlledClock.ClockState =>
  clock.now >= floor ? clock : { ...clock, now: floor, offset: clock.offset + (floor - clock.now) }

/** Whether a clock saved as `saved` stands otherwise than `now`: frozen or not, at another time or offset. */
const moved = (saved: ControlledClock.ClockState | undefined, now: ControlledClock.ClockState): boolean =>
  saved === undefined ||
  saved.frozen !== now.frozen ||
  (now.frozen ? saved.now !== now.now : saved.offset !== now.offset)

/** Answers every `sync` of `syncs` with `exit`. */
const answer = (syncs: Chunk.Chunk<Deferred.Deferred<void, StateFileError>>, exit: Exit.Exit<void, StateFileError>) =>
  Effect.forEach(syncs, (done) => Deferred.done(done, exit), { discard: true })

/**
 * Opens the journal of `path` (mode 0600, {@link fileMode}) for as long as the scope is open. When the scope closes (close
 * the HTTP server first, so that no change comes after it): waits for the changes recorded to be
 * written, then folds the journal into `FILE` (which also saves every key's `last_used_at`);
 * after a failure it writes nothing more and reports on stderr. Fails with `StateFileError`
 * when the journal cannot be opened.
 *
 * One fiber writes. The changes recorded and the `sync` calls go into one queue, in the order
 * they come; the writer takes everything queued at once, writes the changes as one line,
 * flushes once, and then answers the `sync` calls it took: each was queued after the changes it
 * waits for, so they are in that line or an earlier one (group commit, no counters).
 *
 * @since 0.1.0
 */
export const journal = (
  path: string,
  options: JournalOptions = {}
): Effect.Effect<Journal, StateFileError, FileSystem.FileSystem | Scope.Scope> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const mode = options.mode ?? "journal"
    const compactEvery = Math.max(1, options.compactEvery ?? 1000)
    const clock = options.clock
    const journalFile = journalPath(path)
    const writeError = (error: { readonly message: string }) =>
      new StateFileError({ path: journalFile, reason: `cannot be written (${error.message})` })
    const file = yield* fs.open(journalFile, { flag: "a", mode: fileMode }).pipe(
      Effect.tap(() => fs.chmod(journalFile, fileMode)),
      Effect.mapError(writeError)
    )
    const entries = yield* Queue.unbounded<Entry>()
    /** The first write that failed; from then on nothing more is written. */
    const failed = yield* Deferred.make<never, StateFileError>()
    /** How to read the whole state, given by `start`. */
    const started = yield* Deferred.make<Effect.Effect<Snapshot.Snapshot>>()
    /** The clock last written (in `FILE` or a journal line); `undefined` before `start` or without a clock. */
    const lastClock = yield* Ref.make<ControlledClock.ClockState | undefined>(undefined)
    const encoder = new TextEncoder()

    /**
     * The clock to save with `batch` (none without a clock): as it stands now, never before the
     * changes of `batch` nor, unless `batch` replaces the whole state, the clock saved before.
     */
    const clockFor = (batch: Chunk.Chunk<Entry>) =>
      clock === undefined
        ? Effect.succeed(undefined)
        : Effect.map(Effect.zip(clock.state, Ref.get(lastClock)), ([now, previous]) =>
            atLeast(now, floorOf(batch, previous))
          )

    /** `FILE` := the whole state and the clock; the journal emptied. */
    const compact = (snapshot: Snapshot.Snapshot, clockNow: ControlledClock.ClockState | undefined) =>
      Effect.zipRight(
        Effect.provideService(save(path, snapshot, clockNow), FileSystem.FileSystem, fs),
        Effect.mapError(Effect.zipRight(file.truncate(0), file.sync), writeError)
      ).pipe(Effect.zipRight(Ref.set(lastClock, clockNow)))

    /**
     * Every entry queued, waiting for one. The changes of one mutation are queued in one offer
     * (`record`), before the writer wakes up: a batch holds them all or none, so they are written
     * together and a crash in the middle of the write leaves a torn last line, ignored whole when
     * loading.
     */
    const takeBatch = Effect.map(
      Effect.zip(Queue.takeBetween(entries, 1, Number.MAX_SAFE_INTEGER), Queue.takeAll(entries)),
      ([first, rest]) => Chunk.appendAll(first, rest)
    )

    /**
     * Writes the changes of `batch` and the clock as one line and flushes once (or, in
     * `"snapshot"` mode, saves the whole state), folding the journal into `FILE` once
     * `compactEvery` changes were written since the last fold; answers how many have been written
     * since it. No change and the clock where it was saved: nothing written.
     */
    const write = (current: Effect.Effect<Snapshot.Snapshot>, batch: Chunk.Chunk<Entry>, since: number) =>
      Effect.gen(function* () {
        const changes = changesOf(batch)
        const clockNow = yield* clockFor(batch)
        if (Chunk.isEmpty(changes) && (clockNow === undefined || !moved(yield* Ref.get(lastClock), clockNow))) {
          return since
        }
        if (mode === "snapshot") {
          yield* compact(yield* current, clockNow)
          return since
        }
        yield* file.writeAll(encoder.encode(commitLine(changes, clockNow))).pipe(Effect.mapError(writeError))
        yield* file.sync.pipe(Effect.mapError(writeError))
        yield* Ref.set(lastClock, clockNow)
        if (since + changes.length < compactEvery) return since + changes.length
        yield* compact(yield* current, clockNow)
        return 0
      })

    /** One commit: a batch taken, written, and its `sync` calls answered (failed with the write). */
    const commit = (current: Effect.Effect<Snapshot.Snapshot>) => (since: number) =>
      Effect.flatMap(takeBatch, (batch) =>
        write(current, batch, since).pipe(
          Effect.tap(() => answer(syncsOf(batch), Exit.void)),
          Effect.tapError((error) => answer(syncsOf(batch), Exit.fail(error))),
          Effect.uninterruptible
        )
      )

    /**
     * After the first failed write: `failure` fails, and every `sync` queued from then on fails
     * too (a `sync` called later fails at once), with nothing more written.
     */
    const fail = (error: StateFileError) =>
      Effect.gen(function* () {
        yield* Deferred.fail(failed, error)
        yield* Console.error(`dbplatform-emulator: ${error.message}; changes are no longer saved`)
        return yield* Effect.forever(Effect.flatMap(takeBatch, (batch) => answer(syncsOf(batch), Exit.fail(error))))
      })

    yield* Effect.forkScoped(
      Deferred.await(started).pipe(
        Effect.flatMap((current) => Effect.iterate(0, { while: () => true, body: commit(current) })),
        Effect.catchAll(fail)
      )
    )

    const sync: Effect.Effect<void, StateFileError> = Effect.gen(function* () {
      if (yield* Deferred.isDone(failed)) return yield* Deferred.await(failed)
      const done = yield* Deferred.make<void, StateFileError>()
      yield* Queue.offer(entries, Entry.Sync({ done }))
      return yield* Deferred.await(done)
    })

    /**
     * Queues `changes` (one mutation's, in order) in one offer, each encoded first and stamped
     * with the time on the `Clock` (the fake's): a change that cannot be encoded (a defect)
     * queues none of them. An offer to an unbounded queue never waits.
     */
    const record = (changes: ReadonlyArray<Snapshot.SnapshotChange>): Effect.Effect<void> =>
      Effect.flatMap(Clock.currentTimeMillis, (at) =>
        Effect.flatMap(
          Effect.sync(() =>
            changes.map((change) => Entry.Change({ json: encodeChange(change), at, replaces: change._tag === "State" }))
          ),
          (queued) => Queue.offerAll(entries, queued)
        )
      )

    yield* Effect.addFinalizer(() =>
      Effect.gen(function* () {
        if (!(yield* Deferred.isDone(started)) || (yield* Deferred.isDone(failed))) return
        const current = yield* Deferred.await(started)
        yield* sync
        yield* compact(yield* current, yield* clockFor(Chunk.empty()))
      }).pipe(
        Effect.catchAll((error) =>
          Effect.flatMap(Deferred.isDone(failed), (reported) =>
            reported ? Effect.void : Console.error(`dbplatform-emulator: ${error.message}`)
          )
        )
      )
    )

    return {
      record,
      sync,
      start: (current) =>
        Effect.gen(function* () {
          yield* compact(yield* current, clock === undefined ? undefined : yield* clock.state)
          yield* Deferred.succeed(started, current)
        }),
      failure: Deferred.await(failed)
    }
  })
