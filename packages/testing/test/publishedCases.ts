/**
 * The requests that make the fake answer, for every endpoint of core's groups (`Api.endpoints`),
 * each success status it declares and each error status it answers on its own (not through an
 * injected fault): the cases `published-reference.test.ts` validates against the platform's
 * published OpenAPI v2 document, and {@link uncovered}, the statuses of an endpoint no case
 * covers yet (`Api.test.ts` requires none for every entry).
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Api, type Endpoint } from "@dbplatform/core"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import type * as FakePlatform from "../src/FakePlatform.js"
import type * as Seed from "../src/Seed.js"
import { operationId, send } from "./helpers.js"

export const project = "spring-example-302709"
const pendingProject = "bold-river-120001"

const main = "br-main-100001"
const dev = "br-dev-100002"
const feature = "br-feature-100003"
const branches = `/projects/${project}/branches`
const endpoints = `/projects/${project}/endpoints`
const devEndpoint = "ep-dev-100002"

export const seed: Seed.Seed = {
  projects: [
    { id: project, name: "spring example" },
    { id: "shared-leaf-100001", shared: true },
    { id: pendingProject }
  ],
  branches: [
    { project_id: project, id: main, name: "main", default: true },
    { project_id: project, id: dev, name: "dev", parent_id: main },
    { project_id: project, id: feature, name: "feature", parent_id: dev }
  ],
  endpoints: [{ branch_id: dev, id: devEndpoint, type: "read_write" }],
  // The roles and databases of `main`, and their copies on `dev`.
  roles: [main, dev].map((branch_id) => ({ branch_id, name: "neondb_owner", password: "npg_Ow4erPa55" })),
  databases: [main, dev].map((branch_id, i) => ({
    branch_id,
    id: 1_000_001 + i,
    name: "neondb",
    owner_name: "neondb_owner"
  })),
  operations: [
    { project_id: project, id: operationId(1), action: "create_timeline", age: "1 hour" },
    {
      project_id: project,
      id: operationId(2),
      action: "start_compute",
      age: "10 minutes",
      status: "failed",
      error: "no"
    },
    { project_id: pendingProject, id: operationId(3), action: "start_compute", runsFor: "1 hour" }
  ]
}

const connectionUri = `/projects/${project}/connection_uri`

/** What a case may use: the fake, and its bootstrap key's value. */
export interface Fixture {
  readonly fake: FakePlatform.Service
  readonly key: string
}

/** One request to one endpoint of `Api.endpoints`. */
export interface Case {
  readonly endpoint: Endpoint.Endpoint
  readonly label: string
  readonly status: number
  /** The request, relative to the base URL. */
  readonly request: (fixture: Fixture) => Effect.Effect<HttpClientRequest.HttpClientRequest>
  /** Sent without a key (a 401). */
  readonly anonymous?: boolean
}

/**
 * The fake with roles and databases on `dev` (the seed has none): `owner` owns the databases `app`
 * and `other`, `loose` owns none, `system` is protected (docs/contract.md §15).
 */
const withData = (fake: FakePlatform.Service) =>
  Effect.gen(function* () {
    const snapshot = yield* fake.snapshot
    const at = 1_700_000_000_000
    const role = (name: string, isProtected = false) => ({
      id: `${dev}/${name}`,
      project_id: project,
      branch_id: dev,
      name,
      password: `pw-${name}-0123456789`,
      protected: isProtected,
      created_at: at,
      updated_at: at
    })
    const database = (id: number, name: string) => ({
      id,
      project_id: project,
      branch_id: dev,
      name,
      owner_name: "owner",
      created_at: at + id,
      updated_at: at + id
    })
    yield* fake.restore({
      ...snapshot,
      roles: [role("owner"), role("loose"), role("system", true)],
      databases: [database(1, "app"), database(2, "other")]
    })
  }).pipe(Effect.orDie)

/** `request` sent to the fake {@link withData} filled. */
const given =
  (request: Effect.Effect<HttpClientRequest.HttpClientRequest>) =>
  ({ fake }: Fixture) =>
    Effect.zipRight(withData(fake), request)

/** `request` sent to the fake {@link withData} filled, while the project has a pending operation. */
const givenBusy =
  (request: Effect.Effect<HttpClientRequest.HttpClientRequest>) =>
  ({ fake }: Fixture) =>
    Effect.zipRight(Effect.zipRight(withData(fake), busy(fake)), request)

const databases = `${branches}/${dev}/databases`
const roles = `${branches}/${dev}/roles`

const get = (path: string) => Effect.succeed(HttpClientRequest.get(path))
const del = (path: string) => Effect.succeed(HttpClientRequest.del(path))

/** An operation pending in the project for a minute: its mutations are locked meanwhile. */
const busy = (fake: FakePlatform.Service) =>
  fake.scenario.startOperations(project, [{ action: "apply_config", runsFor: "1 minute" }]).pipe(Effect.orDie)
const post = (path: string, body?: unknown) =>
  body === undefined
    ? Effect.succeed(HttpClientRequest.post(path))
    : HttpClientRequest.post(path).pipe(HttpClientRequest.bodyJson(body), Effect.orDie)
const patch = (path: string, body: unknown) =>
  HttpClientRequest.patch(path).pipe(HttpClientRequest.bodyJson(body), Effect.orDie)

const dataApi = `${branches}/${dev}/data-api/neondb`
const auth = `${branches}/${dev}/auth`
const jwks = `/projects/${project}/jwks`
const enableAuth = () => post(auth, { auth_provider: "better_auth" })
const jwksBody = { jwks_url: "https://auth.example.com/.well-known/jwks.json", provider_name: "Clerk" }
const delWith = (path: string, body: unknown) =>
  HttpClientRequest.del(path).pipe(HttpClientRequest.bodyJson(body), Effect.orDie)

/**
 * `request` sent after the requests of `setup`, each of which must succeed (else a defect), and,
 * with `busy`, while the project has a pending operation.
 */
