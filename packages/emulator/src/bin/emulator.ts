#!/usr/bin/env node
/**
 * `dbplatform-emulator`: serves the fake control API v2 on a loopback port until stopped
 * (Ctrl-C, SIGINT or SIGTERM: a clean shutdown that saves the state file; with `--state`, every
 * change is on disk before it is answered, so a crash loses nothing acknowledged; a change that
 * cannot be saved stops it with exit code 1), and prints its base URL and a bootstrap API key on
 * stdout:
 *
 * ```
 * dbplatform-emulator: serving the control API v2 (seed: built-in realistic account; state: none)
 * DBPLATFORM_BASE_URL=http://127.0.0.1:4010/api/v2
 * DBPLATFORM_API_KEY=6f1c...
 * DBPLATFORM_EMULATOR_URL=http://127.0.0.1:4010/_emulator
 * DBPLATFORM_EMULATOR_TOKEN=9b2e...
 * ```
 *
 * Flags: `--port` (0: any free port), `--host` (127.0.0.1; any other address than a loopback one,
 * 127.0.0.0/8, `::1` or `localhost`, prints a warning on stderr), `--seed FILE` (JSON, `Seed.SeedFile`),
 * `--state FILE`, `--rate-limit platform` (the platform's published limits: 700 requests a minute
 * per account, 40 a second per route; docs/contract.md §10.2) or
 * `--rate-limit account=LIMIT/INTERVAL,route=LIMIT/INTERVAL` (either or both, e.g.
 * `account=700/1m,route=40/1s`). The environment
 * variable `DBPLATFORM_EMULATOR_KEY` fixes the bootstrap key's value (it is then not printed);
 * `DBPLATFORM_EMULATOR_ORG_KEY` the value of a key of the account's organization (docs/contract.md
 * §21), valid at every start; without it a line says how to create one.
 * The control API (`/_emulator/...`, its own token printed as `DBPLATFORM_EMULATOR_TOKEN`, or
 * fixed by that environment variable) is on when `--host` is a loopback address; `--control`
 * turns it on elsewhere, `--no-control` off.
 * `--verbose` adds to a failure line what its message leaves out (the cause chain).
 *
 * `--env` starts it in the background instead (a detached process: Ctrl-C in the terminal does
 * not reach it) and prints only `export NAME='value'` lines on stdout, for a shell's `eval`:
 * `DBPLATFORM_BASE_URL`, `DBPLATFORM_API_KEY` (unless fixed), `DBPLATFORM_EMULATOR_URL` and
 * `DBPLATFORM_EMULATOR_TOKEN` (unless fixed, or the control API is off), and
 * `DBPLATFORM_EMULATOR_PID`, the process to stop with `kill`; everything else goes to stderr. It
 * exits 0 once the emulator serves, or with the emulator's exit code when it cannot start:
 *
 * ```
 * eval "$(dbplatform-emulator --env --state ./emulator-state.json)"
 * kill "$DBPLATFORM_EMULATOR_PID"
 * ```
 *
 * Exit codes: 0 after Ctrl-C, SIGINT or SIGTERM (a clean stop, the state file saved; a second
 * signal within a second, such as the copy `pnpm` forwards, is the same stop); 1 when it cannot
 * start (bad flags, seed or state file, port taken) or a change cannot be saved, with a one-line
 * reason on stderr (core's `ErrorLine`); 130 when a signal comes again later, during shutdown.
 */
import { Command, HelpDoc, Options, Span } from "@effect/cli"
import * as FileSystem from "@effect/platform/FileSystem"
import { type FakePlatform, Seed } from "@dbplatform/testing"
import * as Config from "effect/Config"
import * as Console from "effect/Console"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Emulator from "../Emulator.js"
import { exportLine, isBackgroundChild, reportReady, startInBackground } from "../internal/background.js"
import { isLoopback } from "../internal/host.js"
import { describeRateLimit, RateLimitFlag } from "../internal/rateLimitFlag.js"
import { reportFailure, runMain } from "../CommandLine.js"

