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
import { createServer } from "node:http"
import type * as FileSystem from "@effect/platform/FileSystem"
import type * as HttpServerError from "@effect/platform/HttpServerError"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { FakePlatform, Seed } from "@dbplatform/testing"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
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
   * A state file (`StateFile`): loaded at start when it exists (the seed is then not used),
   * saved after changes (within `saveInterval`) and at shutdown.
   */
  readonly statePath?: string | undefined
  /** How often the state file is brought up to date; 200 ms by default. */
  readonly saveInterval?: Duration.DurationInput | undefined
  /** The opt-in per-key rate limit (`FakePlatform.Options.rateLimit`). */
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
}

/**
 * The running emulator's service (see {@link Service}).
 *
 * @since 0.1.0
 * @category tags
 */
export class Emulator extends Context.Tag("@dbplatform/emulator/Emulator")<Emulator, Service>() {}

/**
 * The fake from the state file or the seed, kept saved to the state file when there is one.
 * Also answers whether it was restored.
 */
const fakeLayer = (options: Options) =>
  Layer.scopedContext(
    Effect.gen(function* () {
      const saved = options.statePath === undefined ? Option.none() : yield* StateFile.load(options.statePath)
      const bootstrapKey = Option.getOrUndefined(Option.map(Option.fromNullable(options.bootstrapKey), Redacted.value))
      const fake = Option.isSome(saved)
        ? yield* FakePlatform.restore(saved.value, { rateLimit: options.rateLimit, bootstrapKey })
        : yield* FakePlatform.make(
            { ...(options.seed ?? Seed.realistic()), ...(bootstrapKey === undefined ? {} : { bootstrapKey }) },
            { rateLimit: options.rateLimit }
          )
      if (options.statePath !== undefined) {
        yield* StateFile.keepSaved(options.statePath, fake, { interval: options.saveInterval })
      }
      return Context.make(FakePlatform.FakePlatform, fake).pipe(Context.add(Restored, Option.isSome(saved)))
    })
  )

class Restored extends Context.Tag("@dbplatform/emulator/Restored")<Restored, boolean>() {}

/**
 * Starts the emulator: the fake from the state file (when `statePath` names an existing one)
 * or the seed, served on `host:port`, its state saved as it changes. Shutdown (closing the
 * Layer's scope, e.g. on SIGINT/SIGTERM under `NodeRuntime.runMain`) stops the server first,
 * then saves the state a last time. Fails with `InvalidSeed` (a bad seed or state), a
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
        restored: yield* Restored
      })
    })
  )
  const server = NodeHttpServer.layer(createServer, { port: options.port ?? 0, host: options.host ?? "127.0.0.1" })
  // The fake is built first and released last: the server closes before the last save.
  return Layer.merge(emulator, FakePlatform.layerServer).pipe(
    Layer.provide(server),
    Layer.provideMerge(fakeLayer(options)),
    Layer.map((context) => Context.omit(Restored)(context) as Context.Context<Emulator | FakePlatform.FakePlatform>)
  )
}
