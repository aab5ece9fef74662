/**
 * No API key value, and no role password, reaches what a program observes of the client: its
 * logs (Debug and up), its spans (names, attributes, events, exits), its errors however they are
 * printed, and (for passwords, and connection strings, which carry one: docs/contract.md §13)
 * its results printed (`JSON.stringify`, `util.inspect`). Each run goes through retries and
 * failures, collecting all of it, then looks for the secrets in it.
 */
import {
  ApiKeys,
  BranchAuth,
  Buckets,
  Branches,
  Connections,
  Credentials,
  Databases,
  DbPlatform,
  Functions,
  Operations,
  OrganizationApiKeys,
  Projects,
  Roles,
  Snapshots,
  Storage
} from "@dbplatform/client"
import { Api, BranchId, ProjectId } from "@dbplatform/core"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import * as Tracer from "effect/Tracer"
import * as util from "node:util"
import * as ControlApi from "../src/ControlApi.js"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakeHttpClient from "../src/FakeHttpClient.js"
import * as FakePlatform from "../src/FakePlatform.js"
import * as Fault from "../src/Fault.js"
import type { Seed } from "../src/Seed.js"
import * as Snapshot from "../src/Snapshot.js"
import { addRolesAndDatabases, operationId, projectId, s3Get, send } from "./helpers.js"

/** A key value easy to spot, and its tail alone (a partial leak counts too). */
const bootstrapKey = `dbp_${"b00t5trap".repeat(4)}_0123456789abcdef`

const seed: Seed = {
  bootstrapKey,
  projects: [{ id: projectId }],
  operations: [1, 2, 3].map((n) => ({
    project_id: projectId,
    id: operationId(n),
    action: "start_compute",
    endpoint_id: "ep-proud-mud-a5x8dq2u",
    runsFor: `${n * 4} seconds`,
    ...(n === 3 ? { status: "failed", failures_count: 1, error: "compute start timed out" } : {})
  }))
}

/** A span as the test tracer keeps it. */
class CollectedSpan implements Tracer.Span {
  readonly _tag = "Span"
  readonly spanId: string
  readonly traceId = "test-trace"
  readonly sampled = true
  readonly attributes = new Map<string, unknown>()
  readonly events: Array<{ readonly name: string; readonly attributes: Record<string, unknown> | undefined }> = []
  readonly links: Array<Tracer.SpanLink>
  status: Tracer.SpanStatus
  constructor(
    readonly name: string,
    readonly parent: Option.Option<Tracer.AnySpan>,
    readonly context: Context.Context<never>,
    links: ReadonlyArray<Tracer.SpanLink>,
    startTime: bigint,
    readonly kind: Tracer.SpanKind,
    id: number
  ) {
    this.spanId = `span-${id}`
    this.links = [...links]
    this.status = { _tag: "Started", startTime }
  }
  end(endTime: bigint, exit: Exit.Exit<unknown, unknown>): void {
    this.status = { _tag: "Ended", startTime: this.status.startTime, endTime, exit }
  }
  attribute(key: string, value: unknown): void {
    this.attributes.set(key, value)
  }
  event(name: string, _startTime: bigint, attributes?: Record<string, unknown>): void {
    this.events.push({ name, attributes })
  }
  addLinks(links: ReadonlyArray<Tracer.SpanLink>): void {
    this.links.push(...links)
  }
}

/** JSON that does not throw on bigint or cycles. */
const stringify = (value: unknown): string => {
  const seen = new WeakSet<object>()
  return JSON.stringify(value, (_, v: unknown) => {
    if (typeof v === "bigint") return v.toString()
    if (v instanceof Map) return Object.fromEntries(v)
    if (typeof v === "object" && v !== null) {
      if (seen.has(v)) return "<cycle>"
      seen.add(v)
    }
    return v
  })
}

/**
 * What a run shows: every log line (Debug and up, as text, as JSON and its cause), every span
 * (`spans`; `spanText` prints each: name, attributes, events, exit) and every printing of the
 * errors `failing` saw. `observe` runs an effect with the collecting logger and tracer.
 */
const observing = () => {
  const logs: Array<string> = []
  const spans: Array<CollectedSpan> = []
  const errors: Array<string> = []
  const collector = Logger.make((options) => {
    logs.push(Logger.stringLogger.log(options))
    logs.push(stringify(Logger.structuredLogger.log(options)))
    if (!Cause.isEmpty(options.cause)) logs.push(Cause.pretty(options.cause, { renderErrorCause: true }))
  })
  const tracer = Tracer.make({
    span: (name, parent, context, links, startTime, kind) => {
      const span = new CollectedSpan(name, parent, context, links, startTime, kind, spans.length + 1)
      spans.push(span)
      return span
    },
    context: (f) => f()
  })
  /** Runs `self`, expecting it to fail, and keeps every printing of its error. */
  const failing = <A, E extends object, R>(self: Effect.Effect<A, E, R>, tag: string) =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(self)
      expect((error as { _tag?: string })._tag).toBe(tag)
      errors.push(
        "message" in error ? String(error.message) : "",
        String(error),
        JSON.stringify(error),
        util.inspect(error, { depth: 10 }),
        Cause.pretty(Cause.fail(error), { renderErrorCause: true })
      )
      return error
    })
  const spanText = () =>
    spans.map((span) =>
      [
        span.name,
        stringify([...span.attributes]),
        stringify(span.events),
        span.status._tag === "Ended"
          ? [
              Exit.match(span.status.exit, {
                onFailure: (cause) => Cause.pretty(cause, { renderErrorCause: true }),
                onSuccess: () => "success"
              }),
              stringify(span.status.exit),
              util.inspect(span.status.exit, { depth: 20 })
            ].join("\n")
          : "not ended"
      ].join("\n")
    )
  const observe = <A, E, R>(self: Effect.Effect<A, E, R>) =>
    self.pipe(
      Effect.provide(Logger.replace(Logger.defaultLogger, collector)),
      Logger.withMinimumLogLevel(LogLevel.All),
      Effect.withTracer(tracer)
    )
  return { logs, spans, errors, failing, spanText, observe }
}

