/**
 * A bounded load test of a running emulator (or any server of the control API v2 you may
 * create keys on): `clients` concurrent clients, each sending its next request as soon as the
 * previous one is answered, for `duration` (or `requests` each), over the `HttpClient` it is
 * given (the `load` script gives it `NodeHttpClient.layerUndici`, which keeps connections
 * alive). The mix per client, in turns of ten requests: 4 × `GET /projects`, 3 × a page of 20
 * operations, 2 × one operation, 1 × `POST /api_keys`. At the end one `GET /api_keys` checks
 * that every key created is listed.
 *
 * Every request is built from core's endpoints (`Api`): routes, path parameters and
 * queries are encoded by the endpoints' schemas, and the answers of the setup, of the final
 * check and of each key creation are decoded by them.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { Api, type ApiKeyId, Endpoint, ErrorLine } from "@dbplatform/core"
import * as Chunk from "effect/Chunk"
import * as Clock from "effect/Clock"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Predicate from "effect/Predicate"
import type * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"

/**
 * What to load: the emulator's base URL and an API key, how many clients at once and for how
 * long.
 *
 * @since 0.1.0
 */
export interface LoadOptions {
  /** The base URL with its version segment, e.g. `http://127.0.0.1:4010/api/v2`. */
  readonly baseUrl: string
  readonly apiKey: Redacted.Redacted<string>
  /** Concurrent clients; 200 by default. */
  readonly clients?: number | undefined
  /** How long they send requests; 10 seconds by default. Not used when `requests` is given. */
  readonly duration?: Duration.DurationInput | undefined
  /**
   * Requests each client sends, whatever the time they take; when given, `duration` is not
   * used. A run bounded by work rather than by time: the same figures on a slow or busy machine.
   */
  readonly requests?: number | undefined
}

/**
 * What a load test saw.
 *
 * @since 0.1.0
 */
export interface LoadReport {
  readonly clients: number
  /** Time on the `Clock` from the first request to the last answer, in milliseconds. */
  readonly elapsedMs: number
  /** Requests answered (any status), not counting the setup and final check. */
  readonly answered: number
  /** Answers by HTTP status; `"200 malformed"` counts key creations answered 200 with a body that is not a key. */
  readonly byStatus: Readonly<Record<string, number>>
  /** Requests that got no answer (network error), with the first few messages. */
  readonly unanswered: number
  readonly unansweredSamples: ReadonlyArray<string>
  /** Requests per second: `answered / elapsed`. */
  readonly requestsPerSecond: number
  /** Keys whose `POST /api_keys` was answered 200. */
  readonly keysCreated: number
  /** Of those, how many `GET /api_keys` lists at the end. */
  readonly keysListed: number
}

/**
 * Whether a report shows requests sent, every one answered with a 200, and every created key
 * listed.
 *
 * @since 0.1.0
 */
export const isClean = (report: LoadReport): boolean =>
  report.answered > 0 &&
  report.unanswered === 0 &&
  Object.keys(report.byStatus).every((status) => status === "200") &&
  report.keysCreated === report.keysListed

/**
 * One line per figure, for a terminal.
 *
 * @since 0.1.0
 */
export const format = (report: LoadReport): string =>
  [
    `clients: ${report.clients}, elapsed: ${(report.elapsedMs / 1000).toFixed(2)} s`,
    `answered: ${report.answered} (${Object.entries(report.byStatus)
      .map(([status, count]) => `${status}: ${count}`)
      .join(", ")}), unanswered: ${report.unanswered}`,
    `throughput: ${Math.round(report.requestsPerSecond)} requests/s`,
    `keys created: ${report.keysCreated}, keys listed: ${report.keysListed}`
  ].join("\n")

/**
 * The setup or the final check failed (a request unanswered, not a 200, or an answer that is not
 * what its endpoint declares; or an account without projects): the load test cannot say anything.
 *
 * @since 0.2.0
 * @category errors
 */
export class LoadError extends Data.TaggedError("LoadError")<{ readonly reason: string }> {
  override get message(): string {
    return this.reason
  }
}

