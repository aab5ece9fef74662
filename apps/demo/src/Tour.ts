/**
 * The tour of the SDK the demo runs: keys, projects, operations page by page, one read, a
 * batched wait printing each status change and one line per poll round, and a revoked key
 * refused.
 */
import { ApiKeys, DbPlatform, Operations, Projects } from "@dbplatform/client"
import {
  type InvalidApiKey,
  type InvalidBaseUrl,
  isFailed,
  isPending,
  isSucceeded,
  isTerminal,
  type Operation,
  type Project,
  type Unauthorized
} from "@dbplatform/core"
import * as Chunk from "effect/Chunk"
import * as Clock from "effect/Clock"
import * as Console from "effect/Console"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import { eraseLine } from "./internal/retryLog.js"

/** How the tour reaches the platform. */
export interface TourOptions {
  /**
   * The client Layer for another API key, to show a created key working and then refused.
   * Absent for a read-only tour (against a server that is not the demo's own fake).
   */
  readonly clientFor?:
    | ((apiKey: Redacted.Redacted<string>) => Layer.Layer<DbPlatform.DbPlatform, InvalidApiKey | InvalidBaseUrl>)
    | undefined
  /** The project whose operations are toured; the first listed by default. */
  readonly projectId?: Project["id"] | undefined
  /** Operations per page when streaming them; 50 by default. */
  readonly pageSize?: number | undefined
  /** The most operations walked (newest first), so a long history stays a short tour; 1000 by default. */
  readonly maxOperations?: number | undefined
  /**
   * How many HTTP requests the client has sent so far, retries included (the demo counts them in
   * its `HttpClient`): each poll round's line says how many the wait has spent. Without it, the
   * line leaves requests out.
   */
  readonly requests?: Effect.Effect<number> | undefined
  /**
   * How the wait shows its poll rounds: `"lines"` (the default), one line per round, for output
   * that is piped or kept; `"live"`, one line rewritten in place every second (elapsed time) and
   * every round (pending, requests), for a terminal.
   */
  readonly progress?: "lines" | "live" | undefined
}

const time = (dateTime: DateTime.Utc) => DateTime.formatIso(dateTime)
const short = (operation: Operation) => operation.id.slice(0, 8)
const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`

/** The four statuses the contract names (docs/contract.md §3.2). */
const contractStatuses: ReadonlySet<string> = new Set(["scheduling", "running", "finished", "failed"])

/**
 * A note for the statuses among `statuses` that the contract does not name, or none: the
 * deployed platform answers more (docs/contract.md §10.5).
 */
const beyondContract = (statuses: Iterable<string>): Option.Option<string> => {
  const found = [...new Set(statuses)].filter((status) => !contractStatuses.has(status)).sort()
  if (found.length === 0) return Option.none()
  const list = (statuses: ReadonlyArray<string>) =>
    statuses.length === 1 ? statuses[0]! : `${statuses.slice(0, -1).join(", ")} and ${statuses.at(-1)!}`
  const outcomes = [
    ["still pending", found.filter((status) => isPending({ status }))],
    ["ended well", found.filter((status) => isSucceeded({ status }))],
    ["ended badly", found.filter((status) => isFailed({ status }))]
  ] as const
  // Pending ones first, then those that ended well, then badly; an unknown status last.
  const extra = [
    ...outcomes.flatMap(([, statuses]) => statuses),
    ...found.filter((status) => !isTerminal({ status }) && !isPending({ status }))
  ]
  const how = outcomes.flatMap(([outcome, statuses]) => (statuses.length === 0 ? [] : [`${list(statuses)} ${outcome}`]))
  return Option.some(
    `  (${list(extra)}: ${extra.length === 1 ? "a status" : "statuses"} the deployed platform answers beyond the contract's four (docs/contract.md, section 10.5)${how.length === 0 ? "" : `: ${how.join("; ")}`}.)`
  )
}

/**
 * What the wait has shown of its rounds: the last round's line (without its elapsed time), and
 * whether a live line is on screen.
 */
interface Rounds {
  readonly round: number
  readonly text: string
  readonly shown: boolean
}