/** Runs `run` forked, moving the `TestClock` a second at a time (at most 5 minutes) until it ends. */
const drive = <A, E, R>(run: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const fiber = yield* Effect.fork(run)
    for (let second = 0; second < 300 && Option.isNone(yield* Fiber.poll(fiber)); second++) {
      yield* TestClock.adjust("1 second")
    }
    return yield* Fiber.join(fiber)
  })

describe("secrets", () => {
  it.effect("no key value in logs, spans or errors of a run with retries and failures", () => {
    const { logs, spans, errors, failing, spanText: spansPrinted, observe } = observing()

    const run = Effect.gen(function* () {
      const platform = yield* FakePlatform.FakePlatform
      const apiKeys = yield* ApiKeys.ApiKeys
      const projects = yield* Projects.Projects
      const operations = yield* Operations.Operations

      // A create that is rate limited once (Retry-After: 1), then goes through.
      yield* platform.faults.inject(Fault.status(429, { headers: { "retry-after": "1" } }), {
        method: "POST",
        path: "/api_keys"
      })
      const created = yield* apiKeys.create({ key_name: "ci" })

      // Lists retried after a 429 with Retry-After: 2 and after a 502.
      yield* platform.faults.inject(Fault.status(429, { headers: { "retry-after": "2" } }), { path: "/projects" })
      yield* platform.faults.inject(Fault.status(502), { path: "/projects" })
      yield* projects.listPage()

      // The call whose span is checked below: one 503, then the answer.
      yield* platform.faults.inject(Fault.status(503), { path: "/projects/{project_id}/operations/{operation_id}" })
      yield* operations.get({ project_id: projectId, operation_id: operationId(1) })

      // The created key works, is revoked, and is then refused (401).
      const withCreated = Effect.provide(
        DbPlatform.layer({ baseUrl: DbPlatformTest.baseUrl, apiKey: created.key }).pipe(
          Layer.provide(FakeHttpClient.layer)
        )
      )
      const pageWithCreated = withCreated(Effect.flatMap(Projects.Projects, (p) => p.listPage()))
      yield* pageWithCreated
      yield* apiKeys.revoke({ key_id: created.id })
      yield* failing(pageWithCreated, "Unauthorized")

      // A proxy that echoes the Authorization header it got, in a GeneralError and in a text body.
      yield* platform.faults.inject(
        Fault.status(401, {
          body: Fault.FaultBody.generalError({
            code: `Bearer ${bootstrapKey}`,
            message: `invalid header Authorization: Bearer ${bootstrapKey} (key ${bootstrapKey})`,
            request_id: bootstrapKey
          })
        }),
        { method: "GET", path: "/api_keys" }
      )
      const echoed = yield* failing(apiKeys.listPage(), "Unauthorized")
      expect(echoed).toMatchObject({ description: "invalid header Authorization: Bearer <redacted> (key <redacted>)" })
      expect(echoed.message).not.toContain(bootstrapKey)
      yield* platform.faults.inject(
        Fault.status(401, { body: Fault.FaultBody.text(`Authorization: Bearer ${bootstrapKey}`) }),
        {
          method: "GET",
          path: "/api_keys"
        }
      )
      yield* failing(apiKeys.listPage(), "Unauthorized")

      // A body that is not JSON, a 502 after the server created a key, a dropped POST, a long Retry-After.
      yield* platform.faults.inject(Fault.malformedJson, { method: "GET", path: "/api_keys" })
      yield* failing(apiKeys.listPage(), "MalformedResponse")
      yield* platform.faults.inject(Fault.status(502, { processed: true }), { method: "POST", path: "/api_keys" })
      yield* failing(apiKeys.create({ key_name: "behind-502" }), "ServerError")
      yield* platform.faults.inject(Fault.drop, { method: "POST", path: "/api_keys" })
      yield* failing(apiKeys.create({ key_name: "dropped" }), "TransportError")
      yield* platform.faults.inject(Fault.status(429, { headers: { "retry-after": "3600" } }), { path: "/projects" })
      yield* failing(projects.listPage(), "RateLimited")
      yield* failing(operations.await({ project_id: projectId, operation_id: operationId(3) }), "OperationFailed")

      // Waiting for operations, one of which fails.
      const all = (yield* operations.listPage({ project_id: projectId })).operations
      const result = yield* operations.awaitAll(all)
      expect(result.failed.map((operation) => operation.id)).toEqual([operationId(3)])
      return created
    })

    return Effect.gen(function* () {
      const created = yield* drive(run)
      const platform = yield* FakePlatform.FakePlatform
      const requests = yield* platform.requests
      const collected = [...logs, ...spansPrinted(), ...errors].join("\n")

      // What was collected is not empty: the retries were logged, the calls traced, the errors printed.
      expect(logs.some((line) => line.includes("retrying ApiKeys.create after 1s"))).toBe(true)
      expect(logs.some((line) => line.includes("retrying Projects.list after 2s"))).toBe(true)
      expect(spans.some((span) => span.attributes.get("url.template") === "/api_keys")).toBe(true)
      expect(errors.length).toBe(8 * 5)
      // The platform's own per-request span is off: one span per call, none holding the request.
      expect(spans.filter((span) => span.name.startsWith("http.client"))).toEqual([])

      // Neither key's value (nor a long part of it) is anywhere.
      const secrets = [bootstrapKey, Redacted.value(created.key)]
      expect(secrets[1]!.length).toBeGreaterThanOrEqual(32)
      for (const secret of secrets) {
        expect(collected).not.toContain(secret)
        expect(collected).not.toContain(secret.slice(-16))
      }
      expect(JSON.stringify(requests)).not.toContain(bootstrapKey)

      // The span of the call retried once: its attributes say so, with the id the requests carried.
      const route = "/projects/{project_id}/operations/{operation_id}"
      const callSpans = spans.filter((span) => span.name === "Operations.get")
      const retried = callSpans.filter((span) => span.attributes.get("http.request.resend_count") === 1)
      expect(retried).toHaveLength(1)
      const span = retried[0]!
      const getPath = `/api/v2/projects/${projectId}/operations/${operationId(1)}`
      const sent = requests.filter((request) => request.method === "GET" && request.path === getPath)
      expect(sent).toHaveLength(2)
      expect(sent[1]!.headers["x-request-id"]).toBe(sent[0]!.headers["x-request-id"])
      expect(Object.fromEntries(span.attributes)).toMatchObject({
        "http.request.method": "GET",
        "url.template": route,
        "http.response.status_code": 200,
        "http.request.resend_count": 1,
        "dbplatform.request_id": sent[0]!.headers["x-request-id"]
      })
      expect(span.kind).toBe("client")
      expect(span.status._tag === "Ended" && Exit.isSuccess(span.status.exit)).toBe(true)
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed })), observe)
  })

  it.effect("no role password in logs, spans, errors or printed results of a run with retries and failures", () => {
    const { logs, spans, errors, failing, spanText, observe } = observing()
    const branch = BranchId.make("br-main-100001")
    const params = { project_id: projectId, branch_id: branch }
    const role = { ...params, role_name: "app" }

    const run = Effect.gen(function* () {
      const platform = yield* FakePlatform.FakePlatform
      const roles = yield* Roles.Roles
      const databases = yield* Databases.Databases
      const operations = yield* Operations.Operations
      // A create and a reset retried after a 503 each (not processed), a reveal after a 429.
      yield* platform.faults.inject(Fault.status(503), { method: "POST" })
      const created = yield* roles.create({ ...params, role: { name: "app" } })
      yield* operations.awaitAll(created.operations)
      yield* platform.faults.inject(Fault.status(429, { headers: { "retry-after": "1" } }), { method: "GET" })
      const revealed = yield* roles.revealPassword(role)
      yield* platform.faults.inject(Fault.status(503), { method: "POST" })
      const reset = yield* roles.resetPassword(role)
      yield* operations.awaitAll(reset.operations)
      const revealedAgain = yield* roles.revealPassword(role)
      const shop = yield* databases.create({ ...params, database: { name: "shop", owner_name: "app" } })
      yield* operations.awaitAll(shop.operations)
      // Failures: a taken name, an owner of a database, a locked project (retries given up), a hostile body.
      yield* failing(roles.create({ ...params, role: { name: "app" } }), "Conflict")
      yield* failing(roles.delete(role), "BadRequest")
      yield* platform.scenario.startOperations(projectId, [{ action: "apply_config", runsFor: "1 hour" }])
      yield* failing(roles.resetPassword(role), "Locked")
      yield* platform.faults.inject(Fault.malformedJson, { method: "GET" })
      yield* failing(roles.revealPassword(role), "MalformedResponse")
      return { created, revealed, reset, revealedAgain }
    })

    return Effect.gen(function* () {
      const results = yield* drive(run)
      const passwords = [results.created.role.password, results.reset.role.password].map((password) =>
        Redacted.value(password!)
      )
      // What the answers say: the created password is revealed, the reset one replaces it.
      expect(Redacted.value(results.revealed.password)).toBe(passwords[0])
      expect(Redacted.value(results.revealedAgain.password)).toBe(passwords[1])
      expect(passwords[0]).not.toBe(passwords[1])

      const printedResults = [
        JSON.stringify(results),
        String(results.created.role),
        util.inspect(results, { depth: 20 }),
        stringify(results)
      ]
      const collected = [...logs, ...spanText(), ...errors, ...printedResults].join("\n")
      // What was collected is not empty: the retries were logged, the calls traced, the errors printed.
      expect(logs.some((line) => line.includes("retrying Roles.create"))).toBe(true)
      expect(logs.some((line) => line.includes("retrying Roles.revealPassword"))).toBe(true)
      expect(spans.some((span) => span.name === "Roles.resetPassword")).toBe(true)
      expect(errors.length).toBe(4 * 5)
      for (const password of passwords) {
        expect(password.length).toBeGreaterThanOrEqual(16)
        expect(collected).not.toContain(password)
      }
    }).pipe(
      Effect.provide(
        DbPlatformTest.layer({
          seed: {
            projects: [{ id: projectId }],
            branches: [{ project_id: projectId, id: branch, name: "main", default: true }],
            endpoints: [{ branch_id: branch, type: "read_write" }]
          }
        })
      ),
      observe
    )
  })

  it.effect("no auth key or OAuth client secret in logs, spans, errors, printed results or the request log", () => {
    const { logs, spans, errors, failing, spanText, observe } = observing()
    const branch = BranchId.make("br-main-100001")
    const params = { project_id: projectId, branch_id: branch }
    const clientSecrets = [`gh-client-${"5ecret".repeat(4)}`, `g-client-${"h1dden".repeat(4)}`]

    const run = Effect.gen(function* () {
      const platform = yield* FakePlatform.FakePlatform
      const auth = yield* BranchAuth.BranchAuth
      // An enable and an add retried after a 503 each (not processed), a list after a 429.
      yield* platform.faults.inject(Fault.status(503), { method: "POST" })
      const created = yield* auth.create({ ...params, auth_provider: "better_auth" })
      yield* platform.faults.inject(Fault.status(503), { method: "POST" })
      const github = yield* auth.addOAuthProvider({
        ...params,
        id: "github",
        client_id: "gh-client",
        client_secret: Redacted.make(clientSecrets[0]!)
      })
      yield* auth.addOAuthProvider({ ...params, id: "google" })
      const google = yield* auth.updateOAuthProvider({
        ...params,
        oauth_provider_id: "google",
        client_id: "g-client",
        client_secret: Redacted.make(clientSecrets[1]!)
      })
      yield* platform.faults.inject(Fault.status(429, { headers: { "retry-after": "1" } }), { method: "GET" })
      const providers = yield* auth.listOAuthProvidersPage(params)
      const read = yield* auth.get(params)
      // Failures: a second enable, a provider added twice (with its secret), a locked disable, a hostile body.
      yield* failing(auth.create({ ...params, auth_provider: "better_auth" }), "Conflict")
      yield* failing(
        auth.addOAuthProvider({
          ...params,
          id: "github",
          client_id: "gh-client",
          client_secret: Redacted.make(clientSecrets[0]!)
        }),
        "Conflict"
      )
      yield* platform.scenario.startOperations(projectId, [{ action: "apply_config", runsFor: "1 hour" }])
      yield* failing(auth.disable({ ...params, delete_data: true }), "Locked")
      yield* platform.faults.inject(Fault.malformedJson, { method: "PATCH" })
      yield* failing(
        auth.updateOAuthProvider({
          ...params,
          oauth_provider_id: "github",
          client_secret: Redacted.make(clientSecrets[0]!)
        }),
        "MalformedResponse"
      )
      return { created, github, google, providers, read, requests: yield* platform.requests }
    })

    return Effect.gen(function* () {
      const { requests, ...results } = yield* drive(run)
      const keys = [results.created.pub_client_key, results.created.secret_server_key].map((key) => Redacted.value(key))
      // What the answers say: the keys once, the client secrets as Redacted, read back the same.
      expect(keys.map((key) => key.length)).toEqual([36, 36])
      expect(Redacted.value(results.github.client_secret!)).toBe(clientSecrets[0])
      expect(results.providers.providers.map((provider) => Redacted.value(provider.client_secret!))).toEqual(
        clientSecrets
      )

      const printedResults = [
        JSON.stringify(results),
        String(results.created),
        util.inspect(results, { depth: 20 }),
        stringify(results)
      ]
      const requestLog = stringify(requests)
      const collected = [...logs, ...spanText(), ...errors, ...printedResults, requestLog].join("\n")
      // What was collected is not empty: the retries were logged, the calls traced, the errors printed.
      expect(logs.some((line) => line.includes("retrying BranchAuth.create"))).toBe(true)
      expect(logs.some((line) => line.includes("retrying BranchAuth.addOAuthProvider"))).toBe(true)
      expect(spans.some((span) => span.name === "BranchAuth.updateOAuthProvider")).toBe(true)
      expect(requests.some((request) => request.path.endsWith("/auth/oauth_providers"))).toBe(true)
      expect(errors.length).toBe(4 * 5)
      for (const secret of [...keys, ...clientSecrets]) expect(collected).not.toContain(secret)
    }).pipe(
      Effect.provide(
        DbPlatformTest.layer({
          seed: {
            projects: [{ id: projectId }],
            branches: [{ project_id: projectId, id: branch, name: "main", default: true }],
            roles: [{ branch_id: branch, name: "owner" }],
            databases: [{ branch_id: branch, name: "neondb", owner_name: "owner" }]
          }
        })
      ),
      observe
    )
  })
})

