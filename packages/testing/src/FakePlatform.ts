/**
 * A fake of the platform's control API v2 (`docs/contract.md`, §10): API keys,
 * projects and operations held in memory, served by an `HttpApp` with the real routes,
 * statuses, `GeneralError` bodies, defaults and limits. Its routes, checks and answers come
 * from core's groups of endpoints (`Api.groups`), as the client's requests do
 * (`docs/design.md` §1).
 *
 * - Every route answers 401 to a missing, unknown or revoked key; revocation is immediate.
 * - Keys are personal or an organization's, maybe scoped to one project (docs/contract.md §21):
 *   a project or organization a key does not reach is a 404, a route its kind may not call a
 *   403, decided from the path before the query and body are read; the lists show what it reaches.
 * - Keys are stored as SHA-256 hashes, never as values.
 * - Unknown ids are 404; a bad `limit`, cursor, id or `key_name` is 400; unknown routes 404.
 * - Lists are newest first with a `created_at` cursor (`GET /projects`: limit 1..400, 10 by
 *   default, filtered by `org_id`; operations: limit 1..1000, all by default).
 * - Operations move `scheduling` -> `running` -> their end as the `Clock` advances, so
 *   `TestClock.adjust` plays them out.
 * - Compute endpoints (docs/contract.md §12) suspend after their suspend timeout of no activity,
 *   and branches with one get a `check_availability` every hour: the control plane's own
 *   operations, materialised on the `Clock` before every request (`Service.catchUp`); a
 *   connection (`Service.connect`) starts an idle one.
 * - `faults` injects what a proxy, a gateway or the network can do to a request (`Fault`);
 *   `requests` logs every request with its query and headers (credentials redacted) and the fault it got.
 * - `scenario` adds projects and keys, starts operations as a mutation would, fails or cancels
 *   them (`Scenario`); `Options.rateLimit` turns on a rate limit per account and per route,
 *   modelled on the platform's (429 + `Retry-After`, docs/contract.md §10.2).
 * - Bodies over 64 KiB are 413, without `Content-Type: application/json` 415, not UTF-8, not
 *   JSON or nested deeper than 64 levels 400; path traversal in ids (`..`, `%2e%2e`, encoded `/`
 *   or `\`) is 400; every refusal has a `GeneralError` body, never a 5xx for malformed input,
 *   and its message quotes at most 40 characters of what it refuses.
 * - `snapshot` / `restore` save and restore the whole state (keys as hashes only); `Options.journal`
 *   is told of each change and holds the answer until the change is durable.
 * - `Service.reset`, `load` and `restore` replace the state of a running fake; `faults.list`
 *   lists pending faults; `Options.clock` runs the fake on a `ControlledClock`. `ControlApi`
 *   serves all of it over HTTP (docs/design.md §2).
 *
 * @since 0.1.0
 */
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { type ComputeEndpointOperations, Endpoint } from "@dbplatform/core"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import type { ControlledClock } from "./ControlledClock.js"
import * as DdlParser from "./DdlParser.js"
import { lsnAt as lsnAtMillis } from "./engine/lsn.js"
import { type Faults, PendingFaults } from "./engine/faults.js"
import { computeEndpointOperations } from "./resources/ComputeEndpoints/handlers.js"
import { controlPlaneStep, change } from "./engine/change.js"
import { connect } from "./resources/ComputeEndpoints/steps.js"
import { randomDice } from "./engine/ids.js"
import { durable, notSavedDies } from "./engine/journal.js"
import { makeRequestLog, type RecordedRequest } from "./engine/requestLog.js"
import { Access, Gate, refusalResponse } from "./engine/route.js"
import { Caller } from "./engine/caller.js"
import { accessOf } from "./engine/authorization.js"
import { dataPlane, isDataPlane, router } from "./internal/routes.js"
import { declaredLengthRefusal } from "./engine/limits.js"
import { type RateLimit, makeRateLimits, rateLimited, rateLimitProblem, unlimited } from "./engine/rateLimit.js"
import { scenarioOf } from "./internal/scenario.js"
import { seedSchemas, stateOfSeed } from "./internal/seed.js"
import { makeFakeState, mutate, type State, snapshotOf } from "./engine/state.js"
import { Status } from "./engine/status.js"
import type { Scenario, UnknownComputeEndpoint } from "./Scenario.js"
import { InvalidSeed, type Seed } from "./Seed.js"
import type { Snapshot, SnapshotChange } from "./Snapshot.js"
import { controlPlane } from "./internal/duties.js"
import { authenticate, newKeyValue, personalKeys } from "./engine/authentication.js"
import { Refusal } from "./engine/refusal.js"
import { httpAppOf } from "./engine/httpApp.js"
import { replacements, stateOfSnapshot, withBootstrapKey } from "./internal/baseline.js"
import { clockedScenario, onClock } from "./internal/clocked.js"
import { durably, syncedClock, syncedScenario } from "./internal/synced.js"

