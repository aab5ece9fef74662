/**
 * Who may call each endpoint is declared with it (docs/contract.md §21): every entry of core's
 * `Api.endpoints` has its `Authorization`, beside its group's handlers, and the route built from
 * the entry carries it, so a route renamed keeps refusing and letting through the same kinds of
 * key (a rule keyed by a route string would silently stop applying).
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpApp from "@effect/platform/HttpApp"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as HttpRouter from "@effect/platform/HttpRouter"
import { Api, Endpoint } from "@dbplatform/core"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as FakeHttpClient from "../src/FakeHttpClient.js"
import { hashKey, keyAdded, keyWithHash } from "../src/engine/authentication.js"
import {
  accessOf,
  anyKey,
  type Authorization,
  type Authorizations,
  type KeyKind,
  kindOf
} from "../src/engine/authorization.js"
import { Caller } from "../src/engine/caller.js"
import { Access, Gate, refusalResponse, route } from "../src/engine/route.js"
import { applyAll, makeFakeState, type StoredKey } from "../src/engine/state.js"
import { controlPlane } from "../src/internal/duties.js"
import { authorizations, router } from "../src/internal/routes.js"
import { stateOfSeed } from "../src/internal/seed.js"
import type * as Seed from "../src/Seed.js"

const org = "org-alpha-100001"
const project = "alpha-one-100001"
const values = {
  personal: "declared-personal-key-0001",
  organization: "declared-org-key-0002",
  project: "declared-scoped-key-0003"
}

const seed: Seed.Seed = {
  organizations: [
    {
      id: org,
      api_keys: [
        { name: "ci", key: values.organization },
        { name: "app", key: values.project, project_id: project }
      ]
    }
  ],
  projects: [{ id: project, org_id: org }]
}

const kinds: ReadonlyArray<KeyKind> = ["personal", "organization", "project"]

/** A fresh fake of the seed, with a personal key, and the key of each kind. */
const fresh = Effect.gen(function* () {
  const seeded = yield* stateOfSeed(seed, 0)
  const { changes } = keyAdded(seeded, "me", hashKey(values.personal), 0)
  const state = applyAll(seeded, changes)
  const keys = Object.fromEntries(kinds.map((kind) => [kind, keyWithHash(state, hashKey(values[kind]))!])) as Record<
    KeyKind,
    StoredKey
  >
  return { fake: yield* makeFakeState(state, undefined, controlPlane), keys }
})

/** The declared authorizations of every group, by the entry's name (`Users.me`). */
const declared = new Map<string, Authorization>(
  Object.entries(authorizations).flatMap(([group, entries]) =>
    Object.entries<Authorization>(entries).map(([key, authorization]) => [`${group}.${key}`, authorization] as const)
  )
)

/** The status `kind`'s key gets for `request` from the routes of `groups` on a fresh fake. */
const statusOf = (groups: Api.Groups, kind: KeyKind, request: HttpClientRequest.HttpClientRequest) =>
  Effect.gen(function* () {
    const { fake, keys } = yield* fresh
    const key = keys[kind]
    expect(kindOf(key)).toBe(kind)
    const app = yield* HttpRouter.toHttpApp(router(fake, groups))
    const served = app.pipe(
      Effect.provideService(Caller, key),
      Effect.provideService(Access, accessOf(fake, key, request.url)),
      Effect.provideService(Gate, () => Effect.void),
      Effect.catchTags({ RouteNotFound: Effect.die, Refusal: refusalResponse })
    )
    const response = yield* FakeHttpClient.make(served).execute(request)
    return response.status
  })

/** A request to `endpoint`'s route (as renamed or not) with `params` and `body`. */
const requestTo = (endpoint: Endpoint.Endpoint, params: Record<string, string>, body?: unknown) => {
  const url = `http://x${Endpoint.basePath}${Endpoint.path(endpoint.route, params)}`
  const request = HttpClientRequest.make(endpoint.method)(url)
  return body === undefined ? request : HttpClientRequest.bodyUnsafeJson(request, body)
}

/** Entries whose rule the old route strings keyed, each renamed, with the request sent to it. */
const renamings = [
  { group: "Users", key: "me", route: "/whoami", params: {} },
  { group: "Users", key: "listOrganizations", route: "/me/organizations", params: {} },
  { group: "Regions", key: "list", route: "/places", params: {} },
  { group: "ApiKeys", key: "list", route: "/keys", params: {} },
  { group: "Projects", key: "delete", route: "/project/{project_id}", params: { project_id: project } },
  {
    group: "OrganizationApiKeys",
    key: "create",
    route: "/organizations/{org_id}/keys",
    params: { org_id: org },
    body: { key_name: "renamed" }
  },
  { group: "Organizations", key: "get", route: "/orgs/{org_id}", params: { org_id: org } }
] as const

