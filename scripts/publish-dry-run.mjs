#!/usr/bin/env node
/**
 * `pnpm publish -r --dry-run` from the repository root: packs every public package as it would
 * be published (workspace: ranges replaced) and goes through npm's publish checks without
 * uploading. Prints one summary per package; the whole output only when it fails.
 * `--no-git-checks`: CI runs on any branch, and a dry run changes nothing.
 */
import { pnpm, root } from "./lib.mjs"

let output
try {
  output = pnpm(["publish", "-r", "--dry-run", "--no-git-checks"], { cwd: root, capture: true, merge: true })
} catch (error) {
  console.error(error.message)
  process.exit(1)
}
const lines = output.split("\n")
const published = lines.filter((line) => line.startsWith("+ "))
const details = lines
  .map((line) => /npm notice (name|version|package size|unpacked size|total files):\s+(.*)$/.exec(line))
  .filter((match) => match !== null)
const packages = []
for (const [, key, value] of details) {
  if (key === "name") packages.push({ name: value })
  else packages.at(-1)[key] = value
}
for (const p of packages) {
  console.log(
    `${p.name}@${p.version}: ${p["package size"]} packed, ${p["unpacked size"]} unpacked, ${p["total files"]} files`
  )
}
console.log(`publish dry run: ${published.map((line) => line.slice(2)).join(", ") || "nothing to publish"}`)
if (published.length === 0) process.exit(1)