const port = Options.integer("port").pipe(
  Options.withPseudoName("PORT"),
  Options.withDescription("TCP port to listen on; 0 (the default) picks any free port. Example: --port 4010"),
  Options.withDefault(0)
)
const host = Options.text("host").pipe(
  Options.withPseudoName("ADDRESS"),
  Options.withDescription(
    "Address to listen on: 127.0.0.1 by default; any address but a loopback one (127.0.0.0/8, ::1, localhost) prints a warning, as other machines can then reach the emulator. Example: --host ::1"
  ),
  Options.withDefault("127.0.0.1")
)
const seed = Options.file("seed", { exists: "yes" }).pipe(
  Options.withPseudoName("FILE"),
  Options.withDescription(
    "A seed file (JSON: bootstrapKey?, projects[], operations[]); the built-in realistic account otherwise. Example: --seed ./seed.json"
  ),
  Options.optional
)
const state = Options.file("state").pipe(
  Options.withPseudoName("FILE"),
  Options.withDescription(
    "Keep keys (hashes only), projects and operations in this file across restarts and crashes: each change is on disk (fsync) before it is answered. Example: --state ./emulator-state.json"
  ),
  Options.optional
)
const rateLimit = Options.text("rate-limit").pipe(
  Options.withPseudoName("LIMITS"),
  Options.withSchema(RateLimitFlag),
  Options.withDescription(
    "Rate limit modelled on the platform's: platform (700/1m per account + 40/1s per route), or account=LIMIT/INTERVAL,route=LIMIT/INTERVAL (either or both; units ms, s, m, h): past it, 429 with Retry-After. Example: --rate-limit account=700/1m,route=40/1s"
  ),
  Options.optional
)

const control = Options.boolean("control").pipe(
  Options.withDescription(
    "Serve the control API (/_emulator: reset, seed, faults, clock, request log) even on a non-loopback --host. Example: --host 0.0.0.0 --control"
  )
)
const noControl = Options.boolean("no-control").pipe(
  Options.withDescription(
    "Do not serve the control API, even on loopback (where it is on by default). Example: --no-control"
  )
)
const env = Options.boolean("env").pipe(
  Options.withDescription(
    `Start in the background and print only shell lines on stdout, export DBPLATFORM_BASE_URL='...' and the others (and DBPLATFORM_EMULATOR_PID, to stop it with kill), for eval; the rest goes to stderr. It exits 0 once the emulator serves, 1 if it cannot start. Example: --env, as in eval "$(dbplatform-emulator --env --port 4010)"`
  )
)
const verbose = Options.boolean("verbose").pipe(
  Options.withDescription(
    "On failure, also print what the one-line reason leaves out (the route template, the error code, the cause chain). Example: --verbose"
  )
)
/**
 * A line of what the emulator prints once it serves: a variable and its value; a variable whose
 * value was given (not printed: the user has it); a note.
 */
type Line = Data.TaggedEnum<{
  Variable: { readonly name: string; readonly value: string }
  Given: { readonly name: string; readonly from: string }
  Note: { readonly text: string }
}>
const Line = Data.taggedEnum<Line>()

/** The seed from `--seed FILE`, or the built-in realistic account. */
const seedFrom = (path: Option.Option<string>) =>
  Option.match(path, {
    onNone: () => Effect.succeed(Seed.realistic()),
    onSome: (file) =>
      Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFileString(file)).pipe(
        Effect.flatMap(Seed.fromJson),
        Effect.mapError((error) =>
          error._tag === "InvalidSeed"
            ? new Seed.InvalidSeed({ problems: error.problems.map((problem) => `${file}: ${problem}`) })
            : error
        )
      )
  })

