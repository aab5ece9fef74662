import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import { afterEach, vi } from "vitest"
import { retryLog } from "../src/internal/retryLog.js"

afterEach(() => {
  vi.restoreAllMocks()
})

/** What `retryLog(staged)` prints for the client's retry logs, as the client writes them (Debug, a `status` annotation). */
const printed = (staged: number, statuses: ReadonlyArray<number | undefined>, live = false) => {
  const lines: Array<string> = []
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk))
    return true
  })
  Effect.runSync(
    Effect.forEach(statuses, (status) =>
      (status === undefined
        ? Effect.logDebug("retrying Projects.list after 1s")
        : Effect.logDebug("retrying Projects.list after 1s").pipe(Effect.annotateLogs("status", status))
      ).pipe(Effect.zipRight(Effect.logInfo("not a retry")))
    ).pipe(Effect.provide(retryLog(staged, live)), Logger.withMinimumLogLevel(LogLevel.Debug))
  )
  return lines
}

describe("retryLog", () => {
  it("labels the 429s the demo injected as staged, and no other", () => {
    expect(printed(1, [429, 429, 503, undefined])).toEqual([
      "  (429 from the server (staged: the demo injected this 429 to show retrying): retrying Projects.list after 1s)\n",
      "  (429 from the server: retrying Projects.list after 1s)\n",
      "  (503 from the server: retrying Projects.list after 1s)\n",
      "  (no response from the server: retrying Projects.list after 1s)\n"
    ])
  })

  it("against another server, nothing is staged", () => {
    expect(printed(0, [429])).toEqual(["  (429 from the server: retrying Projects.list after 1s)\n"])
  })

  it("on a terminal, each line first erases the wait's live line (drawn again below it)", () => {
    expect(printed(0, [503], true)).toEqual(["\r\u001b[2K  (503 from the server: retrying Projects.list after 1s)\n"])
  })
})
