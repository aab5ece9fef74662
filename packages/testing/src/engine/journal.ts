import * as Data from "effect/Data"

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
