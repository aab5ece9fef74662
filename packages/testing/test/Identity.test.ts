/**
 * Identity as the published document states it (docs/contract.md §20.3, §21), for each kind of
 * key on each of its three routes, through the client over the fake:
 *
 * - `GET /users/me`: the account's user for a personal key; an organization's key, scoped to a
 *   project or not, is tied to no user (a 403, the fake's choice of status).
 * - `GET /users/me/organizations`: the organizations the user is a member of for a personal key;
 *   "the single organization that owns the key" for an organization's key or a project-scoped one.
 * - `GET /auth`: `api_key_user` and the user's id for a personal key; `api_key_org` and the
 *   organization's id for an organization's key, scoped or not.
 */
import { DbPlatform, Users } from "@dbplatform/client"
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import type { Seed } from "../src/Seed.js"

const alpha = "org-alpha-100001"
const beta = "org-beta-100002"
const gamma = "org-gamma-100003"
const you = "you@example.com"

const values = {
  organization: "identity-organization-key-0001",
  scoped: "identity-scoped-key-0002",
  foreign: "identity-foreign-key-0003"
}

/**
 * The account's user is the admin of `alpha` (declared without members) and a member of `beta`;
 * `gamma` is another team's. `alpha` has a key for all its projects and one scoped to `alpha-one`.
 */
const seed: Seed = {
  organizations: [
    {
      id: alpha,
      age: "90 days",
      api_keys: [
        { name: "ci", key: values.organization },
        { name: "app", key: values.scoped, project_id: "alpha-one-100001" }
      ]
    },
    {
      id: beta,
      age: "30 days",
      members: [
        { email: "lead@beta.example", role: "admin" },
        { email: you, role: "member" }
      ]
    },
    {
      id: gamma,
      members: [{ email: "pat@gamma.example", role: "admin" }],
      api_keys: [{ name: "theirs", key: values.foreign }]
    }
  ],
  projects: [
    { id: "alpha-one-100001", org_id: alpha },
    { id: "beta-two-100002", org_id: beta },
    { id: "gamma-three-100003", org_id: gamma }
  ]
}

/** Runs `self` with the client services authenticated by the key of value `value`, over the same fake. */
const as = (value: string) =>
  Effect.provide(DbPlatform.layer({ baseUrl: DbPlatformTest.baseUrl, apiKey: Redacted.make(value) }))

const organizationIds = Effect.flatMap(Users.Users, (users) =>
  Effect.map(Stream.runCollect(users.listOrganizations()), (listed) =>
    Chunk.toReadonlyArray(listed).map((organization) => organization.id)
  )
)
const me = Effect.flatMap(Users.Users, (users) => users.me())
const auth = Effect.flatMap(Users.Users, (users) => users.auth())

describe("identity for each kind of key (docs/contract.md §20.3, §21)", () => {
  it.effect("a personal key: its user, the organizations the user is a member of, api_key_user", () =>
    Effect.gen(function* () {
      const user = yield* me
      expect(user.email).toBe(you)
      expect((yield* organizationIds).sort()).toEqual([alpha, beta])
      expect(yield* auth).toMatchObject({ account_id: user.id, auth_method: "api_key_user" })
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed })))
  )

  it.effect("an organization's key: no user (403), the one organization that owns it, api_key_org of it", () =>
    Effect.gen(function* () {
      const refused = yield* as(values.organization)(Effect.flip(me))
      expect(refused._tag).toBe("UnexpectedStatus")
      expect(refused.message).toContain("403")
      expect(yield* as(values.organization)(organizationIds)).toEqual([alpha])
      expect(yield* as(values.organization)(auth)).toMatchObject({ account_id: alpha, auth_method: "api_key_org" })
      // A key of another team's organization: that organization, whatever the account's user is.
      expect(yield* as(values.foreign)(organizationIds)).toEqual([gamma])
      expect(yield* as(values.foreign)(auth)).toMatchObject({ account_id: gamma, auth_method: "api_key_org" })
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed })))
  )

  it.effect("a project-scoped key: no user (403), the organization that owns it, api_key_org of it", () =>
    Effect.gen(function* () {
      const refused = yield* as(values.scoped)(Effect.flip(me))
      expect(refused._tag).toBe("UnexpectedStatus")
      expect(refused.message).toContain("403")
      expect(yield* as(values.scoped)(organizationIds)).toEqual([alpha])
      expect(yield* as(values.scoped)(auth)).toMatchObject({ account_id: alpha, auth_method: "api_key_org" })
    }).pipe(Effect.provide(DbPlatformTest.layer({ seed })))
  )
})
