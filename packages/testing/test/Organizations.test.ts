import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as FakePlatform from "../src/FakePlatform.js"
import { fromJson } from "../src/Seed.js"
import { Snapshot } from "../src/Snapshot.js"
import { projectId, read, send } from "./helpers.js"

const you = "you@example.com"

describe("organizations in the fake's state (docs/contract.md §20)", () => {
  it.effect("a seed's organizations and members are kept; one without members has the account's user as admin", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make({
        organizations: [
          {
            id: "org-acme-302709",
            name: "Acme",
            plan: "scale",
            members: [
              { email: you, role: "admin" },
              { email: "dana@example.com", role: "member" }
            ]
          },
          { id: "org-solo-118737" }
        ],
        projects: [{ id: projectId, org_id: "org-acme-302709" }]
      })
      const snapshot = yield* fake.snapshot
      expect(snapshot.organizations.map((org) => [org.id, org.name, org.plan]).sort()).toEqual([
        ["org-acme-302709", "Acme", "scale"],
        ["org-solo-118737", "org-solo-118737", "free_v3"]
      ])
      const members = snapshot.members.map((member) => [member.org_id, member.email, member.role]).sort()
      expect(members).toEqual([
        ["org-acme-302709", "dana@example.com", "member"],
        ["org-acme-302709", you, "admin"],
        ["org-solo-118737", you, "admin"]
      ])
      // The same user in two organizations has one user id; memberships have ids of their own.
      const yours = snapshot.members.filter((member) => member.email === you)
      expect(new Set(yours.map((member) => member.user_id)).size).toBe(1)
      expect(new Set(snapshot.members.map((member) => member.id)).size).toBe(3)
    })
  )

  it.effect("an organization a project only names is implied, with the account's user as its admin", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make({ projects: [{ id: projectId, org_id: "org-billing-302709" }] })
      const snapshot = yield* fake.snapshot
      expect(snapshot.organizations.map((org) => org.id)).toEqual(["org-billing-302709"])
      expect(snapshot.members.map((member) => [member.org_id, member.email, member.role])).toEqual([
        ["org-billing-302709", you, "admin"]
      ])
    })
  )

  it.effect("a project created without org_id implies the default organization once", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make({})
      expect((yield* fake.snapshot).organizations).toEqual([])
      for (const name of ["one", "two"]) {
        yield* send(
          fake,
          HttpClientRequest.post("/projects").pipe(HttpClientRequest.bodyUnsafeJson({ project: { name } })),
          {
            key: fake.bootstrapKey
          }
        ).pipe(Effect.flatMap(read))
      }
      const snapshot = yield* fake.snapshot
      expect(snapshot.organizations.map((org) => [org.id, org.name])).toEqual([["org-dbplatform-000000", "Personal"]])
      expect(snapshot.members).toHaveLength(1)
    })
  )

  it.effect("a snapshot saved before organizations were kept loads with the ones its projects name", () =>
    Effect.gen(function* () {
      const old = {
        version: 2,
        next_key_id: 1000001,
        api_keys: [],
        projects: [
          {
            id: projectId,
            name: "billing",
            region_id: "aws-us-east-2",
            platform_id: "aws",
            provisioner: "k8s-neonvm",
            pg_version: 17,
            created_at: "2026-11-23T00:00:00.000Z"
          }
        ],
        branches: [],
        endpoints: [],
        operations: []
      }
      const fake = yield* FakePlatform.make({})
      yield* fake.restore(yield* Schema.decodeUnknown(Snapshot)(old))
      const snapshot = yield* fake.snapshot
      expect(snapshot.organizations.map((org) => [org.id, org.created_at])).toEqual([
        ["org-dbplatform-000000", Date.parse("2026-11-23T00:00:00.000Z")]
      ])
    })
  )

  it.effect("a seed file's organizations decode, and a bad organization id is refused", () =>
    Effect.gen(function* () {
      const seed = yield* fromJson(
        JSON.stringify({ organizations: [{ id: "org-acme-302709", members: [{ email: you, role: "viewer" }] }] })
      )
      const fake = yield* FakePlatform.make(seed)
      expect((yield* fake.snapshot).members.map((member) => member.role)).toEqual(["viewer"])
      const refused = yield* FakePlatform.make({ organizations: [{ id: "Not An Id" }] }).pipe(Effect.flip)
      expect(refused.problems.join("; ")).toContain('organization "Not An Id"')
    })
  )
})

