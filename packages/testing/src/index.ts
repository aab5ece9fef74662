/**
 * `@dbplatform/testing`: a faithful in-memory fake of the control API v2, as Layers and as an
 * HTTP app to serve.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as DbPlatformTest from "./DbPlatformTest.js"
/** @since 0.1.0 */
export * as FakeHttpClient from "./FakeHttpClient.js"
/** @since 0.1.0 */
export * as FakePlatform from "./FakePlatform.js"
/** @since 0.1.0 */
export * as Fault from "./Fault.js"
/** @since 0.2.0 */
export * as Scenario from "./Scenario.js"
/** @since 0.1.0 */
export * as Seed from "./Seed.js"
/** @since 0.2.0 */
export * as Snapshot from "./Snapshot.js"
