/**
 * Nothing a client sends is dropped without a word (docs/design.md §1.4): the fake refuses a body
 * field or a query parameter the endpoint does not take with a 400 naming it, and changes
 * nothing. The requests are sent raw to the fake's HTTP app, so that the client's own check (which
 * refuses the same input before sending it) does not stand in front of the fake's.
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as FakePlatform from "../src/FakePlatform.js"
import type { Seed } from "../src/Seed.js"
import { isGeneralError, projectId, read, send } from "./helpers.js"

const main = "br-main-100001"

const seed: Seed = {
  projects: [{ id: projectId }],
  branches: [{ project_id: projectId, id: main, name: "main", default: true }]
}

/**
 * The fake's state, but for when its keys were last used (every request with a key updates its
 * own, docs/contract.md §5).
 */
const stateOf = (fake: FakePlatform.Service) =>
  Effect.map(fake.snapshot, (snapshot) => ({
    ...snapshot,
    api_keys: snapshot.api_keys.map(({ last_used_at: _at, last_used_from_addr: _from, ...key }) => key)
  }))

/** Sends `request` with the bootstrap key; answers its status and body, and whether the fake's state changed. */
const refusal = (fake: FakePlatform.Service, request: HttpClientRequest.HttpClientRequest) =>
  Effect.gen(function* () {
    const before = yield* stateOf(fake)
    const { body, status } = yield* read(yield* send(fake, request, { key: fake.bootstrapKey }))
    const after = yield* stateOf(fake)
    return { status, body, unchanged: JSON.stringify(after) === JSON.stringify(before) }
  })

describe("a field the endpoint does not take", () => {
  it.effect("in a body: 400 naming it, no branch created", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make(seed)
      const request = HttpClientRequest.post(`/projects/${projectId}/branches`).pipe(
        HttpClientRequest.bodyUnsafeJson({ branch: { name: "x", expires_in: "7d" } })
      )
      const { body, status, unchanged } = yield* refusal(fake, request)
      expect(status).toBe(400)
      expect(isGeneralError(body)).toBe(true)
      expect(body.message).toBe(
        'branch.expires_in: is unexpected, expected: "name" | "parent_id" | "protected" | "expires_at" | "init_source" | "parent_timestamp" | "parent_lsn" | "archived"'
      )
      expect(unchanged).toBe(true)
      expect((yield* fake.snapshot).branches.map((branch) => branch.name)).toEqual(["main"])
      expect((yield* fake.snapshot).operations).toEqual([])
    })
  )

  it.effect("at the top of a body: 400 naming it, no branch created", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make(seed)
      const request = HttpClientRequest.post(`/projects/${projectId}/branches`).pipe(
        HttpClientRequest.bodyUnsafeJson({ branch: { name: "x" }, branch_ttl: 3600 })
      )
      const { body, status, unchanged } = yield* refusal(fake, request)
      expect(status).toBe(400)
      expect(body.message).toBe('branch_ttl: is unexpected, expected: "branch" | "endpoints" | "annotation_value"')
      expect(unchanged).toBe(true)
    })
  )

  it.effect("in a query: 400 naming it, on a list and on an endpoint that takes no query", () =>
    Effect.gen(function* () {
      const fake = yield* FakePlatform.make(seed)
      const list = yield* refusal(fake, HttpClientRequest.get("/projects?bogus=1"))
      expect(list.status).toBe(400)
      expect(isGeneralError(list.body)).toBe(true)
      expect(list.body.message).toMatch(/^bogus: is unexpected, expected: "limit" \| /)
      expect(list.unchanged).toBe(true)
      const one = yield* refusal(fake, HttpClientRequest.get(`/projects/${projectId}/branches/${main}?expand=1`))
      expect(one.status).toBe(400)
      expect(one.body.message).toBe("expand: is not a field this endpoint takes")
      expect(one.unchanged).toBe(true)
      // The same requests without the unknown parameter are answered.
      const known = yield* read(
        yield* send(fake, HttpClientRequest.get("/projects?limit=1"), { key: fake.bootstrapKey })
      )
      expect(known.status).toBe(200)
    })
  )
})
