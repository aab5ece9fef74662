/**
 * The Data API, branch auth and JWKS routes (docs/contract.md §25-§27) as a user meets them:
 * random sequences of requests to the fake's HTTP app over two projects (enable and disable a
 * branch's auth, trust and forget domains, add, update and remove OAuth providers, create, update
 * and delete a database's Data API, add and delete JWKS), mixed with the changes that take them
 * away (deleting a database, deleting a branch, restoring a branch from another), with the
 * `TestClock` moved between them so that operations end and locks lift. After each request: the
 * fake's invariants hold (no Data API of a database that is gone, no auth of a branch that is
 * gone: `state.problems`); the answer's status is one its endpoint declares and the one a model
 * of the rules expects; a refused request changed nothing; a 423 comes exactly when a request
 * that locks met a pending operation. At the end, the journal replayed on the first snapshot
 * gives the last.
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Api, type Endpoint } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as TestClock from "effect/TestClock"
import fc from "fast-check"
import type * as Seed from "../src/Seed.js"
import * as Snapshot from "../src/Snapshot.js"
import { send } from "./helpers.js"
import { declares, exchange, getOk, journaled, withoutLastUse } from "./randomRequests.js"
import { load } from "../src/internal/kinds.js"

const projectIds = ["spring-example-302709", "autumn-lake-302710"] as const

/** Each project: `main` (default, a read_write compute endpoint), `dev` of it, `leaf` of `dev`; each with `neondb`. */
const seed: Seed.Seed = {
  projects: projectIds.map((id) => ({ id })),
  branches: projectIds.flatMap((project, i) => [
    { project_id: project, id: `br-main-40000${i}`, name: "main", default: true },
    { project_id: project, id: `br-dev-40000${i}`, name: "dev", parent_id: `br-main-40000${i}` },
    { project_id: project, id: `br-leaf-40000${i}`, name: "leaf", parent_id: `br-dev-40000${i}` }
  ]),
  endpoints: projectIds.map((_, i) => ({ branch_id: `br-main-40000${i}`, type: "read_write" as const })),
  roles: projectIds.flatMap((_, i) =>
    ["main", "dev", "leaf"].map((name) => ({ branch_id: `br-${name}-40000${i}`, name: "owner" }))
  ),
  databases: projectIds.flatMap((_, i) =>
    ["main", "dev", "leaf"].map((name) => ({ branch_id: `br-${name}-40000${i}`, name: "neondb", owner_name: "owner" }))
  )
}

/** Which branch a step acts on: by name, or one no project has. */
type BranchName = "main" | "dev" | "leaf" | "none"
/** Which database: the one every branch starts with, or one none has. */
type DatabaseName = "neondb" | "none"

type Step =
  | { readonly _tag: "EnableAuth"; readonly project: number; readonly branch: BranchName; readonly provider: string }
  | { readonly _tag: "DisableAuth"; readonly project: number; readonly branch: BranchName }
  | {
      readonly _tag: "AddDomain" | "DeleteDomain"
      readonly project: number
      readonly branch: BranchName
      readonly domain: string
      readonly provider: string
    }
  | { readonly _tag: "AddProvider"; readonly project: number; readonly branch: BranchName; readonly id: string }
  | {
      readonly _tag: "UpdateProvider" | "DeleteProvider"
      readonly project: number
      readonly branch: BranchName
      readonly id: string
    }
  | {
      readonly _tag: "CreateDataApi" | "UpdateDataApi" | "DeleteDataApi" | "DeleteDatabase"
      readonly project: number
      readonly branch: BranchName
      readonly database: DatabaseName
    }
  | { readonly _tag: "AddJwks"; readonly project: number; readonly branch: BranchName | undefined }
  | { readonly _tag: "DeleteJwks"; readonly project: number; readonly pick: number }
  | { readonly _tag: "DeleteBranch"; readonly project: number; readonly branch: BranchName }
  | {
      readonly _tag: "RestoreBranch"
      readonly project: number
      readonly branch: BranchName
      /** Whether it names a point (now) and a name that keeps the branch's state before: required from its own history, or with children. */
      readonly keep: boolean
    }
  | { readonly _tag: "Wait"; readonly seconds: number }

