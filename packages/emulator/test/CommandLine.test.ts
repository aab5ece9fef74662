/**
 * The commands' output rules (src/CommandLine.ts, which the demo's command uses too): escape
 * codes only on a terminal, and never with NO_COLOR set (https://no-color.org).
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { escapeCodes } from "../src/CommandLine.js"

afterEach(() => {
  vi.unstubAllEnvs()
})

describe("escapeCodes", () => {
  it("a terminal gets them, a pipe or file does not", () => {
    vi.stubEnv("NO_COLOR", "")
    expect(escapeCodes({ isTTY: true })).toBe(true)
    expect(escapeCodes({ isTTY: false })).toBe(false)
    expect(escapeCodes({})).toBe(false)
  })

  it("NO_COLOR set to anything but the empty string turns them off, even on a terminal", () => {
    vi.stubEnv("NO_COLOR", "1")
    expect(escapeCodes({ isTTY: true })).toBe(false)
  })
})
