import * as FileSystem from "@effect/platform/FileSystem"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { FakePlatform, Seed } from "@dbplatform/testing"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as TestClock from "effect/TestClock"
import * as StateFile from "../src/StateFile.js"

const seed = Seed.realistic({ projects: 2, operationsPerProject: 10, bootstrapKey: "state-file-test-key" })

/** A fresh directory, removed with the scope, and the state file's path in it. */
const statePath = Effect.map(
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.makeTempDirectoryScoped()),
  (dir) => `${dir}/state.json`
)

/** The real file system, but every file opened for writing writes half of what it is given, then fails. */
const tornWrites = Effect.map(FileSystem.FileSystem, (fs) =>
  FileSystem.FileSystem.of({
    ...fs,
    open: (path, options) =>
      Effect.map(fs.open(path, options), (file) =>
        Object.assign(Object.create(file), {
          writeAll: (bytes: Uint8Array) =>
            Effect.zipRight(
              file.writeAll(bytes.subarray(0, Math.floor(bytes.length / 2))),
              Effect.die(new Error("power cut"))
            )
        })
      )
  })
)

describe("StateFile", () => {
  it.scoped("save then load gives the same state; no key value is written", () =>
    Effect.gen(function* () {
      const path = yield* statePath
      const fake = yield* FakePlatform.make(seed)
      const created = yield* fake.scenario.addApiKey("ci")
      const snapshot = yield* fake.snapshot
      yield* StateFile.save(path, snapshot)
      const text = yield* Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFileString(path))
      expect(text).not.toContain(Redacted.value(created.key))
      expect(text).not.toContain("state-file-test-key")
      expect(yield* StateFile.load(path)).toEqual(Option.some(snapshot))
      expect(yield* StateFile.load(`${path}.missing`)).toEqual(Option.none())
    }).pipe(Effect.provide(NodeContext.layer))
  )

  it.scoped(
    "a crash mid-write leaves a torn temporary file and the state file intact; the torn file is never read",
    () =>
      Effect.gen(function* () {
        const fs = yield* FileSystem.FileSystem
        const path = yield* statePath
        const fake = yield* FakePlatform.make(seed)
        const before = yield* fake.snapshot
        yield* StateFile.save(path, before)
        const good = yield* fs.readFileString(path)

        yield* fake.scenario.addApiKey("lost in the crash")
        const crashed = yield* Effect.exit(
          StateFile.save(path, yield* fake.snapshot).pipe(
            Effect.provideServiceEffect(FileSystem.FileSystem, tornWrites)
          )
        )
        expect(crashed._tag).toBe("Failure")
        const torn = yield* fs.readFileString(StateFile.temporaryPath(path))
        expect(torn.length).toBeGreaterThan(0)
        expect(() => JSON.parse(torn)).toThrow()
        expect(yield* fs.readFileString(path)).toBe(good)
        expect(yield* StateFile.load(path)).toEqual(Option.some(before))

        // The next save replaces the torn file and then the state file.
        const after = yield* fake.snapshot
        yield* StateFile.save(path, after)
        expect(yield* StateFile.load(path)).toEqual(Option.some(after))
        expect(yield* fs.exists(StateFile.temporaryPath(path))).toBe(false)
      }).pipe(Effect.provide(NodeContext.layer))
  )

  it.scoped("a file that is not a state file is a StateFileError naming the problem, and is left as it is", () =>
    Effect.gen(function* () {
      const fs = yield* FileSystem.FileSystem
      const path = yield* statePath
      yield* fs.writeFileString(path, '{"version":1,"next_key_id":"seven"}')
      const error = yield* Effect.flip(StateFile.load(path))
      expect(error._tag).toBe("StateFileError")
      expect(error.message).toContain("next_key_id")
      expect(error.message).toContain("api_keys")
      yield* fs.writeFileString(path, "{ torn")
      expect((yield* Effect.flip(StateFile.load(path))).message).toContain("is not a state file")
      expect(yield* fs.readFileString(path)).toBe("{ torn")
    }).pipe(Effect.provide(NodeContext.layer))
  )

  it.scoped("keepSaved saves at once, after changes on its interval, and when its scope closes", () =>
    Effect.gen(function* () {
      const fs = yield* FileSystem.FileSystem
      const path = yield* statePath
      const fake = yield* FakePlatform.make(seed)
      yield* Effect.scoped(
        Effect.gen(function* () {
          yield* StateFile.keepSaved(path, fake, { interval: "20 millis" })
          expect(yield* fs.exists(path)).toBe(true)
          const created = yield* fake.scenario.addApiKey("saved soon")
          // The interval runs on the TestClock, the save's file I/O in real time: move the clock an
          // interval at a time until a save has the key, however long the I/O takes.
          const saved = yield* TestClock.adjust("20 millis").pipe(
            Effect.zipRight(StateFile.load(path)),
            Effect.repeat({
              until: (state) => Option.exists(state, (s) => s.api_keys.some((key) => key.id === created.id))
            })
          )
          expect(Option.getOrThrow(saved).api_keys.map((key) => key.id)).toContain(created.id)
          yield* fake.scenario.addProject({ id: "saved-at-close-1" })
        })
      )
      const last = Option.getOrThrow(yield* StateFile.load(path))
      expect(last.projects.map((project) => project.id)).toContain("saved-at-close-1")
    }).pipe(Effect.provide(NodeContext.layer))
  )
})