const project = fc.nat(1)
const branch = fc.constantFrom<BranchName>("main", "dev", "dev", "dev", "dev", "leaf", "none")
const database = fc.constantFrom<DatabaseName>("neondb", "neondb", "neondb", "none")
const authProvider = fc.constantFrom("better_auth", "better_auth", "better_auth", "keycloak")
const domain = fc.constantFrom("https://app.example.com", "https://preview.example.com", "https://x.example.com")
const providerId = fc.constantFrom("google", "google", "google", "github", "gitlab")
const onBranch = <T extends string>(tag: T) => fc.record({ _tag: fc.constant(tag), project, branch })
const onDatabase = <T extends string>(tag: T) => fc.record({ _tag: fc.constant(tag), project, branch, database })

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ _tag: fc.constant("EnableAuth" as const), project, branch, provider: authProvider })
  },
  { weight: 1, arbitrary: onBranch("DisableAuth" as const) },
  {
    weight: 3,
    arbitrary: fc.record({
      _tag: fc.constantFrom("AddDomain" as const, "DeleteDomain" as const),
      project,
      branch,
      domain,
      provider: fc.constantFrom("better_auth", "better_auth", "better_auth", "stack")
    })
  },
  { weight: 3, arbitrary: fc.record({ _tag: fc.constant("AddProvider" as const), project, branch, id: providerId }) },
  {
    weight: 2,
    arbitrary: fc.record({
      _tag: fc.constantFrom("UpdateProvider" as const, "DeleteProvider" as const),
      project,
      branch,
      id: providerId
    })
  },
  { weight: 3, arbitrary: onDatabase("CreateDataApi" as const) },
  { weight: 1, arbitrary: onDatabase("UpdateDataApi" as const) },
  { weight: 1, arbitrary: onDatabase("DeleteDataApi" as const) },
  { weight: 1, arbitrary: onDatabase("DeleteDatabase" as const) },
  {
    weight: 2,
    arbitrary: fc.record({
      _tag: fc.constant("AddJwks" as const),
      project,
      branch: fc.option(branch, { nil: undefined })
    })
  },
  { weight: 1, arbitrary: fc.record({ _tag: fc.constant("DeleteJwks" as const), project, pick: fc.nat(5) }) },
  { weight: 1, arbitrary: onBranch("DeleteBranch" as const) },
  {
    weight: 1,
    arbitrary: fc.record({ _tag: fc.constant("RestoreBranch" as const), project, branch, keep: fc.boolean() })
  },
  { weight: 4, arbitrary: fc.record({ _tag: fc.constant("Wait" as const), seconds: fc.integer({ min: 1, max: 4 }) }) }
)

/** One request, its endpoint, the statuses the rules allow, and whether it locks. */
interface Planned {
  readonly project: string
  readonly endpoint: Endpoint.Endpoint
  readonly request: Effect.Effect<HttpClientRequest.HttpClientRequest>
  /** The statuses the rules allow when the project is not locked. */
  readonly allowed: ReadonlyArray<number>
  /** Whether the request would change something that exists, and is refused while the project is locked. */
  readonly lockable: boolean
}

const json = (request: HttpClientRequest.HttpClientRequest, body: unknown) =>
  Effect.orDie(HttpClientRequest.bodyJson(request, body))

/** The success status, unless a refusal applies: then any that does (the rules do not order them). */
const outcome = (success: number, refusals: ReadonlyArray<readonly [applies: boolean, status: number]>) => {
  const applying = refusals.filter(([applies]) => applies).map(([, status]) => status)
  return applying.length > 0 ? applying : [success]
}