export type {
  /**
   * One request the fake received, as `Service.requests` lists it: `method`, `path` (e.g.
   * `/api/v2/projects`; since 0.5.0 a segment that is an API key of the account, or looks like a
   * credential, a JSON Web Token or 32 or more letters and digits maybe after a prefix such as
   * `ssk_`, is `<redacted>`), `query` (decoded parameters; the value of one named like a credential,
   * e.g. `api_key`, `apiKey`, `key`, `access_token`, `password`, `client_secret`, whatever its
   * case, is `<redacted>`), `headers` (lower-case names, credentials redacted: `authorization`
   * cut to its scheme, `Bearer <redacted>`; a `cookie` to its names, `zenith=<redacted>`;
   * `proxy-authorization`, `x-api-key`, `api-key`, `x-auth-token` too) and `fault` (the tag of
   * the fault it got, if any).
   *
   * @since 0.1.0
   */
  RecordedRequest
} from "./engine/requestLog.js"
export {
  /**
   * The largest request body the fake reads, in bytes (64 KiB); a larger one is answered 413
   * with a `GeneralError`.
   *
   * @since 0.1.0
   */
  bodyLimitBytes
} from "./engine/limits.js"
export {
  /**
   * The platform's published rate limit, for `Options.rateLimit` (docs/contract.md §10.2):
   * `{ account: { limit: 700, interval: "1 minute" }, route: { limit: 40, interval: "1 second" } }`.
   *
   * @since 0.2.0
   */
  platformRateLimit,
  /**
   * The fake's rate limit (docs/contract.md §10.2): `account` (every request of the account,
   * all its keys together) and `route` (the requests to one route: its method and route
   * template, e.g. `GET /projects/{project_id}/operations` for any project), each
   * `{ limit, interval }`: at most `limit` requests in any `interval`. Either or both.
   *
   * @since 0.1.0
   */
  type RateLimit,
  /**
   * One limit of `RateLimit`: at most `limit` requests (an integer >= 1) in any `interval`
   * (a duration > 0 on the `Clock`, e.g. `"1 second"`).
   *
   * @since 0.2.0
   */
  type RateLimitWindow
} from "./engine/rateLimit.js"

/**
 * A key as the fake stores it: its hash, never its value.
 *
 * @since 0.1.0
 */
export interface StoredApiKey {
  readonly id: number
  readonly name: string
  /** SHA-256 of the value, hex. */
  readonly hash: string
  readonly revoked: boolean
}

export type {
  /**
   * Where an injected fault applies (`Faults.inject`): `method` (any case; any method when
   * absent), `path` relative to `/api/v2` without query, exact or the route template of an entry
   * of core's `Api.endpoints` in the contract's spelling (`"/projects/{project_id}/operations"`,
   * docs/contract.md §4; any path when absent), and `times`, how many matching requests get the
   * fault (an integer >= 1 or `Infinity`, until cleared; 1 by default).
   *
   * @since 0.1.0
   */
  InjectOptions,
  /**
   * The fault injector of the fake (see `Fault`): `inject(fault, options?)` gives `fault` to the
   * next requests matching `options` (the first pending fault that matches a request is taken, in
   * injection order; before authentication, as a proxy answers, unless `processed: true`; dies
   * with an `IllegalArgumentException` on bad options), `clear` removes every pending fault,
   * `list` answers those still pending, in injection order.
   *
   * @since 0.1.0
   */
  Faults,
  /**
   * A fault waiting for requests (`Faults.list`): the `fault`, where it applies (`method`
   * upper-cased and `path` as given to `inject`; `undefined` for any) and how many more requests
   * get it, `remaining` (`Infinity`: until cleared).
   *
   * @since 0.2.0
   */
  PendingFault
} from "./engine/faults.js"