describe("Neon Auth secrets (docs/contract.md §26.4, §26.6)", () => {
  it.effect(
    "no SMTP password or username, and no legacy SDK key, in logs, spans, errors, printed results or the request log",
    () => {
      const { logs, spans, errors, failing, spanText, observe } = observing()
      const main = BranchId.make("br-main-100001")
      const preview = BranchId.make("br-preview-100002")
      const params = { project_id: projectId, branch_id: main }
      const password = `smtp-${"pa55word".repeat(4)}`
      const username = `mailer-${"u5ername".repeat(3)}`
      const smtp = {
        host: Redacted.make("smtp.example.com"),
        port: 587,
        username: Redacted.make(username),
        password: Redacted.make(password),
        sender_email: "auth@example.com",
        sender_name: "Example"
      }

      const run = Effect.gen(function* () {
        const platform = yield* FakePlatform.FakePlatform
        const auth = yield* BranchAuth.BranchAuth
        yield* auth.create({ ...params, auth_provider: "better_auth" })
        // A change retried after a 503 (not processed), a read after a 429.
        yield* platform.faults.inject(Fault.status(503), { method: "PATCH" })
        const set = yield* auth.updateEmailProvider({ ...params, type: "standard", ...smtp })
        yield* platform.faults.inject(Fault.status(429, { headers: { "retry-after": "1" } }), { method: "GET" })
        const read = yield* auth.getEmailProvider(params)
        const plugins = yield* auth.getPlugins(params)
        const sent = yield* auth.sendTestEmail({ ...params, ...smtp, recipient_email: "ada@example.com" })
        const keys = yield* auth.createAuthProviderSdkKeys({ project_id: projectId, auth_provider: "better_auth" })
        // Failures, each carrying the password: a branch without auth, a malformed answer, a variant refused.
        yield* failing(
          auth.updateEmailProvider({ project_id: projectId, branch_id: preview, type: "standard", ...smtp }),
          "NotFound"
        )
        yield* failing(auth.sendTestEmail({ ...params, ...smtp, recipient_email: "not an email" }), "InvalidRequest")
        yield* platform.faults.inject(Fault.malformedJson, { method: "PATCH" })
        yield* failing(auth.updateEmailProvider({ ...params, type: "standard", ...smtp }), "MalformedResponse")
        return {
          set,
          read,
          plugins,
          sent,
          keys,
          requests: yield* platform.requests,
          snapshot: yield* platform.snapshot
        }
      })

      return Effect.gen(function* () {
        const { requests, snapshot, ...results } = yield* drive(run)
        const sdkKeys = [results.keys.pub_client_key, results.keys.secret_server_key].map((key) => Redacted.value(key))
        // What the answers say: the SMTP secrets as Redacted, read back the same.
        const read = results.read
        expect(Schema.is(Api.StandardEmailServer)(read) && Redacted.value(read.password)).toBe(password)
        const printedResults = [JSON.stringify(results), util.inspect(results, { depth: 20 }), stringify(results)]
        const collected = [...logs, ...spanText(), ...errors, ...printedResults, stringify(requests)].join("\n")
        expect(logs.some((line) => line.includes("retrying BranchAuth.updateEmailProvider"))).toBe(true)
        expect(spans.some((span) => span.name === "BranchAuth.sendTestEmail")).toBe(true)
        expect(requests.some((request) => request.path.endsWith("/auth/email_provider"))).toBe(true)
        expect(errors.length).toBe(3 * 5)
        for (const secret of [password, username, ...sdkKeys]) expect(collected).not.toContain(secret)
        // The snapshot keeps the SMTP password (a read answers it: a snapshot with one is a secret,
        // as with roles' passwords), never the SDK keys, which are shown once.
        const saved = JSON.stringify(yield* Schema.encode(Snapshot.Snapshot)(snapshot))
        expect(saved).toContain(password)
        for (const key of sdkKeys) expect(saved).not.toContain(key)
      }).pipe(
        Effect.provide(
          DbPlatformTest.layer({
            seed: {
              projects: [{ id: projectId }],
              branches: [
                { project_id: projectId, id: main, name: "main", default: true },
                { project_id: projectId, id: preview, name: "preview", parent_id: main }
              ],
              roles: [{ branch_id: main, name: "owner" }],
              databases: [{ branch_id: main, name: "neondb", owner_name: "owner" }]
            }
          })
        ),
        observe
      )
    }
  )
})

