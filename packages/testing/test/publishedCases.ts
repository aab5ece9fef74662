/**
 * The requests that make the fake answer, for every endpoint of core's groups (`Api.endpoints`),
 * each success status it declares and each error status it answers on its own (not through an
 * injected fault): the cases `published-reference.test.ts` validates against the platform's
 * published OpenAPI v2 document, and {@link uncovered}, the statuses of an endpoint no case
 * covers yet (`Api.test.ts` requires none for every entry).
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Api, type Endpoint } from "@dbplatform/core"
import { expect } from "@effect/vitest"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import type * as FakePlatform from "../src/FakePlatform.js"
import type * as Seed from "../src/Seed.js"
import { operationId, send } from "./helpers.js"
import { bucketCases } from "./publishedBucketCases.js"

export const project = "spring-example-302709"
const pendingProject = "bold-river-120001"

const main = "br-main-100001"
const dev = "br-dev-100002"
const feature = "br-feature-100003"
const branches = `/projects/${project}/branches`
const endpoints = `/projects/${project}/endpoints`
const devEndpoint = "ep-dev-100002"

export const seed: Seed.Seed = {
  projects: [
    { id: project, name: "spring example" },
    { id: "shared-leaf-100001", shared: true },
    { id: pendingProject }
  ],
  branches: [
    { project_id: project, id: main, name: "main", default: true },
    { project_id: project, id: dev, name: "dev", parent_id: main },
    { project_id: project, id: feature, name: "feature", parent_id: dev }
  ],
  endpoints: [{ branch_id: dev, id: devEndpoint, type: "read_write" }],
  // The roles and databases of `main`, and their copies on `dev`.
  roles: [main, dev].map((branch_id) => ({ branch_id, name: "neondb_owner", password: "npg_Ow4erPa55" })),
  databases: [main, dev].map((branch_id, i) => ({
    branch_id,
    id: 1_000_001 + i,
    name: "neondb",
    owner_name: "neondb_owner"
  })),
  operations: [
    { project_id: project, id: operationId(1), action: "create_timeline", age: "1 hour" },
    {
      project_id: project,
      id: operationId(2),
      action: "start_compute",
      age: "10 minutes",
      status: "failed",
      error: "no"
    },
    { project_id: pendingProject, id: operationId(3), action: "start_compute", runsFor: "1 hour" }
  ]
}

const connectionUri = `/projects/${project}/connection_uri`

/** The organization of the seed's projects (none names one): the fake's default. */
export const organization = "org-dbplatform-000000"
const organizationKeys = `/organizations/${organization}/api_keys`

/** A new key of the seed's organization, created with the bootstrap key: its id and value. */
const organizationKey = (
  { fake, key }: { readonly fake: FakePlatform.Service; readonly key: string },
  body: { readonly key_name: string; readonly project_id?: string }
) =>
  Effect.gen(function* () {
    const request = yield* HttpClientRequest.post(organizationKeys).pipe(HttpClientRequest.bodyJson(body))
    const response = yield* send(fake, request, { key })
    return (yield* response.json) as { readonly id: number; readonly key: string }
  }).pipe(Effect.orDie)

/** What a case may use: the fake, and its bootstrap key's value. */
export interface Fixture {
  readonly fake: FakePlatform.Service
  readonly key: string
}

/** Where anonymized branches are created. */
const anonymizedBranches = `/projects/${project}/branch_anonymized`
/** A rule masking `users.email` of `neondb`. */
const emailRule = {
  database_name: "neondb",
  schema_name: "public",
  table_name: "users",
  column_name: "email",
  masking_function: "anon.fake_email()"
}
const anonymizedBody = {
  branch_create: { branch: { name: "anon", parent_id: dev }, endpoints: [{ type: "read_write" }] },
  masking_rules: [emailRule]
}

/**
 * `request` of the anonymized branch `anon` (a child of `dev`, with `emailRule`), once ready
 * (`initialized`); with `anonymizing`, once its anonymization has started.
 */
const withAnonymized =
  (
    request: (branch: string) => Effect.Effect<HttpClientRequest.HttpClientRequest>,
    options: { readonly anonymizing?: boolean } = {}
  ) =>
  ({ fake, key }: Fixture) =>
    Effect.gen(function* () {
      const created = yield* Effect.orDie(send(fake, yield* post(anonymizedBranches, anonymizedBody), { key }))
      expect(created.status).toBe(201)
      const { branch } = (yield* Effect.orDie(created.json)) as { readonly branch: { readonly id: string } }
      yield* TestClock.adjust("1 minute")
      if (options.anonymizing === true) {
        const started = yield* Effect.orDie(send(fake, yield* post(`${branches}/${branch.id}/anonymize`), { key }))
        expect(started.status).toBe(200)
      }
      return yield* request(branch.id)
    })

/** The credentials of `dev`. */
const credentials = `${branches}/${dev}/credentials`

/** A new credential of `dev` named `name`: its `token_id`. */
const credentialOf = ({ fake, key }: Fixture, name: string) =>
  Effect.gen(function* () {
    const request = yield* HttpClientRequest.post(credentials).pipe(
      HttpClientRequest.bodyJson({ name, scopes: ["storage:read"], principal_type: "user" })
    )
    const response = yield* send(fake, request, { key })
    expect(response.status).toBe(201)
    return ((yield* response.json) as { readonly token_id: string }).token_id
  }).pipe(Effect.orDie)

/** `request` once branch `branchId` of the seed's project is deleted (kept for its recovery). */
const afterDeleting =
  (branchId: string, request: (fixture: Fixture) => Effect.Effect<HttpClientRequest.HttpClientRequest>) =>
  (fixture: Fixture) =>
    Effect.gen(function* () {
      const deleted = yield* Effect.orDie(
        send(fixture.fake, HttpClientRequest.del(`${branches}/${branchId}`), { key: fixture.key })
      )
      expect(deleted.status).toBe(200)
      // Its operations finished: the project is not locked.
      yield* TestClock.adjust("1 minute")
      return yield* request(fixture)
    })

/** One request to one endpoint of `Api.endpoints`. */
export interface Case {
  readonly endpoint: Endpoint.Endpoint
  readonly label: string
  readonly status: number
  /** The request, relative to the base URL. */
  readonly request: (fixture: Fixture) => Effect.Effect<HttpClientRequest.HttpClientRequest>
  /** Sent without the bootstrap key: without any (a 401), or with the one the request sets itself. */
  readonly anonymous?: boolean
}

/**
 * The fake with roles and databases on `dev` (the seed has none): `owner` owns the databases `app`
 * and `other`, `loose` owns none, `system` is protected (docs/contract.md §15).
 */
const withData = (fake: FakePlatform.Service) =>
  Effect.gen(function* () {
    const snapshot = yield* fake.snapshot
    const at = 1_700_000_000_000
    const role = (name: string, isProtected = false) => ({
      id: `${dev}/${name}`,
      project_id: project,
      branch_id: dev,
      name,
      password: `pw-${name}-0123456789`,
      protected: isProtected,
      created_at: at,
      updated_at: at
    })
    const database = (id: number, name: string) => ({
      id,
      project_id: project,
      branch_id: dev,
      name,
      owner_name: "owner",
      created_at: at + id,
      updated_at: at + id
    })
    yield* fake.restore({
      ...snapshot,
      roles: [role("owner"), role("loose"), role("system", true)],
      databases: [database(1, "app"), database(2, "other")]
    })
  }).pipe(Effect.orDie)

/** `request` sent to the fake {@link withData} filled. */
const given =
  (request: Effect.Effect<HttpClientRequest.HttpClientRequest>) =>
  ({ fake }: Fixture) =>
    Effect.zipRight(withData(fake), request)

/** `request` sent to the fake {@link withData} filled, while the project has a pending operation. */
const givenBusy =
  (request: Effect.Effect<HttpClientRequest.HttpClientRequest>) =>
  ({ fake }: Fixture) =>
    Effect.zipRight(Effect.zipRight(withData(fake), busy(fake)), request)

const databases = `${branches}/${dev}/databases`
const roles = `${branches}/${dev}/roles`

const get = (path: string) => Effect.succeed(HttpClientRequest.get(path))
const del = (path: string) => Effect.succeed(HttpClientRequest.del(path))

/** An operation pending in the project for a minute: its mutations are locked meanwhile. */
const busy = (fake: FakePlatform.Service) =>
  fake.scenario.startOperations(project, [{ action: "apply_config", runsFor: "1 minute" }]).pipe(Effect.orDie)
const post = (path: string, body?: unknown) =>
  body === undefined
    ? Effect.succeed(HttpClientRequest.post(path))
    : HttpClientRequest.post(path).pipe(HttpClientRequest.bodyJson(body), Effect.orDie)
/** The fake's time now plus `seconds` (may be negative), as an RFC 3339 string to the second. */
const secondsFromNow = (seconds: number) =>
  Effect.map(Clock.currentTimeMillis, (now) =>
    new Date(Math.floor(now / 1000) * 1000 + seconds * 1000).toISOString().replace(".000Z", "Z")
  )
const patch = (path: string, body: unknown) =>
  HttpClientRequest.patch(path).pipe(HttpClientRequest.bodyJson(body), Effect.orDie)

/** Organizations for the identity and organization cases (docs/contract.md §20). */
const acme = "org-acme-302709"
const guest = "org-guest-500123"
const partner = "org-partner-118737"

/**
 * The fake with `acme` (the account's user an admin beside `ana`, a member, and `bo`, an
 * admin), `guest` (the account's user a plain member) and `partner` (not a member), then
 * `request` made from the id of the membership `email` names in `org` (if any).
 */
const givenOrganizations =
  (
    request: (member: string) => Effect.Effect<HttpClientRequest.HttpClientRequest>,
    org = acme,
    email = "ana@example.com"
  ) =>
  ({ fake }: Fixture) =>
    Effect.gen(function* () {
      yield* Effect.orDie(
        fake.load({
          ...seed,
          organizations: [
            {
              id: acme,
              name: "Acme",
              plan: "scale",
              members: [
                { email: "you@example.com", role: "admin" },
                { email: "ana@example.com", role: "member" },
                { email: "bo@example.com", role: "admin" }
              ]
            },
            {
              id: guest,
              members: [
                { email: "gil@example.com", role: "admin" },
                { email: "you@example.com", role: "member" }
              ]
            },
            { id: partner, members: [{ email: "pat@example.com", role: "admin" }] }
          ]
        })
      )
      const { members } = yield* fake.snapshot
      const member = members.find((member) => member.org_id === org && member.email === email)
      return yield* request(member?.id ?? "00000000-0000-4000-8000-000000000000")
    })

/** The fake of {@link givenOrganizations} where `acme`'s other admin was removed: the account's user is its last. */
const givenLastAdmin =
  (request: (member: string) => Effect.Effect<HttpClientRequest.HttpClientRequest>) =>
  ({ fake, key }: Fixture) =>
    Effect.gen(function* () {
      const bo = yield* givenOrganizations(
        (member) => del(`/organizations/${acme}/members/${member}`),
        acme,
        "bo@example.com"
      )({
        fake,
        key
      })
      expect((yield* Effect.orDie(send(fake, bo, { key }))).status).toBe(200)
      const { members } = yield* fake.snapshot
      return yield* request(members.find((member) => member.org_id === acme && member.email === "you@example.com")!.id)
    })

/**
 * `request` sent with a new key of the seed's organization (`project_id`: scoped to that project),
 * created with the bootstrap key.
 */
const withOrganizationKey =
  (request: Effect.Effect<HttpClientRequest.HttpClientRequest>, project_id?: string) => (fixture: Fixture) =>
    Effect.zipWith(
      organizationKey(fixture, { key_name: "identity", ...(project_id === undefined ? {} : { project_id }) }),
      request,
      (created, sent) => HttpClientRequest.bearerToken(sent, created.key)
    )

