#!/usr/bin/env node
/**
 * Every section of `docs/` the code cites exists: a citation `docs/<file>.md §N` or
 * `docs/<file>.md §N.M` (backquotes around the file name allowed) must name a heading
 * `## N. ...` or `### N.M ...` of that file, and so must each `§` that follows it in the same
 * list (`docs/contract.md §5, §7 and §10.2`; a range `§2.1–2.3` checks both ends). Any other
 * `§N(.M)` is a citation of `docs/contract.md`, the document the packages cite as `§n`, except
 * one of an RFC (`RFC 9110 §10.2.3`). A numbered rule of a section is cited as `§5 rule 2`.
 *
 *   node scripts/docs-citations.mjs [--list]
 *
 * Scans the `.ts`, `.mts`, `.cts`, `.js` and `.mjs` files under `packages/<name>/src`,
 * `packages/<name>/test`, `apps`, `examples` and `scripts`, and the `README.md` of the
 * repository, of each package and app, and of `examples`. Exits 1 listing each citation without its heading (file, line,
 * citation); `--list` also prints every citation found and what it resolved to.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const list = process.argv.includes("--list")

/** The document a bare `§` cites. */
const defaultDocument = "docs/contract.md"
const codeExtensions = new Set([".ts", ".mts", ".cts", ".js", ".mjs"])
const skipped = new Set(["node_modules", "dist", "build", "docs", ".turbo", ".pack", ".tsbuildinfo", "coverage"])

/** The files under `dir` (recursively) that `keep` accepts; none when `dir` does not exist. */
const walk = (dir, keep) => {
  if (!fs.existsSync(dir)) return []
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return skipped.has(entry.name) ? [] : walk(full, keep)
    return keep(entry.name) ? [full] : []
  })
}

const isCode = (name) => codeExtensions.has(path.extname(name)) && !name.endsWith(".d.ts")
const dirsOf = (parent) =>
  fs
    .readdirSync(path.join(root, parent), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !skipped.has(entry.name))
    .map((entry) => path.join(root, parent, entry.name))
const packages = dirsOf("packages")
const files = [
  ...packages.flatMap((dir) => [...walk(path.join(dir, "src"), isCode), ...walk(path.join(dir, "test"), isCode)]),
  ...["apps", "examples", "scripts"].flatMap((dir) => walk(path.join(root, dir), isCode)),
  ...[root, ...packages, ...dirsOf("apps"), path.join(root, "examples")]
    .map((dir) => path.join(dir, "README.md"))
    .filter((file) => fs.existsSync(file))
]

/** The section numbers of a markdown document: `## 10. ...` gives `10`, `### 10.2 ...` gives `10.2`. */
const sectionsOf = (() => {
  const cache = new Map()
  return (document) => {
    if (!cache.has(document)) {
      const file = path.join(root, document)
      const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined
      const sections =
        text === undefined
          ? undefined
          : new Set(Array.from(text.matchAll(/^#{2,6}\s+(\d+(?:\.\d+)*)\.?\s/gm), (match) => match[1]))
      cache.set(document, sections)
    }
    return cache.get(document)
  }
})()

/** A section number: `10`, `10.2`. */
const number = String.raw`\d+(?:\.\d+)*`
/** One `§` citation, perhaps a range (`§2.1–2.3`, `§2.1-§2.3`). */
const one = String.raw`§(${number})(?:\s*[–-]\s*§?(${number}))?`
/** What joins the citations of one list: `, `, ` and `, ` or `, `/`. */
const joiner = String.raw`\s*(?:,|\band\b|\bor\b|/)\s*`
/** A file citation and the list of `§` after it: `docs/contract.md` §5, §7 and §10.2. */
const fileCitation = new RegExp(String.raw`(docs/[\w.-]+\.md)\`?,?\s+((?:${one})(?:${joiner}(?:${one}))*)`, "g")
const bare = new RegExp(one, "g")

const problems = []
const found = []
for (const file of files) {
  const text = fs.readFileSync(file, "utf8")
  const relative = path.relative(root, file)
  if (relative === path.join("scripts", "docs-citations.mjs")) continue
  const lineOf = (index) => text.slice(0, index).split("\n").length
  /** Offsets of `§` already attributed to a file citation. */
  const attributed = new Set()
  const check = (document, section, index, shown) => {
    const sections = sectionsOf(document)
    const ok = sections?.has(section) === true
    const where = `${relative}:${lineOf(index)}`
    found.push(`${where}: ${shown} -> ${document} ${ok ? "ok" : "MISSING"}`)
    if (!ok) {
      problems.push(
        `${where}: ${shown}: ${sections === undefined ? `${document} does not exist` : `${document} has no section ${section}`}`
      )
    }
  }
  for (const match of text.matchAll(fileCitation)) {
    const document = match[1]
    const start = match.index + match[0].indexOf(match[2])
    for (const cited of match[2].matchAll(bare)) {
      attributed.add(start + cited.index)
      check(document, cited[1], start + cited.index, `${document} ${cited[0]}`)
      if (cited[2] !== undefined) check(document, cited[2], start + cited.index, `${document} ${cited[0]}`)
    }
  }
  for (const cited of text.matchAll(bare)) {
    if (attributed.has(cited.index)) continue
    // A section of another document: `RFC 9110 §10.2.3`.
    if (/\bRFC\s*\d+\s*$/.test(text.slice(Math.max(0, cited.index - 16), cited.index))) continue
    check(defaultDocument, cited[1], cited.index, cited[0])
    if (cited[2] !== undefined) check(defaultDocument, cited[2], cited.index, cited[0])
  }
}

if (list) for (const line of found) console.log(line)
if (problems.length > 0) {
  console.error(
    `docs-citations: ${problems.length} citation(s) of a section that does not exist (a bare § cites ${defaultDocument}):`
  )
  for (const problem of problems) console.error(`  ${problem}`)
  process.exit(1)
}
console.log(`docs-citations: ${found.length} citations in ${files.length} files, each naming a section that exists`)
