import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { ApiKeys, DbPlatform, type DbPlatformClient, Operations, Projects } from "@dbplatform/client"
import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Tracer from "effect/Tracer"
import { createServer, type Server } from "node:http"
import * as util from "node:util"
import * as FakePlatform from "../src/FakePlatform.js"
import * as Fault from "../src/Fault.js"
import type { Seed } from "../src/Seed.js"
import { operationId, projectId } from "./helpers.js"

const seed: Seed = {
  projects: [{ id: projectId }, { id: "wispy-meadow-118737", age: "40 days" }],
  operations: [1, 2, 3].map((n) => ({
    project_id: projectId,
    id: operationId(n),
    action: "check_availability",
    endpoint_id: "ep-proud-mud-a5x8dq2u",
    age: `${n} minutes`
  }))
}

/** The fake served by the `node:http` server `server` makes, on an ephemeral port of 127.0.0.1; it closes with the scope. */
const servedBy = (server: () => Server) =>
  FakePlatform.layerServer.pipe(
    Layer.provideMerge(FakePlatform.layer(seed)),
    Layer.provideMerge(NodeHttpServer.layer(server, { port: 0, host: "127.0.0.1" }))
  )

/** The fake served on an ephemeral port of 127.0.0.1; the server closes with the scope. */
const served = servedBy(createServer)

/**
 * As `served`, but closing the server also ends its open connections (`closeAllConnections`):
 * for a test that is done with them, so that the close does not wait for a keep-alive timeout.
 */
const servedClosingConnections = servedBy(() => {
  const server = createServer()
  const close = server.close.bind(server)
  return Object.assign(server, {
    close: (callback?: (error?: Error) => void) => {
      close(callback)
      server.closeAllConnections()
      return server
    }
  })
})

/** Client settings beyond the base URL and key. */
type ClientOptions = Omit<DbPlatformClient.Options, "baseUrl" | "apiKey">

/** Runs `self` with the real client over `fetch`, authenticated by `apiKey`, with `options`. */
const overFetch = (baseUrl: string, apiKey: Redacted.Redacted<string>, options: ClientOptions = {}) =>
  Effect.provide(DbPlatform.layer({ ...options, baseUrl, apiKey }).pipe(Layer.provide(FetchHttpClient.layer)))

describe("over a real loopback socket", () => {
  it.live("the real client lists, pages, creates and revokes; the server closes with the test", () =>
    Effect.gen(function* () {
      const baseUrl = yield* Effect.gen(function* () {
        const fake = yield* FakePlatform.FakePlatform
        const baseUrl = yield* FakePlatform.serverBaseUrl
        expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v2$/)

        yield* Effect.gen(function* () {
          const projects = yield* Projects.Projects
          const operations = yield* Operations.Operations
          const apiKeys = yield* ApiKeys.ApiKeys

          const page = yield* projects.listPage()
          expect(page.projects.map((project) => project.id)).toEqual([projectId, "wispy-meadow-118737"])

          const first = yield* operations.listPage({ project_id: projectId, limit: 2 })
          expect(first.operations.map((operation) => operation.id)).toEqual([operationId(1), operationId(2)])
          const rest = yield* operations.listPage({ project_id: projectId, limit: 2, cursor: first.pagination!.cursor })
          expect(rest.operations.map((operation) => operation.id)).toEqual([operationId(3)])

          const created = yield* apiKeys.create({ key_name: "loopback" })
          const withNew = yield* Projects.Projects.pipe(
            Effect.flatMap((projects) => projects.listPage({ limit: 1 })),
            overFetch(baseUrl, created.key)
          )
          expect(withNew.projects).toHaveLength(1)
          yield* apiKeys.revoke({ key_id: created.id })
          const refused = yield* Projects.Projects.pipe(
            Effect.flatMap((projects) => projects.listPage()),
            overFetch(baseUrl, created.key),
            Effect.flip
          )
          expect(refused._tag).toBe("Unauthorized")

          // Over a socket the fake knows where a key was used from.
          const bootstrap = (yield* apiKeys.listPage()).find((key) => key.name === "bootstrap")!
          expect(bootstrap.last_used_from_addr).toContain("127.0.0.1")
        }).pipe(overFetch(baseUrl, fake.bootstrapKey))

        const anonymous = yield* Effect.promise(() => fetch(`${baseUrl}/projects`))
        expect(anonymous.status).toBe(401)
        expect(anonymous.headers.get("content-type")).toContain("application/json")
        const body = yield* Effect.promise(() => anonymous.json())
        expect(body).toMatchObject({ code: "", message: expect.any(String), request_id: expect.any(String) })
        return baseUrl
      }).pipe(Effect.provide(served))

      // The scope is closed: nothing listens there any more.
      const after = yield* Effect.either(Effect.tryPromise(() => fetch(`${baseUrl}/projects`)))
      expect(after._tag).toBe("Left")
    })
  )
})

