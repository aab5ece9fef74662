/**
 * `@dbplatform/testing`: a faithful in-memory fake of the control API v2, as Layers and as an
 * HTTP app to serve.
 *
 * @since 0.1.0
 */

/**
 * The fake's control API over HTTP (`/_emulator/...`): reset, seed, snapshot and restore,
 * scenarios, faults, the clock and the request log, as JSON routes for tests in any language.
 *
 * @since 0.2.0
 */
export * as ControlApi from "./ControlApi.js"
/**
 * A `Clock` a control plane can freeze, advance and resume; the emulator runs the fake on it.
 *
 * @since 0.2.0
 */
export * as ControlledClock from "./ControlledClock.js"
/**
 * The one Layer a test needs: the fake, an in-memory `HttpClient` routed to it, and the client
 * services.
 *
 * @since 0.1.0
 */
export * as DbPlatformTest from "./DbPlatformTest.js"
/**
 * How the fake reads SQL DDL (migrations, seeds' schemas): in the calling thread by default, or
 * with a parser given (the emulator's runs in a worker thread); and the limits on what it reads.
 *
 * @since 0.6.0
 */
export * as DdlParser from "./DdlParser.js"
/**
 * An `HttpClient` answered in memory by an `HttpApp` (the fake's), no sockets.
 *
 * @since 0.1.0
 */
export * as FakeHttpClient from "./FakeHttpClient.js"
/**
 * The fake platform: in-memory state, its HTTP app, `layer(seed)` and `layerServer` to serve it on
 * a port.
 *
 * @since 0.1.0
 */
export * as FakePlatform from "./FakePlatform.js"
/**
 * Faults the fake answers with on demand: an error status with any body, a delay, a request that
 * never answers, a dropped connection, malformed JSON.
 *
 * @since 0.1.0
 */
export * as Fault from "./Fault.js"
/**
 * Scenarios on a running fake: add projects and keys, start operations as a mutating request
 * would, fail or cancel them.
 *
 * @since 0.1.0
 */
export * as Scenario from "./Scenario.js"
/**
 * Seeds of the fake: `empty`, `realistic(options)`, seed files (`fromJson`), and the shapes of
 * seeded projects and operations.
 *
 * @since 0.1.0
 */
export * as Seed from "./Seed.js"
/**
 * The fake's state as data (keys as hashes only, projects, operations), to save and restore.
 *
 * @since 0.1.0
 */
export * as Snapshot from "./Snapshot.js"
