/**
 * The tour of the SDK the demo runs: keys, projects, operations page by page, one read, a
 * batched wait printing each status change, and a revoked key refused.
 */
import { ApiKeys, DbPlatform, Operations, Projects } from "@dbplatform/client"
import { type InvalidApiKey, isPending, type Operation, type Project, type Unauthorized } from "@dbplatform/core"
import * as Chunk from "effect/Chunk"
import * as Clock from "effect/Clock"
import * as Console from "effect/Console"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"

/** How the tour reaches the platform. */
export interface TourOptions {
  /**
   * The client Layer for another API key, to show a created key working and then refused.
   * Absent for a read-only tour (against a server that is not the demo's own fake).
   */
  readonly clientFor?:
    | ((apiKey: Redacted.Redacted<string>) => Layer.Layer<DbPlatform.DbPlatform, InvalidApiKey>)
    | undefined
  /** The project whose operations are toured; the first listed by default. */
  readonly projectId?: Project["id"] | undefined
  /** Operations per page when streaming them; 50 by default. */
  readonly pageSize?: number | undefined
  /** The most operations walked (newest first), so a long history stays a short tour; 1000 by default. */
  readonly maxOperations?: number | undefined
}

const time = (dateTime: DateTime.Utc) => DateTime.formatIso(dateTime)
const short = (operation: Operation) => operation.id.slice(0, 8)

/** The tour, over the client services in context. */
export const tour = (options: TourOptions = {}) =>
  Effect.gen(function* () {
    const apiKeys = yield* ApiKeys.ApiKeys
    const projects = yield* Projects.Projects
    const operations = yield* Operations.Operations
    const writable = options.clientFor

    const created = writable === undefined ? undefined : yield* apiKeys.create("demo-tour")
    if (created !== undefined) {
      yield* Console.log(`Created API key ${created.id} "${created.name ?? "demo-tour"}": value ${String(created.key)}`)
    }

    const keys = yield* apiKeys.list()
    yield* Console.log(`API keys (${keys.length}):`)
    for (const key of keys) {
      const used = Option.match(key.last_used_at, {
        onNone: () => "never used",
        onSome: (at) => `last used ${time(at)}`
      })
      yield* Console.log(`  ${key.id}  ${key.name.padEnd(12)} created ${time(key.created_at)}, ${used}`)
    }

    const all = yield* projects.list().pipe(Stream.runCollect, Effect.map(Chunk.toReadonlyArray))
    yield* Console.log(`Projects (${all.length}):`)
    for (const project of all) {
      yield* Console.log(
        `  ${project.id.padEnd(26)} ${project.name.padEnd(10)} ${project.region_id.padEnd(18)} postgres ${project.pg_version}`
      )
    }
    const projectId = options.projectId ?? all[0]?.id
    if (projectId === undefined) return yield* Effect.fail(new Error("the account has no project to tour"))

    const pageSize = options.pageSize ?? 50
    const walk = yield* operations.list(projectId, { pageSize }).pipe(
      Stream.take(options.maxOperations ?? 1000),
      Stream.chunks,
      Stream.runFold(
        {
          pages: 0,
          rows: 0,
          pending: [] as Array<Operation>,
          statuses: new Map<string, number>(),
          newest: undefined as Operation | undefined
        },
        (walk, page) => {
          walk.pages += 1
          walk.rows += page.length
          for (const operation of page) {
            walk.newest ??= operation
            walk.statuses.set(operation.status, (walk.statuses.get(operation.status) ?? 0) + 1)
            if (isPending(operation)) walk.pending.push(operation)
          }
          return walk
        }
      )
    )
    const statuses = Array.from(walk.statuses, ([status, count]) => `${status} ${count}`).join(", ")
    yield* Console.log(
      `Operations of ${projectId}: ${walk.rows} in ${walk.pages} pages of up to ${pageSize}, newest first (${statuses})`
    )

    if (walk.newest !== undefined) {
      const one = yield* operations.get(projectId, walk.newest.id)
      yield* Console.log(
        `Newest operation ${one.id}: ${one.action} ${one.status}, created ${time(one.created_at)}, ` +
          `failures ${one.failures_count}`
      )
    }

    if (walk.pending.length > 0) {
      yield* Console.log(
        `Waiting for ${walk.pending.length} pending operations (every 5 s, one list request answers for all of them):`
      )
      const start = yield* Clock.currentTimeMillis
      const ends = yield* operations.watch(walk.pending).pipe(
        Stream.tap((operation) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) =>
            Console.log(
              `  +${String(Math.round((now - start) / 1000)).padStart(2)} s  ${short(operation)} ` +
                `${operation.action.padEnd(16)} ${operation.status}`
            )
          )
        ),
        Stream.runFold(new Map<string, Operation>(), (ends, operation) => ends.set(operation.id, operation))
      )
      yield* Console.log(
        `All ${ends.size} ended: ${Array.from(ends.values(), (end) => `${short(end)} ${end.status}`).join(", ")}`
      )
    } else {
      yield* Console.log("No pending operations to wait for.")
    }

    if (created !== undefined && writable !== undefined) {
      const withNewKey = <A, E>(effect: Effect.Effect<A, E, DbPlatform.DbPlatform>) =>
        Effect.provide(effect, writable(created.key))
      const seen = yield* withNewKey(Effect.flatMap(Projects.Projects, (p) => p.page()))
      yield* Console.log(`The new key works: it lists ${seen.projects.length} projects`)
      const revoked = yield* apiKeys.revoke(created.id)
      yield* Console.log(`Revoked key ${revoked.id} (revoked: ${revoked.revoked})`)
      const refused: Unauthorized = yield* withNewKey(Effect.flatMap(Projects.Projects, (p) => p.page())).pipe(
        Effect.flatMap(() => Effect.fail(new Error("the revoked key was still accepted"))),
        Effect.catchTag("Unauthorized", (error) => Effect.succeed(error))
      )
      yield* Console.log(`The next request with it is refused: ${refused._tag}: ${refused.message}`)
    }
    yield* Console.log("Tour complete.")
  })
