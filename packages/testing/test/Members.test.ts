/**
 * Identity and organizations through the client over the fake (docs/contract.md §20): who the
 * key is, the organizations of its user, an organization's members as a `Stream` along the
 * list's own cursor (`pagination.next`) and sorted, role changes, the last admin kept,
 * removals, invitations; a refused request changes nothing.
 */
import { Organizations, Projects, Users } from "@dbplatform/client"
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakePlatform from "../src/FakePlatform.js"
import * as Seed from "../src/Seed.js"
import * as Snapshot from "../src/Snapshot.js"
import { accountUser } from "../src/engine/caller.js"

const acme = "org-acme-302709"
const partner = "org-partner-118737"
const guest = "org-guest-500123"
const you = accountUser.email

/** Eight members of `acme` who joined a day apart (you first), one other admin among them. */
const people = ["ana", "bo", "cy", "di", "ed", "flo", "gus"]

const seed: Seed.Seed = {
  organizations: [
    {
      id: acme,
      name: "Acme",
      plan: "scale",
      age: "30 days",
      members: [
        { email: you, role: "admin", age: "30 days" },
        ...people.map((name, i) => ({
          email: `${name}@example.com`,
          role: name === "di" ? "admin" : i % 2 === 0 ? "member" : "viewer",
          age: `${20 - i} days` as const
        }))
      ]
    },
    // An organization the account's user is not a member of.
    { id: partner, name: "Partner", members: [{ email: "pat@partner.example", role: "admin" }] },
    // One where it is a plain member.
    {
      id: guest,
      members: [
        { email: "gil@example.com", role: "admin" },
        { email: you, role: "member" }
      ]
    }
  ]
}

const layer = DbPlatformTest.layer({ seed })

/** Every member of `acme`, as the stream gives them, with `options`. */
const allMembers = (input: {
  readonly sort_by?: "email" | "role" | "joined_at"
  readonly sort_order?: "asc" | "desc"
}) =>
  Effect.flatMap(Organizations.Organizations, (organizations) =>
    Stream.runCollect(organizations.listMembers({ org_id: acme, ...input }, { pageSize: 3 })).pipe(
      Effect.map(Chunk.toReadonlyArray)
    )
  )

/** The id of the membership of `email` in `acme`. */
const memberIdOf = (email: string) =>
  Effect.map(allMembers({}), (members) => members.find((item) => item.user.email === email)!.member.id)

describe("Users (docs/contract.md §20)", () => {
  it.effect("me is the account's user, auth says a personal key acts for it, and its organizations are listed", () =>
    Effect.gen(function* () {
      const users = yield* Users.Users
      const me = yield* users.me()
      expect([me.id, me.email, me.name, me.last_name]).toEqual([
        accountUser.id,
        you,
        accountUser.name,
        accountUser.last_name
      ])
      expect(me.projects_limit).toBeGreaterThan(0)
      expect(me.branches_limit).toBeGreaterThan(0)
      expect(me.auth_accounts.map((account) => account.email)).toEqual([you])
      const auth = yield* users.auth()
      expect({ ...auth }).toEqual({ account_id: me.id, auth_method: "api_key_user" })
      const organizations = yield* Stream.runCollect(users.listOrganizations())
      expect(
        Chunk.toReadonlyArray(organizations)
          .map((organization) => organization.id)
          .sort()
      ).toEqual([acme, guest])
      const page = yield* users.listOrganizationsPage()
      expect(page.organizations.find((organization) => organization.id === acme)?.plan).toBe("scale")
    }).pipe(Effect.provide(layer))
  )
})