describe("credentials' secrets (docs/contract.md §11.7)", () => {
  it.effect(
    "no api_token or s3_secret_access_key in logs, spans, errors, printed results or the request log, S3 requests signed with them included; no api_token in snapshots",
    () => {
      const { logs, spans, errors, failing, spanText, observe } = observing()
      const branch = BranchId.make("br-main-100001")
      const params = { project_id: projectId, branch_id: branch }

      const run = Effect.gen(function* () {
        const platform = yield* FakePlatform.FakePlatform
        const credentials = yield* Credentials.Credentials
        // A creation after a 503 (not processed) and a 429, a list after a 429.
        yield* platform.faults.inject(Fault.status(503), { method: "POST" })
        yield* platform.faults.inject(Fault.status(429, { headers: { "retry-after": "1" } }), { method: "POST" })
        const first = yield* credentials.create({
          ...params,
          name: "ci",
          scopes: ["storage:read"],
          principal_type: "user"
        })
        const second = yield* credentials.create({ ...params, scopes: ["ai_gateway:invoke"], principal_type: "user" })
        yield* platform.faults.inject(Fault.status(429, { headers: { "retry-after": "1" } }), { method: "GET" })
        const listed = yield* credentials.listPage(params)
        // Its S3 keys list a bucket on the data plane (SigV4); a forged signature is refused; revoked, refused.
        yield* (yield* Buckets.Buckets).create({ ...params, name: "assets" })
        const storage = yield* (yield* Storage.Storage).get(params)
        const keys = { accessKeyId: first.token_id, secretAccessKey: Redacted.value(first.s3_secret_access_key) }
        const s3Lists = [yield* s3Get(storage, keys, "/assets", { "list-type": "2" })]
        s3Lists.push(
          yield* s3Get(
            storage,
            // The secret with its last digit changed.
            { ...keys, secretAccessKey: keys.secretAccessKey.replace(/.$/, (last) => (last === "0" ? "1" : "0")) },
            "/assets",
            { "list-type": "2" }
          )
        )
        yield* credentials.revoke({ ...params, token_id: first.token_id })
        s3Lists.push(yield* s3Get(storage, keys, "/assets", { "list-type": "2" }))
        // Failures: an unknown credential, a body refused, a hostile answer to a creation (made, not read).
        yield* failing(
          credentials.revoke({ ...params, token_id: "nak_live_ffffffffffffffffffffffffffffffff" }),
          "NotFound"
        )
        yield* failing(
          credentials.create({ ...params, scopes: ["storage:root" as "storage:read"], principal_type: "user" }),
          "InvalidRequest"
        )
        yield* platform.faults.inject(Fault.malformedJson, { method: "POST" })
        yield* failing(
          credentials.create({ ...params, scopes: ["storage:write"], principal_type: "user" }),
          "MalformedResponse"
        )
        const snapshot = yield* platform.snapshot
        return { first, second, listed, s3Lists, snapshot, requests: yield* platform.requests }
      })

      return Effect.gen(function* () {
        const { requests, snapshot, ...results } = yield* drive(run)
        const secrets = [results.first, results.second].flatMap((created) => [
          Redacted.value(created.api_token),
          Redacted.value(created.s3_secret_access_key)
        ])
        expect(secrets.every((secret) => secret.length > 32)).toBe(true)
        const printedResults = [
          JSON.stringify(results),
          String(results.first),
          util.inspect(results, { depth: 20 }),
          stringify(results)
        ]
        const saved = JSON.stringify(Schema.encodeSync(Snapshot.Snapshot)(snapshot))
        const requestLog = stringify(requests)
        const collected = [...logs, ...spanText(), ...errors, ...printedResults, requestLog].join("\n")
        // What was collected is not empty: the retries were logged, the calls traced, the errors printed.
        expect(logs.some((line) => line.includes("retrying Credentials.create"))).toBe(true)
        expect(results.s3Lists.map((answer) => [answer.status, answer.code])).toEqual([
          [200, undefined],
          [403, "SignatureDoesNotMatch"],
          [403, "InvalidAccessKeyId"]
        ])
        const signed = requests.filter((request) => request.path.startsWith("/_storage/"))
        expect(signed.map((request) => request.headers.authorization)).toEqual(
          signed.map(() => "AWS4-HMAC-SHA256 <redacted>")
        )
        expect(signed.length).toBe(3)
        // The saved state keeps the S3 secret (the data plane verifies signatures with it: a state
        // with credentials is a secret, as one with roles' passwords), never a bearer token.
        expect(saved).toContain(Redacted.value(results.first.s3_secret_access_key))
        for (const created of [results.first, results.second]) {
          expect(saved).not.toContain(Redacted.value(created.api_token))
          expect(saved).not.toContain(Redacted.value(created.api_token).slice(-24))
        }
        expect(spans.some((span) => span.name === "Credentials.create")).toBe(true)
        expect(requests.some((request) => request.path.endsWith("/credentials"))).toBe(true)
        expect(saved).toContain(results.first.token_id)
        expect(errors.length).toBe(3 * 5)
        for (const secret of secrets) {
          expect(collected).not.toContain(secret)
          // Nor a tail of one (a partial leak counts too).
          expect(collected).not.toContain(secret.slice(-24))
        }
      }).pipe(
        Effect.provide(
          DbPlatformTest.layer({
            seed: {
              projects: [{ id: projectId }],
              branches: [{ project_id: projectId, id: branch, name: "main", default: true }]
            }
          })
        ),
        observe
      )
    }
  )
})

