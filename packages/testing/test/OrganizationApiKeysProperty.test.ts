/**
 * Organization API keys as a user meets them (docs/contract.md §21): random sequences of
 * requests to the fake's HTTP app (creating keys of an organization, for all its projects or for
 * one, by a personal key, an organization's key or a key scoped to a project, in the key's
 * organization or another; revoking keys, live, revoked, personal or unknown; using keys), each
 * answered as a model of the rules says. After each request: a refused one changed nothing, the
 * state has no problem, and the organizations' keys listed are the model's. At the end, the
 * journal replayed on the first snapshot gives the last.
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import fc from "fast-check"
import type * as Seed from "../src/Seed.js"
import { send } from "./helpers.js"
import { exchange, journaled, withoutLastUse } from "./randomRequests.js"
import { load } from "../src/internal/kinds.js"

const alpha = "org-alpha-100001"
/** An organization whose member the account's user is not. */
const beta = "org-beta-100002"
const unknownOrg = "org-unknown-100003"
const orgs = [alpha, beta, unknownOrg] as const
const projectOf = { [alpha]: "alpha-one-100001", [beta]: "beta-one-100002" } as Readonly<Record<string, string>>

const seed: Seed.Seed = {
  organizations: [
    { id: alpha, api_keys: [{ name: "alpha-seeded", key: "alpha-seeded-key-0001" }] },
    {
      id: beta,
      members: [{ email: "someone@example.com", role: "admin" }],
      api_keys: [{ name: "beta-seeded", key: "beta-seeded-key-0002" }]
    }
  ],
  projects: [
    { id: projectOf[alpha]!, org_id: alpha },
    { id: projectOf[beta]!, org_id: beta }
  ]
}

/** A key as the model knows it. */
interface ModelKey {
  readonly id: number
  readonly value: string
  readonly org: string
  readonly project: string | undefined
  revoked: boolean
}

/** Who sends a request: the personal (bootstrap) key, or the model's key at this place (modulo their number). */
type By = "personal" | number

type Step =
  | {
      readonly _tag: "Create"
      readonly by: By
      readonly org: number
      readonly project: "none" | "own" | "other" | "unknown"
    }
  | { readonly _tag: "Revoke"; readonly by: By; readonly org: number; readonly target: number | "personal" | "unknown" }
  | { readonly _tag: "Use"; readonly key: number }

const by = fc.oneof(fc.constant<By>("personal"), fc.nat(30))
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      _tag: fc.constant("Create" as const),
      by,
      org: fc.constantFrom(0, 0, 0, 1, 2),
      project: fc.constantFrom<"none" | "own" | "other" | "unknown">("none", "none", "own", "own", "other", "unknown")
    })
  },
  {
    weight: 3,
    arbitrary: fc.record({
      _tag: fc.constant("Revoke" as const),
      by,
      org: fc.constantFrom(0, 0, 0, 1, 2),
      target: fc.oneof(fc.nat(30), fc.constantFrom<"personal" | "unknown">("personal", "unknown"))
    })
  },
  { weight: 3, arbitrary: fc.record({ _tag: fc.constant("Use" as const), key: fc.nat(30) }) }
)

/** The status the rules give a request of `key` (undefined: personal) acting on organization `org`, for a route only a personal key may call when `personalOnly`. */
const gate = (key: ModelKey | undefined, org: string, personalOnly: boolean): number | undefined => {
  if (key?.revoked === true) return 401
  if (key === undefined) return org === beta || org === unknownOrg ? 404 : undefined
  if (key.org !== org) return 404
  if (key.project !== undefined || personalOnly) return 403
  return undefined
}

