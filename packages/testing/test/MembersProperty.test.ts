/**
 * The member and invitation routes as a user meets them (docs/contract.md §20): random sequences
 * of invitations, role changes and removals over the fake's HTTP app, in an organization where
 * the account's user is an admin and one where it is a plain member. After each request: its
 * status is one its endpoint declares and the one a model of the rules expects; a refused
 * request changed nothing; the members and invitations listed are the model's; every
 * organization keeps an admin and the state loads. At the end, the journal replayed on the first
 * snapshot gives the last.
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Api } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import fc from "fast-check"
import type * as Seed from "../src/Seed.js"
import { declares, exchange, getOk, journaled, withoutLastUse } from "./randomRequests.js"
import { load } from "../src/internal/kinds.js"

const you = "you@example.com"
/** Where the account's user is an admin, and where it is a plain member. */
const orgs = ["org-admin-302709", "org-member-302710"] as const
/** Users with an account (members of a third organization): they join at once when invited. */
const known = ["k0@known.example", "k1@known.example", "k2@known.example", "k3@known.example"]
/** Addresses without an account: they stay invited. */
const unknown = ["n0@new.example", "n1@new.example", "n2@new.example"]
const addresses = [...known, ...unknown, you]
const roles = ["admin", "member", "viewer", "editor", "owner"] as const

const seed: Seed.Seed = {
  organizations: [
    { id: orgs[0], members: [{ email: you, role: "admin" }] },
    {
      id: orgs[1],
      members: [
        { email: "boss@example.com", role: "admin" },
        { email: you, role: "member" }
      ]
    },
    { id: "org-pool-302711", members: known.map((email) => ({ email, role: "member" })) }
  ]
}

type Step =
  | {
      readonly _tag: "Invite"
      readonly org: number
      readonly invitations: ReadonlyArray<{ readonly email: number; readonly role: number }>
    }
  | { readonly _tag: "Role"; readonly org: number; readonly member: number; readonly role: number }
  | { readonly _tag: "Remove"; readonly org: number; readonly member: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    _tag: fc.constant("Invite" as const),
    org: fc.integer({ min: 0, max: 1 }),
    invitations: fc.array(
      fc.record({
        email: fc.integer({ min: 0, max: addresses.length - 1 }),
        role: fc.integer({ min: 0, max: roles.length - 1 })
      }),
      { minLength: 1, maxLength: 3 }
    )
  }),
  fc.record({
    _tag: fc.constant("Role" as const),
    org: fc.integer({ min: 0, max: 1 }),
    // Past the members: one that is not a member.
    member: fc.integer({ min: 0, max: 8 }),
    role: fc.integer({ min: 0, max: roles.length - 1 })
  }),
  fc.record({
    _tag: fc.constant("Remove" as const),
    org: fc.integer({ min: 0, max: 1 }),
    member: fc.integer({ min: 0, max: 8 })
  })
)

/** The model of one organization: its members' roles by email, and the addresses invited. */
interface Model {
  readonly members: Map<string, string>
  readonly invited: Set<string>
}

const admins = (model: Model) => Array.from(model.members.values()).filter((role) => role === "admin").length

