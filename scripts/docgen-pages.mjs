#!/usr/bin/env node
/**
 * Every page `docgen` wrote (`docs/**\/*.md` of the package it runs in, or of each directory
 * given) starts with its front matter: a first line `---`, `key: value` lines, a closing `---`
 * line. A page without it (e.g. one that starts with `***`, a thematic break a markdown
 * formatter made of the `---`) is not placed in the site's navigation. Run after `docgen` by each
 * package's `docgen` script; exits 1 naming each page without front matter.
 *
 *   node scripts/docgen-pages.mjs [package dir...]   (default: the current directory)
 */
import * as fs from "node:fs"
import * as path from "node:path"

const dirs = process.argv.length > 2 ? process.argv.slice(2) : ["."]

/** The markdown files under `dir`, recursively. */
const pages = (dir) =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const full = path.join(dir, entry.name)
        return entry.isDirectory() ? pages(full) : entry.name.endsWith(".md") ? [full] : []
      })
    : []

/** Why `text` does not start with front matter, or `undefined`. */
const problem = (text) => {
  if (!text.startsWith("---\n")) return `starts with ${JSON.stringify(text.slice(0, 12))}, not "---\\n"`
  const end = text.indexOf("\n---\n", 3)
  if (end < 0) return "its front matter has no closing --- line"
  const lines = text.slice(4, end).split("\n")
  const bad = lines.find((line) => !/^[\w-]+:( .*)?$/.test(line))
  if (bad !== undefined) return `its front matter holds ${JSON.stringify(bad)}, not a key: value line`
  if (!lines.some((line) => line.startsWith("title: "))) return "its front matter has no title"
  return undefined
}

const problems = []
let count = 0
for (const dir of dirs) {
  const found = pages(path.join(dir, "docs"))
  if (found.length === 0) problems.push(`${path.join(dir, "docs")}: no page (did docgen run?)`)
  for (const page of found) {
    count += 1
    const why = problem(fs.readFileSync(page, "utf8"))
    if (why !== undefined) problems.push(`${page}: ${why}`)
  }
}
if (problems.length > 0) {
  console.error("docgen-pages: pages without front matter:")
  for (const line of problems) console.error(`  ${line}`)
  process.exit(1)
}
console.log(`docgen-pages: ${count} pages, each starting with its front matter`)
