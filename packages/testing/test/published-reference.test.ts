/**
 * Every answer the fake sends, for every endpoint of core's table, success and error, validates
 * against the response schema of the same operation in the platform's published OpenAPI v2
 * document (loaded from `node_modules`, validated with Ajv 8 and ajv-formats: see `publishedReference.ts`).
 *
 * Each endpoint has cases below: requests that make the fake answer each success status the
 * endpoint declares and each error status it answers on its own (not through an injected fault).
 * The last test fails when an endpoint of the table, or one of its statuses, has no case.
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Endpoint } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import * as Redacted from "effect/Redacted"
import * as FakePlatform from "../src/FakePlatform.js"
import type * as Seed from "../src/Seed.js"
import { operationId, send } from "./helpers.js"
import { loadPublishedReference } from "./publishedReference.js"

const reference = loadPublishedReference()

const project = "spring-example-302709"
const pendingProject = "bold-river-120001"

const main = "br-main-100001"
const dev = "br-dev-100002"
const feature = "br-feature-100003"
const branches = `/projects/${project}/branches`
const endpoints = `/projects/${project}/endpoints`
const devEndpoint = "ep-dev-100002"

const seed: Seed.Seed = {
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
interface Fixture {
  readonly fake: FakePlatform.Service
  readonly key: string
}

/** One request to one endpoint of the table. */
interface Case {
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

const cases: ReadonlyArray<Case> = [
  {
    endpoint: Endpoint.createApiKey,
    label: "a key created",
    status: 200,
    request: () =>
      HttpClientRequest.post("/api_keys").pipe(HttpClientRequest.bodyJson({ key_name: "ci" }), Effect.orDie)
  },
  {
    endpoint: Endpoint.createApiKey,
    label: "no key_name",
    status: 400,
    request: () => HttpClientRequest.post("/api_keys").pipe(HttpClientRequest.bodyJson({}), Effect.orDie)
  },
  {
    endpoint: Endpoint.createApiKey,
    label: "no API key",
    status: 401,
    anonymous: true,
    request: () =>
      HttpClientRequest.post("/api_keys").pipe(HttpClientRequest.bodyJson({ key_name: "ci" }), Effect.orDie)
  },
  { endpoint: Endpoint.listApiKeys, label: "the keys", status: 200, request: () => get("/api_keys") },
  {
    endpoint: Endpoint.revokeApiKey,
    label: "a key revoked",
    status: 200,
    request: ({ fake }) =>
      Effect.map(fake.scenario.addApiKey("to revoke"), (key) => HttpClientRequest.del(`/api_keys/${key.id}`))
  },
  {
    endpoint: Endpoint.revokeApiKey,
    label: "an unknown key",
    status: 404,
    request: () => get("/api_keys/42").pipe(Effect.map(HttpClientRequest.setMethod("DELETE")))
  },
  {
    endpoint: Endpoint.revokeApiKey,
    label: "a key id that is not a number",
    status: 400,
    request: () => Effect.succeed(HttpClientRequest.del("/api_keys/abc"))
  },
  { endpoint: Endpoint.listProjects, label: "a page", status: 200, request: () => get("/projects?limit=2") },
  {
    endpoint: Endpoint.listProjects,
    label: "a limit too large",
    status: 400,
    request: () => get("/projects?limit=401")
  },
  { endpoint: Endpoint.listSharedProjects, label: "a page", status: 200, request: () => get("/projects/shared") },
  {
    endpoint: Endpoint.listSharedProjects,
    label: "a bad cursor",
    status: 400,
    request: () => get("/projects/shared?cursor=nope")
  },
  {
    endpoint: Endpoint.listOperations,
    label: "a page",
    status: 200,
    request: () => get(`/projects/${project}/operations?limit=5`)
  },
  {
    endpoint: Endpoint.listOperations,
    label: "a pending one",
    status: 200,
    request: () => get(`/projects/${pendingProject}/operations`)
  },
  {
    endpoint: Endpoint.listOperations,
    label: "an unknown project",
    status: 404,
    request: () => get("/projects/no-such-project/operations")
  },
  {
    endpoint: Endpoint.listOperations,
    label: "a limit of 0",
    status: 400,
    request: () => get(`/projects/${project}/operations?limit=0`)
  },
  {
    endpoint: Endpoint.getOperation,
    label: "a finished one",
    status: 200,
    request: () => get(`/projects/${project}/operations/${operationId(1)}`)
  },
  {
    endpoint: Endpoint.getOperation,
    label: "a failed one",
    status: 200,
    request: () => get(`/projects/${project}/operations/${operationId(2)}`)
  },
  {
    endpoint: Endpoint.getOperation,
    label: "an unknown operation",
    status: 404,
    request: () => get(`/projects/${project}/operations/${operationId(99)}`)
  },
  {
    endpoint: Endpoint.getOperation,
    label: "an id that is not a UUID",
    status: 400,
    request: () => get(`/projects/${project}/operations/nope`)
  },
  { endpoint: Endpoint.listBranches, label: "all", status: 200, request: () => get(branches) },
  {
    endpoint: Endpoint.listBranches,
    label: "a page with a next one",
    status: 200,
    request: () => get(`${branches}?limit=1&sort_by=name&sort_order=asc`)
  },
  {
    endpoint: Endpoint.listBranches,
    label: "an unknown project",
    status: 404,
    request: () => get("/projects/no-such-project/branches")
  },
  {
    endpoint: Endpoint.listBranches,
    label: "an unknown sort",
    status: 400,
    request: () => get(`${branches}?sort_by=size`)
  },
  {
    endpoint: Endpoint.countBranches,
    label: "a count",
    status: 200,
    request: () => get(`${branches}/count?search=de`)
  },
  {
    endpoint: Endpoint.countBranches,
    label: "an unknown project",
    status: 404,
    request: () => get("/projects/no-such-project/branches/count")
  },
  {
    endpoint: Endpoint.countBranches,
    label: "a bad project id",
    status: 400,
    request: () => get("/projects/NO_SUCH/branches/count")
  },
  { endpoint: Endpoint.createBranch, label: "no body", status: 201, request: () => post(branches) },
  {
    endpoint: Endpoint.createBranch,
    label: "with a compute endpoint",
    status: 201,
    request: () => post(branches, { branch: { name: "preview", parent_id: dev }, endpoints: [{ type: "read_write" }] })
  },
  {
    endpoint: Endpoint.createBranch,
    label: "two read_write endpoints",
    status: 400,
    request: () => post(branches, { endpoints: [{ type: "read_write" }, { type: "read_write" }] })
  },
  {
    endpoint: Endpoint.createBranch,
    label: "an unknown parent",
    status: 404,
    request: () => post(branches, { branch: { parent_id: "br-none-000000" } })
  },
  {
    endpoint: Endpoint.createBranch,
    label: "a taken name",
    status: 409,
    request: () => post(branches, { branch: { name: "dev" } })
  },
  {
    endpoint: Endpoint.createBranch,
    label: "a project with a pending operation",
    status: 423,
    request: () => post(`/projects/${pendingProject}/branches`)
  },
  { endpoint: Endpoint.getBranch, label: "a branch", status: 200, request: () => get(`${branches}/${dev}`) },
  {
    endpoint: Endpoint.getBranch,
    label: "an unknown branch",
    status: 404,
    request: () => get(`${branches}/br-none-000000`)
  },
  { endpoint: Endpoint.getBranch, label: "a bad branch id", status: 400, request: () => get(`${branches}/BR_NONE`) },
  {
    endpoint: Endpoint.updateBranch,
    label: "a rename",
    status: 200,
    request: () => patch(`${branches}/${dev}`, { branch: { name: "develop", protected: true } })
  },
  {
    endpoint: Endpoint.updateBranch,
    label: "an empty name",
    status: 400,
    request: () => patch(`${branches}/${dev}`, { branch: { name: "" } })
  },
  {
    endpoint: Endpoint.updateBranch,
    label: "an unknown branch",
    status: 404,
    request: () => patch(`${branches}/br-none-000000`, { branch: {} })
  },
  {
    endpoint: Endpoint.updateBranch,
    label: "a taken name",
    status: 409,
    request: () => patch(`${branches}/${dev}`, { branch: { name: "main" } })
  },
  {
    endpoint: Endpoint.updateBranch,
    label: "a project with a pending operation",
    status: 423,
    request: ({ fake }) => Effect.zipRight(busy(fake), patch(`${branches}/${dev}`, { branch: { name: "x" } }))
  },
  {
    endpoint: Endpoint.deleteBranch,
    label: "a leaf branch",
    status: 200,
    request: () => del(`${branches}/${feature}`)
  },
  {
    endpoint: Endpoint.deleteBranch,
    label: "a branch already gone",
    status: 204,
    request: () => del(`${branches}/br-none-000000`)
  },
  {
    endpoint: Endpoint.deleteBranch,
    label: "the default branch",
    status: 400,
    request: () => del(`${branches}/${main}`)
  },
  {
    endpoint: Endpoint.deleteBranch,
    label: "a branch with children",
    status: 400,
    request: () => del(`${branches}/${dev}`)
  },
  {
    endpoint: Endpoint.deleteBranch,
    label: "an unknown project",
    status: 404,
    request: () => del(`/projects/no-such-project/branches/${dev}`)
  },
  {
    endpoint: Endpoint.deleteBranch,
    label: "a project with a pending operation",
    status: 423,
    request: ({ fake }) => Effect.zipRight(busy(fake), del(`${branches}/${feature}`))
  },
  {
    endpoint: Endpoint.restoreBranch,
    label: "from its parent, keeping the old state",
    status: 200,
    request: () => post(`${branches}/${dev}/restore`, { source_branch_id: main, preserve_under_name: "dev-before" })
  },
  {
    endpoint: Endpoint.restoreBranch,
    label: "no source",
    status: 400,
    request: () => post(`${branches}/${dev}/restore`, {})
  },
  {
    endpoint: Endpoint.restoreBranch,
    label: "an unknown source",
    status: 404,
    request: () => post(`${branches}/${dev}/restore`, { source_branch_id: "br-none-000000" })
  },
  {
    endpoint: Endpoint.restoreBranch,
    label: "a taken name to keep the old state under",
    status: 409,
    request: () => post(`${branches}/${dev}/restore`, { source_branch_id: main, preserve_under_name: "feature" })
  },
  {
    endpoint: Endpoint.restoreBranch,
    label: "a project with a pending operation",
    status: 423,
    request: ({ fake }) => Effect.zipRight(busy(fake), post(`${branches}/${dev}/restore`, { source_branch_id: main }))
  },
  {
    endpoint: Endpoint.setDefaultBranch,
    label: "a child",
    status: 200,
    request: () => post(`${branches}/${dev}/set_as_default`)
  },
  {
    endpoint: Endpoint.setDefaultBranch,
    label: "a bad branch id",
    status: 400,
    request: () => post(`${branches}/BR_NONE/set_as_default`)
  },
  {
    endpoint: Endpoint.setDefaultBranch,
    label: "an unknown branch",
    status: 404,
    request: () => post(`${branches}/br-none-000000/set_as_default`)
  },
  {
    endpoint: Endpoint.setDefaultBranch,
    label: "a project with a pending operation",
    status: 423,
    request: ({ fake }) => Effect.zipRight(busy(fake), post(`${branches}/${dev}/set_as_default`))
  },
  {
    endpoint: Endpoint.listBranchEndpoints,
    label: "a branch's",
    status: 200,
    request: () => get(`${branches}/${dev}/endpoints`)
  },
  {
    endpoint: Endpoint.listBranchEndpoints,
    label: "an unknown branch",
    status: 404,
    request: () => get(`${branches}/br-none-000000/endpoints`)
  },
  {
    endpoint: Endpoint.listBranchEndpoints,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/endpoints`)
  },
  {
    endpoint: Endpoint.listDatabases,
    label: "a branch's",
    status: 200,
    request: given(get(databases))
  },
  {
    endpoint: Endpoint.listDatabases,
    label: "an unknown branch",
    status: 404,
    request: () => get(`${branches}/br-none-000000/databases`)
  },
  {
    endpoint: Endpoint.listDatabases,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/databases`)
  },
  {
    endpoint: Endpoint.createDatabase,
    label: "owned by a role of the branch",
    status: 201,
    request: given(post(databases, { database: { name: "shop", owner_name: "loose" } }))
  },
  {
    endpoint: Endpoint.createDatabase,
    label: "no owner",
    status: 400,
    request: given(post(databases, { database: { name: "shop" } }))
  },
  {
    endpoint: Endpoint.createDatabase,
    label: "an owner the branch does not have",
    status: 404,
    request: given(post(databases, { database: { name: "shop", owner_name: "nobody" } }))
  },
  {
    endpoint: Endpoint.createDatabase,
    label: "a taken name",
    status: 409,
    request: given(post(databases, { database: { name: "app", owner_name: "loose" } }))
  },
  {
    endpoint: Endpoint.createDatabase,
    label: "a project with a pending operation",
    status: 423,
    request: givenBusy(post(databases, { database: { name: "shop", owner_name: "loose" } }))
  },
  { endpoint: Endpoint.getDatabase, label: "a database", status: 200, request: given(get(`${databases}/app`)) },
  {
    endpoint: Endpoint.getDatabase,
    label: "an unknown database",
    status: 404,
    request: given(get(`${databases}/none`))
  },
  {
    endpoint: Endpoint.getDatabase,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/databases/app`)
  },
  {
    endpoint: Endpoint.updateDatabase,
    label: "renamed, another owner",
    status: 200,
    request: given(patch(`${databases}/app`, { database: { name: "shop", owner_name: "loose" } }))
  },
  {
    endpoint: Endpoint.updateDatabase,
    label: "a name of 64 bytes",
    status: 400,
    request: given(patch(`${databases}/app`, { database: { name: "d".repeat(64) } }))
  },
  {
    endpoint: Endpoint.updateDatabase,
    label: "an unknown database",
    status: 404,
    request: given(patch(`${databases}/none`, { database: { name: "shop" } }))
  },
  {
    endpoint: Endpoint.updateDatabase,
    label: "a taken name",
    status: 409,
    request: given(patch(`${databases}/app`, { database: { name: "other" } }))
  },
  {
    endpoint: Endpoint.updateDatabase,
    label: "a project with a pending operation",
    status: 423,
    request: givenBusy(patch(`${databases}/app`, { database: { name: "shop" } }))
  },
  { endpoint: Endpoint.deleteDatabase, label: "a database", status: 200, request: given(del(`${databases}/app`)) },
  {
    endpoint: Endpoint.deleteDatabase,
    label: "a database already gone",
    status: 204,
    request: given(del(`${databases}/none`))
  },
  {
    endpoint: Endpoint.deleteDatabase,
    label: "a bad branch id",
    status: 400,
    request: () => del(`${branches}/BR_NONE/databases/app`)
  },
  {
    endpoint: Endpoint.deleteDatabase,
    label: "an unknown branch",
    status: 404,
    request: () => del(`${branches}/br-none-000000/databases/app`)
  },
  {
    endpoint: Endpoint.deleteDatabase,
    label: "a project with a pending operation",
    status: 423,
    request: givenBusy(del(`${databases}/app`))
  },
  { endpoint: Endpoint.listRoles, label: "a branch's", status: 200, request: given(get(roles)) },
  {
    endpoint: Endpoint.listRoles,
    label: "an unknown branch",
    status: 404,
    request: () => get(`${branches}/br-none-000000/roles`)
  },
  {
    endpoint: Endpoint.listRoles,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/roles`)
  },
  {
    endpoint: Endpoint.createRole,
    label: "with its password",
    status: 201,
    request: given(post(roles, { role: { name: "ci" } }))
  },
  {
    endpoint: Endpoint.createRole,
    label: "a name of 64 bytes",
    status: 400,
    request: given(post(roles, { role: { name: "r".repeat(64) } }))
  },
  {
    endpoint: Endpoint.createRole,
    label: "an unknown branch",
    status: 404,
    request: () => post(`${branches}/br-none-000000/roles`, { role: { name: "ci" } })
  },
  {
    endpoint: Endpoint.createRole,
    label: "a taken name",
    status: 409,
    request: given(post(roles, { role: { name: "owner" } }))
  },
  {
    endpoint: Endpoint.createRole,
    label: "a project with a pending operation",
    status: 423,
    request: givenBusy(post(roles, { role: { name: "ci" } }))
  },
  { endpoint: Endpoint.getRole, label: "a role", status: 200, request: given(get(`${roles}/owner`)) },
  { endpoint: Endpoint.getRole, label: "an unknown role", status: 404, request: given(get(`${roles}/none`)) },
  {
    endpoint: Endpoint.getRole,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/roles/owner`)
  },
  {
    endpoint: Endpoint.deleteRole,
    label: "a role that owns no database",
    status: 200,
    request: given(del(`${roles}/loose`))
  },
  { endpoint: Endpoint.deleteRole, label: "a role already gone", status: 204, request: given(del(`${roles}/none`)) },
  {
    endpoint: Endpoint.deleteRole,
    label: "a role that owns a database",
    status: 400,
    request: given(del(`${roles}/owner`))
  },
  {
    endpoint: Endpoint.deleteRole,
    label: "an unknown branch",
    status: 404,
    request: () => del(`${branches}/br-none-000000/roles/owner`)
  },
  {
    endpoint: Endpoint.deleteRole,
    label: "a project with a pending operation",
    status: 423,
    request: givenBusy(del(`${roles}/loose`))
  },
  {
    endpoint: Endpoint.revealRolePassword,
    label: "a role's",
    status: 200,
    request: given(get(`${roles}/owner/reveal_password`))
  },
  {
    endpoint: Endpoint.revealRolePassword,
    label: "an unknown role",
    status: 404,
    request: given(get(`${roles}/none/reveal_password`))
  },
  {
    endpoint: Endpoint.revealRolePassword,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/roles/owner/reveal_password`)
  },
  {
    endpoint: Endpoint.resetRolePassword,
    label: "a new password",
    status: 200,
    request: given(post(`${roles}/owner/reset_password`))
  },
  {
    endpoint: Endpoint.resetRolePassword,
    label: "a protected role",
    status: 400,
    request: given(post(`${roles}/system/reset_password`))
  },
  {
    endpoint: Endpoint.resetRolePassword,
    label: "an unknown role",
    status: 404,
    request: given(post(`${roles}/none/reset_password`))
  },
  {
    endpoint: Endpoint.resetRolePassword,
    label: "a project with a pending operation",
    status: 423,
    request: givenBusy(post(`${roles}/owner/reset_password`))
  },
  {
    endpoint: Endpoint.createProject,
    label: "the defaults",
    status: 201,
    request: () => post("/projects", { project: {} })
  },
  {
    endpoint: Endpoint.createProject,
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
    endpoint: Endpoint.createProject,
    label: "a Postgres version out of range",
    status: 400,
    request: () => post("/projects", { project: { pg_version: 13 } })
  },
  {
    endpoint: Endpoint.createProject,
    label: "a minimum above the maximum",
    status: 400,
    request: () =>
      post("/projects", {
        project: { default_endpoint_settings: { autoscaling_limit_min_cu: 2, autoscaling_limit_max_cu: 1 } }
      })
  },
  { endpoint: Endpoint.getProject, label: "a project", status: 200, request: () => get(`/projects/${project}`) },
  {
    endpoint: Endpoint.getProject,
    label: "a shared project",
    status: 200,
    request: () => get("/projects/shared-leaf-100001")
  },
  {
    endpoint: Endpoint.getProject,
    label: "an unknown project",
    status: 404,
    request: () => get("/projects/no-such-project")
  },
  { endpoint: Endpoint.getProject, label: "a bad project id", status: 400, request: () => get("/projects/NO_SUCH") },
  {
    endpoint: Endpoint.updateProject,
    label: "a new retention",
    status: 200,
    request: () => patch(`/projects/${project}`, { project: { history_retention_seconds: 7200 } })
  },
  {
    endpoint: Endpoint.updateProject,
    label: "a new name and endpoint settings",
    status: 200,
    request: () =>
      patch(`/projects/${project}`, {
        project: { name: "renamed", default_endpoint_settings: { suspend_timeout_seconds: -1 } }
      })
  },
  {
    endpoint: Endpoint.updateProject,
    label: "a retention over 30 days",
    status: 400,
    request: () => patch(`/projects/${project}`, { project: { history_retention_seconds: 2_592_001 } })
  },
  {
    endpoint: Endpoint.updateProject,
    label: "an unknown project",
    status: 404,
    request: () => patch("/projects/no-such-project", { project: { name: "x" } })
  },
  {
    endpoint: Endpoint.updateProject,
    label: "a project with a pending operation",
    status: 423,
    request: () => patch(`/projects/${pendingProject}`, { project: { name: "x" } })
  },
  { endpoint: Endpoint.deleteProject, label: "a project", status: 200, request: () => del(`/projects/${project}`) },
  {
    endpoint: Endpoint.deleteProject,
    label: "an unknown project",
    status: 404,
    request: () => del("/projects/no-such-project")
  },
  { endpoint: Endpoint.deleteProject, label: "a bad project id", status: 400, request: () => del("/projects/NO_SUCH") },
  {
    endpoint: Endpoint.deleteProject,
    label: "a project with a pending operation",
    status: 423,
    request: () => del(`/projects/${pendingProject}`)
  },
  { endpoint: Endpoint.listComputeEndpoints, label: "a project's", status: 200, request: () => get(endpoints) },
  {
    endpoint: Endpoint.listComputeEndpoints,
    label: "an unknown project",
    status: 404,
    request: () => get("/projects/no-such-project/endpoints")
  },
  {
    endpoint: Endpoint.listComputeEndpoints,
    label: "a bad project id",
    status: 400,
    request: () => get("/projects/NO_SUCH/endpoints")
  },
  {
    endpoint: Endpoint.createComputeEndpoint,
    label: "a read_only one",
    status: 201,
    request: () => post(endpoints, { endpoint: { branch_id: dev, type: "read_only", suspend_timeout_seconds: -1 } })
  },
  {
    endpoint: Endpoint.createComputeEndpoint,
    label: "a minimum above the maximum",
    status: 400,
    request: () =>
      post(endpoints, {
        endpoint: { branch_id: main, type: "read_write", autoscaling_limit_min_cu: 2, autoscaling_limit_max_cu: 1 }
      })
  },
  {
    endpoint: Endpoint.createComputeEndpoint,
    label: "an unknown branch",
    status: 404,
    request: () => post(endpoints, { endpoint: { branch_id: "br-none-000000", type: "read_only" } })
  },
  {
    endpoint: Endpoint.createComputeEndpoint,
    label: "a second read_write on a branch",
    status: 409,
    request: () => post(endpoints, { endpoint: { branch_id: dev, type: "read_write" } })
  },
  {
    endpoint: Endpoint.createComputeEndpoint,
    label: "a project with a pending operation",
    status: 423,
    request: ({ fake }) =>
      Effect.zipRight(busy(fake), post(endpoints, { endpoint: { branch_id: main, type: "read_write" } }))
  },
  {
    endpoint: Endpoint.getComputeEndpoint,
    label: "a compute endpoint",
    status: 200,
    request: () => get(`${endpoints}/${devEndpoint}`)
  },
  {
    endpoint: Endpoint.getComputeEndpoint,
    label: "an unknown one",
    status: 404,
    request: () => get(`${endpoints}/ep-none-000000`)
  },
  {
    endpoint: Endpoint.getComputeEndpoint,
    label: "a bad id",
    status: 400,
    request: () => get(`${endpoints}/EP_NONE`)
  },
  {
    endpoint: Endpoint.updateComputeEndpoint,
    label: "a new suspend timeout",
    status: 200,
    request: () => patch(`${endpoints}/${devEndpoint}`, { endpoint: { suspend_timeout_seconds: 600 } })
  },
  {
    endpoint: Endpoint.updateComputeEndpoint,
    label: "a minimum above the maximum",
    status: 400,
    request: () => patch(`${endpoints}/${devEndpoint}`, { endpoint: { autoscaling_limit_min_cu: 4 } })
  },
  {
    endpoint: Endpoint.updateComputeEndpoint,
    label: "an unknown one",
    status: 404,
    request: () => patch(`${endpoints}/ep-none-000000`, { endpoint: {} })
  },
  {
    endpoint: Endpoint.updateComputeEndpoint,
    label: "a project with a pending operation",
    status: 423,
    request: ({ fake }) =>
      Effect.zipRight(busy(fake), patch(`${endpoints}/${devEndpoint}`, { endpoint: { suspend_timeout_seconds: 60 } }))
  },
  {
    endpoint: Endpoint.deleteComputeEndpoint,
    label: "an active one",
    status: 200,
    request: () => del(`${endpoints}/${devEndpoint}`)
  },
  {
    endpoint: Endpoint.deleteComputeEndpoint,
    label: "one already gone",
    status: 204,
    request: () => del(`${endpoints}/ep-none-000000`)
  },
  {
    endpoint: Endpoint.deleteComputeEndpoint,
    label: "a bad id",
    status: 400,
    request: () => del(`${endpoints}/EP_NONE`)
  },
  {
    endpoint: Endpoint.deleteComputeEndpoint,
    label: "an unknown project",
    status: 404,
    request: () => del(`/projects/no-such-project/endpoints/${devEndpoint}`)
  },
  {
    endpoint: Endpoint.deleteComputeEndpoint,
    label: "a project with a pending operation",
    status: 423,
    request: ({ fake }) => Effect.zipRight(busy(fake), del(`${endpoints}/${devEndpoint}`))
  },
  ...(
    [
      [Endpoint.startComputeEndpoint, "start"],
      [Endpoint.suspendComputeEndpoint, "suspend"],
      [Endpoint.restartComputeEndpoint, "restart"]
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
    endpoint: Endpoint.getConnectionUri,
    label: "a branch's",
    status: 200,
    request: () => get(`${connectionUri}?database_name=neondb&role_name=neondb_owner&branch_id=${dev}`)
  },
  {
    endpoint: Endpoint.getConnectionUri,
    label: "through a compute endpoint's pooler",
    status: 200,
    request: () =>
      get(`${connectionUri}?database_name=neondb&role_name=neondb_owner&endpoint_id=ep-dev-100002&pooled=true`)
  },
  {
    endpoint: Endpoint.getConnectionUri,
    label: "no role_name",
    status: 400,
    request: () => get(`${connectionUri}?database_name=neondb&branch_id=${dev}`)
  },
  {
    endpoint: Endpoint.getConnectionUri,
    label: "an unknown role",
    status: 404,
    request: () => get(`${connectionUri}?database_name=neondb&role_name=nobody&branch_id=${dev}`)
  },
  {
    endpoint: Endpoint.getConnectionUri,
    label: "a default branch without a compute endpoint",
    status: 404,
    request: () => get(`${connectionUri}?database_name=neondb&role_name=neondb_owner`)
  }
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
  ...Object.fromEntries(Object.values(Endpoint.computeEndpoints).map((endpoint) => [endpoint.name, ["Forbidden"]])),
  "Connections.uri": ["Forbidden"]
}

