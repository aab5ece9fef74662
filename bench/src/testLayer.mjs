// @ts-check
/**
 * `DbPlatformTest.layer`'s build time, in a process of its own, so that its first build is the
 * first in the process (what the first test of a suite pays, its imports done): builds
 * `DbPlatformTest.layer({ seed })` `1 + count` times, one after another, each from the seed's
 * making (`Seed.realistic()`, or none: the empty seed) to the layer's services built
 * (`ManagedRuntime.runtime()`), as `Effect.provide` builds it for a test; each runtime is disposed
 * after its timing. Prints one JSON line: the first build's ms, and the others', each in elapsed
 * time (`firstMs`, `nextMs`) and in this process's CPU time, user + system (`firstCpuMs`,
 * `nextCpuMs`).
 *
 * `ours` builds this workspace's `@dbplatform/testing`; `baseline` the one `BENCH_BASELINE_TESTING`
 * (or `BENCH_BASELINE`'s checkout) names (`builds.mjs`).
 *
 * `node testLayer.mjs <ours|baseline> <realistic|empty> <count>`
 */
import { baselineTestingDist, loadBaselineTesting, loadOwnTesting } from "./builds.mjs"

const [name = "ours", seed = "realistic", countText = "20"] = process.argv.slice(2)
if (name === "baseline" && baselineTestingDist === undefined) {
  throw new Error("the baseline's test layer needs BENCH_BASELINE")
}
const { DbPlatformTest, ManagedRuntime, Seed } =
  name === "baseline" && baselineTestingDist !== undefined
    ? await loadBaselineTesting(baselineTestingDist)
    : await loadOwnTesting()

/** One build's ms, elapsed and of CPU time. */
const build = async () => {
  const cpu = process.cpuUsage()
  const started = performance.now()
  const runtime = ManagedRuntime.make(DbPlatformTest.layer(seed === "empty" ? {} : { seed: Seed.realistic() }))
  await runtime.runtime()
  const ms = performance.now() - started
  const { system, user } = process.cpuUsage(cpu)
  await runtime.dispose()
  return { ms, cpuMs: (user + system) / 1000 }
}

const first = await build()
/** @type {Array<{ ms: number, cpuMs: number }>} */
const next = []
for (let i = 0; i < Number(countText); i++) next.push(await build())
process.stdout.write(
  `${JSON.stringify({
    name,
    seed,
    firstMs: first.ms,
    firstCpuMs: first.cpuMs,
    nextMs: next.map((build) => build.ms),
    nextCpuMs: next.map((build) => build.cpuMs)
  })}\n`
)