/** The identity and organization cases (docs/contract.md §20). */
const organizationCases: ReadonlyArray<Case> = [
  { endpoint: Api.Users.me, label: "the account's user", status: 200, request: () => get("/users/me") },
  {
    endpoint: Api.Users.me,
    label: "an organization's key, tied to no user",
    status: 403,
    anonymous: true,
    request: withOrganizationKey(get("/users/me"))
  },
  {
    endpoint: Api.Users.listOrganizations,
    label: "the user's organizations",
    status: 200,
    request: givenOrganizations(() => get("/users/me/organizations"))
  },
  {
    endpoint: Api.Users.listOrganizations,
    label: "an organization's key: the one that owns it",
    status: 200,
    anonymous: true,
    request: withOrganizationKey(get("/users/me/organizations"))
  },
  {
    endpoint: Api.Users.listOrganizations,
    label: "a key scoped to one project: the organization that owns it",
    status: 200,
    anonymous: true,
    request: withOrganizationKey(get("/users/me/organizations"), project)
  },
  { endpoint: Api.Users.auth, label: "a personal key", status: 200, request: () => get("/auth") },
  {
    endpoint: Api.Users.auth,
    label: "an organization's key",
    status: 200,
    anonymous: true,
    request: withOrganizationKey(get("/auth"))
  },
  {
    endpoint: Api.Users.auth,
    label: "a key scoped to one project",
    status: 200,
    anonymous: true,
    request: withOrganizationKey(get("/auth"), project)
  },
  {
    endpoint: Api.Organizations.get,
    label: "an organization of the user's",
    status: 200,
    request: givenOrganizations(() => get(`/organizations/${acme}`))
  },
  {
    endpoint: Api.Organizations.get,
    label: "one the user is not a member of",
    status: 404,
    request: givenOrganizations(() => get(`/organizations/${partner}`))
  },
  {
    endpoint: Api.Organizations.get,
    label: "a malformed org_id",
    status: 400,
    request: () => get("/organizations/Org")
  },
  {
    endpoint: Api.Organizations.listMembers,
    label: "a page with the next cursor",
    status: 200,
    request: givenOrganizations(() => get(`/organizations/${acme}/members?limit=2&sort_by=email&sort_order=asc`))
  },
  {
    endpoint: Api.Organizations.listMembers,
    label: "the last page",
    status: 200,
    request: givenOrganizations(() => get(`/organizations/${acme}/members`))
  },
  {
    endpoint: Api.Organizations.listMembers,
    label: "one the user is not a member of",
    status: 404,
    request: givenOrganizations(() => get(`/organizations/${partner}/members`))
  },
  {
    endpoint: Api.Organizations.listMembers,
    label: "a sort_by it does not take",
    status: 400,
    request: givenOrganizations(() => get(`/organizations/${acme}/members?sort_by=name`))
  },
  {
    endpoint: Api.Organizations.getMember,
    label: "a member",
    status: 200,
    request: givenOrganizations((member) => get(`/organizations/${acme}/members/${member}`))
  },
  {
    endpoint: Api.Organizations.getMember,
    label: "an unknown member",
    status: 404,
    request: givenOrganizations((member) => get(`/organizations/${acme}/members/${member}`), acme, "nobody@example.com")
  },
  {
    endpoint: Api.Organizations.getMember,
    label: "a member_id that is not a UUID",
    status: 400,
    request: () => get(`/organizations/${acme}/members/ana`)
  },
  {
    endpoint: Api.Organizations.updateMember,
    label: "a role changed",
    status: 200,
    request: givenOrganizations((member) => patch(`/organizations/${acme}/members/${member}`, { role: "viewer" }))
  },
  {
    endpoint: Api.Organizations.updateMember,
    label: "the last admin demoted",
    status: 400,
    request: givenLastAdmin((member) => patch(`/organizations/${acme}/members/${member}`, { role: "member" }))
  },
  {
    endpoint: Api.Organizations.updateMember,
    label: "by a member who is not an admin",
    status: 403,
    request: givenOrganizations(
      (member) => patch(`/organizations/${guest}/members/${member}`, { role: "viewer" }),
      guest,
      "gil@example.com"
    )
  },
  {
    endpoint: Api.Organizations.updateMember,
    label: "an unknown member",
    status: 404,
    request: givenOrganizations(
      (member) => patch(`/organizations/${acme}/members/${member}`, { role: "viewer" }),
      acme,
      "nobody@example.com"
    )
  },
  {
    endpoint: Api.Organizations.removeMember,
    label: "a member removed",
    status: 200,
    request: givenOrganizations((member) => del(`/organizations/${acme}/members/${member}`))
  },
  {
    endpoint: Api.Organizations.removeMember,
    label: "the last admin",
    status: 400,
    request: givenLastAdmin((member) => del(`/organizations/${acme}/members/${member}`))
  },
  {
    endpoint: Api.Organizations.removeMember,
    label: "by a member who is not an admin",
    status: 403,
    request: givenOrganizations((member) => del(`/organizations/${guest}/members/${member}`), guest, "gil@example.com")
  },
  {
    endpoint: Api.Organizations.removeMember,
    label: "an unknown member",
    status: 404,
    request: givenOrganizations((member) => del(`/organizations/${acme}/members/${member}`), acme, "nobody@example.com")
  },
  {
    endpoint: Api.Organizations.listInvitations,
    label: "the invitations",
    status: 200,
    request: ({ fake, key }) =>
      Effect.gen(function* () {
        const invited = yield* givenOrganizations(() =>
          post(`/organizations/${acme}/invitations`, { invitations: [{ email: "new@example.com", role: "member" }] })
        )({ fake, key })
        expect((yield* Effect.orDie(send(fake, invited, { key }))).status).toBe(200)
        return yield* get(`/organizations/${acme}/invitations`)
      })
  },
  {
    endpoint: Api.Organizations.listInvitations,
    label: "one the user is not a member of",
    status: 404,
    request: givenOrganizations(() => get(`/organizations/${partner}/invitations`))
  },
  {
    endpoint: Api.Organizations.listInvitations,
    label: "a malformed org_id",
    status: 400,
    request: () => get("/organizations/Org/invitations")
  },
  {
    endpoint: Api.Organizations.createInvitations,
    label: "invitations made, one user joining at once",
    status: 200,
    request: givenOrganizations(() =>
      post(`/organizations/${acme}/invitations`, {
        invitations: [
          { email: "new@example.com", role: "member" },
          { email: "gil@example.com", role: "viewer" }
        ]
      })
    )
  },
  {
    endpoint: Api.Organizations.createInvitations,
    label: "none",
    status: 400,
    request: givenOrganizations(() => post(`/organizations/${acme}/invitations`, { invitations: [] }))
  },
  {
    endpoint: Api.Organizations.createInvitations,
    label: "by a member who is not an admin",
    status: 403,
    request: givenOrganizations(() =>
      post(`/organizations/${guest}/invitations`, { invitations: [{ email: "new@example.com", role: "member" }] })
    )
  },
  {
    endpoint: Api.Organizations.createInvitations,
    label: "one the user is not a member of",
    status: 404,
    request: givenOrganizations(() =>
      post(`/organizations/${partner}/invitations`, { invitations: [{ email: "new@example.com", role: "member" }] })
    )
  },
  {
    endpoint: Api.Organizations.createInvitations,
    label: "an address already a member",
    status: 409,
    request: givenOrganizations(() =>
      post(`/organizations/${acme}/invitations`, { invitations: [{ email: "ana@example.com", role: "member" }] })
    )
  },
  // The spending limit (docs/contract.md §20.5): `acme` is on Scale, the default organization on Free.
  {
    endpoint: Api.Organizations.getSpendingLimit,
    label: "none set (null)",
    status: 200,
    request: givenOrganizations(() => get(`/organizations/${acme}/billing/spending_limit`))
  },
  {
    endpoint: Api.Organizations.getSpendingLimit,
    label: "on the Free plan",
    status: 403,
    request: () => get(`/organizations/${organization}/billing/spending_limit`)
  },
  {
    endpoint: Api.Organizations.getSpendingLimit,
    label: "one the user is not a member of",
    status: 404,
    request: givenOrganizations(() => get(`/organizations/${partner}/billing/spending_limit`))
  },
  {
    endpoint: Api.Organizations.getSpendingLimit,
    label: "a malformed org_id",
    status: 400,
    request: () => get("/organizations/Org/billing/spending_limit")
  },
  {
    endpoint: Api.Organizations.setSpendingLimit,
    label: "$250.00 a month",
    status: 200,
    request: givenOrganizations(() =>
      put(`/organizations/${acme}/billing/spending_limit`, { spending_limit_cents: 25_000 })
    )
  },
  {
    endpoint: Api.Organizations.setSpendingLimit,
    label: "zero",
    status: 400,
    request: givenOrganizations(() => put(`/organizations/${acme}/billing/spending_limit`, { spending_limit_cents: 0 }))
  },
  {
    endpoint: Api.Organizations.setSpendingLimit,
    label: "by a member who is not an admin",
    status: 403,
    request: givenOrganizations(() =>
      put(`/organizations/${guest}/billing/spending_limit`, { spending_limit_cents: 100 })
    )
  },
  {
    endpoint: Api.Organizations.setSpendingLimit,
    label: "one the user is not a member of",
    status: 404,
    request: givenOrganizations(() =>
      put(`/organizations/${partner}/billing/spending_limit`, { spending_limit_cents: 100 })
    )
  },
  {
    endpoint: Api.Organizations.deleteSpendingLimit,
    label: "none set: idempotent",
    status: 200,
    request: givenOrganizations(() => del(`/organizations/${acme}/billing/spending_limit`))
  },
  {
    endpoint: Api.Organizations.deleteSpendingLimit,
    label: "on the Free plan",
    status: 403,
    request: () => del(`/organizations/${organization}/billing/spending_limit`)
  },
  {
    endpoint: Api.Organizations.deleteSpendingLimit,
    label: "one the user is not a member of",
    status: 404,
    request: givenOrganizations(() => del(`/organizations/${partner}/billing/spending_limit`))
  },
  {
    endpoint: Api.Organizations.deleteSpendingLimit,
    label: "a malformed org_id",
    status: 400,
    request: () => del("/organizations/Org/billing/spending_limit")
  }
]

// --- project access (docs/contract.md §22) ----------------------------------------------------

/** The organizations of the access cases: the account's user is an admin of the first two only. */
const freeOrg = "org-free-302709"
const strangers = "org-strangers-302709"
const defaultOrg = "org-dbplatform-000000"
const vpce = "vpce-0123456789abcdef0"
const vpcRegion = "aws-us-east-2"
const acmeProject = "acme-app-302709"
const integrated = "acme-vercel-302709"
const permissionId = "0f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f"
const liveRequest = "3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b0a"
const expiredRequest = "7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d"

/**
 * The fake with organizations (`acme` on `scale`, `freeOrg` on `free_v3`, `strangers` of another
 * user), two projects in `acme` (one with a Vercel integration), an access granted to the seed's
 * project, a VPC endpoint of `acme` and of the default organization with the seed's project
 * restricted to the latter, and two transfer requests of the seed's project, one expired.
 */
const withAccess = (fake: FakePlatform.Service) =>
  Effect.gen(function* () {
    const snapshot = yield* fake.snapshot
    const at = -86_400_000
    const organization = (id: string, plan: string) => ({
      id,
      name: id,
      handle: id,
      plan,
      managed_by: "console",
      created_at: at,
      updated_at: at
    })
    const member = (org_id: string, user_id: string, email: string) => ({
      id: `${org_id}-member`,
      org_id,
      user_id,
      email,
      role: "admin",
      joined_at: at
    })
    const you = snapshot.members.find((m) => m.email === "you@example.com")!
    const orgProject = (id: string, integration?: string) => ({
      ...snapshot.projects.find((p) => p.id === project)!,
      id,
      name: id,
      org_id: acme,
      created_at: at + id.length,
      ...(integration === undefined ? {} : { integration })
    })
    const vpcEndpoint = (org_id: string) => ({
      id: `${org_id}/${vpcRegion}/${vpce}`,
      org_id,
      region_id: vpcRegion,
      vpc_endpoint_id: vpce,
      label: "prod vpc",
      created_at: at
    })
    yield* fake.restore({
      ...snapshot,
      organizations: [
        ...snapshot.organizations,
        organization(acme, "scale"),
        organization(freeOrg, "free_v3"),
        organization(strangers, "scale")
      ],
      members: [
        ...snapshot.members,
        member(acme, you.user_id, you.email),
        member(freeOrg, you.user_id, you.email),
        member(strangers, "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", "dana@example.com")
      ],
      projects: [...snapshot.projects, orgProject(acmeProject), orgProject(integrated, "vercel")],
      permissions: [{ id: permissionId, project_id: project, granted_to_email: "dana@example.com", granted_at: at }],
      vpc_endpoints: [vpcEndpoint(acme), vpcEndpoint(defaultOrg)],
      vpc_restrictions: [
        { id: `${project}/${vpce}`, project_id: project, vpc_endpoint_id: vpce, label: "prod vpc", created_at: at }
      ],
      transfer_requests: [
        { id: liveRequest, project_id: project, created_at: at, expires_at: at + 2 * 86_400_000 },
        { id: expiredRequest, project_id: project, created_at: at, expires_at: at + 1000 }
      ]
    })
  }).pipe(Effect.orDie)

/** `request` sent to the fake {@link withAccess} filled. */
const givenAccess =
  (request: Effect.Effect<HttpClientRequest.HttpClientRequest>) =>
  ({ fake }: Fixture) =>
    Effect.zipRight(withAccess(fake), request)

/**
 * `request` sent with a new key of the seed's organization scoped to its project, after
 * {@link withAccess}: such a key may not act for the organization (a 403, docs/contract.md §21).
 */
const byProjectKey = (request: Effect.Effect<HttpClientRequest.HttpClientRequest>) => (fixture: Fixture) =>
  Effect.zipRight(
    withAccess(fixture.fake),
    Effect.zipWith(organizationKey(fixture, { key_name: "scoped", project_id: project }), request, (created, sent) =>
      HttpClientRequest.bearerToken(sent, created.key)
    )
  )

const put = (path: string, body: unknown) =>
  HttpClientRequest.put(path).pipe(HttpClientRequest.bodyJson(body), Effect.orDie)

const permissions = `/projects/${project}/permissions`
const orgVpc = (org: string, region = vpcRegion) => `/organizations/${org}/vpc/region/${region}/vpc_endpoints`
const projectVpc = `/projects/${project}/vpc_endpoints`
const transfer = (org: string) => `/organizations/${org}/projects/transfer`
const transferRequests = `/projects/${project}/transfer_requests`

