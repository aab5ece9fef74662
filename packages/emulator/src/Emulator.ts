/**
 * The fake platform of `@dbplatform/testing` served on a real port, for tests that are not
 * Effect programs (shell scripts, other languages' clients, CLIs): the same routes, statuses,
 * bodies, limits and faults as the in-memory fake, because it is the same fake.
 *
 * This package, not `@dbplatform/testing`, depends on `@effect/platform-node`: users of the
 * testing package's Layers never load Node's HTTP server.
 *
 * @since 0.1.0
 */
import type * as FileSystem from "@effect/platform/FileSystem"
import type * as HttpServerError from "@effect/platform/HttpServerError"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { FakePlatform, Seed } from "@dbplatform/testing"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { httpServer } from "./internal/nodeServer.js"
import * as StateFile from "./StateFile.js"

/**
 * How the emulator starts.
 *
 * @since 0.1.0
 */
export interface Options {
  /** The address to listen on; `127.0.0.1` (loopback only) by default. */
  readonly host?: string | undefined
  /** The TCP port; 0 (any free port, read it from `Service.baseUrl`) by default. */
  readonly port?: number | undefined
  /** The account to start with when there is no saved state; `Seed.realistic()` by default. */
  readonly seed?: Seed.Seed | undefined
  /**
   * A state file (`StateFile`): loaded at start when it exists (the seed is then not used).
   * Every change (a key created or revoked, a `scenario` change) is on disk before it is
   * answered; a key's `last_used_at` / `last_used_from_addr` are saved with the key's next
   * change, every 1000 changes and at shutdown (a crash may lose the latest ones).
   */
  readonly statePath?: string | undefined
  /**
   * The opt-in rate limit per account and per route (`FakePlatform.Options.rateLimit`, e.g.
   * `FakePlatform.platformRateLimit`; docs/contract.md §10.2).
   */
  readonly rateLimit?: FakePlatform.RateLimit | undefined
  /**
   * The value of the bootstrap key, e.g. from `DBPLATFORM_EMULATOR_KEY`, so that it stays the
   * same across restarts. Without it: the seed's `bootstrapKey`, else a new random key at each
   * start (keys of earlier runs kept in the state file stay valid).
   */
  readonly bootstrapKey?: Redacted.Redacted<string> | undefined
}

/**
 * The running emulator.
 *
 * @since 0.1.0
 */
export interface Service {
  /** The base URL of the API, with its version segment: `http://127.0.0.1:PORT/api/v2`. */
  readonly baseUrl: string
  /** The bootstrap key: a valid key of the emulated account. */
  readonly bootstrapKey: Redacted.Redacted<string>
  /** Whether the state came from the state file (`true`) or from the seed. */
  readonly restored: boolean
  /**
   * Fails once a change could not be written to the state file (e.g. the disk is full); never
   * succeeds. From then on every request is answered 503 and nothing more is written: stop the
   * emulator (the `dbplatform-emulator` command exits 1). Without a state file it never ends.
   */
  readonly failed: Effect.Effect<never, StateFile.StateFileError>
}

/**
 * The running emulator's service (see {@link Service}).
 *
 * @since 0.1.0
 * @category tags
 */
export class Emulator extends Context.Tag("@dbplatform/emulator/Emulator")<Emulator, Service>() {}

/**
 * The fake from the state file or the seed, journaled to the state file when there is one.
 * Also answers whether it was restored, and the journal's failure.
 */
const fakeLayer = (options: Options) =>
  Layer.scopedContext(
    Effect.gen(function* () {
      const { statePath } = options
      const saved = statePath === undefined ? Option.none() : yield* StateFile.load(statePath)
      const journal = statePath === undefined ? undefined : yield* StateFile.journal(statePath)
      const bootstrapKey = Option.getOrUndefined(Option.map(Option.fromNullable(options.bootstrapKey), Redacted.value))
      const fakeOptions = { rateLimit: options.rateLimit, journal }
      const fake = Option.isSome(saved)
        ? yield* FakePlatform.restore(saved.value, { ...fakeOptions, bootstrapKey })
        : yield* FakePlatform.make(
            { ...(options.seed ?? Seed.realistic()), ...(bootstrapKey === undefined ? {} : { bootstrapKey }) },
            fakeOptions
          )
      if (journal !== undefined) yield* journal.start(fake.snapshot)
      return Context.make(FakePlatform.FakePlatform, fake).pipe(
        Context.add(Restored, { restored: Option.isSome(saved), failed: journal?.failure ?? Effect.never })
      )
    })
  )

class Restored extends Context.Tag("@dbplatform/emulator/Restored")<Restored, Pick<Service, "restored" | "failed">>() {}

/**
 * Starts the emulator: the fake from the state file (when `statePath` names an existing one)
 * or the seed, served on `host:port`, each change on disk before it is answered. Shutdown
 * (closing the Layer's scope, e.g. on SIGINT/SIGTERM under `NodeRuntime.runMain`) stops the
 * server first, then saves the whole state a last time. Fails with `InvalidSeed` (a bad seed or state), a
 * `StateFileError`, or a `ServeError` (e.g. the port is taken).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: Options = {}
): Layer.Layer<
  Emulator | FakePlatform.FakePlatform,
  Seed.InvalidSeed | StateFile.StateFileError | HttpServerError.ServeError,
  FileSystem.FileSystem
> => {
  const emulator = Layer.effect(
    Emulator,
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      return Emulator.of({
        baseUrl: yield* FakePlatform.serverBaseUrl,
        bootstrapKey: fake.bootstrapKey,
        ...(yield* Restored)
      })
    })
  )
  const server = NodeHttpServer.layer(httpServer, { port: options.port ?? 0, host: options.host ?? "127.0.0.1" })
  // The fake is built first and released last: the server closes before the last save.
  return Layer.merge(emulator, FakePlatform.layerServer).pipe(
    Layer.provide(server),
    Layer.provideMerge(fakeLayer(options)),
    Layer.map((context) => Context.omit(Restored)(context) as Context.Context<Emulator | FakePlatform.FakePlatform>)
  )
}
