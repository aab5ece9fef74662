/**
 * The fake platform of `@dbplatform/testing` served on a real port, for tests that are not
 * Effect programs (shell scripts, other languages' clients, CLIs): the same routes, statuses,
 * bodies, limits and faults as the in-memory fake, because it is the same fake. Its control API
 * (`ControlApi` of `@dbplatform/testing`: reset, seed, snapshot, scenarios, faults, a clock to
 * freeze and advance, the request log) is served under `/_emulator` on the same port, with its
 * own token, on by default on loopback only (docs/design.md §2).
 *
 * This package, not `@dbplatform/testing`, depends on `@effect/platform-node`: users of the
 * testing package's Layers never load Node's HTTP server.
 *
 * @since 0.1.0
 */
import { createHash } from "node:crypto"
import type * as FileSystem from "@effect/platform/FileSystem"
import * as HttpServer from "@effect/platform/HttpServer"
import type * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Endpoint } from "@dbplatform/core"
import { ControlApi, ControlledClock, FakePlatform, Seed, Snapshot } from "@dbplatform/testing"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as DdlThread from "./internal/ddlThread.js"
import { isLoopback } from "./internal/host.js"
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
   * change, every 1000 changes and at shutdown (a crash may lose the latest ones). The clock is
   * saved too (since 0.5.0): a move of it (freeze, advance, resume) is on disk before it is
   * answered, and a restart resumes it where the state left it, frozen at its time or running
   * with its offset, never before the last change saved (a state file written before 0.5.0 has
   * no clock: the clock starts on real time).
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
   * start (keys of earlier runs kept in the state file stay valid). It must be one an HTTP header
   * can carry, 1 or more printable ASCII characters without spaces (else {@link InvalidBootstrapKey}).
   * It is valid at every start: revoking it through the API (`DELETE /api_keys/{key_id}`) lasts
   * until the emulator stops, and a start on a state file that holds it revoked makes the same
   * key (its id kept) valid again, as `reset` does (since 0.4.0; a state file holding it revoked
   * stopped the start with `InvalidSeed` before).
   */
  readonly bootstrapKey?: Redacted.Redacted<string> | undefined
  /**
   * The value of an organization API key (since 0.5.0, docs/contract.md §21), e.g. from
   * `DBPLATFORM_EMULATOR_ORG_KEY`: at every start, a key of the account's organization (one whose
   * admin the account's user is: `Snapshot.accountOrganization`, the default
   * `org-dbplatform-000000` when the user is one of its admins, as in the realistic account; the
   * one it was made for when it is there already) named `emulator`, valid (made valid again when
   * the state holds it revoked). It must be one an HTTP header can carry, and not the bootstrap
   * key (else {@link InvalidOrganizationKey}); the account's user must be the admin of an
   * organization.
   */
  readonly organizationKey?: Redacted.Redacted<string> | undefined
  /**
   * Whether to serve the control API (`ControlApi`, under `/_emulator`; since 0.2.0). By default
   * it is on when `host` is a loopback address (127.0.0.0/8, `::1`, `localhost`) and off
   * otherwise: anyone who holds the control token can reset or change the whole account.
   */
  readonly control?: boolean | undefined
  /**
   * The control API's token (`Authorization: Bearer <token>`), e.g. from
   * `DBPLATFORM_EMULATOR_TOKEN`, so that it stays the same across restarts; a new random one at
   * each start when absent (since 0.2.0). It is not an API key: the platform's routes refuse it.
   */
  readonly controlToken?: Redacted.Redacted<string> | undefined
  /**
   * The clock the fake runs on (since 0.2.0); by default a new `ControlledClock` over the `Clock`
   * in context (real time), or the clock saved in the state file (`ControlledClock.restore`,
   * since 0.5.0). The control API freezes, advances and resumes it. A clock given is used as it
   * is, a clock saved in the state file then ignored (the given one is saved in its place).
   */
  readonly clock?: ControlledClock.ControlledClock | undefined
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
   * The organization of the account its organization keys are made in (since 0.5.0): the one
   * `Options.organizationKey` acts for, else `Snapshot.accountOrganization` of the state (one
   * whose admin the account's user is: `org-dbplatform-000000` in the realistic account); `None`
   * when the user is the admin of none. Create a key of it with the bootstrap key:
   * `POST /organizations/{org_id}/api_keys`.
   */
  readonly organizationId: Option.Option<string>
  /**
   * The base URL of the control API when it is on (since 0.2.0):
   * `http://127.0.0.1:PORT/_emulator`; `None` when it is off (see `Options.control`).
   */
  readonly controlUrl: Option.Option<string>
  /** The control API's token when it is on (since 0.2.0); `None` when it is off. */
  readonly controlToken: Option.Option<Redacted.Redacted<string>>
  /**
   * The clock the fake runs on (since 0.2.0). With a state file, a move of it returns once it is
   * on disk (since 0.5.0).
   */
  readonly clock: ControlledClock.ControlledClock
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
      const bootstrapKey = Option.getOrUndefined(Option.map(Option.fromNullable(options.bootstrapKey), Redacted.value))
      // Before anything is opened or written: a key or a token that cannot be one stops the
      // start here. The bootstrap key is the one given, else the seed's, else a new random one
      // (a state file keeps only hashes): the first two are all the token can equal.
      if (bootstrapKey !== undefined && !sendable(bootstrapKey)) {
        return yield* new InvalidBootstrapKey({ source: "DBPLATFORM_EMULATOR_KEY", reason: unsendable })
      }
      const seedKey = options.seed?.bootstrapKey
      if (seedKey !== undefined && !sendable(seedKey)) {
        return yield* new InvalidBootstrapKey({ source: "the seed's bootstrapKey", reason: unsendable })
      }
      if (options.controlToken !== undefined) {
        yield* checkControlToken(options.controlToken, bootstrapKey ?? options.seed?.bootstrapKey)
      }
      const loaded = statePath === undefined ? Option.none() : yield* StateFile.loadSaved(statePath)
      const saved = Option.map(loaded, ({ snapshot }) =>
        bootstrapKey === undefined ? snapshot : withKeyValid(snapshot, bootstrapKey)
      )
      // The clock where the state left it (its changes were made on it), else on real time.
      const savedClock = Option.flatMap(loaded, ({ clock }) => clock)
      const clock =
        options.clock ??
        (Option.isSome(savedClock) ? yield* ControlledClock.restore(savedClock.value) : yield* ControlledClock.make)
      const journal = statePath === undefined ? undefined : yield* StateFile.journal(statePath, { clock })
      const fakeOptions = { rateLimit: options.rateLimit, journal, clock, ddlParser: yield* DdlThread.make }
      const fake = Option.isSome(saved)
        ? yield* FakePlatform.restore(saved.value, { ...fakeOptions, bootstrapKey })
        : yield* FakePlatform.make(
            { ...(options.seed ?? Seed.realistic()), ...(bootstrapKey === undefined ? {} : { bootstrapKey }) },
            fakeOptions
          )
      if (journal !== undefined) yield* journal.start(fake.snapshot)
      const organizationId =
        options.organizationKey === undefined
          ? Option.fromNullable(Snapshot.accountOrganization(yield* fake.snapshot))
          : Option.some(yield* withOrganizationKey(fake, Redacted.value(options.organizationKey)))
      return Context.make(FakePlatform.FakePlatform, fake).pipe(
        Context.add(Restored, {
          restored: Option.isSome(saved),
          organizationId,
          failed: journal?.failure ?? Effect.never,
          // The fake's: with a journal, a move of it is durable before it returns.
          clock: Option.getOrElse(fake.clock, () => clock),
          controlToken:
            (options.control ?? isLoopback(options.host ?? defaultHost))
              ? Option.some(options.controlToken ?? Redacted.make(newToken()))
              : Option.none()
        })
      )
    })
  )

