import { SystemError } from "@effect/platform/Error"
import * as FileSystem from "@effect/platform/FileSystem"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { ControlledClock, FakeHttpClient, FakePlatform, Seed } from "@dbplatform/testing"
import { describe, expect, it } from "@effect/vitest"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
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

/**
 * The real file system, with what `change` gives in place of the same members of every file it
 * opens (as own properties, so that a getter such as `sync` is shadowed too).
 */
const withFiles = (change: (file: FileSystem.File) => Partial<FileSystem.File>) =>
  Effect.map(FileSystem.FileSystem, (fs) =>
    FileSystem.FileSystem.of({
      ...fs,
      open: (path, options) =>
        Effect.map(
          fs.open(path, options),
          (file): FileSystem.File =>
            Object.defineProperties(
              Object.create(file),
              Object.fromEntries(Object.entries(change(file)).map(([name, value]) => [name, { value }]))
            )
        )
    })
  )

/** The real file system, but every file opened for writing writes half of what it is given, then fails. */
const tornWrites = withFiles((file) => ({
  writeAll: (bytes) =>
    Effect.zipRight(file.writeAll(bytes.subarray(0, Math.floor(bytes.length / 2))), Effect.die(new Error("power cut")))
}))

/** The real file system, counting the `fsync`s of files opened with it. */
const countingFlushes = (flushes: { count: number }) =>
  withFiles((file) => ({
    sync: Effect.zipRight(
      Effect.sync(() => {
        flushes.count += 1
      }),
      file.sync
    )
  }))