describe("faults over a real loopback socket", () => {
  /** Runs `self` with the client over `fetch` to the served fake, authenticated by its bootstrap key. */
  const withClient = <A, E, R>(self: Effect.Effect<A, E, R>, options: ClientOptions = {}) =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      return yield* overFetch(yield* FakePlatform.serverBaseUrl, fake.bootstrapKey, options)(self)
    })
  const page = Effect.flatMap(Projects.Projects, (projects) => projects.listPage())
  const listProjects = withClient(page)
  /** One request, no retry: what the client makes of each answer as it came over the socket. */
  const listProjectsOnce = withClient(page, { retrySchedule: Schedule.stop })

  /**
   * Waits until the fake has received `count` requests, however long a busy machine takes to
   * deliver them (the test's timeout is the only bound): it looks every 10 ms.
   */
  const received = (count: number) =>
    Effect.flatMap(FakePlatform.FakePlatform, (fake) =>
      fake.requests.pipe(
        Effect.filterOrFail((requests) => requests.length >= count),
        Effect.retry(Schedule.spaced("10 millis"))
      )
    )

  it.live(
    "drop destroys the socket: fetch sees a network error (TransportError), and the next request is answered",
    () =>
      Effect.gen(function* () {
        const fake = yield* FakePlatform.FakePlatform
        yield* fake.faults.inject(Fault.drop, { method: "POST", path: "/api_keys" })
        const error = yield* withClient(
          Effect.flatMap(ApiKeys.ApiKeys, (apiKeys) => apiKeys.create({ key_name: "dropped" }))
        ).pipe(Effect.flip)
        expect(error).toMatchObject({ _tag: "TransportError", method: "POST", path: "/api_keys" })
        expect((yield* fake.apiKeys).map((key) => key.name)).toEqual(["bootstrap"])
        expect((yield* listProjects).projects).toHaveLength(2)
        expect((yield* fake.requests).map((request) => request.fault)).toEqual(["Drop", undefined])
      }).pipe(Effect.provide(served))
  )

  // After an aborted fetch, Node's `server.close()` waits for the next request's keep-alive connection
  // until undici's keep-alive timeout (4 s) ends it (plain `node:http` + `fetch` do the same; the fake is
  // not involved): the server here ends its connections when it closes, once the test is done with them.
  it.live("hang keeps the request open until the client is interrupted; the server answers the next request", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      yield* fake.faults.inject(Fault.hang)
      const fiber = yield* Effect.fork(listProjects)
      yield* received(1)
      expect(Option.isNone(yield* Fiber.poll(fiber))).toBe(true)
      expect(Exit.isInterrupted(yield* Fiber.interrupt(fiber))).toBe(true)
      expect((yield* listProjects).projects).toHaveLength(2)
      expect((yield* fake.requests).map((request) => request.fault)).toEqual(["Hang", undefined])
    }).pipe(Effect.provide(servedClosingConnections))
  )

  it.live("status faults reach fetch with their headers and bodies; malformed JSON stays malformed", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      yield* fake.faults.inject(
        Fault.status(429, { body: Fault.FaultBody.empty, headers: { "retry-after": "Wed, 21 Oct 2037 07:28:00 GMT" } })
      )
      yield* fake.faults.inject(Fault.status(502, { body: Fault.FaultBody.html("<html>Bad Gateway</html>") }))
      yield* fake.faults.inject(Fault.malformedJson)
      const limited = yield* Effect.flip(listProjectsOnce)
      expect(limited).toMatchObject({ _tag: "RateLimited", retryAfter: "Wed, 21 Oct 2037 07:28:00 GMT" })
      expect(yield* Effect.flip(listProjectsOnce)).toMatchObject({ _tag: "ServerError", status: 502 })
      expect(yield* Effect.flip(listProjectsOnce)).toMatchObject({ _tag: "MalformedResponse", status: 200 })
      const requests = yield* fake.requests
      expect(requests.map((request) => request.headers.authorization)).toEqual(Array(3).fill("Bearer <redacted>"))
      expect(JSON.stringify(requests)).not.toContain(Redacted.value(fake.bootstrapKey))
    }).pipe(Effect.provide(served))
  )

  it.live("no rendering of an error or a span of a faulty run over fetch holds the key", () => {
    const spans: Array<Tracer.Span> = []
    /** Effect's own tracer, keeping every span it makes. */
    const recording = Effect.map(Effect.tracer, (native) =>
      Tracer.make({
        span: (...args) => {
          const span = native.span(...args)
          spans.push(span)
          return span
        },
        context: native.context
      })
    )
    const run = Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const key = Redacted.value(fake.bootstrapKey)
      yield* fake.faults.inject(Fault.drop)
      yield* fake.faults.inject(
        Fault.status(401, {
          body: Fault.FaultBody.generalError({ message: `bad header Authorization: Bearer ${key}` })
        })
      )
      yield* fake.faults.inject(Fault.status(502, { body: Fault.FaultBody.text(`upstream said: Bearer ${key}`) }))
      yield* fake.faults.inject(Fault.hang)
      const exits = [
        yield* Effect.exit(listProjectsOnce),
        yield* Effect.exit(listProjectsOnce),
        yield* Effect.exit(listProjectsOnce),
        yield* Effect.exit(withClient(page, { retrySchedule: Schedule.stop, requestTimeout: "200 millis" }))
      ]
      expect(
        exits.map((exit) =>
          Exit.isFailure(exit) ? Cause.failureOption(exit.cause).pipe(Option.map((e) => e._tag)) : Option.none()
        )
      ).toEqual(["TransportError", "Unauthorized", "ServerError", "TransportError"].map(Option.some))
      const clientSpans = spans.filter((span) => span.kind === "client")
      // One span per call, named after its endpoint (docs/design.md §1).
      expect(clientSpans.map((span) => span.name)).toEqual(Array(4).fill("Projects.list"))
      const renderings = [
        ...exits.flatMap((exit) => [
          JSON.stringify(exit),
          util.inspect(exit, { depth: 30 }),
          Exit.isFailure(exit) ? Cause.pretty(exit.cause, { renderErrorCause: true }) : ""
        ]),
        // The client's spans: the served fake's own `http.server` spans carry the bodies it sent,
        // which these faults made echo the key on purpose.
        ...clientSpans.flatMap((span) => [
          span.name,
          util.inspect(span.attributes, { depth: 10 }),
          span.status._tag === "Ended" ? util.inspect(span.status.exit, { depth: 30 }) : "",
          span.status._tag === "Ended" ? JSON.stringify(span.status.exit) : ""
        ])
      ].join("\n")
      expect(renderings).toContain("Bearer <redacted>")
      expect(renderings).not.toContain(key)
      expect(renderings).not.toContain(key.slice(-16))
    })
    return Effect.flatMap(recording, (tracer) => run.pipe(Effect.provide(served), Effect.withTracer(tracer)))
  })
})