describe("access declared with each endpoint (docs/contract.md §21)", () => {
  it("every entry of Api.endpoints has a declaration, and there is none for anything else", () => {
    expect(new Set(declared.keys())).toEqual(new Set(Api.endpoints.map((endpoint) => endpoint.name)))
    for (const [group, entries] of Object.entries(Api.groups)) {
      expect(Object.keys(authorizations[group as keyof Api.Groups]).sort(), group).toEqual(Object.keys(entries).sort())
    }
    for (const [name, authorization] of declared) expect(authorization.keys[0], name).toBe("personal")
  })

  it.effect.each(
    renamings.map((renaming) => [`${renaming.group}.${renaming.key} as ${renaming.route}`, renaming] as const)
  )("%s refuses and lets through the kinds of key its declaration names", ([, renaming]) =>
    Effect.gen(function* () {
      const group: Readonly<Record<string, Endpoint.Endpoint>> = Api.groups[renaming.group]
      const endpoint = group[renaming.key]!
      const renamed = { ...endpoint, route: renaming.route }
      const groups = { ...Api.groups, [renaming.group]: { ...group, [renaming.key]: renamed } } as Api.Groups
      const authorization = declared.get(endpoint.name)!
      const body = "body" in renaming ? renaming.body : undefined
      for (const kind of kinds) {
        const before = yield* statusOf(Api.groups, kind, requestTo(endpoint, renaming.params, body))
        const after = yield* statusOf(groups, kind, requestTo(renamed, renaming.params, body))
        const allowed = (authorization.keys as ReadonlyArray<KeyKind>).includes(kind)
        expect(after, `${kind} key`).toBe(before)
        if (allowed) expect(after, `${kind} key`).toBeLessThan(300)
        else expect(after, `${kind} key`).toBe(authorization.otherwise)
      }
    })
  )

  it.effect("the route's declaration decides, whatever its route: a kind left out gets what it declares", () =>
    Effect.gen(function* () {
      const { fake, keys } = yield* fresh
      const renamed = { ...Api.Regions.list, route: "/places" }
      const hidden: Authorization = { keys: ["personal"], otherwise: 404 }
      const app = yield* HttpRouter.toHttpApp(
        HttpRouter.fromIterable([route(renamed, () => Effect.succeed(new Api.ActiveRegions({ regions: [] })), hidden)])
      )
      const statusFor = (kind: KeyKind) =>
        Effect.gen(function* () {
          const request = HttpClientRequest.get("http://x/places")
          const served = app.pipe(
            Effect.provideService(Access, accessOf(fake, keys[kind], request.url)),
            Effect.provideService(Gate, () => Effect.void),
            Effect.catchTags({ RouteNotFound: Effect.die, Refusal: refusalResponse })
          )
          return (yield* FakeHttpClient.make(served).execute(request)).status
        })
      expect(yield* statusFor("personal")).toBe(200)
      expect(yield* statusFor("organization")).toBe(404)
      expect(yield* statusFor("project")).toBe(404)
    })
  )

  it.effect("no default: a group's declarations miss none, and a route requires its Gate and Access", () =>
    Effect.gen(function* () {
      // @ts-expect-error: an entry of the group without a declaration does not compile.
      const partial: Authorizations<typeof Api.Regions> = {}
      expect(partial).toEqual({})
      const app = yield* HttpRouter.toHttpApp(
        HttpRouter.fromIterable([
          route(Api.Regions.list, () => Effect.succeed(new Api.ActiveRegions({ regions: [] })), anyKey)
        ])
      )
      type Served = HttpApp.HttpApp<HttpServerResponse.HttpServerResponse, unknown, HttpServerRequest.HttpServerRequest>
      // @ts-expect-error: served without its `Gate` and `Access`, the route does not compile.
      const unguarded: Served = app
      const guarded: Served = app.pipe(
        Effect.provideService(Gate, () => Effect.void),
        Effect.provideService(Access, () => Effect.void)
      )
      expect(unguarded).toBe(app)
      expect(guarded).not.toBe(app)
    })
  )
})