/** How many branches restores have preserved: each under a name of its own. */
let preserved = 0

/** The request `step` makes of the state `snapshot` at `now` (epoch ms). */
const plan = (step: Exclude<Step, { _tag: "Wait" }>, snapshot: Snapshot.Snapshot, now: number): Planned => {
  const i = step.project
  const project = projectIds[i]!
  const branchIdOf = (name: BranchName) => (name === "none" ? "br-none-000000" : `br-${name}-40000${i}`)
  const branchOf = (id: string) => snapshot.branches.find((branch) => branch.id === id && branch.project_id === project)
  if (step._tag === "AddJwks") {
    const branchId = step.branch === undefined ? undefined : branchIdOf(step.branch)
    const known = branchId === undefined || branchOf(branchId) !== undefined
    return {
      project,
      endpoint: Api.Jwks.add,
      request: json(HttpClientRequest.post(`/projects/${project}/jwks`), {
        jwks_url: "https://auth.example.com/jwks.json",
        provider_name: "Clerk",
        ...(branchId === undefined ? {} : { branch_id: branchId })
      }),
      allowed: known ? [201] : [404],
      lockable: known
    }
  }
  if (step._tag === "DeleteJwks") {
    const own = snapshot.jwks.filter((jwks) => jwks.project_id === project)
    const jwks = own[step.pick % Math.max(own.length, 1)]
    return {
      project,
      endpoint: Api.Jwks.delete,
      request: Effect.succeed(HttpClientRequest.del(`/projects/${project}/jwks/${jwks?.id ?? "none"}`)),
      allowed: jwks === undefined ? [404] : [200],
      lockable: jwks !== undefined
    }
  }
  const branchId = branchIdOf(step.branch)
  const branch = branchOf(branchId)
  const base = `/projects/${project}/branches/${branchId}`
  const auth = snapshot.branch_auths.find((item) => item.id === branchId)
  const databaseOf = (name: DatabaseName) =>
    snapshot.databases.find((database) => database.branch_id === branchId && database.name === name)
  switch (step._tag) {
    case "EnableAuth":
      return {
        project,
        endpoint: Api.BranchAuth.create,
        request: json(HttpClientRequest.post(`${base}/auth`), { auth_provider: step.provider }),
        allowed:
          branch === undefined
            ? [404]
            : outcome(201, [
                [auth !== undefined, 409],
                [step.provider === "keycloak", 400],
                [!snapshot.databases.some((database) => database.branch_id === branchId), 400]
              ]),
        lockable: branch !== undefined
      }
    case "DisableAuth":
      return {
        project,
        endpoint: Api.BranchAuth.disable,
        request: json(HttpClientRequest.del(`${base}/auth`), { delete_data: true }),
        allowed: auth === undefined ? [404] : [200],
        lockable: auth !== undefined
      }
    case "AddDomain":
    case "DeleteDomain": {
      const add = step._tag === "AddDomain"
      return {
        project,
        endpoint: add ? Api.BranchAuth.addDomain : Api.BranchAuth.deleteDomains,
        request: add
          ? json(HttpClientRequest.post(`${base}/auth/domains`), { domain: step.domain, auth_provider: step.provider })
          : json(HttpClientRequest.del(`${base}/auth/domains`), {
              auth_provider: step.provider,
              domains: [{ domain: step.domain }]
            }),
        allowed: auth === undefined ? [404] : outcome(add ? 201 : 200, [[step.provider !== auth.auth_provider, 400]]),
        lockable: false
      }
    }
    case "AddProvider": {
      const present = auth?.oauth_providers.some((provider) => provider.id === step.id) === true
      return {
        project,
        endpoint: Api.BranchAuth.addOAuthProvider,
        request: json(HttpClientRequest.post(`${base}/auth/oauth_providers`), { id: step.id }),
        allowed:
          auth === undefined
            ? [404]
            : outcome(200, [
                [step.id === "gitlab", 400],
                [present, 409]
              ]),
        lockable: false
      }
    }
    case "UpdateProvider":
    case "DeleteProvider": {
      const present = auth?.oauth_providers.some((provider) => provider.id === step.id) === true
      const path = `${base}/auth/oauth_providers/${step.id}`
      return {
        project,
        endpoint:
          step._tag === "UpdateProvider" ? Api.BranchAuth.updateOAuthProvider : Api.BranchAuth.deleteOAuthProvider,
        request:
          step._tag === "UpdateProvider"
            ? json(HttpClientRequest.patch(path), { client_id: "id", client_secret: "secret" })
            : Effect.succeed(HttpClientRequest.del(path)),
        allowed: present ? [200] : [404],
        lockable: false
      }
    }
    case "CreateDataApi":
    case "UpdateDataApi":
    case "DeleteDataApi": {
      const database = databaseOf(step.database)
      const dataApi = database === undefined ? undefined : snapshot.data_apis.find((item) => item.id === database.id)
      const path = `${base}/data-api/${step.database}`
      if (step._tag === "CreateDataApi") {
        return {
          project,
          endpoint: Api.DataApi.create,
          request: json(HttpClientRequest.post(path), { settings: { db_max_rows: 10 } }),
          allowed: database === undefined ? [404] : outcome(201, [[dataApi !== undefined, 409]]),
          lockable: database !== undefined
        }
      }
      return {
        project,
        endpoint: step._tag === "UpdateDataApi" ? Api.DataApi.update : Api.DataApi.delete,
        request:
          step._tag === "UpdateDataApi"
            ? json(HttpClientRequest.patch(path), { settings: { db_schemas: ["api"] } })
            : Effect.succeed(HttpClientRequest.del(path)),
        allowed: dataApi === undefined ? [404] : [step._tag === "UpdateDataApi" ? 201 : 200],
        lockable: dataApi !== undefined
      }
    }
    case "DeleteDatabase": {
      const database = databaseOf(step.database)
      return {
        project,
        endpoint: Api.Databases.delete,
        request: Effect.succeed(HttpClientRequest.del(`${base}/databases/${step.database}`)),
        allowed: branch === undefined ? [404] : database === undefined ? [204] : [200],
        lockable: database !== undefined
      }
    }
    case "DeleteBranch":
      return {
        project,
        endpoint: Api.Branches.delete,
        request: Effect.succeed(HttpClientRequest.del(base)),
        allowed:
          branch === undefined
            ? [204]
            : outcome(200, [
                [branch.default, 400],
                [snapshot.branches.some((child) => child.parent_id === branchId), 400]
              ]),
        lockable: branch !== undefined
      }
    case "RestoreBranch": {
      // From the project's default branch: the branch's databases (and their Data APIs) are replaced.
      const source = `br-main-40000${i}`
      const children = snapshot.branches.some((child) => child.parent_id === branchId)
      return {
        project,
        endpoint: Api.Branches.restore,
        request: json(HttpClientRequest.post(`${base}/restore`), {
          source_branch_id: source,
          ...(step.keep
            ? {
                source_timestamp: new Date(now).toISOString(),
                preserve_under_name: `${step.branch}-kept-${++preserved}`
              }
            : {})
        }),
        // From its own history: a point and a name to keep its state before; with children: the name (§11.5).
        allowed: branch === undefined ? [404] : outcome(200, [[(branchId === source || children) && !step.keep, 400]]),
        lockable: branch !== undefined
      }
    }
  }
}