const command = Command.make(
  "dbplatform-emulator",
  { port, host, seed, state, rateLimit, control, noControl, env, verbose },
  ({ port, host, seed, state, rateLimit, control, noControl, env, verbose }) =>
    Effect.gen(function* () {
      if (control && noControl) {
        return yield* Effect.fail(new Error("--control and --no-control exclude each other"))
      }
      // `--env`: this process starts the emulator in the background and prints its variables.
      const background = env && (yield* isBackgroundChild)
      if (env && !background) {
        const started = yield* startInBackground
        if (started._tag === "Exited") {
          return yield* Effect.sync(() => {
            process.exitCode = started.code
          })
        }
        return yield* Console.log(started.variables.map(exportLine).join("\n"))
      }
      const given = yield* Config.option(Config.redacted("DBPLATFORM_EMULATOR_KEY"))
      const givenToken = yield* Config.option(Config.redacted("DBPLATFORM_EMULATOR_TOKEN"))
      const givenOrgKey = yield* Config.option(Config.redacted("DBPLATFORM_EMULATOR_ORG_KEY"))
      const limit: FakePlatform.RateLimit | undefined = Option.getOrUndefined(rateLimit)
      const options: Emulator.Options = {
        port,
        host,
        seed: yield* seedFrom(seed),
        statePath: Option.getOrUndefined(state),
        rateLimit: limit,
        bootstrapKey: Option.getOrUndefined(given),
        organizationKey: Option.getOrUndefined(givenOrgKey),
        control: control ? true : noControl ? false : undefined,
        controlToken: Option.getOrUndefined(givenToken)
      }
      yield* Effect.gen(function* () {
        const emulator = yield* Emulator.Emulator
        const source = emulator.restored
          ? `state: restored from ${Option.getOrThrow(state)}`
          : `seed: ${Option.getOrElse(seed, () => "built-in realistic account")}; state: ${Option.getOrElse(state, () => "none")}`
        const header = `dbplatform-emulator: serving the control API v2 (${source}${limit === undefined ? "" : `; rate limit ${describeRateLimit(limit)}`})`
        const lines: ReadonlyArray<Line> = [
          Line.Variable({ name: "DBPLATFORM_BASE_URL", value: emulator.baseUrl }),
          // Printed once, on purpose: the emulator's own test key, not a real platform key.
          Option.isSome(given)
            ? Line.Given({ name: "DBPLATFORM_API_KEY", from: "DBPLATFORM_EMULATOR_KEY" })
            : Line.Variable({ name: "DBPLATFORM_API_KEY", value: Redacted.value(emulator.bootstrapKey) }),
          // An organization key (docs/contract.md §21): the one given, or how to make one.
          ...Option.match(emulator.organizationId, {
            onNone: () => [],
            onSome: (orgId) =>
              Option.isSome(givenOrgKey)
                ? [
                    Line.Given({ name: "DBPLATFORM_ORG_API_KEY", from: "DBPLATFORM_EMULATOR_ORG_KEY" }),
                    Line.Note({ text: `DBPLATFORM_ORG_API_KEY is a key of the organization ${orgId}` })
                  ]
                : [
                    Line.Note({
                      text: `an organization API key: POST /organizations/${orgId}/api_keys {"key_name":"ci"} (add "project_id" for one project's) with DBPLATFORM_API_KEY; DBPLATFORM_EMULATOR_ORG_KEY fixes one`
                    })
                  ]
          }),
          ...Option.match(emulator.controlUrl, {
            onNone: () => [
              Line.Note({
                text: `control API off (${noControl ? "--no-control" : `--host ${host} is not a loopback address; --control turns it on`})`
              })
            ],
            onSome: (url) => [
              Line.Variable({ name: "DBPLATFORM_EMULATOR_URL", value: url }),
              // Printed once, like the bootstrap key: the emulator's own credential, not an API key.
              Option.isSome(givenToken)
                ? Line.Given({ name: "DBPLATFORM_EMULATOR_TOKEN", from: "DBPLATFORM_EMULATOR_TOKEN" })
                : Line.Variable({
                    name: "DBPLATFORM_EMULATOR_TOKEN",
                    value: Option.getOrThrow(Option.map(emulator.controlToken, Redacted.value))
                  })
            ]
          })
        ]
        if (background) {
          // stdout is the parent's to write: this process says everything else on stderr.
          yield* Console.error(
            [
              `${header}, in the background as process ${process.pid}: stop it with kill $DBPLATFORM_EMULATOR_PID`,
              ...lines.flatMap((line) =>
                line._tag === "Variable"
                  ? []
                  : [
                      `dbplatform-emulator: ${line._tag === "Note" ? line.text : `${line.name} is the value of ${line.from} (not printed)`}`
                    ]
              )
            ].join("\n")
          )
          yield* reportReady([
            ...lines.flatMap((line) => (line._tag === "Variable" ? [line] : [])),
            { name: "DBPLATFORM_EMULATOR_PID", value: String(process.pid) }
          ])
        } else {
          yield* Console.log(
            [
              header,
              ...lines.map((line) =>
                Line.$match(line, {
                  Variable: ({ name, value }) => `${name}=${value}`,
                  Given: ({ name, from }) => `${name} is the value of ${from}`,
                  Note: ({ text }) => `dbplatform-emulator: ${text}`
                })
              )
            ].join("\n")
          )
        }
        if (!isLoopback(host)) {
          yield* Console.error(
            `dbplatform-emulator: warning: --host ${host} is not a loopback address, so other machines can reach the emulator: anyone who can connect and has the bootstrap API key can read and change the whole fake account${Option.isSome(emulator.controlUrl) ? " (and, with the control token, reset it: --control is on)" : ""}. Use --host 127.0.0.1 (the default) unless that is what you want.`
          )
        }
        yield* Effect.addFinalizer(() => Console.error("dbplatform-emulator: stopped"))
        // Runs until stopped, or until a change cannot be saved (then exits 1).
        return yield* emulator.failed
      }).pipe(Effect.scoped, Effect.provide(Emulator.layer(options)))
    }).pipe(Effect.catchAllCause(reportFailure("dbplatform-emulator", { verbose })))
).pipe(
  Command.withDescription(
    HelpDoc.blocks([
      HelpDoc.p(
        "Serves the fake control API v2 on a loopback port until stopped (Ctrl-C), and prints its base URL and a bootstrap API key (set DBPLATFORM_EMULATOR_KEY to fix the key; it is then not printed), and the control API's URL and token (DBPLATFORM_EMULATOR_TOKEN fixes it)."
      ),
      HelpDoc.p(Span.code("$ dbplatform-emulator --port 4010 --state ./emulator-state.json")),
      HelpDoc.p(Span.code("$ DBPLATFORM_EMULATOR_KEY=dev-key dbplatform-emulator --rate-limit platform")),
      HelpDoc.p(
        "DBPLATFORM_EMULATOR_ORG_KEY fixes the value of an organization API key of the account's organization (not printed); without it, a line says how to create one."
      ),
      HelpDoc.p(
        "With --env it starts in the background and prints only export lines for a shell (stop it with kill $DBPLATFORM_EMULATOR_PID):"
      ),
      HelpDoc.p(Span.code('$ eval "$(dbplatform-emulator --env --state ./emulator-state.json)"'))
    ])
  )
)

runMain(command, {
  name: "dbplatform-emulator",
  packageName: "@dbplatform/emulator",
  moduleUrl: import.meta.url,
  footer: HelpDoc.blocks([
    HelpDoc.h1("EXIT CODES"),
    HelpDoc.descriptionList([
      [
        Span.text("0"),
        HelpDoc.p(
          "Stopped by Ctrl-C, SIGINT or SIGTERM: a clean shutdown, the state file saved. With --env: the emulator serves, in the background."
        )
      ],
      [
        Span.text("1"),
        HelpDoc.p(
          "Could not start (bad flags, seed or state file, port taken), or a change could not be saved: one line on stderr says why."
        )
      ],
      [Span.text("130"), HelpDoc.p("A second signal more than a second after the first, during shutdown.")]
    ])
  ])
})
