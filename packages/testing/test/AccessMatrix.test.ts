/**
 * Every kind of key against every route of core's `Api.endpoints` (iterated, never listed by
 * hand), on projects and organizations it reaches and on those it does not
 * (docs/contract.md §21): each answer is the status the rules give, and a refused request changes
 * nothing but the calling key's last use.
 *
 * The rules, as the contract states them: a revoked key is a 401; a project or an organization
 * the route names that the key does not act for is a 404; then a key of a kind the endpoint's
 * declaration does not name gets what it declares (a 403; the cells iterate the declarations
 * of every group, beside its handlers); anything else is answered as a personal key's request
 * there (the same status), the key being let through.
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Api, type Endpoint } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as FakePlatform from "../src/FakePlatform.js"
import type * as Seed from "../src/Seed.js"
import type { Snapshot } from "../src/Snapshot.js"
import { isGeneralError, operationId, send } from "./helpers.js"
import { madeOncePerFile } from "./perFile.js"
import type { Authorization, KeyKind } from "../src/engine/authorization.js"
import { authorizations } from "../src/internal/routes.js"

const alpha = "org-alpha-100001"
const beta = "org-beta-100002"
/** `alpha`'s projects, and one of `beta`, whose member the account's user is not. */
const projects = { p1: "alpha-one-100001", p2: "alpha-two-100002", p3: "beta-three-100003" } as const
type ProjectName = keyof typeof projects

const values = {
  organization: "matrix-organization-key-0001",
  scoped: "matrix-scoped-key-0002",
  revoked: "matrix-revoked-key-0003"
}

const seed: Seed.Seed = {
  organizations: [
    {
      id: alpha,
      api_keys: [
        { name: "ci", key: values.organization },
        { name: "app", key: values.scoped, project_id: projects.p1 },
        { name: "old", key: values.revoked }
      ]
    },
    { id: beta, members: [{ email: "someone@example.com", role: "admin" }] }
  ],
  projects: Object.entries(projects).map(([name, id]) => ({ id, org_id: name === "p3" ? beta : alpha })),
  branches: Object.values(projects).map((project_id, i) => ({
    project_id,
    id: `br-main-${i + 1}`,
    name: "main",
    default: true
  })),
  endpoints: Object.values(projects).map((_, i) => ({ branch_id: `br-main-${i + 1}`, id: `ep-main-${i + 1}` })),
  roles: Object.values(projects).map((_, i) => ({ branch_id: `br-main-${i + 1}`, name: "neondb_owner" })),
  databases: Object.values(projects).map((_, i) => ({
    branch_id: `br-main-${i + 1}`,
    name: "neondb",
    owner_name: "neondb_owner"
  })),
  operations: Object.values(projects).map((project_id, i) => ({
    project_id,
    id: operationId(i + 1),
    action: "create_timeline"
  }))
}

type KeyName = "personal" | "organization" | "scoped" | "revoked"
const keyNames: ReadonlyArray<KeyName> = ["personal", "organization", "scoped", "revoked"]

/** What a route names: a project, an organization, or neither. */
interface Target {
  readonly project?: ProjectName
  readonly org?: typeof alpha | typeof beta
}

const paramsOf = (route: string) => Array.from(route.matchAll(/\{(\w+)\}/g), ([, name]) => name!)

/** The targets of `endpoint`: each project for a route with one, each organization for one with one. */
const targetsOf = (endpoint: Endpoint.Endpoint): ReadonlyArray<Target> => {
  const params = paramsOf(endpoint.route)
  if (params.includes("project_id"))
    return (Object.keys(projects) as Array<ProjectName>).map((project) => ({ project }))
  if (params.includes("org_id") || params.includes("source_org_id")) return [{ org: alpha }, { org: beta }]
  return [{}]
}

/** Values tried, in order, for a path parameter the matrix has no value of its own for. */
const fallbacks = ["x-1", "00000000-0000-4000-8000-000000000001", "1", "aws-us-east-2"]

/** The path parameters of `endpoint` for `target`, as sent: each one its route's schema takes. */
const pathParams = (endpoint: Endpoint.Endpoint, target: Target): Record<string, string> => {
  const n = target.project === undefined ? 1 : Object.keys(projects).indexOf(target.project) + 1
  const known: Record<string, string> = {
    project_id: target.project === undefined ? projects.p1 : projects[target.project],
    org_id: target.org ?? alpha,
    source_org_id: target.org ?? alpha,
    branch_id: `br-main-${n}`,
    endpoint_id: `ep-main-${n}`,
    operation_id: operationId(n),
    role_name: "neondb_owner",
    database_name: "neondb",
    key_id: "1000001"
  }
  const params: Record<string, string> = {}
  for (const name of paramsOf(endpoint.route)) {
    params[name] = known[name] ?? fallbacks[0]!
    if (known[name] !== undefined || endpoint.params === undefined) continue
    const decodes = (value: string) =>
      Either.isRight(Schema.decodeUnknownEither(endpoint.params!)({ ...params, [name]: value }))
    params[name] = fallbacks.find(decodes) ?? fallbacks[0]!
  }
  return params
}

/** The request to `endpoint` for `target`: its path, no query, a `{}` body when it takes one. */
const requestOf = (endpoint: Endpoint.Endpoint, target: Target) => {
  const params = pathParams(endpoint, target)
  const path = endpoint.route.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]!))
  const request = HttpClientRequest.make(endpoint.method)(path)
  return endpoint.body === undefined ? Effect.succeed(request) : HttpClientRequest.bodyJson(request, {})
}

