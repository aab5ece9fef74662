/**
 * The driver of the property tests that send random requests straight to the fake's HTTP app
 * (`*Property.test.ts`): a fake whose journal is kept, so that a run ends by replaying it
 * (docs/design.md, the fake's journal: the changes applied to the first snapshot give the last);
 * a request's status and JSON answer; and whether a status is one its endpoint declares.
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { type Endpoint, fromResponse } from "@dbplatform/core"
import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as FakePlatform from "../src/FakePlatform.js"
import type * as Seed from "../src/Seed.js"
import * as Snapshot from "../src/Snapshot.js"
import { send } from "./helpers.js"

/** Whether `status` is one `endpoint` declares: a success status, or an error tag of its own. */
export const declares = (endpoint: Endpoint.Endpoint, status: number) =>
  (endpoint.statuses as ReadonlyArray<number>).includes(status) ||
  (endpoint.errors as ReadonlyArray<string>).includes(
    fromResponse({ method: endpoint.method, route: endpoint.route, path: endpoint.route, status })._tag
  )

/** A snapshot without the keys' last use, which every request changes and the journal leaves out. */
export const withoutLastUse = (snapshot: Snapshot.Snapshot) => ({
  ...snapshot,
  api_keys: snapshot.api_keys.map(({ last_used_at: _, last_used_from_addr: __, ...key }) => key)
})

/**
 * One turn of the event loop. A property run on the fake in memory runs on promises alone
 * (microtasks): without a turn between runs, a whole property test would go without the worker
 * reading vitest's answers to it (see vitest.setup.ts).
 */
const eventLoopTurn = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))

/**
 * A fake made from `seed` that keeps its journal: `key` is the value of its bootstrap key, `first`
 * its first snapshot, and `replays` expects the journal applied to `first` to give its snapshot now
 * (the keys' last use aside). Each property run starts with one (after a turn of the event loop).
 */
export const journaled = (seed: Seed.Seed) =>
  Effect.gen(function* () {
    yield* eventLoopTurn
    const journal: Array<Snapshot.SnapshotChange> = []
    const fake = yield* FakePlatform.make(seed, {
      journal: { record: (recorded) => Effect.sync(() => journal.push(...recorded)), sync: Effect.void }
    })
    const first = yield* fake.snapshot
    const replays = Effect.map(fake.snapshot, (last) =>
      expect(withoutLastUse(Snapshot.applyChanges(first, journal))).toEqual(withoutLastUse(last))
    )
    return { fake, key: Redacted.value(fake.bootstrapKey), first, replays }
  })

/**
 * Sends `request` to the fake with `key`: its status, its body as text, and that text as JSON
 * (`undefined` when empty, e.g. a 204).
 */
export const exchange = (fake: FakePlatform.Service, request: HttpClientRequest.HttpClientRequest, key: string) =>
  Effect.gen(function* () {
    const response = yield* send(fake, request, { key })
    const text = yield* response.text
    return { status: response.status, text, body: text === "" ? undefined : (JSON.parse(text) as any) }
  })

/** `GET path` with `key`: expects a 200 (one `endpoint` declares, when given); answers its JSON. */
export const getOk = (fake: FakePlatform.Service, key: string, path: string, endpoint?: Endpoint.Endpoint) =>
  Effect.gen(function* () {
    const response = yield* send(fake, HttpClientRequest.get(path), { key })
    expect(response.status, path).toBe(200)
    if (endpoint !== undefined) expect(declares(endpoint, response.status)).toBe(true)
    return (yield* response.json) as any
  })
