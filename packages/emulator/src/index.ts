/**
 * `@dbplatform/emulator`: the fake control API v2 of `@dbplatform/testing` served on a loopback
 * port (`dbplatform-emulator`), with a state file kept across restarts and a load generator.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Emulator from "./Emulator.js"
/** @since 0.1.0 */
export * as Load from "./Load.js"
/** @since 0.1.0 */
export * as StateFile from "./StateFile.js"