describe("the member and invitation routes, random requests over the fake's HTTP app", () => {
  it.effect.prop(
    "answer declared statuses as the rules say, change nothing when refused, keep an admin, and the journal replays",
    [fc.array(step, { minLength: 1, maxLength: 25, size: "max" })],
    ([steps]) =>
      Effect.gen(function* () {
        const { fake, key, replays } = yield* journaled(seed)
        const models: ReadonlyArray<Model> = [
          { members: new Map([[you, "admin"]]), invited: new Set() },
          {
            members: new Map([
              ["boss@example.com", "admin"],
              [you, "member"]
            ]),
            invited: new Set()
          }
        ]
        const get = (path: string) => getOk(fake, key, path)
        /** The members and invitations listed are the model's; the state loads. */
        const check = Effect.gen(function* () {
          const loaded = load(yield* fake.snapshot)
          expect(Either.isLeft(loaded) ? loaded.left : []).toEqual([])
          for (const [i, org] of orgs.entries()) {
            const { members } = yield* get(`/organizations/${org}/members?sort_by=email&sort_order=asc`)
            expect(members.map((item: any) => [item.user.email, item.member.role])).toEqual(
              Array.from(models[i]!.members).sort(([a], [b]) => (a < b ? -1 : 1))
            )
            expect(admins(models[i]!)).toBeGreaterThanOrEqual(1)
            const { invitations } = yield* get(`/organizations/${org}/invitations`)
            expect(new Set(invitations.map((invitation: any) => invitation.email))).toEqual(models[i]!.invited)
          }
        })
        yield* check
        for (const step of steps) {
          const org = orgs[step.org]!
          const model = models[step.org]!
          const emails = Array.from(model.members.keys()).sort()
          const target = step._tag === "Invite" ? undefined : emails[step.member]
          const { members } = yield* get(`/organizations/${org}/members`)
          const memberId =
            members.find((item: any) => item.user.email === target)?.member.id ?? "00000000-0000-4000-8000-000000000000"
          const endpoint =
            step._tag === "Invite"
              ? Api.Organizations.createInvitations
              : step._tag === "Role"
                ? Api.Organizations.updateMember
                : Api.Organizations.removeMember
          // The model's answer, checked in the fake's order.
          let expected = 200
          if (step.org === 1) expected = 403
          else if (step._tag === "Invite") {
            const seen = new Set<string>()
            for (const invitation of step.invitations) {
              const email = addresses[invitation.email]!
              if (roles[invitation.role] === "owner") expected = 400
              else if (seen.has(email)) expected = 400
              else if (model.members.has(email) || model.invited.has(email)) expected = 409
              if (expected !== 200) break
              seen.add(email)
            }
          } else if (target === undefined) expected = 404
          else if (step._tag === "Role") {
            const role = roles[step.role]!
            if (role === "owner") expected = 400
            else if (role !== "admin" && model.members.get(target) === "admin" && admins(model) === 1) expected = 400
          } else if (model.members.get(target) === "admin" && admins(model) === 1) expected = 400
          const path =
            step._tag === "Invite" ? `/organizations/${org}/invitations` : `/organizations/${org}/members/${memberId}`
          const request =
            step._tag === "Invite"
              ? yield* HttpClientRequest.post(path).pipe(
                  HttpClientRequest.bodyJson({
                    invitations: step.invitations.map((invitation) => ({
                      email: addresses[invitation.email],
                      role: roles[invitation.role]
                    }))
                  }),
                  Effect.orDie
                )
              : step._tag === "Role"
                ? yield* HttpClientRequest.patch(path).pipe(
                    HttpClientRequest.bodyJson({ role: roles[step.role] }),
                    Effect.orDie
                  )
                : HttpClientRequest.del(path)
          const before = yield* fake.snapshot
          const response = yield* exchange(fake, request, key)
          const context = `${request.method} ${path} ${JSON.stringify(step)}: ${response.status} ${response.text}`
          expect(declares(endpoint, response.status), context).toBe(true)
          expect(response.status, context).toBe(expected)
          if (response.status >= 400) {
            expect(withoutLastUse(yield* fake.snapshot), context).toEqual(withoutLastUse(before))
            continue
          }
          if (step._tag === "Invite") {
            for (const invitation of step.invitations) {
              const email = addresses[invitation.email]!
              model.invited.add(email)
              if (known.includes(email) || email === you) model.members.set(email, roles[invitation.role]!)
            }
          } else if (step._tag === "Role") model.members.set(target!, roles[step.role]!)
          else model.members.delete(target!)
          yield* check
        }
        yield* check
        yield* replays
      }),
    // A fixed seed: a failure prints it and the path of the shrunk case (`fastCheck.path` replays it).
    { fastCheck: { seed: 2030, numRuns: 10 } }
  )
})