/**
 * The fake platform: its bootstrap key, its HTTP app, its fault injector, and what it stored
 * and served, for assertions.
 *
 * @since 0.1.0
 */
export interface Service {
  /** The value of the account's first key, `bootstrap` (docs/contract.md §5 rule 7): valid until revoked. */
  readonly bootstrapKey: Redacted.Redacted<string>
  /** The HTTP app serving `/api/v2/...`; run it in memory or on an `HttpServer`. */
  readonly httpApp: HttpApp.Default
  /**
   * The account's personal keys as stored (those `GET /api_keys` lists): ids, names, hashes and
   * whether revoked. An organization's keys are not among them (docs/contract.md §21).
   */
  readonly apiKeys: Effect.Effect<ReadonlyArray<StoredApiKey>>
  /**
   * The requests received so far, oldest first, the last 10 000 only (older ones are
   * forgotten, so a long-running fake does not grow without limit). Each has its method,
   * path (with `/api/v2`), query, every header (names lower-cased; credentials redacted, in the
   * path and query too (see `RecordedRequest`):
   * `authorization` keeps its scheme only, `Bearer <redacted>`, a `cookie` its names only: no key
   * value is ever kept) and, when it got one, the
   * `_tag` of its fault. A request is logged when it arrives, so a hanging one is there too.
   */
  readonly requests: Effect.Effect<ReadonlyArray<RecordedRequest>>
  /** Injects faults into the next requests (`Fault`), or clears them. */
  readonly faults: Faults
  /** Changes the fake as a test scenario needs: projects, keys, operations started, failed, cancelled. */
  readonly scenario: Scenario
  /** The whole state now, to save and `restore` later (keys as hashes only). */
  readonly snapshot: Effect.Effect<Snapshot>
  /**
   * A number that grows with every change of the state (a key created, used or revoked, a
   * scenario change), so a caller can tell when a `snapshot` is worth saving again.
   */
  readonly revision: Effect.Effect<number>
  /**
   * Puts the fake back as it was built (since 0.2.0): the state from its seed again (times
   * relative to the `Clock` now; from its snapshot for a fake made by `restore`), pending faults
   * cleared, the request log emptied, and a controlled clock (`Options.clock`) back on the time
   * of the clock it follows (real time), running, before the seed is put back. The
   * `bootstrapKey` stays valid (the key is added again, unrevoked). With a `journal`, returns
   * once the new state is durable (and dies when it cannot be made so).
   */
  readonly reset: Effect.Effect<void>
  /**
   * Replaces the whole state with the account `seed` describes (since 0.2.0), its times relative
   * to the `Clock` now; faults and the request log are kept. The `bootstrapKey` stays valid: it
   * is added as the key `bootstrap`. Fails with `InvalidSeed` (the state is then unchanged) on
   * problems as `make` does, or when `seed.bootstrapKey` is given and differs from this fake's
   * (the bootstrap key never changes while the fake runs). `reset` still goes back to the seed
   * the fake was built from. Durable with a `journal`, as `reset`.
   */
  readonly load: (seed: Seed) => Effect.Effect<void, InvalidSeed>
  /**
   * Replaces the whole state with `snapshot` (a `Service.snapshot` saved earlier; since 0.2.0),
   * in the running fake; faults and the request log are kept. The `bootstrapKey` stays valid:
   * added as the key `bootstrap` when the snapshot does not hold it. Fails with `InvalidSeed`
   * (the state is then unchanged) on problems as the module's `restore` does, or when the
   * snapshot holds the bootstrap key revoked. Durable with a `journal`, as `reset`.
   */
  readonly restore: (snapshot: Snapshot) => Effect.Effect<void, InvalidSeed>
  /**
   * Materialises the control plane's own operations due by the `Clock`'s time now (since 0.3.0,
   * docs/contract.md §12, docs/design.md §4): `suspend_compute` of each compute endpoint idle
   * for its suspend timeout, `check_availability` of each branch with a compute endpoint whose
   * period (1 hour) has passed, each created at the time it was due. Every request of the HTTP
   * app and of the control API does this first; call it to see them in `snapshot` without a
   * request. Durable with a `journal`, as `reset`.
   */
  readonly catchUp: Effect.Effect<void>
  /**
   * A connection arrives at the compute endpoint `endpointId` (since 0.3.0, docs/contract.md
   * §12): after `catchUp`, an `idle` one is started by the control plane (`start_compute`, no
   * lock checked), and its activity time moves to now (its suspend timeout counts from here).
   * Answers the compute endpoint and the operations started (none for a running one); fails with
   * `UnknownComputeEndpoint` when no compute endpoint has that id. Durable with a `journal`, as `reset`.
   */
  readonly connect: (endpointId: string) => Effect.Effect<ComputeEndpointOperations, UnknownComputeEndpoint>
  /**
   * The clock the fake runs on when it was built with `Options.clock` (since 0.2.0), to freeze,
   * advance and resume; `None` otherwise (the `Clock` of the caller, e.g. `TestClock`). With a
   * `journal`, a change of it returns once `journal.sync` has succeeded, and dies as a `scenario`
   * call does when it fails (since 0.5.0): the emulator's state file keeps the clock, so a moved
   * clock is durable before it is answered, as any change.
   */
  readonly clock: Option.Option<ControlledClock>
}

