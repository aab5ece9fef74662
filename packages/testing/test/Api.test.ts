/**
 * Every entry of core's `Api.endpoints` is reachable everywhere it must be (docs/design.md §1): a
 * method of the client service named like its group (`Roles.Roles` for `Roles.create`) in
 * `DbPlatform.layer`, that sends it (for a list, `<key>Page` sends it and `<key>` streams it); a
 * route in the fake; a line of the operation index of `docs/contract.md` with its name, method
 * and route; and cases of the published-reference test for each status it answers
 * (`publishedCases.ts`). An entry added without any one of these fails here.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Client from "@dbplatform/client"
import { Api, Endpoint } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Context from "effect/Context"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { readFileSync } from "node:fs"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakeHttpClient from "../src/FakeHttpClient.js"
import * as FakePlatform from "../src/FakePlatform.js"
import { operationId, send } from "./helpers.js"
import { madeOncePerFile } from "./perFile.js"
import { organization, project, seed, uncovered } from "./publishedCases.js"

/**
 * A sample value of each path parameter, by its name, as sent: ids of the seed of the
 * published-reference cases. A route with a parameter of another name fails until one is added.
 */
const sampleIds: Readonly<Record<string, string>> = {
  project_id: project,
  branch_id: "br-dev-100002",
  endpoint_id: "ep-dev-100002",
  operation_id: operationId(1),
  key_id: "1",
  role_name: "neondb_owner",
  database_name: "neondb",
  org_id: organization,
  member_id: "00000000-0000-4000-8000-000000000000",
  permission_id: "0f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f",
  source_org_id: "org-dbplatform-000000",
  region_id: "aws-us-east-2",
  vpc_endpoint_id: "vpce-0123456789abcdef0",
  request_id: "3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b0a",
  snapshot_id: "snap-dev-100001",
  slug: "hello"
}

/**
 * A sample value of the query parameters random samples rarely make valid (a timestamp, one of a
 * few words, a list sent comma-separated), by name, as a client passes them.
 */
const sampleQuery: Readonly<Record<string, unknown>> = {
  from: DateTime.unsafeMake("2026-11-02T09:00:00Z"),
  to: DateTime.unsafeMake("2026-11-02T10:00:00Z"),
  granularity: "hourly",
  org_id: "org-dbplatform-000000",
  metrics: ["compute_unit_seconds"],
  project_ids: [project]
}

/** The `{param}` names of a route. */
const paramsOf = (route: string) => Array.from(route.matchAll(/\{(\w+)\}/g), ([, name]) => name!)

/** The path parameters of `endpoint` as sent: the sample ids its route names. */
const sampleParams = (endpoint: Endpoint.Endpoint): Readonly<Record<string, string>> =>
  Object.fromEntries(paramsOf(endpoint.route).map((name) => [name, sampleIds[name] ?? `<no sample id for ${name}>`]))

/**
 * Values of `schema`'s type for an input: drawn from its encoded side (so that they pass the
 * checks a client's encoding makes), then decoded. Deterministic. Drawn one at a time, each from
 * a seed of its own, and only as far as the caller walks: `sampleInput` takes the first that
 * encodes, and drawing 50 of `Projects.update`'s body up front took 5 s, all of it on the event
 * loop.
 */
const samplesOf = function* (schema: Schema.Schema<any, any>): Generator<unknown> {
  const arbitrary = Arbitrary.make(Schema.encodedBoundSchema(schema))
  for (let run = 0; run < 50; run++) {
    const [encoded] = FastCheck.sample(arbitrary, { numRuns: 1, seed: 20261126 + run })
    const decoded = Schema.decodeUnknownEither(schema)(encoded)
    if (Either.isRight(decoded)) yield decoded.right
  }
}

/** `values`, walkable again and again; each value drawn from them once, when first reached. */
const drawnOnce = <A>(values: Iterator<A>): Iterable<A> => {
  const drawn: Array<A> = []
  return {
    *[Symbol.iterator]() {
      for (let i = 0; ; i++) {
        if (i === drawn.length) {
          const next = values.next()
          if (next.done === true) return
          drawn.push(next.value)
        }
        yield drawn[i]!
      }
    }
  }
}

/**
 * A whole input of `endpoint` (path parameters, query and body fields in one object, as a client
 * method takes it) that `Endpoint.encode` accepts: the sample ids, and the first query and body
 * drawn that encode with them.
 */