const accessCases: ReadonlyArray<Case> = [
  {
    endpoint: Api.ProjectPermissions.list,
    label: "the accesses granted",
    status: 200,
    request: givenAccess(get(permissions))
  },
  {
    endpoint: Api.ProjectPermissions.list,
    label: "an unknown project",
    status: 404,
    request: () => get("/projects/no-such-project/permissions")
  },
  {
    endpoint: Api.ProjectPermissions.list,
    label: "a malformed project id",
    status: 400,
    request: () => get("/projects/NOT_AN_ID/permissions")
  },
  {
    endpoint: Api.ProjectPermissions.grant,
    label: "an access granted",
    status: 200,
    request: () => post(permissions, { email: "lee@example.com" })
  },
  {
    endpoint: Api.ProjectPermissions.grant,
    label: "not an email",
    status: 400,
    request: () => post(permissions, { email: "lee" })
  },
  {
    endpoint: Api.ProjectPermissions.grant,
    label: "an unknown project",
    status: 404,
    request: () => post("/projects/no-such-project/permissions", { email: "lee@example.com" })
  },
  {
    endpoint: Api.ProjectPermissions.revoke,
    label: "an access revoked",
    status: 200,
    request: givenAccess(del(`${permissions}/${permissionId}`))
  },
  {
    endpoint: Api.ProjectPermissions.revoke,
    label: "an unknown permission",
    status: 404,
    request: () => del(`${permissions}/${permissionId}`)
  },
  {
    endpoint: Api.ProjectPermissions.revoke,
    label: "a malformed project id",
    status: 400,
    request: () => del(`/projects/NOT_AN_ID/permissions/${permissionId}`)
  },
  {
    endpoint: Api.VpcEndpoints.list,
    label: "an organization's VPC endpoints in a region",
    status: 200,
    request: givenAccess(get(orgVpc(acme)))
  },
  {
    endpoint: Api.VpcEndpoints.list,
    label: "a malformed org_id",
    status: 400,
    request: () => get(orgVpc("NOT_AN_ORG"))
  },
  {
    endpoint: Api.VpcEndpoints.list,
    label: "an unknown region",
    status: 404,
    request: givenAccess(get(orgVpc(acme, "mars-north-1")))
  },
  {
    endpoint: Api.VpcEndpoints.list,
    label: "an organization the user is not a member of (as one that does not exist)",
    status: 404,
    request: givenAccess(get(orgVpc(strangers)))
  },
  {
    endpoint: Api.VpcEndpoints.listAll,
    label: "an organization's VPC endpoints in every region",
    status: 200,
    request: givenAccess(get(`/organizations/${acme}/vpc/vpc_endpoints`))
  },
  {
    endpoint: Api.VpcEndpoints.listAll,
    label: "a malformed org_id",
    status: 400,
    request: () => get("/organizations/NOT_AN_ORG/vpc/vpc_endpoints")
  },
  {
    endpoint: Api.VpcEndpoints.listAll,
    label: "an unknown organization",
    status: 404,
    request: () => get("/organizations/org-nowhere-302709/vpc/vpc_endpoints")
  },
  {
    endpoint: Api.VpcEndpoints.listAll,
    label: "an organization the user is not a member of (as one that does not exist)",
    status: 404,
    request: givenAccess(get(`/organizations/${strangers}/vpc/vpc_endpoints`))
  },
  {
    endpoint: Api.VpcEndpoints.get,
    label: "a VPC endpoint's details",
    status: 200,
    request: givenAccess(get(`${orgVpc(defaultOrg)}/${vpce}`))
  },
  {
    endpoint: Api.VpcEndpoints.get,
    label: "a malformed org_id",
    status: 400,
    request: () => get(`${orgVpc("NOT_AN_ORG")}/${vpce}`)
  },
  {
    endpoint: Api.VpcEndpoints.get,
    label: "an unknown VPC endpoint",
    status: 404,
    request: givenAccess(get(`${orgVpc(freeOrg)}/${vpce}`))
  },
  {
    endpoint: Api.VpcEndpoints.get,
    label: "an organization the user is not a member of (as one that does not exist)",
    status: 404,
    request: givenAccess(get(`${orgVpc(strangers)}/${vpce}`))
  },
  {
    endpoint: Api.VpcEndpoints.assign,
    label: "a VPC endpoint assigned",
    status: 200,
    request: givenAccess(post(`${orgVpc(freeOrg)}/${vpce}`, { label: "staging" }))
  },
  {
    endpoint: Api.VpcEndpoints.assign,
    label: "an Azure region",
    status: 400,
    request: givenAccess(post(`${orgVpc(acme, "azure-eastus2")}/${vpce}`, { label: "staging" }))
  },
  {
    endpoint: Api.VpcEndpoints.assign,
    label: "an unknown region",
    status: 404,
    request: givenAccess(post(`${orgVpc(acme, "mars-north-1")}/${vpce}`, { label: "staging" }))
  },
  {
    endpoint: Api.VpcEndpoints.assign,
    label: "an organization the user is not a member of (as one that does not exist)",
    status: 404,
    request: givenAccess(post(`${orgVpc(strangers)}/${vpce}`, { label: "staging" }))
  },
  {
    endpoint: Api.VpcEndpoints.delete,
    label: "a VPC endpoint deleted",
    status: 200,
    request: givenAccess(del(`${orgVpc(acme)}/${vpce}`))
  },
  {
    endpoint: Api.VpcEndpoints.delete,
    label: "a VPC endpoint a project is restricted to",
    status: 400,
    request: givenAccess(del(`${orgVpc(defaultOrg)}/${vpce}`))
  },
  {
    endpoint: Api.VpcEndpoints.delete,
    label: "an unknown VPC endpoint",
    status: 404,
    request: givenAccess(del(`${orgVpc(freeOrg)}/${vpce}`))
  },
  {
    endpoint: Api.VpcEndpoints.delete,
    label: "an organization the user is not a member of (as one that does not exist)",
    status: 404,
    request: givenAccess(del(`${orgVpc(strangers)}/${vpce}`))
  },
  {
    endpoint: Api.VpcEndpoints.listRestrictions,
    label: "a project's VPC restrictions",
    status: 200,
    request: givenAccess(get(projectVpc))
  },
  {
    endpoint: Api.VpcEndpoints.listRestrictions,
    label: "a malformed project id",
    status: 400,
    request: () => get("/projects/NOT_AN_ID/vpc_endpoints")
  },
  {
    endpoint: Api.VpcEndpoints.listRestrictions,
    label: "an unknown project",
    status: 404,
    request: () => get("/projects/no-such-project/vpc_endpoints")
  },
  {
    endpoint: Api.VpcEndpoints.setRestriction,
    label: "a restriction set",
    status: 200,
    request: givenAccess(post(`${projectVpc}/${vpce}`, { label: "prod" }))
  },
  {
    endpoint: Api.VpcEndpoints.setRestriction,
    label: "an endpoint not assigned to the project's organization",
    status: 400,
    request: () => post(`${projectVpc}/${vpce}`, { label: "prod" })
  },
  {
    endpoint: Api.VpcEndpoints.setRestriction,
    label: "an unknown project",
    status: 404,
    request: () => post(`/projects/no-such-project/vpc_endpoints/${vpce}`, { label: "prod" })
  },
  {
    endpoint: Api.VpcEndpoints.deleteRestriction,
    label: "a restriction removed",
    status: 200,
    request: givenAccess(del(`${projectVpc}/${vpce}`))
  },
  {
    endpoint: Api.VpcEndpoints.deleteRestriction,
    label: "a restriction the project does not have",
    status: 404,
    request: () => del(`${projectVpc}/${vpce}`)
  },
  {
    endpoint: Api.VpcEndpoints.deleteRestriction,
    label: "a malformed project id",
    status: 400,
    request: () => del(`/projects/NOT_AN_ID/vpc_endpoints/${vpce}`)
  },
  {
    endpoint: Api.ProjectTransfers.transfer,
    label: "projects transferred",
    status: 200,
    request: givenAccess(post(transfer(defaultOrg), { destination_org_id: acme, project_ids: [project] }))
  },
  {
    endpoint: Api.ProjectTransfers.transfer,
    label: "no project ids",
    status: 400,
    request: () => post(transfer(acme), { destination_org_id: defaultOrg, project_ids: [] })
  },
  {
    endpoint: Api.ProjectTransfers.transfer,
    label: "a project not in the source organization",
    status: 404,
    request: givenAccess(post(transfer(acme), { destination_org_id: defaultOrg, project_ids: [project] }))
  },
  {
    endpoint: Api.ProjectTransfers.transfer,
    label: "a destination the user is not a member of (as one that does not exist)",
    status: 404,
    request: givenAccess(post(transfer(acme), { destination_org_id: strangers, project_ids: [acmeProject] }))
  },
  {
    endpoint: Api.ProjectTransfers.transfer,
    label: "a project with an operation running",
    status: 423,
    request: ({ fake }) =>
      Effect.zipRight(
        Effect.zipRight(withAccess(fake), busy(fake)),
        post(transfer(defaultOrg), { destination_org_id: acme, project_ids: [project] })
      )
  },
  {
    endpoint: Api.ProjectTransfers.transfer,
    label: "a destination on a lower plan (406, its limits)",
    status: 406,
    request: givenAccess(post(transfer(acme), { destination_org_id: freeOrg, project_ids: [acmeProject] }))
  },
  {
    endpoint: Api.ProjectTransfers.transfer,
    label: "a project with an integration (422, the projects)",
    status: 422,
    request: givenAccess(post(transfer(acme), { destination_org_id: defaultOrg, project_ids: [integrated] }))
  },
  {
    endpoint: Api.ProjectTransfers.createRequest,
    label: "a transfer request",
    status: 201,
    request: () => post(transferRequests, { ttl_seconds: 3600 })
  },
  {
    endpoint: Api.ProjectTransfers.createRequest,
    label: "a ttl of 0",
    status: 400,
    request: () => post(transferRequests, { ttl_seconds: 0 })
  },
  {
    endpoint: Api.ProjectTransfers.createRequest,
    label: "an unknown project",
    status: 404,
    request: () => post("/projects/no-such-project/transfer_requests", {})
  },
  {
    endpoint: Api.ProjectTransfers.acceptRequest,
    label: "a transfer request accepted",
    status: 204,
    request: givenAccess(put(`${transferRequests}/${liveRequest}`, { org_id: acme }))
  },
  {
    endpoint: Api.ProjectTransfers.acceptRequest,
    label: "an expired request",
    status: 400,
    request: givenAccess(put(`${transferRequests}/${expiredRequest}`, { org_id: acme }))
  },
  {
    endpoint: Api.ProjectTransfers.acceptRequest,
    label: "an unknown request",
    status: 404,
    request: () => put(`${transferRequests}/${liveRequest}`, {})
  },
  {
    endpoint: Api.ProjectTransfers.acceptRequest,
    label: "an organization the user is not a member of (as one that does not exist)",
    status: 404,
    request: givenAccess(put(`${transferRequests}/${liveRequest}`, { org_id: strangers }))
  },
  {
    endpoint: Api.ProjectTransfers.acceptRequest,
    label: "an organization whose plan cannot own the project (406, the reasons)",
    status: 406,
    request: ({ fake }) =>
      Effect.zipRight(
        Effect.zipRight(
          withAccess(fake),
          // The seed's project on `scale` first: `freeOrg` is below it.
          fake.snapshot.pipe(
            Effect.flatMap((snapshot) =>
              fake.restore({
                ...snapshot,
                organizations: snapshot.organizations.map((org) =>
                  org.id === defaultOrg ? { ...org, plan: "scale" } : org
                )
              })
            ),
            Effect.orDie
          )
        ),
        put(`${transferRequests}/${liveRequest}`, { org_id: freeOrg })
      )
  },
  {
    endpoint: Api.VpcEndpoints.list,
    label: "a key scoped to one project",
    status: 403,
    anonymous: true,
    request: byProjectKey(get(orgVpc(defaultOrg)))
  },
  {
    endpoint: Api.VpcEndpoints.listAll,
    label: "a key scoped to one project",
    status: 403,
    anonymous: true,
    request: byProjectKey(get(`/organizations/${defaultOrg}/vpc/vpc_endpoints`))
  },
  {
    endpoint: Api.VpcEndpoints.get,
    label: "a key scoped to one project",
    status: 403,
    anonymous: true,
    request: byProjectKey(get(`${orgVpc(defaultOrg)}/${vpce}`))
  },
  {
    endpoint: Api.VpcEndpoints.assign,
    label: "a key scoped to one project",
    status: 403,
    anonymous: true,
    request: byProjectKey(post(`${orgVpc(defaultOrg)}/${vpce}`, { label: "staging" }))
  },
  {
    endpoint: Api.VpcEndpoints.delete,
    label: "a key scoped to one project",
    status: 403,
    anonymous: true,
    request: byProjectKey(del(`${orgVpc(defaultOrg)}/${vpce}`))
  },
  {
    endpoint: Api.ProjectTransfers.transfer,
    label: "a key scoped to one project",
    status: 403,
    anonymous: true,
    request: byProjectKey(post(transfer(defaultOrg), { destination_org_id: acme, project_ids: [project] }))
  }
]

// --- Snapshots (docs/contract.md §19) ---------------------------------------------------------

const snapshotId = "snap-dev-100001"
const restoredBranch = "br-restored-100004"
const snapshots = `/projects/${project}/snapshots`

/**
 * The fake {@link withData} filled, with a snapshot of `dev` (its role `owner` and database `app`)
 * and `dev-restored`, a branch restored from it standing in for `dev`, not yet finalized.
 */
const withSnapshot = (fake: FakePlatform.Service) =>
  Effect.gen(function* () {
    yield* withData(fake)
    const snapshot = yield* fake.snapshot
    yield* fake.restore({
      ...snapshot,
      branches: [
        ...snapshot.branches,
        {
          id: restoredBranch,
          project_id: project,
          parent_id: main,
          name: "dev-restored",
          default: false,
          protected: false,
          created_at: 0,
          updated_at: 0,
          ready_at: 0,
          restore_status: "restored",
          restored_from: snapshotId,
          restored_as: dev
        }
      ],
      branch_snapshots: [
        {
          id: snapshotId,
          project_id: project,
          source_branch_id: dev,
          name: "before",
          lsn: "0/1000000",
          timestamp: 0,
          created_at: 0,
          manual: true,
          roles: [{ name: "owner", password: "pw-owner-0123456789", protected: false }],
          databases: [{ name: "app", owner_name: "owner" }]
        }
      ]
    })
  }).pipe(Effect.orDie)

/** `request` sent to the fake {@link withSnapshot} filled. */
const givenSnapshot =
  (request: Effect.Effect<HttpClientRequest.HttpClientRequest>) =>
  ({ fake }: Fixture) =>
    Effect.zipRight(withSnapshot(fake), request)

/** `request` sent to the fake {@link withSnapshot} filled, while the project has a pending operation. */
const givenSnapshotBusy =
  (request: Effect.Effect<HttpClientRequest.HttpClientRequest>) =>
  ({ fake }: Fixture) =>
    Effect.zipRight(Effect.zipRight(withSnapshot(fake), busy(fake)), request)

