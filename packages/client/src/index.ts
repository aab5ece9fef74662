/**
 * `@dbplatform/client`: Effect services for the control API v2 over `@effect/platform`'s
 * `HttpClient`. Provide `DbPlatform.layer(...)` or `DbPlatform.layerConfig()` and any
 * `HttpClient` Layer.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as ApiKeys from "./ApiKeys.js"
/** @since 0.1.0 */
export * as DbPlatform from "./DbPlatform.js"
/** @since 0.1.0 */
export * as DbPlatformClient from "./DbPlatformClient.js"
/** @since 0.1.0 */
export * as Operations from "./Operations.js"
/** @since 0.1.0 */
export * as Projects from "./Projects.js"
