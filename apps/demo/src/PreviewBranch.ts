/**
 * The preview-branch workflow the demo runs first (docs/contract.md §13.3): a branch with a
 * read_write compute endpoint created and waited for in one call (`Branches.createReady`, one
 * poll request a round for all its operations), expiring in 7 days (`expires_at`, §18: were the
 * demo stopped before its end, the platform would delete the branch then), its connection string
 * printed redacted, then
 * renamed, its compute endpoint suspended and started again (each call answering once its
 * operations finished: `{ wait }`), and the branch deleted, its deletion's operations waited for
 * with `Operations.awaitAll` on the delete's answer.
 */
import { Branches, ComputeEndpoints, Operations } from "@dbplatform/client"
import { isTerminal, type Operation, type ProjectId } from "@dbplatform/core"
import * as Clock from "effect/Clock"
import * as Console from "effect/Console"
import * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import * as Schedule from "effect/Schedule"

/** How the workflow reaches the platform. */
export interface PreviewBranchOptions {
  readonly projectId: ProjectId
  /** The branch's name: `preview/pr-1` by default. */
  readonly name?: string | undefined
  /**
   * How many requests reading operations the client has sent so far (the demo counts them): each
   * round's line says how many it took. Without it, the lines leave requests out.
   */
  readonly pollRequests?: Effect.Effect<number> | undefined
  /** Time between poll rounds: 1 s by default (the platform advises 5 s; the fake's operations take seconds). */
  readonly pollEvery?: number | undefined
  /** How long the branch lives before the platform deletes it (`expires_at`): 7 days by default. */
  readonly expiresIn?: Duration.DurationInput | undefined
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`

/** A lifetime for a person to read: `7 days`, or Effect's own form (`1h 30m`) when not whole days. */
const spoken = (lifetime: Duration.Duration): string => {
  const days = Duration.toMillis(lifetime) / Duration.toMillis("1 day")
  return Number.isInteger(days) && days > 0 ? plural(days, "day") : Duration.format(lifetime)
}

/**
 * A connection string with its password masked, for a person to read: the role, host and
 * database stay. Anything that is not a URI is not shown at all.
 */
export const masked = (uri: Redacted.Redacted<string>): string => {
  const parsed = URL.canParse(Redacted.value(uri)) ? new URL(Redacted.value(uri)) : undefined
  if (parsed === undefined) return "(not a URI)"
  if (parsed.password !== "") parsed.password = "****"
  return parsed.href
}

/** The workflow, over the client services in context. */
export const previewBranch = (options: PreviewBranchOptions) =>
  Effect.gen(function* () {
    const branches = yield* Branches.Branches
    const computeEndpoints = yield* ComputeEndpoints.ComputeEndpoints
    const operations = yield* Operations.Operations
    const project_id = options.projectId
    const requests = options.pollRequests ?? Effect.succeed(0)
    const start = yield* Clock.currentTimeMillis
    const elapsed = Effect.map(Clock.currentTimeMillis, (now) => `+${((now - start) / 1000).toFixed(1).padStart(4)} s`)

    /** A wait's schedule: a round every `pollEvery`, a line per round (its states, the requests it took). */
    const rounds = Effect.gen(function* () {
      const sent = yield* Ref.make(yield* requests)
      const round = yield* Ref.make(0)
      return {
        schedule: Schedule.spaced(options.pollEvery ?? 1000).pipe(
          Schedule.tapInput((states: ReadonlyArray<Operation>) =>
            Effect.gen(function* () {
              const now = yield* requests
              const took = now - (yield* Ref.getAndSet(sent, now))
              const n = yield* Ref.updateAndGet(round, (n) => n + 1)
              const line = states.map((state) => `${state.action} ${state.status}`).join(", ")
              const pending = states.filter((state) => !isTerminal(state)).length
              const counted = options.pollRequests === undefined ? [] : [plural(took, "request")]
              const left = pending === 0 ? [] : [`${pending} pending`]
              const note = [...counted, ...left].join(", ")
              yield* Console.log(`  ${yield* elapsed}  round ${n}: ${line}${note === "" ? "" : ` (${note})`}`)
            })
          )
        )
      }
    })
    const name = options.name ?? "preview/pr-1"
    yield* Console.log(`Preview branch workflow on project ${project_id}:`)
    yield* Console.log(
      `  Creating branch ${name} with a read_write compute endpoint, returning once its operations finished (one poll request a round for all of them):`
    )
    // To the second, as the platform takes it: a preview branch that cleans itself up.
    const lifetime = Duration.decode(options.expiresIn ?? "7 days")
    const expires_at = DateTime.unsafeMake(Math.ceil((start + Duration.toMillis(lifetime)) / 1000) * 1000)
    const ready = yield* Effect.flatMap(rounds, (waiting) =>
      branches.createReady({ project_id, branch: { name, expires_at }, onConflict: "fail" }, waiting)
    )
    const branch = { project_id, branch_id: ready.branch.id }
    yield* Console.log(
      `  Ready: branch ${ready.branch.id} (${ready.branch.current_state}), compute endpoint ${ready.endpoint.id} (${ready.endpoint.current_state}); ${ready.operations.map((operation) => `${operation.action} ${operation.status}`).join(", ")}`
    )
    const expiry = ready.branch.expires_at
    yield* Console.log(
      expiry === undefined
        ? "  Expires: never (the server kept no expires_at)"
        : `  Expires: ${DateTime.formatIso(expiry).replace(".000Z", "Z")} (in ${spoken(lifetime)}; the platform deletes it then, unless this run deletes it first)`
    )
    yield* Console.log(`  Connection string: ${String(ready.connectionUri)} (${masked(ready.connectionUri)})`)

    const renamed = yield* branches.update({ ...branch, branch: { name: `${name}-ready` } })
    yield* Console.log(`  Renamed to ${renamed.branch.name} (${plural(renamed.operations.length, "operation")})`)

    // Suspended, then started again: each call answers once its operations finished.
    const endpoint = { project_id, endpoint_id: ready.endpoint.id }
    yield* Console.log(`  Suspending compute endpoint ${ready.endpoint.id}:`)
    yield* computeEndpoints.suspend(endpoint, { wait: yield* rounds })
    yield* Console.log(
      `  Compute endpoint ${ready.endpoint.id}: ${(yield* computeEndpoints.get(endpoint)).endpoint.current_state}`
    )
    yield* Console.log(`  Starting it again:`)
    yield* computeEndpoints.start(endpoint, { wait: yield* rounds })
    yield* Console.log(
      `  Compute endpoint ${ready.endpoint.id}: ${(yield* computeEndpoints.get(endpoint)).endpoint.current_state}`
    )

    // The delete's answer (none when there was nothing to delete) waited for as it is.
    const deleted = yield* branches.delete(branch)
    yield* Console.log(`  Deleting branch ${ready.branch.id}:`)
    const ended = (yield* operations.awaitAll(deleted, yield* rounds)).operations
    const after = yield* Effect.match(branches.get(branch), {
      onFailure: (error) => error._tag,
      onSuccess: () => "still there"
    })
    yield* Console.log(
      `  Deleted: ${ended.map((operation) => `${operation.action} ${operation.status}`).join(", ")}; reading the branch now: ${after}`
    )
  })