describe("an organization's spending limit (docs/contract.md §20.5)", () => {
  const scale = "org-scale-302709"
  const limit = `/organizations/${scale}/billing/spending_limit`
  /** The JSON body of `request`'s answer. */
  const body = (fake: FakePlatform.Service, request: HttpClientRequest.HttpClientRequest) =>
    Effect.flatMap(send(fake, request, { key: fake.bootstrapKey }), (response) => response.json)
  const seed = {
    organizations: [
      { id: scale, plan: "scale_v3" },
      { id: "org-free-118737", plan: "free_v3" },
      { id: "org-seeded-500123", plan: "launch_v3", spending_limit_cents: 5_000 },
      {
        id: "org-member-700001",
        plan: "scale_v3",
        members: [
          { email: you, role: "member" },
          { email: "a@example.com", role: "admin" }
        ]
      }
    ]
  }

  it.effect("is null until set; set in cents, read back, kept in a snapshot; removed, idempotently", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make(seed)
      expect(yield* body(fake, HttpClientRequest.get(limit))).toEqual({ spending_limit_cents: null })
      const set = yield* send(
        fake,
        yield* HttpClientRequest.bodyJson(HttpClientRequest.put(limit), { spending_limit_cents: 25_000 }),
        { key: fake.bootstrapKey }
      )
      expect(set.status).toBe(200)
      expect(yield* set.json).toEqual({ spending_limit_cents: 25_000 })
      expect(yield* body(fake, HttpClientRequest.get(limit))).toEqual({ spending_limit_cents: 25_000 })
      const saved = yield* fake.snapshot
      expect(saved.organizations.find((org) => org.id === scale)?.spending_limit_cents).toBe(25_000)
      // A saved state loads with it.
      const again = yield* FakePlatform.make()
      yield* again.restore(
        Schema.decodeUnknownSync(Snapshot)(JSON.parse(JSON.stringify(Schema.encodeSync(Snapshot)(saved))))
      )
      expect(yield* body(again, HttpClientRequest.get(limit))).toEqual({ spending_limit_cents: 25_000 })
      for (const _ of [1, 2]) {
        const removed = yield* send(fake, HttpClientRequest.del(limit), { key: fake.bootstrapKey })
        expect(removed.status).toBe(200)
        expect(yield* removed.json).toEqual({})
      }
      expect(yield* body(fake, HttpClientRequest.get(limit))).toEqual({ spending_limit_cents: null })
    })
  )

  it.effect("a seed gives one; 0, null and fractions are refused (400); Free plans and plain members get 403", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make(yield* fromJson(JSON.stringify(seed)))
      expect(
        yield* body(fake, HttpClientRequest.get("/organizations/org-seeded-500123/billing/spending_limit"))
      ).toEqual({ spending_limit_cents: 5_000 })
      for (const cents of [0, null, 12.5, -1]) {
        const refused = yield* send(
          fake,
          yield* HttpClientRequest.bodyJson(HttpClientRequest.put(limit), { spending_limit_cents: cents }),
          { key: fake.bootstrapKey }
        )
        expect(refused.status).toBe(400)
      }
      const free = yield* send(fake, HttpClientRequest.get("/organizations/org-free-118737/billing/spending_limit"), {
        key: fake.bootstrapKey
      })
      expect(free.status).toBe(403)
      const member = "/organizations/org-member-700001/billing/spending_limit"
      expect((yield* send(fake, HttpClientRequest.get(member), { key: fake.bootstrapKey })).status).toBe(200)
      const put = yield* send(
        fake,
        yield* HttpClientRequest.bodyJson(HttpClientRequest.put(member), { spending_limit_cents: 100 }),
        { key: fake.bootstrapKey }
      )
      expect(put.status).toBe(403)
      expect((yield* send(fake, HttpClientRequest.del(member), { key: fake.bootstrapKey })).status).toBe(403)
    })
  )
})