/**
 * A control token given in {@link Options} that cannot be one: empty, holding anything but
 * printable ASCII (it could not be sent as `Authorization: Bearer <token>`), or the bootstrap key (the control API
 * and the platform's routes must not take the same credential). The reason never holds the
 * token (since 0.2.0).
 *
 * @since 0.2.0
 * @category errors
 */
export class InvalidControlToken extends Data.TaggedError("InvalidControlToken")<{ readonly reason: string }> {
  override get message(): string {
    return `the control token (DBPLATFORM_EMULATOR_TOKEN) ${this.reason}`
  }
}

/**
 * A bootstrap key given in {@link Options} (`bootstrapKey`, from `DBPLATFORM_EMULATOR_KEY`, or
 * the seed's `bootstrapKey`) that cannot be one: empty, or holding anything but printable ASCII,
 * so that it could not be sent as `Authorization: Bearer <key>` (the client refuses such a key
 * with `InvalidApiKey`). `source` says which was given; the reason never holds the key.
 *
 * @since 0.4.0
 * @category errors
 */
export class InvalidBootstrapKey extends Data.TaggedError("InvalidBootstrapKey")<{
  readonly source: "DBPLATFORM_EMULATOR_KEY" | "the seed's bootstrapKey"
  readonly reason: string
}> {
  override get message(): string {
    return `the bootstrap key (${this.source}) ${this.reason}`
  }
}

