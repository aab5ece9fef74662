/**
 * What a command line built on `@effect/cli` needs around `Command.run`, as this package's
 * commands (`dbplatform-emulator`, `load`) and the repository's demo (`dbplatform-demo`) behave:
 * the version read from the package's own `package.json`, a help text without `@effect/cli`'s
 * filler lines, no escape codes where they would show as garbage (output that is not a terminal,
 * or `NO_COLOR` set), one failure line from core's `ErrorLine` with exit code 1, and a Ctrl-C
 * that ends the command with exit code 0 and nothing on stderr but the command's own lines (the
 * emulator README's "Run" section describes what a user sees). Node only.
 *
 * @since 0.4.0
 */
import { stripVTControlCharacters } from "node:util"
import { CliConfig, Command } from "@effect/cli"
import type * as HelpDoc from "@effect/cli/HelpDoc"
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import type { PlatformError } from "@effect/platform/Error"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { ErrorLine } from "@dbplatform/core"
import * as Cause from "effect/Cause"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"

/**
 * Whether text written to `stream` (e.g. `process.stdout`) may hold escape codes (colours, bold,
 * a line rewritten in place): `stream` is a terminal (`isTTY`) and `NO_COLOR` is unset or empty
 * (https://no-color.org).
 *
 * @since 0.4.0
 * @category output
 */
export const escapeCodes = (stream: { readonly isTTY?: boolean | undefined }): boolean =>
  stream.isTTY === true && (process.env.NO_COLOR ?? "") === ""

/**
 * The lines `@effect/cli` puts before each flag's own description in `--help`, saying only the
 * flag's type (`A user-defined piece of text.`, `A true or false value.`, `An integer.`), with
 * their blank line. Those that say more (`An existing file.`, a list of choices) are kept.
 */
const filler =
  /^ *(?:A user-defined piece of text(?: that is confidential)?\.|A true or false value\.|An integer\.|A floating point number\.)\n\n/gm

/** `text` as written to `stream`: without the help's filler lines, and without escape codes unless {@link escapeCodes}. */
const cleaned = (stream: NodeJS.WriteStream) => (text: unknown) => {
  if (typeof text !== "string") return text
  const kept = text.replace(filler, "")
  return escapeCodes(stream) ? kept : stripVTControlCharacters(kept)
}

/** The console `effect` (and so `@effect/cli`) prints with, its `log` and `error` {@link cleaned}. */
const cleanConsole = (console: Console.Console): Console.Console => {
  const out = cleaned(process.stdout)
  const err = cleaned(process.stderr)
  return {
    ...console,
    log: (...args) => console.log(...args.map(out)),
    error: (...args) => console.error(...args.map(err)),
    unsafe: {
      ...console.unsafe,
      log: (...args) => console.unsafe.log(...args.map(out)),
      error: (...args) => console.unsafe.error(...args.map(err))
    }
  }
}

const PackageJson = Schema.parseJson(Schema.Struct({ name: Schema.String, version: Schema.String }))

/**
 * The `version` of the package named `name`: from the nearest `package.json` with that name in
 * the directory of `moduleUrl` (the command's `import.meta.url`) or above it, so the same code
 * reads it from `src/bin`, from `dist/esm/bin` (bundled or not) and from an installed package.
 * Fails with an `Error` naming the package when there is none, or with the `PlatformError` of a
 * directory that cannot be read.
 *
 * @since 0.4.0
 * @category version
 */
export const packageVersion = (
  name: string,
  moduleUrl: string
): Effect.Effect<string, Error | PlatformError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const from = (dir: string): Effect.Effect<string, Error | PlatformError> =>
      Effect.gen(function* () {
        const file = path.join(dir, "package.json")
        if (yield* fs.exists(file)) {
          const json = yield* Effect.option(Effect.flatMap(fs.readFileString(file), Schema.decodeUnknown(PackageJson)))
          if (Option.isSome(json) && json.value.name === name) return json.value.version
        }
        const parent = path.dirname(dir)
        return parent === dir
          ? yield* Effect.fail(new Error(`no package.json of ${name} above ${moduleUrl}`))
          : yield* from(parent)
      })
    return yield* from(path.dirname(yield* path.fromFileUrl(new URL(moduleUrl))))
  })