const after =
  (
    setup: ReadonlyArray<() => Effect.Effect<HttpClientRequest.HttpClientRequest>>,
    request: Effect.Effect<HttpClientRequest.HttpClientRequest>,
    options: { readonly busy?: boolean } = {}
  ) =>
  ({ fake, key }: Fixture) =>
    Effect.gen(function* () {
      for (const step of setup) {
        const response = yield* Effect.orDie(send(fake, yield* step(), { key }))
        if (response.status >= 300) return yield* Effect.dieMessage(`a setup request answered ${response.status}`)
      }
      if (options.busy === true) yield* busy(fake)
      return yield* request
    })

/** The id of a JWKS added to the project, the clock then moved past the operations it started. */
const addedJwks = ({ fake, key }: Fixture) =>
  Effect.gen(function* () {
    const response = yield* Effect.orDie(send(fake, yield* post(jwks, jwksBody), { key }))
    const added = (yield* Effect.orDie(response.json)) as { readonly jwks: { readonly id: string } }
    return added.jwks.id
  })

/** The Data API, branch auth and JWKS cases (docs/contract.md §25-§27). */
const appBackendCases: ReadonlyArray<Case> = [
  {
    endpoint: Api.DataApi.get,
    label: "a Data API",
    status: 200,
    request: after([() => post(dataApi, {})], get(dataApi))
  },
  { endpoint: Api.DataApi.get, label: "a database without one", status: 404, request: () => get(dataApi) },
  {
    endpoint: Api.DataApi.get,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/data-api/neondb`)
  },
  {
    endpoint: Api.DataApi.create,
    label: "with settings",
    status: 201,
    request: () => post(dataApi, { settings: { db_max_rows: 100, db_schemas: ["public"] } })
  },
  {
    endpoint: Api.DataApi.create,
    label: "an external provider without jwks_url",
    status: 400,
    request: () => post(dataApi, { auth_provider: "external" })
  },
  {
    endpoint: Api.DataApi.create,
    label: "an unknown database",
    status: 404,
    request: () => post(`${branches}/${dev}/data-api/none`, {})
  },
  {
    endpoint: Api.DataApi.create,
    label: "a second one",
    status: 409,
    request: after([() => post(dataApi, {})], post(dataApi, {}))
  },
  {
    endpoint: Api.DataApi.create,
    label: "a project with a pending operation",
    status: 423,
    request: after([], post(dataApi, {}), { busy: true })
  },
  {
    endpoint: Api.DataApi.update,
    label: "its settings",
    status: 201,
    request: after([() => post(dataApi, {})], patch(dataApi, { settings: { db_schemas: ["public", "api"] } }))
  },
  {
    endpoint: Api.DataApi.update,
    label: "a negative db_max_rows",
    status: 400,
    request: after([() => post(dataApi, {})], patch(dataApi, { settings: { db_max_rows: -1 } }))
  },
  { endpoint: Api.DataApi.update, label: "a database without one", status: 404, request: () => patch(dataApi, {}) },
  {
    endpoint: Api.DataApi.update,
    label: "a project with a pending operation",
    status: 423,
    request: after([() => post(dataApi, {})], patch(dataApi, {}), { busy: true })
  },
  {
    endpoint: Api.DataApi.delete,
    label: "a Data API",
    status: 200,
    request: after([() => post(dataApi, {})], del(dataApi))
  },
  {
    endpoint: Api.DataApi.delete,
    label: "a bad branch id",
    status: 400,
    request: () => del(`${branches}/BR_NONE/data-api/neondb`)
  },
  { endpoint: Api.DataApi.delete, label: "a database without one", status: 404, request: () => del(dataApi) },
  {
    endpoint: Api.DataApi.delete,
    label: "a project with a pending operation",
    status: 423,
    request: after([() => post(dataApi, {})], del(dataApi), { busy: true })
  },
  { endpoint: Api.BranchAuth.get, label: "a branch's auth", status: 200, request: after([enableAuth], get(auth)) },
  { endpoint: Api.BranchAuth.get, label: "a branch without auth", status: 404, request: () => get(auth) },
  {
    endpoint: Api.BranchAuth.get,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/auth`)
  },
  { endpoint: Api.BranchAuth.create, label: "its keys, once", status: 201, request: enableAuth },
  {
    endpoint: Api.BranchAuth.create,
    label: "a provider the platform does not offer",
    status: 400,
    request: () => post(auth, { auth_provider: "keycloak" })
  },
  {
    endpoint: Api.BranchAuth.create,
    label: "an unknown database",
    status: 404,
    request: () => post(auth, { auth_provider: "mock", database_name: "none" })
  },
  {
    endpoint: Api.BranchAuth.create,
    label: "a second enable",
    status: 409,
    request: after([enableAuth], enableAuth())
  },
  {
    endpoint: Api.BranchAuth.create,
    label: "a project with a pending operation",
    status: 423,
    request: after([], enableAuth(), { busy: true })
  },
  { endpoint: Api.BranchAuth.disable, label: "a branch's auth", status: 200, request: after([enableAuth], del(auth)) },
  {
    endpoint: Api.BranchAuth.disable,
    label: "delete_data not a boolean",
    status: 400,
    request: after([enableAuth], delWith(auth, { delete_data: "yes" }))
  },
  {
    endpoint: Api.BranchAuth.disable,
    label: "a branch without auth",
    status: 404,
    request: () => delWith(auth, { delete_data: true })
  },
  {
    endpoint: Api.BranchAuth.disable,
    label: "a project with a pending operation",
    status: 423,
    request: after([enableAuth], del(auth), { busy: true })
  },
  {
    endpoint: Api.BranchAuth.listDomains,
    label: "a trusted domain",
    status: 200,
    request: after(
      [enableAuth, () => post(`${auth}/domains`, { domain: "https://app.example.com", auth_provider: "better_auth" })],
      get(`${auth}/domains`)
    )
  },
  {
    endpoint: Api.BranchAuth.listDomains,
    label: "a branch without auth",
    status: 404,
    request: () => get(`${auth}/domains`)
  },
  {
    endpoint: Api.BranchAuth.listDomains,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/auth/domains`)
  },
  {
    endpoint: Api.BranchAuth.addDomain,
    label: "a domain",
    status: 201,
    request: after(
      [enableAuth],
      post(`${auth}/domains`, { domain: "https://app.example.com", auth_provider: "better_auth" })
    )
  },
  {
    endpoint: Api.BranchAuth.addDomain,
    label: "not an absolute URL",
    status: 400,
    request: after([enableAuth], post(`${auth}/domains`, { domain: "app", auth_provider: "better_auth" }))
  },
  {
    endpoint: Api.BranchAuth.addDomain,
    label: "a branch without auth",
    status: 404,
    request: () => post(`${auth}/domains`, { domain: "https://app.example.com", auth_provider: "better_auth" })
  },
  {
    endpoint: Api.BranchAuth.deleteDomains,
    label: "a trusted domain",
    status: 200,
    request: after(
      [enableAuth, () => post(`${auth}/domains`, { domain: "https://app.example.com", auth_provider: "better_auth" })],
      delWith(`${auth}/domains`, { auth_provider: "better_auth", domains: [{ domain: "https://app.example.com" }] })
    )
  },
  {
    endpoint: Api.BranchAuth.deleteDomains,
    label: "no domains",
    status: 400,
    request: after([enableAuth], delWith(`${auth}/domains`, { auth_provider: "better_auth" }))
  },
  {
    endpoint: Api.BranchAuth.deleteDomains,
    label: "a branch without auth",
    status: 404,
    request: () => delWith(`${auth}/domains`, { auth_provider: "better_auth", domains: [] })
  },
  {
    endpoint: Api.BranchAuth.listOAuthProviders,
    label: "a provider with the app's credentials",
    status: 200,
    request: after(
      [
        enableAuth,
        () => post(`${auth}/oauth_providers`, { id: "github", client_id: "gh", client_secret: "gh-secret" })
      ],
      get(`${auth}/oauth_providers`)
    )
  },
  {
    endpoint: Api.BranchAuth.listOAuthProviders,
    label: "a branch without auth",
    status: 404,
    request: () => get(`${auth}/oauth_providers`)
  },
  {
    endpoint: Api.BranchAuth.listOAuthProviders,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/auth/oauth_providers`)
  },
  {
    endpoint: Api.BranchAuth.addOAuthProvider,
    label: "a shared provider",
    status: 200,
    request: after([enableAuth], post(`${auth}/oauth_providers`, { id: "google" }))
  },
  {
    endpoint: Api.BranchAuth.addOAuthProvider,
    label: "a provider the platform does not offer",
    status: 400,
    request: after([enableAuth], post(`${auth}/oauth_providers`, { id: "gitlab" }))
  },
  {
    endpoint: Api.BranchAuth.addOAuthProvider,
    label: "a branch without auth",
    status: 404,
    request: () => post(`${auth}/oauth_providers`, { id: "google" })
  },
  {
    endpoint: Api.BranchAuth.addOAuthProvider,
    label: "added twice",
    status: 409,
    request: after(
      [enableAuth, () => post(`${auth}/oauth_providers`, { id: "google" })],
      post(`${auth}/oauth_providers`, { id: "google" })
    )
  },
  {
    endpoint: Api.BranchAuth.updateOAuthProvider,
    label: "its credentials",
    status: 200,
    request: after(
      [enableAuth, () => post(`${auth}/oauth_providers`, { id: "google" })],
      patch(`${auth}/oauth_providers/google`, { client_id: "g", client_secret: "g-secret" })
    )
  },
  {
    endpoint: Api.BranchAuth.updateOAuthProvider,
    label: "a tenant for another provider than microsoft",
    status: 400,
    request: after(
      [enableAuth, () => post(`${auth}/oauth_providers`, { id: "google" })],
      patch(`${auth}/oauth_providers/google`, { microsoft_tenant_id: "tenant" })
    )
  },
  {
    endpoint: Api.BranchAuth.updateOAuthProvider,
    label: "a provider not added",
    status: 404,
    request: after([enableAuth], patch(`${auth}/oauth_providers/vercel`, { client_id: "v" }))
  },
  {
    endpoint: Api.BranchAuth.deleteOAuthProvider,
    label: "a provider",
    status: 200,
    request: after(
      [enableAuth, () => post(`${auth}/oauth_providers`, { id: "google" })],
      del(`${auth}/oauth_providers/google`)
    )
  },
  {
    endpoint: Api.BranchAuth.deleteOAuthProvider,
    label: "a bad branch id",
    status: 400,
    request: () => del(`${branches}/BR_NONE/auth/oauth_providers/google`)
  },
  {
    endpoint: Api.BranchAuth.deleteOAuthProvider,
    label: "a provider not added",
    status: 404,
    request: after([enableAuth], del(`${auth}/oauth_providers/google`))
  },
  {
    endpoint: Api.Jwks.list,
    label: "a project's",
    status: 200,
    request: after([() => post(jwks, jwksBody)], get(jwks))
  },
  {
    endpoint: Api.Jwks.list,
    label: "an unknown project",
    status: 404,
    request: () => get("/projects/none-000000/jwks")
  },
  { endpoint: Api.Jwks.list, label: "a bad project id", status: 400, request: () => get("/projects/NOT_AN_ID/jwks") },
  { endpoint: Api.Jwks.add, label: "with its apply_config", status: 201, request: () => post(jwks, jwksBody) },
  {
    endpoint: Api.Jwks.add,
    label: "an http:// URL",
    status: 400,
    request: () => post(jwks, { ...jwksBody, jwks_url: "http://auth.example.com/jwks" })
  },
  {
    endpoint: Api.Jwks.add,
    label: "an unknown branch",
    status: 404,
    request: () => post(jwks, { ...jwksBody, branch_id: "br-none-000000" })
  },
  {
    endpoint: Api.Jwks.add,
    label: "a project with a pending operation",
    status: 423,
    request: after([], post(jwks, jwksBody), { busy: true })
  },
  {
    endpoint: Api.Jwks.delete,
    label: "a JWKS",
    status: 200,
    request: (fixture) =>
      Effect.gen(function* () {
        const id = yield* addedJwks(fixture)
        yield* TestClock.adjust("1 minute")
        return yield* del(`${jwks}/${id}`)
      })
  },
  {
    endpoint: Api.Jwks.delete,
    label: "a bad project id",
    status: 400,
    request: () => del("/projects/NOT_AN_ID/jwks/x")
  },
  { endpoint: Api.Jwks.delete, label: "an unknown JWKS", status: 404, request: () => del(`${jwks}/none`) },
  {
    endpoint: Api.Jwks.delete,
    label: "while its apply_config runs",
    status: 423,
    request: (fixture) => Effect.flatMap(addedJwks(fixture), (id) => del(`${jwks}/${id}`))
  }
]

