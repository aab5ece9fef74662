/**
 * The fake's layout check (`.dependency-cruiser.cjs`, run by the package's `test` script,
 * docs/design.md §4.1) refuses what it is there to refuse: a tree with an import circle, and one
 * whose engine imports a resource, both planted in a temporary copy of the layout's shape, never
 * in `src`.
 */
import { execFile } from "node:child_process"
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..")
const config = join(packageDir, ".dependency-cruiser.cjs")
const depcruise = join(packageDir, "node_modules", ".bin", "depcruise")

/** The check run on a tree of `files` (path under the tree: source): its exit code and report. */
const cruise = async (files: Readonly<Record<string, string>>) => {
  const root = await mkdtemp(join(tmpdir(), "layout-"))
  try {
    await writeFile(join(root, "tsconfig.src.json"), JSON.stringify({ compilerOptions: { module: "NodeNext" } }))
    for (const [path, source] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true })
      await writeFile(join(root, path), source)
    }
    return await new Promise<{ readonly code: number; readonly report: string }>((resolve) =>
      execFile(depcruise, ["src", "--config", config, "--output-type", "err"], { cwd: root }, (error, stdout) =>
        resolve({ code: error === null ? 0 : Number(error.code ?? 1), report: stdout })
      )
    )
  } finally {
    await rm(root, { recursive: true, force: true })
  }
}

describe("the layout check", () => {
  it("refuses an import circle and an engine module that imports a resource", async () => {
    const { code, report } = await cruise({
      // The engine imports a resource: refused on its own.
      "src/engine/state.ts": 'import { steps } from "../resources/Branches/steps.js"\nexport const state = steps\n',
      "src/resources/Branches/steps.ts": "export const steps = 1\n",
      // Two resources' modules importing each other: a circle.
      "src/resources/Roles/steps.ts":
        'import { databases } from "../Databases/steps.js"\nexport const roles = databases\n',
      "src/resources/Databases/steps.ts":
        'import { roles } from "../Roles/steps.js"\nexport const databases = () => roles\n'
    })
    expect(code).not.toBe(0)
    expect(report).toMatch(/engine-not-to-resources: src\/engine\/state\.ts → src\/resources\/Branches\/steps\.ts/)
    expect(report).toMatch(/no-circular: src\/resources\/(Roles|Databases)\/steps\.ts/)
    expect(report).not.toMatch(/no-circular: src\/engine/)
  }, 120_000)
})
