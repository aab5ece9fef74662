/**
 * The project access routes as a user meets them (docs/contract.md §22): random sequences of
 * grants, revocations, transfers between organizations, transfer requests made and accepted,
 * over four projects in four organizations, with the `TestClock` moved between them so that
 * requests expire. After each request: the answer's status is one its endpoint declares (or the
 * 406 and 422 the published reference adds) and the one a model of the rules expects; a refused
 * request changed nothing; the fake's invariants hold; each project's organization and accesses
 * are the model's. At the end, the journal replayed on the first snapshot gives the last.
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as TestClock from "effect/TestClock"
import fc from "fast-check"
import type * as Seed from "../src/Seed.js"
import { exchange, journaled, withoutLastUse } from "./randomRequests.js"
import { load } from "../src/internal/kinds.js"

/** The organizations: the account's user is a member of all but `strangers`; `free` is on a lower plan. */
const orgs = ["org-acme-302709", "org-beta-302709", "org-strangers-302709", "org-free-302709"] as const
const [acme, beta, strangers, free] = orgs
const projects = ["alpha-leaf-302709", "bravo-leaf-302709", "charlie-leaf-302709", "github-leaf-302709"] as const
const emails = ["ann@example.com", "bo@example.com", "cy@example.com"] as const

const seed: Seed.Seed = {
  organizations: [
    { id: acme, plan: "scale" },
    { id: beta, plan: "scale" },
    { id: strangers, plan: "scale", members: [{ email: "dana@example.com", role: "admin" }] },
    { id: free, plan: "free_v3" }
  ],
  projects: [
    { id: projects[0], org_id: acme },
    { id: projects[1], org_id: acme },
    { id: projects[2], org_id: beta },
    { id: projects[3], org_id: acme, integration: "github" }
  ]
}

type Step =
  | { readonly _tag: "Grant"; readonly project: number; readonly email: number }
  | { readonly _tag: "Revoke"; readonly project: number; readonly pick: number; readonly known: boolean }
  | {
      readonly _tag: "Transfer"
      /** The source organization: absent, the one the first project is in now. */
      readonly from: number | undefined
      /** The destination; -1, the other of `acme` and `beta`. */
      readonly to: number
      readonly projects: ReadonlyArray<number>
    }
  | { readonly _tag: "Request"; readonly project: number; readonly ttl: number | undefined }
  | { readonly _tag: "Accept"; readonly project: number; readonly pick: number; readonly to: number | undefined }
  | { readonly _tag: "Wait"; readonly seconds: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ _tag: fc.constant("Grant" as const), project: fc.nat(3), email: fc.nat(2) }),
  fc.record({ _tag: fc.constant("Revoke" as const), project: fc.nat(3), pick: fc.nat(5), known: fc.boolean() }),
  fc.record({
    _tag: fc.constant("Transfer" as const),
    from: fc.option(fc.nat(3), { nil: undefined, freq: 4 }),
    // -1: the other of the two organizations on the same plan.
    to: fc.oneof({ arbitrary: fc.constant(-1), weight: 3 }, { arbitrary: fc.nat(3), weight: 1 }),
    // Mostly projects without an integration.
    projects: fc.oneof(
      { arbitrary: fc.uniqueArray(fc.nat(2), { minLength: 1, maxLength: 2 }), weight: 3 },
      { arbitrary: fc.uniqueArray(fc.nat(3), { minLength: 1, maxLength: 3 }), weight: 1 }
    )
  }),
  fc.record({
    _tag: fc.constant("Request" as const),
    project: fc.nat(3),
    ttl: fc.option(fc.constantFrom(60, 3600), { nil: undefined })
  }),
  fc.record({
    _tag: fc.constant("Accept" as const),
    project: fc.nat(3),
    pick: fc.nat(5),
    to: fc.option(fc.nat(3), { nil: undefined })
  }),
  fc.record({ _tag: fc.constant("Wait" as const), seconds: fc.constantFrom(30, 600, 7200) })
)

/** The plan of each organization, lower first: a project may not go to a lower plan than its own. */
const rank: Readonly<Record<string, number>> = { [acme]: 2, [beta]: 2, [strangers]: 2, [free]: 0 }

const json = (method: "POST" | "PUT", path: string, body: unknown) =>
  (method === "POST" ? HttpClientRequest.post(path) : HttpClientRequest.put(path)).pipe(
    HttpClientRequest.bodyUnsafeJson(body)
  )

