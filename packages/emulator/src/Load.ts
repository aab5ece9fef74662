/**
 * A bounded load test of a running emulator (or any server of the control API v2 you may
 * create keys on): `clients` concurrent clients, each sending its next request as soon as the
 * previous one is answered, for `duration` (or `requests` each), over `fetch` with keep-alive.
 * The mix per client, in turns of ten requests: 4 × `GET /projects`, 3 × a page of 20
 * operations, 2 × one operation, 1 × `POST /api_keys`. At the end one `GET /api_keys` checks
 * that every key created is listed.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"

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
  /** Wall-clock time from the first request to the last answer, in milliseconds. */
  readonly elapsedMs: number
  /** Requests answered (any status), not counting the setup and final check. */
  readonly answered: number
  /** Answers by HTTP status. */
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

/** An error of the setup or final check: the load test cannot say anything. */
class LoadSetupError extends Error {}

/**
 * Runs the load test. Fails only if the setup (listing projects and operations to request) or
 * the final `GET /api_keys` fails; every other failure is counted in the report.
 *
 * @since 0.1.0
 */
export const run = (options: LoadOptions): Effect.Effect<LoadReport, Error> =>
  Effect.gen(function* () {
    const clients = options.clients ?? 200
    const duration = Duration.toMillis(options.duration ?? "10 seconds")
    const turns = options.requests
    const headers = { authorization: `Bearer ${Redacted.value(options.apiKey)}`, accept: "application/json" }
    const getJson = (path: string) =>
      Effect.tryPromise({
        try: async () => {
          const response = await fetch(`${options.baseUrl}${path}`, { headers })
          if (response.status !== 200) throw new LoadSetupError(`GET ${path}: ${response.status}`)
          return (await response.json()) as any
        },
        catch: (error) => (error instanceof Error ? error : new Error(String(error)))
      })

    const projects = (yield* getJson("/projects?limit=400")).projects as Array<{ id: string }>
    const targets: Array<{ project: string; operation: string | undefined }> = []
    for (const project of projects) {
      const page = yield* getJson(`/projects/${project.id}/operations?limit=1`)
      targets.push({ project: project.id, operation: page.operations[0]?.id })
    }
    if (targets.length === 0) return yield* Effect.fail(new LoadSetupError("the account has no project"))
    const keysBefore = new Set(((yield* getJson("/api_keys")) as Array<{ id: number }>).map((key) => key.id))

    const byStatus: Record<string, number> = {}
    const created: Array<number> = []
    const unansweredSamples: Array<string> = []
    let answered = 0
    let unanswered = 0

    const request = (client: number, turn: number): Promise<void> => {
      const target = targets[(client + turn) % targets.length]!
      const step = turn % 10
      const init: RequestInit =
        step === 9
          ? {
              method: "POST",
              headers: { ...headers, "content-type": "application/json" },
              body: JSON.stringify({ key_name: `load-${client}-${turn}` })
            }
          : { headers }
      const path =
        step < 4
          ? "/projects"
          : step < 7 || target.operation === undefined
            ? `/projects/${target.project}/operations?limit=20`
            : step < 9
              ? `/projects/${target.project}/operations/${target.operation}`
              : "/api_keys"
      return fetch(`${options.baseUrl}${path}`, init).then(
        async (response) => {
          const body = await response.text()
          answered += 1
          byStatus[response.status] = (byStatus[response.status] ?? 0) + 1
          if (step === 9 && response.status === 200) created.push(JSON.parse(body).id)
        },
        (error: unknown) => {
          unanswered += 1
          if (unansweredSamples.length < 5) unansweredSamples.push(String((error as any)?.cause ?? error))
        }
      )
    }

    const start = yield* Clock.currentTimeMillis
    const deadline = start + duration
    yield* Effect.forEach(
      Array.from({ length: clients }, (_, client) => client),
      (client) =>
        Effect.promise(async () => {
          for (let turn = 0; turns === undefined ? Date.now() < deadline : turn < turns; turn++) {
            await request(client, turn)
          }
        }),
      { concurrency: "unbounded", discard: true }
    )
    const elapsedMs = (yield* Clock.currentTimeMillis) - start

    const listed = new Set(((yield* getJson("/api_keys")) as Array<{ id: number }>).map((key) => key.id))
    return {
      clients,
      elapsedMs,
      answered,
      byStatus,
      unanswered,
      unansweredSamples,
      requestsPerSecond: answered / (elapsedMs / 1000),
      keysCreated: created.length,
      keysListed: created.filter((id) => listed.has(id) && !keysBefore.has(id)).length
    }
  })