/** The real file system, but files opened with it fail to write while `disk.full`, as on a full disk. */
const fillingDisk = (disk: { full: boolean }) =>
  withFiles((file) => ({
    writeAll: (bytes) =>
      disk.full
        ? Effect.fail(
            new SystemError({
              reason: "Unknown",
              module: "FileSystem",
              method: "write",
              description: "ENOSPC: no space left on device"
            })
          )
        : file.writeAll(bytes)
  }))

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

  it.scoped("the state file and its journal are created with mode 0600, and narrowed to it when they exist", () =>
    Effect.gen(function* () {
      const fs = yield* FileSystem.FileSystem
      const path = yield* statePath
      const modeOf = (file: string) => Effect.map(fs.stat(file), (info) => info.mode & 0o777)
      // Left by an earlier version, readable by anyone.
      yield* fs.writeFileString(StateFile.journalPath(path), "", { mode: 0o644 })
      yield* fs.chmod(StateFile.journalPath(path), 0o644)
      const journal = yield* StateFile.journal(path)
      const fake = yield* FakePlatform.make(seed, { journal })
      yield* journal.start(fake.snapshot)
      yield* fake.scenario.addApiKey("after the start")
      expect(yield* modeOf(path)).toBe(0o600)
      expect(yield* modeOf(StateFile.journalPath(path))).toBe(0o600)
      expect(StateFile.fileMode).toBe(0o600)
      // A save over an existing file with a wider mode narrows it too.
      yield* fs.chmod(path, 0o644)
      yield* fs.writeFileString(StateFile.temporaryPath(path), "torn", { mode: 0o644 })
      yield* fs.chmod(StateFile.temporaryPath(path), 0o644)
      yield* StateFile.save(path, yield* fake.snapshot)
      expect(yield* modeOf(path)).toBe(0o600)
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

  it.scoped(
    "a reset, a seed loaded and a snapshot restored are each one journal line, on disk before they return; loading replays them",
    () =>
      Effect.gen(function* () {
        const fs = yield* FileSystem.FileSystem
        const path = yield* statePath
        const journal = yield* StateFile.journal(path)
        const fake = yield* FakePlatform.make(seed, { journal })
        yield* journal.start(fake.snapshot)
        const started = yield* fake.snapshot
        yield* fake.load({ projects: [{ id: "loaded-river-1" }] })
        yield* fake.scenario.addApiKey("after the load")
        // Not folded yet: the state is the file plus the journal's lines.
        expect((yield* fs.readFileString(StateFile.journalPath(path))).split("\n")).toHaveLength(3)
        expect(Option.getOrThrow(yield* StateFile.load(path))).toEqual(yield* fake.snapshot)
        yield* fake.restore(started)
        expect(Option.getOrThrow(yield* StateFile.load(path))).toEqual(yield* fake.snapshot)
        yield* fake.scenario.addProject({ id: "before-the-reset-1" })
        yield* fake.reset
        const saved = Option.getOrThrow(yield* StateFile.load(path))
        expect(saved).toEqual(yield* fake.snapshot)
        expect(saved.projects.map((project) => project.id)).not.toContain("before-the-reset-1")
        expect(saved.projects.map((project) => project.id)).toEqual(started.projects.map((project) => project.id))
      }).pipe(Effect.provide(NodeContext.layer))
  )

  it.scoped("a file that is not a state file is a StateFileError naming the problem, and is left as it is", () =>
    Effect.gen(function* () {
      const fs = yield* FileSystem.FileSystem
      const path = yield* statePath
      yield* fs.writeFileString(path, '{"version":1,"next_key_id":"seven"}')
      const error = yield* Effect.flip(StateFile.load(path))
      expect(error._tag).toBe("StateFileError")
      // core's DecodeIssue.format: one problem per path, the first three, a scalar quoted short
      expect(error.message).toBe(
        `state file ${path}: is not a state file: next_key_id: expected number, got "seven"; api_keys: is missing; projects: is missing; and more`
      )
      yield* fs.writeFileString(path, "{ torn")
      expect((yield* Effect.flip(StateFile.load(path))).message).toBe(
        `state file ${path}: is not a state file: Expected property name or '}' in JSON...`
      )
      expect(yield* fs.readFileString(path)).toBe("{ torn")
    }).pipe(Effect.provide(NodeContext.layer))
  )

  it.scoped("a version 1 state file (0.2.x) and its journal still load, as version 2 without branches", () =>
    Effect.gen(function* () {
      const fs = yield* FileSystem.FileSystem
      const path = yield* statePath
      const key = {
        id: 1000001,
        name: "bootstrap",
        hash: "b".repeat(64),
        created_at: "2026-11-23T00:00:00.000Z",
        revoked: false,
        last_used_at: null,
        last_used_from_addr: ""
      }
      const project = {
        id: "spring-example-302709",
        name: "billing",
        region_id: "aws-us-east-2",
        platform_id: "aws",
        provisioner: "k8s-neonvm",
        pg_version: 17,
        org_id: "org-dbplatform-000000",
        created_at: "2026-11-23T00:00:00.000Z"
      }
      yield* fs.writeFileString(
        path,
        JSON.stringify({ version: 1, next_key_id: 1000002, api_keys: [key], projects: [], operations: [] })
      )
      // A journal written by 0.2.x: its changes are read as Upserts.
      yield* fs.writeFileString(
        StateFile.journalPath(path),
        `${JSON.stringify({ _tag: "Project", project })}\n${JSON.stringify({ _tag: "ApiKey", api_key: { ...key, revoked: true } })}\n`
      )
      const loaded = Option.getOrThrow(yield* StateFile.load(path))
      expect(loaded).toMatchObject({ version: 2, branches: [], endpoints: [], operations: [] })
      // Written before the clock was saved: none (the emulator then starts on real time).
      expect(Option.map(yield* StateFile.loadSaved(path), (saved) => saved.clock)).toEqual(Option.some(Option.none()))
      expect(loaded.projects.map((p) => p.id)).toEqual([project.id])
      expect(loaded.api_keys.map((k) => k.revoked)).toEqual([true])
      // A fake restored from it writes version 2.
      const fake = yield* FakePlatform.restore(loaded)
      yield* StateFile.save(path, yield* fake.snapshot)
      expect(JSON.parse(yield* fs.readFileString(path)).version).toBe(2)
    }).pipe(Effect.provide(NodeContext.layer))
  )

  it("a journal's torn last line is ignored; a bad line followed by a good one is an error", () => {
    const line = (id: number) =>
      JSON.stringify({
        _tag: "ApiKey",
        api_key: {
          id,
          name: `k${id}`,
          hash: "a".repeat(64),
          created_at: "2026-11-23T00:00:00.000Z",
          revoked: false,
          last_used_at: null,
          last_used_from_addr: ""
        }
      })
    const ids = (text: string) =>
      Either.map(StateFile.parseJournal(text), (changes) => changes.map((change) => (change as any).item.id))
    expect(ids("")).toEqual(Either.right([]))
    expect(ids(`${line(1)}\n${line(2)}\n`)).toEqual(Either.right([1, 2]))
    // A crash in the middle of an append: the last line has no newline, or is cut, or zeros.
    expect(ids(`${line(1)}\n${line(2).slice(0, 40)}`)).toEqual(Either.right([1]))
    expect(ids(`${line(1)}\n${line(2).slice(0, 40)}\n`)).toEqual(Either.right([1]))
    expect(ids(`${line(1)}\n\u0000\u0000\u0000\n\u0000`)).toEqual(Either.right([1]))
    // Not a torn append: a bad line with a good one after it.
    const bad = StateFile.parseJournal(`${line(1)}\n{"_tag":"ApiKey"}\n${line(3)}\n`)
    expect(bad).toEqual(Either.left({ line: 2, reason: "api_key: is missing" }))
  })

  it.scoped(
    "the journal: each change is on disk when sync returns; changes made together share one fsync; load gives the fake's state",
    () =>
      Effect.gen(function* () {
        const fs = yield* FileSystem.FileSystem
        const path = yield* statePath
        const flushes = { count: 0 }
        const journal = yield* StateFile.journal(path).pipe(
          Effect.provideServiceEffect(FileSystem.FileSystem, countingFlushes(flushes))
        )
        const fake = yield* FakePlatform.make(seed, { journal })
        yield* journal.start(fake.snapshot)
        expect(yield* StateFile.load(path)).toEqual(Option.some(yield* fake.snapshot))
        expect(yield* fs.readFileString(StateFile.journalPath(path))).toBe("")

        const before = flushes.count
        const created = yield* fake.scenario.addApiKey("ci")
        const lines = (yield* fs.readFileString(StateFile.journalPath(path))).split("\n")
        expect(lines).toHaveLength(2)
        // One line per commit: the array of its changes.
        expect(JSON.parse(lines[0]!)).toMatchObject([
          { _tag: "Upsert", kind: "api_keys", item: { id: created.id, name: "ci" } }
        ])
        expect(flushes.count).toBe(before + 1)

        // Ten requests at once: ten changes, in one commit (one line, one fsync) or a few, never ten.
        const requests = Array.from({ length: 10 }, (_, i) =>
          FakeHttpClient.make(fake.httpApp).execute(
            HttpClientRequest.post("http://x/api/v2/api_keys").pipe(
              HttpClientRequest.bearerToken(fake.bootstrapKey),
              HttpClientRequest.bodyUnsafeJson({ key_name: `at-once-${i}` })
            )
          )
        )
        const answers = yield* Effect.all(requests, { concurrency: "unbounded" })
        expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200))
        const journalText = yield* fs.readFileString(StateFile.journalPath(path))
        expect(Either.getOrThrow(StateFile.parseJournal(journalText))).toHaveLength(11)
        expect(flushes.count - before - 1).toBeLessThan(10)
        expect(journalText.split("\n")).toHaveLength(flushes.count - before + 1)

        // Reads write nothing; the key's last use is kept in memory.
        const flushed = flushes.count
        yield* FakeHttpClient.make(fake.httpApp).execute(
          HttpClientRequest.get("http://x/api/v2/projects").pipe(HttpClientRequest.bearerToken(created.key))
        )
        expect(flushes.count).toBe(flushed)
        expect(yield* fs.readFileString(StateFile.journalPath(path))).toBe(journalText)

        const loaded = Option.getOrThrow(yield* StateFile.load(path))
        const now = yield* fake.snapshot
        const withoutLastUse = (snapshot: typeof now) => ({
          ...snapshot,
          api_keys: snapshot.api_keys.map((key) => ({ ...key, last_used_at: null, last_used_from_addr: "" }))
        })
        expect(withoutLastUse(loaded)).toEqual(withoutLastUse(now))

        // A crash in the middle of the next append: its torn line is ignored.
        yield* fs.writeFileString(StateFile.journalPath(path), '{"_tag":"ApiKey","api_key":{"id":10', { flag: "a" })
        expect(yield* StateFile.load(path)).toEqual(Option.some(loaded))
      }).pipe(Effect.provide(NodeContext.layer))
  )

  it.scoped(
    "the clock is saved with each commit and in the state file, a move of it on disk when it returns; never before a change saved",
    () =>
      Effect.gen(function* () {
        const fs = yield* FileSystem.FileSystem
        const path = yield* statePath
        /** The journal's lines, each the JSON array of a commit. */
        const lines = Effect.map(fs.readFileString(StateFile.journalPath(path)), (text) =>
          text
            .split("\n")
            .filter((line) => line !== "")
            .map((line) => JSON.parse(line))
        )
        const clockOf = Effect.map(StateFile.loadSaved(path), (saved) => Option.getOrThrow(saved).clock)
        yield* TestClock.adjust("1 hour")
        const clock = yield* ControlledClock.make
        const journal = yield* StateFile.journal(path, { clock })
        const fake = yield* FakePlatform.make(seed, { journal, clock })
        yield* journal.start(fake.snapshot)
        // The state file holds the clock as it stood at the start: running on the Clock's time.
        expect(JSON.parse(yield* fs.readFileString(path)).clock).toEqual({ now: 3_600_000, frozen: false, offset: 0 })
        expect(yield* clockOf).toEqual(Option.some({ now: 3_600_000, frozen: false, offset: 0 }))

        // Moved through the fake (as the control API does): each move a line of its own, on disk when it returns.
        const moved = Option.getOrThrow(fake.clock)
        yield* moved.freeze
        yield* moved.advance("2 hours")
        expect(yield* lines).toEqual([
          [{ _tag: "Clock", now: 3_600_000, frozen: true, offset: 0 }],
          [{ _tag: "Clock", now: 10_800_000, frozen: true, offset: 7_200_000 }]
        ])
        // A change: its line ends with the clock it was made on.
        const created = yield* fake.scenario.addApiKey("ci")
        // (The same line may carry the availability checks that the 2 hours made due.)
        const [changes] = (yield* lines).slice(-1)
        expect(changes).toContainEqual(
          expect.objectContaining({
            _tag: "Upsert",
            kind: "api_keys",
            item: expect.objectContaining({ id: created.id })
          })
        )
        expect(changes.at(-1)).toMatchObject({ _tag: "Clock", now: 10_800_000, frozen: true })
        // Read back, the clock stands where it was: frozen 2 hours ahead, as the key's created_at.
        const saved = Option.getOrThrow(yield* StateFile.loadSaved(path))
        const restored = yield* ControlledClock.restore(Option.getOrThrow(saved.clock))
        expect(yield* restored.state).toMatchObject({ now: 10_800_000, frozen: true })
        expect(saved.snapshot.api_keys.find((key) => key.id === created.id)?.created_at).toBe(10_800_000)
        // A clock moved back but by a reset of the whole state is saved no earlier than before.
        yield* clock.reset
        yield* journal.sync
        expect((yield* lines).slice(-1)).toEqual([
          [{ _tag: "Clock", now: 10_800_000, frozen: false, offset: 7_200_000 }]
        ])
        // A reset of the fake: the whole state replaced, the clock back on the Clock's time with it.
        yield* fake.reset
        expect((yield* lines).slice(-1)[0]).toMatchObject([
          { _tag: "State" },
          { _tag: "Clock", now: 3_600_000, frozen: false, offset: 0 }
        ])
        // Reads write nothing, the clock running as saved.
        const before = yield* lines
        yield* TestClock.adjust("1 minute")
        yield* FakeHttpClient.make(fake.httpApp).execute(
          HttpClientRequest.get("http://x/api/v2/projects").pipe(HttpClientRequest.bearerToken(fake.bootstrapKey))
        )
        expect(yield* lines).toEqual(before)
      }).pipe(Effect.provide(NodeContext.layer))
  )

  it.scoped(
    "a crash in the middle of a commit's write undoes all of it: never half a change (a default branch moved), which the start would refuse",
    () =>
      Effect.gen(function* () {
        const fs = yield* FileSystem.FileSystem
        const path = yield* statePath
        const journalFile = StateFile.journalPath(path)
        const journal = yield* StateFile.journal(path)
        const fake = yield* FakePlatform.make(
          {
            projects: [{ id: "torn-commit" }],
            branches: [
              { project_id: "torn-commit", id: "br-main", name: "main", default: true },
              { project_id: "torn-commit", id: "br-next", name: "next" }
            ]
          },
          { journal }
        )
        yield* journal.start(fake.snapshot)
        const before = yield* fake.snapshot
        // One change of two records: br-main no longer the default, br-next the default.
        const answer = yield* FakeHttpClient.make(fake.httpApp).execute(
          HttpClientRequest.post("http://x/api/v2/projects/torn-commit/branches/br-next/set_as_default").pipe(
            HttpClientRequest.bearerToken(fake.bootstrapKey)
          )
        )
        expect(answer.status).toBe(200)
        const written = yield* fs.readFileString(journalFile)
        expect(Either.getOrThrow(StateFile.parseJournal(written))).toHaveLength(2)
        const after = Option.getOrThrow(yield* StateFile.load(path))
        expect(after.branches.find((branch) => branch.default)?.id).toBe("br-next")
        // A kill -9 or a power cut during the write keeps any prefix of it (a write() of several
        // pages may stop at any of them): each loads as the state before or after, and restores.
        const cuts = Array.from({ length: written.length + 1 }, (_, cut) => cut).filter(
          (cut) => cut % 25 === 0 || cut === written.length || /[\n,{}]/.test(written.slice(cut - 1, cut + 1))
        )
        for (const cut of cuts) {
          yield* fs.writeFileString(journalFile, written.slice(0, cut))
          const loaded = Option.getOrThrow(yield* StateFile.load(path))
          expect(loaded, `the journal cut after ${cut} of ${written.length} characters`).toEqual(
            cut === written.length ? after : before
          )
          yield* FakePlatform.restore(loaded)
        }
      }).pipe(Effect.provide(NodeContext.layer))
  )

  it.scoped("the journal is folded into the state file every compactEvery changes and when its scope closes", () =>
    Effect.gen(function* () {
      const fs = yield* FileSystem.FileSystem
      const path = yield* statePath
      const fake = yield* Effect.scoped(
        Effect.gen(function* () {
          const journal = yield* StateFile.journal(path, { compactEvery: 3 })
          const fake = yield* FakePlatform.make(seed, { journal })
          yield* journal.start(fake.snapshot)
          yield* fake.scenario.addApiKey("one")
          yield* fake.scenario.addApiKey("two")
          expect((yield* fs.readFileString(StateFile.journalPath(path))).split("\n")).toHaveLength(3)
          yield* fake.scenario.addProject({ id: "folded-in-1" })
          // The third change folded the journal into the state file.
          expect(yield* fs.readFileString(StateFile.journalPath(path))).toBe("")
          expect(Option.getOrThrow(yield* StateFile.load(path)).projects.map((p) => p.id)).toContain("folded-in-1")
          yield* fake.scenario.addApiKey("three")
          // A key's last use is not a change, but the last fold at shutdown keeps it.
          yield* FakeHttpClient.make(fake.httpApp).execute(
            HttpClientRequest.get("http://x/api/v2/api_keys").pipe(HttpClientRequest.bearerToken(fake.bootstrapKey))
          )
          return fake
        })
      )
      expect(yield* fs.readFileString(StateFile.journalPath(path))).toBe("")
      const saved = Option.getOrThrow(yield* StateFile.load(path))
      expect(saved).toEqual(yield* fake.snapshot)
      expect(saved.api_keys.find((key) => key.name === "bootstrap")?.last_used_at).not.toBeNull()
    }).pipe(Effect.provide(NodeContext.layer))
  )

  it.scoped(
    "a change that cannot be written is answered 503, never 200; then every request is, and `failure` fails",
    () =>
      Effect.gen(function* () {
        const fs = yield* FileSystem.FileSystem
        const path = yield* statePath
        const disk = { full: false }
        const journal = yield* StateFile.journal(path).pipe(
          Effect.provideServiceEffect(FileSystem.FileSystem, fillingDisk(disk))
        )
        const fake = yield* FakePlatform.make(seed, { journal })
        yield* journal.start(fake.snapshot)
        const client = FakeHttpClient.make(fake.httpApp)
        const create = (name: string) =>
          client.execute(
            HttpClientRequest.post("http://x/api/v2/api_keys").pipe(
              HttpClientRequest.bearerToken(fake.bootstrapKey),
              HttpClientRequest.bodyUnsafeJson({ key_name: name })
            )
          )
        expect((yield* create("fits")).status).toBe(200)
        disk.full = true
        const refused = yield* create("does not fit")
        expect(refused.status).toBe(503)
        const body = (yield* refused.json) as any
        expect(body.message).toContain("could not be saved")
        expect(body.message).toContain("no space left")
        expect(typeof body.request_id).toBe("string")
        const failure = yield* Effect.flip(journal.failure)
        expect(failure._tag).toBe("StateFileError")
        // From then on nothing is acknowledged, reads included, and nothing more is written.
        const read = yield* client.execute(
          HttpClientRequest.get("http://x/api/v2/api_keys").pipe(HttpClientRequest.bearerToken(fake.bootstrapKey))
        )
        expect(read.status).toBe(503)
        expect((yield* Effect.exit(fake.scenario.addApiKey("dies")))._tag).toBe("Failure")
        disk.full = false
        expect((yield* create("after")).status).toBe(503)
        // What was acknowledged is on disk; what was not is not.
        const names = Option.getOrThrow(yield* StateFile.load(path)).api_keys.map((key) => key.name)
        expect(names).toContain("fits")
        expect(names).not.toContain("after")
        expect(yield* fs.exists(path)).toBe(true)
      }).pipe(Effect.provide(NodeContext.layer))
  )
})
