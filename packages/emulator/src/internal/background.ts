/**
 * `dbplatform-emulator --env`: the emulator started in the background, its variables printed as
 * `export` lines for a shell's `eval`, as `ssh-agent -s` does: `eval "$(dbplatform-emulator --env)"`.
 *
 * The command (the parent) starts itself again as a detached child process, with no stdin, its
 * stdout thrown away and its stderr the parent's, and waits: for the child's variables, sent over
 * an IPC channel once it serves, which the parent prints on stdout and exits 0, leaving the child
 * serving; or for the child's exit, whose code the parent exits with (the child has said why on
 * stderr). Only the parent ever writes on stdout, and it ends once it printed: a command
 * substitution, `$(...)`, ends then too, with or without `&`.
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as Config from "effect/Config"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"

/** The environment variable the parent sets on its child: the child serves and reports. */
const childMarker = "DBPLATFORM_EMULATOR_BACKGROUND"

/** Whether this process is the child `--env` started: the marker set and an IPC channel open. */
export const isBackgroundChild: Effect.Effect<boolean> = Config.boolean(childMarker).pipe(
  Config.withDefault(false),
  Effect.orElseSucceed(() => false),
  Effect.map((marked) => marked && process.send !== undefined)
)

/** A variable the shell sets: its name, and its value (which the line quotes). */
export interface Variable {
  readonly name: string
  readonly value: string
}

/** What the child sends once it serves: the variables to print, in order. */
const Ready = Schema.Struct({ variables: Schema.Array(Schema.Struct({ name: Schema.String, value: Schema.String })) })

/**
 * `value` as one word of a POSIX shell, read back exactly: in single quotes, each `'` in it
 * written `'\''` (close the quotes, an escaped quote, open them again).
 */
export const shellQuote = (value: string): string => `'${value.replaceAll("'", "'\\''")}'`

/** `export NAME='value'`: a line `eval` runs. */
export const exportLine = ({ name, value }: Variable): string => `export ${name}=${shellQuote(value)}`

/** The child could not be started, or ended without saying why (e.g. killed by a signal). */
export class BackgroundStartError extends Data.TaggedError("BackgroundStartError")<{ readonly reason: string }> {
  override get message(): string {
    return `the emulator could not be started in the background: ${this.reason}`
  }
}

/** How the child's start ended: it serves, with its variables; or it exited, with its exit code. */
export type Started = Data.TaggedEnum<{
  Ready: { readonly variables: ReadonlyArray<Variable> }
  Exited: { readonly code: number }
}>
const Started = Data.taggedEnum<Started>()

/** Waits for `child` to send its variables or to exit; kills it when interrupted (Ctrl-C). */
const started = (child: ChildProcess) =>
  Effect.async<Started, BackgroundStartError>((resume) => {
    child.once("message", (message) => {
      const ready = Schema.decodeUnknownOption(Ready)(message)
      resume(
        Option.match(ready, {
          onNone: () =>
            Effect.fail(new BackgroundStartError({ reason: "it sent a message that is not its variables" })),
          onSome: ({ variables }) => Effect.succeed(Started.Ready({ variables }))
        })
      )
    })
    child.once("exit", (code) => resume(Effect.succeed(Started.Exited({ code: code ?? 1 }))))
    child.once("error", (error) => resume(Effect.fail(new BackgroundStartError({ reason: error.message }))))
    return Effect.sync(() => {
      child.kill("SIGTERM")
    })
  })

/**
 * The parent: starts this command again (the same Node flags, script and arguments) as a
 * detached child marked as such, waits for it to serve, and answers its variables (the child
 * then runs on its own: its IPC channel closed, not waited for). When the child exits first,
 * answers its exit code (1 when a signal ended it). Fails with `BackgroundStartError` when it
 * cannot be started, or when it stops answering in the middle; the child is then killed.
 */
export const startInBackground: Effect.Effect<Started, BackgroundStartError> = Effect.gen(function* () {
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    detached: true,
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    env: { ...process.env, [childMarker]: "true" }
  })
  const outcome = yield* started(child).pipe(
    Effect.tapError(() =>
      Effect.sync(() => {
        child.kill("SIGTERM")
      })
    )
  )
  if (outcome._tag === "Ready") {
    yield* Effect.sync(() => {
      child.disconnect()
      child.unref()
    })
  }
  return outcome
})

/**
 * The child: sends `variables` to the parent and closes the channel, so that the parent can
 * print them and exit while this process serves on. Dies when the channel is gone (the parent
 * was killed): nobody would know where the emulator serves.
 */
export const reportReady = (variables: ReadonlyArray<Variable>): Effect.Effect<void> =>
  Effect.async<void>((resume) => {
    const message: typeof Ready.Encoded = { variables }
    const sent = process.send?.(message, undefined, {}, (error) => {
      resume(error === null ? Effect.sync(() => process.disconnect?.()) : Effect.die(error))
    })
    if (sent === undefined) resume(Effect.dieMessage("no IPC channel to the parent"))
  })
