import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Cause from "effect/Cause"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import { Api, Endpoint } from "@dbplatform/core"
import type { Fault, FaultBody } from "../Fault.js"
import { errorBody } from "./wire.js"

/** Where a pending fault applies and how many more times (`Infinity`: until cleared). */
interface Pending {
  readonly fault: Fault
  /** Upper-cased; `undefined` for any method. */
  readonly method: string | undefined
  /**
   * The path's segments under `/api/v2`, a `{name}` segment of a route template matching any
   * one segment; `undefined` for any path.
   */
  readonly segments: ReadonlyArray<string> | undefined
  /** The path as given to `inject`; `undefined` for any path. */
  readonly path: string | undefined
  readonly remaining: number
}

/** The prefix of every route; `inject`'s paths are relative to it. */
const apiPrefix = Endpoint.basePath

/** Whether a segment of a route template is a parameter, `{name}`. */
const isParameter = (segment: string): boolean => /^\{\w+\}$/.test(segment)

/** The route templates of the endpoints in scope, in the contract's spelling (docs/contract.md §4). */
const routeTemplates: ReadonlySet<string> = new Set(Api.endpoints.map((endpoint) => endpoint.route))

const matches = (pending: Pending, method: string, path: string): boolean => {
  if (pending.method !== undefined && pending.method !== method.toUpperCase()) return false
  if (pending.segments === undefined) return true
  if (!path.startsWith(`${apiPrefix}/`)) return false
  const segments = path.slice(apiPrefix.length).split("/")
  return (
    segments.length === pending.segments.length &&
    pending.segments.every((expected, i) =>
      isParameter(expected) ? segments[i]!.length > 0 : expected === segments[i]
    )
  )
}

/**
 * Why `path` cannot be a fault's path, or `undefined`: it must start with `/` and hold no query,
 * and one holding `{` or `:` is a route template, which must be the route of an entry of core's
 * `Api.endpoints`.
 */
const pathProblem = (path: string): string | undefined => {
  if (!path.startsWith("/") || path.includes("?")) {
    return `path must start with "/" and hold no query, got ${JSON.stringify(path)}`
  }
  if (/[{}:]/.test(path) && !routeTemplates.has(path)) {
    return `path ${JSON.stringify(path)} is not a route template of the API; the templates are ${[...routeTemplates].join(", ")}`
  }
  return undefined
}

/**
 * The faults waiting for a request, in injection order. A request takes the first one that
 * matches it (FIFO per match), which is then used up once.
 */
export class PendingFaults {
  private constructor(private readonly pending: Ref.Ref<ReadonlyArray<Pending>>) {}

  static readonly make = Effect.map(Ref.make<ReadonlyArray<Pending>>([]), (ref) => new PendingFaults(ref))

  /** Adds `fault` for the next `times` requests matching `method` and `path`; a defect on bad options. */
  inject(
    fault: Fault,
    options: {
      readonly method?: string | undefined
      readonly path?: string | undefined
      readonly times?: number | undefined
    }
  ): Effect.Effect<void> {
    const times = options.times ?? 1
    if (!(times === Number.POSITIVE_INFINITY || (Number.isInteger(times) && times >= 1))) {
      return Effect.die(new Cause.IllegalArgumentException(`times must be an integer >= 1 or Infinity, got ${times}`))
    }
    const path = options.path
    const problem = path === undefined ? undefined : pathProblem(path)
    if (problem !== undefined) return Effect.die(new Cause.IllegalArgumentException(problem))
    const pending: Pending = {
      fault,
      method: options.method?.toUpperCase(),
      segments: path?.split("/"),
      path,
      remaining: times
    }
    return Ref.update(this.pending, (all) => [...all, pending])
  }

  /** The pending faults, in injection order: each with where it applies and how many more times. */
  readonly list: Effect.Effect<
    ReadonlyArray<{
      readonly fault: Fault
      readonly method: string | undefined
      readonly path: string | undefined
      readonly remaining: number
    }>
  > = Effect.suspend(() =>
    Effect.map(Ref.get(this.pending), (all) =>
      all.map(({ fault, method, path, remaining }) => ({ fault, method, path, remaining }))
    )
  )

