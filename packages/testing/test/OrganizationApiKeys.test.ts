/**
 * Organization API keys (docs/contract.md §21) through the client over the fake: created with the
 * value shown once (`Redacted`), optionally for one project, listed, used as a bearer key that
 * acts for its organization's projects only (or its one project), and revoked: a 401 at once.
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { ApiKeys, DbPlatform, OrganizationApiKeys, Projects } from "@dbplatform/client"
import { ProjectId } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import { kindOf } from "../src/engine/authorization.js"
import { authDetailsOf as authOf } from "../src/engine/caller.js"
import type { Seed } from "../src/Seed.js"
import * as SeedModule from "../src/Seed.js"
import { read, send } from "./helpers.js"

const alpha = "org-alpha-100001"
const beta = "org-beta-100002"
const one = ProjectId.make("alpha-one-100001")
const two = ProjectId.make("alpha-two-100002")
const three = ProjectId.make("beta-three-100003")
const personal = ProjectId.make("personal-four-100004")

const seed: Seed = {
  organizations: [{ id: alpha }, { id: beta, api_keys: [{ name: "beta-ci", key: "beta-organization-key-0001" }] }],
  projects: [{ id: one, org_id: alpha }, { id: two, org_id: alpha }, { id: three, org_id: beta }, { id: personal }]
}
const provideFake = Effect.provide(DbPlatformTest.layer({ seed }))

/** Runs `self` with the client services authenticated by `apiKey`, over the same fake. */
const withKey = (apiKey: Redacted.Redacted<string>) =>
  Effect.provide(DbPlatform.layer({ baseUrl: DbPlatformTest.baseUrl, apiKey }))

const projectIds = Effect.flatMap(Projects.Projects, (projects) =>
  Effect.map(projects.listPage({ limit: 400 }), (page) => page.projects.map((project) => project.id).sort())
)

