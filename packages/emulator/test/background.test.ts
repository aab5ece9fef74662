/**
 * The lines `dbplatform-emulator --env` prints (src/internal/background.ts) are read back by a
 * POSIX shell exactly as the values were, whatever characters they hold.
 */
import { execFileSync } from "node:child_process"
import { describe, expect, it } from "vitest"
import { exportLine, shellQuote } from "../src/internal/background.js"

describe("--env lines", () => {
  it("a value in quotes is one word the shell reads back as it was: quotes, $, backslashes, spaces, newlines", () => {
    const values = ["http://127.0.0.1:4010/api/v2", "it's", '$HOME `id` \\n "x"', "two  spaces", "a\nb", "", "'"]
    const script = values.map((value, i) => `${exportLine({ name: `V${i}`, value })}\n`).join("")
    const printed = execFileSync(
      "sh",
      ["-c", `${script}printf '%s\\0' ${values.map((_, i) => `"$V${i}"`).join(" ")}`],
      {
        encoding: "utf8"
      }
    )
    expect(printed.split("\0").slice(0, -1)).toEqual(values)
    expect(shellQuote("it's")).toBe("'it'\\''s'")
  })
})