/** The tour, over the client services in context. */
export const tour = (options: TourOptions = {}) =>
  Effect.gen(function* () {
    const apiKeys = yield* ApiKeys.ApiKeys
    const projects = yield* Projects.Projects
    const operations = yield* Operations.Operations
    const writable = options.clientFor

    const created = writable === undefined ? undefined : yield* apiKeys.create({ key_name: "demo-tour" })
    if (created !== undefined) {
      yield* Console.log(`Created API key ${created.id} "${created.name ?? "demo-tour"}": value ${String(created.key)}`)
    }

    const keys = yield* apiKeys.list().pipe(Stream.runCollect, Effect.map(Chunk.toReadonlyArray))
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
    const walk = yield* operations.list({ project_id: projectId }, { pageSize }).pipe(
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
    yield* Option.match(beyondContract(walk.statuses.keys()), { onNone: () => Effect.void, onSome: Console.log })

    if (walk.newest !== undefined) {
      const { operation: one } = yield* operations.get({ project_id: projectId, operation_id: walk.newest.id })
      yield* Console.log(
        `Newest operation ${one.id}: ${one.action} ${one.status}, created ${time(one.created_at)}, ` +
          `failures ${one.failures_count}`
      )
    }

    if (walk.pending.length > 0) {
      yield* Console.log(
        `Waiting for ${walk.pending.length} pending operations (a poll round every 5 s; one list request answers for all of them):`
      )
      const live = options.progress === "live"
      const start = yield* Clock.currentTimeMillis
      const elapsed = Effect.map(
        Clock.currentTimeMillis,
        (now) => `+${String(Math.round((now - start) / 1000)).padStart(2)} s`
      )
      const sentBefore = options.requests === undefined ? undefined : yield* options.requests
      const rounds = yield* Ref.make<Rounds>({ round: 0, text: "", shown: false })
      const write = (text: string) => Effect.sync(() => void process.stdout.write(text))
      /** The live line, drawn again with the time elapsed now. */
      const draw = Effect.flatMap(Ref.get(rounds), (last) =>
        last.round === 0
          ? Effect.void
          : Effect.flatMap(elapsed, (at) =>
              Effect.zipRight(
                write(`${eraseLine}  ${at}  ${last.text}`),
                Ref.update(rounds, (r) => ({ ...r, shown: true }))
              )
            )
      )
      /** A line of its own, above the live line when there is one. */
      const say = (line: string) =>
        live
          ? Effect.flatMap(Ref.get(rounds), (last) =>
              Effect.zipRight(write(`${last.shown ? eraseLine : ""}${line}\n`), draw)
            )
          : Console.log(line)
      /** After each poll round: the round's line, from every operation's state just read. */
      const onRound = (states: ReadonlyArray<Operation>) =>
        Effect.gen(function* () {
          const pending = states.filter((state) => !isTerminal(state)).length
          const spent =
            options.requests === undefined || sentBefore === undefined
              ? ""
              : `, ${plural((yield* options.requests) - sentBefore, "request")} so far`
          const last = yield* Ref.updateAndGet(rounds, (r) => ({
            ...r,
            round: r.round + 1,
            text: `round ${r.round + 1}: ${pending} of ${states.length} still pending${spent}`
          }))
          if (live) return yield* draw
          yield* Console.log(`  ${yield* elapsed}  ${last.text}`)
        })
      const schedule = Operations.defaultPollSchedule.pipe(Schedule.tapInput(onRound))
      const ends = yield* Effect.gen(function* () {
        if (live) yield* Effect.forkScoped(Effect.repeat(draw, Schedule.spaced("1 second")))
        return yield* operations.watch(walk.pending, { schedule }).pipe(
          Stream.tap((operation) =>
            Effect.flatMap(elapsed, (at) =>
              say(`  ${at}  ${short(operation)} ${operation.action.padEnd(16)} ${operation.status}`)
            )
          ),
          Stream.runFold(new Map<string, Operation>(), (ends, operation) => ends.set(operation.id, operation))
        )
      }).pipe(
        Effect.scoped,
        // the live line stays, ended, when the wait ends or is interrupted (Ctrl-C)
        Effect.ensuring(live ? write("\n") : Effect.void)
      )
      yield* Console.log(
        `All ${ends.size} ended: ${Array.from(ends.values(), (end) => `${short(end)} ${end.status}`).join(", ")}`
      )
      yield* Option.match(beyondContract(Array.from(ends.values(), (end) => end.status)), {
        onNone: () => Effect.void,
        onSome: Console.log
      })
    } else {
      yield* Console.log("No pending operations to wait for.")
    }

    if (created !== undefined && writable !== undefined) {
      const withNewKey = <A, E>(effect: Effect.Effect<A, E, DbPlatform.DbPlatform>) =>
        Effect.provide(effect, writable(created.key))
      const seen = yield* withNewKey(Effect.flatMap(Projects.Projects, (p) => p.listPage()))
      yield* Console.log(`The new key works: it lists ${seen.projects.length} projects`)
      const revoked = yield* apiKeys.revoke({ key_id: created.id })
      yield* Console.log(`Revoked key ${revoked.id} (revoked: ${revoked.revoked})`)
      const refused: Unauthorized = yield* withNewKey(Effect.flatMap(Projects.Projects, (p) => p.listPage())).pipe(
        Effect.flatMap(() => Effect.fail(new Error("the revoked key was still accepted"))),
        Effect.catchTag("Unauthorized", (error) => Effect.succeed(error))
      )
      yield* Console.log(`The next request with it is refused: ${refused._tag}: ${refused.message}`)
    }
    yield* Console.log("Tour complete.")
  })