/**
 * Ends a run that failed, for `Effect.catchAllCause`: prints `<name> failed: <reason>` and a
 * newline on stderr (core's `ErrorLine.failure`, its `options` as given, e.g. `verbose`) and
 * sets exit code 1. A run only interrupted (Ctrl-C, SIGINT, SIGTERM) is not a failure: nothing
 * is printed, and the exit code stays 0.
 *
 * @since 0.4.0
 * @category running
 */
export const reportFailure =
  (name: string, options: ErrorLine.Options = {}) =>
  (cause: Cause.Cause<unknown>): Effect.Effect<void> =>
    Cause.isInterruptedOnly(cause)
      ? Effect.void
      : Effect.sync(() => {
          process.stderr.write(ErrorLine.failure(name, cause, options))
          process.exitCode = 1
        })

/**
 * A signal that comes again within this many milliseconds of the first is the same Ctrl-C: a
 * terminal sends SIGINT to every process of the foreground group, and `pnpm` forwards its own
 * copy to the command it runs.
 */
const sameSignalMillis = 1000

/**
 * Keeps a second SIGINT or SIGTERM sent with the first (see {@link sameSignalMillis}) from
 * killing the process while it shuts down, which the shell and `pnpm` would report as a failure
 * (`ELIFECYCLE Command failed`). `NodeRuntime.runMain` handles the first signal (it interrupts
 * the program, which then exits 0); a signal sent later than that is a user insisting: exit
 * code 130 at once. The first signal's handler puts the later signals' one in its place (a
 * listener added while a signal is handled does not see that signal).
 */
const ignoreEchoedSignals = () => {
  const signals = ["SIGINT", "SIGTERM"] as const
  const onFirst = () => {
    const first = Date.now()
    const onLater = () => {
      if (Date.now() - first > sameSignalMillis) process.exit(130)
    }
    for (const signal of signals) process.off(signal, onFirst).on(signal, onLater)
  }
  for (const signal of signals) process.on(signal, onFirst)
}

/**
 * Runs `command` on `process.argv` as the program `name`, until it ends (`NodeRuntime.runMain`):
 * its `--version` is the `version` of the package `packageName` found from `moduleUrl` (the
 * command's `import.meta.url`; see {@link packageVersion}; `unknown` when there is none), and
 * `footer` ends its `--help` (exit codes, examples). `@effect/cli`'s own options
 * (`--completions`, `--log-level`, `--wizard`) are left out of the help, and so are its filler
 * lines; nothing it prints holds escape codes unless {@link escapeCodes}. A failure (a bad flag
 * included) prints one line on stderr and exits 1 (see {@link reportFailure}); Ctrl-C, SIGINT or
 * SIGTERM interrupts the command and exits 0, and the copy of the signal `pnpm` forwards right
 * after the terminal's is the same stop (a signal more than a second later exits 130 at once).
 *
 * @since 0.4.0
 * @category running
 */
export const runMain = <Name extends string, E, A>(
  command: Command.Command<Name, NodeContext.NodeContext, E, A>,
  options: {
    readonly name: string
    readonly packageName: string
    readonly moduleUrl: string
    readonly footer: HelpDoc.HelpDoc
  }
): void => {
  ignoreEchoedSignals()
  Effect.gen(function* () {
    // A copy of the command away from its package still runs (and shows its help).
    const version = yield* Effect.orElseSucceed(packageVersion(options.packageName, options.moduleUrl), () => "unknown")
    const console = yield* Effect.console
    return yield* Command.run(command, { name: options.name, version, footer: options.footer })(process.argv).pipe(
      Effect.withConsole(cleanConsole(console))
    )
  }).pipe(
    Effect.catchAllCause(reportFailure(options.name)),
    Effect.provide(Layer.mergeAll(NodeContext.layer, CliConfig.layer({ showBuiltIns: false }))),
    NodeRuntime.runMain({ disableErrorReporting: true, disablePrettyLogger: true })
  )
}
