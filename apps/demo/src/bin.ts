#!/usr/bin/env node
/**
 * `dbplatform-demo`: with no arguments, serves the fake platform on a loopback port, runs the
 * preview-branch workflow against it over real HTTP, then tours the SDK. With `--base-url` (and `DBPLATFORM_API_KEY`), runs the
 * read-only part of the tour against that server.
 *
 * Exit codes: 0 when the tour completed, or was stopped by Ctrl-C; 1 when it failed, with one
 * line on stderr (core's `ErrorLine`; `--verbose` adds the cause chain).
 */
import { createServer } from "node:http"
import { Command, HelpDoc, Options, Span } from "@effect/cli"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { DbPlatform } from "@dbplatform/client"
import { Api, isPending, ProjectId } from "@dbplatform/core"
import { Fault, FakePlatform, Seed } from "@dbplatform/testing"
import * as Clock from "effect/Clock"
import * as Config from "effect/Config"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import { escapeCodes, reportFailure, runMain } from "@dbplatform/emulator/CommandLine"
import { retryLog } from "./internal/retryLog.js"
import { previewBranch } from "./PreviewBranch.js"
import { tour } from "./Tour.js"

const baseUrl = Options.text("base-url").pipe(
  Options.withPseudoName("URL"),
  Options.withDescription(
    "Tour this server (read-only: nothing is created or revoked) instead of the built-in fake; the API key comes from DBPLATFORM_API_KEY. Example: --base-url https://console.example.com/api/v2"
  ),
  Options.optional
)
const project = Options.text("project").pipe(
  Options.withPseudoName("PROJECT_ID"),
  Options.withSchema(ProjectId),
  Options.withDescription(
    "The project whose operations are toured; the first listed by default. Example: --project bold-dawn-433334"
  ),
  Options.optional
)
const verbose = Options.boolean("verbose").pipe(
  Options.withDescription(
    "On failure, also print what the one-line reason leaves out (the route template, the error code, the cause chain). Example: --verbose"
  )
)

/**
 * The real client over `fetch`, for one base URL and key, counting in `sent` every request it
 * sends (retries included), and in `polls`, when given, those that read operations.
 */
const client = (url: string, sent: Ref.Ref<number>, polls?: Ref.Ref<number>) => (apiKey: Redacted.Redacted<string>) =>
  DbPlatform.layer({ baseUrl: url, apiKey }).pipe(
    Layer.provide(
      Layer.effect(
        HttpClient.HttpClient,
        Effect.map(
          HttpClient.HttpClient,
          HttpClient.tapRequest((request) =>
            Effect.zipRight(
              Ref.update(sent, (n) => n + 1),
              polls !== undefined && request.url.includes("/operations") ? Ref.update(polls, (n) => n + 1) : Effect.void
            )
          )
        )
      )
    ),
    Layer.provide(FetchHttpClient.layer)
  )

/** The fake, seeded with a realistic account, served on 127.0.0.1 on a free port. */
const FakeServer = FakePlatform.layerServer.pipe(
  Layer.provideMerge(FakePlatform.layer(Seed.realistic())),
  Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
)

/**
 * The project of the fake the preview-branch workflow runs on: one of the account's organizations
 * with no pending operation (a pending one locks a project's changes, docs/contract.md §11.6). The realistic seed gives its
 * default branch the role `neondb_owner` and the database `neondb`, which the branch created
 * from it copies and its connection string names.
 */
const workflowProject = (fake: FakePlatform.Service) =>
  Effect.gen(function* () {
    const snapshot = yield* fake.snapshot
    const now = yield* Clock.currentTimeMillis
    const busy = new Set(
      snapshot.operations
        .filter((operation) => {
          const last = operation.steps[operation.steps.length - 1]!
          return last.at > now || isPending(last)
        })
        .map((operation) => operation.project_id)
    )
    // A project of an organization the account's user (`you@example.com`) is a member of: the
    // bootstrap key reaches those only (docs/contract.md §21).
    const reached = new Set(
      snapshot.members.filter((member) => member.email === "you@example.com").map((member) => member.org_id)
    )
    const project = snapshot.projects.find(
      (project) =>
        project.shared !== true && project.org_id !== undefined && reached.has(project.org_id) && !busy.has(project.id)
    )
    const main = snapshot.branches.find((branch) => branch.project_id === project?.id && branch.default)
    if (project === undefined || main === undefined) return Option.none<ProjectId>()
    return Option.some(ProjectId.make(project.id))
  })

/** One line per poll round: rewritten in place on a terminal, kept when piped. */
const progress = () => (escapeCodes(process.stdout) ? "live" : "lines")