describe("a key a header cannot carry", () => {
  const pasted = `dbp_${"pa5ted".repeat(6)}_fedcba9876543210`

  it.effect("is refused when the Layer is built, by a typed error that never holds it; nothing is sent", () =>
    Effect.gen(function* () {
      const platform = yield* FakePlatform.FakePlatform
      for (const apiKey of [`${pasted}\n`, `${pasted}\r\n`, ` ${pasted}`, `${pasted}\u0000`, `${pasted}é`, ""]) {
        const exit = yield* Projects.Projects.pipe(
          Effect.flatMap((projects) => projects.listPage()),
          Effect.provide(
            DbPlatform.layer({ baseUrl: DbPlatformTest.baseUrl, apiKey: Redacted.make(apiKey) }).pipe(
              Layer.provide(FakeHttpClient.layer)
            )
          ),
          Effect.exit
        )
        expect(Exit.isFailure(exit)).toBe(true)
        const error = Exit.isFailure(exit) ? Option.getOrUndefined(Cause.failureOption(exit.cause)) : undefined
        expect(error?._tag).toBe("InvalidApiKey")
        const renderings = [
          String(error),
          error?.message,
          JSON.stringify(error),
          util.inspect(exit, { depth: 20 }),
          stringify(exit),
          Exit.isFailure(exit) ? Cause.pretty(exit.cause, { renderErrorCause: true }) : ""
        ].join("\n")
        expect(renderings).not.toContain(pasted)
        expect(renderings).not.toContain(pasted.slice(-16))
      }
      expect(
        (yield* Effect.flip(
          Effect.provide(
            Projects.Projects,
            DbPlatform.layer({ baseUrl: DbPlatformTest.baseUrl, apiKey: Redacted.make(`${pasted}\n`) }).pipe(
              Layer.provide(FakeHttpClient.layer)
            )
          )
        )).message
      ).toBe(
        `the API key holds a line feed (U+000A) at position ${pasted.length + 1} of ${pasted.length + 1}, which an HTTP header cannot carry; keys are visible ASCII only (a trailing newline from a file is the usual cause)`
      )
      expect(yield* platform.requests).toEqual([])
    }).pipe(Effect.provide(FakePlatform.layer()))
  )
})

