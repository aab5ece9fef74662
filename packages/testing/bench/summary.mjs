/**
 * Reads vitest's benchmark results (`bench/results.json`) and prints, per request, the
 * requests per second of `fetch + JSON.parse` and of the client, their ratio, and the client's
 * overhead per request in microseconds (difference of mean times, which vitest gives in ms).
 */
import { readFileSync } from "node:fs"
import { cpus } from "node:os"

const results = JSON.parse(readFileSync(new URL("results.json", import.meta.url), "utf8"))
console.log(`\nNode ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}`)
for (const group of results.files.flatMap((file) => file.groups)) {
  const baseline = group.benchmarks.find((b) => b.name.startsWith("fetch"))
  const sdk = group.benchmarks.find((b) => b.name.startsWith("client"))
  if (baseline === undefined || sdk === undefined) continue
  const route = group.fullName.split(" > ").at(-1)
  const micros = (ms) => (ms * 1000).toFixed(0)
  console.log(
    `${route}\n  fetch + JSON.parse ${baseline.hz.toFixed(0)} req/s, ${micros(baseline.mean)} µs per request` +
      `\n  client             ${sdk.hz.toFixed(0)} req/s, ${micros(sdk.mean)} µs per request` +
      `\n  client / fetch: ${(sdk.hz / baseline.hz).toFixed(2)} of the throughput, ` +
      `${micros(sdk.mean - baseline.mean)} µs overhead per request`
  )
}