const againstFake = (projectId: Option.Option<ProjectId>) =>
  Effect.gen(function* () {
    const fake = yield* FakePlatform.FakePlatform
    const url = yield* FakePlatform.serverBaseUrl
    const sent = yield* Ref.make(0)
    const polls = yield* Ref.make(0)
    yield* Console.log(`Serving the fake platform at ${url}`)
    const previewProject = yield* workflowProject(fake)
    if (Option.isSome(previewProject)) {
      yield* previewBranch({ projectId: previewProject.value, pollRequests: Ref.get(polls) }).pipe(
        Effect.provide(client(url, sent, polls)(fake.bootstrapKey)),
        Effect.provide(retryLog(0, progress() === "live")),
        Logger.withMinimumLogLevel(LogLevel.Debug)
      )
      // The realistic seed's operations are timed from when it is put in place: put back, the
      // tour finds its pending ones pending, as without the workflow before it.
      yield* fake.reset
    }
    // the platform is rate limited: to show the client retrying, the fake answers the first
    // project listing with a 429
    yield* fake.faults.inject(Fault.status(429, { headers: { "retry-after": "1" } }), {
      method: "GET",
      path: Api.Projects.list.route
    })
    const clientFor = client(url, sent)
    yield* tour({
      clientFor,
      projectId: Option.getOrUndefined(projectId),
      requests: Ref.get(sent),
      progress: progress()
    }).pipe(
      Effect.provide(clientFor(fake.bootstrapKey)),
      Effect.provide(retryLog(1, progress() === "live")),
      Logger.withMinimumLogLevel(LogLevel.Debug)
    )
  }).pipe(Effect.provide(FakeServer))

const againstServer = (url: string, projectId: Option.Option<ProjectId>) =>
  Effect.gen(function* () {
    const apiKey = yield* Config.redacted("DBPLATFORM_API_KEY")
    const sent = yield* Ref.make(0)
    // Named by origin and path only: a user name, password or query is never printed (the
    // client refuses them, with InvalidBaseUrl).
    const parsed = URL.canParse(url) ? new URL(url) : undefined
    const shown = parsed === undefined ? "the server" : `${parsed.origin}${parsed.pathname}`
    yield* Console.log(`Touring ${shown} (read-only)`)
    yield* tour({ projectId: Option.getOrUndefined(projectId), requests: Ref.get(sent), progress: progress() }).pipe(
      Effect.provide(client(url, sent)(apiKey)),
      Effect.provide(retryLog(0, progress() === "live")),
      Logger.withMinimumLogLevel(LogLevel.Debug)
    )
  })

const command = Command.make("dbplatform-demo", { baseUrl, project, verbose }, ({ baseUrl, project, verbose }) =>
  Option.match(baseUrl, { onNone: () => againstFake(project), onSome: (url) => againstServer(url, project) }).pipe(
    Effect.onInterrupt(() => Console.error("dbplatform-demo: stopped")),
    Effect.catchAllCause(reportFailure("dbplatform-demo", { verbose }))
  )
).pipe(
  Command.withDescription(
    HelpDoc.blocks([
      HelpDoc.p(
        "A tour of the SDK over real HTTP: against the fake, first the preview-branch workflow (a branch with a compute endpoint, expiring in 7 days, created and waited for in one call, its connection string printed redacted, renamed, its compute endpoint suspended and started, deleted); then creates an API key, lists keys and projects (retrying a 429), walks a project's operations page by page, waits for the pending ones (one line per poll round), and sees the revoked key refused. With no flags, against a fake platform it serves on 127.0.0.1; with --base-url, read-only against that server."
      ),
      HelpDoc.p(Span.code("$ dbplatform-demo")),
      HelpDoc.p(Span.code("$ DBPLATFORM_API_KEY=... dbplatform-demo --base-url https://console.example.com/api/v2")),
      HelpDoc.p(
        "Output that is not a terminal (a pipe, a file) or NO_COLOR set: no escape codes, and the wait's progress as one plain line per poll round."
      )
    ])
  )
)

runMain(command, {
  name: "dbplatform-demo",
  packageName: "@dbplatform/demo",
  moduleUrl: import.meta.url,
  footer: HelpDoc.blocks([
    HelpDoc.h1("EXIT CODES"),
    HelpDoc.descriptionList([
      [Span.text("0"), HelpDoc.p("The tour completed, or was stopped by Ctrl-C.")],
      [
        Span.text("1"),
        HelpDoc.p(
          "The tour failed (a call failed, DBPLATFORM_API_KEY missing with --base-url) or a flag is wrong: one line on stderr says why."
        )
      ]
    ])
  ])
})
