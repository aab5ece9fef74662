/**
 * Faults the fake platform can inject into its answers, to test how a client copes with what
 * sits between it and the API (docs/contract.md §10.1, §10.2): a proxy or
 * gateway that answers 401/429/502/503/504 with an empty, HTML or plain-text body, a
 * `Retry-After` header, a slow or silent server, a dropped connection, a broken body.
 *
 * Inject one with `FakePlatform.Service.faults.inject`:
 *
 * ```ts
 * const fake = yield* FakePlatform.FakePlatform
 * yield* fake.faults.inject(Fault.status(429, { body: Fault.FaultBody.empty, headers: { "retry-after": "2" } }), {
 *   method: "GET",
 *   path: "/projects/{project_id}/operations",
 *   times: 2
 * })
 * ```
 *
 * Each fault is answered the same way in memory (`FakeHttpClient`, `DbPlatformTest.layer`)
 * and on a real socket (`FakePlatform.layerServer`), except where a constructor says otherwise.
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"

/**
 * The body of a {@link status} fault:
 *
 * - `GeneralError`: the API's JSON error body `{ code, message, request_id }`
 *   (`application/json`), as the API itself would answer.
 * - `Empty`: no body at all, as a proxy may answer.
 * - `Text`: a `text/plain` body, as a proxy may answer.
 * - `Html`: a `text/html` body, e.g. a load balancer's error page.
 *
 * @since 0.1.0
 * @category models
 */
export type FaultBody = Data.TaggedEnum<{
  GeneralError: {
    /** The error code; `""` when absent (the API's `code` may be empty). */
    readonly code?: string | undefined
    /** The message; when absent, one naming the status, e.g. `status 502 (injected fault)`. */
    readonly message?: string | undefined
    /** The `request_id`; when absent, the request's `X-Request-ID`, or a new UUID without one. */
    readonly request_id?: string | undefined
  }
  Empty: {}
  Text: { readonly text: string }
  Html: { readonly html: string }
}>

const Bodies = Data.taggedEnum<FaultBody>()

/**
 * Constructors of {@link FaultBody}: `generalError({ code?, message?, request_id? })`,
 * `empty`, `text(text)` and `html(html)`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const FaultBody: {
  readonly generalError: (fields?: {
    readonly code?: string | undefined
    readonly message?: string | undefined
    readonly request_id?: string | undefined
  }) => FaultBody
  readonly empty: FaultBody
  readonly text: (text: string) => FaultBody
  readonly html: (html: string) => FaultBody
} = {
  generalError: (fields = {}) => Bodies.GeneralError(fields),
  empty: Bodies.Empty(),
  text: (text) => Bodies.Text({ text }),
  html: (html) => Bodies.Html({ html })
}

/**
 * A fault, by its `_tag`:
 *
 * - `Status`: answer with `status`, `body` and `headers` instead of the real answer; when
 *   `processed`, the fake carries the request out first.
 * - `Delay`: wait `duration` on the `Clock`, then answer normally.
 * - `Hang`: never answer.
 * - `Drop`: drop the connection without an answer.
 * - `MalformedJson`: answer 200 with an `application/json` body that is not JSON.
 *
 * The request log (`FakePlatform.Service.requests`) names the `_tag` of the fault a request got.
 *
 * @since 0.1.0
 * @category models
 */
export type Fault = Data.TaggedEnum<{
  Status: {
    readonly status: number
    readonly body: FaultBody
    readonly headers: Readonly<Record<string, string>>
    readonly processed: boolean
  }
  Delay: { readonly duration: Duration.Duration }
  Hang: {}
  Drop: {}
  MalformedJson: {}
}>

const Faults = Data.taggedEnum<Fault>()

/**
 * Answers with HTTP `status` (an integer from 200 to 599; a `RangeError` otherwise) instead of
 * the real answer, before authentication, as a proxy or gateway in front of the API would
 * (`docs/contract.md` §10.1: 401/429/502/503/504 with an empty, HTML or text body; §10.2:
 * 423/429/503 were not carried out, 500/502/504 may have been).
 *
 * - `body`: `FaultBody.generalError()` by default, a `GeneralError` with `code` `""`, a message
 *   naming the status and the request's `X-Request-ID` as `request_id`. A 204, 205 or 304
 *   carries no body, whatever `body` says.
 * - `headers`: added to the answer, e.g. `{ "retry-after": "2" }` (seconds or an HTTP date).
 * - `processed`: `false` by default: the request is not carried out. When `true`, the fake
 *   carries it out first (authentication included: e.g. `POST /api_keys` really creates the
 *   key) and then answers with this status instead, like a gateway's 502 after the API acted.
 *
 * @since 0.1.0
 * @category constructors
 */
export const status = (
  status: number,
  options: {
    readonly body?: FaultBody | undefined
    readonly headers?: Readonly<Record<string, string>> | undefined
    readonly processed?: boolean | undefined
  } = {}
): Fault => {
  if (!Number.isInteger(status) || status < 200 || status > 599) {
    throw new RangeError(`Fault.status: status must be an integer from 200 to 599, got ${status}`)
  }
  return Faults.Status({
    status,
    body: options.body ?? FaultBody.generalError(),
    headers: options.headers ?? {},
    processed: options.processed ?? false
  })
}

/**
 * Waits `duration` (a `Duration` or its input: `"2 seconds"`, a number of milliseconds...) on
 * the `Clock`, then answers normally. In memory the wait runs in the caller's fiber, so
 * `TestClock.adjust` ends it; on a real socket it is real time. The wait is interruptible.
 *
 * @since 0.1.0
 * @category constructors
 */
export const delay = (duration: Duration.DurationInput): Fault => Faults.Delay({ duration: Duration.decode(duration) })

/**
 * Never answers: the request stays open until the client gives up. Interrupting the client's
 * fiber ends it: in memory the fake runs in that fiber; on a real socket the client's abort
 * closes the connection and the server interrupts the request's fiber. Use it to test
 * timeouts and interruption.
 *
 * @since 0.1.0
 * @category constructors
 */
export const hang: Fault = Faults.Hang()

/**
 * Drops the connection without an answer (docs/contract.md §10.2: no response,
 * unknown whether processed; this fault does not carry the request out). In memory,
 * `FakeHttpClient` fails the request with an `HttpClientError.RequestError` of reason
 * `"Transport"`. On a real socket (`FakePlatform.layerServer` on `NodeHttpServer`) the
 * fake destroys the request's socket, so a client sees a network error; a server whose
 * requests have no Node socket answers 500 instead.
 *
 * @since 0.1.0
 * @category constructors
 */
export const drop: Fault = Faults.Drop()

/**
 * Answers 200 with `content-type: application/json` and a body that is not JSON (truncated),
 * without carrying the request out: a client should fail to decode it.
 *
 * @since 0.1.0
 * @category constructors
 */
export const malformedJson: Fault = Faults.MalformedJson()