const statusOf: Readonly<Record<string, number>> = {
  BadRequest: 400,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  Locked: 423
}

describe("the fake's answers against the published reference", () => {
  it("finds the document and every endpoint of the table in it", () => {
    for (const endpoint of Endpoint.all) {
      expect(reference.has(endpoint.method, endpoint.route), `${endpoint.method} ${endpoint.route}`).toBe(true)
    }
    // Formats Ajv does not know, accepted as they are (the list is documented in publishedReference.ts).
    expect([...reference.unknownFormats].sort()).toEqual(["int", "uint64"])
  })

  it("refuses an answer that breaks the document's schema", () => {
    const validate = reference.response("GET", Endpoint.getOperation.route, 200)!.validate!
    const operation = {
      id: operationId(1),
      project_id: project,
      action: "start_compute",
      status: "finished",
      failures_count: 0,
      created_at: "2022-11-15T20:13:35Z",
      updated_at: "2022-11-15T20:13:35Z",
      total_duration_ms: 1
    }
    expect(validate({ operation })).toBe(true)
    const { status: _, ...withoutStatus } = operation
    expect(validate({ operation: withoutStatus })).toBe(false)
    expect(validate({ operation: { ...operation, failures_count: "0" } })).toBe(false)
  })

  it.effect.each(cases.map((c) => [`${c.endpoint.name}: ${c.label} (${c.status})`, c] as const))("%s", ([, c]) =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make(seed)
      const key = Redacted.value(fake.bootstrapKey)
      const request = yield* c.request({ fake, key })
      const response = yield* send(fake, request, c.anonymous === true ? {} : { key })
      const text = yield* response.text
      expect(response.status, text).toBe(c.status)
      const published = reference.response(c.endpoint.method, c.endpoint.route, response.status)
      expect(published, `the document declares ${response.status} or default`).toBeDefined()
      if (response.status < 300) expect(published!.declaredAs).toBe(String(response.status))
      if (published!.validate === undefined) {
        expect(text).toBe("")
        return
      }
      const valid = published!.validate(JSON.parse(text))
      expect(published!.validate.errors ?? [], text.slice(0, 2000)).toEqual([])
      expect(valid).toBe(true)
    }).pipe(Effect.scoped)
  )

  it("has a case for every endpoint of the table and each status it answers on its own", () => {
    const missing: Array<string> = []
    for (const endpoint of Endpoint.all) {
      const covered = new Set(cases.filter((c) => c.endpoint === endpoint).map((c) => c.status))
      const never = new Set(neverSentUnprompted[endpoint.name] ?? [])
      const wanted = [
        ...endpoint.statuses,
        ...endpoint.errors.filter((tag) => !never.has(tag)).map((tag) => statusOf[tag]!)
      ]
      for (const status of wanted) if (!covered.has(status)) missing.push(`${endpoint.name} ${status}`)
    }
    expect(missing).toEqual([])
  })
})
