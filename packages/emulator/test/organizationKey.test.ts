/**
 * An organization key given to the emulator (`DBPLATFORM_EMULATOR_ORG_KEY`,
 * `Options.organizationKey`, docs/contract.md §21): a key of the account's organization, valid at
 * every start (made again valid when an earlier run revoked it), acting for that organization's
 * projects; refused when it could not be one. In the realistic account it is a key of
 * `org-dbplatform-000000`, an organization of the account's user, who has a second one to move a
 * project to (docs/contract.md §20.4, §22.4).
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { Emulator } from "../src/index.js"

const bootstrapKey = "a-fixed-bootstrap-key"
const organizationKey = "a-fixed-organization-key"

const send = (method: string, url: string, key: string, body?: unknown) =>
  Effect.promise(async () => {
    const response = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: response.status, body: (await response.json()) as any }
  })

const run = <A, E>(
  options: Emulator.Options,
  use: (emulator: Emulator.Service) => Effect.Effect<A, E>
): Effect.Effect<A, E | Emulator.InvalidOrganizationKey | unknown> =>
  Effect.flatMap(Emulator.Emulator, use).pipe(
    Effect.provide(
      Emulator.layer({
        bootstrapKey: Redacted.make(bootstrapKey),
        organizationKey: Redacted.make(organizationKey),
        ...options
      })
    ),
    Effect.provide(NodeContext.layer)
  )

const stateDir = Effect.acquireRelease(
  Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "dbplatform-org-key-"))),
  (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
)

const seed = {
  organizations: [{ id: "org-fixed-100001" }],
  projects: [
    { id: "fixed-one-100001", org_id: "org-fixed-100001" },
    { id: "elsewhere-100002", org_id: "org-other-100002" }
  ]
}

describe("Emulator.layer's organization key", () => {
  it.scoped("acts for the account's organization, and is valid again at the next start after a revocation", () =>
    Effect.gen(function* () {
      const statePath = path.join(yield* stateDir, "state.json")
      const first = yield* run({ statePath, seed }, (emulator) =>
        Effect.gen(function* () {
          expect(emulator.organizationId).toEqual(Option.some("org-fixed-100001"))
          const projects = yield* send("GET", `${emulator.baseUrl}/projects`, organizationKey)
          expect(projects.status).toBe(200)
          expect(projects.body.projects.map((project: any) => project.id)).toEqual(["fixed-one-100001"])
          const keys = yield* send("GET", `${emulator.baseUrl}/organizations/org-fixed-100001/api_keys`, bootstrapKey)
          const key = keys.body.find((key: any) => key.name === "emulator")
          expect(key).toBeDefined()
          const revoked = yield* send(
            "DELETE",
            `${emulator.baseUrl}/organizations/org-fixed-100001/api_keys/${key.id}`,
            organizationKey
          )
          expect(revoked.status).toBe(200)
          expect((yield* send("GET", `${emulator.baseUrl}/projects`, organizationKey)).status).toBe(401)
          return key.id
        })
      )
      const again = yield* run({ statePath, seed }, (emulator) =>
        Effect.gen(function* () {
          const projects = yield* send("GET", `${emulator.baseUrl}/projects`, organizationKey)
          expect(projects.status).toBe(200)
          const keys = yield* send("GET", `${emulator.baseUrl}/organizations/org-fixed-100001/api_keys`, bootstrapKey)
          return keys.body.map((key: any) => key.id)
        })
      )
      // The same key, its id kept.
      expect(again).toEqual([first])
    })
  )

  it.effect(
    "in the realistic account, belongs to org-dbplatform-000000, an organization of the account's user: GET /auth answers it, GET /projects lists its projects",
    () =>
      run({}, (emulator) =>
        Effect.gen(function* () {
          expect(emulator.organizationId).toEqual(Option.some("org-dbplatform-000000"))
          const auth = yield* send("GET", `${emulator.baseUrl}/auth`, organizationKey)
          expect(auth).toEqual({
            status: 200,
            body: { account_id: "org-dbplatform-000000", auth_method: "api_key_org" }
          })
          // The user is a member of it: the personal key lists it among the user's organizations.
          const mine = yield* send("GET", `${emulator.baseUrl}/users/me/organizations`, bootstrapKey)
          expect(mine.body.organizations.map((organization: any) => organization.id)).toContain("org-dbplatform-000000")
          // The key's own: that one organization (docs/contract.md §20.3).
          const its = yield* send("GET", `${emulator.baseUrl}/users/me/organizations`, organizationKey)
          expect(its.body.organizations.map((organization: any) => organization.id)).toEqual(["org-dbplatform-000000"])
          // Its projects: the account's four, those the personal key reaches (the partner's is neither's).
          const listed = yield* send("GET", `${emulator.baseUrl}/projects`, organizationKey)
          expect(listed.status).toBe(200)
          const ids = listed.body.projects.map((project: any) => project.id).sort()
          expect(ids).toHaveLength(4)
          expect(listed.body.projects.every((project: any) => project.org_id === "org-dbplatform-000000")).toBe(true)
          const personal = yield* send("GET", `${emulator.baseUrl}/projects`, bootstrapKey)
          expect(personal.body.projects.map((project: any) => project.id).sort()).toEqual(ids)
        })
      )
  )

  it.effect(
    "in the realistic account, the user's project moves between its two organizations, from Personal (free_v3) to Acme Data (scale_v3)",
    () =>
      run({}, (emulator) =>
        Effect.gen(function* () {
          const base = emulator.baseUrl
          const mine = yield* send("GET", `${base}/users/me/organizations`, bootstrapKey)
          const byName = Object.fromEntries(
            mine.body.organizations.map((organization: any) => [organization.name, organization])
          )
          expect(Object.keys(byName).sort()).toEqual(["Acme Data", "Personal"])
          expect(byName["Acme Data"].plan).toBe("scale_v3")
          expect(byName.Personal.plan).toBe("free_v3")
          const acme = byName["Acme Data"].id
          const own = byName.Personal.id
          const created = yield* send("POST", `${base}/projects`, bootstrapKey, {
            project: { name: "sandbox", org_id: own }
          })
          expect(created.status).toBe(201)
          const project = created.body.project.id
          // Its creation's operations finish (a transfer waits for none: a 423 while they run).
          yield* emulator.clock.advance("1 minute")
          const moved = yield* send("POST", `${base}/organizations/${own}/projects/transfer`, bootstrapKey, {
            destination_org_id: acme,
            project_ids: [project]
          })
          expect(moved).toEqual({ status: 200, body: {} })
          const read = yield* send("GET", `${base}/projects/${project}`, bootstrapKey)
          expect(read.body.project.org_id).toBe(acme)
          // Acme Data's key now acts for it.
          const listed = yield* send("GET", `${base}/projects`, organizationKey)
          expect(listed.body.projects.map((item: any) => item.id)).toContain(project)
          // And back is refused: Personal's plan is below Acme Data's (docs/contract.md §22.4).
          const back = yield* send("POST", `${base}/organizations/${acme}/projects/transfer`, bootstrapKey, {
            destination_org_id: own,
            project_ids: [project]
          })
          expect(back.status).toBe(406)
          expect(back.body.limits).toContainEqual({
            name: "subscription_type",
            expected: "scale_v3",
            actual: "free_v3"
          })
        })
      )
  )

  it.effect("is refused when it is the bootstrap key, or the account has no organization", () =>
    Effect.gen(function* () {
      const same = yield* Effect.flip(run({ organizationKey: Redacted.make(bootstrapKey), seed }, () => Effect.void))
      expect(same).toMatchObject({ _tag: "InvalidOrganizationKey" })
      expect(String((same as Error).message)).not.toContain(bootstrapKey)
      const none = yield* Effect.flip(run({ seed: {} }, () => Effect.void))
      expect(none).toMatchObject({ _tag: "InvalidOrganizationKey" })
    })
  )
})
