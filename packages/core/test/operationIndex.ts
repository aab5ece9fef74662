/**
 * The operation index of `docs/contract.md` (§16), derived from core's groups: one row per
 * entry of `Api.endpoints`. `OperationIndex.test.ts` fails when the document's differs;
 * `pnpm operation-index` writes it (`tsx packages/core/test/operationIndex.ts --write`).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { Api } from "../src/index.js"

export const document = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../docs/contract.md")

const start = "<!-- operation-index:start (written by `pnpm operation-index`) -->"
const end = "<!-- operation-index:end -->"

/** The index as it follows from the groups. */
export const render = (): string => {
  const rows = Api.endpoints.map((endpoint) => {
    const list = endpoint.list === undefined ? "" : endpoint.list.cursor === undefined ? "list" : "list, pages"
    return `| \`${endpoint.name}\` | ${endpoint.method} | \`${endpoint.route}\` | ${endpoint.statuses.join(", ")} | ${endpoint.startsOperations ? "yes" : ""} | ${list} | ${endpoint.errors.join(", ")} |`
  })
  return [
    start,
    "| operation | method | route | success | starts operations | list | errors beyond every endpoint's |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...rows,
    end
  ].join("\n")
}

/** A table as written and as Biome aligns it compare equal. */
export const normalize = (table: string): string =>
  table
    .split("\n")
    .map((line) => line.replace(/-{3,}/g, "---").replace(/ {2,}/g, " ").trim())
    .join("\n")

/** The index as `docs/contract.md` has it now, or `undefined` when it has none. */
export const current = (text: string): string | undefined => {
  const from = text.indexOf(start)
  const to = text.indexOf(end)
  return from === -1 || to === -1 ? undefined : text.slice(from, to + end.length)
}

if (process.argv.includes("--write")) {
  const text = fs.readFileSync(document, "utf8")
  const now = current(text)
  if (now === undefined) throw new Error(`${document} has no ${start} ... ${end} section`)
  fs.writeFileSync(document, text.replace(now, render()))
  console.log(
    `wrote the operation index of ${path.relative(process.cwd(), document)}: ${Api.endpoints.length} operations`
  )
}
