#!/usr/bin/env node
/**
 * Packs the published packages (`@dbplatform/core`, `client`, `testing`, `emulator`), built, into
 * `packed/` at the repository root, as `dbplatform-core.tgz`, `dbplatform-client.tgz`,
 * `dbplatform-testing.tgz` and `dbplatform-emulator.tgz` (no version in the name: the README's install lines stay true across
 * releases), each as `pnpm publish` would send it (`workspace:^` replaced by the version). Then
 * prints the lines that install them into another project with npm, as the README's "Install
 * from a clone" says; the smoke test (scripts/smoke.mjs) runs those README lines.
 *
 * Run it through `pnpm pack-packages`, which builds the packages first. The packages are not on
 * the registry yet: this is how another project gets them until the first release.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pnpm, root } from "./lib.mjs"

/** The packages a project installs, in the order they depend on each other. */
const packed = ["core", "client", "testing", "emulator"]

/** Where the tarballs go. */
const packedDir = path.join(root, "packed")

/** The tarball of `name` (`core`, `client`, `testing`, `emulator`) in {@link packedDir}. */
const tarballOf = (name) => path.join(packedDir, `dbplatform-${name}.tgz`)

fs.mkdirSync(packedDir, { recursive: true })
for (const name of packed) {
  const dir = path.join(root, "packages", name)
  if (!fs.existsSync(path.join(dir, "dist"))) {
    throw new Error(`packages/${name}/dist is missing: run \`pnpm pack-packages\`, which builds first`)
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `dbplatform-pack-${name}-`))
  try {
    pnpm(["pack", "--pack-destination", scratch], { cwd: dir, capture: true })
    const [tarball] = fs.readdirSync(scratch).filter((file) => file.endsWith(".tgz"))
    if (tarball === undefined) throw new Error(`pnpm pack wrote no tarball for packages/${name}`)
    fs.copyFileSync(path.join(scratch, tarball), tarballOf(name))
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true })
  }
}

console.log(`packed ${packed.map((name) => `packed/dbplatform-${name}.tgz`).join(", ")}; in your project:
  npm install ${tarballOf("core")} ${tarballOf("client")} effect@^3.22 @effect/platform@^0.97
  npm install -D ${tarballOf("testing")} @effect/vitest@^0.30 vitest@^3.2
  npm install -D ${tarballOf("emulator")}`)
