/**
 * An organization key given to the emulator (`DBPLATFORM_EMULATOR_ORG_KEY`,
 * `Options.organizationKey`, docs/contract.md §21): a key of the account's organization, valid at
 * every start (made again valid when an earlier run revoked it), acting for that organization's
 * projects; refused when it could not be one.
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

const send = (method: string, url: string, key: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, { method, headers: { authorization: `Bearer ${key}` } })
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
