/**
 * The `Databases` and `Roles` services against scripted answers: an answer about another project,
 * branch, database or role than the one asked for is `MalformedResponse` (`Endpoint.problem`,
 * `docs/contract.md` §15); a revealed password decodes to `Redacted`.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as util from "node:util"
import { Databases, DbPlatform, Roles } from "../src/index.js"
import { baseUrl, branchId, operationItem, projectId, rolePassword, secret } from "./fixtures.js"
import { json, type Scripted, scripted } from "./scripted.js"

const layerFor = (script: Scripted) =>
  Layer.orDie(
    DbPlatform.layer({ baseUrl, apiKey: Redacted.make(secret), retrySchedule: Schedule.stop }).pipe(
      Layer.provide(script.layer)
    )
  )

const params = { project_id: projectId, branch_id: branchId }
const at = "2022-11-30T18:25:15Z"
const database = (branch: string, name: string) => ({
  id: 834686,
  branch_id: branch,
  name,
  owner_name: "casey",
  created_at: at,
  updated_at: at
})
const role = (branch: string, name: string, password?: string) => ({
  branch_id: branch,
  name,
  ...(password === undefined ? {} : { password }),
  protected: false,
  created_at: at,
  updated_at: at
})

describe("Databases and Roles", () => {
  it.effect("an answer about another branch, database or role is MalformedResponse", () => {
    const script = scripted([
      json(200, { databases: [database(branchId, "shop"), database("br-other-1", "shop")] }),
      json(201, { database: database(branchId, "other"), operations: [] }),
      json(200, { database: database(branchId, "shop"), operations: [] }),
      json(200, { roles: [role("br-other-1", "app")] }),
      json(200, { role: role(branchId, "other") }),
      json(200, { role: role(branchId, "other", rolePassword), operations: [] })
    ])
    return Effect.gen(function* () {
      const databases = yield* Databases.Databases
      const roles = yield* Roles.Roles
      const errors = [
        yield* Effect.flip(databases.listPage(params)),
        yield* Effect.flip(databases.create({ ...params, database: { name: "shop", owner_name: "casey" } })),
        yield* Effect.flip(databases.update({ ...params, database_name: "shop", database: { name: "store" } })),
        yield* Effect.flip(Stream.runDrain(roles.list(params))),
        yield* Effect.flip(roles.get({ ...params, role_name: "app" })),
        yield* Effect.flip(roles.resetPassword({ ...params, role_name: "app" }))
      ]
      expect(errors.map((error) => error._tag)).toEqual(Array.from({ length: 6 }, () => "MalformedResponse"))
      expect(errors.map((error) => error.message.replace(/^.*?: /, ""))).toEqual([
        expect.stringContaining(`the answer holds an item of branch_id br-other-1, not ${branchId}`),
        expect.stringContaining("the answer is about database.name other, not shop"),
        expect.stringContaining("the answer is about database.name shop, not store"),
        expect.stringContaining(`the answer holds an item of branch_id br-other-1, not ${branchId}`),
        expect.stringContaining("the answer is about role_name other, not app"),
        expect.stringContaining("the answer is about role_name other, not app")
      ])
      // The refused answer held a password: no printing of the error shows it.
      expect(
        [String(errors[5]), JSON.stringify(errors[5]), util.inspect(errors[5], { depth: 10 })].join("\n")
      ).not.toContain(rolePassword)
    }).pipe(Effect.provide(layerFor(script)))
  })

  it.effect(
    "a mutation answering operations of another project, or a database of another branch, is MalformedResponse",
    () => {
      const stranger = { ...operationItem(1), project_id: "autumn-field-118737" }
      const script = scripted([
        json(201, { role: role(branchId, "app", rolePassword), operations: [stranger] }),
        json(200, { database: database("br-other-1", "shop"), operations: [operationItem(2)] }),
        json(200, { role: role(branchId, "app"), operations: [operationItem(3), stranger] })
      ])
      return Effect.gen(function* () {
        const databases = yield* Databases.Databases
        const roles = yield* Roles.Roles
        const errors = [
          yield* Effect.flip(roles.create({ ...params, role: { name: "app" } })),
          yield* Effect.flip(databases.delete({ ...params, database_name: "shop" })),
          yield* Effect.flip(roles.delete({ ...params, role_name: "app" }))
        ]
        expect(errors.map((error) => [error._tag, error.message.replace(/^.*?: /, "")])).toEqual([
          [
            "MalformedResponse",
            expect.stringContaining(
              `the answer holds an item (${stranger.id}) of project_id autumn-field-118737, not ${projectId}`
            )
          ],
          ["MalformedResponse", expect.stringContaining(`of branch_id br-other-1, not ${branchId}`)],
          [
            "MalformedResponse",
            expect.stringContaining(
              `the answer holds an item (${stranger.id}) of project_id autumn-field-118737, not ${projectId}`
            )
          ]
        ])
        expect(String(errors[0]) + JSON.stringify(errors[0])).not.toContain(rolePassword)
      }).pipe(Effect.provide(layerFor(script)))
    }
  )

  it.effect("a revealed password decodes to Redacted", () => {
    const script = scripted([json(200, { password: rolePassword })])
    return Effect.gen(function* () {
      const roles = yield* Roles.Roles
      const answer = yield* roles.revealPassword({ ...params, role_name: "app" })
      expect(Redacted.value(answer.password)).toBe(rolePassword)
      expect([JSON.stringify(answer), String(answer), util.inspect(answer)].join("\n")).not.toContain(rolePassword)
      expect(script.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
        `GET ${baseUrl}/projects/${projectId}/branches/${branchId}/roles/app/reveal_password`
      ])
    }).pipe(Effect.provide(layerFor(script)))
  })
})
