/**
 * The emulator's `--state FILE`: the fake's whole state (`Snapshot` from `@dbplatform/testing`:
 * API keys as SHA-256 hashes, never their values; projects; operations with their whole life)
 * as JSON, kept across restarts.
 *
 * Saving never leaves a torn state file: the JSON is written to `FILE.tmp`, flushed to disk
 * (`fsync`), then renamed over `FILE` (an atomic replace on POSIX file systems). A crash
 * mid-write leaves at worst a torn `FILE.tmp`, which is never read and is overwritten by the
 * next save; `FILE` keeps the last complete state.
 *
 * @since 0.1.0
 */
import * as FileSystem from "@effect/platform/FileSystem"
import { FakePlatform, Snapshot } from "@dbplatform/testing"
import * as Console from "effect/Console"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schedule from "effect/Schedule"
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
 * Where a save writes before it renames over `path`.
 *
 * @since 0.1.0
 */
export const temporaryPath = (path: string): string => `${path}.tmp`

const decode = Schema.decode(Snapshot.SnapshotFromJson, { errors: "all" })
const encode = Schema.encode(Snapshot.SnapshotFromJson)

/**
 * The state saved in `path`: `None` when there is no such file. Fails with `StateFileError`
 * when it cannot be read or is not a state file (not JSON, a wrong or missing field: each
 * problem named); the file is left as it is. `FILE.tmp` is never read.
 *
 * @since 0.1.0
 */
export const load = (
  path: string
): Effect.Effect<Option.Option<Snapshot.Snapshot>, StateFileError, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const exists = yield* fs
      .exists(path)
      .pipe(Effect.mapError((error) => new StateFileError({ path, reason: `cannot be checked (${error.message})` })))
    if (!exists) return Option.none()
    const text = yield* fs
      .readFileString(path)
      .pipe(Effect.mapError((error) => new StateFileError({ path, reason: `cannot be read (${error.message})` })))
    const snapshot = yield* decode(text).pipe(
      Effect.mapError(
        (error) =>
          new StateFileError({
            path,
            reason: `is not a state file: ${ParseResult.ArrayFormatter.formatErrorSync(error)
              .map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.join(".")}: ${issue.message}`))
              .join("; ")}`
          })
      )
    )
    return Option.some(snapshot)
  })

/**
 * Saves `snapshot` in `path`: writes `FILE.tmp`, flushes it (`fsync`), renames it over `FILE`.
 * Uninterruptible, so an interruption cannot stop it between the write and the rename. Fails
 * with `StateFileError` (the previous `FILE` is then untouched).
 *
 * @since 0.1.0
 */
export const save = (
  path: string,
  snapshot: Snapshot.Snapshot
): Effect.Effect<void, StateFileError, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const text = yield* Effect.orDie(encode(snapshot))
    const temporary = temporaryPath(path)
    yield* Effect.scoped(
      Effect.gen(function* () {
        const file = yield* fs.open(temporary, { flag: "w" })
        yield* file.writeAll(new TextEncoder().encode(`${text}\n`))
        yield* file.sync
      })
    )
    yield* fs.rename(temporary, path)
  }).pipe(
    Effect.mapError((error) => new StateFileError({ path, reason: `cannot be written (${error.message})` })),
    Effect.uninterruptible
  )

/**
 * Keeps `path` up to date with `fake` for as long as the scope is open: saves at once, then
 * every `interval` (200 ms by default) when the fake's `revision` has moved, and a last time
 * when the scope closes (close the HTTP server first, so that no change comes after it). A
 * failed save is reported on stderr and tried again at the next tick.
 *
 * @since 0.1.0
 */
export const keepSaved = (
  path: string,
  fake: FakePlatform.Service,
  options: { readonly interval?: Duration.DurationInput | undefined } = {}
): Effect.Effect<void, StateFileError, FileSystem.FileSystem | Scope.Scope> =>
  Effect.gen(function* () {
    let saved: number | undefined
    const saveIfChanged = Effect.gen(function* () {
      const revision = yield* fake.revision
      if (revision === saved) return
      yield* save(path, yield* fake.snapshot)
      saved = revision
    })
    const reported = saveIfChanged.pipe(
      Effect.catchAll((error) => Console.error(`dbplatform-emulator: ${error.message}`))
    )
    yield* saveIfChanged
    yield* Effect.addFinalizer(() => reported)
    yield* Effect.forkScoped(
      reported.pipe(Effect.repeat(Schedule.spaced(Duration.decode(options.interval ?? "200 millis"))))
    )
  })