/**
 * The tag of the fake {@link Service}; `DbPlatformTest.layer` and {@link layer} provide it.
 *
 * @since 0.1.0
 * @category tags
 */
export class FakePlatform extends Context.Tag("@dbplatform/testing/FakePlatform")<FakePlatform, Service>() {}

/**
 * Options of the fake, whatever it starts from.
 *
 * @since 0.1.0
 */
export interface Options {
  /**
   * Opt-in rate limit modelled on the platform's (docs/contract.md §10.2; `platformRateLimit`
   * is its published numbers, 700 a minute per account and 40 a second per route): `account`
   * allows `limit` requests of the account (all keys together) in any `interval`, `route`
   * allows `limit` requests to each route (method and route template: every project's
   * `GET /projects/{project_id}/operations` is one route) in any `interval`; sliding windows on
   * the `Clock`. Past either, a request is answered 429 with a `GeneralError` naming the limit
   * and `Retry-After` (whole seconds until it would be let through, rounded up, at least 1),
   * and is not carried out nor counted. Requests refused before their route (no valid key: 401;
   * unknown route: 404; a body too large: 413) are not counted. None by default. Dies with an
   * `IllegalArgumentException` when it has neither `account` nor `route`, or a `limit` that is
   * not an integer >= 1, or an `interval` that is not a finite duration > 0.
   */
  readonly rateLimit?: RateLimit | undefined
  /**
   * Makes changes durable before they are acknowledged (see {@link Journal}): a request
   * (`POST /api_keys`, `DELETE /api_keys/{key_id}`, and a read too) is answered only once
   * `journal.sync` has succeeded, and a `scenario` call returns only then. When `sync` fails,
   * the request is answered 503 with a `GeneralError` instead, and a `scenario` call (or
   * `reset`, `load`, `restore`) dies with a defect whose message is `the change could not be
   * saved: <why>` (the control API answers it 503); the change stays in memory (the journal's owner decides what happens next, e.g.
   * stop). None by default: nothing is recorded and nothing waits.
   */
  readonly journal?: Journal | undefined
  /**
   * Runs the fake on this clock (`ControlledClock.make`, since 0.2.0) instead of the `Clock` of
   * its caller: its HTTP app, scenarios and state changes read and sleep on it, and
   * `Service.clock` hands it to a control plane (the emulator's). None by default: in-process
   * tests move time with `TestClock`.
   */
  readonly clock?: ControlledClock | undefined
  /**
   * Reads the SQL DDL of migrations and of a seed's schemas (since 0.6.0; `DdlParser`):
   * `DdlParser.inProcess` by default, in the calling thread. The emulator gives one that parses
   * in a worker thread, so that a long parse does not hold up other requests.
   */
  readonly ddlParser?: DdlParser.DdlParser | undefined
}

/**
 * Where the fake tells each change of its state, to make it durable (e.g. the emulator's
 * `--state` file). Only changes made after the fake is built are recorded: save its `snapshot`
 * first (the seed, a restored state, a new bootstrap key are not changes). A key's
 * `last_used_at` and `last_used_from_addr` are not changes either: they ride along with the
 * key's next change, and are in every `snapshot`.
 *
 * @since 0.1.0
 */