/**
 * The request `input` makes to `endpoint`: its path parameters, query and body encoded by the
 * endpoint's schemas (core's `Endpoint.encode`), its path relative to the base URL. Input the
 * schemas refuse is a `LoadError`.
 */
const requestTo = <E extends Endpoint.Endpoint>(endpoint: E, input: Endpoint.Input<E>) =>
  Effect.mapBoth(Endpoint.encode(endpoint, input), {
    onFailure: (error) => new LoadError({ reason: `${describe(endpoint)}: ${ErrorLine.fromError(error)}` }),
    onSuccess: ({ body, path, query }) => {
      const request = HttpClientRequest.make(endpoint.method)(path, { urlParams: query })
      return body === undefined ? request : HttpClientRequest.bodyUnsafeJson(request, body)
    }
  })

/** `METHOD route`, to name a request in a message. */
const describe = (endpoint: Endpoint.Endpoint) => `${endpoint.method} ${endpoint.route}`

/** Why a request got no answer, in one line: the cause of the transport error when it has one. */
const unansweredReason = (error: HttpClientError.HttpClientError): string => {
  const cause: unknown = error.cause
  return ErrorLine.fromError(
    Predicate.hasProperty(cause, "cause") && cause.cause !== undefined ? cause.cause : (cause ?? error)
  )
}

/** What the clients saw, updated as each answer comes. */
interface Tally {
  readonly answered: number
  readonly byStatus: Readonly<Record<string, number>>
  readonly unanswered: number
  readonly unansweredSamples: ReadonlyArray<string>
  /** Ids of the keys whose creation was answered 200. */
  readonly created: Chunk.Chunk<ApiKeyId>
}

const emptyTally: Tally = { answered: 0, byStatus: {}, unanswered: 0, unansweredSamples: [], created: Chunk.empty() }

/** Counts an answer with `status` (`"200"`, or `"200 malformed"` for a key creation whose answer does not decode). */
const answeredWith =
  (status: string, created: Option.Option<ApiKeyId>) =>
  (tally: Tally): Tally => ({
    ...tally,
    answered: tally.answered + 1,
    byStatus: { ...tally.byStatus, [status]: (tally.byStatus[status] ?? 0) + 1 },
    created: Option.match(created, { onNone: () => tally.created, onSome: (id) => Chunk.append(tally.created, id) })
  })

/** Counts a request that got no answer; keeps the first five reasons. */
const unansweredWith =
  (reason: string) =>
  (tally: Tally): Tally => ({
    ...tally,
    unanswered: tally.unanswered + 1,
    unansweredSamples:
      tally.unansweredSamples.length < 5 ? [...tally.unansweredSamples, reason] : tally.unansweredSamples
  })

/**
 * Runs the load test with the `HttpClient` in context (e.g. `NodeHttpClient.layerUndici`). Fails
 * with `LoadError` only if the setup (listing projects and operations to request) or the final
 * `GET /api_keys` fails; every other failure is counted in the report. Time is read from the
 * `Clock`: with `duration`, each client sends its next request while the deadline is not past.
 *
 * @since 0.1.0
 */