export const cases: ReadonlyArray<Case> = [
  {
    endpoint: Api.ApiKeys.create,
    label: "a key created",
    status: 200,
    request: () =>
      HttpClientRequest.post("/api_keys").pipe(HttpClientRequest.bodyJson({ key_name: "ci" }), Effect.orDie)
  },
  {
    endpoint: Api.ApiKeys.create,
    label: "no key_name",
    status: 400,
    request: () => HttpClientRequest.post("/api_keys").pipe(HttpClientRequest.bodyJson({}), Effect.orDie)
  },
  {
    endpoint: Api.ApiKeys.create,
    label: "no API key",
    status: 401,
    anonymous: true,
    request: () =>
      HttpClientRequest.post("/api_keys").pipe(HttpClientRequest.bodyJson({ key_name: "ci" }), Effect.orDie)
  },
  { endpoint: Api.ApiKeys.list, label: "the keys", status: 200, request: () => get("/api_keys") },
  {
    endpoint: Api.ApiKeys.revoke,
    label: "a key revoked",
    status: 200,
    request: ({ fake }) =>
      Effect.map(fake.scenario.addApiKey("to revoke"), (key) => HttpClientRequest.del(`/api_keys/${key.id}`))
  },
  {
    endpoint: Api.ApiKeys.revoke,
    label: "an unknown key",
    status: 404,
    request: () => get("/api_keys/42").pipe(Effect.map(HttpClientRequest.setMethod("DELETE")))
  },
  {
    endpoint: Api.ApiKeys.revoke,
    label: "a key id that is not a number",
    status: 400,
    request: () => Effect.succeed(HttpClientRequest.del("/api_keys/abc"))
  },
  { endpoint: Api.Projects.list, label: "a page", status: 200, request: () => get("/projects?limit=2") },
  {
    endpoint: Api.Projects.list,
    label: "a limit too large",
    status: 400,
    request: () => get("/projects?limit=401")
  },
  { endpoint: Api.Projects.listShared, label: "a page", status: 200, request: () => get("/projects/shared") },
  {
    endpoint: Api.Projects.listShared,
    label: "a bad cursor",
    status: 400,
    request: () => get("/projects/shared?cursor=nope")
  },
  {
    endpoint: Api.Operations.list,
    label: "a page",
    status: 200,
    request: () => get(`/projects/${project}/operations?limit=5`)
  },
  {
    endpoint: Api.Operations.list,
    label: "a pending one",
    status: 200,
    request: () => get(`/projects/${pendingProject}/operations`)
  },
  {
    endpoint: Api.Operations.list,
    label: "an unknown project",
    status: 404,
    request: () => get("/projects/no-such-project/operations")
  },
  {
    endpoint: Api.Operations.list,
    label: "a limit of 0",
    status: 400,
    request: () => get(`/projects/${project}/operations?limit=0`)
  },
  {
    endpoint: Api.Operations.get,
    label: "a finished one",
    status: 200,
    request: () => get(`/projects/${project}/operations/${operationId(1)}`)
  },
  {
    endpoint: Api.Operations.get,
    label: "a failed one",
    status: 200,
    request: () => get(`/projects/${project}/operations/${operationId(2)}`)
  },
  {
    endpoint: Api.Operations.get,
    label: "an unknown operation",
    status: 404,
    request: () => get(`/projects/${project}/operations/${operationId(99)}`)
  },
  {
    endpoint: Api.Operations.get,
    label: "an id that is not a UUID",
    status: 400,
    request: () => get(`/projects/${project}/operations/nope`)
  },
  { endpoint: Api.Branches.list, label: "all", status: 200, request: () => get(branches) },
  {
    endpoint: Api.Branches.list,
    label: "a page with a next one",
    status: 200,
    request: () => get(`${branches}?limit=1&sort_by=name&sort_order=asc`)
  },
  {
    endpoint: Api.Branches.list,
    label: "an unknown project",
    status: 404,
    request: () => get("/projects/no-such-project/branches")
  },
  {
    endpoint: Api.Branches.list,
    label: "an unknown sort",
    status: 400,
    request: () => get(`${branches}?sort_by=size`)
  },
  {
    endpoint: Api.Branches.count,
    label: "a count",
    status: 200,
    request: () => get(`${branches}/count?search=de`)
  },
  {
    endpoint: Api.Branches.count,
    label: "an unknown project",
    status: 404,
    request: () => get("/projects/no-such-project/branches/count")
  },
  {
    endpoint: Api.Branches.count,
    label: "a bad project id",
    status: 400,
    request: () => get("/projects/NO_SUCH/branches/count")
  },
  { endpoint: Api.Branches.create, label: "no body", status: 201, request: () => post(branches) },
  {
    endpoint: Api.Branches.create,
    label: "with a compute endpoint",
    status: 201,
    request: () => post(branches, { branch: { name: "preview", parent_id: dev }, endpoints: [{ type: "read_write" }] })
  },
  {
    endpoint: Api.Branches.create,
    label: "two read_write endpoints",
    status: 400,
    request: () => post(branches, { endpoints: [{ type: "read_write" }, { type: "read_write" }] })
  },
  {
    endpoint: Api.Branches.create,
    label: "an unknown parent",
    status: 404,
    request: () => post(branches, { branch: { parent_id: "br-none-000000" } })
  },
  {
    endpoint: Api.Branches.create,
    label: "a taken name",
    status: 409,
    request: () => post(branches, { branch: { name: "dev" } })
  },
  {
    endpoint: Api.Branches.create,
    label: "a project with a pending operation",
    status: 423,
    request: () => post(`/projects/${pendingProject}/branches`)
  },
  { endpoint: Api.Branches.get, label: "a branch", status: 200, request: () => get(`${branches}/${dev}`) },
  {
    endpoint: Api.Branches.get,
    label: "an unknown branch",
    status: 404,
    request: () => get(`${branches}/br-none-000000`)
  },
  { endpoint: Api.Branches.get, label: "a bad branch id", status: 400, request: () => get(`${branches}/BR_NONE`) },
  {
    endpoint: Api.Branches.update,
    label: "a rename",
    status: 200,
    request: () => patch(`${branches}/${dev}`, { branch: { name: "develop", protected: true } })
  },
  {
    endpoint: Api.Branches.update,
    label: "an empty name",
    status: 400,
    request: () => patch(`${branches}/${dev}`, { branch: { name: "" } })
  },
  {
    endpoint: Api.Branches.update,
    label: "an unknown branch",
    status: 404,
    request: () => patch(`${branches}/br-none-000000`, { branch: {} })
  },
  {
    endpoint: Api.Branches.update,
    label: "a taken name",
    status: 409,
    request: () => patch(`${branches}/${dev}`, { branch: { name: "main" } })
  },
  {
    endpoint: Api.Branches.update,
    label: "a project with a pending operation",
    status: 423,
    request: ({ fake }) => Effect.zipRight(busy(fake), patch(`${branches}/${dev}`, { branch: { name: "x" } }))
  },
  {
    endpoint: Api.Branches.delete,
    label: "a leaf branch",
    status: 200,
    request: () => del(`${branches}/${feature}`)
  },
  {
    endpoint: Api.Branches.delete,
    label: "a branch already gone",
    status: 204,
    request: () => del(`${branches}/br-none-000000`)
  },
  {
    endpoint: Api.Branches.delete,
    label: "the default branch",
    status: 400,
    request: () => del(`${branches}/${main}`)
  },
  {
    endpoint: Api.Branches.delete,
    label: "a branch with children",
    status: 400,
    request: () => del(`${branches}/${dev}`)
  },
  {
    endpoint: Api.Branches.delete,
    label: "an unknown project",
    status: 404,
    request: () => del(`/projects/no-such-project/branches/${dev}`)
  },
  {
    endpoint: Api.Branches.delete,
    label: "a project with a pending operation",
    status: 423,
    request: ({ fake }) => Effect.zipRight(busy(fake), del(`${branches}/${feature}`))
  },
  {
    endpoint: Api.Branches.restore,
    label: "from its parent, keeping the old state",
    status: 200,
    request: () => post(`${branches}/${dev}/restore`, { source_branch_id: main, preserve_under_name: "dev-before" })
  },
  {
    endpoint: Api.Branches.restore,
    label: "no source",
    status: 400,
    request: () => post(`${branches}/${dev}/restore`, {})
  },
  {
    endpoint: Api.Branches.restore,
    label: "an unknown source",
    status: 404,
    request: () => post(`${branches}/${dev}/restore`, { source_branch_id: "br-none-000000" })
  },
  {
    endpoint: Api.Branches.restore,
    label: "a taken name to keep the old state under",
    status: 409,
    request: () => post(`${branches}/${dev}/restore`, { source_branch_id: main, preserve_under_name: "feature" })
  },
  {
    endpoint: Api.Branches.restore,
    label: "a project with a pending operation",
    status: 423,
    request: ({ fake }) => Effect.zipRight(busy(fake), post(`${branches}/${dev}/restore`, { source_branch_id: main }))
  },
  {
    endpoint: Api.Branches.setAsDefault,
    label: "a child",
    status: 200,
    request: () => post(`${branches}/${dev}/set_as_default`)
  },
  {
    endpoint: Api.Branches.setAsDefault,
    label: "a bad branch id",
    status: 400,
    request: () => post(`${branches}/BR_NONE/set_as_default`)
  },
  {
    endpoint: Api.Branches.setAsDefault,
    label: "an unknown branch",
    status: 404,
    request: () => post(`${branches}/br-none-000000/set_as_default`)
  },
  {
    endpoint: Api.Branches.setAsDefault,
    label: "a project with a pending operation",
    status: 423,
    request: ({ fake }) => Effect.zipRight(busy(fake), post(`${branches}/${dev}/set_as_default`))
  },
  {
    endpoint: Api.Branches.listEndpoints,
    label: "a branch's",
    status: 200,
    request: () => get(`${branches}/${dev}/endpoints`)
  },
  {
    endpoint: Api.Branches.listEndpoints,
    label: "an unknown branch",
    status: 404,
    request: () => get(`${branches}/br-none-000000/endpoints`)
  },
  {
    endpoint: Api.Branches.listEndpoints,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/endpoints`)
  },
  {
    endpoint: Api.Databases.list,
    label: "a branch's",
    status: 200,
    request: given(get(databases))
  },
  {
    endpoint: Api.Databases.list,
    label: "an unknown branch",
    status: 404,
    request: () => get(`${branches}/br-none-000000/databases`)
  },
  {
    endpoint: Api.Databases.list,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/databases`)
  },
  {
    endpoint: Api.Databases.create,
    label: "owned by a role of the branch",
    status: 201,
    request: given(post(databases, { database: { name: "shop", owner_name: "loose" } }))
  },
  {
    endpoint: Api.Databases.create,
    label: "no owner",
    status: 400,
    request: given(post(databases, { database: { name: "shop" } }))
  },
  {
    endpoint: Api.Databases.create,
    label: "an owner the branch does not have",
    status: 404,
    request: given(post(databases, { database: { name: "shop", owner_name: "nobody" } }))
  },
  {
    endpoint: Api.Databases.create,
    label: "a taken name",
    status: 409,
    request: given(post(databases, { database: { name: "app", owner_name: "loose" } }))
  },
  {
    endpoint: Api.Databases.create,
    label: "a project with a pending operation",
    status: 423,
    request: givenBusy(post(databases, { database: { name: "shop", owner_name: "loose" } }))
  },
  { endpoint: Api.Databases.get, label: "a database", status: 200, request: given(get(`${databases}/app`)) },
  {
    endpoint: Api.Databases.get,
    label: "an unknown database",
    status: 404,
    request: given(get(`${databases}/none`))
  },
  {
    endpoint: Api.Databases.get,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/databases/app`)
  },
  {
    endpoint: Api.Databases.update,
    label: "renamed, another owner",
    status: 200,
    request: given(patch(`${databases}/app`, { database: { name: "shop", owner_name: "loose" } }))
  },
  {
    endpoint: Api.Databases.update,
    label: "a name of 64 bytes",
    status: 400,
    request: given(patch(`${databases}/app`, { database: { name: "d".repeat(64) } }))
  },
  {
    endpoint: Api.Databases.update,
    label: "an unknown database",
    status: 404,
    request: given(patch(`${databases}/none`, { database: { name: "shop" } }))
  },
  {
    endpoint: Api.Databases.update,
    label: "a taken name",
    status: 409,
    request: given(patch(`${databases}/app`, { database: { name: "other" } }))
  },
  {
    endpoint: Api.Databases.update,
    label: "a project with a pending operation",
    status: 423,
    request: givenBusy(patch(`${databases}/app`, { database: { name: "shop" } }))
  },
  { endpoint: Api.Databases.delete, label: "a database", status: 200, request: given(del(`${databases}/app`)) },
  {
    endpoint: Api.Databases.delete,
    label: "a database already gone",
    status: 204,
    request: given(del(`${databases}/none`))
  },
  {
    endpoint: Api.Databases.delete,
    label: "a bad branch id",
    status: 400,
    request: () => del(`${branches}/BR_NONE/databases/app`)
  },
  {
    endpoint: Api.Databases.delete,
    label: "an unknown branch",
    status: 404,
    request: () => del(`${branches}/br-none-000000/databases/app`)
  },
  {
    endpoint: Api.Databases.delete,
    label: "a project with a pending operation",
    status: 423,
    request: givenBusy(del(`${databases}/app`))
  },
  { endpoint: Api.Roles.list, label: "a branch's", status: 200, request: given(get(roles)) },
  {
    endpoint: Api.Roles.list,
    label: "an unknown branch",
    status: 404,
    request: () => get(`${branches}/br-none-000000/roles`)
  },
  {
    endpoint: Api.Roles.list,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/roles`)
  },
  {
    endpoint: Api.Roles.create,
    label: "with its password",
    status: 201,
    request: given(post(roles, { role: { name: "ci" } }))
  },
  {
    endpoint: Api.Roles.create,
    label: "a name of 64 bytes",
    status: 400,
    request: given(post(roles, { role: { name: "r".repeat(64) } }))
  },
  {
    endpoint: Api.Roles.create,
    label: "an unknown branch",
    status: 404,
    request: () => post(`${branches}/br-none-000000/roles`, { role: { name: "ci" } })
  },
  {
    endpoint: Api.Roles.create,
    label: "a taken name",
    status: 409,
    request: given(post(roles, { role: { name: "owner" } }))
  },
  {
    endpoint: Api.Roles.create,
    label: "a project with a pending operation",
    status: 423,
    request: givenBusy(post(roles, { role: { name: "ci" } }))
  },
  { endpoint: Api.Roles.get, label: "a role", status: 200, request: given(get(`${roles}/owner`)) },
  { endpoint: Api.Roles.get, label: "an unknown role", status: 404, request: given(get(`${roles}/none`)) },
  {
    endpoint: Api.Roles.get,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/roles/owner`)
  },
  {
    endpoint: Api.Roles.delete,
    label: "a role that owns no database",
    status: 200,
    request: given(del(`${roles}/loose`))
  },
  { endpoint: Api.Roles.delete, label: "a role already gone", status: 204, request: given(del(`${roles}/none`)) },
  {
    endpoint: Api.Roles.delete,
    label: "a role that owns a database",
    status: 400,
    request: given(del(`${roles}/owner`))
  },
  {
    endpoint: Api.Roles.delete,
    label: "an unknown branch",
    status: 404,
    request: () => del(`${branches}/br-none-000000/roles/owner`)
  },
  {
    endpoint: Api.Roles.delete,
    label: "a project with a pending operation",
    status: 423,
    request: givenBusy(del(`${roles}/loose`))
  },
  {
    endpoint: Api.Roles.revealPassword,
    label: "a role's",
    status: 200,
    request: given(get(`${roles}/owner/reveal_password`))
  },
  {
    endpoint: Api.Roles.revealPassword,
    label: "an unknown role",
    status: 404,
    request: given(get(`${roles}/none/reveal_password`))
  },
  {
    endpoint: Api.Roles.revealPassword,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/roles/owner/reveal_password`)
  },
  {
    endpoint: Api.Roles.resetPassword,
    label: "a new password",
    status: 200,
    request: given(post(`${roles}/owner/reset_password`))
  },
  {
    endpoint: Api.Roles.resetPassword,
    label: "a protected role",
    status: 400,
    request: given(post(`${roles}/system/reset_password`))
  },
  {
    endpoint: Api.Roles.resetPassword,
    label: "an unknown role",
    status: 404,
    request: given(post(`${roles}/none/reset_password`))
  },
  {
    endpoint: Api.Roles.resetPassword,
    label: "a project with a pending operation",
    status: 423,
    request: givenBusy(post(`${roles}/owner/reset_password`))
  },
  {
    endpoint: Api.Projects.create,
    label: "the defaults",
    status: 201,
    request: () => post("/projects", { project: {} })
  },
  {
    endpoint: Api.Projects.create,
    label: "every field",
    status: 201,
    request: () =>
      post("/projects", {
        project: {
          name: "ci",
          region_id: "aws-eu-central-1",
          pg_version: 16,
          history_retention_seconds: 3600,
          default_endpoint_settings: {
            autoscaling_limit_min_cu: 0.5,
            autoscaling_limit_max_cu: 2,
            suspend_timeout_seconds: 60
          },
          org_id: "org-ci-100001",
          branch: { name: "trunk", role_name: "app", database_name: "appdb" }
        }
      })
  },
  {
    endpoint: Api.Projects.create,
    label: "a Postgres version out of range",
    status: 400,
    request: () => post("/projects", { project: { pg_version: 13 } })
  },
  {
    endpoint: Api.Projects.create,
    label: "a minimum above the maximum",
    status: 400,
    request: () =>
      post("/projects", {
        project: { default_endpoint_settings: { autoscaling_limit_min_cu: 2, autoscaling_limit_max_cu: 1 } }
      })
  },
  { endpoint: Api.Projects.get, label: "a project", status: 200, request: () => get(`/projects/${project}`) },
  {
    endpoint: Api.Projects.get,
    label: "a shared project",
    status: 200,
    request: () => get("/projects/shared-leaf-100001")
  },
  {
    endpoint: Api.Projects.get,
    label: "an unknown project",
    status: 404,
    request: () => get("/projects/no-such-project")
  },
  { endpoint: Api.Projects.get, label: "a bad project id", status: 400, request: () => get("/projects/NO_SUCH") },
  {
    endpoint: Api.Projects.update,
    label: "a new retention",
    status: 200,
    request: () => patch(`/projects/${project}`, { project: { history_retention_seconds: 7200 } })
  },
  {
    endpoint: Api.Projects.update,
    label: "a new name and endpoint settings",
    status: 200,
    request: () =>
      patch(`/projects/${project}`, {
        project: { name: "renamed", default_endpoint_settings: { suspend_timeout_seconds: -1 } }
      })
  },
  {
    endpoint: Api.Projects.update,
    label: "a retention over 30 days",
    status: 400,
    request: () => patch(`/projects/${project}`, { project: { history_retention_seconds: 2_592_001 } })
  },
  {
    endpoint: Api.Projects.update,
    label: "an unknown project",
    status: 404,
    request: () => patch("/projects/no-such-project", { project: { name: "x" } })
  },
  {
    endpoint: Api.Projects.update,
    label: "a project with a pending operation",
    status: 423,
    request: () => patch(`/projects/${pendingProject}`, { project: { name: "x" } })
  },
  { endpoint: Api.Projects.delete, label: "a project", status: 200, request: () => del(`/projects/${project}`) },
  {
    endpoint: Api.Projects.delete,
    label: "an unknown project",
    status: 404,
    request: () => del("/projects/no-such-project")
  },
  { endpoint: Api.Projects.delete, label: "a bad project id", status: 400, request: () => del("/projects/NO_SUCH") },
  {
    endpoint: Api.Projects.delete,
    label: "a project with a pending operation",
    status: 423,
    request: () => del(`/projects/${pendingProject}`)
  },
  { endpoint: Api.ComputeEndpoints.list, label: "a project's", status: 200, request: () => get(endpoints) },
  {
    endpoint: Api.ComputeEndpoints.list,
    label: "an unknown project",
    status: 404,
    request: () => get("/projects/no-such-project/endpoints")
  },
  {
    endpoint: Api.ComputeEndpoints.list,
    label: "a bad project id",
    status: 400,
    request: () => get("/projects/NO_SUCH/endpoints")
  },
  {
    endpoint: Api.ComputeEndpoints.create,
    label: "a read_only one",
    status: 201,
    request: () => post(endpoints, { endpoint: { branch_id: dev, type: "read_only", suspend_timeout_seconds: -1 } })
  },
  {
    endpoint: Api.ComputeEndpoints.create,
    label: "a minimum above the maximum",
    status: 400,
    request: () =>
      post(endpoints, {
        endpoint: { branch_id: main, type: "read_write", autoscaling_limit_min_cu: 2, autoscaling_limit_max_cu: 1 }
      })
  },
  {
    endpoint: Api.ComputeEndpoints.create,
    label: "an unknown branch",
    status: 404,
    request: () => post(endpoints, { endpoint: { branch_id: "br-none-000000", type: "read_only" } })
  },
  {
    endpoint: Api.ComputeEndpoints.create,
    label: "a second read_write on a branch",
    status: 409,
    request: () => post(endpoints, { endpoint: { branch_id: dev, type: "read_write" } })
  },
  {
    endpoint: Api.ComputeEndpoints.create,
    label: "a project with a pending operation",
    status: 423,
    request: ({ fake }) =>
      Effect.zipRight(busy(fake), post(endpoints, { endpoint: { branch_id: main, type: "read_write" } }))
  },
  {
    endpoint: Api.ComputeEndpoints.get,
    label: "a compute endpoint",
    status: 200,
    request: () => get(`${endpoints}/${devEndpoint}`)
  },
  {
    endpoint: Api.ComputeEndpoints.get,
    label: "an unknown one",
    status: 404,
    request: () => get(`${endpoints}/ep-none-000000`)
  },
  {
    endpoint: Api.ComputeEndpoints.get,
    label: "a bad id",
    status: 400,
    request: () => get(`${endpoints}/EP_NONE`)
  },
  {
    endpoint: Api.ComputeEndpoints.update,
    label: "a new suspend timeout",
    status: 200,
    request: () => patch(`${endpoints}/${devEndpoint}`, { endpoint: { suspend_timeout_seconds: 600 } })
  },
  {
    endpoint: Api.ComputeEndpoints.update,
    label: "a minimum above the maximum",
    status: 400,
    request: () => patch(`${endpoints}/${devEndpoint}`, { endpoint: { autoscaling_limit_min_cu: 4 } })
  },
  {
    endpoint: Api.ComputeEndpoints.update,
    label: "an unknown one",
    status: 404,
    request: () => patch(`${endpoints}/ep-none-000000`, { endpoint: {} })
  },
  {
    endpoint: Api.ComputeEndpoints.update,
    label: "a project with a pending operation",
    status: 423,
    request: ({ fake }) =>
      Effect.zipRight(busy(fake), patch(`${endpoints}/${devEndpoint}`, { endpoint: { suspend_timeout_seconds: 60 } }))
  },
  {
    endpoint: Api.ComputeEndpoints.delete,
    label: "an active one",
    status: 200,
    request: () => del(`${endpoints}/${devEndpoint}`)
  },
  {
    endpoint: Api.ComputeEndpoints.delete,
    label: "one already gone",
    status: 204,
    request: () => del(`${endpoints}/ep-none-000000`)
  },
  {
    endpoint: Api.ComputeEndpoints.delete,
    label: "a bad id",
    status: 400,
    request: () => del(`${endpoints}/EP_NONE`)
  },
  {
    endpoint: Api.ComputeEndpoints.delete,
    label: "an unknown project",
    status: 404,
    request: () => del(`/projects/no-such-project/endpoints/${devEndpoint}`)
  },
  {
    endpoint: Api.ComputeEndpoints.delete,
    label: "a project with a pending operation",
    status: 423,
    request: ({ fake }) => Effect.zipRight(busy(fake), del(`${endpoints}/${devEndpoint}`))
  },
  ...(
    [
      [Api.ComputeEndpoints.start, "start"],
      [Api.ComputeEndpoints.suspend, "suspend"],
      [Api.ComputeEndpoints.restart, "restart"]
    ] as const
  ).flatMap(
    ([endpoint, action]): ReadonlyArray<Case> => [
      {
        endpoint,
        label: "an active one",
        status: 200,
        request: () => post(`${endpoints}/${devEndpoint}/${action}`)
      },
      {
        endpoint,
        label: "an idle one",
        status: 200,
        request: ({ fake, key }) =>
          Effect.gen(function* () {
            yield* Effect.orDie(send(fake, yield* post(`${endpoints}/${devEndpoint}/suspend`), { key }))
            yield* TestClock.adjust("1 minute")
            return yield* post(`${endpoints}/${devEndpoint}/${action}`)
          }).pipe(Effect.scoped, Effect.orDie)
      },
      { endpoint, label: "a bad id", status: 400, request: () => post(`${endpoints}/EP_NONE/${action}`) },
      { endpoint, label: "an unknown one", status: 404, request: () => post(`${endpoints}/ep-none-000000/${action}`) },
      {
        endpoint,
        label: "a project with a pending operation",
        status: 423,
        request: ({ fake }) => Effect.zipRight(busy(fake), post(`${endpoints}/${devEndpoint}/${action}`))
      }
    ]
  ),
  {
    endpoint: Api.Connections.uri,
    label: "a branch's",
    status: 200,
    request: () => get(`${connectionUri}?database_name=neondb&role_name=neondb_owner&branch_id=${dev}`)
  },
  {
    endpoint: Api.Connections.uri,
    label: "through a compute endpoint's pooler",
    status: 200,
    request: () =>
      get(`${connectionUri}?database_name=neondb&role_name=neondb_owner&endpoint_id=ep-dev-100002&pooled=true`)
  },
  {
    endpoint: Api.Connections.uri,
    label: "no role_name",
    status: 400,
    request: () => get(`${connectionUri}?database_name=neondb&branch_id=${dev}`)
  },
  {
    endpoint: Api.Connections.uri,
    label: "an unknown role",
    status: 404,
    request: () => get(`${connectionUri}?database_name=neondb&role_name=nobody&branch_id=${dev}`)
  },
  {
    endpoint: Api.Connections.uri,
    label: "a default branch without a compute endpoint",
    status: 404,
    request: () => get(`${connectionUri}?database_name=neondb&role_name=neondb_owner`)
  },
  { endpoint: Api.Regions.list, label: "the regions", status: 200, request: () => get("/regions") },
  {
    endpoint: Api.Regions.list,
    label: "a malformed org_id",
    status: 400,
    request: () => get("/regions?org_id=NOT_AN_ORG")
  },
  ...appBackendCases
]

