/**
 * The demo's `src/internal/commandLine.ts` is a copy of the emulator's
 * (`packages/emulator/src/bin/internal/commandLine.ts`, tested there), as the demo does not
 * depend on the emulator: both commands must keep behaving alike (help, escape codes, version,
 * failure line, Ctrl-C).
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"

/** The file's code, after its opening doc comment. */
const code = (url: URL) => {
  const text = readFileSync(url, "utf8")
  return text.slice(text.indexOf("*/") + 2)
}

describe("commandLine", () => {
  it("is the same code as the emulator's", () => {
    expect(code(new URL("../src/internal/commandLine.ts", import.meta.url))).toBe(
      code(new URL("../../../packages/emulator/src/bin/internal/commandLine.ts", import.meta.url))
    )
  })
})
