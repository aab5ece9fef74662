#!/usr/bin/env node
/**
 * `dbplatform-demo`: with no arguments, serves the fake platform on a loopback port and tours
 * the SDK against it over real HTTP. With `--base-url` (and `DBPLATFORM_API_KEY`), runs the
 * read-only part of the tour against that server.
 */
import { createServer } from "node:http"
import { Command, Options, ValidationError } from "@effect/cli"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { DbPlatform } from "@dbplatform/client"
import { Endpoint, ErrorLine, ProjectId } from "@dbplatform/core"
import { Fault, FakePlatform, Seed } from "@dbplatform/testing"
import * as Cause from "effect/Cause"
import * as Config from "effect/Config"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as HashMap from "effect/HashMap"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import { tour } from "./Tour.js"

const baseUrl = Options.text("base-url").pipe(
  Options.withDescription(
    "Tour this server (read-only) instead of the built-in fake; the key comes from DBPLATFORM_API_KEY"
  ),
  Options.optional
)
const project = Options.text("project").pipe(
  Options.withSchema(ProjectId),
  Options.withDescription("The project whose operations are toured; the first listed by default"),
  Options.optional
)

/** The real client over `fetch`, for one base URL and key. */
const client = (url: string) => (apiKey: Redacted.Redacted<string>) =>
  DbPlatform.layer({ baseUrl: url, apiKey }).pipe(Layer.provide(FetchHttpClient.layer))

/** The client's retries, which it logs at Debug, printed as a line of the tour. */
const retries = Logger.replace(
  Logger.defaultLogger,
  Logger.make(({ annotations, logLevel, message }) => {
    if (logLevel._tag !== "Debug") return
    const status = Option.getOrElse(HashMap.get(annotations, "status"), () => "no response")
    const text = Array.isArray(message) ? message.join(" ") : String(message)
    process.stdout.write(`  (${String(status)} from the server: ${text})\n`)
  })
)

/** The fake, seeded with a realistic account, served on 127.0.0.1 on a free port. */
const FakeServer = FakePlatform.layerServer.pipe(
  Layer.provideMerge(FakePlatform.layer(Seed.realistic())),
  Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
)

const againstFake = (projectId: Option.Option<ProjectId>) =>
  Effect.gen(function* () {
    const fake = yield* FakePlatform.FakePlatform
    const url = yield* FakePlatform.serverBaseUrl
    yield* Console.log(`Serving the fake platform at ${url}`)
    // the platform is rate limited: the fake answers the first project listing with a 429
    yield* fake.faults.inject(Fault.status(429, { headers: { "retry-after": "1" } }), {
      method: "GET",
      path: Endpoint.listProjects.route
    })
    const clientFor = client(url)
    yield* tour({ clientFor, projectId: Option.getOrUndefined(projectId) }).pipe(
      Effect.provide(clientFor(fake.bootstrapKey)),
      Effect.provide(retries),
      Logger.withMinimumLogLevel(LogLevel.Debug)
    )
  }).pipe(Effect.provide(FakeServer))

const againstServer = (url: string, projectId: Option.Option<ProjectId>) =>
  Effect.gen(function* () {
    const apiKey = yield* Config.redacted("DBPLATFORM_API_KEY")
    yield* Console.log(`Touring ${url} (read-only)`)
    yield* tour({ projectId: Option.getOrUndefined(projectId) }).pipe(
      Effect.provide(client(url)(apiKey)),
      Effect.provide(retries),
      Logger.withMinimumLogLevel(LogLevel.Debug)
    )
  })

const command = Command.make("dbplatform-demo", { baseUrl, project }, ({ baseUrl, project }) =>
  Option.match(baseUrl, { onNone: () => againstFake(project), onSome: (url) => againstServer(url, project) })
)

Command.run(command, { name: "dbplatform-demo", version: "0.1.0" })(process.argv).pipe(
  Effect.catchAllCause((cause) =>
    Effect.sync(() => {
      // @effect/cli has printed what is wrong with the flags, with the help text.
      const reason = Cause.failureOption(cause).pipe(Option.exists(ValidationError.isValidationError))
        ? "invalid arguments (see above)"
        : ErrorLine.fromCause(cause)
      process.stderr.write(`dbplatform-demo failed: ${reason}\n`)
      process.exitCode = 1
    })
  ),
  Effect.provide(NodeContext.layer),
  NodeRuntime.runMain({ disableErrorReporting: true, disablePrettyLogger: true })
)