/** The kind of key each of the matrix's keys is (the revoked one is refused before its kind counts). */
const kindOf: Readonly<Record<Exclude<KeyName, "revoked">, KeyKind>> = {
  personal: "personal",
  organization: "organization",
  scoped: "project"
}

/** What the key reaches of the matrix's projects and organizations. */
const reach: Readonly<Record<KeyName, { readonly projects: ReadonlyArray<ProjectName>; readonly org: boolean }>> = {
  personal: { projects: ["p1", "p2"], org: true },
  organization: { projects: ["p1", "p2"], org: true },
  scoped: { projects: ["p1"], org: true },
  revoked: { projects: [], org: false }
}

/**
 * The status the rules give `key` for `endpoint` on `target`, by the endpoint's declared
 * `authorization`, or `"as personal"` when they let it through (then it is answered as the
 * personal key's request is).
 */
const expected = (key: KeyName, authorization: Authorization, target: Target): number | "as personal" => {
  if (key === "revoked") return 401
  if (target.project !== undefined && !reach[key].projects.includes(target.project)) return 404
  if (target.org === beta) return 404
  const keys: ReadonlyArray<KeyKind> = authorization.keys
  return keys.includes(kindOf[key]) ? "as personal" : authorization.otherwise
}

/** A snapshot without the keys' last use, which every authenticated request updates. */
const withoutUse = (snapshot: Snapshot) => ({
  ...snapshot,
  api_keys: snapshot.api_keys.map(({ last_used_at: _, last_used_from_addr: __, ...key }) => key)
})

/**
 * A fake of the matrix's seed, `old` revoked, with its state then (`fresh`: what each request of
 * every cell starts from) and each key's value.
 */
const matrix = Effect.gen(function* () {
  const fake = yield* FakePlatform.make(seed)
  const personal = Redacted.value(fake.bootstrapKey)
  const old = (yield* fake.snapshot).api_keys.find((key) => key.name === "old")!.id
  const revoked = yield* send(fake, HttpClientRequest.del(`/organizations/${alpha}/api_keys/${old}`), {
    key: personal
  })
  expect(revoked.status).toBe(200)
  // The control plane's operations due now, materialised before the state is compared.
  yield* fake.catchUp
  const keys: Record<KeyName, string> = {
    personal,
    organization: values.organization,
    scoped: values.scoped,
    revoked: values.revoked
  }
  return { fake, keys, fresh: yield* fake.snapshot }
})

type Matrix = Effect.Effect.Success<typeof matrix>

/**
 * The matrix's fake, made once for the file (`madeOncePerFile`): every request puts it back in its
 * `fresh` state first (`answer`), where a fake made per cell (the seed loaded, the routes built, a
 * key revoked) cost about as much as its requests.
 */
const shared = madeOncePerFile(matrix)

/**
 * One request of `key` to `endpoint` on `target`, on the matrix's fake put back in its fresh
 * state first (`Service.restore`: the whole state, as a fake made afresh has it; a fake built per
 * request cost three times as much): its status, body, and the state before and after.
 */
const answer = ({ fake, keys, fresh }: Matrix, key: KeyName, endpoint: Endpoint.Endpoint, target: Target) =>
  Effect.gen(function* () {
    yield* fake.restore(fresh)
    const before = yield* fake.snapshot
    const response = yield* send(fake, yield* requestOf(endpoint, target), { key: keys[key] })
    const body = yield* response.text
    const after = yield* fake.snapshot
    return { status: response.status, body, before, after }
  })

/** Each endpoint with its declared authorization, iterated from the declarations of every group. */
const declared = Object.entries(authorizations).flatMap(([group, entries]) =>
  Object.entries<Authorization>(entries).map(([key, authorization]) => ({
    endpoint: (Api.groups[group as keyof Api.Groups] as Readonly<Record<string, Endpoint.Endpoint>>)[key]!,
    authorization
  }))
)

const cells = declared.flatMap(({ endpoint, authorization }) =>
  targetsOf(endpoint).map((target) => ({
    endpoint,
    authorization,
    target,
    label: `${endpoint.name} ${JSON.stringify(target)}`
  }))
)

describe("keys × routes (docs/contract.md §21)", () => {
  it("covers every route of Api.endpoints", () => {
    expect(new Set(cells.map((cell) => cell.endpoint.name))).toEqual(new Set(Api.endpoints.map((e) => e.name)))
  })

  it.effect.each(cells.map((cell) => [cell.label, cell] as const))(
    "%s",
    ([, { endpoint, authorization, target }]) =>
      Effect.gen(function* () {
        const fake = yield* shared
        const personal = yield* answer(fake, "personal", endpoint, target)
        for (const key of keyNames) {
          const rule = expected(key, authorization, target)
          const got = key === "personal" ? personal : yield* answer(fake, key, endpoint, target)
          const where = `${key} key: ${endpoint.method} ${endpoint.route} ${JSON.stringify(target)}: ${got.body.slice(0, 200)}`
          if (rule === "as personal") {
            expect(got.status, where).toBe(personal.status)
            continue
          }
          expect(got.status, where).toBe(rule)
          expect(isGeneralError({ ...JSON.parse(got.body), request_id: "-" }), where).toBe(true)
          // A refused request changes nothing (but the calling key's last use).
          expect(withoutUse(got.after), where).toEqual(withoutUse(got.before))
        }
      }),
    // Four requests per route and target, each on the fresh state: generous, for a busy machine.
    60_000
  )
})