/**
 * Error statuses an endpoint declares that the fake never answers on its own (only an injected
 * `Fault` or a rate limit does), by endpoint name: 403 (the fake's account sees all it holds),
 * and 423 for API keys (a key is never locked in the fake).
 */
const neverSentUnprompted: Readonly<Record<string, ReadonlyArray<string>>> = {
  "ApiKeys.create": ["Locked"],
  "ApiKeys.revoke": ["Locked"],
  "Operations.list": ["Forbidden"],
  "Operations.get": ["Forbidden"],
  "Branches.list": ["Forbidden"],
  "Branches.count": ["Forbidden"],
  "Branches.create": ["Forbidden"],
  "Branches.get": ["Forbidden"],
  "Branches.update": ["Forbidden"],
  "Branches.delete": ["Forbidden"],
  "Branches.restore": ["Forbidden"],
  "Branches.setAsDefault": ["Forbidden"],
  "Branches.listEndpoints": ["Forbidden"],
  "Projects.get": ["Forbidden"],
  "Projects.update": ["Forbidden"],
  "Projects.delete": ["Forbidden"],
  "Databases.list": ["Forbidden"],
  "Databases.create": ["Forbidden"],
  "Databases.get": ["Forbidden"],
  "Databases.update": ["Forbidden"],
  "Databases.delete": ["Forbidden"],
  "Roles.list": ["Forbidden"],
  "Roles.create": ["Forbidden"],
  "Roles.get": ["Forbidden"],
  "Roles.delete": ["Forbidden"],
  "Roles.revealPassword": ["Forbidden"],
  "Roles.resetPassword": ["Forbidden"],
  ...Object.fromEntries(Object.values(Api.ComputeEndpoints).map((endpoint) => [endpoint.name, ["Forbidden"]])),
  "Connections.uri": ["Forbidden"]
}

const statusOf: Readonly<Record<string, number>> = {
  BadRequest: 400,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  Locked: 423
}

/**
 * The statuses of `endpoint` no case covers: each success status it declares, and each error
 * status it declares and the fake answers on its own. Empty when its cases are complete.
 */
export const uncovered = (endpoint: Endpoint.Endpoint): ReadonlyArray<number> => {
  const covered = new Set(cases.filter((c) => c.endpoint.name === endpoint.name).map((c) => c.status))
  const never = new Set(neverSentUnprompted[endpoint.name] ?? [])
  const wanted = [
    ...endpoint.statuses,
    ...endpoint.errors.filter((tag) => !never.has(tag)).map((tag) => statusOf[tag]!)
  ]
  return wanted.filter((status) => !covered.has(status))
}