/**
 * An organization key given in {@link Options} (`organizationKey`, from
 * `DBPLATFORM_EMULATOR_ORG_KEY`) that cannot be one: not sendable in a header, the bootstrap key
 * or another personal key of the state, or given to an account whose user is the admin of no
 * organization. The
 * reason never holds the key (since 0.5.0).
 *
 * @since 0.5.0
 * @category errors
 */
export class InvalidOrganizationKey extends Data.TaggedError("InvalidOrganizationKey")<{ readonly reason: string }> {
  override get message(): string {
    return `the organization key (DBPLATFORM_EMULATOR_ORG_KEY) ${this.reason}`
  }
}

/**
 * Makes the key whose value is `value` a valid key of the account's organization (docs/contract.md
 * §21) in `fake`, as {@link Options.organizationKey} says; answers its organization's id.
 */
const withOrganizationKey = (fake: FakePlatform.Service, value: string) =>
  Effect.gen(function* () {
    if (!sendable(value)) return yield* new InvalidOrganizationKey({ reason: unsendable })
    if (value === Redacted.value(fake.bootstrapKey)) {
      return yield* new InvalidOrganizationKey({ reason: "is the bootstrap API key: give it a value of its own" })
    }
    const snapshot = yield* fake.snapshot
    const hash = hashOf(value)
    const existing = snapshot.api_keys.find((key) => key.hash === hash)
    if (existing !== undefined && existing.org_id === undefined) {
      return yield* new InvalidOrganizationKey({ reason: `is the value of a personal key (API key ${existing.id})` })
    }
    const orgId = existing?.org_id ?? Snapshot.accountOrganization(snapshot)
    if (orgId === undefined) {
      return yield* new InvalidOrganizationKey({
        reason:
          "has no organization to belong to: the account's user is the admin of none (a project, or organizations[] of the seed without members or with you@example.com as an admin, makes one)"
      })
    }
    if (existing !== undefined && !existing.revoked) return orgId
    const now = yield* Clock.currentTimeMillis
    const api_keys =
      existing === undefined
        ? [
            ...snapshot.api_keys,
            {
              id: snapshot.next_key_id,
              name: "emulator",
              hash,
              created_at: now,
              revoked: false,
              last_used_at: null,
              last_used_from_addr: "",
              org_id: orgId
            }
          ]
        : snapshot.api_keys.map((key) => (key.hash === hash ? { ...key, revoked: false } : key))
    yield* Effect.orDie(fake.restore({ ...snapshot, api_keys }))
    return orgId
  })

/**
 * Whether `credential` can be sent in an `Authorization` header: 1 or more printable ASCII
 * characters (`!` to `~`); a space, a control character or a non-ASCII letter cannot.
 */
const sendable = (credential: string): boolean => /^[\x21-\x7e]+$/.test(credential)

/** Why a credential that is not {@link sendable} is refused. */
const unsendable =
  "is empty or holds a character other than printable ASCII (no spaces): it could not be sent in a header"

/** SHA-256 of `value`'s UTF-8 bytes, as 64 lower-case hex digits: how a snapshot keeps a key (`hash`). */
const hashOf = (value: string): string => createHash("sha256").update(value, "utf8").digest("hex")

/**
 * `snapshot` with the key whose value is `bootstrapKey` valid again when it holds it revoked: the
 * bootstrap key given is valid at every start ({@link Options.bootstrapKey}).
 */
