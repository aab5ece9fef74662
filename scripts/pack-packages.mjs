#!/usr/bin/env node
/**
 * Packs the published packages (`@dbplatform/core`, `client`, `testing`, `emulator`), built, into
 * `packed/` at the repository root, as `dbplatform-core.tgz`, `dbplatform-client.tgz`,
 * `dbplatform-testing.tgz` and `dbplatform-emulator.tgz` (no version in the name: the README's
 * install lines stay true across releases), each as `pnpm publish` would send it (`workspace:^`
 * replaced by the version), with one `pnpm pack` over the four (`packPackages` in lib.mjs). Then
 * prints the lines that install them into another project with npm, as the README's "Install
 * from a clone" says.
 *
 * Run it through `pnpm pack-packages`, which builds the packages first. The packages are not on
 * the registry yet: this is how another project gets them until the first release. `pnpm test`
 * packs the same way in its pack check (scripts/pack-check.mjs), which checks these tarballs; the
 * smoke test (scripts/smoke.mjs) then runs the README's lines on them.
 */
import { packPackages, tarballOf } from "./lib.mjs"

const packages = packPackages()
console.log(`packed ${packages.map(({ name }) => `packed/dbplatform-${name}.tgz`).join(", ")}; in your project:
  npm install ${tarballOf("core")} ${tarballOf("client")} effect@^3.22 @effect/platform@^0.97
  npm install -D ${tarballOf("testing")} @effect/vitest@^0.30 vitest@^3.2
  npm install -D ${tarballOf("emulator")}`)