describe("the request log", () => {
  it.effect("keeps no credential sent in the query: its value is <redacted>, in the log and the control API's", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make({ bootstrapKey, projects: [{ id: projectId }] })
      const controlToken = "secrets-control-token"
      const control = FakeHttpClient.make(yield* ControlApi.httpApp(fake, { token: Redacted.make(controlToken) }))
      // A key a user pasted into the URL, under the names credentials go by, in any case.
      const credentials = ["api_key", "apiKey", "X-API-KEY", "key", "access_token", "refreshToken", "Password"]
      const others = { limit: "5", search: "spring", cursor: "c-1", org_id: "org-1", database_name: "neondb" }
      const query = new URLSearchParams([...credentials.map((name) => [name, bootstrapKey]), ...Object.entries(others)])
      yield* send(fake, HttpClientRequest.get(`/projects?${query}`), { key: fake.bootstrapKey })

      const [request] = yield* fake.requests
      expect(request!.path).toBe("/api/v2/projects")
      expect(request!.query).toEqual({
        ...Object.fromEntries(credentials.map((name) => [name, "<redacted>"])),
        ...others
      })
      const logged = yield* control.execute(
        HttpClientRequest.bearerToken(HttpClientRequest.get(`http://x${ControlApi.prefix}/requests`), controlToken)
      )
      const text = yield* logged.text
      expect(logged.status).toBe(200)
      expect(text).toContain('"api_key":"<redacted>"')
      for (const secret of [bootstrapKey, bootstrapKey.slice(-16)]) {
        expect(text).not.toContain(secret)
        expect(JSON.stringify(yield* fake.requests)).not.toContain(secret)
      }
    })
  )
})