const withKeyValid = (snapshot: Snapshot.Snapshot, bootstrapKey: string): Snapshot.Snapshot => {
  const hash = hashOf(bootstrapKey)
  return snapshot.api_keys.some((key) => key.hash === hash && key.revoked)
    ? {
        ...snapshot,
        api_keys: snapshot.api_keys.map((key) => (key.hash === hash ? { ...key, revoked: false } : key))
      }
    : snapshot
}

/**
 * Refuses a control token that is empty, holds anything but printable ASCII (a space, a
 * control character or a non-ASCII letter cannot be sent in an `Authorization` header), or is
 * the bootstrap key (when known).
 */
const checkControlToken = (
  token: Redacted.Redacted<string>,
  bootstrapKey: string | undefined
): Effect.Effect<void, InvalidControlToken> => {
  const value = Redacted.value(token)
  if (!sendable(value)) return Effect.fail(new InvalidControlToken({ reason: unsendable }))
  return value === bootstrapKey
    ? Effect.fail(
        new InvalidControlToken({ reason: "is the bootstrap API key: give the control API a token of its own" })
      )
    : Effect.void
}

class Restored extends Context.Tag("@dbplatform/emulator/Restored")<
  Restored,
  Pick<Service, "restored" | "organizationId" | "failed" | "clock" | "controlToken">
>() {}

const defaultHost = "127.0.0.1"

/** A new control token: 32 random bytes as 64 hex characters. */
const newToken = (): string =>
  Array.from(crypto.getRandomValues(new Uint8Array(32)), (byte) => byte.toString(16).padStart(2, "0")).join("")

/** The path of a request target (origin form, or absolute form without its scheme and host), without query. */
const pathOf = (target: string): string => target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "").replace(/[?#].*$/s, "")

/**
 * Serves the fake on the `HttpServer` in context, and the control API under `/_emulator` when it
 * is on: one port, one address for a test to know.
 */
const serve = Layer.unwrapEffect(
  Effect.gen(function* () {
    const fake = yield* FakePlatform.FakePlatform
    const { controlToken } = yield* Restored
    if (Option.isNone(controlToken)) return HttpServer.serve(fake.httpApp)
    const control = yield* ControlApi.httpApp(fake, { token: controlToken.value })
    return HttpServer.serve(
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
        ControlApi.isControlPath(pathOf(request.url)) ? control : fake.httpApp
      )
    )
  })
)

/**
 * Starts the emulator: the fake from the state file (when `statePath` names an existing one)
 * or the seed, served on `host:port`, each change on disk before it is answered. Shutdown
 * (closing the Layer's scope, e.g. on SIGINT/SIGTERM under `NodeRuntime.runMain`) stops the
 * server first, then saves the whole state a last time. Fails with `InvalidSeed` (a bad seed or state), a
 * `StateFileError`, a `ServeError` (e.g. the port is taken), `InvalidBootstrapKey`,
 * `InvalidControlToken` or `InvalidOrganizationKey` (a credential given that could not be sent in
 * a header, or could not be what it is given as).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: Options = {}
): Layer.Layer<
  Emulator | FakePlatform.FakePlatform,
  | Seed.InvalidSeed
  | StateFile.StateFileError
  | HttpServerError.ServeError
  | InvalidBootstrapKey
  | InvalidControlToken
  | InvalidOrganizationKey,
  FileSystem.FileSystem
> => {
  const emulator = Layer.effect(
    Emulator,
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const baseUrl = yield* FakePlatform.serverBaseUrl
      const started = yield* Restored
      return Emulator.of({
        baseUrl,
        bootstrapKey: fake.bootstrapKey,
        ...started,
        controlUrl: Option.map(
          started.controlToken,
          () => `${baseUrl.slice(0, baseUrl.length - Endpoint.basePath.length)}${ControlApi.prefix}`
        )
      })
    })
  )
  const server = NodeHttpServer.layer(httpServer, { port: options.port ?? 0, host: options.host ?? defaultHost })
  // The fake is built first and released last: the server closes before the last save.
  return Layer.merge(emulator, serve).pipe(
    Layer.provide(server),
    Layer.provideMerge(fakeLayer(options)),
    Layer.map((context) => Context.omit(Restored)(context) as Context.Context<Emulator | FakePlatform.FakePlatform>)
  )
}
