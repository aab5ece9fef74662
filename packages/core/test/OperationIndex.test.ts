/**
 * The operation index of `docs/contract.md` §16 is the groups' own: an entry added, renamed or
 * changed without `pnpm operation-index` fails here.
 */
import * as fs from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Api } from "../src/index.js"
import { current, document, normalize, render } from "./operationIndex.js"

describe("the operation index of docs/contract.md", () => {
  it("lists every entry of every group as the groups declare it (run `pnpm operation-index` to rewrite it)", () => {
    const text = fs.readFileSync(document, "utf8")
    expect(normalize(current(text) ?? "")).toBe(normalize(render()))
    for (const endpoint of Api.endpoints) expect(text).toContain(`\`${endpoint.name}\``)
  })
})