describe("connection strings", () => {
  /** A role password easy to spot, in the URI as it is (no character a URI encodes). */
  const password = `npg_${"c0nnstr".repeat(4)}_5ecret`

  it.effect("no role password in logs, spans, errors or JSON.stringify of any result of the workflow", () => {
    const { logs, spans, errors, spanText, observe } = observing()
    const results: Array<string> = []
    /** Every printing of a result: a log line, `JSON.stringify`, `String`, `util.inspect`. */
    const shown = (result: unknown) => {
      results.push(JSON.stringify(result), stringify(result), String(result), util.inspect(result, { depth: 20 }))
      return Effect.logDebug("result", result)
    }
    const main = BranchId.make("br-main-100001")
    const run = Effect.gen(function* () {
      const platform = yield* FakePlatform.FakePlatform
      const branches = yield* Branches.Branches
      const connections = yield* Connections.Connections
      yield* addRolesAndDatabases(
        platform,
        [{ branch_id: main, name: "neondb_owner", password }],
        [{ branch_id: main, id: 4_000_001, name: "neondb", owner_name: "neondb_owner" }]
      )
      // The workflow, its creation answered once with a 503 (retried) and its URI read with a pooled request.
      yield* platform.faults.inject(Fault.status(503), { method: "POST", path: "/projects/{project_id}/branches" })
      const ready = yield* branches.createReady({ project_id: projectId, branch: { name: "preview" } })
      yield* shown(ready)
      const pooled = yield* branches.createReady({
        project_id: projectId,
        branch: { name: "pooled" },
        connection: { pooled: true }
      })
      yield* shown(pooled)
      // The plain creation answers connection_uris; the read answers { uri }.
      const created = yield* branches.create({
        project_id: projectId,
        branch: { name: "plain" },
        endpoints: [{ type: "read_write" }]
      })
      yield* shown(created)
      const uri = yield* connections.uri({
        project_id: projectId,
        database_name: "neondb",
        role_name: "neondb_owner",
        branch_id: ready.branch.id
      })
      yield* shown(uri)
      // A connection_uri answer that does not decode, and one after a proxy's 500: errors, printed.
      for (const fault of [Fault.malformedJson, Fault.status(500, { body: Fault.FaultBody.text(`uri ${password}`) })]) {
        yield* platform.faults.inject(fault, { path: "/projects/{project_id}/connection_uri", times: 5 })
        const error = yield* Effect.flip(
          connections.uri({ project_id: projectId, database_name: "neondb", role_name: "neondb_owner" })
        )
        errors.push(
          String(error),
          JSON.stringify(error),
          util.inspect(error, { depth: 10 }),
          Cause.pretty(Cause.fail(error))
        )
        yield* platform.faults.clear
      }
      // The workflow failing after its creation: the branch's password in no part of the error.
      yield* platform.faults.inject(Fault.status(404), { path: "/projects/{project_id}/branches/{branch_id}" })
      const failed = yield* Effect.flip(branches.createReady({ project_id: projectId, branch: { name: "failing" } }))
      errors.push(
        String(failed),
        JSON.stringify(failed),
        util.inspect(failed, { depth: 10 }),
        Cause.pretty(Cause.fail(failed))
      )
      return [ready, pooled, created] as const
    })

    return Effect.gen(function* () {
      const [ready, pooled, created] = yield* drive(run)
      // The secret is there, where a driver reads it: in the values, not in what is printed.
      expect(Redacted.value(ready.connectionUri)).toContain(password)
      expect(Redacted.value(pooled.connectionUri)).toContain("-pooler.")
      expect(Redacted.value(created.connection_uris![0]!.connection_parameters.password)).toBe(password)
      expect(results.length).toBe(4 * 4)
      expect(errors.length).toBe(3 * 4)
      expect(spans.map((span) => span.name)).toContain("Connections.uri")
      expect(logs.some((line) => line.includes("retrying Branches.create"))).toBe(true)
      const collected = [...logs, ...spanText(), ...errors, ...results].join("\n")
      expect(collected.split(password).length - 1).toBe(0)
      expect(collected).not.toContain(password.slice(-12))
    }).pipe(observe, Effect.provide(DbPlatformTest.layer({ seed: connectionSeed })))
  })
})

describe("organization keys (docs/contract.md §21)", () => {
  it.effect("no organization key value in logs, spans, errors, printed answers, snapshots or the request log", () => {
    const { logs, spans, errors, failing, spanText, observe } = observing()
    const orgId = "org-secret-100001"
    const seeded = `dbp_org_${"5eeded".repeat(5)}_0123456789abcdef`
    const orgSeed: Seed = {
      organizations: [{ id: orgId, api_keys: [{ name: "seeded", key: seeded }] }],
      projects: [{ id: projectId, org_id: orgId }, { id: "other-project-100002" }]
    }
    const withValue = (apiKey: Redacted.Redacted<string>) =>
      Effect.provide(
        DbPlatform.layer({ baseUrl: DbPlatformTest.baseUrl, apiKey }).pipe(Layer.provide(FakeHttpClient.layer))
      )
    const run = Effect.gen(function* () {
      const platform = yield* FakePlatform.FakePlatform
      const keys = yield* OrganizationApiKeys.OrganizationApiKeys
      // A create rate limited once, then through; one for a project.
      yield* platform.faults.inject(Fault.status(429, { headers: { "retry-after": "1" } }), {
        method: "POST",
        path: "/organizations/{org_id}/api_keys"
      })
      const created = yield* keys.create({ org_id: orgId, key_name: "ci" })
      const scoped = yield* keys.create({ org_id: orgId, key_name: "app", project_id: projectId })
      yield* keys.listPage({ org_id: orgId })
      const results = [created, scoped].flatMap((answer) => [
        JSON.stringify(answer),
        util.inspect(answer),
        String(answer)
      ])
      for (const key of [created.key, scoped.key, Redacted.make(seeded)]) {
        const page = withValue(key)(Effect.flatMap(Projects.Projects, (projects) => projects.listPage()))
        yield* page
        // Refusal: a personal key's route (403), another organization's project (404).
        yield* failing(
          withValue(key)(Effect.flatMap(ApiKeys.ApiKeys, (apiKeys) => apiKeys.listPage())),
          "UnexpectedStatus"
        )
        yield* failing(
          withValue(key)(
            Effect.flatMap(Projects.Projects, (projects) =>
              projects.get({ project_id: ProjectId.make("other-project-100002") })
            )
          ),
          "NotFound"
        )
      }
      // A proxy that echoes the Authorization header it got.
      yield* platform.faults.inject(
        Fault.status(401, {
          body: Fault.FaultBody.generalError({ code: "", message: `invalid header Authorization: Bearer ${seeded}` })
        }),
        { method: "GET", path: "/projects" }
      )
      yield* failing(
        withValue(Redacted.make(seeded))(Effect.flatMap(Projects.Projects, (p) => p.listPage())),
        "Unauthorized"
      )
      yield* keys.revoke({ org_id: orgId, key_id: created.id })
      yield* failing(withValue(created.key)(Effect.flatMap(Projects.Projects, (p) => p.listPage())), "Unauthorized")
      return { values: [Redacted.value(created.key), Redacted.value(scoped.key), seeded], results }
    })
    return Effect.gen(function* () {
      const { values, results } = yield* drive(run)
      const platform = yield* FakePlatform.FakePlatform
      const requests = JSON.stringify(yield* platform.requests)
      const snapshot = JSON.stringify(yield* Schema.encode(Snapshot.Snapshot)(yield* platform.snapshot))
      const collected = [...logs, ...spanText(), ...errors, ...results].join("\n")
      expect(logs.some((line) => line.includes("retrying OrganizationApiKeys.create after 1s"))).toBe(true)
      expect(spans.some((span) => span.name === "OrganizationApiKeys.create")).toBe(true)
      expect(errors.length).toBe(8 * 5)
      expect(snapshot).toContain(orgId)
      for (const value of values) {
        expect(value.length).toBeGreaterThanOrEqual(32)
        for (const text of [collected, requests, snapshot]) {
          expect(text).not.toContain(value)
          expect(text).not.toContain(value.slice(-16))
        }
      }
    }).pipe(observe, Effect.provide(DbPlatformTest.layer({ seed: orgSeed })))
  })
})