export interface Journal {
  /**
   * Run once per mutation with all its changes, in order, each the whole record after the
   * change (`Snapshot.SnapshotChange`), while the fake holds its state: no other mutation comes
   * between the record of a change and the change itself, so the records come in the order of
   * the changes. The changes of one request or `scenario` call (e.g. a branch and its compute
   * endpoints, or a default branch moved from one branch to another) come in one call: a journal
   * that writes them together keeps them together, so a crash never leaves half of them. It must
   * not fail, and should not wait (every change of the fake waits for it): queue the changes and
   * write them elsewhere, as the emulator's `StateFile.journal` does. Runs on the fake's clock.
   * Since 0.5.0 (a callback of one change before).
   */
  readonly record: (changes: ReadonlyArray<SnapshotChange>) => Effect.Effect<void>
  /**
   * Succeeds once every change recorded before it ran is durable; fails (with a `message` that
   * says why) when they cannot be made so.
   */
  readonly sync: Effect.Effect<void, { readonly message: string }>
}

/**
 * A fake account built from `seed`, its times relative to the `Clock`'s time now. Fails with
 * `InvalidSeed` listing every bad or repeated id and operation of an unknown project.
 *
 * @since 0.1.0
 */
export const make = (seed: Seed = {}, options: Options = {}): Effect.Effect<Service, InvalidSeed> =>
  // The seed's SQL is read once: `reset` builds the state again from what was read.
  Effect.flatMap(seedSchemas(seed, options.ddlParser ?? DdlParser.inProcess), (schemas) =>
    started(
      Effect.flatMap(Clock.currentTimeMillis, (now) => stateOfSeed(seed, now, schemas)),
      seed.bootstrapKey,
      options
    )
  )

/**
 * A fake account in the state `snapshot` saved (`Service.snapshot`): the same keys (their
 * hashes), projects and operations, on the `Clock` (an operation saved while running has
 * moved on by the time passed since). Its `bootstrapKey` is `bootstrapKey` when given: a valid
 * key with that value already in the snapshot is kept, or one named `bootstrap` is added with
 * it; without one, a new random `bootstrap` key is added. Fails with `InvalidSeed` listing every
 * bad or repeated id, repeated key hash and operation of an unknown project.
 *
 * @since 0.1.0
 */
export const restore = (
  snapshot: Snapshot,
  options: Options & { readonly bootstrapKey?: string | undefined } = {}
): Effect.Effect<Service, InvalidSeed> => started(stateOfSnapshot(snapshot), options.bootstrapKey, options)

/**
 * The service over the state `baseline` builds, on the fake's clock, with a valid key whose value
 * is `bootstrapKey` (a new random one when `undefined`).
 */
const started = (baseline: Effect.Effect<State, InvalidSeed>, bootstrapKey: string | undefined, options: Options) =>
  onClock(
    options,
    Effect.gen(function* () {
      const bootstrapValue = bootstrapKey ?? newKeyValue()
      const state = yield* withBootstrapKey(baseline, bootstrapValue)
      return yield* serviceOf(state, bootstrapValue, options, baseline)
    })
  )

/**
 * The service over `state`, whose bootstrap key has the value `bootstrapValue`; `baseline`
 * builds the state it was made from again (for `reset`).
 */