/** The cases of the snapshot endpoints, with their fixtures above. */
const snapshotCases: ReadonlyArray<Case> = [
  {
    endpoint: Api.Snapshots.create,
    label: "now, named",
    status: 200,
    request: givenSnapshot(post(`${branches}/${dev}/snapshot?name=before-migration`))
  },
  {
    endpoint: Api.Snapshots.create,
    label: "at a timestamp (now, 1970 on the TestClock), expiring",
    status: 200,
    request: () =>
      post(`${branches}/${dev}/snapshot?timestamp=1970-01-01T00%3A00%3A00Z&expires_at=2030-01-01T00%3A00%3A00Z`)
  },
  {
    endpoint: Api.Snapshots.create,
    label: "both lsn and timestamp",
    status: 400,
    request: () => post(`${branches}/${dev}/snapshot?lsn=0%2F1000000&timestamp=1970-01-01T00%3A00%3A00Z`)
  },
  {
    endpoint: Api.Snapshots.create,
    label: "an LSN outside the branch's history",
    status: 400,
    request: () => post(`${branches}/${dev}/snapshot?lsn=F%2F0`)
  },
  {
    endpoint: Api.Snapshots.create,
    label: "an unknown branch",
    status: 404,
    request: () => post(`${branches}/br-none-000000/snapshot`)
  },
  {
    endpoint: Api.Snapshots.create,
    label: "a project with a pending operation",
    status: 423,
    request: givenSnapshotBusy(post(`${branches}/${dev}/snapshot`))
  },
  { endpoint: Api.Snapshots.list, label: "a snapshot", status: 200, request: givenSnapshot(get(snapshots)) },
  {
    endpoint: Api.Snapshots.list,
    label: "an unknown project",
    status: 404,
    request: () => get("/projects/no-such-project/snapshots")
  },
  {
    endpoint: Api.Snapshots.list,
    label: "a bad project id",
    status: 400,
    request: () => get("/projects/NO_SUCH/snapshots")
  },
  {
    endpoint: Api.Snapshots.update,
    label: "a rename",
    status: 200,
    request: givenSnapshot(patch(`${snapshots}/${snapshotId}`, { snapshot: { name: "kept" } }))
  },
  {
    endpoint: Api.Snapshots.update,
    label: "a name that is not a string",
    status: 400,
    request: givenSnapshot(patch(`${snapshots}/${snapshotId}`, { snapshot: { name: 5 } }))
  },
  {
    endpoint: Api.Snapshots.update,
    label: "an unknown snapshot",
    status: 404,
    request: () => patch(`${snapshots}/snap-none-000000`, { snapshot: { name: "kept" } })
  },
  {
    endpoint: Api.Snapshots.update,
    label: "a project with a pending operation",
    status: 423,
    request: givenSnapshotBusy(patch(`${snapshots}/${snapshotId}`, { snapshot: { name: "kept" } }))
  },
  {
    endpoint: Api.Snapshots.delete,
    label: "a snapshot",
    status: 202,
    request: givenSnapshot(del(`${snapshots}/${snapshotId}`))
  },
  {
    endpoint: Api.Snapshots.delete,
    label: "an unknown snapshot",
    status: 404,
    request: () => del(`${snapshots}/snap-none-000000`)
  },
  {
    endpoint: Api.Snapshots.delete,
    label: "a bad snapshot id",
    status: 400,
    request: () => del(`${snapshots}/SNAP_NONE`)
  },
  {
    endpoint: Api.Snapshots.delete,
    label: "a project with a pending operation",
    status: 423,
    request: givenSnapshotBusy(del(`${snapshots}/${snapshotId}`))
  },
  {
    endpoint: Api.Snapshots.restore,
    label: "to a new branch",
    status: 200,
    request: givenSnapshot(post(`${snapshots}/${snapshotId}/restore`, { name: "dev-before" }))
  },
  {
    endpoint: Api.Snapshots.restore,
    label: "finalized at once (the compute endpoint moves)",
    status: 200,
    request: givenSnapshot(
      post(`${snapshots}/${snapshotId}/restore`, { target_branch_id: dev, finalize_restore: true })
    )
  },
  {
    endpoint: Api.Snapshots.restore,
    label: "finalize_restore not a boolean",
    status: 400,
    request: givenSnapshot(post(`${snapshots}/${snapshotId}/restore`, { finalize_restore: "yes" }))
  },
  {
    endpoint: Api.Snapshots.restore,
    label: "an unknown snapshot",
    status: 404,
    request: () => post(`${snapshots}/snap-none-000000/restore`)
  },
  {
    endpoint: Api.Snapshots.restore,
    label: "a taken name",
    status: 409,
    request: givenSnapshot(post(`${snapshots}/${snapshotId}/restore`, { name: "main" }))
  },
  {
    endpoint: Api.Snapshots.restore,
    label: "a project with a pending operation",
    status: 423,
    request: givenSnapshotBusy(post(`${snapshots}/${snapshotId}/restore`))
  },
  {
    endpoint: Api.Snapshots.finalizeRestore,
    label: "a restored branch",
    status: 200,
    request: givenSnapshot(post(`${branches}/${restoredBranch}/finalize_restore`, { name: "dev-replaced" }))
  },
  {
    endpoint: Api.Snapshots.finalizeRestore,
    label: "a branch not restored from a snapshot",
    status: 400,
    request: givenSnapshot(post(`${branches}/${dev}/finalize_restore`))
  },
  {
    endpoint: Api.Snapshots.finalizeRestore,
    label: "an unknown branch",
    status: 404,
    request: () => post(`${branches}/br-none-000000/finalize_restore`)
  },
  {
    endpoint: Api.Snapshots.finalizeRestore,
    label: "a taken name for the original",
    status: 409,
    request: givenSnapshot(post(`${branches}/${restoredBranch}/finalize_restore`, { name: "main" }))
  },
  {
    endpoint: Api.Snapshots.finalizeRestore,
    label: "a project with a pending operation",
    status: 423,
    request: givenSnapshotBusy(post(`${branches}/${restoredBranch}/finalize_restore`))
  },
  {
    endpoint: Api.Snapshots.getBackupSchedule,
    label: "none",
    status: 200,
    request: () => get(`${branches}/${dev}/backup_schedule`)
  },
  {
    endpoint: Api.Snapshots.getBackupSchedule,
    label: "a schedule",
    status: 200,
    request: ({ fake, key }) =>
      Effect.zipRight(
        Effect.flatMap(
          put(`${branches}/${dev}/backup_schedule`, { schedule: [{ frequency: "weekly", day: 7, hour: 2 }] }),
          (request) => send(fake, request, { key })
        ),
        get(`${branches}/${dev}/backup_schedule`)
      ).pipe(Effect.orDie)
  },
  {
    endpoint: Api.Snapshots.getBackupSchedule,
    label: "an unknown branch",
    status: 404,
    request: () => get(`${branches}/br-none-000000/backup_schedule`)
  },
  {
    endpoint: Api.Snapshots.getBackupSchedule,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/backup_schedule`)
  },
  {
    endpoint: Api.Snapshots.setBackupSchedule,
    label: "daily, kept a day",
    status: 200,
    request: () =>
      put(`${branches}/${dev}/backup_schedule`, {
        schedule: [{ frequency: "daily", hour: 3, retention_seconds: 86_400 }]
      })
  },
  {
    endpoint: Api.Snapshots.setBackupSchedule,
    label: "a retention under an hour",
    status: 400,
    request: () =>
      put(`${branches}/${dev}/backup_schedule`, { schedule: [{ frequency: "daily", retention_seconds: 60 }] })
  },
  {
    endpoint: Api.Snapshots.setBackupSchedule,
    label: "a frequency the platform does not know",
    status: 400,
    request: () => put(`${branches}/${dev}/backup_schedule`, { schedule: [{ frequency: "fortnightly" }] })
  },
  {
    endpoint: Api.Snapshots.setBackupSchedule,
    label: "an unknown branch",
    status: 404,
    request: () => put(`${branches}/br-none-000000/backup_schedule`, { schedule: [] })
  },
  {
    endpoint: Api.Snapshots.setBackupSchedule,
    label: "a project with a pending operation",
    status: 423,
    request: givenSnapshotBusy(put(`${branches}/${dev}/backup_schedule`, { schedule: [] }))
  }
]

// --- The app backend (docs/contract.md §25-§27) -------------------------------------------

const dataApi = `${branches}/${dev}/data-api/neondb`
const auth = `${branches}/${dev}/auth`
const jwks = `/projects/${project}/jwks`
const enableAuth = () => post(auth, { auth_provider: "better_auth" })
const jwksBody = { jwks_url: "https://auth.example.com/.well-known/jwks.json", provider_name: "Clerk" }
const delWith = (path: string, body: unknown) =>
  HttpClientRequest.del(path).pipe(HttpClientRequest.bodyJson(body), Effect.orDie)

/**
 * `request` sent after the requests of `setup`, each of which must succeed (else a defect), and,
 * with `busy`, while the project has a pending operation.
 */
const after =
  (
    setup: ReadonlyArray<() => Effect.Effect<HttpClientRequest.HttpClientRequest>>,
    request: Effect.Effect<HttpClientRequest.HttpClientRequest>,
    options: { readonly busy?: boolean } = {}
  ) =>
  ({ fake, key }: Fixture) =>
    Effect.gen(function* () {
      for (const step of setup) {
        const response = yield* Effect.orDie(send(fake, yield* step(), { key }))
        if (response.status >= 300) return yield* Effect.dieMessage(`a setup request answered ${response.status}`)
      }
      if (options.busy === true) yield* busy(fake)
      return yield* request
    })

/** The id of a JWKS added to the project, the clock then moved past the operations it started. */
const addedJwks = ({ fake, key }: Fixture) =>
  Effect.gen(function* () {
    const response = yield* Effect.orDie(send(fake, yield* post(jwks, jwksBody), { key }))
    const added = (yield* Effect.orDie(response.json)) as { readonly jwks: { readonly id: string } }
    return added.jwks.id
  })

// --- Neon Auth: users, sign-in, email, plugins, webhooks, legacy (docs/contract.md §26.4-§26.8) ---

const badAuth = `${branches}/BR_NONE/auth`
const smtpServer = {
  host: "smtp.example.com",
  port: 587,
  username: "mailer",
  password: "smtp-password",
  sender_email: "auth@example.com",
  sender_name: "Example"
}
const enableMainAuth = () => post(`${branches}/${main}/auth`, { auth_provider: "better_auth" })
const legacyBody = { project_id: project, auth_provider: "better_auth" }

/** The id of a user added to `dev`'s auth, enabled first. */
const addedUser = ({ fake, key }: Fixture) =>
  Effect.gen(function* () {
    yield* Effect.orDie(send(fake, yield* enableAuth(), { key }))
    const response = yield* Effect.orDie(
      send(fake, yield* post(`${auth}/users`, { email: "ada@example.com" }), { key })
    )
    return ((yield* Effect.orDie(response.json)) as { readonly id: string }).id
  })

/**
 * The three cases of a route of `dev`'s auth: `ok` after auth is enabled (200 unless said), 404 on
 * a branch without auth, 400 for a malformed branch id.
 */
const authRouteCases = (
  endpoint: Endpoint.Endpoint,
  path: string,
  request: (path: string) => Effect.Effect<HttpClientRequest.HttpClientRequest>
): ReadonlyArray<Case> => [
  { endpoint, label: "a branch with auth", status: 200, request: after([enableAuth], request(`${auth}${path}`)) },
  { endpoint, label: "a branch without auth", status: 404, request: () => request(`${auth}${path}`) },
  { endpoint, label: "a bad branch id", status: 400, request: () => request(`${badAuth}${path}`) }
]

const neonAuthCases: ReadonlyArray<Case> = [
  {
    endpoint: Api.BranchAuth.createAuthProviderSdkKeys,
    label: "the default branch's auth",
    status: 201,
    request: after([enableMainAuth], post("/projects/auth/keys", legacyBody))
  },
  {
    endpoint: Api.BranchAuth.createAuthProviderSdkKeys,
    label: "an unknown provider",
    status: 400,
    request: () => post("/projects/auth/keys", { ...legacyBody, auth_provider: "keycloak" })
  },
  {
    endpoint: Api.BranchAuth.createAuthProviderSdkKeys,
    label: "a project without auth",
    status: 404,
    request: () => post("/projects/auth/keys", legacyBody)
  },
  {
    endpoint: Api.BranchAuth.transferAuthProviderProject,
    label: "the default branch's auth",
    status: 200,
    request: after([enableMainAuth], post("/projects/auth/transfer_ownership", legacyBody))
  },
  {
    endpoint: Api.BranchAuth.transferAuthProviderProject,
    label: "no project id",
    status: 400,
    request: () => post("/projects/auth/transfer_ownership", { auth_provider: "better_auth" })
  },
  {
    endpoint: Api.BranchAuth.transferAuthProviderProject,
    label: "an unknown project",
    status: 404,
    request: () => post("/projects/auth/transfer_ownership", { ...legacyBody, project_id: "no-such-project" })
  },
  {
    endpoint: Api.BranchAuth.createUser,
    label: "a new user",
    status: 201,
    request: after([enableAuth], post(`${auth}/users`, { email: "ada@example.com", name: "Ada" }))
  },
  {
    endpoint: Api.BranchAuth.createUser,
    label: "not an email",
    status: 400,
    request: after([enableAuth], post(`${auth}/users`, { email: "ada" }))
  },
  {
    endpoint: Api.BranchAuth.createUser,
    label: "a branch without auth",
    status: 404,
    request: () => post(`${auth}/users`, { email: "ada@example.com" })
  },
  {
    endpoint: Api.BranchAuth.createUser,
    label: "an email taken",
    status: 409,
    request: after(
      [enableAuth, () => post(`${auth}/users`, { email: "ada@example.com" })],
      post(`${auth}/users`, { email: "ada@example.com" })
    )
  },
  {
    endpoint: Api.BranchAuth.deleteUser,
    label: "a user",
    status: 204,
    request: (fixture) => Effect.flatMap(addedUser(fixture), (id) => del(`${auth}/users/${id}`))
  },
  {
    endpoint: Api.BranchAuth.deleteUser,
    label: "a bad branch id",
    status: 400,
    request: () => del(`${badAuth}/users/some-user`)
  },
  {
    endpoint: Api.BranchAuth.deleteUser,
    label: "an unknown user",
    status: 404,
    request: after([enableAuth], del(`${auth}/users/no-such-user`))
  },
  {
    endpoint: Api.BranchAuth.updateUserRole,
    label: "a user",
    status: 200,
    request: (fixture) =>
      Effect.flatMap(addedUser(fixture), (id) => put(`${auth}/users/${id}/role`, { roles: ["admin"] }))
  },
  {
    endpoint: Api.BranchAuth.updateUserRole,
    label: "no role",
    status: 400,
    request: (fixture) => Effect.flatMap(addedUser(fixture), (id) => put(`${auth}/users/${id}/role`, { roles: [] }))
  },
  {
    endpoint: Api.BranchAuth.updateUserRole,
    label: "an unknown user",
    status: 404,
    request: after([enableAuth], put(`${auth}/users/no-such-user/role`, { roles: ["admin"] }))
  },
  ...authRouteCases(Api.BranchAuth.sendTestEmail, "/send_test_email", (path) =>
    post(path, { ...smtpServer, recipient_email: "ada@example.com" })
  ),
  ...authRouteCases(Api.BranchAuth.getEmailAndPassword, "/email_and_password", get),
  ...authRouteCases(Api.BranchAuth.updateEmailAndPassword, "/email_and_password", (path) =>
    patch(path, { email_verification_method: "otp" })
  ),
  ...authRouteCases(Api.BranchAuth.getEmailProvider, "/email_provider", get),
  ...authRouteCases(Api.BranchAuth.updateEmailProvider, "/email_provider", (path) =>
    patch(path, { type: "standard", ...smtpServer })
  ),
  ...authRouteCases(Api.BranchAuth.getAllowLocalhost, "/allow_localhost", get),
  ...authRouteCases(Api.BranchAuth.updateAllowLocalhost, "/allow_localhost", (path) =>
    patch(path, { allow_localhost: false })
  ),
  ...authRouteCases(Api.BranchAuth.getPlugins, "/plugins", get),
  ...authRouteCases(Api.BranchAuth.updateOrganizationPlugin, "/plugins/organization", (path) =>
    patch(path, { membership_limit: 5, creator_role: "admin" })
  ),
  ...authRouteCases(Api.BranchAuth.updateConfig, "/config", (path) => patch(path, { name: "Acme" })),
  ...authRouteCases(Api.BranchAuth.updateMagicLinkPlugin, "/plugins/magic-link", (path) =>
    patch(path, { enabled: true, expires_in: 60 })
  ),
  ...authRouteCases(Api.BranchAuth.getPhoneNumberPlugin, "/plugins/phone-number", get),
  ...authRouteCases(Api.BranchAuth.updatePhoneNumberPlugin, "/plugins/phone-number", (path) =>
    patch(path, { enabled: true, otp_expires_in: 120 })
  ),
  ...authRouteCases(Api.BranchAuth.getWebhooks, "/webhooks", get),
  ...authRouteCases(Api.BranchAuth.updateWebhooks, "/webhooks", (path) =>
    put(path, { enabled: true, webhook_url: "https://hooks.example.com/auth", enabled_events: ["user.created"] })
  )
]

/** The Data API, branch auth and JWKS cases (docs/contract.md §25-§27). */
const appBackendCases: ReadonlyArray<Case> = [
  {
    endpoint: Api.DataApi.get,
    label: "a Data API",
    status: 200,
    request: after([() => post(dataApi, {})], get(dataApi))
  },
  { endpoint: Api.DataApi.get, label: "a database without one", status: 404, request: () => get(dataApi) },
  {
    endpoint: Api.DataApi.get,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/data-api/neondb`)
  },
  {
    endpoint: Api.DataApi.create,
    label: "with settings",
    status: 201,
    request: () => post(dataApi, { settings: { db_max_rows: 100, db_schemas: ["public"] } })
  },
  {
    endpoint: Api.DataApi.create,
    label: "an external provider without jwks_url",
    status: 400,
    request: () => post(dataApi, { auth_provider: "external" })
  },
  {
    endpoint: Api.DataApi.create,
    label: "an unknown database",
    status: 404,
    request: () => post(`${branches}/${dev}/data-api/none`, {})
  },
  {
    endpoint: Api.DataApi.create,
    label: "a second one",
    status: 409,
    request: after([() => post(dataApi, {})], post(dataApi, {}))
  },
  {
    endpoint: Api.DataApi.create,
    label: "a project with a pending operation",
    status: 423,
    request: after([], post(dataApi, {}), { busy: true })
  },
  {
    endpoint: Api.DataApi.update,
    label: "its settings",
    status: 201,
    request: after([() => post(dataApi, {})], patch(dataApi, { settings: { db_schemas: ["public", "api"] } }))
  },
  {
    endpoint: Api.DataApi.update,
    label: "a negative db_max_rows",
    status: 400,
    request: after([() => post(dataApi, {})], patch(dataApi, { settings: { db_max_rows: -1 } }))
  },
  { endpoint: Api.DataApi.update, label: "a database without one", status: 404, request: () => patch(dataApi, {}) },
  {
    endpoint: Api.DataApi.update,
    label: "a project with a pending operation",
    status: 423,
    request: after([() => post(dataApi, {})], patch(dataApi, {}), { busy: true })
  },
  {
    endpoint: Api.DataApi.delete,
    label: "a Data API",
    status: 200,
    request: after([() => post(dataApi, {})], del(dataApi))
  },
  {
    endpoint: Api.DataApi.delete,
    label: "a bad branch id",
    status: 400,
    request: () => del(`${branches}/BR_NONE/data-api/neondb`)
  },
  { endpoint: Api.DataApi.delete, label: "a database without one", status: 404, request: () => del(dataApi) },
  {
    endpoint: Api.DataApi.delete,
    label: "a project with a pending operation",
    status: 423,
    request: after([() => post(dataApi, {})], del(dataApi), { busy: true })
  },
  { endpoint: Api.BranchAuth.get, label: "a branch's auth", status: 200, request: after([enableAuth], get(auth)) },
  { endpoint: Api.BranchAuth.get, label: "a branch without auth", status: 404, request: () => get(auth) },
  {
    endpoint: Api.BranchAuth.get,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/auth`)
  },
  { endpoint: Api.BranchAuth.create, label: "its keys, once", status: 201, request: enableAuth },
  {
    endpoint: Api.BranchAuth.create,
    label: "a provider the platform does not offer",
    status: 400,
    request: () => post(auth, { auth_provider: "keycloak" })
  },
  {
    endpoint: Api.BranchAuth.create,
    label: "an unknown database",
    status: 404,
    request: () => post(auth, { auth_provider: "mock", database_name: "none" })
  },
  {
    endpoint: Api.BranchAuth.create,
    label: "a second enable",
    status: 409,
    request: after([enableAuth], enableAuth())
  },
  {
    endpoint: Api.BranchAuth.create,
    label: "a project with a pending operation",
    status: 423,
    request: after([], enableAuth(), { busy: true })
  },
  { endpoint: Api.BranchAuth.disable, label: "a branch's auth", status: 200, request: after([enableAuth], del(auth)) },
  {
    endpoint: Api.BranchAuth.disable,
    label: "delete_data not a boolean",
    status: 400,
    request: after([enableAuth], delWith(auth, { delete_data: "yes" }))
  },
  {
    endpoint: Api.BranchAuth.disable,
    label: "a branch without auth",
    status: 404,
    request: () => delWith(auth, { delete_data: true })
  },
  {
    endpoint: Api.BranchAuth.disable,
    label: "a project with a pending operation",
    status: 423,
    request: after([enableAuth], del(auth), { busy: true })
  },
  {
    endpoint: Api.BranchAuth.listDomains,
    label: "a trusted domain",
    status: 200,
    request: after(
      [enableAuth, () => post(`${auth}/domains`, { domain: "https://app.example.com", auth_provider: "better_auth" })],
      get(`${auth}/domains`)
    )
  },
  {
    endpoint: Api.BranchAuth.listDomains,
    label: "a branch without auth",
    status: 404,
    request: () => get(`${auth}/domains`)
  },
  {
    endpoint: Api.BranchAuth.listDomains,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/auth/domains`)
  },
  {
    endpoint: Api.BranchAuth.addDomain,
    label: "a domain",
    status: 201,
    request: after(
      [enableAuth],
      post(`${auth}/domains`, { domain: "https://app.example.com", auth_provider: "better_auth" })
    )
  },
  {
    endpoint: Api.BranchAuth.addDomain,
    label: "not an absolute URL",
    status: 400,
    request: after([enableAuth], post(`${auth}/domains`, { domain: "app", auth_provider: "better_auth" }))
  },
  {
    endpoint: Api.BranchAuth.addDomain,
    label: "a branch without auth",
    status: 404,
    request: () => post(`${auth}/domains`, { domain: "https://app.example.com", auth_provider: "better_auth" })
  },
  {
    endpoint: Api.BranchAuth.deleteDomains,
    label: "a trusted domain",
    status: 200,
    request: after(
      [enableAuth, () => post(`${auth}/domains`, { domain: "https://app.example.com", auth_provider: "better_auth" })],
      delWith(`${auth}/domains`, { auth_provider: "better_auth", domains: [{ domain: "https://app.example.com" }] })
    )
  },
  {
    endpoint: Api.BranchAuth.deleteDomains,
    label: "no domains",
    status: 400,
    request: after([enableAuth], delWith(`${auth}/domains`, { auth_provider: "better_auth" }))
  },
  {
    endpoint: Api.BranchAuth.deleteDomains,
    label: "a branch without auth",
    status: 404,
    request: () => delWith(`${auth}/domains`, { auth_provider: "better_auth", domains: [] })
  },
  {
    endpoint: Api.BranchAuth.listOAuthProviders,
    label: "a provider with the app's credentials",
    status: 200,
    request: after(
      [
        enableAuth,
        () => post(`${auth}/oauth_providers`, { id: "github", client_id: "gh", client_secret: "gh-secret" })
      ],
      get(`${auth}/oauth_providers`)
    )
  },
  {
    endpoint: Api.BranchAuth.listOAuthProviders,
    label: "a branch without auth",
    status: 404,
    request: () => get(`${auth}/oauth_providers`)
  },
  {
    endpoint: Api.BranchAuth.listOAuthProviders,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/auth/oauth_providers`)
  },
  {
    endpoint: Api.BranchAuth.addOAuthProvider,
    label: "a shared provider",
    status: 200,
    request: after([enableAuth], post(`${auth}/oauth_providers`, { id: "google" }))
  },
  {
    endpoint: Api.BranchAuth.addOAuthProvider,
    label: "a provider the platform does not offer",
    status: 400,
    request: after([enableAuth], post(`${auth}/oauth_providers`, { id: "gitlab" }))
  },
  {
    endpoint: Api.BranchAuth.addOAuthProvider,
    label: "a branch without auth",
    status: 404,
    request: () => post(`${auth}/oauth_providers`, { id: "google" })
  },
  {
    endpoint: Api.BranchAuth.addOAuthProvider,
    label: "added twice",
    status: 409,
    request: after(
      [enableAuth, () => post(`${auth}/oauth_providers`, { id: "google" })],
      post(`${auth}/oauth_providers`, { id: "google" })
    )
  },
  {
    endpoint: Api.BranchAuth.updateOAuthProvider,
    label: "its credentials",
    status: 200,
    request: after(
      [enableAuth, () => post(`${auth}/oauth_providers`, { id: "google" })],
      patch(`${auth}/oauth_providers/google`, { client_id: "g", client_secret: "g-secret" })
    )
  },
  {
    endpoint: Api.BranchAuth.updateOAuthProvider,
    label: "a tenant for another provider than microsoft",
    status: 400,
    request: after(
      [enableAuth, () => post(`${auth}/oauth_providers`, { id: "google" })],
      patch(`${auth}/oauth_providers/google`, { microsoft_tenant_id: "tenant" })
    )
  },
  {
    endpoint: Api.BranchAuth.updateOAuthProvider,
    label: "a provider not added",
    status: 404,
    request: after([enableAuth], patch(`${auth}/oauth_providers/vercel`, { client_id: "v" }))
  },
  {
    endpoint: Api.BranchAuth.deleteOAuthProvider,
    label: "a provider",
    status: 200,
    request: after(
      [enableAuth, () => post(`${auth}/oauth_providers`, { id: "google" })],
      del(`${auth}/oauth_providers/google`)
    )
  },
  {
    endpoint: Api.BranchAuth.deleteOAuthProvider,
    label: "a bad branch id",
    status: 400,
    request: () => del(`${branches}/BR_NONE/auth/oauth_providers/google`)
  },
  {
    endpoint: Api.BranchAuth.deleteOAuthProvider,
    label: "a provider not added",
    status: 404,
    request: after([enableAuth], del(`${auth}/oauth_providers/google`))
  },
  {
    endpoint: Api.Jwks.list,
    label: "a project's",
    status: 200,
    request: after([() => post(jwks, jwksBody)], get(jwks))
  },
  {
    endpoint: Api.Jwks.list,
    label: "an unknown project",
    status: 404,
    request: () => get("/projects/none-000000/jwks")
  },
  { endpoint: Api.Jwks.list, label: "a bad project id", status: 400, request: () => get("/projects/NOT_AN_ID/jwks") },
  { endpoint: Api.Jwks.add, label: "with its apply_config", status: 201, request: () => post(jwks, jwksBody) },
  {
    endpoint: Api.Jwks.add,
    label: "an http:// URL",
    status: 400,
    request: () => post(jwks, { ...jwksBody, jwks_url: "http://auth.example.com/jwks" })
  },
  {
    endpoint: Api.Jwks.add,
    label: "an unknown branch",
    status: 404,
    request: () => post(jwks, { ...jwksBody, branch_id: "br-none-000000" })
  },
  {
    endpoint: Api.Jwks.add,
    label: "a project with a pending operation",
    status: 423,
    request: after([], post(jwks, jwksBody), { busy: true })
  },
  {
    endpoint: Api.Jwks.delete,
    label: "a JWKS",
    status: 200,
    request: (fixture) =>
      Effect.gen(function* () {
        const id = yield* addedJwks(fixture)
        yield* TestClock.adjust("1 minute")
        return yield* del(`${jwks}/${id}`)
      })
  },
  {
    endpoint: Api.Jwks.delete,
    label: "a bad project id",
    status: 400,
    request: () => del("/projects/NOT_AN_ID/jwks/x")
  },
  { endpoint: Api.Jwks.delete, label: "an unknown JWKS", status: 404, request: () => del(`${jwks}/none`) },
  {
    endpoint: Api.Jwks.delete,
    label: "while its apply_config runs",
    status: 423,
    request: (fixture) => Effect.flatMap(addedJwks(fixture), (id) => del(`${jwks}/${id}`))
  }
]

// --- Functions (docs/contract.md §29) ----------------------------------------------------------

const functionsPath = `${branches}/${dev}/functions`
/** The smallest ZIP archive: an empty one's end record. */
const emptyZip = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0)])
/** A deployment's `multipart/form-data` body: `parts` by name, a `Uint8Array` a file part. */
const deploy = (slug: string, parts: Readonly<Record<string, string | Uint8Array>>) =>
  Effect.sync(() => {
    const data = new FormData()
    for (const [name, value] of Object.entries(parts)) {
      if (typeof value === "string") data.append(name, value)
      else data.append(name, new Blob([new Uint8Array(value)], { type: "application/zip" }), `${name}.zip`)
    }
    return HttpClientRequest.post(`${functionsPath}/${slug}/deployments`).pipe(HttpClientRequest.bodyFormData(data))
  })
const deployHello = () => deploy("hello", { zip: emptyZip, environment: '{"KEY":"VALUE"}' })

const functionCases: ReadonlyArray<Case> = [
  { endpoint: Api.Functions.list, label: "none yet", status: 200, request: () => get(functionsPath) },
  {
    endpoint: Api.Functions.list,
    label: "one deployed, a page of 1",
    status: 200,
    request: after([deployHello], get(`${functionsPath}?limit=1`))
  },
  {
    endpoint: Api.Functions.list,
    label: "an unknown branch",
    status: 404,
    request: () => get(`${branches}/br-none-000000/functions`)
  },
  { endpoint: Api.Functions.list, label: "a limit of 0", status: 400, request: () => get(`${functionsPath}?limit=0`) },
  {
    endpoint: Api.Functions.get,
    label: "one being built",
    status: 200,
    request: after([deployHello], get(`${functionsPath}/hello`))
  },
  {
    endpoint: Api.Functions.get,
    label: "one built",
    status: 200,
    request: (fixture) =>
      Effect.gen(function* () {
        yield* after([deployHello], get(`${functionsPath}/hello`))(fixture)
        yield* TestClock.adjust("1 minute")
        return yield* get(`${functionsPath}/hello`)
      })
  },
  { endpoint: Api.Functions.get, label: "an unknown slug", status: 404, request: () => get(`${functionsPath}/none`) },
  { endpoint: Api.Functions.get, label: "a bad slug", status: 400, request: () => get(`${functionsPath}/Not-A-Slug`) },
  {
    endpoint: Api.Functions.update,
    label: "renamed",
    status: 200,
    request: after([deployHello], patch(`${functionsPath}/hello`, { name: "Hello" }))
  },
  {
    endpoint: Api.Functions.update,
    label: "a blank name",
    status: 400,
    request: after([deployHello], patch(`${functionsPath}/hello`, { name: "  " }))
  },
  {
    endpoint: Api.Functions.update,
    label: "an unknown slug",
    status: 404,
    request: () => patch(`${functionsPath}/none`, { name: "x" })
  },
  {
    endpoint: Api.Functions.delete,
    label: "a function",
    status: 204,
    request: after([deployHello], del(`${functionsPath}/hello`))
  },
  {
    endpoint: Api.Functions.delete,
    label: "an unknown slug",
    status: 404,
    request: () => del(`${functionsPath}/none`)
  },
  { endpoint: Api.Functions.delete, label: "a bad slug", status: 400, request: () => del(`${functionsPath}/A_B`) },
  { endpoint: Api.Functions.createDeployment, label: "the first, with a zip", status: 201, request: deployHello },
  {
    endpoint: Api.Functions.createDeployment,
    label: "the first, without a zip",
    status: 400,
    request: () => deploy("hello", { runtime: "nodejs24" })
  },
  {
    endpoint: Api.Functions.createDeployment,
    label: "an unknown branch",
    status: 404,
    request: () =>
      Effect.map(deployHello(), (request) =>
        HttpClientRequest.setUrl(request, `${branches}/br-none-000000/functions/hello/deployments`)
      )
  }
]

export const cases: ReadonlyArray<Case> = [
  {
    endpoint: Api.ApiKeys.create,
    label: "a key created",
    status: 200,
    request: () =>
      HttpClientRequest.post("/api_keys").pipe(HttpClientRequest.bodyJson({ key_name: "ci" }), Effect.orDie)
  },
  {
    endpoint: Api.ApiKeys.create,
    label: "no key_name",
    status: 400,
    request: () => HttpClientRequest.post("/api_keys").pipe(HttpClientRequest.bodyJson({}), Effect.orDie)
  },
  {
    endpoint: Api.ApiKeys.create,
    label: "no API key",
    status: 401,
    anonymous: true,
    request: () =>
      HttpClientRequest.post("/api_keys").pipe(HttpClientRequest.bodyJson({ key_name: "ci" }), Effect.orDie)
  },
  { endpoint: Api.ApiKeys.list, label: "the keys", status: 200, request: () => get("/api_keys") },
  {
    endpoint: Api.ApiKeys.revoke,
    label: "a key revoked",
    status: 200,
    request: ({ fake }) =>
      Effect.map(fake.scenario.addApiKey("to revoke"), (key) => HttpClientRequest.del(`/api_keys/${key.id}`))
  },
  {
    endpoint: Api.ApiKeys.revoke,
    label: "an unknown key",
    status: 404,
    request: () => get("/api_keys/42").pipe(Effect.map(HttpClientRequest.setMethod("DELETE")))
  },
  {
    endpoint: Api.ApiKeys.revoke,
    label: "a key id that is not a number",
    status: 400,
    request: () => Effect.succeed(HttpClientRequest.del("/api_keys/abc"))
  },
  { endpoint: Api.Projects.list, label: "a page", status: 200, request: () => get("/projects?limit=2") },
  {
    endpoint: Api.Projects.list,
    label: "a limit too large",
    status: 400,
    request: () => get("/projects?limit=401")
  },
  { endpoint: Api.Projects.listShared, label: "a page", status: 200, request: () => get("/projects/shared") },
  {
    endpoint: Api.Projects.listShared,
    label: "a bad cursor",
    status: 400,
    request: () => get("/projects/shared?cursor=nope")
  },
  {
    endpoint: Api.Operations.list,
    label: "a page",
    status: 200,
    request: () => get(`/projects/${project}/operations?limit=5`)
  },
  {
    endpoint: Api.Operations.list,
    label: "a pending one",
    status: 200,
    request: () => get(`/projects/${pendingProject}/operations`)
  },
  {
    endpoint: Api.Operations.list,
    label: "an unknown project",
    status: 404,
    request: () => get("/projects/no-such-project/operations")
  },
  {
    endpoint: Api.Operations.list,
    label: "a limit of 0",
    status: 400,
    request: () => get(`/projects/${project}/operations?limit=0`)
  },
  {
    endpoint: Api.Operations.get,
    label: "a finished one",
    status: 200,
    request: () => get(`/projects/${project}/operations/${operationId(1)}`)
  },
  {
    endpoint: Api.Operations.get,
    label: "a failed one",
    status: 200,
    request: () => get(`/projects/${project}/operations/${operationId(2)}`)
  },
  {
    endpoint: Api.Operations.get,
    label: "an unknown operation",
    status: 404,
    request: () => get(`/projects/${project}/operations/${operationId(99)}`)
  },
  {
    endpoint: Api.Operations.get,
    label: "an id that is not a UUID",
    status: 400,
    request: () => get(`/projects/${project}/operations/nope`)
  },
  { endpoint: Api.Branches.list, label: "all", status: 200, request: () => get(branches) },
  {
    endpoint: Api.Branches.list,
    label: "a page with a next one",
    status: 200,
    request: () => get(`${branches}?limit=1&sort_by=name&sort_order=asc`)
  },
  {
    endpoint: Api.Branches.list,
    label: "an unknown project",
    status: 404,
    request: () => get("/projects/no-such-project/branches")
  },
  {
    endpoint: Api.Branches.list,
    label: "an unknown sort",
    status: 400,
    request: () => get(`${branches}?sort_by=size`)
  },
  {
    endpoint: Api.Branches.count,
    label: "a count",
    status: 200,
    request: () => get(`${branches}/count?search=de`)
  },
  {
    endpoint: Api.Branches.count,
    label: "an unknown project",
    status: 404,
    request: () => get("/projects/no-such-project/branches/count")
  },
  {
    endpoint: Api.Branches.count,
    label: "a bad project id",
    status: 400,
    request: () => get("/projects/NO_SUCH/branches/count")
  },
  { endpoint: Api.Branches.create, label: "no body", status: 201, request: () => post(branches) },
  {
    endpoint: Api.Branches.create,
    label: "with a compute endpoint",
    status: 201,
    request: () => post(branches, { branch: { name: "preview", parent_id: dev }, endpoints: [{ type: "read_write" }] })
  },
  {
    endpoint: Api.Branches.create,
    label: "two read_write endpoints",
    status: 400,
    request: () => post(branches, { endpoints: [{ type: "read_write" }, { type: "read_write" }] })
  },
  {
    endpoint: Api.Branches.create,
    label: "an unknown parent",
    status: 404,
    request: () => post(branches, { branch: { parent_id: "br-none-000000" } })
  },
  {
    endpoint: Api.Branches.create,
    label: "a taken name",
    status: 409,
    request: () => post(branches, { branch: { name: "dev" } })
  },
  {
    endpoint: Api.Branches.create,
    label: "a project with a pending operation",
    status: 423,
    request: () => post(`/projects/${pendingProject}/branches`)
  },
  { endpoint: Api.Branches.get, label: "a branch", status: 200, request: () => get(`${branches}/${dev}`) },
  {
    endpoint: Api.Branches.get,
    label: "an unknown branch",
    status: 404,
    request: () => get(`${branches}/br-none-000000`)
  },
  { endpoint: Api.Branches.get, label: "a bad branch id", status: 400, request: () => get(`${branches}/BR_NONE`) },
  {
    endpoint: Api.Branches.update,
    label: "a rename",
    status: 200,
    request: () => patch(`${branches}/${dev}`, { branch: { name: "develop", protected: true } })
  },
  {
    endpoint: Api.Branches.update,
    label: "an empty name",
    status: 400,
    request: () => patch(`${branches}/${dev}`, { branch: { name: "" } })
  },
  {
    endpoint: Api.Branches.update,
    label: "an unknown branch",
    status: 404,
    request: () => patch(`${branches}/br-none-000000`, { branch: {} })
  },
  {
    endpoint: Api.Branches.update,
    label: "a taken name",
    status: 409,
    request: () => patch(`${branches}/${dev}`, { branch: { name: "main" } })
  },
  {
    endpoint: Api.Branches.update,
    label: "a project with a pending operation",
    status: 423,
    request: ({ fake }) => Effect.zipRight(busy(fake), patch(`${branches}/${dev}`, { branch: { name: "x" } }))
  },
  {
    endpoint: Api.Branches.delete,
    label: "a leaf branch",
    status: 200,
    request: () => del(`${branches}/${feature}`)
  },
  {
    endpoint: Api.Branches.delete,
    label: "a branch already gone",
    status: 204,
    request: () => del(`${branches}/br-none-000000`)
  },
  {
    endpoint: Api.Branches.delete,
    label: "the default branch",
    status: 400,
    request: () => del(`${branches}/${main}`)
  },
  {
    endpoint: Api.Branches.delete,
    label: "a branch with children",
    status: 400,
    request: () => del(`${branches}/${dev}`)
  },
  {
    endpoint: Api.Branches.delete,
    label: "an unknown project",
    status: 404,
    request: () => del(`/projects/no-such-project/branches/${dev}`)
  },
  {
    endpoint: Api.Branches.delete,
    label: "a project with a pending operation",
    status: 423,
    request: ({ fake }) => Effect.zipRight(busy(fake), del(`${branches}/${feature}`))
  },
  {
    endpoint: Api.Branches.restore,
    label: "from its parent, keeping the old state",
    status: 200,
    request: () => post(`${branches}/${dev}/restore`, { source_branch_id: main, preserve_under_name: "dev-before" })
  },
  {
    endpoint: Api.Branches.restore,
    label: "no source",
    status: 400,
    request: () => post(`${branches}/${dev}/restore`, {})
  },
  {
    endpoint: Api.Branches.restore,
    label: "an unknown source",
    status: 404,
    request: () => post(`${branches}/${dev}/restore`, { source_branch_id: "br-none-000000" })
  },
  {
    endpoint: Api.Branches.restore,
    label: "a taken name to keep the old state under",
    status: 409,
    request: () => post(`${branches}/${dev}/restore`, { source_branch_id: main, preserve_under_name: "feature" })
  },
  {
    endpoint: Api.Branches.restore,
    label: "a project with a pending operation",
    status: 423,
    request: ({ fake }) => Effect.zipRight(busy(fake), post(`${branches}/${dev}/restore`, { source_branch_id: main }))
  },
  {
    endpoint: Api.Branches.setAsDefault,
    label: "a child",
    status: 200,
    request: () => post(`${branches}/${dev}/set_as_default`)
  },
  {
    endpoint: Api.Branches.setAsDefault,
    label: "a bad branch id",
    status: 400,
    request: () => post(`${branches}/BR_NONE/set_as_default`)
  },
  {
    endpoint: Api.Branches.setAsDefault,
    label: "an unknown branch",
    status: 404,
    request: () => post(`${branches}/br-none-000000/set_as_default`)
  },
  {
    endpoint: Api.Branches.setAsDefault,
    label: "a project with a pending operation",
    status: 423,
    request: ({ fake }) => Effect.zipRight(busy(fake), post(`${branches}/${dev}/set_as_default`))
  },
  {
    endpoint: Api.Branches.listEndpoints,
    label: "a branch's",
    status: 200,
    request: () => get(`${branches}/${dev}/endpoints`)
  },
  {
    endpoint: Api.Branches.listEndpoints,
    label: "an unknown branch",
    status: 404,
    request: () => get(`${branches}/br-none-000000/endpoints`)
  },
  {
    endpoint: Api.Branches.listEndpoints,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/endpoints`)
  },
  {
    endpoint: Api.Databases.list,
    label: "a branch's",
    status: 200,
    request: given(get(databases))
  },
  {
    endpoint: Api.Databases.list,
    label: "an unknown branch",
    status: 404,
    request: () => get(`${branches}/br-none-000000/databases`)
  },
  {
    endpoint: Api.Databases.list,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/databases`)
  },
  {
    endpoint: Api.Databases.create,
    label: "owned by a role of the branch",
    status: 201,
    request: given(post(databases, { database: { name: "shop", owner_name: "loose" } }))
  },
  {
    endpoint: Api.Databases.create,
    label: "no owner",
    status: 400,
    request: given(post(databases, { database: { name: "shop" } }))
  },
  {
    endpoint: Api.Databases.create,
    label: "an owner the branch does not have",
    status: 404,
    request: given(post(databases, { database: { name: "shop", owner_name: "nobody" } }))
  },
  {
    endpoint: Api.Databases.create,
    label: "a taken name",
    status: 409,
    request: given(post(databases, { database: { name: "app", owner_name: "loose" } }))
  },
  {
    endpoint: Api.Databases.create,
    label: "a project with a pending operation",
    status: 423,
    request: givenBusy(post(databases, { database: { name: "shop", owner_name: "loose" } }))
  },
  { endpoint: Api.Databases.get, label: "a database", status: 200, request: given(get(`${databases}/app`)) },
  {
    endpoint: Api.Databases.get,
    label: "an unknown database",
    status: 404,
    request: given(get(`${databases}/none`))
  },
  {
    endpoint: Api.Databases.get,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/databases/app`)
  },
  {
    endpoint: Api.Databases.update,
    label: "renamed, another owner",
    status: 200,
    request: given(patch(`${databases}/app`, { database: { name: "shop", owner_name: "loose" } }))
  },
  {
    endpoint: Api.Databases.update,
    label: "a name of 64 bytes",
    status: 400,
    request: given(patch(`${databases}/app`, { database: { name: "d".repeat(64) } }))
  },
  {
    endpoint: Api.Databases.update,
    label: "an unknown database",
    status: 404,
    request: given(patch(`${databases}/none`, { database: { name: "shop" } }))
  },
  {
    endpoint: Api.Databases.update,
    label: "a taken name",
    status: 409,
    request: given(patch(`${databases}/app`, { database: { name: "other" } }))
  },
  {
    endpoint: Api.Databases.update,
    label: "a project with a pending operation",
    status: 423,
    request: givenBusy(patch(`${databases}/app`, { database: { name: "shop" } }))
  },
  { endpoint: Api.Databases.delete, label: "a database", status: 200, request: given(del(`${databases}/app`)) },
  {
    endpoint: Api.Databases.delete,
    label: "a database already gone",
    status: 204,
    request: given(del(`${databases}/none`))
  },
  {
    endpoint: Api.Databases.delete,
    label: "a bad branch id",
    status: 400,
    request: () => del(`${branches}/BR_NONE/databases/app`)
  },
  {
    endpoint: Api.Databases.delete,
    label: "an unknown branch",
    status: 404,
    request: () => del(`${branches}/br-none-000000/databases/app`)
  },
  {
    endpoint: Api.Databases.delete,
    label: "a project with a pending operation",
    status: 423,
    request: givenBusy(del(`${databases}/app`))
  },
  { endpoint: Api.Roles.list, label: "a branch's", status: 200, request: given(get(roles)) },
  {
    endpoint: Api.Roles.list,
    label: "an unknown branch",
    status: 404,
    request: () => get(`${branches}/br-none-000000/roles`)
  },
  {
    endpoint: Api.Roles.list,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/roles`)
  },
  {
    endpoint: Api.Roles.create,
    label: "with its password",
    status: 201,
    request: given(post(roles, { role: { name: "ci" } }))
  },
  {
    endpoint: Api.Roles.create,
    label: "a name of 64 bytes",
    status: 400,
    request: given(post(roles, { role: { name: "r".repeat(64) } }))
  },
  {
    endpoint: Api.Roles.create,
    label: "an unknown branch",
    status: 404,
    request: () => post(`${branches}/br-none-000000/roles`, { role: { name: "ci" } })
  },
  {
    endpoint: Api.Roles.create,
    label: "a taken name",
    status: 409,
    request: given(post(roles, { role: { name: "owner" } }))
  },
  {
    endpoint: Api.Roles.create,
    label: "a project with a pending operation",
    status: 423,
    request: givenBusy(post(roles, { role: { name: "ci" } }))
  },
  { endpoint: Api.Roles.get, label: "a role", status: 200, request: given(get(`${roles}/owner`)) },
  { endpoint: Api.Roles.get, label: "an unknown role", status: 404, request: given(get(`${roles}/none`)) },
  {
    endpoint: Api.Roles.get,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/roles/owner`)
  },
  {
    endpoint: Api.Roles.delete,
    label: "a role that owns no database",
    status: 200,
    request: given(del(`${roles}/loose`))
  },
  { endpoint: Api.Roles.delete, label: "a role already gone", status: 204, request: given(del(`${roles}/none`)) },
  {
    endpoint: Api.Roles.delete,
    label: "a role that owns a database",
    status: 400,
    request: given(del(`${roles}/owner`))
  },
  {
    endpoint: Api.Roles.delete,
    label: "an unknown branch",
    status: 404,
    request: () => del(`${branches}/br-none-000000/roles/owner`)
  },
  {
    endpoint: Api.Roles.delete,
    label: "a project with a pending operation",
    status: 423,
    request: givenBusy(del(`${roles}/loose`))
  },
  {
    endpoint: Api.Roles.revealPassword,
    label: "a role's",
    status: 200,
    request: given(get(`${roles}/owner/reveal_password`))
  },
  {
    endpoint: Api.Roles.revealPassword,
    label: "an unknown role",
    status: 404,
    request: given(get(`${roles}/none/reveal_password`))
  },
  {
    endpoint: Api.Roles.revealPassword,
    label: "a bad branch id",
    status: 400,
    request: () => get(`${branches}/BR_NONE/roles/owner/reveal_password`)
  },
  {
    endpoint: Api.Roles.resetPassword,
    label: "a new password",
    status: 200,
    request: given(post(`${roles}/owner/reset_password`))
  },
  {
    endpoint: Api.Roles.resetPassword,
    label: "a protected role",
    status: 400,
    request: given(post(`${roles}/system/reset_password`))
  },
  {
    endpoint: Api.Roles.resetPassword,
    label: "an unknown role",
    status: 404,
    request: given(post(`${roles}/none/reset_password`))
  },
  {
    endpoint: Api.Roles.resetPassword,
    label: "a project with a pending operation",
    status: 423,
    request: givenBusy(post(`${roles}/owner/reset_password`))
  },
  {
    endpoint: Api.Projects.create,
    label: "the defaults",
    status: 201,
    request: () => post("/projects", { project: {} })
  },
  {
    endpoint: Api.Projects.create,
    label: "every field",
    status: 201,
    request: () =>
      post("/projects", {
        project: {
          name: "ci",
          region_id: "aws-eu-central-1",
          pg_version: 16,
          history_retention_seconds: 3600,
          default_endpoint_settings: {
            autoscaling_limit_min_cu: 0.5,
            autoscaling_limit_max_cu: 2,
            suspend_timeout_seconds: 60
          },
          org_id: "org-ci-100001",
          branch: { name: "trunk", role_name: "app", database_name: "appdb" }
        }
      })
  },
  {
    endpoint: Api.Projects.create,
    label: "a Postgres version out of range",
    status: 400,
    request: () => post("/projects", { project: { pg_version: 13 } })
  },
  {
    endpoint: Api.Projects.create,
    label: "a minimum above the maximum",
    status: 400,
    request: () =>
      post("/projects", {
        project: { default_endpoint_settings: { autoscaling_limit_min_cu: 2, autoscaling_limit_max_cu: 1 } }
      })
  },
  { endpoint: Api.Projects.get, label: "a project", status: 200, request: () => get(`/projects/${project}`) },
  {
    endpoint: Api.Projects.get,
    label: "a shared project",
    status: 200,
    request: () => get("/projects/shared-leaf-100001")
  },
  {
    endpoint: Api.Projects.get,
    label: "an unknown project",
    status: 404,
    request: () => get("/projects/no-such-project")
  },
  { endpoint: Api.Projects.get, label: "a bad project id", status: 400, request: () => get("/projects/NO_SUCH") },
  {
    endpoint: Api.Projects.update,
    label: "a new retention",
    status: 200,
    request: () => patch(`/projects/${project}`, { project: { history_retention_seconds: 7200 } })
  },
  {
    endpoint: Api.Projects.update,
    label: "a new name and endpoint settings",
    status: 200,
    request: () =>
      patch(`/projects/${project}`, {
        project: { name: "renamed", default_endpoint_settings: { suspend_timeout_seconds: -1 } }
      })
  },
  {
    endpoint: Api.Projects.update,
    label: "a retention over 30 days",
    status: 400,
    request: () => patch(`/projects/${project}`, { project: { history_retention_seconds: 2_592_001 } })
  },
  {
    endpoint: Api.Projects.update,
    label: "an unknown project",
    status: 404,
    request: () => patch("/projects/no-such-project", { project: { name: "x" } })
  },
  {
    endpoint: Api.Projects.update,
    label: "a project with a pending operation",
    status: 423,
    request: () => patch(`/projects/${pendingProject}`, { project: { name: "x" } })
  },
  { endpoint: Api.Projects.delete, label: "a project", status: 200, request: () => del(`/projects/${project}`) },
  {
    endpoint: Api.Projects.delete,
    label: "an unknown project",
    status: 404,
    request: () => del("/projects/no-such-project")
  },
  { endpoint: Api.Projects.delete, label: "a bad project id", status: 400, request: () => del("/projects/NO_SUCH") },
  {
    endpoint: Api.Projects.delete,
    label: "by a key scoped to the project",
    status: 403,
    anonymous: true,
    request: (fixture) =>
      Effect.map(organizationKey(fixture, { key_name: "app", project_id: project }), (created) =>
        HttpClientRequest.bearerToken(HttpClientRequest.del(`/projects/${project}`), created.key)
      )
  },
  {
    endpoint: Api.Projects.delete,
    label: "a project with a pending operation",
    status: 423,
    request: () => del(`/projects/${pendingProject}`)
  },
  { endpoint: Api.ComputeEndpoints.list, label: "a project's", status: 200, request: () => get(endpoints) },
  {
    endpoint: Api.ComputeEndpoints.list,
    label: "an unknown project",
    status: 404,
    request: () => get("/projects/no-such-project/endpoints")
  },
  {
    endpoint: Api.ComputeEndpoints.list,
    label: "a bad project id",
    status: 400,
    request: () => get("/projects/NO_SUCH/endpoints")
  },
  {
    endpoint: Api.ComputeEndpoints.create,
    label: "a read_only one",
    status: 201,
    request: () => post(endpoints, { endpoint: { branch_id: dev, type: "read_only", suspend_timeout_seconds: -1 } })
  },
  {
    endpoint: Api.ComputeEndpoints.create,
    label: "a minimum above the maximum",
    status: 400,
    request: () =>
      post(endpoints, {
        endpoint: { branch_id: main, type: "read_write", autoscaling_limit_min_cu: 2, autoscaling_limit_max_cu: 1 }
      })
  },
  {
    endpoint: Api.ComputeEndpoints.create,
    label: "an unknown branch",
    status: 404,
    request: () => post(endpoints, { endpoint: { branch_id: "br-none-000000", type: "read_only" } })
  },
  {
    endpoint: Api.ComputeEndpoints.create,
    label: "a second read_write on a branch",
    status: 409,
    request: () => post(endpoints, { endpoint: { branch_id: dev, type: "read_write" } })
  },
  {
    endpoint: Api.ComputeEndpoints.create,
    label: "a project with a pending operation",
    status: 423,
    request: ({ fake }) =>
      Effect.zipRight(busy(fake), post(endpoints, { endpoint: { branch_id: main, type: "read_write" } }))
  },
  {
    endpoint: Api.ComputeEndpoints.get,
    label: "a compute endpoint",
    status: 200,
    request: () => get(`${endpoints}/${devEndpoint}`)
  },
  {
    endpoint: Api.ComputeEndpoints.get,
    label: "an unknown one",
    status: 404,
    request: () => get(`${endpoints}/ep-none-000000`)
  },
  {
    endpoint: Api.ComputeEndpoints.get,
    label: "a bad id",
    status: 400,
    request: () => get(`${endpoints}/EP_NONE`)
  },
  {
    endpoint: Api.ComputeEndpoints.update,
    label: "a new suspend timeout",
    status: 200,
    request: () => patch(`${endpoints}/${devEndpoint}`, { endpoint: { suspend_timeout_seconds: 600 } })
  },
  {
    endpoint: Api.ComputeEndpoints.update,
    label: "a minimum above the maximum",
    status: 400,
    request: () => patch(`${endpoints}/${devEndpoint}`, { endpoint: { autoscaling_limit_min_cu: 4 } })
  },
  {
    endpoint: Api.ComputeEndpoints.update,
    label: "an unknown one",
    status: 404,
    request: () => patch(`${endpoints}/ep-none-000000`, { endpoint: {} })
  },
  {
    endpoint: Api.ComputeEndpoints.update,
    label: "a project with a pending operation",
    status: 423,
    request: ({ fake }) =>
      Effect.zipRight(busy(fake), patch(`${endpoints}/${devEndpoint}`, { endpoint: { suspend_timeout_seconds: 60 } }))
  },
  {
    endpoint: Api.ComputeEndpoints.delete,
    label: "an active one",
    status: 200,
    request: () => del(`${endpoints}/${devEndpoint}`)
  },
  {
    endpoint: Api.ComputeEndpoints.delete,
    label: "one already gone",
    status: 204,
    request: () => del(`${endpoints}/ep-none-000000`)
  },
  {
    endpoint: Api.ComputeEndpoints.delete,
    label: "a bad id",
    status: 400,
    request: () => del(`${endpoints}/EP_NONE`)
  },
  {
    endpoint: Api.ComputeEndpoints.delete,
    label: "an unknown project",
    status: 404,
    request: () => del(`/projects/no-such-project/endpoints/${devEndpoint}`)
  },
  {
    endpoint: Api.ComputeEndpoints.delete,
    label: "a project with a pending operation",
    status: 423,
    request: ({ fake }) => Effect.zipRight(busy(fake), del(`${endpoints}/${devEndpoint}`))
  },
  ...(
    [
      [Api.ComputeEndpoints.start, "start"],
      [Api.ComputeEndpoints.suspend, "suspend"],
      [Api.ComputeEndpoints.restart, "restart"]
    ] as const
  ).flatMap(
    ([endpoint, action]): ReadonlyArray<Case> => [
      {
        endpoint,
        label: "an active one",
        status: 200,
        request: () => post(`${endpoints}/${devEndpoint}/${action}`)
      },
      {
        endpoint,
        label: "an idle one",
        status: 200,
        request: ({ fake, key }) =>
          Effect.gen(function* () {
            yield* Effect.orDie(send(fake, yield* post(`${endpoints}/${devEndpoint}/suspend`), { key }))
            yield* TestClock.adjust("1 minute")
            return yield* post(`${endpoints}/${devEndpoint}/${action}`)
          }).pipe(Effect.scoped, Effect.orDie)
      },
      { endpoint, label: "a bad id", status: 400, request: () => post(`${endpoints}/EP_NONE/${action}`) },
      { endpoint, label: "an unknown one", status: 404, request: () => post(`${endpoints}/ep-none-000000/${action}`) },
      {
        endpoint,
        label: "a project with a pending operation",
        status: 423,
        request: ({ fake }) => Effect.zipRight(busy(fake), post(`${endpoints}/${devEndpoint}/${action}`))
      }
    ]
  ),
  {
    endpoint: Api.Connections.uri,
    label: "a branch's",
    status: 200,
    request: () => get(`${connectionUri}?database_name=neondb&role_name=neondb_owner&branch_id=${dev}`)
  },
  {
    endpoint: Api.Connections.uri,
    label: "through a compute endpoint's pooler",
    status: 200,
    request: () =>
      get(`${connectionUri}?database_name=neondb&role_name=neondb_owner&endpoint_id=ep-dev-100002&pooled=true`)
  },
  {
    endpoint: Api.Connections.uri,
    label: "no role_name",
    status: 400,
    request: () => get(`${connectionUri}?database_name=neondb&branch_id=${dev}`)
  },
  {
    endpoint: Api.Connections.uri,
    label: "an unknown role",
    status: 404,
    request: () => get(`${connectionUri}?database_name=neondb&role_name=nobody&branch_id=${dev}`)
  },
  {
    endpoint: Api.Connections.uri,
    label: "a default branch without a compute endpoint",
    status: 404,
    request: () => get(`${connectionUri}?database_name=neondb&role_name=neondb_owner`)
  },
  { endpoint: Api.Regions.list, label: "the regions", status: 200, request: () => get("/regions") },
  {
    endpoint: Api.Regions.list,
    label: "a malformed org_id",
    status: 400,
    request: () => get("/regions?org_id=NOT_AN_ORG")
  },
  ...consumptionCases(),
  ...organizationCases,
  ...accessCases,
  // Organization API keys (docs/contract.md §21), of the seed's organization.
  {
    endpoint: Api.OrganizationApiKeys.list,
    label: "the organization's keys",
    status: 200,
    request: (fixture) => Effect.zipRight(organizationKey(fixture, { key_name: "ci" }), get(organizationKeys))
  },
  {
    endpoint: Api.OrganizationApiKeys.list,
    label: "an unknown organization",
    status: 404,
    request: () => get("/organizations/org-unknown-1/api_keys")
  },
  {
    endpoint: Api.OrganizationApiKeys.list,
    label: "a key scoped to one project",
    status: 403,
    anonymous: true,
    request: (fixture) =>
      Effect.map(organizationKey(fixture, { key_name: "app", project_id: project }), (created) =>
        HttpClientRequest.bearerToken(HttpClientRequest.get(organizationKeys), created.key)
      )
  },
  {
    endpoint: Api.OrganizationApiKeys.list,
    label: "a revoked organization key",
    status: 401,
    anonymous: true,
    request: (fixture) =>
      Effect.gen(function* () {
        const created = yield* organizationKey(fixture, { key_name: "gone" })
        yield* send(fixture.fake, HttpClientRequest.del(`${organizationKeys}/${created.id}`), { key: fixture.key })
        return HttpClientRequest.bearerToken(HttpClientRequest.get(organizationKeys), created.key)
      }).pipe(Effect.orDie)
  },
  {
    endpoint: Api.OrganizationApiKeys.list,
    label: "an org_id that is no id",
    status: 400,
    request: () => get("/organizations/Not_An_Org/api_keys")
  },
  {
    endpoint: Api.OrganizationApiKeys.create,
    label: "a key created",
    status: 200,
    request: () => post(organizationKeys, { key_name: "ci" })
  },
  {
    endpoint: Api.OrganizationApiKeys.create,
    label: "a key created for one project",
    status: 200,
    request: () => post(organizationKeys, { key_name: "app", project_id: project })
  },
  {
    endpoint: Api.OrganizationApiKeys.create,
    label: "no key_name",
    status: 400,
    request: () => post(organizationKeys, {})
  },
  {
    endpoint: Api.OrganizationApiKeys.create,
    label: "a project not of the organization",
    status: 404,
    request: () => post(organizationKeys, { key_name: "app", project_id: "no-such-project-1" })
  },
  {
    endpoint: Api.OrganizationApiKeys.create,
    label: "by an organization key",
    status: 403,
    anonymous: true,
    request: (fixture) =>
      Effect.flatMap(organizationKey(fixture, { key_name: "ci" }), (created) =>
        Effect.map(post(organizationKeys, { key_name: "more" }), HttpClientRequest.bearerToken(created.key))
      )
  },
  {
    endpoint: Api.OrganizationApiKeys.revoke,
    label: "a key revoked",
    status: 200,
    request: (fixture) =>
      Effect.map(organizationKey(fixture, { key_name: "to revoke" }), (created) =>
        HttpClientRequest.del(`${organizationKeys}/${created.id}`)
      )
  },
  {
    endpoint: Api.OrganizationApiKeys.revoke,
    label: "a personal key's id",
    status: 404,
    request: () => del(`${organizationKeys}/1`)
  },
  {
    endpoint: Api.OrganizationApiKeys.revoke,
    label: "by a key scoped to one project",
    status: 403,
    anonymous: true,
    request: (fixture) =>
      Effect.map(organizationKey(fixture, { key_name: "app", project_id: project }), (created) =>
        HttpClientRequest.bearerToken(HttpClientRequest.del(`${organizationKeys}/${created.id}`), created.key)
      )
  },
  {
    endpoint: Api.OrganizationApiKeys.revoke,
    label: "a key id that is not a number",
    status: 400,
    request: () => del(`${organizationKeys}/abc`)
  },
  {
    endpoint: Api.BranchSchema.get,
    label: "a database's schema as SQL",
    status: 200,
    request: ({ fake }) => Effect.as(migrated(fake), HttpClientRequest.get(`${branches}/${dev}/schema?db_name=neondb`))
  },
  {
    endpoint: Api.BranchSchema.get,
    label: "a database's schema as JSON, at a time",
    status: 200,
    request: ({ fake }) =>
      Effect.as(
        migrated(fake),
        HttpClientRequest.get(`${branches}/${dev}/schema?db_name=neondb&format=json&timestamp=1970-01-01T00:00:00Z`)
      )
  },
  {
    endpoint: Api.BranchSchema.get,
    label: "both lsn and timestamp",
    status: 400,
    request: () => get(`${branches}/${dev}/schema?db_name=neondb&lsn=0/0&timestamp=1970-01-01T00:00:00Z`)
  },
  {
    endpoint: Api.BranchSchema.get,
    label: "an unknown database",
    status: 404,
    request: () => get(`${branches}/${dev}/schema?db_name=nothing`)
  },
  {
    endpoint: Api.BranchSchema.compare,
    label: "a diff against the parent",
    status: 200,
    request: ({ fake }) =>
      Effect.as(migrated(fake), HttpClientRequest.get(`${branches}/${dev}/compare_schema?db_name=neondb`))
  },
  {
    endpoint: Api.BranchSchema.compare,
    label: "a branch without a parent, and no base",
    status: 400,
    request: () => get(`${branches}/${main}/compare_schema?db_name=neondb`)
  },
  {
    endpoint: Api.BranchSchema.compare,
    label: "an unknown base branch",
    status: 404,
    request: () => get(`${branches}/${dev}/compare_schema?db_name=neondb&base_branch_id=br-none-100009`)
  },
  // Branch lifecycle (docs/contract.md §18): expiry, schema-only, points in time, recovery.
  {
    endpoint: Api.Branches.create,
    label: "expiring, archived",
    status: 201,
    request: () =>
      post(branches, { branch: { name: "preview/pr-1", expires_at: "2099-01-01T00:00:00Z", archived: true } })
  },
  {
    endpoint: Api.Branches.create,
    label: "schema-only",
    status: 201,
    request: () => post(branches, { branch: { name: "schema", parent_id: dev, init_source: "schema-only" } })
  },
  {
    endpoint: Api.Branches.create,
    label: "a minute ago",
    status: 201,
    request: () =>
      Effect.flatMap(secondsFromNow(-60), (at) => post(branches, { branch: { name: "pitr", parent_timestamp: at } }))
  },
  {
    endpoint: Api.Branches.create,
    label: "a point before the history window",
    status: 400,
    request: () => post(branches, { branch: { parent_timestamp: "2000-01-01T00:00:00Z" } })
  },
  {
    endpoint: Api.Branches.create,
    label: "an expiry in the past",
    status: 400,
    request: () => Effect.flatMap(secondsFromNow(-3600), (at) => post(branches, { branch: { expires_at: at } }))
  },
  {
    endpoint: Api.Branches.update,
    label: "an expiry set",
    status: 200,
    request: () => patch(`${branches}/${dev}`, { branch: { expires_at: "2099-01-01T00:00:00Z" } })
  },
  {
    endpoint: Api.Branches.update,
    label: "an expiry cleared",
    status: 200,
    request: () => patch(`${branches}/${dev}`, { branch: { expires_at: null } })
  },
  {
    endpoint: Api.Branches.update,
    label: "an expiry on the default branch",
    status: 400,
    request: () => patch(`${branches}/${main}`, { branch: { expires_at: "2099-01-01T00:00:00Z" } })
  },
  {
    endpoint: Api.Projects.list,
    label: "the recoverable projects",
    status: 200,
    request: ({ fake, key }) =>
      Effect.zipRight(
        send(fake, HttpClientRequest.del(`/projects/${project}`), { key }).pipe(Effect.orDie),
        get("/projects?recoverable=true")
      )
  },
  {
    endpoint: Api.Projects.list,
    label: "recoverable not a boolean",
    status: 400,
    request: () => get("/projects?recoverable=maybe")
  },
  {
    endpoint: Api.Projects.recover,
    label: "a deleted project",
    status: 200,
    request: ({ fake, key }) =>
      Effect.zipRight(
        send(fake, HttpClientRequest.del(`/projects/${project}`), { key }).pipe(Effect.orDie),
        post(`/projects/${project}/recover`)
      )
  },
  {
    endpoint: Api.Projects.recover,
    label: "an unknown project",
    status: 404,
    request: () => post("/projects/no-such-project/recover")
  },
  {
    endpoint: Api.Projects.recover,
    label: "a project that is not deleted",
    status: 409,
    request: () => post(`/projects/${project}/recover`)
  },
  {
    endpoint: Api.Projects.recover,
    label: "a bad project id",
    status: 400,
    request: () => post("/projects/NO_SUCH/recover")
  },
  // Anonymized branches (docs/contract.md §18.4): `anon`, a child of `dev`, made first where needed.
  {
    endpoint: Api.Branches.createAnonymized,
    label: "with masking rules and a compute endpoint",
    status: 201,
    request: () => post(anonymizedBranches, anonymizedBody)
  },
  {
    endpoint: Api.Branches.createAnonymized,
    label: "a column named twice",
    status: 400,
    request: () => post(anonymizedBranches, { masking_rules: [emailRule, { ...emailRule, masking_value: "x" }] })
  },
  {
    endpoint: Api.Branches.createAnonymized,
    label: "an unknown parent",
    status: 404,
    request: () => post(anonymizedBranches, { branch_create: { branch: { parent_id: "br-none-100009" } } })
  },
  {
    endpoint: Api.Branches.createAnonymized,
    label: "a name taken",
    status: 409,
    request: () => post(anonymizedBranches, { branch_create: { branch: { name: "dev" } } })
  },
  {
    endpoint: Api.Branches.createAnonymized,
    label: "a project with a pending operation",
    status: 423,
    request: () => post(`/projects/${pendingProject}/branch_anonymized`, {})
  },
  {
    endpoint: Api.Branches.getMaskingRules,
    label: "an anonymized branch's",
    status: 200,
    request: withAnonymized((branch) => get(`${branches}/${branch}/masking_rules`))
  },
  {
    endpoint: Api.Branches.getMaskingRules,
    label: "a branch not anonymized",
    status: 400,
    request: () => get(`${branches}/${dev}/masking_rules`)
  },
  {
    endpoint: Api.Branches.getMaskingRules,
    label: "an unknown branch",
    status: 404,
    request: () => get(`${branches}/br-none-100009/masking_rules`)
  },
  {
    endpoint: Api.Branches.updateMaskingRules,
    label: "replaced",
    status: 200,
    request: withAnonymized((branch) =>
      patch(`${branches}/${branch}/masking_rules`, { masking_rules: [{ ...emailRule, masking_value: "hidden" }] })
    )
  },
  {
    endpoint: Api.Branches.updateMaskingRules,
    label: "a branch not anonymized",
    status: 400,
    request: () => patch(`${branches}/${dev}/masking_rules`, { masking_rules: [] })
  },
  {
    endpoint: Api.Branches.updateMaskingRules,
    label: "an unknown branch",
    status: 404,
    request: () => patch(`${branches}/br-none-100009/masking_rules`, { masking_rules: [] })
  },
  {
    endpoint: Api.Branches.updateMaskingRules,
    label: "while anonymizing",
    status: 409,
    request: withAnonymized((branch) => patch(`${branches}/${branch}/masking_rules`, { masking_rules: [] }), {
      anonymizing: true
    })
  },
  {
    endpoint: Api.Branches.getAnonymizedStatus,
    label: "initialized",
    status: 200,
    request: withAnonymized((branch) => get(`${branches}/${branch}/anonymized_status`))
  },
  {
    endpoint: Api.Branches.getAnonymizedStatus,
    label: "a branch not anonymized",
    status: 400,
    request: () => get(`${branches}/${dev}/anonymized_status`)
  },
  {
    endpoint: Api.Branches.getAnonymizedStatus,
    label: "an unknown branch",
    status: 404,
    request: () => get(`${branches}/br-none-100009/anonymized_status`)
  },
  {
    endpoint: Api.Branches.startAnonymization,
    label: "from initialized",
    status: 200,
    request: withAnonymized((branch) => post(`${branches}/${branch}/anonymize`))
  },
  {
    endpoint: Api.Branches.startAnonymization,
    label: "while anonymizing",
    status: 409,
    request: withAnonymized((branch) => post(`${branches}/${branch}/anonymize`), { anonymizing: true })
  },
  {
    endpoint: Api.Branches.startAnonymization,
    label: "a branch not anonymized",
    status: 400,
    request: () => post(`${branches}/${dev}/anonymize`)
  },
  {
    endpoint: Api.Branches.startAnonymization,
    label: "an unknown branch",
    status: 404,
    request: () => post(`${branches}/br-none-100009/anonymize`)
  },
  // A branch's credentials (docs/contract.md §11.7).
  {
    endpoint: Api.Credentials.list,
    label: "one active, one revoked",
    status: 200,
    request: ({ fake, key }) =>
      Effect.gen(function* () {
        yield* credentialOf({ fake, key }, "ci")
        const revoked = yield* credentialOf({ fake, key }, "old")
        const gone = yield* Effect.orDie(send(fake, HttpClientRequest.del(`${credentials}/${revoked}`), { key }))
        expect(gone.status).toBe(204)
        return yield* get(credentials)
      })
  },
  {
    endpoint: Api.Credentials.list,
    label: "an unknown branch",
    status: 404,
    request: () => get(`${branches}/br-none-100009/credentials`)
  },
  {
    endpoint: Api.Credentials.list,
    label: "a malformed branch id",
    status: 400,
    request: () => get(`${branches}/BR/credentials`)
  },
  {
    endpoint: Api.Credentials.create,
    label: "named, two scopes",
    status: 201,
    request: () => post(credentials, { name: "ci", scopes: ["storage:read", "storage:write"], principal_type: "user" })
  },
  {
    endpoint: Api.Credentials.create,
    label: "no scope",
    status: 400,
    request: () => post(credentials, { scopes: [], principal_type: "user" })
  },
  {
    endpoint: Api.Credentials.create,
    label: "an unknown branch",
    status: 404,
    request: () => post(`${branches}/br-none-100009/credentials`, { scopes: ["storage:read"], principal_type: "user" })
  },
  {
    endpoint: Api.Credentials.revoke,
    label: "a credential",
    status: 204,
    request: (fixture) =>
      Effect.flatMap(credentialOf(fixture, "ci"), (tokenId) =>
        Effect.succeed(HttpClientRequest.del(`${credentials}/${tokenId}`))
      )
  },
  {
    endpoint: Api.Credentials.revoke,
    label: "an unknown credential",
    status: 404,
    request: () => del(`${credentials}/nak_live_00000000000000000000000000000000`)
  },
  {
    endpoint: Api.Credentials.revoke,
    label: "a malformed branch id",
    status: 400,
    request: () => del(`${branches}/BR/credentials/nak_live_00000000000000000000000000000000`)
  },
  // The project advisor (docs/contract.md §14.6): `dev`'s `neondb` with a table, its Data API on.
  {
    endpoint: Api.Projects.listAdvisorIssues,
    label: "a database with its Data API on",
    status: 200,
    request: ({ fake, key }) =>
      Effect.gen(function* () {
        yield* migrated(fake)
        const on = yield* post(dataApi, {})
        expect((yield* Effect.orDie(send(fake, on, { key }))).status).toBe(201)
        return yield* get(`/projects/${project}/advisors?branch_id=${dev}&database_name=neondb`)
      })
  },
  {
    endpoint: Api.Projects.listAdvisorIssues,
    label: "the Data API off",
    status: 400,
    request: () => get(`/projects/${project}/advisors?branch_id=${dev}`)
  },
  {
    endpoint: Api.Projects.listAdvisorIssues,
    label: "an unknown branch",
    status: 404,
    request: () => get(`/projects/${project}/advisors?branch_id=br-none-100009`)
  },
  // Branch recovery (docs/contract.md §18.3): `feature`, a leaf, deleted first.
  {
    endpoint: Api.Branches.recover,
    label: "a branch deleted within its window",
    status: 200,
    request: afterDeleting(feature, () => post(`${branches}/${feature}/recover`))
  },
  {
    endpoint: Api.Branches.recover,
    label: "a branch never deleted",
    status: 404,
    request: () => post(`${branches}/br-none-100009/recover`)
  },
  {
    endpoint: Api.Branches.recover,
    label: "a branch not deleted",
    status: 409,
    request: () => post(`${branches}/${dev}/recover`)
  },
  {
    endpoint: Api.Branches.recover,
    label: "its parent deleted too",
    status: 400,
    request: afterDeleting(feature, ({ fake, key }) =>
      Effect.gen(function* () {
        const parent = yield* Effect.orDie(send(fake, HttpClientRequest.del(`${branches}/${dev}`), { key }))
        expect(parent.status).toBe(200)
        yield* TestClock.adjust("1 minute")
        return yield* post(`${branches}/${feature}/recover`)
      })
    )
  },
  {
    endpoint: Api.Branches.recover,
    label: "its name taken since",
    status: 409,
    request: afterDeleting(feature, ({ fake, key }) =>
      Effect.gen(function* () {
        const created = yield* post(branches, { branch: { name: "feature", parent_id: dev } })
        expect((yield* Effect.orDie(send(fake, created, { key }))).status).toBe(201)
        return yield* post(`${branches}/${feature}/recover`)
      })
    )
  },
  {
    endpoint: Api.Projects.listAvailablePreloadLibraries,
    label: "the project's Postgres version",
    status: 200,
    request: () => get(`/projects/${project}/available_preload_libraries`)
  },
  {
    endpoint: Api.Projects.listAvailablePreloadLibraries,
    label: "an unknown project",
    status: 404,
    request: () => get("/projects/no-such-project/available_preload_libraries")
  },
  {
    endpoint: Api.Projects.listAvailablePreloadLibraries,
    label: "a bad project id",
    status: 400,
    request: () => get("/projects/NO_SUCH/available_preload_libraries")
  },
  // Snapshots (docs/contract.md §19), with their fixtures.
  ...snapshotCases,
  ...appBackendCases,
  ...neonAuthCases,
  ...functionCases,
  ...bucketCases
]

