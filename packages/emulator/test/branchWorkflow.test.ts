/**
 * The preview-branch workflow (docs/contract.md §11) through the SDK's client (`DbPlatform.layer`
 * over `FetchHttpClient`) against the shipped emulator, as a user's CI job would run it: create a
 * branch with a read_write compute endpoint, wait for its operations, read it, rename it, delete
 * it, and see it gone; a 423 while a conflicting operation runs, retried by the client to
 * success; a 409 on a taken name.
 *
 * No step waits for time to pass. The emulator's clock is frozen and moved through its control API
 * (its typed client, `ControlApi.client`), so its operations end when the test says; the client polls and
 * retries on short real schedules, and the test waits for events: an answer the client got (seen
 * through `transformClient`), a fiber's end.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import { Branches, DbPlatform, Operations } from "@dbplatform/client"
import { ProjectId } from "@dbplatform/core"
import { ControlApi } from "@dbplatform/testing"
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as PubSub from "effect/PubSub"
import * as Queue from "effect/Queue"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll } from "vitest"
import { start } from "./spawned.js"

const dir = mkdtempSync(join(tmpdir(), "dbplatform-branch-workflow-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const apiKey = "branch-workflow-key"
const token = "branch-workflow-control-token"
const project_id = ProjectId.make("branch-workflow")

/** An answer the client got: its request's method and URL, and its status. */
interface Seen {
  readonly method: string
  readonly url: string
  readonly status: number
}

/** The emulator, stopped (SIGTERM, exit 0) with the scope. */
const emulator = Effect.acquireRelease(
  Effect.promise(() => {
    const seed = join(dir, "seed.json")
    writeFileSync(seed, JSON.stringify({ projects: [{ id: project_id, name: "workflow" }] }))
    return start(["--seed", seed, "--port", "0"], {
      DBPLATFORM_EMULATOR_KEY: apiKey,
      DBPLATFORM_EMULATOR_TOKEN: token
    })
  }),
  (running) =>
    Effect.promise(async () => {
      running.child.kill("SIGTERM")
      expect(await running.exited).toBe(0)
    })
)