export const run = (options: LoadOptions): Effect.Effect<LoadReport, LoadError, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const clients = options.clients ?? 200
    const duration = Duration.toMillis(options.duration ?? "10 seconds")
    const turns = options.requests
    // No span and no trace headers per request: the load generator's CPU time is taken from the
    // server under test when both run on one machine.
    const http = (yield* HttpClient.HttpClient).pipe(
      HttpClient.withTracerDisabledWhen(() => true),
      HttpClient.withTracerPropagation(false)
    )
    /** The request to send for `input`: full URL and headers, built once for the requests sent again and again. */
    const prepared = <E extends Endpoint.Endpoint>(endpoint: E, input: Endpoint.Input<E>) =>
      Effect.map(requestTo(endpoint, input), (request) =>
        request.pipe(
          HttpClientRequest.prependUrl(options.baseUrl),
          HttpClientRequest.bearerToken(options.apiKey),
          HttpClientRequest.acceptJson
        )
      )

    /** The 200 answer to a request of the setup or final check, decoded by its endpoint's schema. */
    const call = <E extends Endpoint.Endpoint>(
      endpoint: E,
      input: Endpoint.Input<E>
    ): Effect.Effect<Endpoint.Success<E>, LoadError> =>
      Effect.flatMap(prepared(endpoint, input), (request) =>
        http.execute(request).pipe(
          Effect.flatMap(HttpClientResponse.filterStatusOk),
          Effect.flatMap(HttpClientResponse.schemaBodyJson(endpoint.success)),
          Effect.scoped,
          Effect.mapError((error) => new LoadError({ reason: `${describe(endpoint)}: ${ErrorLine.fromError(error)}` }))
        )
      )

    const projects = (yield* call(Api.Projects.list, { limit: Api.projectsPageLimits.max })).projects
    if (projects.length === 0) return yield* new LoadError({ reason: "the account has no project" })
    // For each project, a page of 20 operations and (when it has one) its newest operation.
    const targets = yield* Effect.forEach(projects, (project) =>
      Effect.gen(function* () {
        const newest = (yield* call(Api.Operations.list, { project_id: project.id, limit: 1 })).operations[0]
        return {
          page: yield* prepared(Api.Operations.list, { project_id: project.id, limit: 20 }),
          operation:
            newest === undefined
              ? undefined
              : yield* prepared(Api.Operations.get, { project_id: project.id, operation_id: newest.id })
        }
      })
    )
    const keysBefore = new Set((yield* call(Api.ApiKeys.list, {})).map((key) => key.id))
    const listProjects = yield* prepared(Api.Projects.list, {})
    const decodeCreated = HttpClientResponse.schemaBodyJson(Api.ApiKeys.create.success)

    const tally = yield* Ref.make(emptyTally)
    /** The `turn`th request of `client`, counted in the tally whatever its outcome. */
    const send = (client: number, turn: number) => {
      const target = targets[(client + turn) % targets.length]!
      const step = turn % 10
      const creation = step === 9
      const request = creation
        ? prepared(Api.ApiKeys.create, { key_name: `load-${client}-${turn}` })
        : Effect.succeed(
            step < 4 ? listProjects : step < 7 || target.operation === undefined ? target.page : target.operation
          )
      return Effect.flatMap(request, http.execute).pipe(
        Effect.flatMap((response) =>
          creation && response.status === 200
            ? decodeCreated(response).pipe(
                Effect.match({
                  onFailure: () => answeredWith("200 malformed", Option.none()),
                  onSuccess: (key) => answeredWith("200", Option.some(key.id))
                })
              )
            : Effect.as(response.text, answeredWith(String(response.status), Option.none()))
        ),
        Effect.scoped,
        Effect.catchAll((error) =>
          Effect.succeed(unansweredWith(error._tag === "LoadError" ? error.reason : unansweredReason(error)))
        ),
        Effect.flatMap((update) => Ref.update(tally, update))
      )
    }

    const start = yield* Clock.currentTimeMillis
    const deadline = start + duration
    /** Whether a client that has sent `turn` requests sends another. */
    const goesOn = (turn: number) =>
      turns === undefined ? Effect.map(Clock.currentTimeMillis, (now) => now < deadline) : Effect.succeed(turn < turns)
    const runClient = (client: number, turn = 0): Effect.Effect<void> =>
      Effect.flatMap(goesOn(turn), (more) =>
        more
          ? Effect.zipRight(
              send(client, turn),
              Effect.suspend(() => runClient(client, turn + 1))
            )
          : Effect.void
      )
    yield* Effect.forEach(Chunk.range(0, clients - 1), (client) => runClient(client), {
      concurrency: "unbounded",
      discard: true
    })
    const elapsedMs = (yield* Clock.currentTimeMillis) - start

    const listed = new Set((yield* call(Api.ApiKeys.list, {})).map((key) => key.id))
    const seen = yield* Ref.get(tally)
    const created = Chunk.toReadonlyArray(seen.created)
    return {
      clients,
      elapsedMs,
      answered: seen.answered,
      byStatus: seen.byStatus,
      unanswered: seen.unanswered,
      unansweredSamples: seen.unansweredSamples,
      requestsPerSecond: seen.answered / (elapsedMs / 1000),
      keysCreated: created.length,
      keysListed: created.filter((id) => listed.has(id) && !keysBefore.has(id)).length
    }
  })