  /** Removes every pending fault. */
  readonly clear: Effect.Effect<void> = Effect.suspend(() => Ref.set(this.pending, []))

  /** The fault for a request, if one matches it, used up once. */
  take(method: string, path: string): Effect.Effect<Option.Option<Fault>> {
    return Ref.modify(this.pending, (all) => {
      const index = all.findIndex((pending) => matches(pending, method, path))
      if (index < 0) return [Option.none(), all]
      const found = all[index]!
      const rest =
        found.remaining > 1
          ? all.map((pending, i) => (i === index ? { ...pending, remaining: pending.remaining - 1 } : pending))
          : all.filter((_, i) => i !== index)
      return [Option.some(found.fault), rest]
    })
  }
}

/**
 * The defect a dropped connection dies with when there is no socket to destroy (in memory);
 * `FakeHttpClient` turns it into a `RequestError` of reason `"Transport"`.
 */
export class ConnectionDropped extends Data.TaggedError("ConnectionDropped")<{}> {
  override get message() {
    return "connection dropped by the fake platform (Fault.drop)"
  }
}

/** Statuses whose response has no body (web `Response` refuses one). */
const bodilessStatuses: ReadonlySet<number> = new Set([204, 205, 304])

const statusBody = (
  body: FaultBody,
  status: number,
  requestId: string | undefined
): { readonly text: string; readonly contentType: string } | undefined => {
  if (bodilessStatuses.has(status)) return undefined
  switch (body._tag) {
    case "GeneralError":
      return {
        contentType: "application/json",
        text: JSON.stringify(
          errorBody({
            code: body.code,
            message: body.message ?? `status ${status} (injected fault)`,
            requestId: body.request_id ?? requestId
          })
        )
      }
    case "Empty":
      return undefined
    case "Text":
      return { contentType: "text/plain; charset=utf-8", text: body.text }
    case "Html":
      return { contentType: "text/html; charset=utf-8", text: body.html }
  }
}

/** A `Status` fault's response: its status, body and headers. */
const statusResponse = (fault: Extract<Fault, { readonly _tag: "Status" }>) =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
    const body = statusBody(fault.body, fault.status, request.headers["x-request-id"])
    const options = { status: fault.status, headers: fault.headers }
    return body === undefined
      ? HttpServerResponse.empty(options)
      : HttpServerResponse.text(body.text, { ...options, contentType: body.contentType })
  })

/**
 * Drops the connection: destroys the Node socket under the request when there is one (duck
 * typed, so this package does not import node) and waits for the server to interrupt the
 * request's fiber as the connection closes; without a socket, dies with `ConnectionDropped`.
 */
const dropConnection = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
  const socket = (request.source as { readonly socket?: { readonly destroy?: unknown } } | null)?.socket
  if (typeof socket?.destroy !== "function") return Effect.die(new ConnectionDropped())
  ;(socket.destroy as () => void).call(socket)
  return Effect.interruptible(Effect.never)
})

/** A JSON body cut short. */
const truncatedJson = '{"operations":[{"id":"3f0c6b8e-1d2a-4c5b-9e7f-'

/**
 * The answer to a request that got `fault`; `answer` is the fake's real handling of the request
 * (authentication included).
 */
export const answerWith = <E, R>(
  fault: Fault,
  answer: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> => {
  switch (fault._tag) {
    case "Status":
      return fault.processed ? Effect.zipRight(answer, statusResponse(fault)) : statusResponse(fault)
    case "Delay":
      return Effect.zipRight(Effect.interruptible(Effect.sleep(fault.duration)), answer)
    case "Hang":
      return Effect.interruptible(Effect.never)
    case "Drop":
      return dropConnection
    case "MalformedJson":
      return Effect.succeed(HttpServerResponse.text(truncatedJson, { contentType: "application/json" }))
  }
}