describe("Organizations (docs/contract.md §20)", () => {
  it.effect(
    "get answers an organization of the user's, and 404 for one it is not a member of or that does not exist",
    () =>
      Effect.gen(function* () {
        const organizations = yield* Organizations.Organizations
        const organization = yield* organizations.get({ org_id: acme })
        expect([organization.id, organization.name, organization.plan, organization.managed_by]).toEqual([
          acme,
          "Acme",
          "scale",
          "console"
        ])
        for (const org_id of [partner, "org-nowhere-000001"]) {
          expect((yield* Effect.flip(organizations.get({ org_id })))._tag).toBe("NotFound")
          expect((yield* Effect.flip(organizations.listMembersPage({ org_id })))._tag).toBe("NotFound")
          expect((yield* Effect.flip(organizations.listInvitationsPage({ org_id })))._tag).toBe("NotFound")
        }
      }).pipe(Effect.provide(layer))
  )

  it.effect("listMembers streams every page along pagination.next, newest member first by default", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const members = yield* allMembers({})
      expect(members.map((item) => item.user.email)).toEqual([
        ...people.map((name) => `${name}@example.com`).reverse(),
        you
      ])
      for (const item of members) expect(item.member.org_id).toBe(acme)
      // Three pages of 3, 3 and 2: the second and third asked with the cursor the page before sent.
      const requests = (yield* fake.requests).filter((request) => request.path.endsWith("/members"))
      expect(requests).toHaveLength(3)
      const cursors = requests.map((request) => new URLSearchParams(request.query).get("cursor"))
      expect(cursors[0]).toBeNull()
      const organizations = yield* Organizations.Organizations
      const first = yield* organizations.listMembersPage({ org_id: acme, limit: 3 })
      expect(first.pagination).toMatchObject({ sort_by: "joined_at", sort_order: "desc" })
      expect(cursors[1]).toBe(first.pagination?.next)
      const last = yield* organizations.listMembersPage({ org_id: acme, limit: 3, cursor: cursors[2]! })
      expect(last.members).toHaveLength(2)
      expect(last.pagination?.next).toBeUndefined()
      // A cursor this list never sent is refused.
      const refused = yield* Effect.flip(organizations.listMembersPage({ org_id: acme, cursor: "not-a-cursor" }))
      expect(refused._tag).toBe("BadRequest")
    }).pipe(Effect.provide(layer))
  )

  it.effect("listMembers sorts by email, role or joined_at, either way, across pages", () =>
    Effect.gen(function* () {
      const emails = [you, ...people.map((name) => `${name}@example.com`)]
      const byEmail = yield* allMembers({ sort_by: "email", sort_order: "asc" })
      expect(byEmail.map((item) => item.user.email)).toEqual([...emails].sort())
      const byEmailDesc = yield* allMembers({ sort_by: "email" })
      expect(byEmailDesc.map((item) => item.user.email)).toEqual([...emails].sort().reverse())
      const byRole = yield* allMembers({ sort_by: "role", sort_order: "asc" })
      expect(byRole.map((item) => item.member.role)).toEqual([
        "admin",
        "admin",
        "member",
        "member",
        "member",
        "member",
        "viewer",
        "viewer"
      ])
      const oldestFirst = yield* allMembers({ sort_by: "joined_at", sort_order: "asc" })
      expect(oldestFirst.map((item) => item.user.email)).toEqual(emails)
    }).pipe(Effect.provide(layer))
  )

  it.effect("updateMember changes a role, kept and read back; a non-admin, an unknown role or member is refused", () =>
    Effect.gen(function* () {
      const organizations = yield* Organizations.Organizations
      const fake = yield* FakePlatform.FakePlatform
      const ana = yield* memberIdOf("ana@example.com")
      const changed = yield* organizations.updateMember({ org_id: acme, member_id: ana, role: "editor" })
      expect([changed.id, changed.role]).toEqual([ana, "editor"])
      expect((yield* organizations.getMember({ org_id: acme, member_id: ana })).role).toBe("editor")

      const before = yield* fake.snapshot
      const unknownRole = yield* Effect.flip(
        organizations.updateMember({ org_id: acme, member_id: ana, role: "owner" })
      )
      expect(unknownRole._tag).toBe("BadRequest")
      const unknownMember = yield* Effect.flip(
        organizations.updateMember({ org_id: acme, member_id: "00000000-0000-4000-8000-000000000000", role: "member" })
      )
      expect(unknownMember._tag).toBe("NotFound")
      // In `guest` the account's user is a plain member: it may read, not change.
      const gil = (yield* organizations.listMembersPage({ org_id: guest })).members.find(
        (item) => item.user.email === "gil@example.com"
      )!.member.id
      const forbidden = yield* Effect.flip(
        organizations.updateMember({ org_id: guest, member_id: gil, role: "member" })
      )
      expect(forbidden._tag).toBe("Forbidden")
      expect((yield* Effect.flip(organizations.removeMember({ org_id: guest, member_id: gil })))._tag).toBe("Forbidden")
      expect((yield* fake.snapshot).members).toEqual(before.members)
    }).pipe(Effect.provide(layer))
  )

  it.effect("the last admin can be neither demoted nor removed; with a second admin, both can", () =>
    Effect.gen(function* () {
      const organizations = yield* Organizations.Organizations
      const fake = yield* FakePlatform.FakePlatform
      const yours = yield* memberIdOf(you)
      const di = yield* memberIdOf("di@example.com")
      // Two admins: di can be demoted, and then you are the last one.
      yield* organizations.updateMember({ org_id: acme, member_id: di, role: "member" })
      const before = yield* fake.snapshot
      const demoted = yield* Effect.flip(organizations.updateMember({ org_id: acme, member_id: yours, role: "member" }))
      expect(demoted._tag).toBe("BadRequest")
      expect(demoted.message).toContain("last admin")
      const removed = yield* Effect.flip(organizations.removeMember({ org_id: acme, member_id: yours }))
      expect(removed._tag).toBe("BadRequest")
      expect(yield* fake.snapshot).toEqual(before)
      // Promote di again: now di can be removed, and you stay the admin.
      yield* organizations.updateMember({ org_id: acme, member_id: di, role: "admin" })
      expect(yield* organizations.removeMember({ org_id: acme, member_id: di })).toEqual({})
      expect((yield* Effect.flip(organizations.getMember({ org_id: acme, member_id: di })))._tag).toBe("NotFound")
      const left = yield* allMembers({})
      expect(left.map((item) => item.user.email)).not.toContain("di@example.com")
      expect(left).toHaveLength(7)
    }).pipe(Effect.provide(layer))
  )

  it.effect("invitations: created and listed; a known user joins at once; a repeat or a member is a 409", () =>
    Effect.gen(function* () {
      const organizations = yield* Organizations.Organizations
      const fake = yield* FakePlatform.FakePlatform
      yield* TestClock.adjust("1 hour")
      const { invitations } = yield* organizations.createInvitations({
        org_id: acme,
        invitations: [
          { email: "new.hire@example.com", role: "member" },
          // gil has an account (a member of another organization): joins at once.
          { email: "gil@example.com", role: "viewer" }
        ]
      })
      expect(invitations.map((invitation) => [invitation.email, invitation.role, invitation.org_id])).toEqual([
        ["new.hire@example.com", "member", acme],
        ["gil@example.com", "viewer", acme]
      ])
      for (const invitation of invitations) expect(invitation.invited_by).toBe(accountUser.id)
      const listed = yield* Stream.runCollect(organizations.listInvitations({ org_id: acme }))
      expect(
        Chunk.toReadonlyArray(listed)
          .map((invitation) => invitation.id)
          .sort()
      ).toEqual(invitations.map((invitation) => invitation.id).sort())
      const members = yield* allMembers({})
      expect(members[0]!.user.email).toBe("gil@example.com")
      expect(members[0]!.member.role).toBe("viewer")
      expect(members.map((item) => item.user.email)).not.toContain("new.hire@example.com")

      const before = yield* fake.snapshot
      const again = yield* Effect.flip(
        organizations.createInvitations({
          org_id: acme,
          invitations: [{ email: "New.Hire@example.com", role: "admin" }]
        })
      )
      expect(again._tag).toBe("Conflict")
      const member = yield* Effect.flip(
        organizations.createInvitations({ org_id: acme, invitations: [{ email: "ana@example.com", role: "member" }] })
      )
      expect(member._tag).toBe("Conflict")
      const twice = yield* Effect.flip(
        organizations.createInvitations({
          org_id: acme,
          invitations: [
            { email: "x@example.com", role: "member" },
            { email: "x@example.com", role: "viewer" }
          ]
        })
      )
      expect(twice._tag).toBe("BadRequest")
      const notAdmin = yield* Effect.flip(
        organizations.createInvitations({ org_id: guest, invitations: [{ email: "y@example.com", role: "member" }] })
      )
      expect(notAdmin._tag).toBe("Forbidden")
      expect(yield* fake.snapshot).toEqual(before)
      // None at all, or an address that is not one, is refused before sending.
      const none = yield* Effect.flip(organizations.createInvitations({ org_id: acme, invitations: [] }))
      expect(none._tag).toBe("InvalidRequest")
      const bad = yield* Effect.flip(
        organizations.createInvitations({ org_id: acme, invitations: [{ email: "not an address", role: "member" }] })
      )
      expect(bad._tag).toBe("InvalidRequest")
    }).pipe(Effect.provide(layer))
  )
})