describe("OrganizationApiKeys", () => {
  it.effect("an organization's key acts for its organization's projects only, until revoked: then a 401 at once", () =>
    Effect.gen(function* () {
      const keys = yield* OrganizationApiKeys.OrganizationApiKeys
      const created = yield* keys.create({ org_id: alpha, key_name: "ci" })
      expect(Redacted.isRedacted(created.key)).toBe(true)
      expect(String(created.key)).not.toContain(Redacted.value(created.key))
      expect(created.project_id).toBeUndefined()

      const listed = yield* keys.listPage({ org_id: alpha })
      expect(listed.map((key) => [key.id, key.name, key.project_id])).toEqual([[created.id, "ci", undefined]])
      // The personal keys are not the organization's, nor the other way round.
      expect((yield* (yield* ApiKeys.ApiKeys).listPage()).map((key) => key.name)).toEqual(["bootstrap"])

      expect(yield* withKey(created.key)(projectIds)).toEqual([one, two].sort())
      const other = yield* withKey(created.key)(
        Effect.flip(Effect.flatMap(Projects.Projects, (projects) => projects.get({ project_id: three })))
      )
      expect(other._tag).toBe("NotFound")
      const personalOnly = yield* withKey(created.key)(
        Effect.flip(Effect.flatMap(ApiKeys.ApiKeys, (apiKeys) => apiKeys.listPage()))
      )
      expect(personalOnly._tag).toBe("UnexpectedStatus")
      expect(personalOnly.message).toContain("403")

      const revoked = yield* keys.revoke({ org_id: alpha, key_id: created.id })
      expect(revoked.revoked).toBe(true)
      // No clock advance: revocation is immediate.
      const refused = yield* withKey(created.key)(Effect.flip(projectIds))
      expect(refused._tag).toBe("Unauthorized")
      expect(yield* keys.listPage({ org_id: alpha })).toEqual([])
      expect((yield* Effect.flip(keys.revoke({ org_id: alpha, key_id: created.id })))._tag).toBe("NotFound")
    }).pipe(provideFake)
  )

  it.effect("a key scoped to one project sees that one, may not delete it, nor act for the organization", () =>
    Effect.gen(function* () {
      const keys = yield* OrganizationApiKeys.OrganizationApiKeys
      const created = yield* keys.create({ org_id: alpha, key_name: "app", project_id: one })
      expect(created.project_id).toBe(one)
      expect((yield* keys.listPage({ org_id: alpha })).map((key) => key.project_id)).toEqual([one])

      const scoped = withKey(created.key)
      expect(yield* scoped(projectIds)).toEqual([one])
      const project = yield* scoped(Effect.flatMap(Projects.Projects, (projects) => projects.get({ project_id: one })))
      expect(project.project.id).toBe(one)
      const sibling = yield* scoped(
        Effect.flip(Effect.flatMap(Projects.Projects, (projects) => projects.get({ project_id: two })))
      )
      expect(sibling._tag).toBe("NotFound")
      const deleted = yield* scoped(
        Effect.flip(Effect.flatMap(Projects.Projects, (projects) => projects.delete({ project_id: one })))
      )
      expect(deleted._tag).toBe("Forbidden")
      const organization = yield* scoped(
        Effect.flip(
          Effect.flatMap(OrganizationApiKeys.OrganizationApiKeys, (orgKeys) => orgKeys.listPage({ org_id: alpha }))
        )
      )
      expect(organization._tag).toBe("Forbidden")
      const created2 = yield* scoped(
        Effect.flip(Effect.flatMap(Projects.Projects, (projects) => projects.create({ project: { name: "x" } })))
      )
      expect(created2.message).toContain("403")
      // Still there: nothing a refused request asked was done.
      expect(yield* projectIds).toContain(one)
    }).pipe(provideFake)
  )

  it.effect("a project an organization's key creates goes to its organization; another one named is a 404", () =>
    Effect.gen(function* () {
      const keys = yield* OrganizationApiKeys.OrganizationApiKeys
      const created = yield* keys.create({ org_id: alpha, key_name: "ci" })
      const made = yield* withKey(created.key)(
        Effect.flatMap(Projects.Projects, (projects) => projects.create({ project: { name: "from-ci" } }))
      )
      expect(made.project.org_id).toBe(alpha)
      const elsewhere = yield* withKey(created.key)(
        Effect.flip(
          Effect.flatMap(Projects.Projects, (projects) => projects.create({ project: { name: "x", org_id: beta } }))
        )
      )
      expect(elsewhere._tag).toBe("NotFound")
      const listedElsewhere = yield* withKey(created.key)(
        Effect.flip(Effect.flatMap(Projects.Projects, (projects) => projects.listPage({ org_id: beta })))
      )
      expect(listedElsewhere._tag).toBe("NotFound")
    }).pipe(provideFake)
  )

  it.effect("a personal key sees the projects of the organizations its user is a member of, not another's", () =>
    Effect.gen(function* () {
      // `beta` is declared with no members: the account's user is its admin (docs/contract.md §20).
      expect(yield* projectIds).toEqual([one, two, three, personal].sort())
      const fake = yield* FakePlatform.make({
        ...seed,
        organizations: [{ id: alpha }, { id: beta, members: [{ email: "someone@example.com" }] }]
      })
      const { body } = yield* read(
        yield* send(fake, HttpClientRequest.get("/projects?limit=400"), { key: fake.bootstrapKey })
      )
      expect(body.projects.map((project: { readonly id: string }) => project.id).sort()).toEqual(
        [one, two, personal].sort()
      )
      const other = yield* send(fake, HttpClientRequest.get(`/projects/${three}`), { key: fake.bootstrapKey })
      expect(other.status).toBe(404)
    }).pipe(provideFake)
  )

  it.effect("a seed's organization key authenticates; a key of another organization reaches nothing here", () =>
    Effect.gen(function* () {
      const beta = Redacted.make("beta-organization-key-0001")
      expect(yield* withKey(beta)(projectIds)).toEqual([three])
      const refused = yield* withKey(beta)(
        Effect.flip(
          Effect.flatMap(OrganizationApiKeys.OrganizationApiKeys, (orgKeys) => orgKeys.listPage({ org_id: alpha }))
        )
      )
      expect(refused._tag).toBe("NotFound")
    }).pipe(provideFake)
  )

  it.effect(
    "refuses before sending a project_id or org_id that is no id, and a key of another organization is a 404",
    () =>
      Effect.gen(function* () {
        const keys = yield* OrganizationApiKeys.OrganizationApiKeys
        const bad = yield* Effect.flip(keys.listPage({ org_id: "Not An Org" }))
        expect(bad._tag).toBe("InvalidRequest")
        const created = yield* keys.create({ org_id: alpha, key_name: "ci" })
        const wrongOrg = yield* Effect.flip(keys.revoke({ org_id: beta, key_id: created.id }))
        expect(wrongOrg._tag).toBe("NotFound")
        const notOfIt = yield* Effect.flip(keys.create({ org_id: alpha, key_name: "x", project_id: three }))
        expect(notOfIt._tag).toBe("NotFound")
      }).pipe(provideFake)
  )

  it.effect("the realistic account's organization has a key for all its projects and one for the first", () => {
    const realistic = SeedModule.realistic({ organizationKey: "realistic-org-key-0001" })
    const [ci, first] = realistic.organizations![0]!.api_keys!
    expect(ci).toMatchObject({ name: "ci", key: "realistic-org-key-0001" })
    // The projects of the organization (the realistic account's other team's project is not).
    const org = realistic.organizations![0]!.id
    const all = (realistic.projects ?? [])
      .filter((project) => (project.org_id ?? org) === org)
      .map((project) => project.id)
      .sort()
    // Random values unless given: no two accounts share a key by default.
    expect(SeedModule.realistic().organizations![0]!.api_keys![0]!.key).not.toBe(
      SeedModule.realistic().organizations![0]!.api_keys![0]!.key
    )
    return Effect.gen(function* () {
      expect(yield* withKey(Redacted.make(ci!.key))(projectIds)).toEqual(all)
      expect(yield* withKey(Redacted.make(first!.key))(projectIds)).toEqual([first!.project_id])
      expect(yield* projectIds).toEqual(all)
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed: realistic })))
  })

  it("says who a key is, as GET /auth answers (api_key_user, api_key_org)", () => {
    const key = {
      id: 1,
      name: "k",
      hash: "0".repeat(64),
      created_at: 0,
      revoked: false,
      last_used_at: null,
      last_used_from_addr: ""
    }
    expect(kindOf(key)).toBe("personal")
    expect(authOf(key).auth_method).toBe("api_key_user")
    expect(kindOf({ ...key, org_id: alpha })).toBe("organization")
    expect(authOf({ ...key, org_id: alpha })).toEqual({ account_id: alpha, auth_method: "api_key_org" })
    expect(kindOf({ ...key, org_id: alpha, project_id: one })).toBe("project")
    expect(authOf({ ...key, org_id: alpha, project_id: one })).toEqual({
      account_id: alpha,
      auth_method: "api_key_org"
    })
  })
})
