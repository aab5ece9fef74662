/**
 * What the demo command (`dbplatform-demo`) needs around `@effect/cli`'s
 * `Command.run`: the version read from the package's own `package.json`, a help text without
 * `@effect/cli`'s filler lines, no escape codes where they would show as garbage (output that is
 * not a terminal, or `NO_COLOR` set), one failure line from core's `ErrorLine`, and a Ctrl-C
 * that ends the command with exit code 0 and nothing on stderr but the command's own lines.
 * The same as `packages/emulator/src/bin/internal/commandLine.ts` (the demo does not depend on
 * the emulator): change both.
 */
import { stripVTControlCharacters } from "node:util"
import { CliConfig, Command } from "@effect/cli"
import type * as HelpDoc from "@effect/cli/HelpDoc"
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
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
 * Whether text written to `stream` may hold escape codes (colours, bold, a line rewritten in
 * place): `stream` is a terminal and `NO_COLOR` is unset or empty (https://no-color.org).
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
 * The `version` of the package named `name`: from the nearest `package.json` with that name
 * above `moduleUrl` (`import.meta.url`), so the same code reads it from `src/bin`, from
 * `dist/esm/bin` (bundled or not) and from an installed package.
 */
export const packageVersion = (name: string, moduleUrl: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    let dir = path.dirname(yield* path.fromFileUrl(new URL(moduleUrl)))
    while (true) {
      const file = path.join(dir, "package.json")
      if (yield* fs.exists(file)) {
        const json = yield* Effect.option(Effect.flatMap(fs.readFileString(file), Schema.decodeUnknown(PackageJson)))
        if (Option.isSome(json) && json.value.name === name) return json.value.version
      }
      const parent = path.dirname(dir)
      if (parent === dir) return yield* Effect.fail(new Error(`no package.json of ${name} above ${moduleUrl}`))
      dir = parent
    }
  })

/**
 * Ends a run that failed: prints `<name> failed: <reason>` on stderr (core's
 * `ErrorLine.failure`, `verbose` as given) and sets exit code 1. A run only interrupted
 * (Ctrl-C, SIGINT, SIGTERM) is not a failure: nothing is printed, and the exit code stays 0.
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
 * code 130 at once.
 */
const ignoreEchoedSignals = () => {
  let first: number | undefined
  const onSignal = () => {
    const now = Date.now()
    if (first === undefined) first = now
    else if (now - first > sameSignalMillis) process.exit(130)
  }
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)
}

/**
 * Runs `command` with `process.argv` as `name`, at the package's version, with `footer` at the
 * end of `--help` (exit codes, examples); `@effect/cli`'s own options (`--completions`,
 * `--log-level`, `--wizard`) are left out of the help. A failure (a bad flag included) prints
 * one line on stderr and exits 1 (see {@link reportFailure}); Ctrl-C exits 0.
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
