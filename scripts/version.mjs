#!/usr/bin/env node
/**
 * Writes `@dbplatform/client`'s version (from its package.json) into
 * `packages/client/src/internal/version.ts`, which the client sends in `User-Agent`. Run by
 * `pnpm changeset-version` after `changeset version` bumps the packages; a client test checks the
 * two agree.
 */
import { readFileSync, writeFileSync } from "node:fs"

const root = new URL("../", import.meta.url)
const { version } = JSON.parse(readFileSync(new URL("packages/client/package.json", root), "utf8"))
const file = new URL("packages/client/src/internal/version.ts", root)
const source = `/** This package's version, sent in \`User-Agent\`; kept equal to \`package.json\` by a test. */\nexport const version = ${JSON.stringify(version)}\n`
if (readFileSync(file, "utf8") !== source) {
  writeFileSync(file, source)
  console.log(`packages/client/src/internal/version.ts: ${version}`)
}