describe("organization keys, random requests over the fake's HTTP app", () => {
  it.effect.prop(
    "answer as the rules say, change nothing when refused, list what the model holds, and the journal replays",
    [fc.array(step, { minLength: 1, maxLength: 30, size: "max" })],
    ([steps]) =>
      Effect.gen(function* () {
        const { fake, key: personal, first, replays } = yield* journaled(seed)
        const personalKeyId = first.api_keys.find((key) => key.name === "bootstrap")!.id
        const keys: Array<ModelKey> = first.api_keys.flatMap((key) =>
          key.org_id === undefined
            ? []
            : [
                {
                  id: key.id,
                  value: key.name === "alpha-seeded" ? "alpha-seeded-key-0001" : "beta-seeded-key-0002",
                  org: key.org_id,
                  project: undefined,
                  revoked: false
                }
              ]
        )
        const pick = (n: By) => (n === "personal" ? undefined : keys[n % keys.length])
        const listed = (org: string) =>
          Effect.gen(function* () {
            const response = yield* send(fake, HttpClientRequest.get(`/organizations/${org}/api_keys`), {
              key: keys.find((key) => key.org === org && key.project === undefined && !key.revoked)?.value ?? personal
            })
            return response.status === 200 ? ((yield* response.json) as ReadonlyArray<{ readonly id: number }>) : []
          })
        for (const step of steps) {
          const before = yield* fake.snapshot
          let expected: number
          let request: HttpClientRequest.HttpClientRequest
          let actor: ModelKey | undefined
          if (step._tag === "Create") {
            actor = pick(step.by)
            const org = orgs[step.org]!
            const project =
              step.project === "none"
                ? undefined
                : step.project === "own"
                  ? (projectOf[org] ?? "no-project-100009")
                  : step.project === "other"
                    ? projectOf[org === alpha ? beta : alpha]!
                    : "no-project-100009"
            expected =
              gate(actor, org, true) ??
              (org === unknownOrg || (project !== undefined && project !== projectOf[org]) ? 404 : 200)
            request = yield* HttpClientRequest.bodyJson(
              HttpClientRequest.post(`/organizations/${org}/api_keys`),
              project === undefined ? { key_name: "k" } : { key_name: "k", project_id: project }
            )
          } else if (step._tag === "Revoke") {
            actor = pick(step.by)
            const org = orgs[step.org]!
            const target =
              step.target === "personal"
                ? personalKeyId
                : step.target === "unknown"
                  ? 999_999
                  : (keys[step.target % keys.length]?.id ?? 999_999)
            const known = keys.find((key) => key.id === target)
            expected =
              gate(actor, org, false) ?? (known !== undefined && known.org === org && !known.revoked ? 200 : 404)
            request = HttpClientRequest.del(`/organizations/${org}/api_keys/${target}`)
          } else {
            actor = pick(step.key)
            expected = actor?.revoked === true ? 401 : 200
            request = HttpClientRequest.get("/projects")
          }
          const response = yield* exchange(fake, request, actor?.value ?? personal)
          const after = yield* fake.snapshot
          const context = `${JSON.stringify(step)} by ${actor === undefined ? "personal" : JSON.stringify(actor)}: ${response.status} ${response.text}`
          expect(response.status, context).toBe(expected)
          const loaded = load(after)
          expect(Either.isLeft(loaded) ? loaded.left : [], context).toEqual([])
          if (response.status >= 400) {
            expect(withoutLastUse(after), context).toEqual(withoutLastUse(before))
            continue
          }
          const answer = response.body
          if (step._tag === "Create") {
            keys.push({
              id: answer.id,
              value: answer.key,
              org: orgs[step.org]!,
              project: answer.project_id,
              revoked: false
            })
          } else if (step._tag === "Revoke") {
            expect(answer.revoked, context).toBe(true)
            keys.find((key) => key.id === answer.id)!.revoked = true
          } else {
            const reached = (answer.projects as ReadonlyArray<{ readonly id: string }>).map((project) => project.id)
            const expectedIds =
              actor === undefined
                ? [projectOf[alpha]]
                : actor.project !== undefined
                  ? [actor.project]
                  : [projectOf[actor.org]]
            expect(reached, context).toEqual(expectedIds)
          }
          for (const org of [alpha, beta]) {
            const live = keys.filter((key) => key.org === org && !key.revoked).map((key) => key.id)
            // Listed by a live key of the organization for all its projects, or by the personal
            // key (a member of `alpha` only).
            if (org === beta && !keys.some((key) => key.org === beta && key.project === undefined && !key.revoked)) {
              continue
            }
            const got = (yield* listed(org)).map((key) => key.id)
            expect([...got].sort(), context).toEqual([...live].sort())
          }
        }
        yield* replays
      }),
    // A fixed seed: a failure prints it and the path of the shrunk case (`fastCheck.path` replays it).
    { fastCheck: { seed: 2130, numRuns: 15 } }
  )
})
