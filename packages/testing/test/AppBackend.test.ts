/**
 * The app backend of a branch through the client over the fake (docs/contract.md §25-§27): the
 * Data API of a database (create, read, update, delete; a second create is a 409), the branch's
 * auth service (enabled with its keys shown once as `Redacted`, a second enable a 409, its trusted
 * domains and OAuth providers, disabled), and a project's JWKS (added with its operations,
 * waited for in one call on the `TestClock`, deleted); deleting the branch takes its Data API
 * and auth with it.
 */
import { BranchAuth, Branches, DataApi, Jwks } from "@dbplatform/client"
import { BranchId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import { projectId } from "./helpers.js"

const main = BranchId.make("br-main-100001")
const preview = BranchId.make("br-preview-100002")

/** A project whose `main` has a read_write compute endpoint and the database `neondb`, and a child `preview` with a copy of it. */
const provideFake = Effect.provide(
  DbPlatformTest.layer({
    seed: {
      projects: [{ id: projectId }],
      branches: [
        { project_id: projectId, id: main, name: "main", default: true },
        { project_id: projectId, id: preview, name: "preview", parent_id: main }
      ],
      endpoints: [{ branch_id: main, id: "ep-main-100001", type: "read_write" }],
      roles: [main, preview].map((branch_id) => ({ branch_id, name: "owner" })),
      databases: [main, preview].map((branch_id) => ({ branch_id, name: "neondb", owner_name: "owner" }))
    }
  })
)

const database = { project_id: projectId, branch_id: preview, database_name: "neondb" }
const branch = { project_id: projectId, branch_id: preview }

describe("DataApi", () => {
  it.effect("creates, reads, updates and deletes a database's Data API; a second create is a 409", () =>
    Effect.gen(function* () {
      const dataApi = yield* DataApi.DataApi
      const created = yield* dataApi.create({ ...database, settings: { db_max_rows: 100 } })
      expect(created.url).toBe("https://br-preview-100002.apirest.aws-us-east-2.dbplatform.test/neondb/rest/v1")
      expect((yield* Effect.flip(dataApi.create(database)))._tag).toBe("Conflict")
      const read = yield* dataApi.get(database)
      expect(read.url).toBe(created.url)
      expect(read.status).toBe("ready")
      expect(read.settings).toMatchObject({ db_max_rows: 100, db_schemas: ["public"], db_anon_role: "anonymous" })
      expect(yield* dataApi.update({ ...database, settings: { db_schemas: ["public", "api"] } })).toEqual({})
      expect((yield* dataApi.get(database)).settings).toMatchObject({ db_max_rows: 100, db_schemas: ["public", "api"] })
      expect(yield* dataApi.delete(database)).toEqual({})
      expect((yield* Effect.flip(dataApi.get(database)))._tag).toBe("NotFound")
      expect((yield* Effect.flip(dataApi.delete(database)))._tag).toBe("NotFound")
      expect((yield* Effect.flip(dataApi.get({ ...database, database_name: "none" })))._tag).toBe("NotFound")
    }).pipe(provideFake)
  )

  it.effect("refuses an external provider without jwks_url, and neon_auth before the branch's auth", () =>
    Effect.gen(function* () {
      const dataApi = yield* DataApi.DataApi
      const external = yield* Effect.flip(dataApi.create({ ...database, auth_provider: "external" }))
      expect(external._tag).toBe("BadRequest")
      expect(external.message).toContain("jwks_url")
      expect((yield* Effect.flip(dataApi.create({ ...database, auth_provider: "neon_auth" })))._tag).toBe("BadRequest")
      const invalid = yield* Effect.flip(dataApi.create({ ...database, jwks_url: "not a url" }))
      expect(invalid._tag).toBe("InvalidRequest")
      yield* (yield* BranchAuth.BranchAuth).create({ ...branch, auth_provider: "better_auth" })
      yield* dataApi.create({ ...database, auth_provider: "neon_auth" })
      expect((yield* dataApi.get(database)).available_schemas).toEqual(["public", "neon_auth"])
    }).pipe(provideFake)
  )

  it.effect("goes with its database, and with its branch", () =>
    Effect.gen(function* () {
      const dataApi = yield* DataApi.DataApi
      const fake = yield* FakePlatform.FakePlatform
      yield* dataApi.create(database)
      yield* (yield* BranchAuth.BranchAuth).create({ ...branch, auth_provider: "mock" })
      expect((yield* fake.snapshot).data_apis).toHaveLength(1)
      expect((yield* fake.snapshot).branch_auths).toHaveLength(1)
      yield* (yield* Branches.Branches).delete(branch)
      const after = yield* fake.snapshot
      expect(after.data_apis).toEqual([])
      expect(after.branch_auths).toEqual([])
    }).pipe(provideFake)
  )
})

describe("BranchAuth", () => {
  it.effect("enables a branch's auth with its keys shown once, Redacted; a second enable is a 409", () =>
    Effect.gen(function* () {
      const auth = yield* BranchAuth.BranchAuth
      const fake = yield* FakePlatform.FakePlatform
      const created = yield* auth.create({ ...branch, auth_provider: "better_auth" })
      expect(Redacted.isRedacted(created.pub_client_key)).toBe(true)
      expect(Redacted.isRedacted(created.secret_server_key)).toBe(true)
      expect(Redacted.value(created.secret_server_key)).toMatch(/^ssk_[0-9a-f]{32}$/)
      expect(Redacted.value(created.pub_client_key)).toMatch(/^pck_[0-9a-f]{32}$/)
      expect(created).toMatchObject({
        auth_provider: "better_auth",
        schema_name: "neon_auth",
        table_name: "users_sync"
      })
      // Shown once: nothing the fake keeps holds them.
      const snapshot = JSON.stringify(yield* fake.snapshot)
      expect(snapshot).not.toContain(Redacted.value(created.secret_server_key))
      expect(snapshot).not.toContain(Redacted.value(created.pub_client_key))
      const read = yield* auth.get(branch)
      expect(read).toMatchObject({ auth_provider: "better_auth", branch_id: preview, db_name: "neondb" })
      expect(read.auth_provider_project_id).toBe(created.auth_provider_project_id)
      expect(JSON.stringify(read)).not.toContain("ssk_")
      expect((yield* Effect.flip(auth.create({ ...branch, auth_provider: "better_auth" })))._tag).toBe("Conflict")
      yield* auth.disable({ ...branch, delete_data: true })
      expect((yield* Effect.flip(auth.get(branch)))._tag).toBe("NotFound")
      expect((yield* Effect.flip(auth.disable(branch)))._tag).toBe("NotFound")
      // Enabled again, with new keys.
      const again = yield* auth.create({ ...branch, auth_provider: "stack", database_name: "neondb" })
      expect(Redacted.value(again.secret_server_key)).not.toBe(Redacted.value(created.secret_server_key))
    }).pipe(provideFake)
  )

  it.effect("refuses a provider the platform does not offer, and an unknown database", () =>
    Effect.gen(function* () {
      const auth = yield* BranchAuth.BranchAuth
      expect((yield* Effect.flip(auth.create({ ...branch, auth_provider: "keycloak" })))._tag).toBe("BadRequest")
      const unknown = yield* Effect.flip(auth.create({ ...branch, auth_provider: "mock", database_name: "none" }))
      expect(unknown._tag).toBe("NotFound")
      expect((yield* Effect.flip(auth.get(branch)))._tag).toBe("NotFound")
    }).pipe(provideFake)
  )

  it.effect("trusts domains and deletes them with a body on the DELETE", () =>
    Effect.gen(function* () {
      const auth = yield* BranchAuth.BranchAuth
      expect((yield* Effect.flip(auth.listDomainsPage(branch)))._tag).toBe("NotFound")
      yield* auth.create({ ...branch, auth_provider: "better_auth" })
      const add = (domain: string) => auth.addDomain({ ...branch, domain, auth_provider: "better_auth" })
      yield* add("https://app.example.com")
      yield* add("https://preview.example.com")
      yield* add("https://app.example.com")
      const listed = yield* auth.listDomains(branch).pipe(Stream.runCollect)
      expect(Chunk.toReadonlyArray(listed).map((domain) => domain.domain)).toEqual([
        "https://app.example.com",
        "https://preview.example.com"
      ])
      const wrong = yield* Effect.flip(
        auth.addDomain({ ...branch, domain: "https://x.example.com", auth_provider: "stack" })
      )
      expect(wrong._tag).toBe("BadRequest")
      const notUrl = yield* Effect.flip(auth.addDomain({ ...branch, domain: "app", auth_provider: "better_auth" }))
      expect(notUrl._tag).toBe("InvalidRequest")
      yield* auth.deleteDomains({
        ...branch,
        auth_provider: "better_auth",
        domains: [{ domain: "https://app.example.com" }, { domain: "https://never.example.com" }]
      })
      expect((yield* auth.listDomainsPage(branch)).domains.map((domain) => domain.domain)).toEqual([
        "https://preview.example.com"
      ])
    }).pipe(provideFake)
  )

  it.effect("adds, updates and deletes OAuth providers; client secrets stay Redacted", () =>
    Effect.gen(function* () {
      const auth = yield* BranchAuth.BranchAuth
      yield* auth.create({ ...branch, auth_provider: "better_auth" })
      const shared = yield* auth.addOAuthProvider({ ...branch, id: "google" })
      expect(shared).toMatchObject({ id: "google", type: "shared" })
      const secret = Redacted.make("gh-secret-0123456789")
      const github = yield* auth.addOAuthProvider({
        ...branch,
        id: "github",
        client_id: "gh-id",
        client_secret: secret
      })
      expect(github).toMatchObject({ id: "github", type: "standard", client_id: "gh-id" })
      expect(Redacted.isRedacted(github.client_secret)).toBe(true)
      expect(Redacted.value(github.client_secret!)).toBe("gh-secret-0123456789")
      expect((yield* Effect.flip(auth.addOAuthProvider({ ...branch, id: "github" })))._tag).toBe("Conflict")
      expect((yield* Effect.flip(auth.addOAuthProvider({ ...branch, id: "gitlab" })))._tag).toBe("BadRequest")
      expect(
        (yield* Effect.flip(auth.addOAuthProvider({ ...branch, id: "vercel", client_id: "only-the-id" })))._tag
      ).toBe("BadRequest")
      expect(
        (yield* Effect.flip(auth.addOAuthProvider({ ...branch, id: "vercel", microsoft_tenant_id: "t" })))._tag
      ).toBe("BadRequest")
      const updated = yield* auth.updateOAuthProvider({
        ...branch,
        oauth_provider_id: "google",
        client_id: "g-id",
        client_secret: Redacted.make("g-secret")
      })
      expect(updated).toMatchObject({ id: "google", type: "standard", client_id: "g-id" })
      const listed = yield* auth.listOAuthProvidersPage(branch)
      expect(listed.providers.map((provider) => [provider.id, provider.type])).toEqual([
        ["google", "standard"],
        ["github", "standard"]
      ])
      expect(JSON.stringify(listed)).not.toContain("g-secret")
      yield* auth.deleteOAuthProvider({ ...branch, oauth_provider_id: "google" })
      const missing = yield* Effect.flip(auth.deleteOAuthProvider({ ...branch, oauth_provider_id: "google" }))
      expect(missing._tag).toBe("NotFound")
      const unknownUpdate = yield* Effect.flip(
        auth.updateOAuthProvider({ ...branch, oauth_provider_id: "microsoft", client_id: "m" })
      )
      expect(unknownUpdate._tag).toBe("NotFound")
      expect((yield* auth.listOAuthProvidersPage(branch)).providers.map((provider) => provider.id)).toEqual(["github"])
    }).pipe(provideFake)
  )
})

describe("Jwks", () => {
  it.effect("adds a JWKS and waits for its apply_config in one call, lists it, deletes it", () =>
    Effect.gen(function* () {
      const jwks = yield* Jwks.Jwks
      const adding = yield* Effect.fork(
        jwks.add(
          { project_id: projectId, jwks_url: "https://auth.example.com/.well-known/jwks.json", provider_name: "Clerk" },
          { wait: true }
        )
      )
      for (let poll = 0; poll < 3; poll++) yield* TestClock.adjust("5 seconds")
      const added = yield* Fiber.join(adding)
      expect(added.jwks).toMatchObject({
        project_id: projectId,
        provider_name: "Clerk",
        role_names: ["authenticator", "authenticated", "anonymous"]
      })
      expect(added.operations.map((operation) => [operation.action, operation.endpoint_id])).toEqual([
        ["apply_config", "ep-main-100001"]
      ])
      const listed = yield* jwks.list({ project_id: projectId }).pipe(Stream.runCollect)
      expect(Chunk.toReadonlyArray(listed).map((item) => item.id)).toEqual([added.jwks.id])
      const deleted = yield* jwks.delete({ project_id: projectId, jwks_id: added.jwks.id })
      expect(deleted.id).toBe(added.jwks.id)
      expect((yield* jwks.listPage({ project_id: projectId })).jwks).toEqual([])
      expect((yield* Effect.flip(jwks.delete({ project_id: projectId, jwks_id: added.jwks.id })))._tag).toBe("NotFound")
    }).pipe(provideFake)
  )

  it.effect("scopes a JWKS to a branch: no compute endpoint there, no operation; an unknown branch is a 404", () =>
    Effect.gen(function* () {
      const jwks = yield* Jwks.Jwks
      const input = { project_id: projectId, jwks_url: "https://auth.example.com/jwks", provider_name: "Auth0" }
      const scoped = yield* jwks.add({ ...input, branch_id: preview, jwt_audience: "app", role_names: ["app_user"] })
      expect(scoped.jwks).toMatchObject({ branch_id: preview, jwt_audience: "app", role_names: ["app_user"] })
      expect(scoped.operations).toEqual([])
      const unknown = yield* Effect.flip(jwks.add({ ...input, branch_id: BranchId.make("br-none-000000") }))
      expect(unknown._tag).toBe("NotFound")
      const http = yield* Effect.flip(jwks.add({ ...input, jwks_url: "http://auth.example.com/jwks" }))
      expect(http._tag).toBe("InvalidRequest")
    }).pipe(provideFake)
  )
})