describe("branches over the emulator, through the client", () => {
  it.scopedLive(
    "create with a compute endpoint, awaitAll, read, 423 retried, rename, 409, delete, awaitAll, gone",
    () =>
      Effect.gen(function* () {
        const running = yield* emulator
        const control = yield* ControlApi.client({ url: running.controlUrl, token: Redacted.make(token) }).pipe(
          Effect.provide(FetchHttpClient.layer)
        )
        /** Moves the emulator's clock `ms` forward. */
        const advance = (ms: number) => control.advance({ payload: { by: ms } })

        // Every answer the client gets, each attempt of a retried call included.
        const answers = yield* PubSub.unbounded<Seen>()
        const observed = (client: HttpClient.HttpClient) =>
          HttpClient.tap(client, (response) =>
            PubSub.publish(answers, {
              method: response.request.method,
              url: response.request.url,
              status: response.status
            })
          )
        /**
         * Runs `action` in a fiber and returns it once the client got an answer that `matches`;
         * dies if `action` ends first.
         */
        const forkUntil = <A, E, R>(action: Effect.Effect<A, E, R>, what: string, matches: (seen: Seen) => boolean) =>
          Effect.scoped(
            Effect.gen(function* () {
              const subscription = yield* PubSub.subscribe(answers)
              const fiber = yield* Effect.fork(action)
              const seen = Queue.take(subscription).pipe(Effect.repeat({ until: matches }), Effect.as(fiber))
              const ended = Effect.flatMap(Fiber.await(fiber), (exit) =>
                Effect.dieMessage(`the call ended (${Exit.isSuccess(exit) ? "success" : "failure"}) before ${what}`)
              )
              return yield* Effect.raceFirst(seen, ended)
            })
          )

        // The operations' end is up to the control clock: frozen, they stay pending.
        yield* control.freeze()

        yield* Effect.gen(function* () {
          const branches = yield* Branches.Branches
          const operations = yield* Operations.Operations
          const poll = { schedule: Schedule.spaced("20 millis") }
          const branchesUrl = `${running.baseUrl}/projects/${project_id}/branches`

          const created = yield* branches.create({
            project_id,
            branch: { name: "preview/pr-1" },
            endpoints: [{ type: "read_write" }]
          })
          const id = created.branch.id
          const params = { project_id, branch_id: id }
          expect(created.branch).toMatchObject({ name: "preview/pr-1", current_state: "init", default: false })
          expect(created.endpoints.map((endpoint) => [endpoint.type, endpoint.current_state])).toEqual([
            ["read_write", "init"]
          ])
          expect(created.operations.map((operation) => [operation.action, operation.status])).toEqual([
            ["create_branch", "scheduling"],
            ["start_compute", "scheduling"]
          ])

          // A second branch while the first one's operations run: 423 Locked, which the client
          // retries (every 20 ms here) until the project is free.
          const second = yield* forkUntil(
            branches.create({ project_id, branch: { name: "preview/pr-2" } }),
            "a 423",
            (seen) => seen.method === "POST" && seen.url === branchesUrl && seen.status === 423
          )

          // Wait for the first branch's operations while the clock moves: awaitAll reads them
          // pending (an answer seen), then the clock passes create_branch (2 s) and start_compute (3 s).
          const waiting = yield* forkUntil(
            operations.awaitAll(created.operations, poll),
            "a read of the operations",
            (seen) => seen.method === "GET" && seen.url.includes(`/projects/${project_id}/operations`)
          )
          yield* advance(2_000)
          yield* advance(3_000)
          const awaited = yield* Fiber.join(waiting)
          expect(awaited.succeeded.map((operation) => operation.action)).toEqual(["create_branch", "start_compute"])
          expect(awaited.failed.length + awaited.pending.length).toBe(0)

          // The retried creation went through once the project was free.
          const retried = yield* Fiber.join(second)
          expect(retried.branch.name).toBe("preview/pr-2")
          expect(retried.operations.map((operation) => operation.action)).toEqual(["create_branch"])

          const read = yield* branches.get(params)
          expect(read.branch).toMatchObject({ id, name: "preview/pr-1", current_state: "ready" })
          const computeEndpoints = Chunk.toReadonlyArray(yield* Stream.runCollect(branches.listEndpoints(params)))
          expect(computeEndpoints.map((endpoint) => [endpoint.id, endpoint.current_state])).toEqual([
            [created.endpoints[0]!.id, "active"]
          ])

          // The second branch's create_branch holds the project until it ends.
          const secondWait = yield* Effect.fork(operations.awaitAll(retried.operations, poll))
          yield* advance(2_000)
          expect((yield* Fiber.join(secondWait)).succeeded).toHaveLength(1)

          const renamed = yield* branches.update({ ...params, branch: { name: "preview/pr-1-ready" } })
          expect(renamed.branch.name).toBe("preview/pr-1-ready")
          expect(renamed.operations).toEqual([])
          expect((yield* branches.get(params)).branch.name).toBe("preview/pr-1-ready")

          const taken = yield* Effect.flip(branches.create({ project_id, branch: { name: "preview/pr-1-ready" } }))
          expect(taken._tag).toBe("Conflict")
          const takenByRename = yield* Effect.flip(
            branches.update({ project_id, branch_id: retried.branch.id, branch: { name: "preview/pr-1-ready" } })
          )
          expect(takenByRename._tag).toBe("Conflict")

          const deleted = yield* branches.delete(params)
          expect(Option.isSome(deleted)).toBe(true)
          const deletion = Option.getOrThrow(deleted).operations
          expect(deletion.map((operation) => operation.action)).toEqual(["suspend_compute", "delete_timeline"])
          const deleting = yield* forkUntil(
            operations.awaitAll(deletion, poll),
            "a read of the deletion's operations",
            (seen) => seen.method === "GET" && seen.url.includes(`/projects/${project_id}/operations`)
          )
          yield* advance(3_000)
          const gone = yield* Fiber.join(deleting)
          expect(gone.succeeded.map((operation) => operation.action)).toEqual(["suspend_compute", "delete_timeline"])

          expect((yield* Effect.flip(branches.get(params)))._tag).toBe("NotFound")
          const listed = Chunk.toReadonlyArray(yield* Stream.runCollect(branches.list({ project_id })))
          expect(listed.map((branch) => branch.name).sort()).toEqual(["main", "preview/pr-2"])
          expect(listed.map((branch) => branch.id)).not.toContain(id)
          expect((yield* branches.count({ project_id })).count).toBe(2)
          // Deleting it again: nothing left to delete (204).
          expect(yield* branches.delete(params)).toEqual(Option.none())
        }).pipe(
          Effect.provide(
            DbPlatform.layer({
              baseUrl: running.baseUrl,
              apiKey: Redacted.make(apiKey),
              retrySchedule: Schedule.spaced("20 millis"),
              transformClient: observed
            }).pipe(Layer.provide(FetchHttpClient.layer))
          )
        )
      })
  )
})
