#!/usr/bin/env node
/**
 * Checks that every pending changeset (`.changeset/*.md`) parses as `changeset version` will
 * read it, and names only packages of this workspace that are published, so a release never
 * stops on a malformed or mistaken changeset. Run by `pnpm lint`.
 */
import parse from "@changesets/parse"
import { existsSync, readdirSync, readFileSync } from "node:fs"

const root = new URL("../", import.meta.url)
const published = new Set(
  readdirSync(new URL("packages/", root))
    .map((dir) => new URL(`packages/${dir}/package.json`, root))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, "utf8")))
    .filter((pkg) => pkg.private !== true)
    .map((pkg) => pkg.name)
)
const problems = []
for (const file of readdirSync(new URL(".changeset/", root)).filter((name) => name.endsWith(".md"))) {
  try {
    const { releases, summary } = parse(readFileSync(new URL(`.changeset/${file}`, root), "utf8"))
    if (releases.length === 0) problems.push(`${file}: names no package`)
    if (summary.trim() === "") problems.push(`${file}: has no summary`)
    for (const { name } of releases) {
      if (!published.has(name)) problems.push(`${file}: ${name} is not a published package`)
    }
  } catch (error) {
    problems.push(`${file}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`)
  }
}
if (problems.length > 0) {
  console.error(`changesets that \`changeset version\` would refuse:\n  ${problems.join("\n  ")}`)
  process.exit(1)
}