const sampleInput = (endpoint: Endpoint.Endpoint): Record<string, unknown> | undefined => {
  const params =
    endpoint.params === undefined
      ? {}
      : Either.getOrUndefined(Schema.decodeUnknownEither(endpoint.params)(sampleParams(endpoint)))
  if (params === undefined) return undefined
  const named = Object.fromEntries(
    Array.from(endpoint.parts).flatMap(([key, part]) =>
      part === "query" && key in sampleQuery ? [[key, sampleQuery[key]]] : []
    )
  )
  const queries = function* (query: Schema.Schema<any, any> | undefined) {
    yield {}
    if (query === undefined) return
    yield named
    yield* samplesOf(query)
  }
  const bodies = endpoint.body === undefined ? [{}] : drawnOnce(samplesOf(endpoint.body))
  for (const query of queries(endpoint.query)) {
    for (const body of bodies) {
      const input = { ...params, ...(query as object), ...(body as object) }
      if (Either.isRight(Endpoint.encode(endpoint, input))) return input
    }
  }
  return undefined
}

/** The group and the key of an entry: `Roles` and `create` for `Roles.create`. */
const partsOf = (endpoint: Endpoint.Endpoint) => {
  const [group = "", key = ""] = endpoint.name.split(".")
  return { group, key }
}

/** The client's service tag named like `group` (`Roles.Roles` of `@dbplatform/client`), if it exports one. */
const serviceTag = (group: string): Context.Tag<unknown, unknown> | undefined => {
  const module: unknown = Reflect.get(Client, group)
  const tag: unknown = typeof module === "object" && module !== null ? Reflect.get(module, group) : undefined
  return Context.isTag(tag) ? tag : undefined
}

/** Every service of `DbPlatform.layer`, over the fake in memory. */
const servicesOver = (fake: FakePlatform.Service) =>
  Layer.build(
    Client.DbPlatform.layer({ baseUrl: DbPlatformTest.baseUrl, apiKey: fake.bootstrapKey }).pipe(
      Layer.provide(Layer.succeed(HttpClient.HttpClient, FakeHttpClient.make(fake.httpApp)))
    )
  )

/**
 * The fake of the cases' seed and every service of `DbPlatform.layer` over it, made once for the
 * file (`madeOncePerFile`); each check puts the fake back as its seed makes it first
 * (`Service.reset`: the seed's state, its times from the check's own `TestClock`, no faults, an
 * empty request log): a fake and the services built per check cost about as much as the check.
 */
const shared = madeOncePerFile(
  Effect.gen(function* () {
    const fake = yield* FakePlatform.make(seed)
    return { fake, services: yield* servicesOver(fake) }
  })
)
/** The file's fake, put back as its seed makes it, and the services over it. */
const fresh = Effect.flatMap(shared, (made) => Effect.as(made.fake.reset, made))

/** The request the fake's router answers when no route has its method and path. */
const noRoute = { status: 404, message: "route not found" }

/** The status of the fake's answer to `request` (with the bootstrap key), and its `message` if it has one. */
const answerTo = (fake: FakePlatform.Service, request: HttpClientRequest.HttpClientRequest) =>
  Effect.gen(function* () {
    const response = yield* send(fake, request, { key: fake.bootstrapKey })
    const text = yield* response.text
    const body: unknown = text === "" ? undefined : JSON.parse(text)
    const message = typeof body === "object" && body !== null ? Reflect.get(body, "message") : undefined
    return { status: response.status, message }
  })

/** The docs' contract, where the operation index is. */
const contract = readFileSync(new URL("../../../docs/contract.md", import.meta.url), "utf8")

/**
 * What keeps `DbPlatform.layer` from sending `endpoint` with the method named like it: no
 * service named like its group, no method named like its key (for a list, no `<key>` or no
 * `<key>Page`), no input that encodes, or a call that sends no request with its method to its
 * path. `undefined` when it sends it.
 */
const clientProblem = (endpoint: Endpoint.Endpoint) =>
  Effect.gen(function* () {
    const { group, key } = partsOf(endpoint)
    const tag = serviceTag(group)
    if (tag === undefined) return `@dbplatform/client exports no service ${group}.${group}`
    const { fake, services } = yield* fresh
    const service = Option.getOrUndefined(Context.getOption(services, tag))
    if (typeof service !== "object" || service === null) return `DbPlatform.layer provides no ${group}.${group}`
    // A list's `<key>` is the Stream of its items; `<key>Page` its one request.
    for (const name of endpoint.list === undefined ? [key] : [key, `${key}Page`]) {
      if (typeof Reflect.get(service, name) !== "function") return `${group}.${group} has no method ${name}`
    }
    const sender: (input: unknown) => Effect.Effect<unknown, unknown> = Reflect.get(
      service,
      endpoint.list === undefined ? key : `${key}Page`
    )
    const input = sampleInput(endpoint)
    if (input === undefined) return "no sample input encodes"
    const encoded = Either.getOrThrow(Endpoint.encode(endpoint, input))
    // Whatever the fake answers (a 404 for an id it does not hold is as good): the request is what counts.
    yield* Effect.exit(sender(input))
    const wanted = `${endpoint.method} ${Endpoint.basePath}${encoded.path}`
    const sent = (yield* fake.requests).map((request) => `${request.method} ${request.path}`)
    return sent.includes(wanted) ? undefined : `sent ${JSON.stringify(sent)}, not ${wanted}`
  })