/** The fake after a migration of `dev`'s `neondb`: a table its parent's has not. */
const migrated = (fake: FakePlatform.Service) =>
  fake.scenario
    .migrate(project, dev, "neondb", "CREATE TABLE users (id bigint PRIMARY KEY, email text NOT NULL UNIQUE)")
    .pipe(Effect.orDie)

/**
 * The consumption cases (docs/contract.md §23): the seed's projects are in the default
 * organization, on the free plan the fake implies (a 403); {@link onPlan} puts it on a paid one.
 * The clock stands at the epoch: the hour before it is the range asked.
 */
function consumptionCases(): ReadonlyArray<Case> {
  const org = "org-dbplatform-000000"
  const range = `org_id=${org}&from=1969-12-31T23:00:00Z&to=1970-01-01T00:00:00Z&granularity=hourly`
  const tooLong = `org_id=${org}&from=1969-12-24T00:00:00Z&to=1970-01-01T00:00:00Z&granularity=hourly`
  /** `request` sent once the default organization is on `plan`. */
  const onPlan =
    (plan: string, request: Effect.Effect<HttpClientRequest.HttpClientRequest>) =>
    ({ fake }: Fixture) =>
      Effect.gen(function* () {
        const snapshot = yield* fake.snapshot
        yield* fake.restore({
          ...snapshot,
          organizations: snapshot.organizations.map((organization) =>
            organization.id === org ? { ...organization, plan } : organization
          )
        })
        return yield* request
      }).pipe(Effect.orDie)
  const v2 = (
    endpoint: Endpoint.Endpoint,
    path: string,
    plan: string,
    extra: string,
    metrics: string
  ): ReadonlyArray<Case> => [
    {
      endpoint,
      label: "the hour before the clock",
      status: 200,
      request: onPlan(plan, get(`${path}?${range}&${extra}${metrics}`))
    },
    {
      endpoint,
      label: "a metric it does not report",
      status: 400,
      request: onPlan(plan, get(`${path}?${range}&${extra}metrics=no_such_metric`))
    },
    { endpoint, label: "a free plan", status: 403, request: () => get(`${path}?${range}&${extra}${metrics}`) },
    {
      endpoint,
      label: "an organization the account is not a member of",
      status: 404,
      request: onPlan(plan, get(`${path}?${range.replace(org, "org-other-000001")}&${extra}${metrics}`))
    },
    {
      endpoint,
      label: "169 hours, hourly",
      status: 406,
      request: onPlan(plan, get(`${path}?${tooLong}&${extra}${metrics}`))
    }
  ]
  return [
    ...v2(
      Api.Consumption.listProjects,
      "/consumption_history/v2/projects",
      "scale_v3",
      "",
      "metrics=compute_unit_seconds,root_branch_bytes_month,extra_branches_month"
    ),
    ...v2(
      Api.Consumption.listBranches,
      "/consumption_history/v2/branches",
      "launch_v3",
      `project_ids=${project}&`,
      "metrics=compute_unit_seconds&metrics=child_branch_bytes_month"
    ),
    ...v2(
      Api.Consumption.listProjectsLegacy,
      "/consumption_history/projects",
      "scale",
      "",
      "metrics=active_time_seconds,logical_size_bytes,data_storage_bytes_hour"
    )
  ]
}