const serviceOf = (
  state: State,
  bootstrapValue: string,
  options: Options,
  baseline: Effect.Effect<State, InvalidSeed>
) =>
  Effect.gen(function* () {
    const { rateLimit, journal } = options
    const problem = rateLimit === undefined ? undefined : rateLimitProblem(rateLimit)
    if (problem !== undefined) return yield* Effect.die(new Cause.IllegalArgumentException(problem))
    const log = yield* makeRequestLog
    const faults = yield* PendingFaults.make
    const limits = rateLimit === undefined ? undefined : yield* makeRateLimits(rateLimit)
    const fake = yield* makeFakeState(state, journal?.record, controlPlane)
    // The routes require their `Gate` and `Access` (no default lets a request through): the rate
    // limit (or none) here, the key's access per request below.
    const routes = yield* HttpRouter.toHttpApp(router(fake)).pipe(
      Effect.map((app) => Effect.provideService(app, Gate, limits === undefined ? unlimited : rateLimited(limits)))
    )
    /** The control plane's operations due by now, in one mutation (docs/design.md §4). */
    const caughtUp = Effect.flatMap(Effect.zip(Ref.get(fake.ref), Clock.currentTimeMillis), ([state, now]) =>
      fake.controlPlane.due(state, now)
        ? Effect.flatMap(randomDice, (dice) => mutate(fake, controlPlaneStep(fake.controlPlane, dice)))
        : Effect.succeed(false)
    )
    /** The real answer: the body size, the control plane, authentication, the rate limit, then the routes. */
    const answer = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      // A presigned URL's request: the data plane's own checks (its signature), and bodies past 64 KiB.
      if (isDataPlane(request.url)) return yield* dataPlane(fake)
      const tooLarge = declaredLengthRefusal(request)
      if (tooLarge !== undefined) return yield* new Refusal(tooLarge)
      yield* caughtUp
      const key = yield* authenticate(fake)
      // Who calls: what the routes may do for it, and what the lists show it (docs/contract.md §21).
      return yield* routes.pipe(
        Effect.provideService(Caller, key),
        Effect.provideService(Access, accessOf(fake, key, request.url))
      )
    }).pipe(
      Effect.catchTags({
        Refusal: refusalResponse,
        RouteNotFound: () => refusalResponse(new Refusal({ status: Status.notFound, message: "route not found" }))
      }),
      (answer) => (journal === undefined ? answer : Effect.flatMap(answer, (response) => durable(journal, response)))
    )
    /** What `reset` clears besides the state: faults, the request log, the rate limits' counts. */
    const forget = Effect.zipRight(Effect.zipRight(faults.clear, log.clear), limits?.clear ?? Effect.void)
    return FakePlatform.of({
      bootstrapKey: Redacted.make(bootstrapValue),
      httpApp: onClock(options, httpAppOf(fake, log, faults, answer)),
      apiKeys: Effect.map(Ref.get(fake.ref), personalKeys),
      requests: log.all,
      faults: {
        inject: (fault, options = {}) => faults.inject(fault, options),
        clear: faults.clear,
        list: faults.list
      },
      scenario: clockedScenario(
        options,
        syncedScenario(scenarioOf(fake, options.ddlParser ?? DdlParser.inProcess), journal)
      ),
      snapshot: Effect.map(Ref.get(fake.ref), snapshotOf),
      revision: Effect.map(Ref.get(fake.ref), (now) => now.revision),
      ...replacements(fake, bootstrapValue, baseline, options, forget),
      catchUp: onClock(
        options,
        Effect.flatMap(caughtUp, (changed) => (changed && journal !== undefined ? notSavedDies(journal) : Effect.void))
      ),
      connect: (endpointId) =>
        durably(
          options,
          change(fake, (dice) => connect(endpointId, dice), computeEndpointOperations)
        ),
      clock: Option.map(Option.fromNullable(options.clock), (clock) => syncedClock(clock, journal))
    })
  })

/**
 * The fake as a Layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (seed: Seed = {}, options: Options = {}): Layer.Layer<FakePlatform, InvalidSeed> =>
  Layer.effect(FakePlatform, make(seed, options))

/**
 * Serves the fake on the `HttpServer` in context (e.g. `NodeHttpServer.layer(createServer,
 * { port: 0, host: "127.0.0.1" })`); its base URL is the server's address + `/api/v2`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerServer: Layer.Layer<never, never, FakePlatform | HttpServer.HttpServer> = Layer.unwrapEffect(
  Effect.map(FakePlatform, (fake) => HttpServer.serve(fake.httpApp))
)

/**
 * The base URL of the fake served on the `HttpServer` in context, e.g.
 * `http://127.0.0.1:43123/api/v2`.
 *
 * @since 0.1.0
 */
export const serverBaseUrl: Effect.Effect<string, never, HttpServer.HttpServer> = HttpServer.addressWith((address) =>
  Effect.succeed(
    address._tag === "TcpAddress"
      ? `http://${address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname}:${address.port}${Endpoint.basePath}`
      : `http://localhost${Endpoint.basePath}`
  )
)

/**
 * The fake's log sequence number of the time `at` (since 0.5.0): the fake has no write-ahead
 * log, so its LSN is its clock, monotone in time and the same on every branch
 * (docs/contract.md §24.3). Pass it as `lsn` or `base_lsn` of `GET .../schema` and
 * `GET .../compare_schema` to read a schema as it was at `at`.
 *
 * @since 0.5.0
 */
export const lsnAt = (at: DateTime.DateTime): string => lsnAtMillis(DateTime.toEpochMillis(at))
