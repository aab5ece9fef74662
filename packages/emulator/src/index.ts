/**
 * `@dbplatform/emulator`: the fake control API v2 of `@dbplatform/testing` served on a loopback
 * port (`dbplatform-emulator`), with a state file kept across restarts and a load generator.
 *
 * @since 0.1.0
 */

/**
 * What this package's commands and the repository's demo run on, around `@effect/cli`: the
 * version from `package.json`, a help without filler, no escape codes off a terminal, one
 * failure line, Ctrl-C exiting 0.
 *
 * @since 0.4.0
 */
export * as CommandLine from "./CommandLine.js"
/**
 * The emulator as a Layer: the fake served on a loopback port, its base URL and bootstrap key.
 *
 * @since 0.1.0
 */
export * as Emulator from "./Emulator.js"
/**
 * A bounded load test: concurrent clients against a running emulator, with a report of what
 * was answered and the throughput.
 *
 * @since 0.1.0
 */
export * as Load from "./Load.js"
/**
 * The `--state` file: the fake's snapshot loaded at start and saved after each change, written to
 * a temporary file and renamed, so a crash mid-write never corrupts it.
 *
 * @since 0.1.0
 */
export * as StateFile from "./StateFile.js"
