import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { Refusal } from "./refusal.js"
import { refusalResponse } from "./route.js"
import { Status } from "./status.js"

/**
 * The defect a change dies with when the fake's journal cannot make it durable (a scenario call,
 * a reset, a load, a restore); the control API answers it 503, as the platform's routes answer a
 * change they could not save.
 */
export class ChangeNotSaved extends Data.TaggedError("ChangeNotSaved")<{ readonly reason: string }> {
  override get message(): string {
    return `the change could not be saved: ${this.reason}`
  }
}

/** What makes the changes recorded so far durable: `FakePlatform.Journal`'s `sync`. */
export interface Syncing {
  /** Succeeds once every change recorded before it ran is durable; fails saying why otherwise. */
  readonly sync: Effect.Effect<void, { readonly message: string }>
}

/** `response` once `journal` has made every change so far durable; a 503 when it cannot. */
export const durable = (journal: Syncing, response: HttpServerResponse.HttpServerResponse) =>
  journal.sync.pipe(
    Effect.as(response),
    Effect.catchAll((error) =>
      refusalResponse(
        new Refusal({ status: Status.serviceUnavailable, message: `the change could not be saved: ${error.message}` })
      )
    )
  )

/** Waits for `journal` to make every change so far durable; dies with `ChangeNotSaved` when it cannot. */
export const notSavedDies = (journal: Syncing) =>
  Effect.orDieWith(journal.sync, (error) => new ChangeNotSaved({ reason: error.message }))
