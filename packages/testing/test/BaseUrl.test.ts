/**
 * A base URL without the API's version segment (`http://host` for `http://host/api/v2`), as a
 * newcomer writes it: every route is unknown to the server, and the 404 the client fails with
 * must say what was sent and what is missing. On the fake, in memory, through the real client.
 */
import { DbPlatform, Projects } from "@dbplatform/client"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as DbPlatformTest from "../src/DbPlatformTest.js"
import * as FakeHttpClient from "../src/FakeHttpClient.js"
import * as FakePlatform from "../src/FakePlatform.js"
import { projectId } from "./helpers.js"

/** The in-memory client's base URL without `/api/v2`. */
const root = DbPlatformTest.baseUrl.replace(/\/api\/v2$/, "")

describe("a base URL without /api/v2", () => {
  it.effect("the fake's 404 route not found names the URL sent and the missing segment", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.FakePlatform
      const client = DbPlatform.layer({ baseUrl: root, apiKey: fake.bootstrapKey }).pipe(
        Layer.provide(FakeHttpClient.layer)
      )
      const error = yield* Effect.flatMap(Projects.Projects, (projects) => projects.listPage()).pipe(
        Effect.provide(client),
        Effect.flip
      )
      // NotFound on every endpoint, declared or not (docs/design.md §1.6).
      expect(error).toMatchObject({ _tag: "NotFound", status: 404, description: "route not found" })
      expect(error.message).toContain(`; sent to ${root}/projects: the base URL ${root} does not end with`)
      expect(error.message).toContain(`(is it ${root}/api/v2?)`)
      expect(error.message).not.toContain(Redacted.value(fake.bootstrapKey))
    }).pipe(Effect.provide(FakePlatform.layer({ projects: [{ id: projectId }] })))
  )
})