/** Each step's kind and the status it got, over every run: what the runs covered. */
const seen = new Set<string>()

describe("the Data API, branch auth and JWKS routes, random requests over the fake's HTTP app", () => {
  it.effect.prop(
    "keep the invariants, answer declared statuses as the rules say, change nothing when refused, lock exactly while an operation is pending, and the journal replays",
    [fc.array(step, { minLength: 1, maxLength: 60, size: "max" })],
    ([steps]) =>
      Effect.gen(function* () {
        const { fake, key, replays } = yield* journaled(seed)
        // Every run starts with the auth service of the first project's `dev` enabled, with the
        // OAuth provider `google`: its domains and providers are met more often than their absence.
        const enabled = yield* send(
          fake,
          yield* json(HttpClientRequest.post(`/projects/${projectIds[0]}/branches/br-dev-400000/auth`), {
            auth_provider: "better_auth"
          }),
          { key }
        )
        expect(enabled.status).toBe(201)
        const added = yield* send(
          fake,
          yield* json(
            HttpClientRequest.post(`/projects/${projectIds[0]}/branches/br-dev-400000/auth/oauth_providers`),
            {
              id: "google"
            }
          ),
          { key }
        )
        expect(added.status).toBe(200)
        /** Whether project `id` has a pending operation, as `GET …/operations` tells. */
        const pending = (id: string) =>
          Effect.map(getOk(fake, key, `/projects/${id}/operations`), ({ operations }) =>
            (operations as ReadonlyArray<{ status: string }>).some(
              (operation) => operation.status === "scheduling" || operation.status === "running"
            )
          )
        for (const step of steps) {
          if (step._tag === "Wait") {
            yield* TestClock.adjust(`${step.seconds} seconds`)
            continue
          }
          const before = yield* fake.snapshot
          const planned = plan(step, before, yield* Clock.currentTimeMillis)
          const locked = yield* pending(planned.project)
          const request = yield* planned.request
          const response = yield* exchange(fake, request, key)
          const after = yield* fake.snapshot
          const context = `${request.method} ${request.url} ${JSON.stringify(step)}: ${response.status} ${response.text}`
          seen.add(`${step._tag} ${response.status}`)
          expect(declares(planned.endpoint, response.status), context).toBe(true)
          expect(response.status === 423, context).toBe(locked && planned.lockable)
          if (response.status !== 423) expect(planned.allowed, context).toContain(response.status)
          const loaded = load(after)
          expect(Either.isLeft(loaded) ? loaded.left : [], context).toEqual([])
          if (response.status >= 400 || response.status === 204) {
            expect(withoutLastUse(after), context).toEqual(withoutLastUse(before))
          }
          // What goes with what: a database's Data API, a branch's auth service.
          for (const dataApi of after.data_apis) {
            expect(
              after.databases.some((database) => database.id === dataApi.id),
              context
            ).toBe(true)
          }
          for (const auth of after.branch_auths) {
            expect(
              after.branches.some((branch) => branch.id === auth.id),
              context
            ).toBe(true)
          }
        }
        yield* replays
      }),
    // A fixed seed: a failure prints it and the path of the shrunk case (`fastCheck.path` replays
    // it). Twenty runs of up to 60 requests: a few seconds alone, more on a busy machine (no limit
    // but a generous timeout).
    { fastCheck: { seed: 2131, numRuns: 20 }, timeout: 300_000 }
  )

  it("covered each mutation's success, its refusals and its lock", () => {
    for (const covered of [
      "EnableAuth 201",
      "EnableAuth 409",
      "EnableAuth 423",
      "DisableAuth 200",
      "AddDomain 201",
      "DeleteDomain 200",
      "AddProvider 200",
      "AddProvider 409",
      "UpdateProvider 200",
      "DeleteProvider 200",
      "CreateDataApi 201",
      "CreateDataApi 409",
      "UpdateDataApi 201",
      "DeleteDataApi 200",
      "DeleteDatabase 200",
      "AddJwks 201",
      "AddJwks 423",
      "DeleteJwks 200",
      "DeleteBranch 200",
      "RestoreBranch 200",
      "RestoreBranch 400"
    ]) {
      expect([...seen].sort().join(", "), covered).toContain(covered)
    }
  })
})