describe("the realistic account's organizations (docs/contract.md §20.4)", () => {
  it.effect(
    "its projects are Acme Data's, which has members; the user has an organization of its own; another team's organization and project stay out of reach",
    () =>
      Effect.gen(function* () {
        const users = yield* Users.Users
        const organizations = yield* Organizations.Organizations
        const projects = yield* Projects.Projects
        const fake = yield* FakePlatform.FakePlatform
        const listed = Chunk.toReadonlyArray(yield* Stream.runCollect(users.listOrganizations()))
        // Two organizations of the user, on plans of today: a project can move between them.
        expect(listed.map((organization) => [organization.name, organization.plan])).toEqual([
          ["Acme Data", "scale_v3"],
          ["Personal", "free_v3"]
        ])
        const acmeData = listed[0]!.id
        expect(acmeData).toBe("org-dbplatform-000000")
        const personal = Chunk.toReadonlyArray(
          yield* Stream.runCollect(organizations.listMembers({ org_id: listed[1]!.id }))
        )
        expect(personal.map((item) => [item.user.email, item.member.role])).toEqual([[you, "admin"]])
        const members = Chunk.toReadonlyArray(yield* Stream.runCollect(organizations.listMembers({ org_id: acmeData })))
        expect(members.map((item) => item.member.role).sort()).toEqual(["admin", "admin", "editor", "member", "viewer"])
        // Four projects listed, all Acme Data's; the snapshot holds a fifth, of the partner's organization.
        const own = Chunk.toReadonlyArray(yield* Stream.runCollect(projects.list()))
        expect(own.map((project) => project.org_id)).toEqual([acmeData, acmeData, acmeData, acmeData])
        const snapshot = yield* fake.snapshot
        const partner = snapshot.projects.find((project) => project.org_id !== acmeData)!
        expect(partner.name).toBe("partner-data")
        expect(
          snapshot.members.filter((member) => member.org_id === partner.org_id).map((member) => member.email)
        ).not.toContain(you)
        expect((yield* Effect.flip(organizations.get({ org_id: partner.org_id! })))._tag).toBe("NotFound")
        // The realistic account's own projects are those of earlier versions (their ids unchanged).
        expect(own.map((project) => project.id).sort()).toEqual([
          "bold-dawn-433334",
          "bold-river-482394",
          "proud-river-141954",
          "spring-river-887036"
        ])
      }).pipe(Effect.provide(DbPlatformTest.layer({ seed: Seed.realistic() })))
  )

  it.effect("its organization keys go to Acme Data; elsewhere, to the oldest organization the user administers", () =>
    Effect.gen(function* () {
      const accountOrganization = (seed: Seed.Seed) =>
        Effect.flatMap(
          Effect.flatMap(FakePlatform.make(seed), (fake) => fake.snapshot),
          (snapshot) => Effect.succeed(Snapshot.accountOrganization(snapshot))
        )
      expect(yield* accountOrganization(Seed.realistic({ operationsPerProject: 0, pending: 0 }))).toBe(
        "org-dbplatform-000000"
      )
      // The user only a member of the default organization: the oldest it administers.
      const elsewhere = yield* accountOrganization({
        organizations: [
          { id: "org-dbplatform-000000", members: [{ email: "lead@example.com", role: "admin" }, { email: you }] },
          { id: "org-young-100001", age: "1 day" },
          { id: "org-old-100002", age: "300 days" },
          { id: "org-other-100003", age: "900 days", members: [{ email: "lead@example.com", role: "admin" }] }
        ]
      })
      expect(elsewhere).toBe("org-old-100002")
      // An admin of none: none.
      expect(
        yield* accountOrganization({
          organizations: [{ id: "org-other-100003", members: [{ email: "lead@example.com", role: "admin" }] }]
        })
      ).toBeUndefined()
    })
  )
})