describe("the project access routes, random requests over the fake's HTTP app", () => {
  it.effect.prop(
    "answer as the rules say, change nothing when refused, keep the invariants, and the journal replays",
    [fc.array(step, { minLength: 1, maxLength: 30, size: "max" })],
    ([steps]) =>
      Effect.gen(function* () {
        const { fake, key, replays } = yield* journaled(seed)
        // The model: each project's organization, accesses (email -> id), live transfer requests (id -> expires_at).
        const orgOf = new Map<string, string>(seed.projects!.map((p) => [p.id, p.org_id!]))
        const granted = new Map<string, Map<string, string>>(projects.map((p) => [p, new Map()]))
        const revoked: Array<string> = []
        const requests = new Map<string, Map<string, number>>(projects.map((p) => [p, new Map()]))
        const used: Array<string> = []
        const member = (org: string) => org !== strangers

        for (const s of steps) {
          if (s._tag === "Wait") {
            yield* TestClock.adjust(`${s.seconds} seconds`)
            continue
          }
          const now = yield* TestClock.currentTimeMillis
          const before = yield* fake.snapshot
          let request: HttpClientRequest.HttpClientRequest
          let expected: number
          let apply: (answer: any) => void = () => {}
          switch (s._tag) {
            case "Grant": {
              const project = projects[s.project]
              const email = emails[s.email]
              request = json("POST", `/projects/${project}/permissions`, { email })
              expected = 200
              apply = (answer) => {
                const had = granted.get(project)!.get(email)
                if (had !== undefined) expect(answer.id).toBe(had)
                granted.get(project)!.set(email, answer.id)
              }
              break
            }
            case "Revoke": {
              const project = projects[s.project]
              const ids = Array.from(granted.get(project)!.values())
              const id = s.known && ids.length > 0 ? ids[s.pick % ids.length]! : (revoked[s.pick] ?? "no-such-access")
              request = HttpClientRequest.del(`/projects/${project}/permissions/${id}`)
              expected = ids.includes(id) ? 200 : 404
              apply = () => {
                for (const [email, had] of granted.get(project)!) if (had === id) granted.get(project)!.delete(email)
                revoked.push(id)
              }
              break
            }
            case "Transfer": {
              const ids = s.projects.map((i) => projects[i])
              const from = s.from === undefined ? orgOf.get(ids[0]!)! : orgs[s.from]
              const to = s.to === -1 ? (from === acme ? beta : acme) : orgs[s.to]!
              request = json("POST", `/organizations/${from}/projects/transfer`, {
                destination_org_id: to,
                project_ids: ids
              })
              // An organization the user is not a member of is answered as one that does not exist (§21).
              expected = !member(from)
                ? 404
                : !member(to)
                  ? 404
                  : from === to
                    ? 400
                    : ids.some((id) => orgOf.get(id) !== from)
                      ? 404
                      : ids.includes(projects[3])
                        ? 422
                        : rank[to]! < rank[from]!
                          ? 406
                          : 200
              apply = () => {
                for (const id of ids) orgOf.set(id, to)
              }
              break
            }
            case "Request": {
              const project = projects[s.project]
              request = json(
                "POST",
                `/projects/${project}/transfer_requests`,
                s.ttl === undefined ? {} : { ttl_seconds: s.ttl }
              )
              expected = 201
              apply = (answer) => {
                expect(Date.parse(answer.expires_at) - Date.parse(answer.created_at)).toBe((s.ttl ?? 86_400) * 1000)
                requests.get(project)!.set(answer.id, Date.parse(answer.expires_at))
              }
              break
            }
            case "Accept": {
              const project = projects[s.project]
              const live = Array.from(requests.get(project)!)
              const [id, expires] =
                live.length > 0
                  ? live[s.pick % live.length]!
                  : [used[s.pick] ?? "00000000-0000-4000-8000-000000000000", 0]
              const to = s.to === undefined ? undefined : orgs[s.to]
              request = json(
                "PUT",
                `/projects/${project}/transfer_requests/${id}`,
                to === undefined ? {} : { org_id: to }
              )
              const destination = to ?? "org-dbplatform-000000"
              const fromOrg = orgOf.get(project)!
              expected =
                live.length === 0
                  ? 404
                  : now >= expires
                    ? 400
                    : to !== undefined && !member(to)
                      ? 404
                      : (rank[destination] ?? 0) < rank[fromOrg]!
                        ? 406
                        : 204
              apply = () => {
                orgOf.set(project, destination)
                requests.get(project)!.delete(id)
                used.push(id)
              }
              break
            }
          }
          const response = yield* exchange(fake, request, key)
          const after = yield* fake.snapshot
          const context = `${request.method} ${request.url} ${JSON.stringify(s)}: ${response.status} ${response.text}`
          expect(response.status, context).toBe(expected)
          if (response.status >= 400) {
            expect(withoutLastUse(after), context).toEqual(withoutLastUse(before))
            if (response.status === 406)
              expect(response.body, context).toHaveProperty(s._tag === "Accept" ? "reasons" : "limits")
            if (response.status === 422)
              expect(response.body.projects, context).toEqual([{ id: projects[3], integration: "github" }])
            continue
          }
          apply(response.body)
          const loaded = load(after)
          expect(Either.isLeft(loaded) ? loaded.left : [], context).toEqual([])
          for (const project of projects) {
            expect(after.projects.find((p) => p.id === project)?.org_id, `${context}: the org of ${project}`).toBe(
              orgOf.get(project)
            )
            const listed = after.permissions.filter((p) => p.project_id === project)
            expect(
              new Map(listed.map((p) => [p.granted_to_email, p.id])),
              `${context}: accesses of ${project}`
            ).toEqual(granted.get(project))
          }
        }
        yield* replays
      }),
    // A fixed seed: a failure prints it and the path of the shrunk case (`fastCheck.path` replays it).
    { fastCheck: { seed: 2230, numRuns: 15 } }
  )
})