/** A project with its default branch `main`, which has a read_write compute endpoint. */
const connectionSeed: Seed = {
  projects: [{ id: projectId }],
  branches: [{ project_id: projectId, id: "br-main-100001", name: "main", default: true }],
  endpoints: [{ branch_id: "br-main-100001", id: "ep-main-100001", type: "read_write" }]
}

describe("snapshots (docs/contract.md §19)", () => {
  /** A role password easy to spot. */
  const password = `npg_${"5napsh0t".repeat(3)}_5ecret`

  it.effect(
    "a snapshot keeps a role's password for the restored branch, and no snapshot answer or logged request shows it",
    () =>
      Effect.gen(function* () {
        const platform = yield* FakePlatform.FakePlatform
        const snapshots = yield* Snapshots.Snapshots
        const roles = yield* Roles.Roles
        const main = BranchId.make("br-main-100001")
        yield* addRolesAndDatabases(
          platform,
          [{ branch_id: main, name: "neondb_owner", password }],
          [{ branch_id: main, id: 4_000_002, name: "neondb", owner_name: "neondb_owner" }]
        )
        yield* TestClock.adjust("1 minute")
        const taken = yield* snapshots.create({ project_id: projectId, branch_id: main })
        yield* TestClock.adjust("10 seconds")
        const listed = yield* snapshots.listPage({ project_id: projectId })
        const restored = yield* snapshots.restore({ project_id: projectId, snapshot_id: taken.snapshot.id })
        yield* TestClock.adjust("10 seconds")
        const finalized = yield* snapshots.finalizeRestore({ project_id: projectId, branch_id: restored.branch.id })
        yield* TestClock.adjust("10 seconds")
        // The restored branch's role has the password it had when the snapshot was taken.
        const revealed = yield* roles.revealPassword({
          project_id: projectId,
          branch_id: restored.branch.id,
          role_name: "neondb_owner"
        })
        expect(Redacted.value(revealed.password)).toBe(password)
        const shown = [taken, listed, restored, finalized].flatMap((answer) => [
          JSON.stringify(answer),
          util.inspect(answer, { depth: 20 })
        ])
        shown.push(JSON.stringify(yield* platform.requests))
        for (const text of shown) {
          expect(text).not.toContain(password)
          expect(text).not.toContain(password.slice(-12))
        }
      }).pipe(Effect.provide(DbPlatformTest.layer({ seed: connectionSeed })))
  )
})

describe("function environment values (docs/contract.md §29.4)", () => {
  it.effect("no environment value in logs, spans, errors, printed results, the snapshot or the request log", () => {
    const { logs, spans, errors, failing, spanText, observe } = observing()
    const branch = BranchId.make("br-main-100001")
    const params = { project_id: projectId, branch_id: branch }
    const values = [`fn-token-${"s3cret".repeat(4)}`, `fn-db-${"pa55word".repeat(3)}`]
    const environment = { API_TOKEN: Redacted.make(values[0]!), DATABASE_URL: Redacted.make(values[1]!) }
    const zip = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0)])

    const run = Effect.gen(function* () {
      const platform = yield* FakePlatform.FakePlatform
      const functions = yield* Functions.Functions
      // A deployment retried after a 503 (not processed), another answered with a hostile body.
      yield* platform.faults.inject(Fault.status(503), { method: "POST" })
      const deployed = yield* functions.createDeployment({ ...params, slug: "hello", zip, environment })
      yield* platform.faults.inject(Fault.malformedJson, { method: "POST" })
      yield* failing(functions.createDeployment({ ...params, slug: "hello", environment }), "MalformedResponse")
      // Refusals: a first deployment without a zip (by the fake), a runtime the SDK refuses.
      yield* failing(functions.createDeployment({ ...params, slug: "other", environment }), "BadRequest")
      yield* failing(
        functions.createDeployment({ ...params, slug: "other", runtime: "python3" as "nodejs24", environment }),
        "InvalidRequest"
      )
      const read = yield* functions.get({ ...params, slug: "hello" })
      const snapshot = yield* Schema.encode(Snapshot.Snapshot)(yield* platform.snapshot)
      return { deployed, read, snapshot, requests: yield* platform.requests }
    })

    return Effect.gen(function* () {
      const { requests, ...results } = yield* drive(run)
      expect(results.deployed.deployment.environment).toEqual(["API_TOKEN", "DATABASE_URL"])
      const printedResults = [JSON.stringify(results), util.inspect(results, { depth: 20 }), stringify(results)]
      const collected = [...logs, ...spanText(), ...errors, ...printedResults, stringify(requests)].join("\n")
      expect(logs.some((line) => line.includes("retrying Functions.createDeployment"))).toBe(true)
      expect(spans.some((span) => span.name === "Functions.createDeployment")).toBe(true)
      expect(errors.length).toBe(3 * 5)
      for (const value of values) expect(collected).not.toContain(value)
    }).pipe(
      Effect.provide(
        DbPlatformTest.layer({
          seed: {
            projects: [{ id: projectId }],
            branches: [{ project_id: projectId, id: branch, name: "main", default: true }]
          }
        })
      ),
      observe
    )
  })
})