/** The fake's "no route" answer to `endpoint`'s method and route with sample ids, or `undefined` when a route answers. */
const routeProblem = (endpoint: Endpoint.Endpoint) =>
  Effect.gen(function* () {
    const { fake } = yield* fresh
    const path = Endpoint.path(endpoint.route, sampleParams(endpoint))
    const answer = yield* answerTo(fake, HttpClientRequest.make(endpoint.method)(path))
    return answer.status === noRoute.status && answer.message === noRoute.message
      ? `${endpoint.method} ${path}: ${answer.status} ${answer.message}`
      : undefined
  })

/**
 * `undefined` when a line of `docs/contract.md` holds `endpoint`'s name in backticks, its method
 * and its route (the operation index, §16).
 */
const indexProblem = (endpoint: Endpoint.Endpoint) => {
  const method = new RegExp(`(^|[^A-Z])${endpoint.method}([^A-Z]|$)`)
  const found = contract
    .split("\n")
    .some((line) => line.includes(`\`${endpoint.name}\``) && line.includes(endpoint.route) && method.test(line))
  return found ? undefined : `no line with \`${endpoint.name}\`, ${endpoint.method} and ${endpoint.route}`
}

/** The statuses of `endpoint` no published-reference case covers, or `undefined` when none. */
const referenceProblem = (endpoint: Endpoint.Endpoint) => {
  const missing = uncovered(endpoint)
  return missing.length === 0 ? undefined : `no case for ${missing.join(", ")}`
}

describe("every entry of Api.endpoints", () => {
  describe.each(Api.endpoints.map((endpoint) => [endpoint.name, endpoint] as const))("%s", (_, endpoint) => {
    const { group, key } = partsOf(endpoint)

    it.effect(`has a client method (${group}.${key}) in DbPlatform.layer that sends it`, () =>
      Effect.map(clientProblem(endpoint), (problem) => expect(problem).toBeUndefined())
    )

    it.effect(`has a route in the fake (${endpoint.method} ${endpoint.route})`, () =>
      Effect.map(routeProblem(endpoint), (problem) => expect(problem).toBeUndefined())
    )

    it("has a line in docs/contract.md's operation index with its name, method and route", () => {
      expect(indexProblem(endpoint)).toBeUndefined()
    })

    it("has a published-reference case for each status it answers on its own", () => {
      expect(referenceProblem(endpoint)).toBeUndefined()
    })
  })

  it.effect("the checks catch an entry nothing knows: no method, no route, no index line, no case", () =>
    Effect.gen(function* () {
      // An entry declared as core declares one, under a key and a route no one added: in a group
      // that exists, and in a group no service is named like.
      const entry = Endpoint.make({
        method: "POST",
        route: "/projects/{project_id}/branches/{branch_id}/roles/{role_name}/rename",
        params: Api.Roles.get.params,
        success: Api.Roles.get.success,
        errors: ["NotFound", "Forbidden", "BadRequest"]
      })
      const { rename: stranger } = Endpoint.group("Roles", { rename: entry })
      const { get: foreigner } = Endpoint.group("Strangers", { get: entry })
      expect(yield* clientProblem(stranger)).toBe("Roles.Roles has no method rename")
      expect(yield* routeProblem(stranger)).toMatch(/: 404 route not found$/)
      expect(indexProblem(stranger)).toMatch(/^no line with `Roles.rename`/)
      expect(referenceProblem(stranger)).toBe("no case for 200, 404, 403, 400")
      expect(yield* clientProblem(foreigner)).toBe("@dbplatform/client exports no service Strangers.Strangers")
      // And the fake's "no route" is what `routeProblem` takes it for: a 404 "route not found".
      const { fake } = yield* fresh
      expect(yield* answerTo(fake, HttpClientRequest.put("/projects"))).toEqual(noRoute)
    })
  )
})