/**
 * Error statuses an endpoint declares that the fake never answers on its own (only an injected
 * `Fault` or a rate limit does), by endpoint name: 403 (the fake answers it only to a key whose kind
 * may not call the route, docs/contract.md §21: a project's deletion by a key scoped to it),
 * and 423 for API keys (a key is never locked in the fake).
 */
const neverSentUnprompted: Readonly<Record<string, ReadonlyArray<string>>> = {
  "ApiKeys.create": ["Locked"],
  "ApiKeys.revoke": ["Locked"],
  "OrganizationApiKeys.create": ["Locked"],
  "OrganizationApiKeys.revoke": ["Locked"],
  "Operations.list": ["Forbidden"],
  "Operations.get": ["Forbidden"],
  "Branches.list": ["Forbidden"],
  "Branches.count": ["Forbidden"],
  "Branches.create": ["Forbidden"],
  "Branches.get": ["Forbidden"],
  "Branches.update": ["Forbidden"],
  "Branches.delete": ["Forbidden"],
  "Branches.restore": ["Forbidden"],
  "Branches.setAsDefault": ["Forbidden"],
  "Branches.listEndpoints": ["Forbidden"],
  "Branches.recover": ["Forbidden"],
  "Branches.createAnonymized": ["Forbidden"],
  "Branches.getMaskingRules": ["Forbidden"],
  "Branches.updateMaskingRules": ["Forbidden"],
  "Branches.getAnonymizedStatus": ["Forbidden"],
  "Branches.startAnonymization": ["Forbidden"],
  ...Object.fromEntries(Object.values(Api.Credentials).map((endpoint) => [endpoint.name, ["Forbidden"]])),
  "Projects.get": ["Forbidden"],
  "Projects.update": ["Forbidden"],
  "Projects.recover": ["Forbidden"],
  "Projects.listAvailablePreloadLibraries": ["Forbidden"],
  "Projects.listAdvisorIssues": ["Forbidden"],
  "Databases.list": ["Forbidden"],
  "Databases.create": ["Forbidden"],
  "Databases.get": ["Forbidden"],
  "Databases.update": ["Forbidden"],
  "Databases.delete": ["Forbidden"],
  "Roles.list": ["Forbidden"],
  "Roles.create": ["Forbidden"],
  "Roles.get": ["Forbidden"],
  "Roles.delete": ["Forbidden"],
  "Roles.revealPassword": ["Forbidden"],
  "Roles.resetPassword": ["Forbidden"],
  ...Object.fromEntries(Object.values(Api.ComputeEndpoints).map((endpoint) => [endpoint.name, ["Forbidden"]])),
  "Connections.uri": ["Forbidden"],
  // A project's access: the fake's account sees every project it holds (docs/contract.md §22).
  "ProjectPermissions.list": ["Forbidden"],
  "ProjectPermissions.grant": ["Forbidden"],
  "ProjectPermissions.revoke": ["Forbidden"],
  "VpcEndpoints.listRestrictions": ["Forbidden"],
  "VpcEndpoints.setRestriction": ["Forbidden"],
  "VpcEndpoints.deleteRestriction": ["Forbidden"],
  "ProjectTransfers.createRequest": ["Forbidden"],
  "ProjectTransfers.acceptRequest": ["Forbidden"],
  "BranchSchema.get": ["Forbidden"],
  "BranchSchema.compare": ["Forbidden"],
  ...Object.fromEntries(Object.values(Api.Snapshots).map((endpoint) => [endpoint.name, ["Forbidden"]]))
}

const statusOf: Readonly<Record<string, number>> = {
  BadRequest: 400,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  Locked: 423,
  NotAcceptable: 406
}

/**
 * The statuses of `endpoint` no case covers: each success status it declares, and each error
 * status it declares and the fake answers on its own. Empty when its cases are complete.
 */
export const uncovered = (endpoint: Endpoint.Endpoint): ReadonlyArray<number> => {
  const covered = new Set(cases.filter((c) => c.endpoint.name === endpoint.name).map((c) => c.status))
  const never = new Set(neverSentUnprompted[endpoint.name] ?? [])
  const wanted = [
    ...endpoint.statuses,
    ...endpoint.errors.filter((tag) => !never.has(tag)).map((tag) => statusOf[tag]!)
  ]
  return wanted.filter((status) => !covered.has(status))
}
